package sizing

import "fmt"

// Calibration carries a measured peak into other estimates. The difference between
// what a device actually used for one configuration and what Estimate models for it
// (every term but Overhead) is what the model leaves out on that setup: the CUDA
// context, the allocator's cache and fragmentation, library workspaces. Used as the
// Overhead of other configurations of the same software stack, it sharpens each
// later answer. The zero value carries no overhead at all.
//
// Which measurement: nvidia-smi's "memory used" for the process includes the CUDA
// context and everything PyTorch's caching allocator holds, so it is the right peak
// for "will it fit". torch.cuda.max_memory_allocated counts only live tensors,
// neither the context (several hundred MiB) nor the cache, so an overhead
// calibrated from it is close to zero; torch.cuda.max_memory_reserved adds the
// cache but still not the context.
type Calibration struct {
	Measured Bytes `json:"measured_bytes"` // the peak that was measured
	Modelled Bytes `json:"modelled_bytes"` // the estimate's terms other than Overhead for it
	Overhead Bytes `json:"overhead_bytes"` // Measured − Modelled, carried to other estimates
}

// Calibrate returns the calibration for a measured peak of measured bytes per
// device running w on m.
//
// A measurement below the modelled terms means the estimate overstates this setup
// (for example activations of a model trained without dropout, or a framework that
// frees the logits early). A negative overhead would carry that error into
// configurations where it may not hold and could make small estimates negative, so
// Calibrate refuses it: the error wraps ErrInvalid and says by how much the model
// exceeds the measurement. Check the measurement's configuration first.
func Calibrate(m Model, w Workload, measured Bytes) (Calibration, error) {
	if measured <= 0 {
		return Calibration{}, fmt.Errorf("sizing: measured peak %d bytes is not positive: %w", int64(measured), ErrInvalid)
	}
	b, err := Estimate(m, w)
	if err != nil {
		return Calibration{}, err
	}
	modelled := b.Total() - b.Overhead
	if measured < modelled {
		return Calibration{}, fmt.Errorf("sizing: measured peak of %s is %s below the estimate's %s without overhead; the model overstates this configuration: %w",
			sized(measured), sized(modelled-measured), sized(modelled), ErrInvalid)
	}
	return Calibration{Measured: measured, Modelled: modelled, Overhead: measured - modelled}, nil
}

// Apply returns w with its Overhead set to the calibrated one, for MaxContext,
// MaxBatch and other functions that take a Workload. Since a zero Overhead in a
// Workload means DefaultOverhead, a calibrated overhead of zero becomes one byte.
func (c Calibration) Apply(w Workload) Workload {
	w.Overhead = max(c.Overhead, 1)
	return w
}

// Estimate returns Estimate(m, w) with the calibrated overhead in place of w's. For
// the configuration that was measured its Total is the measurement.
func (c Calibration) Estimate(m Model, w Workload) (Breakdown, error) {
	if c.Overhead < 0 {
		return Breakdown{}, fmt.Errorf("sizing: calibration overhead %d bytes is negative: %w", int64(c.Overhead), ErrInvalid)
	}
	b, err := Estimate(m, c.Apply(w))
	if err != nil {
		return Breakdown{}, err
	}
	b.Overhead = c.Overhead
	return b, nil
}
