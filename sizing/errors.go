package sizing

import (
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/internal/text"
	"strconv"
)

// Sentinel errors. Every error from this package wraps one of them; test with
// errors.Is. Like strconv.ErrSyntax, their text carries no package name: it ends the
// message of the error that wraps them, which starts with "sizing: ".
var (
	// ErrInvalid reports an input that makes no sense: a negative or zero size,
	// heads that do not divide the hidden size, a ZeRO stage out of range, a value
	// that overflows.
	ErrInvalid = errors.New("invalid input")
	// ErrNotFound reports an unknown preset or name.
	ErrNotFound = errors.New("not found")
	// ErrDoesNotFit reports that not even the smallest value of a search fits the
	// capacity (MaxContext, MaxBatch), or that no candidate precision does
	// (FitPrecision).
	ErrDoesNotFit = errors.New("does not fit")
)

// ParseError reports a string that could not be parsed, in the shape of
// strconv.NumError: the function, the input quoted, and the reason, whose sentinel
// Unwrap returns.
type ParseError struct {
	Func  string // the function that failed ("ParseBytes")
	Input string // the input, as given
	Err   error  // the reason in plain words, ending with ErrInvalid's text; wraps ErrInvalid
}

// Error describes the failure, quoting the input where there is one.
func (e *ParseError) Error() string {
	return "sizing: " + e.Func + " " + quote(e.Input) + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// invalidReason is the reason inside a *ParseError or a field problem: its own message,
// wrapping ErrInvalid.
type invalidReason struct{ msg string }

func (e *invalidReason) Error() string { return e.msg + ": " + ErrInvalid.Error() }

// Unwrap returns ErrInvalid.
func (e *invalidReason) Unwrap() error { return ErrInvalid }

// newInvalidReason returns an error with message msg that wraps ErrInvalid.
func newInvalidReason(msg string) error { return &invalidReason{msg} }

// sized writes a positive size for an error message: rounded for people, then exact,
// as in "13.6 GiB (14551307776 bytes)".
func sized(b Bytes) string {
	return b.Human() + " (" + strconv.FormatInt(int64(b), 10) + " bytes)"
}

// quote quotes s for a message, cut to 64 bytes at a character boundary.
func quote(s string) string { return text.Quote(s, 64) }

// reason is another package's error message (encoding/json's, which may quote a
// whole key of the input) for a message of ours, cut to 200 bytes at a character
// boundary, a value of the wrong JSON type said without Go's type names
// (text.JSONReason).
func reason(err error) string { return text.JSONReason(err, 200) }

// problems collects what a validator finds: Validate keeps each problem as an
// error (prefix, then the formatted problem, wrapping ErrInvalid), while the
// allocation-free checks of Estimate's hot path only count them (collect false), so
// a problem's arguments are boxed only when it is found.
type problems struct {
	collect bool
	prefix  string // "sizing: model: ", with a %s verb for the quoted name when name is set
	name    string
	n       int
	errs    []error
}

// add records one problem.
func (p *problems) add(format string, args ...any) {
	p.n++
	if !p.collect {
		return
	}
	if p.name != "" {
		args = append([]any{quote(p.name)}, args...) // quoted only when a problem is found
	}
	p.errs = append(p.errs, fmt.Errorf(p.prefix+format+": %w", append(args, ErrInvalid)...))
}

// err joins the problems found, nil when there are none.
func (p *problems) err() error { return errors.Join(p.errs...) }
