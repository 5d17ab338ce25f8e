package catalog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
)

// Sentinel errors. Every error from this package wraps one of them; test with
// errors.Is. Like strconv.ErrSyntax, their text carries no package name: it ends the
// message of the error that wraps them, which starts with "catalog: ".
var (
	// ErrInvalid reports bad input: a card that fails validation, a malformed JSON
	// list, garbage or impossible figures in nvidia-smi output, a GPU count below one.
	ErrInvalid = errors.New("invalid input")
	// ErrNotFound reports a name that matches no card. The error is a *NotFoundError
	// that carries the closest names.
	ErrNotFound = errors.New("card not found")
	// ErrAmbiguous reports a family name that covers several cards ("A100" is 40 or
	// 80 GB, PCIe or SXM4). The error is an *AmbiguousError that carries the
	// candidate IDs.
	ErrAmbiguous = errors.New("ambiguous card name")
)

// NotFoundError is returned by Lookup for a name no card answers to. Suggestions
// holds up to three of the catalog's names closest to it by edit distance.
type NotFoundError struct {
	Name        string   // the name as given
	Suggestions []string // closest known names, best first; may be empty
}

// Error describes the failure, quoting the input where there is one.
func (e *NotFoundError) Error() string {
	var b strings.Builder
	b.WriteString("catalog: no card named ")
	b.WriteString(quote(e.Name))
	if len(e.Suggestions) > 0 {
		b.WriteString(" (did you mean ")
		for i, s := range e.Suggestions {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(s))
		}
		b.WriteString("?)")
	}
	b.WriteString(": ")
	b.WriteString(ErrNotFound.Error())
	return b.String()
}

// Unwrap returns ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// AmbiguousError is returned by Lookup for a family name that covers several
// cards. Candidates lists their IDs in catalog order.
type AmbiguousError struct {
	Name       string   // the name as given
	Candidates []string // IDs of the cards the name covers
}

// Error describes the failure, quoting the input where there is one.
func (e *AmbiguousError) Error() string {
	return "catalog: " + quote(e.Name) + " could be any of " + strings.Join(e.Candidates, ", ") +
		"; name the variant: " + ErrAmbiguous.Error()
}

// Unwrap returns ErrAmbiguous.
func (e *AmbiguousError) Unwrap() error { return ErrAmbiguous }

// ParseError reports a line of nvidia-smi output that could not be read, in the
// shape of strconv.NumError: the function, the line number (from 1), the line
// quoted, and the reason, whose sentinel Unwrap returns.
type ParseError struct {
	Func  string // "ParseSMI" or "ParseTopology"
	Line  int    // 1-based line number; 0 when the problem is the input as a whole
	Input string // the offending line, as read
	Err   error  // the reason in plain words, ending with ErrInvalid's text; wraps ErrInvalid
}

// Error describes the failure, quoting the input where there is one.
func (e *ParseError) Error() string {
	s := "catalog: " + e.Func
	if e.Line > 0 {
		s += " line " + strconv.Itoa(e.Line) + " " + quote(e.Input)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the reason, so that errors.Is(err, ErrInvalid) holds.
func (e *ParseError) Unwrap() error { return e.Err }

// jsonError is an error of encoding/json, kept whole for errors.As and read in a
// message as at most its first 200 bytes: json quotes an unknown field's name in
// full, which may be megabytes long.
type jsonError struct{ err error }

func (e jsonError) Error() string { return text.Cut(e.err.Error(), 200) }
func (e jsonError) Unwrap() error { return e.err }

// quote quotes s for a message: at most its first 80 bytes, cut at a character
// boundary.
func quote(s string) string { return text.Quote(s, 80) }

// maxErrors is how many problems a joined error lists before it counts the rest.
const maxErrors = 20

// joinErrors joins errs as errors.Join does, keeping the first maxErrors and then
// one error that counts the rest, so that a list with a million bad names gives a
// message of a few KB. Every error kept wraps ErrInvalid, the count too.
func joinErrors(errs []error) error {
	if len(errs) > maxErrors {
		more := fmt.Errorf("catalog: and %d more problems: %w", len(errs)-maxErrors, ErrInvalid)
		errs = append(errs[:maxErrors:maxErrors], more)
	}
	return errors.Join(errs...)
}
