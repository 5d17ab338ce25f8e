package pricing

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
)

// Sentinel errors. Every error from this package wraps one of them; test with
// errors.Is. Like strconv.ErrSyntax, their text carries no package name: it ends the
// message of the error that wraps them, which starts with "pricing: ".
var (
	// ErrInvalid reports an input that makes no sense: a negative price, a missing
	// or malformed currency code, a tariff that offers nothing, a negative duration,
	// a malformed price list.
	ErrInvalid = errors.New("invalid input")
	// ErrCurrencyMismatch reports arithmetic or a comparison across two currencies.
	// The package never converts currencies: convert before comparing.
	ErrCurrencyMismatch = errors.New("currency mismatch")
	// ErrUnavailable reports an offer that cannot serve a usage: it has fewer GPUs
	// than asked for, or lacks the price the usage pattern needs (a trial needs an
	// hourly price; a tariff without one can only sell packages).
	ErrUnavailable = errors.New("offer cannot serve this usage")
)

// ParseError reports a problem in a price list, in the shape of strconv.NumError:
// where it is (a 1-based line, and the field or column when known), the input as
// written, and the reason, which Unwrap returns and which wraps ErrInvalid.
type ParseError struct {
	Line  int    // 1-based line in the input; zero when unknown
	Field string // the column or JSON field; empty for the whole record
	Input string // the offending text, as written (shortened when long)
	Err   error  // the reason in plain words, ending with ErrInvalid's text; wraps ErrInvalid and the reason's own sentinel, if any
}

// Error describes the failure: where it is, the input quoted once, the reason and
// the sentinel's text, as in
//
//	pricing: line 2, field hourly, input "abc": not a plain decimal such as 12.50: invalid input
//
// A reason of several lines (an offer that fails Validate on several counts) gives
// one such line each.
func (e *ParseError) Error() string {
	var loc []string
	if e.Line > 0 {
		loc = append(loc, "line "+strconv.Itoa(e.Line))
	}
	if e.Field != "" {
		loc = append(loc, "field "+e.Field)
	}
	if e.Input != "" {
		loc = append(loc, "input "+quote(e.Input))
	}
	prefix := "pricing: "
	if len(loc) > 0 {
		prefix += strings.Join(loc, ", ") + ": "
	}
	return prefix + strings.ReplaceAll(reasonText(e.Err, e.Input), "\n", "\n"+prefix)
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// inputError is a reason about one input, such as a malformed price. Alone it reads
// `pricing: <what> "<input>": <reason>: <sentinel>`; inside a *ParseError or a
// fieldError that quote the input already, only `<reason>: <sentinel>`.
type inputError struct {
	what   string // what the input is ("currency", "rounding mode"); may be empty
	input  string
	reason string // plain words: "want half_up or half_even"
	err    error  // the sentinel
}

func (e *inputError) Error() string {
	s := "pricing: "
	if e.what != "" {
		s += e.what + " "
	}
	return s + quote(e.input) + ": " + e.reason + ": " + e.err.Error()
}

func (e *inputError) Unwrap() error { return e.err }

// reasonText is err's message for a caller that has already written "pricing: " and
// quoted input: an inputError about that same input gives its reason alone, and
// any other error its message less the package name at the start of each line.
func reasonText(err error, input string) string {
	if ie, ok := err.(*inputError); ok && input != "" && ie.input == input {
		return ie.reason + ": " + ie.err.Error()
	}
	return strings.Join(text.Unprefixed(err, ""), "\n")
}

// quote quotes s for a message, cut to 64 bytes at a character boundary.
func quote(s string) string { return text.Quote(s, 64) }
