package compute

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Sentinel errors. Every error from this package wraps one of them; test with
// errors.Is.
var (
	// ErrInvalid reports an input that makes no sense: a negative, zero, NaN or
	// infinite quantity where a positive finite one is needed, a utilization outside
	// (0, 1], an unknown unit, a device count that does not divide.
	ErrInvalid = errors.New("compute: invalid input")
	// ErrRange reports a result that does not fit its type: a duration beyond
	// time.Duration's range (about 292 years) or a device count beyond int32.
	ErrRange = errors.New("compute: out of range")
)

// ParseError reports a string that could not be parsed, in the shape of
// strconv.NumError: the function, the input quoted, and the reason. Unwrap returns
// the reason, which wraps ErrInvalid.
type ParseError struct {
	Func  string // the function that failed ("ParseFLOPRate")
	Input string // the input, as given
	Err   error  // the reason; wraps ErrInvalid
}

// Error describes the failure, quoting the input where there is one.
func (e *ParseError) Error() string {
	return "compute: " + e.Func + " " + quote(e.Input) + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

func quote(s string) string {
	const max = 64
	if len(s) > max {
		s = s[:max] + "..."
	}
	return strconv.Quote(s)
}

// finite reports whether f is neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// positive checks that v is finite and > 0.
func positive(what string, v float64) error {
	if !finite(v) || v <= 0 {
		return fmt.Errorf("%w: %s must be positive and finite, got %v", ErrInvalid, what, v)
	}
	return nil
}

// nonNegative checks that v is finite and >= 0.
func nonNegative(what string, v float64) error {
	if !finite(v) || v < 0 {
		return fmt.Errorf("%w: %s must be non-negative and finite, got %v", ErrInvalid, what, v)
	}
	return nil
}

// fraction checks that v is in (0, 1].
func fraction(what string, v float64) error {
	if !(v > 0 && v <= 1) {
		return fmt.Errorf("%w: %s must be in (0, 1], got %v", ErrInvalid, what, v)
	}
	return nil
}

// seconds converts a non-negative, finite number of seconds to a Duration rounded
// to the nearest nanosecond, or returns ErrRange past time.Duration's range. It never
// wraps.
func seconds(s float64) (time.Duration, error) {
	if math.IsNaN(s) || s < 0 {
		return 0, fmt.Errorf("%w: duration of %v seconds", ErrInvalid, s)
	}
	ns := math.Round(s * float64(time.Second))
	// float64(MaxInt64) rounds up to 2^63, so >= catches every value that overflows.
	if ns >= float64(math.MaxInt64) {
		return 0, fmt.Errorf("%w: %.4g seconds is beyond time.Duration's range (about 292 years)", ErrRange, s)
	}
	return time.Duration(ns), nil
}
