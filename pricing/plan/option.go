package plan

import (
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// candidate is an option that fits, priced but not yet explained: what the budget
// check and the ranking need. Plan explains only the candidates it keeps, in rank
// order, straight into the slice it returns, so the large Option is built once and
// never copied or sorted.
type candidate struct {
	offer         int // the offer's place in Planner.Offers, the last tie-break
	gpus          int
	fit           *fit
	rental        pricing.Usage
	cost, hourly  pricing.Quote
	expected      pricing.Money // Cost plus the rental of the time lost to interruptions
	interruptions float64       // expected over the job
	lost          time.Duration // expected time lost to interruptions
	minor         int64         // expected in minor units, when exact says it is one
	exact         bool
}

// price prices one fit on one offer (offer i, n GPUs): the rental, its quotes and
// the expected cost with interruptions.
func (s settings) price(i int, o pricing.Offer, n int, f *fit) (candidate, error) {
	c := candidate{offer: i, gpus: n, fit: f}
	jobRental := false
	switch {
	case s.rentalSet():
		c.rental = s.Rental
	case s.Usage > 0:
		c.rental = pricing.Continuous(s.Usage)
	case s.Tokens > 0:
		c.rental, jobRental = pricing.Continuous(ceilSecond(f.duration)), true
	default:
		c.rental = pricing.Continuous(DefaultDemoHour)
	}
	if span := usageSpan(c.rental); !jobRental && s.Tokens > 0 && span < f.duration {
		return candidate{}, &shortRental{span: span}
	} else if span > pricing.MaxDuration {
		return candidate{}, &unavailable{offerName(o), fmt.Errorf("the rental of %s is past the %s pricing limit: %w",
			roundDur(span), roundDur(pricing.MaxDuration), pricing.ErrUnavailable)}
	}
	var err error
	c.cost, c.hourly, err = s.quote(o, c.rental, n)
	if errors.Is(err, pricing.ErrUnavailable) {
		return candidate{}, &unavailable{offerName(o), err}
	}
	if err != nil {
		return candidate{}, &contextError{context: fmt.Sprintf("plan: %s at %d GPU(s)", offerName(o), n), err: err}
	}
	c.expected = c.cost.Total
	if o.InterruptionsPerDay > 0 && f.duration > 0 {
		if err := s.interruptions(&c, o); err != nil {
			return candidate{}, err
		}
	}
	c.minor, c.exact = minorAmount(c.expected)
	return c, nil
}

// interruptions fills the candidate's interruption risk: the interruptions
// expected over the job, the time they lose (half a checkpoint interval of rerun
// plus a restart each), and the expected cost, the price of the rental stretched
// to cover the job and the lost time: a run as long as the job is priced again at
// the longer length; a rental the user gave costs more only for the time past its
// end, bought as a further run.
func (s settings) interruptions(c *candidate, o pricing.Offer) error {
	d := c.fit.duration
	c.interruptions = o.InterruptionsPerDay * d.Hours() / 24
	lost := c.interruptions * ((s.checkpoint / 2).Seconds() + s.restart.Seconds())
	var err error
	if c.lost, err = seconds(lost); err != nil {
		return err
	}
	need := ceilSecond(d + c.lost)
	span := usageSpan(c.rental)
	switch {
	case !s.rentalSet() && s.Usage == 0: // the rental is the job's own run
		q, _, err := s.quote(o, pricing.Continuous(need), c.gpus)
		if err != nil {
			return err
		}
		c.expected = q.Total
	case need > span:
		q, _, err := s.quote(o, pricing.Continuous(need-span), c.gpus)
		if err != nil {
			return err
		}
		if c.expected, err = c.cost.Total.Add(q.Total); err != nil {
			return err
		}
	}
	return nil
}

// explain writes the option of candidate c, on offer o of card, into opt: memory,
// timing, money, its waste against the cheapest option, and the warnings.
func (s settings) explain(opt *Option, c *candidate, o pricing.Offer, card catalog.Card, check pricing.PriceCheck, cheapest *candidate) error {
	f, n := c.fit, c.gpus
	*opt = Option{
		Offer: o, CardID: card.ID, GPUs: n, Layout: f.layout, PerGPU: f.mem, Capacity: card.Memory,
		Headroom:      1 - float64(f.mem.Total())/float64(card.Memory),
		Duration:      f.duration,
		DurationLow:   f.low,
		DurationHigh:  f.high,
		Efficiency:    f.eff,
		Rental:        c.rental,
		Cost:          c.cost,
		HourlyOnly:    c.hourly,
		Interruptions: c.interruptions,
		TimeLost:      c.lost,
		ExpectedCost:  c.expected,
	}
	if opt.HourlyOnly.Total.Currency == "" {
		opt.HourlyOnly = pricing.Quote{Total: pricing.Money{Amount: decimal.Decimal{}, Currency: o.Tariff.Currency}, Lines: []pricing.Line{}}
	}
	// Whole minor units subtract as integers (every total is rounded to them);
	// anything else goes through the exact decimal subtraction.
	if c.exact && cheapest.exact {
		opt.Waste = pricing.Money{Amount: decimal.New(c.minor-cheapest.minor, -pricing.MinorUnit(c.expected.Currency)), Currency: c.expected.Currency}
	} else {
		w, err := c.expected.Sub(cheapest.expected)
		if err != nil {
			return err
		}
		opt.Waste = w
	}

	pre, late := s.fitWarnings(f, n, card)
	warn := make([]string, 0, len(pre)+3)
	if o.InterruptionsPerDay > 0 && f.duration > 0 {
		extra, err := c.expected.Sub(c.cost.Total)
		if err != nil {
			return err
		}
		kind := "interruptible"
		if !o.Interruptible {
			kind = "outages"
		}
		warn = append(warn, fmt.Sprintf("%s: about %.1f interruptions expected, costing %s of rerun and restart (%s)",
			kind, c.interruptions, roundDur(c.lost), extra))
	}
	warn = append(warn, pre...)
	if check.Flag == pricing.PriceBelow || check.Flag == pricing.PriceAbove {
		warn = append(warn, check.Message)
	}
	if a, ok := pricing.SiteAvailability(o.Tier); ok && a < 0.999 && f.duration > 0 {
		// The second seed article: a lesser datacenter risks outages that cost a
		// long job more than the rent it saves.
		down := time.Duration(float64(f.duration) * (1 - a))
		hint := "; give InterruptionsPerDay to weigh it in the ranking"
		if o.InterruptionsPerDay > 0 {
			hint = ""
		}
		warn = append(warn, fmt.Sprintf("datacenter tier %s: %.3f%% design availability (Uptime Institute), about %s of site outage over this %s job on average, each outage costing a restart and the work since the last checkpoint%s",
			strings.TrimSpace(o.Tier), a*100, roundDur(down), roundDur(f.duration), hint))
	}
	switch {
	case late != "":
		warn = append(warn, late)
	case s.Deadline > 0 && f.duration+c.lost > s.Deadline:
		warn = append(warn, fmt.Sprintf("with the expected interruptions it finishes in %s, after the %s deadline", roundDur(f.duration+c.lost), roundDur(s.Deadline)))
	}
	if len(warn) == 0 {
		warn = nil
	}
	opt.Warnings = warn
	return nil
}

// unavailable reports an offer that cannot serve the rental (ErrUnavailable): the
// same for every GPU count, so the diagnosis names it once per offer.
type unavailable struct {
	offer string
	err   error
}

func (e *unavailable) Error() string { return "plan: " + e.reason() }
func (e *unavailable) Unwrap() error { return e.err }

// reason is the offer and why, without package prefixes.
func (e *unavailable) reason() string {
	return e.offer + ": " + strings.Join(unprefixed(e.err, ""), "; ")
}

// shortRental reports a rental that ends before the job does.
type shortRental struct{ span time.Duration }

func (e *shortRental) Error() string {
	return fmt.Sprintf("plan: the rental covers %s of use, less than the job takes", roundDur(e.span))
}

// usageSpan is the GPU time a usage rents: the run, the sessions' hours, or the
// trial and the run after it.
func usageSpan(u pricing.Usage) time.Duration {
	switch u.Pattern {
	case Sessions:
		return u.PerDay * time.Duration(u.Days)
	case TrialThenCommit:
		return u.Trial + u.Duration
	}
	return u.Duration
}

// fitWarnings returns the warnings that belong to a fit of n GPUs of card, the
// same for every offer of that card: pre (the layout's notes, the links, little
// headroom) and late (a deadline met only at the optimistic end of the band).
// They are written on first use and kept in the fit.
func (s settings) fitWarnings(f *fit, n int, card catalog.Card) ([]string, string) {
	if f.warned {
		return f.pre, f.late
	}
	f.warned = true
	f.pre = append(f.pre, f.notes...)
	scaling := "" // the efficiency, when the job was timed
	if f.duration > 0 {
		scaling = fmt.Sprintf("; scaling efficiency %.0f%%", f.eff*100)
	}
	switch {
	case n > GPUsPerServer:
		f.pre = append(f.pre, fmt.Sprintf("%d GPUs span %d servers: they talk over %s%s",
			n, (n+GPUsPerServer-1)/GPUsPerServer, f.linkName, scaling))
	case n > 1 && !f.nvlink && (s.Workload.Task != sizing.Inference || f.layout.Tensor > 1):
		f.pre = append(f.pre, fmt.Sprintf("%d GPUs without NVLink: they talk over %s%s", n, f.linkName, scaling))
	case n > 1 && !f.nvlink && f.layout.Pipeline > 1:
		// Pipeline stages pass one token's activations per step, kilobytes, so
		// PCIe costs latency rather than throughput.
		f.pre = append(f.pre, fmt.Sprintf("%d GPUs without NVLink: the %d pipeline stages pass activations over %s, adding latency to each token",
			n, f.layout.Pipeline, f.linkName))
	}
	if headroom := 1 - float64(f.mem.Total())/float64(card.Memory); headroom < DefaultHeadroom {
		f.pre = append(f.pre, fmt.Sprintf("only %.0f%% of GPU memory left free (under 20%%): fragmentation or a longer input may run out of memory", headroom*100))
	}
	if s.Deadline > 0 && f.duration > s.Deadline {
		f.late = fmt.Sprintf("meets the %s deadline only at the optimistic end of the utilization band (%s expected)", roundDur(s.Deadline), roundDur(f.duration))
	}
	return f.pre, f.late
}

// tariffPricing is what Plan keeps for one tariff, shared by every offer with an
// identical one (a provider's regions often are): its number in the quote cache,
// and a pricer built on first use.
type tariffPricing struct {
	id     int
	offers int // offers in the plan with this tariff; quotes are cached only when shared
	pricer *pricer
}

// quoteKey identifies a priced rental: the same tariff (by its tariffPricing
// id), usage and GPU count give the same quotes, however many offers share them.
type quoteKey struct {
	tariff int
	rental pricing.Usage
	gpus   int
}

type quotePair struct{ cost, hourly pricing.Quote }

// tariffKey writes every field of a tariff that pricing reads (see appendKey).
func tariffKey(t pricing.Tariff) string { return string(appendKey(make([]byte, 0, 128), t)) }

// pricing returns the per-Plan pricing of o's tariff, made on first use, and
// counts o among the offers that share it.
func (s settings) pricing(o pricing.Offer) *tariffPricing {
	k := tariffKey(o.Tariff)
	tp := s.tariffs[k]
	if tp == nil {
		tp = &tariffPricing{id: len(s.tariffs)}
		s.tariffs[k] = tp
	}
	tp.offers++
	return tp
}

// quote prices a rental on the offer being planned (s.offer) for n GPUs, and the
// same rental paid by the hour alone (see pricer.quotes), from the per-Plan cache
// when an identical tariff priced it already. The offer and the rental were
// validated once in Plan, so pricing skips that. Each option gets its own line
// slices: a cache hit copies them.
func (s settings) quote(o pricing.Offer, u pricing.Usage, n int) (pricing.Quote, pricing.Quote, error) {
	tp := s.offer
	if tp.offers < 2 {
		// No other offer has this tariff: nothing to share, so no cache.
		if tp.pricer == nil {
			tp.pricer = newPricer(o.Tariff)
		}
		return tp.pricer.quotes(u, n)
	}
	k := quoteKey{tp.id, u, n}
	p, ok := s.quotes[k]
	if !ok {
		if tp.pricer == nil {
			tp.pricer = newPricer(o.Tariff)
		}
		var err error
		if p.cost, p.hourly, err = tp.pricer.quotes(u, n); err != nil {
			return pricing.Quote{}, pricing.Quote{}, err
		}
		s.quotes[k] = p
		return p.cost, p.hourly, nil // the first option shares the cache's lines: Plan never changes them
	}
	p.cost.Lines = append([]pricing.Line(nil), p.cost.Lines...)
	p.hourly.Lines = append([]pricing.Line(nil), p.hourly.Lines...)
	return p.cost, p.hourly, nil
}

// ceilSecond rounds d up to a whole second, the finest unit rentals are billed in.
func ceilSecond(d time.Duration) time.Duration {
	if r := d % time.Second; r != 0 {
		return d - r + time.Second
	}
	return d
}

// rank returns the order of the candidates: by expected cost, then duration,
// then fewer GPUs, then provider, region, catalog card and card name as written,
// and last the offer's place in the list. The expected cost compares in minor
// units (every total is rounded to them) when both are whole ones that fit an
// int64, by the decimal comparison otherwise. It sorts indices: candidates are
// large.
func rank(cands []candidate, offers []pricing.Offer, cards []catalog.Card) []int {
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(x, y int) bool {
		a, b := &cands[order[x]], &cands[order[y]]
		if a.exact && b.exact {
			if a.minor != b.minor {
				return a.minor < b.minor
			}
		} else if c := a.expected.Amount.Cmp(b.expected.Amount); c != 0 {
			return c < 0
		}
		if a.fit.duration != b.fit.duration {
			return a.fit.duration < b.fit.duration
		}
		if a.gpus != b.gpus {
			return a.gpus < b.gpus
		}
		oa, ob := &offers[a.offer], &offers[b.offer]
		if oa.Provider != ob.Provider {
			return oa.Provider < ob.Provider
		}
		if oa.Region != ob.Region {
			return oa.Region < ob.Region
		}
		if ca, cb := cards[a.offer].ID, cards[b.offer].ID; ca != cb {
			return ca < cb
		}
		if oa.Card != ob.Card {
			return oa.Card < ob.Card
		}
		return a.offer < b.offer
	})
	return order
}

// minorAmount returns m as a whole number of the currency's minor units (CNY 12.34
// is 1234) when it is one and fits in 18 digits, without allocating; false
// otherwise.
func minorAmount(m pricing.Money) (int64, bool) {
	a := m.Amount
	shift := int(a.Exponent()) + int(pricing.MinorUnit(m.Currency))
	if shift < 0 || a.NumDigits()+shift > 18 {
		return 0, false
	}
	c := a.CoefficientInt64()
	for ; shift > 0; shift-- {
		c *= 10
	}
	return c, true
}
