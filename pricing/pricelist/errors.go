package pricelist

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
)

// ParseError reports a problem in a price list, in the shape of strconv.NumError:
// where it is (a 1-based line, and the column or JSON field when known), the input
// as written, and the reason. The reason wraps pricing.ErrInvalid, and
// pricing.ErrCurrencyMismatch too for a price in another currency than its row's; when
// a rule of package pricing failed (Offer.Validate), it is that *pricing.FieldError,
// so errors.As finds it.
type ParseError struct {
	Line  int    // 1-based line in the input; zero when unknown
	Field string // the column as its heading is written, or the JSON field; empty for the whole record
	Input string // the offending text, as written; empty when unknown
	Err   error  // the reason
	// Format is the format the list was read as (FormatCSV, ...), when Read or
	// ReadList told it from the content; empty from the other readers.
	Format string
}

// Error describes the failure: the format read, where it is, the input quoted (cut
// to a short excerpt), and the reason with its sentinel's text, as in
//
//	pricelist: read as csv: line 2, field currency, input "RMB": not an ISO 4217 code; write CNY: invalid input
//
// A reason that is a *pricing.FieldError gives its own words, which quote the value
// they judge, in place of the input.
func (e *ParseError) Error() string {
	prefix := "pricelist: "
	if e.Format != "" {
		prefix += "read as " + e.Format + ": "
	}
	var loc []string
	if e.Line > 0 {
		loc = append(loc, "line "+strconv.Itoa(e.Line))
	}
	if e.Field != "" {
		loc = append(loc, "field "+text.Cut(e.Field, 64))
	}
	reason := e.Err.Error()
	if fe, ok := e.Err.(*pricing.FieldError); ok {
		reason = fe.Err.Error()
	} else if e.Input != "" {
		loc = append(loc, "input "+quote(e.Input))
	}
	if len(loc) == 0 {
		return prefix + reason
	}
	return prefix + strings.Join(loc, ", ") + ": " + reason
}

// Unwrap returns the reason, so that errors.Is(err, pricing.ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// cellError is a reason about one field of a record, before the record's line is
// known: the field as the list names it, and the text it read.
type cellError struct {
	field, input string
	err          error
}

func (e *cellError) Error() string { return "pricelist: field " + e.field + ": " + e.err.Error() }

func (e *cellError) Unwrap() error { return e.err }

// invalidf is a reason in plain words wrapping pricing.ErrInvalid.
func invalidf(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, pricing.ErrInvalid)...)
}

// parseErr is the *ParseError for err at line, in field with input: its reason
// is the *cellError's that err wraps, else the first *pricing.FieldError in err,
// else err; when field is empty, the field and input are the *cellError's, or the
// column (by column: "" when the list has none) of the *pricing.FieldError's
// field. The reason wraps pricing.ErrInvalid, added when err does not wrap it
// (a price in another currency wraps pricing.ErrCurrencyMismatch beside it).
func parseErr(line int, field, input string, err error, column func(string) string) *ParseError {
	pe := &ParseError{Line: line, Field: field, Input: input, Err: err}
	var ce *cellError
	var fe *pricing.FieldError
	switch {
	case errors.As(err, &ce):
		pe.Err = ce.err
		if field == "" {
			pe.Field, pe.Input = ce.field, ce.input
		}
	case errors.As(err, &fe):
		pe.Err = fe
		if field == "" {
			pe.Field = fe.Field
			if column != nil {
				pe.Field = column(fe.Field)
			}
		}
	}
	if !errors.Is(pe.Err, pricing.ErrInvalid) {
		pe.Err = fmt.Errorf("%w: %w", pe.Err, pricing.ErrInvalid) // both sentinels stay visible to errors.Is
	}
	return pe
}

// quote quotes s for a message, cut to 64 bytes at a character boundary.
func quote(s string) string { return text.Quote(s, 64) }
