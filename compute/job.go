package compute

import (
	"errors"
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// Job is a training job on a set of identical devices, the input of the planner's
// duration estimate. Devices are split into Tensor-way tensor-parallel groups
// (Shoeybi et al. 2019), and the Devices/Tensor groups train as data-parallel
// replicas that all-reduce their gradients once per step.
//
// Work and Utilization are both in model FLOPs: give Work from TrainingFLOPs and
// Utilization as model FLOPs utilization (MFU), which already absorbs the cost of
// recomputation. The per-step compute is derived from the model, so only Work's
// total, not its formula, has to agree with Model.
//
// One Link joins every device; a job spread over several machines should give the
// slowest link on the ring (the network between the machines).
type Job struct {
	Model sizing.Model `json:"model"`
	Work  FLOPs        `json:"work_flop"` // total work of the job; zero takes no time

	// Precision of the gradients sent between devices; activations travel at its
	// compute width (Precision.ComputeBits, 16 bits below FP16). Zero: BF16.
	Precision sizing.Precision `json:"precision"`
	Recompute sizing.Recompute `json:"recompute"` // full recompute repeats the forward all-reduces

	Batch  int `json:"batch"`   // micro-batch per data-parallel replica, in sequences; at least 1
	SeqLen int `json:"seq_len"` // tokens per sequence; at least 1

	Devices int `json:"devices"` // 1 to sizing.MaxDevices
	Tensor  int `json:"tensor"`  // tensor-parallel degree; zero: 1; must divide Devices

	PeakPerDevice FLOPRate `json:"peak_per_device_flops"` // dense peak at the compute precision
	Link          Link     `json:"link"`                  // needed when Devices > 1

	Utilization Band    `json:"utilization"` // zero: PublishedMFU
	Overlap     float64 `json:"overlap"`     // fraction of the gradient all-reduce hidden behind compute, in [0, 1]
}

// Timing is the answer to Job.Time. Duration, Step, Steps, Compute, Comm and
// Efficiency are at the middle of the utilization band; Low and High are the
// durations at its high and low ends. Low <= Duration <= High always holds exactly
// (each is rounded to the nanosecond, then Low and High are clamped to Duration).
type Timing struct {
	Duration time.Duration `json:"duration"`
	Low      time.Duration `json:"low"`  // at Utilization.High
	High     time.Duration `json:"high"` // at Utilization.Low

	Step  time.Duration `json:"step"`  // one step: compute plus exposed communication
	Steps float64       `json:"steps"` // steps the work takes (fractional)

	Compute time.Duration `json:"compute"` // the job's time computing
	Comm    time.Duration `json:"comm"`    // the job's exposed communication
	// Efficiency is the scaling efficiency Compute / (Compute + Comm): 1 for one
	// device or a free link.
	Efficiency float64 `json:"efficiency"`

	Data   int `json:"data"`   // data-parallel degree, Devices / Tensor
	Tensor int `json:"tensor"` // tensor-parallel degree
}

// defaulted returns the tensor degree, the precision and the band with zero values
// resolved.
func (j Job) defaulted() (int, sizing.Precision, Band) {
	t := j.Tensor
	if t == 0 {
		t = 1
	}
	p := j.Precision
	if p == 0 {
		p = sizing.BF16
	}
	return t, p, j.Utilization.orDefault()
}

// Validate reports every problem with the job's fields, joined with errors.Join; each
// wraps ErrInvalid. The model must pass sizing.Model.Validate.
func (j Job) Validate() error {
	t, p, band := j.defaulted()
	var errs []error
	if err := checkModel(j.Model); err != nil {
		errs = append(errs, err)
	}
	if err := nonNegative("work", float64(j.Work)); err != nil {
		errs = append(errs, err)
	}
	if !p.Valid() {
		errs = append(errs, fmt.Errorf("compute: precision %v is not a known precision: %w", p, ErrInvalid))
	}
	if j.Recompute > sizing.FullRecompute {
		errs = append(errs, fmt.Errorf("compute: recompute strategy %v is not a known strategy: %w", j.Recompute, ErrInvalid))
	}
	if j.Batch < 1 || j.SeqLen < 1 {
		errs = append(errs, fmt.Errorf("compute: batch %d and sequence length %d must be at least 1: %w", j.Batch, j.SeqLen, ErrInvalid))
	}
	if j.Devices < 1 || j.Devices > sizing.MaxDevices {
		errs = append(errs, fmt.Errorf("compute: %d devices, want 1 to %d (sizing.MaxDevices): %w", j.Devices, sizing.MaxDevices, ErrInvalid))
	}
	if t < 1 || (j.Devices >= 1 && j.Devices%t != 0) {
		errs = append(errs, fmt.Errorf("compute: tensor-parallel degree %d does not divide %d devices: %w", j.Tensor, j.Devices, ErrInvalid))
	}
	if t > 1 && !j.Model.HasArchitecture() {
		errs = append(errs, fmt.Errorf("compute: tensor parallelism needs the model's layers and hidden size: %w", ErrInvalid))
	} else if t > 1 && j.Model.Heads%t != 0 {
		errs = append(errs, fmt.Errorf("compute: tensor-parallel degree %d does not divide %d attention heads: %w", t, j.Model.Heads, ErrInvalid))
	}
	if err := positive("peak per device", float64(j.PeakPerDevice)); err != nil {
		errs = append(errs, err)
	}
	if j.Devices > 1 {
		if err := j.Link.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := band.Validate(); err != nil {
		errs = append(errs, err)
	}
	if !(j.Overlap >= 0 && j.Overlap <= 1) {
		errs = append(errs, fmt.Errorf("compute: overlap %v is outside [0, 1]: %w", j.Overlap, ErrInvalid))
	}
	return errors.Join(errs...)
}

// Time estimates how long the job takes. Per step, each device computes its share of
// one micro-batch's model FLOPs, (6·N + 6·l·s·d_attn)·Batch·SeqLen / Tensor
// (TrainingFLOPs' count), at PeakPerDevice × utilization; the replicas then
// all-reduce their gradients (ParamCount / Tensor parameters at Precision) over the
// Data devices, of which Overlap may hide behind compute (Exposed), and each
// tensor-parallel group all-reduces activations on the critical path
// (TensorParallelComm). The step time is compute plus exposed communication, and the
// job takes Work / (step work × Data) steps.
//
// It allocates nothing unless it fails, so a planner may call it for every layout of
// every offer. Errors: ErrInvalid for bad fields (see Validate), ErrRange for a
// duration past time.Duration's range.
func (j Job) Time() (Timing, error) {
	t, p, band := j.defaulted()
	if err := j.Validate(); err != nil {
		return Timing{}, err
	}
	n := matmulParams(j.Model) // Validate checked the model
	tokens := float64(j.Batch) * float64(j.SeqLen)
	perToken := 6 * float64(n)
	if j.Model.HasArchitecture() {
		perToken += 6 * float64(j.Model.Layers) * float64(j.SeqLen) * float64(attnDim(j.Model))
	}
	replicaWork := perToken * tokens // one micro-batch on one replica
	data := j.Devices / t

	var dp, tp float64
	var err error
	if j.Devices > 1 {
		grad := float64(j.Model.ParamCount()) / float64(t) * p.Bits() / 8
		dp = j.Link.allReduce(grad, data)
		if tp, err = tpComm(j.Model, j.Batch, j.SeqLen, t, p, j.Recompute, j.Link); err != nil {
			return Timing{}, err
		}
	}
	steps := float64(j.Work) / (replicaWork * float64(data))

	at := func(u float64) (step, comp, exp float64) {
		comp = replicaWork / float64(t) / (float64(j.PeakPerDevice) * u)
		exp = exposed(dp, comp, j.Overlap) + tp
		return comp + exp, comp, exp
	}
	step, comp, exp := at(band.Mid())
	var tm Timing
	tm.Data, tm.Tensor, tm.Steps = data, t, steps
	tm.Efficiency = efficiency(comp, exp)
	if tm.Step, err = seconds(step); err != nil {
		return Timing{}, err
	}
	if tm.Duration, err = seconds(steps * step); err != nil {
		return Timing{}, err
	}
	if tm.Compute, err = seconds(steps * comp); err != nil {
		return Timing{}, err
	}
	if tm.Comm, err = seconds(steps * exp); err != nil {
		return Timing{}, err
	}
	lo, _, _ := at(band.High)
	if tm.Low, err = seconds(steps * lo); err != nil {
		return Timing{}, err
	}
	hi, _, _ := at(band.Low)
	if tm.High, err = seconds(steps * hi); err != nil {
		return Timing{}, err
	}
	// Each end is rounded on its own; where the step does not depend on the
	// utilization (communication-bound with full overlap) the three can differ by a
	// nanosecond the wrong way. Clamp so that Low <= Duration <= High always holds.
	tm.Low, tm.High = min(tm.Low, tm.Duration), max(tm.High, tm.Duration)
	return tm, nil
}

// WithZeRO returns tm, the timing of a data-parallel job, with what a ZeRO layout
// adds that Job.Time does not model:
//
//   - stage 3 gathers the weights before the forward and the backward pass and
//     reduce-scatters the gradients, 3Ψ per step against data parallelism's 2Ψ
//     (Rajbhandari et al. 2020, §7.2): the exposed communication grows by half;
//   - an offloaded optimizer sends each step's gradients (offload, this device's
//     shard of them, in bytes) to the host and as many bytes of updated weights
//     back over host, not overlapped (Ren et al. 2021, ZeRO-Offload). It is a lower
//     bound: the CPU's own optimizer step, which ZeRO-Offload overlaps with the
//     next step, is not counted.
//
// The added time lands on Duration, Low and High alike, and Efficiency falls in
// proportion. Stage 0 to 2 without offload returns tm unchanged. Errors:
// ErrInvalid for a stage outside 0 to 3, a negative offload or a host bandwidth
// that is not positive when offload is set; ErrRange past time.Duration's range.
func (tm Timing) WithZeRO(stage int, offload sizing.Bytes, host Bandwidth) (Timing, error) {
	if stage < 0 || stage > 3 || offload < 0 {
		return Timing{}, fmt.Errorf("compute: ZeRO stage %d with %d bytes offloaded: want stage 0 to 3 and bytes >= 0: %w", stage, offload, ErrInvalid)
	}
	var extra float64 // seconds
	if stage == 3 && tm.Comm > 0 {
		extra += (tm.Comm / 2).Seconds()
	}
	if offload > 0 && tm.Steps > 0 {
		if err := positive("host bandwidth", float64(host)); err != nil {
			return Timing{}, err
		}
		extra += 2 * float64(offload) / float64(host) * tm.Steps
	}
	if extra == 0 {
		return tm, nil
	}
	out := tm
	var err error
	for _, d := range []*time.Duration{&out.Duration, &out.Low, &out.High} {
		if *d, err = seconds(d.Seconds() + extra); err != nil {
			return Timing{}, err
		}
	}
	out.Efficiency *= float64(tm.Duration) / float64(out.Duration)
	return out, nil
}
