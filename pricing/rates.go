package pricing

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/shopspring/decimal"
)

// Rates converts money into one base currency, to rank offers priced in several.
// Per holds the price of one unit of each other currency in Base (USD 7.2 in a
// CNY base is Per["USD"] = 7.2). The zero Rates converts nothing: every amount
// must already be in one currency. Rates is a value; Convert neither changes nor
// keeps it.
type Rates struct {
	Base string                     `json:"base"` // ISO 4217 code the ranking uses
	Per  map[string]decimal.Decimal `json:"per"`  // one unit of each other currency, in Base
}

// Validate reports a malformed base or currency code, or a rate that is not
// positive or is out of the range prices take (see Tariff.Validate): the first
// such problem, a *FieldError naming "base", "per" or the rate ("per.USD"),
// wrapping ErrInvalid.
func (r Rates) Validate() error {
	if err := currencyReason(r.Base); err != nil {
		return &FieldError{Field: "base", Err: err}
	}
	codes := slices.AppendSeq(make([]string, 0, len(r.Per)), maps.Keys(r.Per))
	slices.Sort(codes) // the first problem named is the same on every call
	for _, c := range codes {
		if err := currencyReason(c); err != nil {
			return &FieldError{Field: "per", Err: err}
		}
		v := r.Per[c]
		if checkPrice("rate", v) != nil || !v.IsPositive() { // one message for every way a rate is wrong
			return invalid("per."+c, "rate %s: want a positive decimal below 10^%d with at most %d places",
				excerpt(v), maxPriceDigits, maxPricePlaces)
		}
	}
	return nil
}

// Convert returns m in the base currency, rounded half-up to the base's minor
// unit: m itself when it is in Base, m times Per[m.Currency] otherwise. A
// currency without a rate is an error wrapping ErrCurrencyMismatch that names it;
// invalid rates wrap ErrInvalid.
func (r Rates) Convert(m Money) (Money, error) {
	if err := r.Validate(); err != nil {
		return Money{}, err
	}
	if err := checkAmount("amount", m.Amount); err != nil {
		return Money{}, err
	}
	if m.Currency == r.Base {
		return m, nil
	}
	v, ok := r.Per[m.Currency]
	if !ok {
		have := append([]string{r.Base}, slices.Sorted(maps.Keys(r.Per))...)
		return Money{}, fmt.Errorf("pricing: rates: no rate for %s into %s (rates for %s): %w",
			code(m.Currency), r.Base, strings.Join(have, ", "), ErrCurrencyMismatch)
	}
	return Money{Amount: m.Amount.Mul(v), Currency: r.Base}.Round(RoundHalfUp), nil
}

type ratesWire struct {
	Base string            `json:"base"`
	Per  map[string]string `json:"per"`
}

// MarshalJSON writes each rate as an exact decimal string, whatever decimal's
// package settings are: {"base":"CNY","per":{"USD":"7.2"}}.
func (r Rates) MarshalJSON() ([]byte, error) {
	w := ratesWire{Base: r.Base, Per: make(map[string]string, len(r.Per))}
	for c, v := range r.Per {
		var err error
		if w.Per[c], err = jsonDecimal("per."+text.Cut(c, 8), v, 0); err != nil {
			return nil, err
		}
	}
	return jsonMarshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes, rejecting unknown fields and rates
// that are not plain decimals. It does not validate: Convert does.
func (r *Rates) UnmarshalJSON(b []byte) error {
	var w ratesWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	out := Rates{Base: w.Base, Per: make(map[string]decimal.Decimal, len(w.Per))}
	for c, s := range w.Per {
		v, err := parseDecimal(s, false)
		if err != nil {
			return fmt.Errorf("pricing: rates: %s: %w", code(c), err)
		}
		out.Per[c] = v
	}
	*r = out
	return nil
}
