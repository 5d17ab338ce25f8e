package pricing

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// option prices one fit on one offer.
func (s settings) option(index int, o Offer, card catalog.Card, n int, f *fit, check PriceCheck) (Option, error) {
	opt := Option{
		index: index,
		Offer: o, CardID: card.ID, GPUs: n, Layout: f.layout, PerGPU: f.mem, Capacity: card.Memory,
		Headroom:     1 - float64(f.mem.Total())/float64(card.Memory),
		Duration:     f.duration,
		DurationLow:  f.low,
		DurationHigh: f.high,
		Efficiency:   f.eff,
	}
	jobRental := false
	switch {
	case s.rentalSet():
		opt.Rental = s.Rental
	case s.Usage > 0:
		opt.Rental = Continuous(s.Usage)
	case s.Tokens > 0:
		opt.Rental, jobRental = Continuous(ceilSecond(f.duration)), true
	default:
		opt.Rental = Continuous(DefaultDemoHour)
	}
	if span := usageSpan(opt.Rental); !jobRental && s.Tokens > 0 && span < f.duration {
		return Option{}, &shortRental{span: span}
	} else if span > MaxDuration {
		return Option{}, &unavailable{o.name(), fmt.Errorf("the rental of %s is past the %s pricing limit: %w",
			roundDur(span), roundDur(MaxDuration), ErrUnavailable)}
	}
	q, hq, err := s.quote(o, opt.Rental, n)
	if errors.Is(err, ErrUnavailable) {
		return Option{}, &unavailable{o.name(), err}
	}
	if err != nil {
		return Option{}, &contextError{context: fmt.Sprintf("plan: %s at %d GPU(s)", o.name(), n), err: err}
	}
	opt.Cost, opt.HourlyOnly = q, hq
	if opt.HourlyOnly.Total.Currency == "" {
		opt.HourlyOnly = Quote{Total: Money{Amount: decimal.Decimal{}, Currency: o.Tariff.Currency}, Lines: []Line{}}
	}

	opt.ExpectedCost = q.Total
	if o.InterruptionsPerDay > 0 && f.duration > 0 {
		if err := s.interruptions(&opt, o, n); err != nil {
			return Option{}, err
		}
	}

	opt.Warnings = append(opt.Warnings, f.notes...)
	scaling := "" // the efficiency, when the job was timed
	if f.duration > 0 {
		scaling = fmt.Sprintf("; scaling efficiency %.0f%%", f.eff*100)
	}
	switch {
	case n > GPUsPerServer:
		opt.Warnings = append(opt.Warnings, fmt.Sprintf("%d GPUs span %d servers: they talk over %s%s",
			n, (n+GPUsPerServer-1)/GPUsPerServer, f.linkName, scaling))
	case n > 1 && !f.nvlink && (s.Workload.Task != sizing.Inference || f.layout.Tensor > 1):
		opt.Warnings = append(opt.Warnings, fmt.Sprintf("%d GPUs without NVLink: they talk over %s%s", n, f.linkName, scaling))
	}
	if opt.Headroom < DefaultHeadroom {
		opt.Warnings = append(opt.Warnings, fmt.Sprintf("only %.0f%% of GPU memory left free (under 20%%): fragmentation or a longer input may run out of memory", opt.Headroom*100))
	}
	if check.Flag == PriceBelow || check.Flag == PriceAbove {
		opt.Warnings = append(opt.Warnings, check.Message)
	}
	switch {
	case s.Deadline > 0 && f.duration > s.Deadline:
		opt.Warnings = append(opt.Warnings, fmt.Sprintf("meets the %s deadline only at the optimistic end of the utilization band (%s expected)", roundDur(s.Deadline), roundDur(f.duration)))
	case s.Deadline > 0 && f.duration+opt.TimeLost > s.Deadline:
		opt.Warnings = append(opt.Warnings, fmt.Sprintf("with the expected interruptions it finishes in %s, after the %s deadline", roundDur(f.duration+opt.TimeLost), roundDur(s.Deadline)))
	}
	return opt, nil
}

// interruptions fills the option's interruption risk: Interruptions expected
// over the job, TimeLost (half a checkpoint interval of rerun plus a restart
// each), and ExpectedCost, the price of the rental stretched to cover the job and
// the lost time: a run as long as the job is priced again at the longer length;
// a rental the user gave costs more only for the time past its end, bought as a
// further run.
func (s settings) interruptions(opt *Option, o Offer, n int) error {
	opt.Interruptions = o.InterruptionsPerDay * opt.Duration.Hours() / 24
	lost := opt.Interruptions * ((s.checkpoint / 2).Seconds() + s.restart.Seconds())
	var err error
	if opt.TimeLost, err = seconds(lost); err != nil {
		return err
	}
	need := ceilSecond(opt.Duration + opt.TimeLost)
	span := usageSpan(opt.Rental)
	switch {
	case !s.rentalSet() && s.Usage == 0: // the rental is the job's own run
		q, _, err := s.quote(o, Continuous(need), n)
		if err != nil {
			return err
		}
		opt.ExpectedCost = q.Total
	case need > span:
		q, _, err := s.quote(o, Continuous(need-span), n)
		if err != nil {
			return err
		}
		if opt.ExpectedCost, err = opt.Cost.Total.Add(q.Total); err != nil {
			return err
		}
	}
	extra, err := opt.ExpectedCost.Sub(opt.Cost.Total)
	if err != nil {
		return err
	}
	opt.Warnings = append(opt.Warnings, fmt.Sprintf("interruptible: about %.1f interruption(s) expected, costing %s of rerun and restart (%s)",
		opt.Interruptions, roundDur(opt.TimeLost), extra))
	return nil
}

// unavailable reports an offer that cannot serve the rental (ErrUnavailable): the
// same for every GPU count, so the diagnosis names it once per offer.
type unavailable struct {
	offer string
	err   error
}

func (e *unavailable) Error() string { return "pricing: plan: " + e.reason() }
func (e *unavailable) Unwrap() error { return e.err }

// reason is the offer and why, without package prefixes.
func (e *unavailable) reason() string {
	return e.offer + ": " + strings.Join(unprefixed(e.err, ""), "; ")
}

// shortRental reports a rental that ends before the job does.
type shortRental struct{ span time.Duration }

func (e *shortRental) Error() string {
	return fmt.Sprintf("pricing: plan: the rental covers %s of use, less than the job takes", roundDur(e.span))
}

// usageSpan is the GPU time a usage rents: the run, the sessions' hours, or the
// trial and the run after it.
func usageSpan(u Usage) time.Duration {
	switch u.Pattern {
	case Sessions:
		return u.PerDay * time.Duration(u.Days)
	case TrialThenCommit:
		return u.Trial + u.Duration
	}
	return u.Duration
}

// offerPricing is the offer being planned: its tariff's cache key, and a pricer
// built on first use and shared by every GPU count and rental priced for it.
type offerPricing struct {
	key    string
	pricer *pricer
}

// quoteKey identifies a priced rental: the same tariff, usage and GPU count give
// the same quotes, however many offers share them (a provider's regions often
// do).
type quoteKey struct {
	tariff string
	rental Usage
	gpus   int
}

type quotePair struct{ cost, hourly Quote }

// tariffKey writes every field of a tariff that pricing reads (see appendKey).
func tariffKey(t Tariff) string { return string(appendKey(make([]byte, 0, 128), t)) }

// quote prices a rental on an offer for n GPUs, and the same rental paid by the
// hour alone (see pricer.quotes), from the per-Plan cache when an identical
// tariff priced it already. The offer and the rental were validated once in
// Plan, so pricing skips that. Each option gets its own line slices: a cache hit
// copies them.
func (s settings) quote(o Offer, u Usage, n int) (Quote, Quote, error) {
	k := quoteKey{s.offer.key, u, n}
	p, ok := s.quotes[k]
	if !ok {
		if s.offer.pricer == nil {
			s.offer.pricer = newPricer(o.Tariff)
		}
		var err error
		if p.cost, p.hourly, err = s.offer.pricer.quotes(u, n); err != nil {
			return Quote{}, Quote{}, err
		}
		s.quotes[k] = p
		return p.cost, p.hourly, nil // the first option shares the cache's lines: Plan never changes them
	}
	p.cost.Lines = append([]Line(nil), p.cost.Lines...)
	p.hourly.Lines = append([]Line(nil), p.hourly.Lines...)
	return p.cost, p.hourly, nil
}

// ceilSecond rounds d up to a whole second, the finest unit rentals are billed in.
func ceilSecond(d time.Duration) time.Duration {
	if r := d % time.Second; r != 0 {
		return d - r + time.Second
	}
	return d
}

// sortOptions orders options by expected cost, then duration, then fewer GPUs,
// then provider, region and card (see less). Options are large, so it sorts indices on a
// precomputed key: the expected cost in minor units (every total is rounded to
// them) when that fits an int64, the decimal comparison otherwise.
func sortOptions(opts []Option) []Option {
	type key struct {
		minor int64
		exact bool
		i     int
	}
	keys := make([]key, len(opts))
	for i := range opts {
		keys[i] = key{i: i}
		keys[i].minor, keys[i].exact = minorAmount(opts[i].ExpectedCost)
	}
	sort.Slice(keys, func(x, y int) bool {
		kx, ky := keys[x], keys[y]
		if kx.exact && ky.exact {
			if kx.minor != ky.minor {
				return kx.minor < ky.minor
			}
		} else if c := opts[kx.i].ExpectedCost.Amount.Cmp(opts[ky.i].ExpectedCost.Amount); c != 0 {
			return c < 0
		}
		return less(&opts[kx.i], &opts[ky.i])
	})
	out := make([]Option, len(opts))
	for i, k := range keys {
		out[i] = opts[k.i]
	}
	return out
}

// minorAmount returns m as a whole number of the currency's minor units (CNY 12.34
// is 1234) when it is one and fits in 18 digits, without allocating; false
// otherwise.
func minorAmount(m Money) (int64, bool) {
	a := m.Amount
	shift := int(a.Exponent()) + int(MinorUnit(m.Currency))
	if shift < 0 || a.NumDigits()+shift > 18 {
		return 0, false
	}
	c := a.CoefficientInt64()
	for ; shift > 0; shift-- {
		c *= 10
	}
	return c, true
}

// less orders options of equal expected cost: duration, then fewer GPUs, then
// provider, region and card, then the offer's place in the list.
func less(a, b *Option) bool {
	if a.Duration != b.Duration {
		return a.Duration < b.Duration
	}
	if a.GPUs != b.GPUs {
		return a.GPUs < b.GPUs
	}
	if a.Offer.Provider != b.Offer.Provider {
		return a.Offer.Provider < b.Offer.Provider
	}
	if a.Offer.Region != b.Offer.Region {
		return a.Offer.Region < b.Offer.Region
	}
	if a.CardID != b.CardID {
		return a.CardID < b.CardID
	}
	if a.Offer.Card != b.Offer.Card {
		return a.Offer.Card < b.Offer.Card
	}
	return a.index < b.index
}
