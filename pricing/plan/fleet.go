package plan

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// Group is one part of a serving option's fleet: Replicas replicas of Tensor
// GPUs each, on one offer, rented Hours hours a day. A plain fleet's groups
// serve (RoleServe); a disaggregated one's prefill prompts (RolePrefill) or
// generate (RoleDecode). Groups of one offer differ in the hours a day they
// are rented: the base all day, the rest only in the busy hours of the daily
// profile.
type Group struct {
	Offer    pricing.Offer `json:"offer"`
	CardID   string        `json:"card_id"`
	Replicas int           `json:"replicas"` // spares for interruptible capacity included
	Tensor   int           `json:"tensor"`   // GPUs a replica, tensor-parallel
	// Expert is the expert-parallel degree of a mixture of experts' replica
	// (compute.Serving.Expert): its experts spread over all Tensor GPUs; zero:
	// none.
	Expert int    `json:"expert"`
	Role   string `json:"role"`
	// Hours is the hours a day the group is rented: 24 all day; fewer, as
	// daily sessions of that length (pricing.DailySessions), the busy hours
	// of Traffic.Daily taken together.
	Hours float64 `json:"hours"`
	// GPUs is the GPUs rented for the group: Replicas × Tensor, or the whole
	// instances that hold them on an offer sold in instances.
	GPUs   int           `json:"gpus"`
	Rental pricing.Usage `json:"rental"`
	Cost   pricing.Quote `json:"cost"`
}

// The roles of a fleet's groups (Group.Role).
const (
	RoleServe   = "serve"   // prompts and generation on the same replicas
	RolePrefill = "prefill" // a disaggregated fleet's prompts
	RoleDecode  = "decode"  // a disaggregated fleet's generation
)

// member is one group of a priced fleet: its offer (-1: the candidate's own,
// for a fleet on one offer, priced once for its class), the replica it runs,
// the replicas (spares included), the GPUs and tariff units rented, the hours
// a day, the rental, its total, and the requests a second each of its
// replicas serves at the peak.
type member struct {
	offer                 int
	v                     *served
	slots                 int // sequence slots of its replicas (a prefill side's differ)
	role                  string
	replicas, gpus, units int
	hours                 int
	rental                pricing.Usage
	total                 pricing.Money
	share                 float64
}

// fleetKey is what prices a fleet on one offer alike: the offer's class and
// the replica (or the disaggregated pair).
type fleetKey struct {
	cls *class
	v   *served
	p   *pair
}

// floorOf is a fleet's floor in whole minor units of its currency, when
// pricing can give one.
type floorOf struct {
	minor int64
	ok    bool
}

// fleetEntry is a fleet on a class of offers, priced once: nil with why when
// the class cannot price it.
type fleetEntry struct {
	c   *priced
	why error
}

// unitsOf returns, for replicas of t GPUs on offer o, the replicas one rental
// unit holds and the GPUs and tariff units a rental unit is: a replica of t
// GPUs priced per GPU, or a whole instance holding m/t replicas priced as one.
func unitsOf(o *pricing.Offer, t int) (per, gpus, tariff int) {
	if m := o.GPUsPerInstance; m > 0 {
		return m / t, m, 1
	}
	return 1, t, t
}

// layer is a group of a fleet on one offer: units rented hours a day.
type layer struct{ units, hours int }

// layersOf stacks the units each hour needs (one value: the peak, all day)
// into layers: the k-th unit is rented in the hours that need k or more, and
// units rented the same hours form one layer, most hours first.
func layersOf(units []int) []layer {
	top := slices.Max(units)
	var out []layer
	for k := 1; k <= top; k++ {
		h := HoursPerDay
		if len(units) > 1 {
			h = 0
			for _, u := range units {
				if u >= k {
					h++
				}
			}
		}
		if n := len(out); n > 0 && out[n-1].hours == h {
			out[n-1].units++
		} else {
			out = append(out, layer{1, h})
		}
	}
	return out
}

// onOffer returns the replicas to run each hour for needs on offer o, spares
// included where its replicas can be taken away (spares), and the units to
// rent for them.
func (s *settings) onOffer(o *pricing.Offer, t int, needs []int) (reps, units []int, err error) {
	up, rate, interruptible := s.upShare(o)
	per, _, _ := unitsOf(o, t)
	reps, units = make([]int, len(needs)), make([]int, len(needs))
	for h, n := range needs {
		reps[h] = n
		if interruptible && n > 0 {
			if reps[h], err = s.spares(n, up, rate, MaxPlanGPUs/t); err != nil {
				return nil, nil, err
			}
		}
		units[h] = (reps[h] + per - 1) / per
	}
	return reps, units, nil
}

// allDay is the rental of a group rented all day: the request's usage or
// rental, or with a daily profile its whole days.
func (s *settings) allDay() pricing.Usage {
	switch {
	case s.days > 0:
		return pricing.Continuous(time.Duration(s.days) * 24 * time.Hour)
	case s.rentalSet():
		return s.Rental
	}
	return pricing.Continuous(s.Usage)
}

// sessions is the rental of a group rented h hours a day of a daily profile.
func (s *settings) sessions(h int) pricing.Usage {
	if h >= HoursPerDay {
		return s.allDay()
	}
	return pricing.DailySessions(time.Duration(h)*time.Hour, s.days)
}

// floorOn returns the floor of the fleet of v on offer w.o: the fewest
// replicas the capacity allows each hour (no count below is stable), stacked
// in layers as fleetOn stacks them, each layer at pricing.Pricer.Floor of a
// run as long as its hours over the rental (a floor of daily sessions too: a
// cover of the sessions covers such a run), less a minor unit for each
// rounding a fleet's groups may add. It is worked out once per class.
func (s *settings) floorOn(w *sweep, run *serveRun, v *served) floorOf {
	k := fleetKey{cls: w.class, v: v}
	if f, ok := run.floors[k]; ok {
		return f
	}
	var f floorOf
	if v.err == nil {
		needs := make([]int, len(s.profile))
		for h, m := range s.profile {
			needs[h] = min(fewest(m*s.Serving.Rate, math.Nextafter(v.capacity, 0)), MaxPlanGPUs/v.tensor+1)
		}
		f = s.fleetFloor(w, v, needs)
	}
	if !f.ok {
		f.minor = 0 // unknown: planned early, never skipped on it
	}
	run.floors[k] = f
	return f
}

// fleetFloor is the floor of the fleet of v on offer w.o that runs needs[h]
// replicas each hour (floorOn).
func (s *settings) fleetFloor(w *sweep, v *served, needs []int) floorOf {
	var f floorOf
	_, units, err := s.onOffer(w.o, v.tensor, needs)
	if err != nil {
		return f
	}
	_, _, tu := unitsOf(w.o, v.tensor)
	slack := int64(0)
	for _, l := range layersOf(units) {
		u := s.allDay()
		if s.days > 0 {
			u = pricing.Continuous(time.Duration(l.hours*s.days) * time.Hour)
			slack = 2*HoursPerDay + 2
		}
		m, ok := w.pr.Floor(u, l.units*tu)
		minor, exact := minorUnits(m)
		if !ok || !exact {
			return floorOf{}
		}
		f.minor += minor
	}
	f.minor -= slack
	f.ok = true
	return f
}

// beyond reports whether replica v, not searched yet, cannot give offer w.o
// a fleet within bar: for traffic without a daily profile, the most replicas
// whose fleet's floor is within the bar do not meet the targets (one Under
// call, or none when a count as large is known to miss them), so the fleet
// needs more, and costs more than the bar. As search does for the hours of a
// profile, it takes the latencies to grow with the rate a replica serves.
func (s *settings) beyond(w *sweep, v *served, bar int64) (bool, error) {
	if v.searched || len(s.profile) > 1 || !s.targets() {
		return false, nil
	}
	rate := s.Serving.Rate
	lo, hi := fewest(rate, math.Nextafter(v.capacity, 0)), MaxPlanGPUs/v.tensor
	within := func(n int) bool {
		f := s.fleetFloor(w, v, []int{n})
		return f.ok && f.minor <= bar
	}
	if lo > hi || !within(lo) {
		return false, nil // floorOn decides
	}
	for lo < hi { // the most replicas within the bar
		mid := lo + (hi-lo+1)/2
		if within(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo <= v.fails {
		return true, nil
	}
	ok, err := s.meetsAt(v, rate/float64(lo))
	if err != nil || ok {
		return false, err
	}
	v.fails = lo
	return true, nil
}

// offerFleet prices the fleet of replica v on offer w.o and keeps it as a
// candidate: the fleet is built once per class of offers (fleetOn); an offer
// whose GPU cap it passes notes so (noFit says it). Ranked by cost, a fleet
// whose floor is above the bar is not searched at all.
func (s settings) offerFleet(w *sweep, run *serveRun, v *served) error {
	k := fleetKey{cls: w.class, v: v}
	e, seen := run.fleets[k]
	if !seen {
		bar := w.barMinor()
		if bar < math.MaxInt64 && w.floors() {
			if f := s.floorOn(w, run, v); f.ok && f.minor > bar {
				w.served = true
				return nil
			}
			if out, err := s.beyond(w, v, bar); out || err != nil {
				w.served = err == nil
				return err
			}
		}
		if err := s.search(v); err != nil {
			if errors.Is(err, errCapped) {
				s.noteCapped(w, run, v, v.peak*v.tensor)
			}
			if errors.Is(err, compute.ErrUnreachable) || errors.Is(err, errCapped) {
				return nil
			}
			return err
		}
		c, why, err := s.fleetOn(w, v)
		if err != nil {
			return err
		}
		e = fleetEntry{c, why}
		run.fleets[k] = e
	}
	if e.c == nil {
		w.why = e.why
		return nil
	}
	if e.c.peakRented > w.limit {
		if e.c.replicas > v.peak && v.peak*v.tensor <= w.limit {
			w.why = fmt.Errorf("keeping %s up %s of the time needs %s, more than the %s of the offer: %w",
				text.Count(v.peak, "replica", "replicas"), percent(s.availability), text.Count(e.c.peakRented, "GPU", "GPUs"),
				text.Count(w.limit, "GPU", "GPUs"), pricing.ErrUnavailable)
			return nil
		}
		s.noteCapped(w, run, v, e.c.peakRented)
		return nil
	}
	w.served = true
	c := candidate{w.i, e.c}
	if !s.Budget.Amount.IsZero() && c.key.Amount.GreaterThan(s.Budget.Amount) {
		if run.over == nil || cmpKey(&c, run.over) < 0 {
			run.over = &c
		}
		return nil
	}
	w.add(c)
	return nil
}

// noteCapped notes that replica v needs need GPUs rented on offer w.o, past
// its cap.
func (s *settings) noteCapped(w *sweep, run *serveRun, v *served, need int) {
	k := replicaKey{v.card.ID, v.tensor, v.expert}
	run.capped[k] = capped{need, max(run.capped[k].cap, w.limit)}
}

// fleetOn builds and prices the fleet of replica v on offer w.o, for the
// class of offers it belongs to (stack), with its load and ranking key. It
// returns why when the class cannot price it (w.why's reason).
func (s settings) fleetOn(w *sweep, v *served) (*priced, error, error) {
	ms, sum, top, why, err := s.stack(w.o, w.pr, v, v.needs)
	if why != nil || err != nil {
		return nil, why, err
	}
	c := &priced{fit: v.fit, serve: v, total: sum, expected: sum, rental: ms[0].rental, units: ms[0].units, members: ms, peakRented: top}
	for j := range ms {
		ms[j].share = s.Serving.Rate / float64(v.peak)
		c.rented += ms[j].gpus
		c.replicas += ms[j].replicas
	}
	c.gpus = c.replicas * v.tensor
	s.setLoad(c)
	if err := w.rank(c); err != nil {
		return nil, nil, err
	}
	return c, nil, nil
}

// stack builds and prices the fleet on offer o (its tariff prepared as pr)
// of replica v that runs needs[h] replicas each hour h of the profile: each
// hour's replicas (spares included where the offer's replicas can be taken
// away), the units that hold them stacked in layers (layersOf), each layer
// priced on its own, all day or, with a daily profile, as daily sessions of
// its hours when that is cheaper than all day; the layers rented all day
// taken together; and the whole fleet all day instead when that is cheaper
// still, so that a daily profile never costs more than the peak held all
// day. The cost is the exact sum of the groups' rounded totals. It returns
// the groups (their offer -1: o), the sum, the GPUs rented at the busiest
// hour, and why when the offer cannot price the fleet.
func (s settings) stack(o *pricing.Offer, pr *pricing.Pricer, v *served, needs []int) (ms []member, sum pricing.Money, top int, why, err error) {
	reps, units, err := s.onOffer(o, v.tensor, needs)
	if err != nil {
		return nil, sum, 0, fmt.Errorf("%w: %w", err, pricing.ErrUnavailable), nil
	}
	per, unitGPUs, tu := unitsOf(o, v.tensor)
	price := func(u pricing.Usage, n int) (pricing.Money, error) {
		m, err := pr.Total(u, n*tu)
		if err != nil && !errors.Is(err, pricing.ErrUnavailable) {
			err = fmt.Errorf("plan: offer %s at %d GPUs: %w", offerName(*o), n*unitGPUs, err)
		}
		return m, err
	}
	split := func(err error) ([]member, pricing.Money, int, error, error) {
		if errors.Is(err, pricing.ErrUnavailable) {
			return nil, sum, 0, err, nil
		}
		return nil, sum, 0, nil, err
	}
	if span := usageSpan(s.allDay()); span > pricing.MaxDuration {
		return nil, sum, 0, fmt.Errorf("the rental of %s is past the %s pricing limit: %w", roundDur(span), roundDur(pricing.MaxDuration), pricing.ErrUnavailable), nil
	}
	type group struct {
		units, hours int
		rental       pricing.Usage
		total        pricing.Money
	}
	var gs []group
	all := group{hours: HoursPerDay, rental: s.allDay()}
	for _, l := range layersOf(units) {
		if l.hours < HoursPerDay {
			g := group{l.units, l.hours, s.sessions(l.hours), pricing.Money{}}
			var whole pricing.Money
			if g.total, err = price(g.rental, l.units); err == nil {
				whole, err = price(all.rental, l.units)
			}
			if err != nil {
				return split(err)
			}
			if g.total.Amount.LessThan(whole.Amount) {
				gs = append(gs, g)
				continue
			}
		}
		all.units += l.units
	}
	top = slices.Max(units)
	if all.units > 0 {
		if all.total, err = price(all.rental, all.units); err != nil {
			return split(err)
		}
		gs = append([]group{all}, gs...)
	}
	if len(gs) == 0 {
		return nil, pricing.Money{}, 0, nil, nil // no traffic for this offer
	}
	sum = gs[0].total
	for _, g := range gs[1:] {
		if sum, err = sum.Add(g.total); err != nil {
			return nil, sum, 0, nil, err
		}
	}
	if len(gs) > 1 {
		// The whole fleet all day, when the hours saved do not pay for the
		// roundings of more groups.
		if flat, err := price(all.rental, top); err == nil && !flat.Amount.GreaterThan(sum.Amount) {
			gs, sum = []group{{top, HoursPerDay, all.rental, flat}}, flat
		}
	}
	maxReps := slices.Max(reps)
	next := 0 // the replicas stacked below the group
	for _, g := range gs {
		r := min(g.units*per, maxReps-next)
		next += r
		ms = append(ms, member{offer: -1, v: v, slots: v.slots, role: RoleServe, replicas: r, gpus: g.units * unitGPUs,
			units: g.units * tu, hours: g.hours, rental: g.rental, total: g.total})
	}
	return ms, sum, top * unitGPUs, nil, nil
}

// setLoad readies a fleet's load for ensureLoad: the percentile its
// latency is read at and the tokens of a request.
func (s *settings) setLoad(c *priced) {
	c.pct, c.output = s.Serving.Percentile, s.Serving.OutputTokens
}

// ensureLoad works out a fleet's load once, when the ranking or the option
// first needs it: each group's replicas under their share of the peak rate
// (compute.PreparedServing.Under, once per replica and rate), the slowest
// request of them at the traffic's percentile its latency.
func (c *priced) ensureLoad() error {
	if c.loaded || c.members == nil {
		return nil
	}
	c.loaded = true
	if p := c.pair; p != nil {
		lp, err := p.under(c.members[0].share, p.np, p.nd) // the whole rate, split over each side
		if err != nil {
			return err
		}
		c.load, c.latency = &lp, latencyOf(lp, c.pct, c.output)
		return nil
	}
	for _, m := range c.members {
		lp, err := m.v.under(m.share)
		if err != nil {
			return err
		}
		if l := latencyOf(lp, c.pct, c.output); c.load == nil || l > c.latency {
			c.latency, c.load, c.loadOn = l, &lp, m.v
		}
	}
	return nil
}

// explainServing adds a serving option's figures: its fleet (groups, each with
// its quote, and the launch lines of their replicas), what each replica does
// under its share of the rate, the cost per hour and per million generated
// tokens, the spares and the board note.
func (s settings) explainServing(p *Planner, in *inputs, opt *Option, c *candidate, run *serveRun) error {
	o := p.Offers[c.offer]
	v := c.serve
	if err := c.ensureLoad(); err != nil {
		return err
	}
	opt.Replicas = c.replicas
	opt.Layout.Data = c.replicas
	lp := *c.load
	opt.Load = &lp
	pt, err := c.loadOn.prep.At(min(max(int(math.Ceil(lp.Concurrency/float64(max(c.loadReplicas, 1)))), 1), c.loadOn.slots))
	if err != nil {
		return err
	}
	opt.Serving = &pt
	opt.Fleet = make([]Group, len(c.members))
	var lines []pricing.Line
	hourly := pricing.Quote{Total: pricing.Money{Currency: o.Tariff.Currency}, Lines: []pricing.Line{}}
	for j, m := range c.members {
		k := m.offer
		if k < 0 {
			k = c.offer
		}
		q, err := in.pricer(k).Price(m.rental, m.units)
		if err != nil {
			return err
		}
		hours := float64(m.hours)
		if m.rental.Pattern == pricing.Sessions {
			hours = m.rental.PerDay.Hours()
		}
		g := Group{Offer: p.Offers[k], CardID: m.v.card.ID, Replicas: m.replicas, Tensor: m.v.tensor, Expert: m.v.expert,
			Role: m.role, Hours: hours, GPUs: m.gpus, Rental: m.rental, Cost: q}
		opt.Fleet[j] = g
		lines = append(lines, q.Lines...)
		if hourly.Lines != nil {
			hourly, err = s.addHourly(hourly, p.Offers[k].Tariff, m)
			if err != nil {
				return err
			}
		}
	}
	if len(c.members) > 1 || c.members[0].offer >= 0 {
		opt.Cost = pricing.Quote{Total: c.total, Lines: lines}
		opt.CostLow, opt.CostHigh = c.total, c.total
		if hourly.Lines != nil {
			opt.HourlyOnly = hourly
		} else {
			opt.HourlyOnly = pricing.Quote{Total: pricing.Money{Currency: o.Tariff.Currency}, Lines: []pricing.Line{}}
		}
	}
	slots := make([]int, len(c.members))
	for j, m := range c.members {
		slots[j] = m.slots
	}
	if opt.Launch = s.launch(opt.Fleet, slots); opt.Launch == nil {
		opt.Warnings = append(opt.Warnings, "the model has no name: no launch lines (give Model.Name as the engines load it)")
	}
	span := usageSpan(c.rental)
	if s.days > 0 {
		span = time.Duration(s.days) * 24 * time.Hour
	}
	nanos := decimal.NewFromInt(int64(span)) // nanoseconds
	if !nanos.IsPositive() {
		return fmt.Errorf("plan: a rental of %v has no time to price per hour: %w", span, pricing.ErrInvalid)
	}
	mode := o.Tariff.Rounding
	// The rental's cost per nanosecond, scaled to an hour: the cost × 3.6e12 / nanoseconds.
	scaled := pricing.Money{Amount: c.total.Amount.Mul(decimal.NewFromInt(int64(time.Hour))), Currency: c.total.Currency}
	if opt.PerHour, err = scaled.Div(nanos, mode); err != nil {
		return err
	}
	mtok, err := millionTokensPerHour(s.Serving, s.profile)
	if err != nil {
		return err
	}
	if opt.PerMillion, err = scaled.Div(nanos.Mul(mtok), mode); err != nil {
		return err
	}
	for _, m := range c.members {
		k := m.offer
		if k < 0 {
			k = c.offer
		}
		if w := s.spareWarning(p.Offers[k], m.v, c); w != "" && !slices.Contains(opt.Warnings, w) {
			opt.Warnings = append(opt.Warnings, w)
		}
	}
	if faster := in.boards[c.offer]; faster != nil && v != nil {
		msg := fmt.Sprintf("%q does not say its board: planned on the %s, the slowest it may be", o.Card, v.card.Name)
		fv := s.replica(run, *faster, v.tensor, v.expert)
		if fv.err == nil && s.search(fv) == nil {
			msg += fmt.Sprintf("; on the %s: %s of %s", faster.Name, text.Count(fv.peak, "replica", "replicas"), text.Count(v.tensor, "GPU", "GPUs"))
		}
		opt.Warnings = append(opt.Warnings, msg)
	}
	return nil
}

// addHourly adds group m, paid by the hour alone on tariff t, to q; a tariff
// without an hourly price makes the whole fleet's hourly quote empty (nil
// lines).
func (s settings) addHourly(q pricing.Quote, t pricing.Tariff, m member) (pricing.Quote, error) {
	if !t.Hourly.IsPositive() {
		return pricing.Quote{}, nil
	}
	h := t
	h.Daily, h.Weekly, h.Monthly, h.Terms = decimal.Decimal{}, decimal.Decimal{}, decimal.Decimal{}, nil
	one, err := h.Price(m.rental, m.units)
	if err != nil {
		return pricing.Quote{}, err
	}
	if q.Total, err = q.Total.Add(one.Total); err != nil {
		return pricing.Quote{}, err
	}
	q.Lines = append(q.Lines, one.Lines...)
	return q, nil
}

// spareWarning says, for a group on offer o whose replicas can be taken away,
// how often they are and the spares the fleet rents for them; empty for an
// offer that states no interruptions.
func (s settings) spareWarning(o pricing.Offer, v *served, c *candidate) string {
	up, rate, ok := s.upShare(&o)
	if !ok {
		return ""
	}
	kind, stated := "interruptible capacity", "a day"
	if !o.Interruptible {
		kind = "outages"
	}
	if o.InterruptionsPerDay == 0 {
		stated = "a day assumed (the offer states none)"
	}
	msg := fmt.Sprintf("%s: about %s interruptions %s, %s each to restart, leave a replica up %.2f%% of the time",
		kind, strconv.FormatFloat(rate, 'g', 3, 64), stated, roundDur(s.restart), up*100)
	need, held := 0, 0
	for _, m := range c.members {
		if m.v == v {
			held += m.replicas
		}
	}
	if v != nil {
		need = slices.Max(v.needs)
	}
	if spare := held - need; spare > 0 && need > 0 && len(c.members) == 1 {
		msg += fmt.Sprintf("; %s (their cost included) keep the %s the rate needs up %s of the time",
			text.Count(spare, "spare replica", "spare replicas"), text.Count(need, "replica", "replicas"), percent(s.availability))
	}
	return msg + "; a replica taken away drops its running requests"
}

// millionTokensPerHour is the traffic's generated tokens per hour in millions
// over the day, Rate × the mean of the profile × OutputTokens × 3600 / 10⁶, as
// an exact decimal read from its shortest formatted value.
func millionTokensPerHour(t *Traffic, profile []float64) (decimal.Decimal, error) {
	mean := 0.0
	for _, m := range profile {
		mean += m
	}
	mean /= float64(max(len(profile), 1))
	v := t.Rate * mean * float64(t.OutputTokens) * 3600 / 1e6
	d, err := decimal.NewFromString(strconv.FormatFloat(v, 'f', -1, 64))
	if err != nil || !d.IsPositive() {
		return decimal.Decimal{}, fmt.Errorf("plan: serving: %v million tokens per hour: %w", v, pricing.ErrInvalid)
	}
	return d, nil
}

// upShare says whether offer o's replicas can be taken away (interruptible, or
// stating interruptions a day) and, if so, the share of time one is up,
// 1 − min(1, interruptions a day × Restart / 24 h), and the rate it assumes
// (DefaultInterruptionsPerDay for an interruptible offer that states none).
func (s *settings) upShare(o *pricing.Offer) (up, rate float64, ok bool) {
	rate = o.InterruptionsPerDay
	if rate == 0 && o.Interruptible {
		rate = DefaultInterruptionsPerDay
	}
	if rate == 0 {
		return 1, 0, false
	}
	down := rate * s.restart.Hours() / 24
	return 1 - math.Min(1, down), rate, true
}

// spares returns the replicas to rent so that at least need of them are up
// with probability s.availability, each up a share up of the time on its own:
// the fewest m ≥ need whose binomial tail P(X ≥ need), X ~ Binomial(m, up),
// reaches it. It fails when no m up to most does (a replica never up, or more
// spares than the offer's GPUs hold).
func (s *settings) spares(need int, up, rate float64, most int) (int, error) {
	if up > 0 {
		for m := need; m <= most; m++ {
			if atLeast(need, m, up) >= s.availability {
				return m, nil
			}
		}
	}
	return 0, fmt.Errorf("%s interruptions a day, %s each to restart, leave a replica up %.2f%% of the time: keeping %s up %s of the time needs more replicas than the %s of the offer hold",
		strconv.FormatFloat(rate, 'g', 3, 64), roundDur(s.restart), up*100, text.Count(need, "replica", "replicas"), percent(s.availability), text.Count(most, "replica", "replicas"))
}

// atLeast is P(X ≥ k) for X ~ Binomial(m, p), 0 < p ≤ 1, summed term by term
// in logarithms (math.Lgamma for the binomial coefficient) so that large m
// neither overflows nor underflows.
func atLeast(k, m int, p float64) float64 {
	if p >= 1 {
		return 1
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	lm, _ := math.Lgamma(float64(m + 1))
	sum := 0.0
	for j := k; j <= m; j++ {
		lj, _ := math.Lgamma(float64(j + 1))
		lr, _ := math.Lgamma(float64(m - j + 1))
		sum += math.Exp(lm - lj - lr + float64(j)*lp + float64(m-j)*lq)
	}
	return math.Min(sum, 1)
}

// percent writes a share as a percentage with the digits it needs ("99%",
// "99.9%").
func percent(a float64) string { return strconv.FormatFloat(a*100, 'g', 6, 64) + "%" }

// ms rounds a latency for messages to ten microseconds.
func ms(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

// elapsed is the time a candidate ranks on: the job's expected duration, or for a
// serving option the time one request takes at the traffic's percentile
// (worked out on first use: a ranking by cost asks only to break ties).
func (c *candidate) elapsed() time.Duration {
	if c.members != nil {
		// Under fails only on a rate that is not positive and finite, which no
		// share of a valid traffic is; explainServing reports it if it does.
		_ = c.ensureLoad()
		return c.latency
	}
	return c.fit.duration + c.lost
}
