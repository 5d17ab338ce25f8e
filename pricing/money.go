package pricing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/shopspring/decimal"
)

// Money is an exact amount in one currency. Amount is a decimal (never a float);
// Currency is an ISO 4217 code, three upper-case letters ("CNY", "USD"). The zero
// value has no currency; Add takes the other side's currency for it (so sums can
// start from Money{}), while Sub and Cmp with a priced Money report
// ErrCurrencyMismatch.
//
// Arithmetic is exact: Add, Sub, Mul and Neg never round. Rounding to the
// currency's minor unit happens only where a method says so (Round, String, and a
// Quote's Total).
//
// An amount's exponent is in range from -60 to 60 (every amount NewMoney and JSON
// read is, and so is what arithmetic on them makes); one built by hand out of it,
// such as decimal.New(1, -2000000000), is refused by the methods that return an
// error (ErrInvalid), written short by String and Exact, and rounded without being
// rescaled by Round, so that no call on it hangs.
//
// JSON is {"amount":"9000.00","currency":"CNY"}: the amount is a string holding the
// exact value, written with at least the currency's minor-unit digits and more when
// the value has them (never rounded). Unmarshal accepts only a string amount (a
// JSON number is rejected, because a decoder that reads it as a float64 would
// silently change it) and a valid currency code.
type Money struct {
	Amount   decimal.Decimal
	Currency string
}

// NewMoney parses an exact decimal amount ("9000", "1.35", "-0.01"; no exponent,
// at most 30 digits on each side of the point) in the given currency.
func NewMoney(amount, currency string) (Money, error) {
	if err := ValidCurrency(currency); err != nil {
		return Money{}, err
	}
	d, err := parseDecimal(amount, true)
	if err != nil {
		return Money{}, &FieldError{Field: "amount", Err: err}
	}
	return Money{Amount: d, Currency: currency}, nil
}

// ValidCurrency checks that code is an ISO 4217-shaped currency code: exactly three
// ASCII upper-case letters. It returns nil when it is, and otherwise a *FieldError
// for "currency" wrapping ErrInvalid that quotes the code. It does not check that the code is
// assigned (KnownCurrency does); an unlisted code formats with two decimals (see
// MinorUnit).
func ValidCurrency(code string) error {
	if err := currencyReason(code); err != nil {
		return &FieldError{Field: "currency", Err: err}
	}
	return nil
}

// currencyReason is ValidCurrency's reason alone, without the package name.
func currencyReason(code string) error {
	if len(code) != 3 {
		return reasonf("%s: want a three-letter ISO 4217 code such as USD", quote(code))
	}
	for i := 0; i < 3; i++ {
		if code[i] < 'A' || code[i] > 'Z' {
			return reasonf("%s: want three upper-case letters such as USD", quote(code))
		}
	}
	return nil
}

// RoundingMode says how an amount is rounded to the currency's minor unit. The zero
// value is RoundHalfUp.
type RoundingMode int

const (
	// RoundHalfUp rounds to the nearest minor unit, and a half away from zero:
	// 0.125 → 0.13, −0.125 → −0.13. This is the package default.
	RoundHalfUp RoundingMode = iota
	// RoundHalfEven rounds to the nearest minor unit, and a half to the even
	// neighbour (banker's rounding): 0.125 → 0.12, 0.135 → 0.14.
	RoundHalfEven
)

// String returns "half_up" or "half_even", the names the price lists use.
func (r RoundingMode) String() string {
	switch r {
	case RoundHalfUp:
		return "half_up"
	case RoundHalfEven:
		return "half_even"
	}
	return fmt.Sprintf("RoundingMode(%d)", int(r))
}

// ParseRoundingMode parses "half_up" or "half_even"; the empty string is
// RoundHalfUp.
func ParseRoundingMode(s string) (RoundingMode, error) {
	switch s {
	case "", "half_up":
		return RoundHalfUp, nil
	case "half_even":
		return RoundHalfEven, nil
	}
	return 0, invalid("rounding", "%s: want half_up or half_even", quote(s))
}

func (r RoundingMode) valid() bool { return r == RoundHalfUp || r == RoundHalfEven }

// Add returns m+o, or ErrCurrencyMismatch when the currencies differ. The zero
// Money adds to any currency on either side and takes the other's, so a sum can
// start from Money{}.
// An amount out of range (see Money) is an error wrapping ErrInvalid.
func (m Money) Add(o Money) (Money, error) {
	switch {
	case m.Currency == "" && m.Amount.IsZero():
		return o, nil
	case o.Currency == "" && o.Amount.IsZero():
		return m, nil
	case m.Currency != o.Currency:
		return Money{}, mismatch("add %s to %s", o.Currency, m.Currency)
	}
	if err := errors.Join(checkAmount("amount", m.Amount), checkAmount("amount", o.Amount)); err != nil {
		return Money{}, err
	}
	return Money{Amount: m.Amount.Add(o.Amount), Currency: m.Currency}, nil
}

// Sub returns m−o, or ErrCurrencyMismatch when the currencies differ. An amount
// out of range (see Money) is an error wrapping ErrInvalid.
func (m Money) Sub(o Money) (Money, error) {
	if m.Currency != o.Currency {
		return Money{}, mismatch("subtract %s from %s", o.Currency, m.Currency)
	}
	if err := errors.Join(checkAmount("amount", m.Amount), checkAmount("amount", o.Amount)); err != nil {
		return Money{}, err
	}
	return Money{Amount: m.Amount.Sub(o.Amount), Currency: m.Currency}, nil
}

// Mul returns m×f, exactly (a unit price times a quantity). Multiplying adds
// exponents, which costs nothing whatever their size; a sum past the range
// decimal holds (int32) stops at its end, an amount every method that checks
// the range refuses, where decimal would panic.
func (m Money) Mul(f decimal.Decimal) Money {
	if e := int64(m.Amount.Exponent()) + int64(f.Exponent()); e > math.MaxInt32 || e < math.MinInt32 {
		c := new(big.Int).Mul(m.Amount.Coefficient(), f.Coefficient())
		return Money{Amount: decimal.NewFromBigInt(c, int32(min(max(e, math.MinInt32), math.MaxInt32))), Currency: m.Currency}
	}
	return Money{Amount: m.Amount.Mul(f), Currency: m.Currency}
}

// MulInt returns m×n, exactly.
func (m Money) MulInt(n int64) Money {
	return Money{Amount: m.Amount.Mul(decimal.NewFromInt(n)), Currency: m.Currency}
}

// Neg returns −m.
func (m Money) Neg() Money { return Money{Amount: m.Amount.Neg(), Currency: m.Currency} }

// Cmp compares m and o: −1 if m < o, 0 if equal, +1 if m > o. It reports
// ErrCurrencyMismatch when the currencies differ, and an amount out of range (see
// Money) with an error wrapping ErrInvalid.
func (m Money) Cmp(o Money) (int, error) {
	if m.Currency != o.Currency {
		return 0, mismatch("compare %s with %s", m.Currency, o.Currency)
	}
	if err := errors.Join(checkAmount("amount", m.Amount), checkAmount("amount", o.Amount)); err != nil {
		return 0, err
	}
	return m.Amount.Cmp(o.Amount), nil
}

// IsZero reports whether the amount is zero, in any currency.
func (m Money) IsZero() bool { return m.Amount.IsZero() }

// Round returns m rounded to its currency's minor unit with the given mode. An
// amount out of range (see Money) rounds without rescaling it: one with an
// exponent above the range has no decimals to round and is returned as it is,
// and one below it whose digits end before half a minor unit rounds to zero.
func (m Money) Round(mode RoundingMode) Money {
	places := MinorUnit(m.Currency)
	switch e := int64(m.Amount.Exponent()); {
	case e > maxExponent:
		return m
	case e < -maxExponent && int64(m.Amount.NumDigits())+e < -int64(places):
		return Money{Amount: decimal.New(0, -places), Currency: m.Currency} // |m| < 10^-(places+1)
	}
	return Money{Amount: roundQuo(m.Amount, decimal.NewFromInt(1), places, mode), Currency: m.Currency}
}

// Div returns m divided by d, rounded once to the currency's minor unit with the
// given mode: the exact remainder decides, never a float (a price per hour from a
// rental's cost, a price per million tokens). A divisor that is not positive, or
// an amount or divisor out of range (see Money), is an error wrapping ErrInvalid.
func (m Money) Div(d decimal.Decimal, mode RoundingMode) (Money, error) {
	if err := errors.Join(checkAmount("amount", m.Amount), checkAmount("divisor", d)); err != nil {
		return Money{}, err
	}
	if !d.IsPositive() {
		return Money{}, fmt.Errorf("pricing: divide %s by %s: want a positive divisor: %w", excerpt(m.Amount), excerpt(d), ErrInvalid)
	}
	return Money{Amount: roundQuo(m.Amount, d, MinorUnit(m.Currency), mode), Currency: m.Currency}, nil
}

// String formats m as "CNY 9000.00": the code, a space, and the amount rounded half
// up to the currency's minor unit. It is for display; JSON keeps the exact value.
// An amount out of range (see Money) is written short, as its coefficient and
// exponent ("CNY 1e2000000000").
func (m Money) String() string {
	r := m.Round(RoundHalfUp).Amount
	if !exponentOK(r) {
		return m.Currency + " " + excerpt(r)
	}
	return m.Currency + " " + r.StringFixed(MinorUnit(m.Currency))
}

// Exact writes the amount exactly, with at least the currency's minor-unit digits
// after the point: "CNY 0.80", "USD 0.333", "CNY 8.382". Unlike String it never
// rounds, so a unit price reads as the price list gives it. An amount out of range
// (see Money) is written short, as String writes it.
func (m Money) Exact() string { return m.Currency + " " + m.exactString() }

// exactString writes the amount exactly, with at least the currency's minor-unit
// digits after the point.
func (m Money) exactString() string { return exactString(m.Amount, MinorUnit(m.Currency)) }

// exactString writes d exactly with at least least decimal places. StringFixed
// never rounds here, because it is given at least as many places as d has. A
// decimal out of range (exponentOK) is written short (excerpt).
func exactString(d decimal.Decimal, least int32) string {
	if !exponentOK(d) {
		return excerpt(d)
	}
	return d.StringFixed(max(least, places(d)))
}

// jsonDecimal is exactString for a MarshalJSON: a decimal out of range is an
// error naming field, as the JSON could not be read back.
func jsonDecimal(field string, d decimal.Decimal, least int32) (string, error) {
	if err := checkAmount(field, d); err != nil {
		return "", err
	}
	return exactString(d, least), nil
}

// maxExponent bounds the exponent of every decimal the package computes with or
// writes: from -60 to 60, far past any price (12 places, below 10^15) and what
// arithmetic on prices makes, so that no value such as 1e-2000000000 can make a
// call rescale it for ever.
const maxExponent = 60

// exponentOK reports whether d's exponent is within maxExponent.
func exponentOK(d decimal.Decimal) bool {
	e := d.Exponent()
	return e >= -maxExponent && e <= maxExponent
}

// checkAmount is a *FieldError for field when d's exponent is out of range.
func checkAmount(field string, d decimal.Decimal) error {
	if !exponentOK(d) {
		return invalid(field, "%s: exponent %d outside -%d to %d", excerpt(d), d.Exponent(), maxExponent, maxExponent)
	}
	return nil
}

type moneyWire struct {
	Amount   json.RawMessage `json:"amount"`
	Currency string          `json:"currency"`
}

// MarshalJSON writes {"amount":"9000.00","currency":"CNY"}, exactly, whatever
// decimal's package settings are.
//
// An amount out of range (see Money) is an error wrapping ErrInvalid.
func (m Money) MarshalJSON() ([]byte, error) {
	if m.Currency == "" && !m.Amount.IsZero() {
		// It could not be read back: only the zero Money goes without a currency.
		return nil, fmt.Errorf("pricing: money %s has no currency: %w", excerpt(m.Amount), ErrInvalid)
	}
	amount, err := jsonDecimal("amount", m.Amount, MinorUnit(m.Currency))
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Amount   string `json:"amount"`
		Currency string `json:"currency"`
	}{amount, m.Currency})
}

// UnmarshalJSON reads {"amount":"9000.00","currency":"CNY"}, and the zero Money as
// MarshalJSON writes it (a zero amount with no currency). JSON null leaves m as it
// is, as encoding/json does for a null in any field. The amount must be a
// JSON string holding a plain decimal; numbers, unknown fields and invalid
// currencies are errors wrapping ErrInvalid.
func (m *Money) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil // as encoding/json treats null: leave the value as it is
	}
	var w moneyWire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return jsonError(err)
	}
	d, err := decimalFromJSON(w.Amount)
	if err != nil {
		return &FieldError{Field: "amount", Err: err}
	}
	if w.Currency == "" && d.IsZero() {
		*m = Money{} // the zero Money, as MarshalJSON writes it ("no budget")
		return nil
	}
	if err := ValidCurrency(w.Currency); err != nil {
		return err
	}
	*m = Money{Amount: d, Currency: w.Currency}
	return nil
}

// decimalFromJSON reads a decimal from a JSON string; a number or anything else is
// an error, a reason without the package name.
func decimalFromJSON(raw json.RawMessage) (decimal.Decimal, error) {
	var s string
	if len(raw) == 0 || raw[0] != '"' {
		return decimal.Decimal{}, reasonf("%s: want a JSON string such as \"9000.00\", not a number", quote(string(raw)))
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return decimal.Decimal{}, reasonf("%s: not a JSON string", quote(string(raw)))
	}
	return parseDecimal(s, true)
}

// ParseDecimal reads a plain decimal, as the package's JSON and price lists write
// amounts and prices: an optional minus sign, digits, and an optional point
// followed by digits. No exponent, no plus sign, no spaces, at most 30 digits on
// each side of the point, so that no input can build a value whose arithmetic is
// slow or overflows decimal's exponent. An error is a *FieldError with no field,
// wrapping ErrInvalid, that quotes the start of s.
func ParseDecimal(s string) (decimal.Decimal, error) {
	d, err := parseDecimal(s, true)
	if err != nil {
		return decimal.Decimal{}, &FieldError{Err: err}
	}
	return d, nil
}

// parseDecimal is ParseDecimal, refusing a minus sign unless neg is set; its
// error is the reason alone, without the package name.
func parseDecimal(s string, neg bool) (decimal.Decimal, error) {
	body := s
	if strings.HasPrefix(body, "-") {
		body = body[1:]
		if !neg {
			return decimal.Decimal{}, reasonf("%s: negative, want 0 or more", quote(s))
		}
	}
	intPart, frac, hasPoint := strings.Cut(body, ".")
	if intPart == "" || (hasPoint && frac == "") || len(intPart) > 30 || len(frac) > 30 ||
		!allDigits(intPart) || !allDigits(frac) {
		return decimal.Decimal{}, reasonf("%s: not a plain decimal such as 12.50", quote(s))
	}
	if len(intPart)+len(frac) <= 18 {
		// The digits fit an int64: the coefficient is read here, as decimal
		// would read it, without joining the two parts into a new string.
		var c int64
		for _, part := range [...]string{intPart, frac} {
			for i := 0; i < len(part); i++ {
				c = c*10 + int64(part[i]-'0')
			}
		}
		if len(body) < len(s) {
			c = -c
		}
		return decimal.New(c, -int32(len(frac))), nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, reasonf("%s: not a plain decimal such as 12.50", quote(s))
	}
	return d, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// decParts is a decimal c·10^e whose coefficient fits an int64.
type decParts struct {
	c  int64
	e  int32
	ok bool
}

// splitDec returns d's coefficient and exponent, with trailing zeros after the
// point dropped (as trim does), when the coefficient fits an int64. NumDigits
// is exact from 17 digits up (below, its estimate may read 10^15 as 15 digits,
// which changes nothing here), so a coefficient it counts at most 18 digits has at
// most 18 and CoefficientInt64 is exact; neither copies the coefficient.
func splitDec(d decimal.Decimal) decParts {
	if d.IsZero() {
		return decParts{0, 0, true}
	}
	if d.NumDigits() > 18 {
		return decParts{}
	}
	v, e := d.CoefficientInt64(), d.Exponent()
	for e < 0 && v%10 == 0 {
		v /= 10
		e++
	}
	return decParts{v, e, true}
}

// wholeMinor returns d as a whole number of units of 10^-places (a currency's
// minor units, places as MinorUnit gives them), false when it is not a whole
// number of them or the number does not fit an int64. It does not allocate.
func wholeMinor(d decimal.Decimal, places int32) (int64, bool) {
	t := splitDec(d)
	k := int64(t.e) + int64(places)
	if !t.ok || k < 0 || k > 18 {
		return 0, false
	}
	return checked.Mul(t.c, pow10(k))
}

// places returns the number of decimal places d needs (zero for an integer).
func places(d decimal.Decimal) int32 {
	t := splitDec(d)
	if !t.ok {
		t.e = trim(d).Exponent()
	}
	return max(0, -t.e)
}

// trim drops trailing zeros after the point, so that "1.500000000" is 1.5. The
// value is unchanged. A coefficient past int64 is divided by ten in a big.Int,
// one step at a time.
func trim(d decimal.Decimal) decimal.Decimal {
	if d.IsZero() {
		return decimal.Decimal{}
	}
	if t := splitDec(d); t.ok {
		if t.e == d.Exponent() {
			return d
		}
		return decimal.New(t.c, t.e)
	}
	c, e := d.Coefficient(), d.Exponent()
	var q, r big.Int
	ten := big.NewInt(10)
	for e < 0 {
		q.QuoRem(c, ten, &r)
		if r.Sign() != 0 {
			break
		}
		c.Set(&q)
		e++
	}
	return decimal.NewFromBigInt(c, e)
}

// roundQuo returns x/y rounded to places decimal places with the given mode,
// exactly: the remainder decides, not a float. y must be positive. Every mode
// but RoundHalfEven rounds half up, with decimal's DivRound (a half away from
// zero): Money.Round and Money.Div take a mode without a name too.
func roundQuo(x, y decimal.Decimal, places int32, mode RoundingMode) decimal.Decimal {
	if mode != RoundHalfEven {
		return x.DivRound(y, places)
	}
	q, r := x.Abs().QuoRem(y, places)
	// Compare 2·r with one unit of the last place times y. q's exponent is
	// −places, so its coefficient counts units of the last place: a half goes
	// to the even one.
	unit := decimal.New(1, -places)
	if half := r.Add(r).Cmp(y.Mul(unit)); half > 0 || (half == 0 && q.Coefficient().Bit(0) == 1) {
		q = q.Add(unit)
	}
	if x.Sign() < 0 {
		return q.Neg()
	}
	return q
}

// excerpt writes a decimal for a message without expanding a huge exponent or
// coefficient: exactly when its coefficient is under 2^128 and its exponent from
// -60 to 60, as coefficient and exponent ("1e-2000000000") when only the exponent
// is large, and as a count of digits otherwise.
func excerpt(d decimal.Decimal) string {
	c, e := d.Coefficient(), d.Exponent()
	switch {
	case c.BitLen() > 128:
		return fmt.Sprintf("a decimal of %d digits with exponent %d", d.NumDigits(), e)
	case e < -60 || e > 60:
		return fmt.Sprintf("%se%d", c.String(), e)
	}
	return d.String()
}

// mismatch reports an operation across two currencies: op has two %s, for the
// codes in the order given ("add %s to %s").
func mismatch(op, a, b string) error {
	return fmt.Errorf("pricing: "+op+": %w", code(a), code(b), ErrCurrencyMismatch)
}

// code writes a currency code for a message: bare when it is well formed, quoted
// otherwise, so that an empty code still shows.
func code(c string) string {
	if ValidCurrency(c) == nil {
		return c
	}
	return quote(c)
}
