package compute

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gpuplan/gpuplan/internal/text"
)

// Sentinel errors. Every error from this package wraps one of them; test with
// errors.Is. Like strconv.ErrSyntax, their text carries no package name: it ends the
// message of the error that wraps them, which starts with "compute: ".
var (
	// ErrInvalid reports an input that makes no sense: a negative, zero, NaN or
	// infinite quantity where a positive finite one is needed, a utilization outside
	// (0, 1], an unknown unit, a device count that does not divide.
	ErrInvalid = errors.New("invalid input")
	// ErrRange reports a result that does not fit its type: a duration beyond
	// time.Duration's range (about 292 years) or a device count beyond int32.
	ErrRange = errors.New("out of range")
)

// ParseError reports a string that could not be parsed, in the shape of
// strconv.NumError: the function, the input quoted, and the reason. Unwrap returns
// the reason, which wraps ErrInvalid. The message reads
//
//	compute: ParseFLOPRate "312 TFLOP": unknown unit "TFLOP": invalid input
type ParseError struct {
	Func  string // the function that failed ("ParseFLOPRate")
	Input string // the input, as given
	Err   error  // the reason in plain words, ending with ErrInvalid's text; wraps ErrInvalid
}

// Error describes the failure, quoting the input where there is one.
func (e *ParseError) Error() string {
	return "compute: " + e.Func + " " + quote(e.Input) + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// sizingError carries an error from package sizing (a sizing.Model that fails
// Validate, say) under ErrInvalid: its message is sizing's own after "compute: ",
// and Unwrap reaches both sizing's error and ErrInvalid.
type sizingError struct{ err error }

func (e *sizingError) Error() string { return "compute: " + e.err.Error() }

func (e *sizingError) Unwrap() []error { return []error{e.err, ErrInvalid} }

// finite reports whether f is neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// positive checks that v is finite and > 0.
func positive(what string, v float64) error {
	if !finite(v) || v <= 0 {
		return fmt.Errorf("compute: %s must be positive and finite, got %v: %w", what, v, ErrInvalid)
	}
	return nil
}

// nonNegative checks that v is finite and >= 0.
func nonNegative(what string, v float64) error {
	if !finite(v) || v < 0 {
		return fmt.Errorf("compute: %s must be non-negative and finite, got %v: %w", what, v, ErrInvalid)
	}
	return nil
}

// fraction checks that v is in (0, 1].
func fraction(what string, v float64) error {
	if !(v > 0 && v <= 1) {
		return fmt.Errorf("compute: %s must be in (0, 1], got %v: %w", what, v, ErrInvalid)
	}
	return nil
}

// seconds converts a non-negative, finite number of seconds to a Duration rounded
// to the nearest nanosecond, or returns ErrRange past time.Duration's range. It never
// wraps.
func seconds(s float64) (time.Duration, error) {
	if math.IsNaN(s) || s < 0 {
		return 0, fmt.Errorf("compute: duration of %v seconds, want 0 or more: %w", s, ErrInvalid)
	}
	ns := math.Round(s * float64(time.Second))
	// float64(MaxInt64) rounds up to 2^63, so >= catches every value that overflows.
	if ns >= float64(math.MaxInt64) {
		return 0, fmt.Errorf("compute: %.4g seconds is beyond time.Duration's range (about 292 years): %w", s, ErrRange)
	}
	return time.Duration(ns), nil
}

// quote quotes s for a message, cut to 64 bytes at a character boundary.
func quote(s string) string { return text.Quote(s, 64) }
