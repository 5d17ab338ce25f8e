package pricing

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// DefaultHoursPerMonth is the month a tariff uses when HoursPerMonth is zero: 730
// hours, a twelfth of a 365-day year (8760/12), the convention of cost tools such as
// infracost. Providers that bill 30-day months use 720.
const DefaultHoursPerMonth = 730

// MaxDuration is the longest usage the package prices: 100 years of 8760 hours. It
// keeps every count of nanoseconds far inside int64.
const MaxDuration = 100 * 8760 * time.Hour

// Limits on prices, so that no input can make exact arithmetic slow: a price is
// below 10^15 and has at most 12 decimal places.
const (
	maxPricePlaces = 12
	maxPriceDigits = 15
)

// AfterPackage says what happens when usage runs past the packages bought.
type AfterPackage int

const (
	// BillHourly, the default, bills usage beyond the packages at the hourly price,
	// so a rental may combine packages with hourly time (a month plus 20 hours).
	BillHourly AfterPackage = iota
	// Renew means a package-based rental has no hourly part: usage past a package
	// renews a package. A rental is then either all hourly or all packages. A
	// separate hourly rental before it (a trial, see Usage) is still possible.
	Renew
)

// String returns "hourly" or "renew", the names the price lists use.
func (a AfterPackage) String() string { return enumName("AfterPackage", int(a), "hourly", "renew") }

// enumName returns names[v], or typ(v) for a value without a name.
func enumName(typ string, v int, names ...string) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}

// ParseAfterPackage parses "hourly" or "renew"; the empty string is BillHourly.
func ParseAfterPackage(s string) (AfterPackage, error) {
	switch s {
	case "", "hourly":
		return BillHourly, nil
	case "renew":
		return Renew, nil
	}
	return 0, invalid("after_package", "%s: want hourly or renew", quote(s))
}

// Term is a multi-month commitment paid for the whole term: Months months (each the
// tariff's HoursPerMonth) at a lower monthly price. Give the price either as
// Monthly, the price of one month under the term, or as Discount, a fraction off
// the tariff's Monthly price (0.1 is 10% off); exactly one of them.
type Term struct {
	Months   int             `json:"months"`
	Monthly  decimal.Decimal `json:"monthly"`
	Discount decimal.Decimal `json:"discount"`
}

// Tariff prices one GPU of one offer. Prices are per GPU, exact decimals in
// Currency; a zero price means the package is not offered. A day is 24 hours, a
// week 168, a month HoursPerMonth.
//
// Hourly use is billed in units of Granularity, each started unit in full (zero:
// per second; time.Minute: per minute; time.Hour: per started hour). The
// granularity is a whole number of seconds that divides an hour. Minimum is the
// shortest hourly session billed (a session of 10 minutes under a 1-hour minimum
// pays an hour); it applies to each separately billed session.
//
// Packages (daily, weekly, monthly, terms) are prepaid blocks that reserve the card
// for their whole length, used or not.
type Tariff struct {
	Currency      string
	Hourly        decimal.Decimal
	Daily         decimal.Decimal
	Weekly        decimal.Decimal
	Monthly       decimal.Decimal
	HoursPerMonth int           // zero: DefaultHoursPerMonth (730); 672 to 744
	Granularity   time.Duration // zero: per second
	Minimum       time.Duration // shortest billed hourly session; zero: none
	Terms         []Term
	AfterPackage  AfterPackage
	Rounding      RoundingMode // how a total is rounded to the minor unit
}

// Validate reports every problem with t, joined with errors.Join, each a
// *FieldError naming the field at fault by its JSON key ("hourly",
// "terms[1].monthly"; empty for a problem of the whole tariff) and wrapping
// ErrInvalid: a missing or malformed currency, a negative or over-precise price,
// nothing offered, a granularity that is negative, not whole seconds or does not
// divide an hour, a negative minimum, a month length outside 672 to 744 hours, a
// bad term, an unknown policy or rounding mode.
func (t Tariff) Validate() error {
	var errs []error
	add := func(field, format string, args ...any) { errs = append(errs, invalid(field, format, args...)) }
	for _, err := range [...]error{ValidCurrency(t.Currency), checkPrice("hourly", t.Hourly),
		checkPrice("daily", t.Daily), checkPrice("weekly", t.Weekly), checkPrice("monthly", t.Monthly)} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if t.HoursPerMonth != 0 && (t.HoursPerMonth < 672 || t.HoursPerMonth > 744) {
		add("hours_per_month", "%d hours: want 672 to 744 (28 to 31 days), or zero for %d", t.HoursPerMonth, DefaultHoursPerMonth)
	}
	if g := t.Granularity; g < 0 || (g > 0 && (g%time.Second != 0 || time.Hour%g != 0)) {
		add("granularity", "%v: want a whole number of seconds that divides an hour", g)
	}
	if m := t.Minimum; m < 0 || m%time.Second != 0 || m > 24*time.Hour {
		add("minimum", "%v: want whole seconds from 0 to 24h", m)
	}
	if !t.AfterPackage.valid() {
		add("after_package", "policy %d unknown", int(t.AfterPackage))
	}
	if !t.Rounding.valid() {
		add("rounding", "mode %d unknown", int(t.Rounding))
	}
	terms := t.Terms
	if len(terms) > 8 {
		// Said once: the terms are not checked one by one (65,536 of them gave a
		// 10 MB message, and comparing their months with each other is quadratic).
		add("terms", "%d terms: at most 8", len(terms))
		terms = nil
	}
	for i, term := range terms {
		// The field's name is written only for a problem found.
		at := func(key string) string { return "terms[" + strconv.Itoa(i) + "]" + key }
		if term.Months < 2 || term.Months > 120 {
			add(at(".months"), "%d months: want 2 to 120", term.Months)
		}
		if slices.ContainsFunc(terms[:i], func(e Term) bool { return e.Months == term.Months }) {
			add(at(".months"), "a second term of %d months", term.Months)
		}
		hasM, hasD := !term.Monthly.IsZero(), !term.Discount.IsZero()
		switch {
		case hasM == hasD:
			add(at(""), "give exactly one of monthly price and discount")
		case hasM:
			if checkPrice("", term.Monthly) != nil {
				errs = append(errs, checkPrice(at(".monthly"), term.Monthly))
			}
		default:
			if checkPrice("", term.Discount) != nil {
				errs = append(errs, checkPrice(at(".discount"), term.Discount))
			} else if !belowOne(term.Discount) {
				add(at(".discount"), "%s: want a fraction below 1", excerpt(term.Discount))
			} else if t.Monthly.IsZero() {
				add(at(".discount"), "a discount needs a monthly price")
			}
		}
	}
	if t.Hourly.IsZero() && t.Daily.IsZero() && t.Weekly.IsZero() && t.Monthly.IsZero() && len(t.Terms) == 0 {
		add("", "nothing offered: every price is zero")
	}
	return errors.Join(errs...)
}

// belowOne reports whether d, a valid price (checkPrice), is below 1, without
// allocating where its coefficient fits an int64.
func belowOne(d decimal.Decimal) bool {
	if t := splitDec(d); t.ok {
		// c·10^e < 1: c < 10^-e, where e < 0 (a trimmed c ≥ 1 is whole
		// otherwise, and c = 0 is below); 10^-e is past every int64 c from 19 up.
		return t.c == 0 || (t.e < 0 && (t.e < -18 || t.c < pow10(int64(-t.e))))
	}
	return d.LessThan(decimal.New(1, 0))
}

func (a AfterPackage) valid() bool { return a == BillHourly || a == Renew }

// checkPrice accepts a non-negative decimal below 10^15 with at most 12 places;
// anything else is a *FieldError for field.
func checkPrice(field string, d decimal.Decimal) error {
	// Check the exponent before any arithmetic or formatting: a value built as
	// 1e-2000000000 would take forever to rescale.
	if e := d.Exponent(); e < -60 || e > maxPriceDigits {
		return invalid(field, "price with exponent %d: want -60 to %d", e, maxPriceDigits)
	}
	if d.Sign() < 0 {
		return invalid(field, "price %s is negative", excerpt(d))
	}
	if t := splitDec(d); t.ok { // the common case, without allocating
		digits := int64(0)
		for v := t.c; v > 0; v /= 10 {
			digits++
		}
		if t.e >= -maxPricePlaces && (t.c == 0 || digits+int64(t.e) <= maxPriceDigits) {
			return nil
		}
	}
	t := trim(d)
	if t.Exponent() < -maxPricePlaces {
		return invalid(field, "price %s has more than %d decimal places", excerpt(t), maxPricePlaces)
	}
	// c·10^e < 10^15 exactly when c has at most 15 − e digits (NumDigits is exact).
	if !t.IsZero() && int64(t.NumDigits())+int64(t.Exponent()) > maxPriceDigits {
		return invalid(field, "price %s is 10^%d or more", excerpt(t), maxPriceDigits)
	}
	return nil
}

func (t Tariff) hoursPerMonth() int64 { return int64(cmp.Or(t.HoursPerMonth, DefaultHoursPerMonth)) }

func (t Tariff) granularity() time.Duration { return cmp.Or(t.Granularity, time.Second) }

// termMonthly is the price of one month under term.
func (t Tariff) termMonthly(term Term) decimal.Decimal {
	if !term.Monthly.IsZero() {
		return term.Monthly
	}
	return t.Monthly.Mul(decimal.NewFromInt(1).Sub(term.Discount))
}

// billed returns the billed length of one hourly session of length r > 0: r, or
// Minimum when longer, rounded up to a whole number of granularity units.
func (t Tariff) billed(r time.Duration) time.Duration {
	if r <= 0 {
		return 0
	}
	if r < t.Minimum {
		r = t.Minimum
	}
	g := t.granularity()
	n := r / g
	if r%g != 0 {
		n++
	}
	return n * g
}

// billedSecs is billed(r) in seconds: the hourly seconds Cost bills for a run,
// a session or a trial, and Bill for each GPU of a session.
func (t Tariff) billedSecs(r time.Duration) int64 { return int64(t.billed(r) / time.Second) }

// Package names one kind of prepaid package, for BreakEvenFor.
type Package int

const (
	// Daily is the 24-hour package.
	Daily Package = iota + 1
	// Weekly is the 168-hour package.
	Weekly
	// Monthly is the package of HoursPerMonth hours.
	Monthly
)

// String returns "daily", "weekly" or "monthly", the line items of a Quote.
func (p Package) String() string {
	return enumName("Package", int(p), "", "daily", "weekly", "monthly")
}

// BreakEven returns BreakEvenFor(Monthly): the usage per month above which the
// monthly package costs less than paying by the hour. ¥9000 a month against ¥18 an
// hour breaks even at 500 hours.
func (t Tariff) BreakEven() (time.Duration, error) { return t.BreakEvenFor(Monthly) }

// BreakEvenFor returns the usage within one package period above which the package
// costs less than hourly use: package price / hourly price, in hours (the
// convention in REFERENCES.md, "Pricing conventions"). It compares prices only:
// granularity and minimum charge are left out. A fractional nanosecond rounds up,
// so usage strictly above the result always favours the package. A result longer
// than the package itself means the package never beats hourly use within its
// period. It returns an error wrapping ErrInvalid when the tariff is invalid or
// either price is not offered.
func (t Tariff) BreakEvenFor(p Package) (time.Duration, error) {
	if err := t.Validate(); err != nil {
		return 0, err
	}
	var price decimal.Decimal
	switch p {
	case Daily:
		price = t.Daily
	case Weekly:
		price = t.Weekly
	case Monthly:
		price = t.Monthly
	default:
		return 0, fmt.Errorf("pricing: break-even: unknown package %d: %w", int(p), ErrInvalid)
	}
	if price.IsZero() || t.Hourly.IsZero() {
		return 0, fmt.Errorf("pricing: break-even: %s needs both the hourly and the %s price: %w", p, p, ErrInvalid)
	}
	// hours = price / hourly; nanoseconds = hours × 3.6e12, rounded up.
	ns := price.Mul(decimal.NewFromInt(int64(time.Hour)))
	q, r := ns.QuoRem(t.Hourly, 0)
	if r.Sign() > 0 {
		q = q.Add(decimal.NewFromInt(1))
	}
	if q.Cmp(decimal.NewFromInt(int64(MaxDuration))) > 0 {
		return 0, fmt.Errorf("pricing: break-even: %s ns is beyond %v: %w", q.String(), MaxDuration, ErrInvalid)
	}
	return time.Duration(q.IntPart()), nil
}
