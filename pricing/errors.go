package pricing

import (
	"errors"
	"strconv"
)

// Sentinel errors. Every error from this package wraps one of them; test with
// errors.Is.
var (
	// ErrInvalid reports an input that makes no sense: a negative price, a missing
	// or malformed currency code, a tariff that offers nothing, a negative duration,
	// a malformed price list.
	ErrInvalid = errors.New("pricing: invalid input")
	// ErrCurrencyMismatch reports arithmetic or a comparison across two currencies.
	// The package never converts currencies: convert before comparing.
	ErrCurrencyMismatch = errors.New("pricing: currency mismatch")
	// ErrUnavailable reports an offer that cannot serve a usage: it has fewer GPUs
	// than asked for, or lacks the price the usage pattern needs (a trial needs an
	// hourly price; a tariff without one can only sell packages).
	ErrUnavailable = errors.New("pricing: offer cannot serve this usage")
)

// ParseError reports a problem in a price list, in the shape of strconv.NumError:
// where it is (a 1-based line, and the field or column when known), the input as
// written, and the reason, which Unwrap returns and which wraps ErrInvalid.
type ParseError struct {
	Line  int    // 1-based line in the input; zero when unknown
	Field string // the column or JSON field; empty for the whole record
	Input string // the offending text, as written (shortened when long)
	Err   error  // the reason; wraps ErrInvalid
}

// Error describes the failure, quoting the input where there is one.
func (e *ParseError) Error() string {
	s := "pricing: line " + strconv.Itoa(e.Line)
	if e.Field != "" {
		s += ", field " + e.Field
	}
	if e.Input != "" {
		s += ", input " + quote(e.Input)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// quote quotes s for an error message, shortened to at most 64 bytes of input.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}
