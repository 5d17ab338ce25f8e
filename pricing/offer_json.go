package pricing

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// offered writes a price exactly, or "" for zero: not offered; a price out of
// range is an error naming field (jsonDecimal).
func offered(field string, d decimal.Decimal) (string, error) {
	if d.IsZero() {
		return "", nil
	}
	return jsonDecimal(field, d, 0)
}

type termWire struct {
	Months   int    `json:"months"`
	Monthly  string `json:"monthly"`
	Discount string `json:"discount"`
}

type tariffWire struct {
	Currency      string     `json:"currency"`
	Hourly        string     `json:"hourly"`
	Daily         string     `json:"daily"`
	Weekly        string     `json:"weekly"`
	Monthly       string     `json:"monthly"`
	HoursPerMonth int        `json:"hours_per_month"`
	Granularity   string     `json:"granularity"`
	Minimum       string     `json:"minimum"`
	Terms         []termWire `json:"terms"`
	AfterPackage  string     `json:"after_package"`
	Rounding      string     `json:"rounding"`
}

// MarshalJSON writes the tariff with prices as exact decimal strings, "" for a
// price not offered (a "0" would read as free), and durations in time.Duration's
// format ("1m0s"), whatever decimal's package settings are. UnmarshalJSON reads
// "" back as not offered.
func (t Tariff) MarshalJSON() ([]byte, error) {
	w := tariffWire{
		Currency: t.Currency, HoursPerMonth: t.HoursPerMonth, Granularity: t.Granularity.String(), Minimum: t.Minimum.String(),
		Terms: []termWire{}, AfterPackage: t.AfterPackage.String(), Rounding: t.Rounding.String(),
	}
	var errs [4]error
	w.Hourly, errs[0] = offered("hourly", t.Hourly)
	w.Daily, errs[1] = offered("daily", t.Daily)
	w.Weekly, errs[2] = offered("weekly", t.Weekly)
	w.Monthly, errs[3] = offered("monthly", t.Monthly)
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	for i, term := range t.Terms {
		tw, err := term.wire()
		if err != nil {
			return nil, nest("terms["+strconv.Itoa(i)+"]", err)
		}
		w.Terms = append(w.Terms, tw)
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a tariff strictly: unknown fields, prices written as JSON
// numbers, malformed decimals and durations are errors wrapping ErrInvalid. It
// does not call Validate.
func (t *Tariff) UnmarshalJSON(b []byte) error {
	var w tariffWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	out := Tariff{Currency: w.Currency, HoursPerMonth: w.HoursPerMonth}
	var err error
	for _, f := range []struct {
		name string
		in   string
		dst  *decimal.Decimal
	}{{"hourly", w.Hourly, &out.Hourly}, {"daily", w.Daily, &out.Daily}, {"weekly", w.Weekly, &out.Weekly}, {"monthly", w.Monthly, &out.Monthly}} {
		if *f.dst, err = priceField(f.name, f.in); err != nil {
			return err
		}
	}
	if err = out.readRules(w.Granularity, w.Minimum, w.AfterPackage, w.Rounding); err != nil {
		return err
	}
	for i, tw := range w.Terms {
		term, err := tw.term(fmt.Sprintf("terms[%d].", i))
		if err != nil {
			return err
		}
		out.Terms = append(out.Terms, term)
	}
	*t = out
	return nil
}

// readRules reads the tariff's billing rules from their text: granularity and
// minimum (Go durations, empty for zero), after_package and rounding. An error
// is a *FieldError naming the field.
func (t *Tariff) readRules(granularity, minimum, afterPackage, rounding string) (err error) {
	if t.Granularity, err = durationField("granularity", granularity); err != nil {
		return err
	}
	if t.Minimum, err = durationField("minimum", minimum); err != nil {
		return err
	}
	if t.AfterPackage, err = ParseAfterPackage(afterPackage); err != nil {
		return err
	}
	if t.Rounding, err = ParseRoundingMode(rounding); err != nil {
		return err
	}
	return nil
}

// MarshalJSON writes {"months":3,"monthly":"8000","discount":"0"} with exact
// decimal strings, whatever decimal's package settings are.
func (term Term) MarshalJSON() ([]byte, error) {
	w, err := term.wire()
	if err != nil {
		return nil, err
	}
	if w.Monthly == "" { // "0", as a Term alone has always written it
		w.Monthly = "0"
	}
	if w.Discount == "" {
		w.Discount = "0"
	}
	return json.Marshal(w)
}

// wire is the term as its JSON, "" for a price not given.
func (term Term) wire() (termWire, error) {
	monthly, err := offered("monthly", term.Monthly)
	if err != nil {
		return termWire{}, err
	}
	discount, err := offered("discount", term.Discount)
	return termWire{term.Months, monthly, discount}, err
}

// UnmarshalJSON reads what MarshalJSON writes; prices must be strings and unknown
// fields are errors wrapping ErrInvalid.
func (term *Term) UnmarshalJSON(b []byte) error {
	var w termWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	out, err := w.term("")
	if err != nil {
		return err
	}
	*term = out
	return nil
}

// term reads a term's prices; prefix goes before their field names in errors.
func (w termWire) term(prefix string) (Term, error) {
	monthly, err := priceField(prefix+"monthly", w.Monthly)
	if err != nil {
		return Term{}, err
	}
	discount, err := priceField(prefix+"discount", w.Discount)
	return Term{Months: w.Months, Monthly: monthly, Discount: discount}, err
}

// UnmarshalJSON reads an offer strictly: unknown fields are errors wrapping
// ErrInvalid, and a field's problem is a *FieldError naming it by its JSON key
// ("tariff.hourly"). It does not call Validate.
func (o *Offer) UnmarshalJSON(b []byte) error {
	type plain Offer // without methods, so no recursion
	var p plain
	if err := strictUnmarshal(b, &p); err != nil {
		if fe, ok := err.(*FieldError); ok && fe.Field != "" && !strings.HasPrefix(fe.Field, "tariff") && !isOfferField(fe.Field) {
			return nest("tariff", fe) // from Tariff.UnmarshalJSON, which names its own fields
		}
		return err
	}
	*o = Offer(p)
	return nil
}

// isOfferField reports whether name is a JSON field of Offer itself.
func isOfferField(name string) bool {
	switch name {
	case "provider", "region", "card", "max_gpus", "tier", "support", "interruptible", "interruptions_per_day", "notes",
		"gpus_per_instance", "host_memory_bytes", "line":
		return true
	}
	return false
}

// priceField parses a price: empty is zero (not offered); otherwise a plain,
// non-negative decimal string.
func priceField(name, s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Decimal{}, nil
	}
	d, err := parseDecimal(s, false)
	if err != nil {
		return decimal.Decimal{}, &FieldError{Field: name, Err: err}
	}
	return d, nil
}

// durationField parses a Go duration ("1s", "1m", "1h", "15m"); empty is zero.
func durationField(name, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, invalid(name, "%s: want a duration such as 1s, 1m or 1h", quote(s))
	}
	return d, nil
}
