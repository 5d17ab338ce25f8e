package compute

import (
	"fmt"
	"math"
)

// Calibration is how a card did on one real run against what this package's model
// predicted for that run, as factors on the model's own speeds: 1 runs as
// modelled, 0.8 ran at 80% of the modelled speed, zero was not measured. Because
// the factors scale the model rather than replace it, a measurement on one model
// carries over to another on the same card: the model still works out what
// differs between them (sizes, shapes, lengths), and the factor keeps what the
// model missed about the card and its software.
//
// Job.Fit and Serving.Fit work one out from a measurement; Job.Calibration and
// Serving.Calibration apply one. A job's explicit Utilization takes precedence
// over its calibration.
type Calibration struct {
	// Train divides the modelled on-device time of a training step (its matrix
	// multiplies, attention, memory-bound work and optimizer update);
	// communication and what waits on it are as modelled.
	Train float64 `json:"train"`
	// Decode divides the modelled on-device time of a serving step (reading the
	// weights and the KV cache, and computing); the all-reduces and the fixed
	// cost of a request are as modelled.
	Decode float64 `json:"decode"`
}

// maxCalibration bounds a factor: a card 1000 times faster or slower than
// modelled is a measurement of something else.
const maxCalibration = 1000.0

// Validate reports a factor that is negative, not finite or past 1000 (a card a
// thousand times faster than modelled measures something else), wrapping
// ErrInvalid.
func (c Calibration) Validate() error {
	for _, f := range [...]struct {
		name string
		v    float64
	}{{"train", c.Train}, {"decode", c.Decode}} {
		if !finite(f.v) || f.v < 0 || f.v > maxCalibration {
			return fmt.Errorf("compute: calibration %s factor %v, want 0 (not measured) or a positive factor up to %v: %w",
				f.name, f.v, maxCalibration, ErrInvalid)
		}
	}
	return nil
}

// fitFactor returns the factor under which modelled, a time that falls as the
// factor grows (the factor divides the modelled on-device time), equals want,
// found by bisection on the factor's logarithm between 1/maxCalibration and
// maxCalibration; ok is false when it lands at either end, past what a
// calibration allows. Job.Fit and Serving.Fit share it.
func fitFactor(modelled func(f float64) float64, want float64) (f float64, ok bool) {
	lo, hi := 1/maxCalibration, maxCalibration
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if modelled(mid) > want {
			lo = mid
		} else {
			hi = mid
		}
		if hi/lo < 1+1e-15 {
			break
		}
	}
	f = math.Sqrt(lo * hi)
	return f, f > 1.001/maxCalibration && f < maxCalibration/1.001
}
