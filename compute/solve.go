package compute

import (
	"fmt"
	"math"
	"time"
)

// Band is a range of utilization, the fraction of peak FLOP/s a job sustains:
// 0 < Low <= High <= 1. Results computed over a band carry the duration at each end.
// The zero Band is unset: a Job then builds its step from its parts.
type Band struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// DefaultUtilization is one fraction of peak for a caller that wants a single
// figure (TimeFor, DevicesFor): 0.45, the midpoint of the PublishedMFU band (PaLM
// 540B reported 46.2% model FLOPs utilization, Chowdhery et al. 2022, Table 3). Job
// builds its step from its parts instead when given no Utilization. The first seed
// article's 60–80% is higher than large training runs report; see SeedUtilization.
const DefaultUtilization = 0.45

// SeedUtilization returns the first seed article's 60–80% of peak. It is a function,
// not a variable, so that no caller can change it for another.
func SeedUtilization() Band { return Band{Low: 0.6, High: 0.8} }

// PublishedMFU returns 38–52%, the model FLOPs utilization large training runs
// report: Llama 3 405B 38–43% on 16,384 H100s (Dubey et al. 2024, Table 4), PaLM 540B
// 46.2% (Chowdhery et al. 2022), Megatron 1T 52% of A100 peak (Narayanan et al. 2021).
// Its midpoint is DefaultUtilization.
func PublishedMFU() Band { return Band{Low: 0.38, High: 0.52} }

// Point returns the band Low = High = u.
func Point(u float64) Band { return Band{Low: u, High: u} }

// Validate reports a band outside 0 < Low <= High <= 1, wrapping ErrInvalid.
func (b Band) Validate() error {
	if err := fraction("utilization low", b.Low); err != nil {
		return err
	}
	if err := fraction("utilization high", b.High); err != nil {
		return err
	}
	if b.Low > b.High {
		return fmt.Errorf("compute: utilization low %v above high %v: %w", b.Low, b.High, ErrInvalid)
	}
	return nil
}

// Mid returns the middle of the band, (Low + High) / 2.
func (b Band) Mid() float64 { return (b.Low + b.High) / 2 }

// Span is a duration range: Low is the time at the band's high utilization, High the
// time at its low utilization.
type Span struct {
	Low  time.Duration `json:"low"`
	High time.Duration `json:"high"`
}

// TimeFor returns work / sustained, rounded to the nearest nanosecond. work must be
// finite and non-negative (zero work takes zero time); sustained must be finite and
// positive. It returns an error wrapping ErrInvalid for bad input and ErrRange when
// the duration exceeds time.Duration's range (about 292 years); it never wraps.
func TimeFor(work FLOPs, sustained FLOPRate) (time.Duration, error) {
	if err := nonNegative("work", float64(work)); err != nil {
		return 0, err
	}
	if err := positive("sustained rate", float64(sustained)); err != nil {
		return 0, err
	}
	return seconds(float64(work) / float64(sustained))
}

// DeviceHours returns the device-hours work takes at sustained FLOP/s per device:
// work / sustained / 3600, as a float64 of hours, so that it has no range to fall
// out of (TimeFor stops at time.Duration's 292 years, which one device's share of a
// frontier run exceeds: Llama 3 405B's 3.8e25 FLOPs at 400 TFLOP/s are 26.4
// million H100-hours). work must be finite and non-negative, sustained finite and
// positive (ErrInvalid).
func DeviceHours(work FLOPs, sustained FLOPRate) (float64, error) {
	if err := nonNegative("work", float64(work)); err != nil {
		return 0, err
	}
	if err := positive("sustained rate", float64(sustained)); err != nil {
		return 0, err
	}
	h := float64(work) / float64(sustained) / 3600
	if !finite(h) {
		return 0, fmt.Errorf("compute: %g FLOPs at %g FLOP/s overflows float64 hours: %w", float64(work), float64(sustained), ErrRange)
	}
	return h, nil
}

// RateFor returns the sustained rate that finishes work within the duration:
// work / within. The first seed article's example, 1e17 FLOPs in a day, needs
// 1.157 TFLOP/s. within must be positive and work finite and non-negative
// (ErrInvalid); a rate beyond float64's range (1e308 FLOPs in a nanosecond) is
// ErrRange, never +Inf.
func RateFor(work FLOPs, within time.Duration) (FLOPRate, error) {
	if err := nonNegative("work", float64(work)); err != nil {
		return 0, err
	}
	if within <= 0 {
		return 0, fmt.Errorf("compute: deadline %v must be positive: %w", within, ErrInvalid)
	}
	r := float64(work) / within.Seconds()
	if !finite(r) {
		return 0, fmt.Errorf("compute: %g FLOPs within %v needs a rate beyond float64's range: %w", float64(work), within, ErrRange)
	}
	return FLOPRate(r), nil
}

// PeakFor returns the peak rate a device (or a set of them together) needs to finish
// work within the deadline at the given utilization: RateFor(work, within) /
// utilization. utilization must be in (0, 1]. Errors are RateFor's, and ErrRange
// when the peak is beyond float64's range.
func PeakFor(work FLOPs, within time.Duration, utilization float64) (FLOPRate, error) {
	if err := fraction("utilization", utilization); err != nil {
		return 0, err
	}
	r, err := RateFor(work, within)
	if err != nil {
		return 0, err
	}
	peak := float64(r) / utilization
	if !finite(peak) {
		return 0, fmt.Errorf("compute: %g FLOP/s at utilization %g needs a peak beyond float64's range: %w", float64(r), utilization, ErrRange)
	}
	return FLOPRate(peak), nil
}

// maxDevices bounds DevicesFor's answer.
const maxDevices = math.MaxInt32

// DevicesFor returns the fewest devices of peak peakPerDevice that finish work within
// the deadline when each sustains utilization of its peak and the set scales with
// scalingEfficiency (1: perfect; see Efficiency and Job for a figure from the
// interconnect): ceil(work / (within · peak · utilization · efficiency)). Zero work
// needs zero devices. utilization and scalingEfficiency must be in (0, 1]
// (ErrInvalid); more than 2^31−1 devices is ErrRange.
//
// It treats the efficiency as fixed; in practice it falls as devices are added, so
// check the answer with Job.Time.
func DevicesFor(work FLOPs, within time.Duration, peakPerDevice FLOPRate, utilization, scalingEfficiency float64) (int, error) {
	if err := positive("peak per device", float64(peakPerDevice)); err != nil {
		return 0, err
	}
	if err := fraction("scaling efficiency", scalingEfficiency); err != nil {
		return 0, err
	}
	need, err := PeakFor(work, within, utilization)
	if err != nil {
		return 0, err
	}
	n := float64(need) / (float64(peakPerDevice) * scalingEfficiency)
	// Forgive the last bits of rounding so that an exact fit (3.0000000000000004)
	// does not ask for one device more.
	n = math.Ceil(n * (1 - 1e-12))
	if !(n <= maxDevices) {
		return 0, fmt.Errorf("compute: %.4g devices needed, beyond int32: %w", n, ErrRange)
	}
	return int(n), nil
}

// TimeBand returns the time work takes on peak at each end of the utilization band:
// Low at band.High, High at band.Low. Errors are as for TimeFor and Band.Validate.
func TimeBand(work FLOPs, peak FLOPRate, band Band) (Span, error) {
	if err := band.Validate(); err != nil {
		return Span{}, err
	}
	if err := positive("peak", float64(peak)); err != nil {
		return Span{}, err
	}
	lo, err := TimeFor(work, peak*FLOPRate(band.High))
	if err != nil {
		return Span{}, err
	}
	hi, err := TimeFor(work, peak*FLOPRate(band.Low))
	if err != nil {
		return Span{}, err
	}
	return Span{Low: lo, High: hi}, nil
}
