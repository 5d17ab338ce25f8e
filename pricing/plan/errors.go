package plan

import (
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
)

// offerName names an offer as its price list wrote it, for messages: "provider/region
// card", and "(line N)" when it came from a file.
func offerName(o pricing.Offer) string {
	return text.OfferName(o.Provider, o.Region, o.Card, "offer without provider or card", o.Line)
}

// invalidError is an error from sizing, compute or catalog that makes a request
// invalid: its message unchanged, and errors.Is answers for pricing.ErrInvalid
// too, the sentinel the planner's bad input wraps.
type invalidError struct{ err error }

func (e invalidError) Error() string   { return e.err.Error() }
func (e invalidError) Unwrap() []error { return []error{e.err, pricing.ErrInvalid} }

// invalid marks err as bad input (invalidError).
func invalid(err error) error { return invalidError{err} }
