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

// Pattern is the shape of a Usage.
type Pattern int

const (
	// Run is one continuous run of Duration: the GPU is held from start to end.
	Run Pattern = iota
	// Sessions is PerDay of use on each of Days consecutive days. Hourly use bills
	// each day's session separately (granularity and minimum apply to each), so it
	// pays only for the hours used; a daily, weekly or monthly package reserves
	// the card for the whole period and pays for the idle hours too. In this
	// pattern a package covers whole days: a day 1, a week 7, a month
	// HoursPerMonth/24 days rounded down (30 for 730 or 720 hours), a term that
	// many months' hours in whole days.
	Sessions
	// TrialThenCommit is the second article's advice, rent short first and then
	// commit: a trial of Trial billed hourly as a rental of its own, then a run of
	// Duration priced like Run (packages where they are cheaper). The two are priced
	// as one plan with one total. It needs an hourly price.
	TrialThenCommit
)

// String returns "run", "sessions" or "trial_then_commit".
func (p Pattern) String() string {
	return enumName("Pattern", int(p), "run", "sessions", "trial_then_commit")
}

// MarshalText writes the pattern's String.
func (p Pattern) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads "run", "sessions" or "trial_then_commit".
func (p *Pattern) UnmarshalText(b []byte) error {
	for _, c := range []Pattern{Run, Sessions, TrialThenCommit} {
		if string(b) == c.String() {
			*p = c
			return nil
		}
	}
	return invalid("pattern", "%s: want run, sessions or trial_then_commit", quote(string(b)))
}

// Usage says how long, and in what pattern, GPUs are rented. Build one with
// Continuous, DailySessions or TrialThen; the zero value is a run of zero length,
// which costs nothing.
//
// JSON is {"pattern":"run","duration":"730h0m0s","per_day":"0s","days":0,
// "trial":"0s"}: durations in time.Duration's syntax; unknown fields, numbers
// for durations and malformed durations are errors wrapping ErrInvalid.
type Usage struct {
	Pattern  Pattern       `json:"pattern"`
	Duration time.Duration `json:"duration"` // Run: the run; TrialThenCommit: the run after the trial
	PerDay   time.Duration `json:"per_day"`  // Sessions: use each day, more than 0 and at most 24h
	Days     int           `json:"days"`     // Sessions: consecutive days, 1 to 36500
	Trial    time.Duration `json:"trial"`    // TrialThenCommit: the hourly trial, more than 0
}

type usageWire struct {
	Pattern  Pattern `json:"pattern"`
	Duration string  `json:"duration"`
	PerDay   string  `json:"per_day"`
	Days     int     `json:"days"`
	Trial    string  `json:"trial"`
}

// MarshalJSON writes the usage with its durations as Go duration strings.
func (u Usage) MarshalJSON() ([]byte, error) {
	return jsonMarshal(usageWire{u.Pattern, u.Duration.String(), u.PerDay.String(), u.Days, u.Trial.String()})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly; an empty or absent
// duration is zero. It does not validate; Price does.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var w usageWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	out := Usage{Pattern: w.Pattern, Days: w.Days}
	var err error
	for _, f := range [...]struct {
		name, in string
		dst      *time.Duration
	}{{"duration", w.Duration, &out.Duration}, {"per_day", w.PerDay, &out.PerDay}, {"trial", w.Trial, &out.Trial}} {
		if *f.dst, err = durationField(f.name, f.in); err != nil {
			return err
		}
	}
	*u = out
	return nil
}

// Continuous is a single run of d.
func Continuous(d time.Duration) Usage { return Usage{Pattern: Run, Duration: d} }

// DailySessions is perDay of use on each of days consecutive days.
func DailySessions(perDay time.Duration, days int) Usage {
	return Usage{Pattern: Sessions, PerDay: perDay, Days: days}
}

// TrialThen is a trial billed hourly followed by a run of rest.
func TrialThen(trial, rest time.Duration) Usage {
	return Usage{Pattern: TrialThenCommit, Trial: trial, Duration: rest}
}

// Validate reports a usage with negative or out-of-range fields, or fields its
// pattern does not use, each wrapping ErrInvalid.
func (u Usage) Validate() error {
	var errs []error
	add := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("pricing: usage: "+format+": %w", append(args, ErrInvalid)...))
	}
	if u.Duration < 0 || u.Duration > MaxDuration {
		add("duration %v: want 0 to %v", u.Duration, MaxDuration)
	}
	switch u.Pattern {
	case Run:
		if u.PerDay != 0 || u.Days != 0 || u.Trial != 0 {
			add("a run uses Duration only")
		}
	case Sessions:
		if u.PerDay <= 0 || u.PerDay > 24*time.Hour {
			add("per day %v: want more than 0 and at most 24h", u.PerDay)
		}
		if u.Days < 1 || u.Days > 36500 {
			add("days %d: want 1 to 36500", u.Days)
		}
		if u.Duration != 0 || u.Trial != 0 {
			add("sessions use PerDay and Days only")
		}
	case TrialThenCommit:
		if u.Trial <= 0 || u.Trial > MaxDuration {
			add("trial %v: want more than 0 and at most %v", u.Trial, MaxDuration)
		}
		if u.PerDay != 0 || u.Days != 0 {
			add("a trial then commit uses Trial and Duration only")
		}
	default:
		add("unknown pattern %d", int(u.Pattern))
	}
	return errors.Join(errs...)
}

// Price returns the cheapest price of usage u on gpus GPUs, each GPU billed alike
// under t (see Cost for a run, Pattern for the others). The total is rounded once,
// for all GPUs together. Errors wrap ErrInvalid (an invalid tariff, usage or GPU
// count) or ErrUnavailable (a trial on a tariff without an hourly price).
func (t Tariff) Price(u Usage, gpus int) (Quote, error) {
	if err := errors.Join(t.Validate(), u.Validate(), checkGPUs(gpus)); err != nil {
		return Quote{}, err
	}
	return t.price(u, gpus)
}

// Pricer is a tariff validated once and made ready to price many usages, for a
// caller (a planner) that prices one tariff at many lengths and GPU counts. It is
// read-only once made and safe for concurrent use; its answers are those of
// Tariff.Price.
type Pricer struct{ p *pricer }

// NewPricer validates t and prepares it. Errors wrap ErrInvalid.
func NewPricer(t Tariff) (Pricer, error) {
	if err := t.Validate(); err != nil {
		return Pricer{}, err
	}
	return Pricer{newPricer(t)}, nil
}

// Price is Tariff.Price on the prepared tariff.
func (p Pricer) Price(u Usage, gpus int) (Quote, error) {
	if err := p.check(u, gpus); err != nil {
		return Quote{}, err
	}
	return p.p.price(u, gpus, true)
}

// Total is Price's Total alone: the cheapest price of usage u on gpus GPUs,
// rounded once to the minor unit, without building the quote's lines. A caller
// that ranks many usages compares totals and builds quotes for the few it shows.
// Errors are Price's.
func (p Pricer) Total(u Usage, gpus int) (Money, error) {
	if err := p.check(u, gpus); err != nil {
		return Money{}, err
	}
	c, trial, err := p.p.cover(u, true)
	if err != nil {
		return Money{}, err
	}
	return p.p.total(c, trial, gpus), nil
}

// Floor is a lower bound of Total(u, gpus) that costs a few multiplications: the
// least of hourly time alone and, for each package, the larger of its price and
// the run at the tariff's lowest price per second (hourly or a package's),
// rounded as Total rounds to the minor unit of the tariff's currency. A caller
// that ranks many usages prices in full only those whose Floor could still win.
// It reports false when it has no bound to give: a usage other than a valid run,
// prices too large for int64.
func (p Pricer) Floor(u Usage, gpus int) (Money, bool) {
	minor, ok := p.floor(u, gpus)
	if !ok {
		return Money{}, false
	}
	return Money{Amount: decimal.New(minor, -p.p.minor), Currency: p.p.t.Currency}, true
}

// FloorAbove reports whether Floor(u, gpus) has a bound to give and it is above
// bar: then every price of u on gpus GPUs is above bar, and a caller ranking
// prices against bar (the last of the ones it keeps) need not price it. It is
// false where Floor has no bound and for a bar in another currency. It is Floor
// compared with bar, without building Floor's Money: where bar is a whole
// number of the currency's minor units (a rounded total is), it does not
// allocate.
func (p Pricer) FloorAbove(u Usage, gpus int, bar Money) bool {
	minor, ok := p.floor(u, gpus)
	if !ok || bar.Currency != p.p.t.Currency {
		return false
	}
	if b, whole := wholeMinor(bar.Amount, p.p.minor); whole {
		return minor > b
	}
	return decimal.New(minor, -p.p.minor).GreaterThan(bar.Amount)
}

// floor is Floor in whole minor units of the tariff's currency.
func (p Pricer) floor(u Usage, gpus int) (int64, bool) {
	if u.Pattern != Run || p.check(u, gpus) != nil {
		return 0, false
	}
	// Whole seconds, rounded up; Validate bounds the duration far below overflow.
	return p.p.floor(int64((u.Duration+time.Second-1)/time.Second), gpus)
}

func (p Pricer) check(u Usage, gpus int) error {
	if p.p == nil {
		return fmt.Errorf("pricing: a Pricer not made by NewPricer: %w", ErrInvalid)
	}
	return errors.Join(u.Validate(), checkGPUs(gpus))
}

// price is Price for a tariff, usage and GPU count already validated.
func (t Tariff) price(u Usage, gpus int) (Quote, error) {
	return newPricer(t).price(u, gpus, true)
}

// pkg is a package of a tariff: its unit (term, month, week or day), a term's
// months, its length and its price.
type pkg struct {
	unit   string
	months int
	hours  int64
	price  decimal.Decimal
}

// name is the package's line item: "term_12m", "monthly", "weekly" or "daily".
func (k pkg) name() string {
	switch k.unit {
	case "term":
		return "term_" + strconv.Itoa(k.months) + "m"
	case "month":
		return "monthly"
	case "week":
		return "weekly"
	}
	return "daily"
}

// appendPackages appends the tariff's packages to out, with their lengths in
// hours, longest first.
func (t Tariff) appendPackages(out []pkg) []pkg {
	hpm := t.hoursPerMonth()
	first := len(out)
	for _, term := range t.Terms {
		m := int64(term.Months)
		out = append(out, pkg{"term", term.Months, m * hpm, t.termMonthly(term).Mul(decimal.NewFromInt(m))})
	}
	// Longest term first, for a stable display order.
	slices.SortStableFunc(out[first:], func(a, b pkg) int { return cmp.Compare(b.months, a.months) })
	for _, p := range [...]pkg{{"month", 0, hpm, t.Monthly}, {"week", 0, 168, t.Weekly}, {"day", 0, 24, t.Daily}} {
		if !p.price.IsZero() {
			out = append(out, p)
		}
	}
	return out
}

// costScale returns the number of decimal places that makes every price of t an
// integer, for the search's integer cost unit.
func (t Tariff) costScale(pk []pkg) int32 {
	p := places(t.Hourly)
	for _, k := range pk {
		p = max(p, places(k.price))
	}
	return p
}
