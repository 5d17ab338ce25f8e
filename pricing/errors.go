package pricing

import (
	"errors"
	"fmt"
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

// FieldError reports a problem with one field of an input, in the shape of
// strconv.NumError: Field is the field's JSON key, dotted when nested
// ("tariff.hourly", "tariff.terms[0].monthly"), and empty for a problem of the
// value as a whole ("nothing offered"); Err is the reason in plain words, without
// the package name, wrapping ErrInvalid (or ErrCurrencyMismatch). Validate methods
// return one per problem, joined with errors.Join, so that a reader of a price list
// names the column at fault from Field without running the rules again.
//
// Its message is "pricing: <field>: <reason>", as in
//
//	pricing: tariff.hourly: price -1 is negative: invalid input
type FieldError struct {
	Field string
	Err   error
}

// Error writes "pricing: ", the field and the reason.
func (e *FieldError) Error() string {
	if e.Field == "" {
		return "pricing: " + e.Err.Error()
	}
	return "pricing: " + e.Field + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *FieldError) Unwrap() error { return e.Err }

// Reason writes the field and the reason without the package name, for a caller
// that puts the problem under a context of its own ("line 3: tariff.hourly: price
// -1 is negative: invalid input").
func (e *FieldError) Reason() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

// nest returns err with every *FieldError in it placed under parent: "hourly"
// under "tariff" is "tariff.hourly", and a problem of the whole value is parent's.
// err is nil or what a Validate method returns (FieldError values, joined).
func nest(parent string, err error) error {
	if err == nil {
		return nil
	}
	var out []error
	for _, e := range leaves(err) {
		if fe, ok := e.(*FieldError); ok {
			f := parent
			if fe.Field != "" {
				f += "." + fe.Field
			}
			e = &FieldError{Field: f, Err: fe.Err}
		}
		out = append(out, e)
	}
	return errors.Join(out...)
}

// leaves returns the errors an errors.Join tree holds, in order; err itself when
// it joins none.
func leaves(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, leaves(e)...)
	}
	return out
}

// contextError is a problem of a value put under a context ("offer 2 (acme RTX
// 4090)"): each problem of Err is one line, "pricing: <context>: <field>:
// <reason>", written from the FieldError values Err holds, so that the package is
// named once without cutting any message apart. Err holds FieldError values
// (joined); any other error is written whole after the context.
type contextError struct {
	context string
	err     error
}

func (e *contextError) Error() string {
	var b strings.Builder
	for i, l := range leaves(e.err) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("pricing: " + e.context + ": ")
		if fe, ok := l.(*FieldError); ok {
			b.WriteString(fe.Reason())
		} else {
			b.WriteString(l.Error())
		}
	}
	return b.String()
}

func (e *contextError) Unwrap() error { return e.err }

// invalid is a *FieldError for field, its reason format and args followed by
// ErrInvalid.
func invalid(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Err: reasonf(format, args...)}
}

// reasonf is a reason without the package name, its format and args followed by
// ErrInvalid.
func reasonf(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, ErrInvalid)...)
}

// quote quotes s for a message, cut to 64 bytes at a character boundary.
func quote(s string) string { return text.Quote(s, 64) }
