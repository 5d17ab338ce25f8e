package pricing

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// Limits on a billing run, so that no input makes Bill slow or its memory
// unbounded. Bill's time grows as n log n in the number of sessions (sorts, and an
// event sweep over their starts and ends) and its memory linearly: the invoice's
// line a session, and a quantity and amount for each distinct count of
// GPU-seconds billed, which the lines of the sessions billed alike share.
// BenchmarkBill measures a month's log; BenchmarkBillAtLimit MaxSessions
// sessions each billed a count of its own, the most memory per session (under
// 350 bytes).
const (
	MaxSessions  = 1 << 22 // 4,194,304 sessions in one Bill
	MaxPurchases = 100_000 // purchases of one Account
	MaxOutages   = 100_000 // outages in one Bill
)

// InvoiceSchemaVersion is the "schema_version" an Invoice's JSON carries. It
// changes only when a key is renamed, removed or changes meaning; readers reject
// other versions.
const InvoiceSchemaVersion = 1

// Session is one stretch of use of GPUs that Bill prices: from Start (inclusive) to
// End (exclusive) on GPUs GPUs (zero: 1). JSON: {"start":"2026-01-01T00:00:00Z",
// "end":"2026-01-01T02:30:00Z","gpus":4}, times in RFC 3339; unknown fields are
// rejected.
type Session struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	GPUs  int       `json:"gpus"`
}

// Purchase is a prepaid package an account bought: Package (Daily, Weekly or
// Monthly), or instead Months, the length of one of the tariff's Terms. It covers
// GPUs GPUs (zero: 1) from Start for its length: a day 24 h, a week 168 h, a month
// the tariff's HoursPerMonth, a term Months such months (not calendar months).
// JSON: {"package":"monthly","months":0,"start":"2026-01-01T00:00:00Z","gpus":1},
// "package" empty for a term; unknown fields are rejected.
type Purchase struct {
	Package Package   `json:"package"`
	Months  int       `json:"months"`
	Start   time.Time `json:"start"`
	GPUs    int       `json:"gpus"`
}

// Outage is a stretch in which the service was down, for SLA credits. JSON:
// {"start":...,"end":...} in RFC 3339; unknown fields are rejected.
type Outage struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// SLA is the availability a provider promises and the credits it gives when a
// period falls short, in the shape of the large clouds' service credit tables: a
// percentage of the period's charges for each band of measured monthly uptime
// (Amazon's Compute SLA, aws.amazon.com/compute/sla, region level: 10% below
// 99.99% down to 99.0%, larger percentages in the lower bands; Google Compute
// Engine's SLA, cloud.google.com/compute/sla, Financial Credits by band alike).
//
// Measured availability is 1 − (outage time within the period) / (period
// length), overlapping outages counted once. When it is below Availability, the
// credit is the largest Percent among the Credits whose Below it is under; when no
// Credits apply, none is given. The zero SLA gives no credits.
type SLA struct {
	Availability float64  `json:"availability"` // promised, from 0 to 1, e.g. 0.999
	Credits      []Credit `json:"credits"`
}

// Credit is one row of an SLA's credit table: Percent (0 to 100) of the period's
// subtotal when measured availability is below Below (0 to 1, at most the SLA's
// Availability). JSON: {"below":0.999,"percent":"10"}, the percent an exact
// decimal string.
type Credit struct {
	Below   float64
	Percent decimal.Decimal
}

// Account is what a billing run needs to know about a customer: the tariff it
// pays, the packages it bought, its tax rate and its SLA. TaxRate is a fraction (0
// to 1, at most 12 places: 0.06 is 6%), applied to the subtotal after credits;
// zero means none.
type Account struct {
	Tariff    Tariff
	Purchases []Purchase
	TaxRate   decimal.Decimal
	SLA       SLA
}

// Invoice is what an account owes for a period [From, To), in UTC: its Lines and
// their sums. Every line's Amount is in whole minor units of the currency and the
// lines add up exactly to Total = Subtotal − Credit + Tax.
//
// Lines come in this order: the purchases that start in the period (Item
// "monthly", "weekly", "daily" or "term_12m" and the like, Quantity the GPUs, in
// order of start, then item, then GPUs); then one line per session with GPU-time
// no purchase covers (Item "hourly", Unit "hour", Quantity the billed GPU-hours,
// exact when it terminates and otherwise rounded half up to nine places, in the
// order purchases are given out: start, then end, then GPUs); then the SLA credit
// (Item "sla_credit", Unit "percent", Quantity the percent, Price minus one
// percent of the subtotal, a negative Amount) when a credit applies; then the tax
// (Item "tax", Unit "percent", Quantity the rate in percent, Price one percent of
// the subtotal less the credit) when TaxRate is set.
//
// JSON is stable and round-trips (unmarshalling what was marshalled gives an equal
// Invoice):
//
//	{"schema_version":1,"from":"2026-01-01T00:00:00Z","to":"2026-02-01T00:00:00Z",
//	 "lines":[{"item":"hourly","unit":"hour","quantity":"2",
//	 "price":{"amount":"18.00","currency":"CNY"},"amount":{...}}],
//	 "subtotal":{...},"credit":{...},"tax":{...},"total":{...}}
//
// with every amount an exact decimal string whatever decimal's package settings
// are, and times in RFC 3339. Unmarshal rejects unknown fields and other schema
// versions.
type Invoice struct {
	From, To time.Time
	Lines    []Line
	Subtotal Money // packages bought in the period + hourly use not covered
	Credit   Money // SLA credit, subtracted (zero or positive)
	Tax      Money
	Total    Money // Subtotal − Credit + Tax
}

// resolved is a purchase checked against the tariff: k indexes its packages.
type resolved struct {
	k     int
	start time.Time
	gpus  int64
}

// resolvePurchase finds the package p buys in the tariff's packages.
func resolvePurchase(i int, p Purchase, pks []pkg) (resolved, error) {
	bad := func(format string, args ...any) (resolved, error) {
		return resolved{}, fmt.Errorf("pricing: purchase %d: "+format+": %w", append([]any{i}, append(args, ErrInvalid)...)...)
	}
	if p.GPUs < 0 || p.GPUs > 1_000_000 {
		return bad("%d GPUs: want 1 to 1000000, or zero for 1", p.GPUs)
	}
	var name string
	switch {
	case p.Package != 0 && p.Months != 0:
		return bad("give a package or the months of a term, not both")
	case p.Package == Daily || p.Package == Weekly || p.Package == Monthly:
		name = p.Package.String()
	case p.Package != 0:
		return bad("unknown package %d", int(p.Package))
	case p.Months != 0:
		name = "term_" + strconv.Itoa(p.Months) + "m"
	default:
		return bad("give a package (daily, weekly, monthly) or the months of a term")
	}
	for k, pk := range pks {
		if pk.name() == name {
			return resolved{k: k, start: p.Start, gpus: int64(max(p.GPUs, 1))}, nil
		}
	}
	if p.Months != 0 {
		return bad("the tariff has no term of %d months", p.Months)
	}
	return bad("the tariff does not offer the %s package", name)
}

// PriceBasket prices purchases as bought, whatever they cover: one line per kind
// of package with the GPU-packages bought (one monthly plus three daily gives a
// "monthly" line of 1 and a "daily" line of 3), and the total rounded once with
// the tariff's rounding mode: the quote Cost would write for a cover of exactly
// those packages. Start is not used. Beside Tariff.Cost, the cheapest cover of a
// run, it shows a customer what was bought against what would have sufficed. A
// purchase the tariff does not offer, an invalid tariff or more than MaxPurchases
// purchases is an error wrapping ErrInvalid; no purchases is a zero quote.
func (t Tariff) PriceBasket(ps []Purchase) (Quote, error) {
	if err := t.Validate(); err != nil {
		return Quote{}, err
	}
	if len(ps) > MaxPurchases {
		return Quote{}, fmt.Errorf("pricing: %d purchases: at most %d: %w", len(ps), MaxPurchases, ErrInvalid)
	}
	p := newPricer(t)
	var counts [maxItems]int64
	for i, pu := range ps {
		r, err := resolvePurchase(i, pu, p.pk)
		if err != nil {
			return Quote{}, err
		}
		counts[r.k] += r.gpus
	}
	return p.quote(p.packagesCover(counts), 0, 1), nil
}

// Bill returns the invoice of the period [from, to) for the sessions used and the
// outages suffered, under the account's tariff, purchases, tax rate and SLA.
//
// Sessions are clipped to the period. A purchase covers its GPUs for its length
// from its Start, in this period or a later one; its price is billed in the period
// its Start falls in. At each instant the purchases then running cover up to their
// GPUs of the GPUs in use, given to the sessions in order of start, then end, then
// GPUs (so the result does not depend on the order of the input), each session
// taking as many as it uses before the next gets any. The tariff's AfterPackage
// policy is for planning (Cost); Bill bills whatever the purchases leave
// uncovered at the hourly price.
//
// Each session with uncovered GPU-time is one hourly line: for each of its GPUs,
// the seconds no purchase covered, rounded up to the tariff's granularity, at
// least its Minimum when any remain (the part of a session inside the period, so
// a unit that straddles to is rounded up in each period), summed over the GPUs
// and priced at the hourly price. Each line's amount is its exact value rounded
// once to the minor unit with the tariff's rounding mode (half up by default: 24 s
// at 3.60/h is 0.024, billed 0.02). The SLA credit is a percentage of the
// subtotal and the tax a rate on the subtotal less the credit, each rounded half
// up to the minor unit once. This follows usage-based billing as OpenMeter, Lago
// and Stripe do it: metered usage priced per unit in the period it falls in,
// prepaid packages as fees billed when bought, credits and taxes as lines of the
// invoice. Unlike them it prorates nothing (a package is billed in full), and the
// SLA credit reduces the taxed amount, as a discount does, where Lago deducts
// prepaid credits and coupons after tax (Lago changelog, "New calculation
// method for invoices").
//
// Errors wrap ErrInvalid and name the session, purchase or outage at fault (its
// index in the input; the first found): an invalid tariff, from not before to, a
// period longer than MaxDuration, a session or outage that ends before it starts,
// GPUs outside 0 to 1000000, a purchase of a package or term the tariff does not
// offer, a tax rate outside 0 to 1, an availability or Below outside [0, 1], a
// Percent outside 0 to 100, more than MaxSessions sessions, MaxPurchases
// purchases or MaxOutages outages. Uncovered use on a tariff without an hourly
// price is an error wrapping ErrUnavailable that names the session.
func (a Account) Bill(from, to time.Time, used []Session, outages []Outage) (Invoice, error) {
	t := a.Tariff
	if err := t.Validate(); err != nil {
		return Invoice{}, err
	}
	if err := a.check(from, to, len(used), outages); err != nil {
		return Invoice{}, err
	}
	cur, minor := t.Currency, MinorUnit(t.Currency)
	money := func(d decimal.Decimal) Money { return Money{Amount: d, Currency: cur} }
	pr := newPricer(t)

	// Purchases: lines for those bought in the period; coverage for all.
	bought := make([]resolved, 0, len(a.Purchases))
	var windows []window
	for i, p := range a.Purchases {
		r, err := resolvePurchase(i, p, pr.pk)
		if err != nil {
			return Invoice{}, err
		}
		if !r.start.Before(from) && r.start.Before(to) {
			bought = append(bought, r)
		}
		if w, ok := clip(from, to, r.start, r.start.Add(time.Duration(pr.pk[r.k].hours)*time.Hour)); ok {
			windows = append(windows, window{w[0], w[1], r.gpus})
		}
	}
	slices.SortFunc(bought, func(x, y resolved) int {
		return cmp.Or(x.start.Compare(y.start), cmp.Compare(pr.pk[x.k].name(), pr.pk[y.k].name()),
			cmp.Compare(x.gpus, y.gpus))
	})
	inv := Invoice{From: from.UTC(), To: to.UTC(), Lines: make([]Line, 0, len(bought)+len(used)+2)}
	subtotal := decimal.Decimal{}
	for _, r := range bought {
		var one [maxItems]int64
		one[r.k] = 1
		l := pr.roundedLine(pr.packagesCover(one), int(r.gpus))
		subtotal = subtotal.Add(l.Amount.Amount)
		inv.Lines = append(inv.Lines, l)
	}

	// Sessions: uncovered GPU-seconds billed, in the order purchases go to them.
	ss, err := clipSessions(from, to, used)
	if err != nil {
		return Invoice{}, err
	}
	secs := sweep(t, ss, windows)
	// The sessions billed, one line each in their order; each distinct count of
	// GPU-seconds is priced once (Cost's hourly line and its rounding of a
	// total), its quantity and amount shared by the lines of the sessions billed
	// alike, and added to the subtotal once per count. Sorting the lines by
	// count finds the sessions billed alike in O(n log n) time and 8 bytes a
	// session, where a map would take tens.
	var billed []int32 // the sessions with GPU-seconds to bill, in order
	for k, s := range secs {
		if s == 0 {
			continue
		}
		if t.Hourly.IsZero() {
			return Invoice{}, fmt.Errorf("pricing: session %d: %d GPU-seconds no purchase covers, and the tariff has no hourly price: %w", ss[k].idx, s, ErrUnavailable)
		}
		billed = append(billed, int32(k))
	}
	byCount := make([]int32, len(billed)) // lines, by their sessions' GPU-seconds
	for i := range byCount {
		byCount[i] = int32(i)
	}
	slices.SortFunc(byCount, func(x, y int32) int { return cmp.Compare(secs[billed[x]], secs[billed[y]]) })
	first := len(inv.Lines)
	inv.Lines = inv.Lines[:first+len(billed)]
	hourly := money(t.Hourly)
	for i := 0; i < len(byCount); {
		s := secs[billed[byCount[i]]]
		l := pr.roundedLine(pr.hourlyCover(s), 1)
		l.Price = hourly
		j := i
		for ; j < len(byCount) && secs[billed[byCount[j]]] == s; j++ {
			inv.Lines[first+int(byCount[j])] = l
		}
		subtotal = subtotal.Add(l.Amount.Amount.Mul(decimal.NewFromInt(int64(j - i))))
		i = j
	}

	// Credit, then tax on what remains.
	credit := decimal.Decimal{}
	if _, pct := a.SLA.Reached(from, to, outages); pct.Sign() > 0 {
		credit = roundQuo(subtotal.Mul(pct), decimal.NewFromInt(100), minor, RoundHalfUp)
		per := subtotal.Shift(-2).Neg() // one percent, exactly
		inv.Lines = append(inv.Lines, Line{Item: "sla_credit", Unit: "percent", Quantity: pct, Price: money(per), Amount: money(credit.Neg())})
	}
	tax := decimal.Decimal{}
	if a.TaxRate.Sign() > 0 {
		base := subtotal.Sub(credit)
		tax = roundQuo(base.Mul(a.TaxRate), decimal.NewFromInt(1), minor, RoundHalfUp)
		inv.Lines = append(inv.Lines, Line{Item: "tax", Unit: "percent", Quantity: trim(a.TaxRate.Mul(decimal.NewFromInt(100))),
			Price: money(base.Shift(-2)), Amount: money(tax)})
	}
	inv.Subtotal, inv.Credit, inv.Tax = money(subtotal), money(credit), money(tax)
	inv.Total = money(subtotal.Sub(credit).Add(tax))
	return inv, nil
}

// check validates the account's own fields and the sizes of a billing run.
func (a Account) check(from, to time.Time, sessions int, outages []Outage) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("pricing: bill: "+format+": %w", append(args, ErrInvalid)...)
	}
	// fraction accepts a decimal from 0 to hi with at most 12 places.
	fraction := func(name string, d decimal.Decimal, hi int64) error {
		if e := d.Exponent(); e < -60 || e > 18 {
			return bad("%s has exponent %d", name, e)
		}
		if d.Sign() < 0 || d.Cmp(decimal.NewFromInt(hi)) > 0 || places(d) > maxPricePlaces {
			return bad("%s %s: want 0 to %d with at most %d places", name, d.String(), hi, maxPricePlaces)
		}
		return nil
	}
	switch {
	case !from.Before(to):
		return bad("period from %s to %s: from must be before to", from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano))
	case to.Sub(from) > MaxDuration:
		return bad("period of %v: at most %v", to.Sub(from), MaxDuration)
	case sessions > MaxSessions:
		return bad("%d sessions: at most %d", sessions, MaxSessions)
	case len(a.Purchases) > MaxPurchases:
		return bad("%d purchases: at most %d", len(a.Purchases), MaxPurchases)
	case len(outages) > MaxOutages:
		return bad("%d outages: at most %d", len(outages), MaxOutages)
	}
	for i, o := range outages {
		if o.End.Before(o.Start) {
			return fmt.Errorf("pricing: outage %d: ends at %s, before it starts at %s: %w", i,
				o.End.Format(time.RFC3339Nano), o.Start.Format(time.RFC3339Nano), ErrInvalid)
		}
	}
	if err := fraction("tax rate", a.TaxRate, 1); err != nil {
		return err
	}
	s := a.SLA
	if !(s.Availability >= 0 && s.Availability <= 1) {
		return bad("SLA availability %v: want 0 to 1", s.Availability)
	}
	for i, c := range s.Credits {
		if !(c.Below >= 0 && c.Below <= s.Availability) {
			return bad("SLA credit %d: below %v: want 0 to the availability promised, %v", i, c.Below, s.Availability)
		}
		if err := fraction(fmt.Sprintf("SLA credit %d: percent", i), c.Percent, 100); err != nil {
			return err
		}
	}
	return nil
}

// Reached returns the availability the outages leave in [from, to), 1 − the
// outage time within it (overlapping outages counted once) over its length, and
// the SLA credit in percent it earns: the largest Percent whose Below the exact
// availability is under, zero for none. Bill charges that credit, and checks the
// SLA first; Reached itself leaves out a credit whose Below is not a finite
// number or whose Percent is out of range (an exponent outside -60 to 60), and
// gives 1 and no credit for a period that is empty (from not before to).
func (s SLA) Reached(from, to time.Time, outages []Outage) (float64, decimal.Decimal) {
	if !from.Before(to) {
		return 1, decimal.Decimal{}
	}
	spans := make([][2]int64, 0, len(outages))
	for _, o := range outages {
		if w, ok := clip(from, to, o.Start, o.End); ok {
			spans = append(spans, w)
		}
	}
	slices.SortFunc(spans, func(x, y [2]int64) int { return cmp.Compare(x[0], y[0]) })
	var down, end int64 // outage time counted once; the end of what is counted
	for _, w := range spans {
		down += max(0, w[1]-max(w[0], end))
		end = max(end, w[1])
	}
	// Measured availability up = (period − down)/period, compared exactly with
	// the float64 thresholds, each of which is a binary fraction. Every Below is
	// at most the Availability (check), so a credit applies only below it.
	period := int64(to.Sub(from))
	up := new(big.Rat).SetFrac64(period-down, period)
	best := decimal.Decimal{}
	for _, c := range s.Credits {
		below := new(big.Rat).SetFloat64(c.Below) // nil for NaN and ±Inf
		if below != nil && exponentOK(c.Percent) && up.Cmp(below) < 0 && c.Percent.Cmp(best) > 0 {
			best = c.Percent
		}
	}
	f, _ := up.Float64()
	return f, best
}
