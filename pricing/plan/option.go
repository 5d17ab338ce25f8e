package plan

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// candidate is an option that fits, priced but not yet explained: an offer and
// what the budget check and the ranking need, shared by the offers of its class
// (classes). Plan explains only the candidates it keeps, in rank order, straight
// into the slice it returns, so the large Option is built once and never copied
// or sorted.
type candidate struct {
	offer int // the offer's place in Planner.Offers, the last tie-break
	*priced
}

// priced is a fit priced on a class of offers: the rental, its cost and the
// expected cost with interruptions. It is not changed once price returns it.
type priced struct {
	gpus          int // GPUs the job uses
	rented, units int // GPUs rented and paid for, and the tariff's units for them (rent)
	fit           *fit
	rental        pricing.Usage
	total         pricing.Money // the rental's cheapest cover; quotes are built for the options returned
	expected      pricing.Money // Cost plus the rental of the time lost to interruptions
	interruptions float64       // expected over the job
	lost          time.Duration // expected time lost to interruptions
	key           pricing.Money // expected in the ranking's currency (Rates.Base, or the offers' one)
	minor         int64         // key in whole minor units, when exact says it is one
	exact         bool
	rate          string  // the rate that converted expected into key; empty: none
	serve         *served // a serving request's replicas; nil for a job
	replicas      int     // serving: the replicas rented, spares included

	// A serving fleet: its groups, the GPUs rented at its busiest hour, and
	// the load and request latency of its slowest group (on loadOn).
	members      []member
	peakRented   int
	load         *compute.LoadPoint
	loadOn       *served
	loadReplicas int   // the replicas load counts over: 1 for one replica's, both sides' for a pair
	pair         *pair // a disaggregated fleet's pair: its load is the pair's
	latency      time.Duration
	loaded       bool    // load and latency are worked out (ensureLoad)
	pct          float64 // the traffic's percentile and tokens a request, for ensureLoad
	output       int
}

// price prices offer w.o on n GPUs with fit f: the rental, its cost and the
// expected cost with interruptions. It reports false, with a nil error, for a
// size left out: a rental shorter than the job (diagnosed), a job that misses
// the deadline once interruptions are counted (diagnosed), an offer that cannot
// price the usage (w.why), or a candidate that cannot make the plan: one whose
// rental's floor is above the bar (sweep.bar; Pricer.FloorAbove) is not priced.
// The floor is used only where it bounds the ranking key: without a conversion. With interruptions the
// expected cost prices a run at least as long as the rental, or adds to the
// rental's cost, and a longer run never costs less (every cover of it covers
// the shorter one), so the rental's floor bounds it too.
//
// Everything that can keep a size from being priced is checked before the
// floor: a size skipped on it could have been priced (w.served), so whether an
// offer is left out does not depend on the Limit.
//
// Offers of one class price alike (class): at holds what price found for the
// class at this count, the bars its floor was found above and the figures once
// priced, and price answers from it rather than asking pricing again.
func (w *sweep) price(at *slot, n int, f *fit) (candidate, bool, error) {
	if at.done != nil {
		w.served = true
		return candidate{w.i, at.done}, true, nil
	}
	s, o := w.s, w.o
	bar := w.bar()
	floors := bar != nil && w.floors()
	if floors && bar.minor < at.above { // the class's floor is above a higher bar: its rental prices
		w.served = true
		return candidate{}, false, nil
	}
	c := &priced{gpus: n, fit: f} // moved to the heap once priced
	c.rented, c.units = rent(*o, n)
	c.rental = s.rental(f)
	span := usageSpan(c.rental)
	switch {
	case s.Tokens > 0 && span < f.duration:
		w.diag.short(*w.in.cards[w.i], n, f.duration, span)
		return candidate{}, false, nil
	case span > pricing.MaxDuration:
		w.why = fmt.Errorf("the rental of %s is past the %s pricing limit: %w",
			roundDur(span), roundDur(pricing.MaxDuration), pricing.ErrUnavailable)
		return candidate{}, false, nil
	}
	if o.InterruptionsPerDay > 0 && f.duration > 0 {
		if !s.lostTime(c, o.InterruptionsPerDay) {
			// The offer can never run this job.
			w.why = fmt.Errorf("with %g interruptions a day the job and the time they are expected to lose pass the %s pricing limit: %w",
				o.InterruptionsPerDay, roundDur(pricing.MaxDuration), pricing.ErrUnavailable)
			return candidate{}, false, nil
		}
		if s.Deadline > 0 {
			// lostTime bounded the sum: it is rented.
			if d := f.duration + c.lost; d > s.Deadline {
				w.diag.late(*w.in.cards[w.i], n, w.limit, d)
				return candidate{}, false, nil
			}
		}
	}
	if floors && w.pr.FloorAbove(c.rental, c.units, bar.key) { // the bar is in the tariff's currency
		at.above = bar.minor + 1
		w.served = true
		return candidate{}, false, nil
	}
	var err error
	c.total, err = w.pr.Total(c.rental, c.units)
	if errors.Is(err, pricing.ErrUnavailable) {
		w.why = err
		return candidate{}, false, nil
	}
	if err != nil {
		return candidate{}, false, fmt.Errorf("plan: offer %s at %d GPUs: %w", offerName(*o), c.rented, err)
	}
	w.served = true
	c.expected = c.total
	if c.lost > 0 {
		if err := s.expectedCost(c, w.pr); err != nil {
			return candidate{}, false, fmt.Errorf("plan: offer %s at %d GPUs: %w", offerName(*o), c.rented, err)
		}
	}
	if err := w.rank(c); err != nil {
		return candidate{}, false, err
	}
	at.done = new(priced)
	*at.done = *c
	return candidate{w.i, at.done}, true, nil
}

// rank sets c's ranking key: its expected cost in the ranking's currency
// (converted through the planner's rates when it is another), in whole minor
// units when it is a whole number of them.
func (w *sweep) rank(c *priced) error {
	rates := &w.p.Rates
	c.key = c.expected
	if !isZeroRates(*rates) && c.expected.Currency != rates.Base {
		var err error
		if c.key, err = rates.Convert(c.expected); err != nil {
			return err
		}
		c.rate = rates.Per[c.expected.Currency].String()
	}
	c.minor, c.exact = minorUnits(c.key)
	return nil
}

// floors reports whether the offer's floors bound the ranking key: its
// currency is the one ranked in, so no conversion stands between them.
func (w *sweep) floors() bool {
	return isZeroRates(w.p.Rates) || w.o.Tariff.Currency == w.p.Rates.Base
}

// rental is the usage priced for a job of fit f: the request's Rental or Usage,
// else the job's own run, else (memory only) DefaultDemoHour.
func (s *settings) rental(f *fit) pricing.Usage {
	switch {
	case s.rentalSet():
		return s.Rental
	case s.Usage > 0:
		return pricing.Continuous(s.Usage)
	case s.Tokens > 0: // the job's own run
		return pricing.Continuous(ceilSecond(f.duration))
	}
	return pricing.Continuous(DefaultDemoHour)
}

// lostTime fills the candidate's interruption risk: the interruptions expected
// over the job and the time they lose (half a checkpoint interval of rerun
// plus a restart each). It reports false when the job and the time lost
// together pass what can be priced, pricing.MaxDuration, so that their sum,
// which the deadline test and expectedCost take, never overflows. The job
// itself is within it: its rental was checked first.
func (s *settings) lostTime(c *priced, perDay float64) bool {
	d := c.fit.duration
	c.interruptions = perDay * d.Hours() / 24
	lost := c.interruptions * ((s.checkpoint / 2).Seconds() + s.restart.Seconds()) * 1e9 // nanoseconds
	if !(lost < float64(pricing.MaxDuration)) {                                          // NaN included
		return false
	}
	c.lost = time.Duration(math.Ceil(lost))
	return c.lost <= pricing.MaxDuration-d
}

// expectedCost prices the candidate's expected cost with the time lostTime
// found: the rental stretched to cover the job and the lost time. A run as long
// as the job is priced again at the longer length; a rental the user gave
// costs more only for the time past its end, bought as a further run.
func (s *settings) expectedCost(c *priced, pr *pricing.Pricer) error {
	need := ceilSecond(c.fit.duration + c.lost) // lostTime bounded it
	span := usageSpan(c.rental)
	var err error
	switch {
	case s.rentalFollowsJob():
		c.expected, err = pr.Total(pricing.Continuous(need), c.units)
	case need > span:
		var more pricing.Money
		if more, err = pr.Total(pricing.Continuous(need-span), c.units); err == nil {
			c.expected, err = c.total.Add(more)
		}
	}
	return err
}

// explain writes the option of candidate c, on offer o of card (its tariff
// prepared as pr), into opt: memory, timing, money, its waste against the
// cheapest option, and the warnings.
func (s *settings) explain(opt *Option, c *candidate, o pricing.Offer, pr *pricing.Pricer, card catalog.Card, faster *catalog.Card, check pricing.PriceCheck, cheapest *candidate, cache *cache, work compute.FLOPs) error {
	f, n := c.fit, c.gpus
	cost, err := pr.Price(c.rental, c.units)
	if err != nil {
		return err
	}
	// The same rental paid by the hour alone, to set beside the best packages: a
	// zero quote when the tariff has no hourly price.
	hourly := pricing.Quote{Total: pricing.Money{Currency: o.Tariff.Currency}, Lines: []pricing.Line{}}
	if o.Tariff.Hourly.IsPositive() {
		h := o.Tariff
		h.Daily, h.Weekly, h.Monthly, h.Terms = decimal.Decimal{}, decimal.Decimal{}, decimal.Decimal{}, nil
		if hourly, err = h.Price(c.rental, c.units); err != nil {
			return err
		}
	}
	*opt = s.fitOption(f, card)
	opt.Offer, opt.GPUs = o, c.rented
	opt.Rental, opt.Cost, opt.HourlyOnly = c.rental, cost, hourly
	opt.Interruptions, opt.TimeLost, opt.ExpectedCost = c.interruptions, c.lost, c.expected
	opt.RankedCost, opt.Rate = c.key, c.rate
	opt.CostLow, opt.CostHigh = cost.Total, cost.Total
	var warn []string
	if s.rentalFollowsJob() && c.serve == nil {
		// The rental is the job's own run: the ends of the band are priced as runs too.
		if opt.CostLow, err = pr.Total(pricing.Continuous(ceilSecond(f.low)), c.units); err != nil {
			return err
		}
		if high := ceilSecond(f.high); high <= pricing.MaxDuration {
			if opt.CostHigh, err = pr.Total(pricing.Continuous(high), c.units); err != nil {
				return err
			}
		} else {
			opt.CostHigh = pricing.Money{}
			warn = append(warn, fmt.Sprintf("at the low end of the utilization band the job takes %s, past the %s that can be priced",
				roundDur(f.high), roundDur(pricing.MaxDuration)))
		}
	} else if span := usageSpan(c.rental); c.serve == nil && f.high > span && f.duration <= span {
		// A rental set by the request holds the expected run but not the slow
		// end of the band: the job may not finish within it.
		warn = append(warn, fmt.Sprintf("at the low end of the utilization band the job takes %s, past the %s rented: rent longer, or checkpoint to finish it in another rental",
			roundDur(f.high), roundDur(span)))
	}
	if opt.Waste, err = c.key.Sub(cheapest.key); err != nil {
		return err
	}

	// Interruptible capacity is always said to be; a machine's outages only when
	// they are worth a warning: under 0.01 expected over the job (a reliable
	// host, a short job), the "0s of rerun" they cost is noise.
	if o.InterruptionsPerDay > 0 && f.duration > 0 && (o.Interruptible || c.interruptions >= 0.01) {
		extra, err := c.expected.Sub(cost.Total)
		if err != nil {
			return err
		}
		kind := "interruptible"
		if !o.Interruptible {
			kind = "outages"
		}
		lost := roundDur(c.lost).String()
		if c.lost > 0 && c.lost < time.Second/2 {
			lost = "under a second" // not "0s" beside a cost that is not zero
		}
		warn = append(warn, fmt.Sprintf("%s: %s interruptions expected, costing %s of rerun and restart (%s)",
			kind, aboutCount(c.interruptions), lost, extra))
	}
	warn = append(warn, s.fitWarnings(f, n, card)...)
	if f.layout.OffloadOptimizer {
		warn = append(warn, offloadWarning(f, &o))
	}
	if idle := c.rented - n; idle > 0 {
		warn = append(warn, fmt.Sprintf("job uses %d of %d GPUs; %s paid for (sold in instances of %d GPUs)",
			n, c.rented, text.Count(idle, "idle GPU is", "idle GPUs are"), o.GPUsPerInstance))
	}
	if faster != nil && c.serve == nil { // serving says it in explainServing
		warn = append(warn, s.boardWarning(o, card, *faster, n, f, cache, work))
	}
	if check.Flag == pricing.PriceBelow || check.Flag == pricing.PriceAbove {
		warn = append(warn, check.Message)
	}
	if a, ok := pricing.SiteAvailability(o.Tier); ok && a < 0.999 && f.duration > 0 {
		// The second seed article: a lesser datacenter risks outages that cost a
		// long job more than the rent it saves.
		down := time.Duration(float64(f.duration) * (1 - a))
		hint := "; state the interruptions a day in the price list (interruptions_per_day) to weigh it in the ranking"
		if o.InterruptionsPerDay > 0 {
			hint = ""
		}
		warn = append(warn, fmt.Sprintf("datacenter tier %s: %.3f%% design availability (Uptime Institute), about %s of site outage over this %s job on average, each outage costing a restart and the work since the last checkpoint%s",
			strings.TrimSpace(o.Tier), a*100, roundDur(down), roundDur(f.duration), hint))
	}
	opt.Warnings = warn
	return nil
}

// fitOption is the option of fit f on card without an offer: the layout, the
// memory, the time; no money, no GPUs rented (explain adds them).
func (s *settings) fitOption(f *fit, card catalog.Card) Option {
	return Option{
		CardID: card.ID, GPUs: f.layout.Devices(), Layout: f.layout, PerGPU: f.mem, Capacity: card.Memory,
		Headroom:     1 - float64(f.mem.Total())/float64(card.Memory),
		Duration:     f.duration,
		DurationLow:  f.low,
		DurationHigh: f.high,
		Efficiency:   f.eff,
		MicroBatch:   f.micro,
		Accumulation: f.accum,
		HostMemory:   f.mem.Host,
	}
}

// rentalFollowsJob reports whether the rental priced is the job's own run:
// no Usage or Rental given, and work to time.
func (s *settings) rentalFollowsJob() bool { return !s.rentalSet() && s.Usage == 0 && s.Tokens > 0 }

// usageSpan is the GPU time a usage rents: the run, the sessions' hours, or the
// trial and the run after it.
func usageSpan(u pricing.Usage) time.Duration {
	switch u.Pattern {
	case pricing.Sessions:
		return u.PerDay * time.Duration(u.Days)
	case pricing.TrialThenCommit:
		return u.Trial + u.Duration
	}
	return u.Duration
}

// fitWarnings returns the warnings that belong to a fit of n GPUs of card, the
// same for every offer of that card: the peak's note, an offloaded optimizer,
// approximated memory terms, the links, little headroom. They are written on
// first use and kept in the fit.
func (s *settings) fitWarnings(f *fit, n int, card catalog.Card) []string {
	if f.warned {
		return f.pre
	}
	f.warned = true
	if _, note, _ := peakFor(card, s.Workload.Precision, s.Workload.Task); note != "" {
		f.pre = append(f.pre, note)
	}
	if f.mem.Approx != 0 {
		f.pre = append(f.pre, "memory terms approximated from the parameter count alone: "+f.mem.Approx.String())
	}
	if note := s.calibrated(&card, s.Workload.Task == sizing.Inference); note != "" && f.duration > 0 {
		f.pre = append(f.pre, note)
	}
	scaling := "" // the efficiency, when the job was timed
	if f.duration > 0 {
		scaling = fmt.Sprintf("; scaling efficiency %.0f%%", f.eff*100)
	}
	switch {
	case n > f.server:
		inside := "they talk over " // a server of one GPU has no link inside
		if f.server > 1 {
			inside = f.linkName + " inside each, "
		}
		f.pre = append(f.pre, fmt.Sprintf("%d GPUs span %d servers: %s%s%s",
			n, (n+f.server-1)/f.server, inside, networkName, scaling))
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
	return f.pre
}

// offloadWarning says that fit f offloads its optimizer, the host RAM each GPU
// needs, and, for an option of an offer (o not nil), what the offer has.
func offloadWarning(f *fit, o *pricing.Offer) string {
	msg := fmt.Sprintf("optimizer state offloaded to host memory: %s of host RAM per GPU", f.mem.Host.Human())
	switch {
	case o == nil:
	case o.HostMemory > 0:
		msg += fmt.Sprintf(" (the offer has %s)", sizing.Bytes(o.HostMemory).Human())
	default:
		msg += " (the offer does not say how much comes with each GPU)"
	}
	return msg + "; the duration counts the PCIe transfers, not the CPU's optimizer step"
}

// ceilSecond rounds d up to a whole second, the finest unit rentals are billed in.
func ceilSecond(d time.Duration) time.Duration {
	if r := d % time.Second; r != 0 {
		return d - r + time.Second
	}
	return d
}

// choose picks and orders the options to return (see Report): the cost-time
// Pareto front for RankFrontier, sorted by the rank, cut at the limit. Without
// EveryCount or RankFrontier, cands holds one candidate per offer already (add).
func (s *settings) choose(cands []candidate, offers []pricing.Offer, cards []*catalog.Card) []int {
	less := func(a, b *candidate) bool { return s.less(a, b, offers, cards) }
	keep := make([]int, len(cands))
	for i := range keep {
		keep[i] = i
	}
	switch {
	case s.Rank == RankFrontier:
		// Cheapest first; an option joins the front when it is faster than every
		// cheaper one.
		byCost := settings{Request: Request{Rank: RankCost}}
		sort.Slice(keep, func(x, y int) bool { return byCost.less(&cands[keep[x]], &cands[keep[y]], offers, cards) })
		front := keep[:0]
		for _, k := range keep {
			if len(front) == 0 || cands[k].elapsed() < cands[front[len(front)-1]].elapsed() {
				front = append(front, k)
			}
		}
		keep = front
	case s.limit >= 0 && s.limit < len(keep)/4:
		// The best few of many: keep them sorted as the rest stream past.
		top := make([]int, 0, s.limit+1)
		for _, k := range keep {
			if len(top) == s.limit && !less(&cands[k], &cands[top[len(top)-1]]) {
				continue
			}
			j := sort.Search(len(top), func(j int) bool { return less(&cands[k], &cands[top[j]]) })
			top = slices.Insert(top, j, k)
			if len(top) > s.limit {
				top = top[:s.limit]
			}
		}
		return top
	default:
		sort.Slice(keep, func(x, y int) bool { return less(&cands[keep[x]], &cands[keep[y]]) })
	}
	if s.limit >= 0 && len(keep) > s.limit {
		keep = keep[:s.limit]
	}
	return keep
}

// less orders two candidates by the rank: expected cost (in the ranking's
// currency) then expected duration for RankCost, the other way round for
// RankTime; then fewer GPUs, provider, region, catalog card, card name as
// written, and last the offer's place in the list.
func (s *settings) less(a, b *candidate, offers []pricing.Offer, cards []*catalog.Card) bool {
	first, second := cmpKey(a, b), cmp.Compare(a.elapsed(), b.elapsed())
	if s.Rank == RankTime {
		first, second = second, first
	}
	if c := cmp.Or(first, second, cmp.Compare(a.rented, b.rented), cmp.Compare(a.gpus, b.gpus)); c != 0 {
		return c < 0
	}
	oa, ob := &offers[a.offer], &offers[b.offer]
	if c := cmp.Or(strings.Compare(oa.Provider, ob.Provider), strings.Compare(oa.Region, ob.Region),
		strings.Compare(cards[a.offer].ID, cards[b.offer].ID), strings.Compare(oa.Card, ob.Card)); c != 0 {
		return c < 0
	}
	return a.offer < b.offer
}

// boardWarning says that the offer's card name left the board open, which board
// was assumed (the slowest), and what the fastest board the name allows would
// change: the time at the same GPU count and layout search, and NVLink.
func (s *settings) boardWarning(o pricing.Offer, card, faster catalog.Card, n int, f *fit, cache *cache, work compute.FLOPs) string {
	msg := fmt.Sprintf("%q does not say its board: planned on the %s, the slowest it may be", o.Card, card.Name)
	ff := s.fitOf(cache, &faster, n, f.server, sizing.Bytes(o.HostMemory), work)
	var change []string
	if fast, slow := roundDur(ff.duration), roundDur(f.duration); ff.ok && f.duration > 0 && fast != slow {
		// Compared as written: "1h10m0s instead of 1h10m0s" says nothing.
		change = append(change, fmt.Sprintf("%s instead of %s", fast, slow))
	}
	if n > 1 && ff.ok && ff.nvlink != f.nvlink {
		if ff.nvlink {
			change = append(change, "NVLink between the GPUs")
		} else {
			change = append(change, "no NVLink")
		}
	}
	if len(change) == 0 {
		return msg + fmt.Sprintf("; the %s would take the same time", faster.Name)
	}
	return msg + fmt.Sprintf("; on the %s: %s", faster.Name, strings.Join(change, ", "))
}

// cmpKey compares two candidates' ranking costs: as whole minor units when both
// are (every total is rounded to them), by the decimal comparison otherwise.
func cmpKey(a, b *candidate) int {
	if a.exact && b.exact {
		return cmp.Compare(a.minor, b.minor)
	}
	return a.key.Amount.Cmp(b.key.Amount)
}

// minorUnits returns m as a whole number of its currency's minor units (CNY 12.34
// is 1234) when it is one and fits in 18 digits; false otherwise.
func minorUnits(m pricing.Money) (int64, bool) {
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

// aboutCount writes an expected count for a warning to two significant figures,
// so that a small one never reads "0.0": "about 0.04", "about 1.2", "under 0.01".
func aboutCount(x float64) string {
	switch {
	case x < 0.01:
		return "under 0.01"
	case x < 10:
		return "about " + strconv.FormatFloat(x, 'g', 2, 64)
	}
	return fmt.Sprintf("about %.0f", x)
}
