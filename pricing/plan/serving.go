package plan

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// DefaultServingUsage is the rental priced for a serving request that gives neither
// Usage nor Rental: one month of continuous service, 730 hours (8760 / 12, the
// month the tariffs' HoursPerMonth defaults to).
const DefaultServingUsage = 730 * time.Hour

// servingTensor lists the tensor-parallel sizes a serving request tries for each
// replica, all inside one server.
var servingTensor = [...]int{1, 2, 4, 8}

// Traffic is the load a serving request plans for: Rate requests a second at the
// peak, each of PromptTokens prompt tokens and OutputTokens generated tokens on
// average, with optional latency targets (zero: none). TTFT is the time to the
// first token, TPOT the time per output token after it, both at the replica's
// steady state (compute.ServingPoint).
type Traffic struct {
	Rate         float64       `json:"requests_per_second"`
	PromptTokens int           `json:"prompt_tokens"`
	OutputTokens int           `json:"output_tokens"`
	TTFT         time.Duration `json:"ttft"`
	TPOT         time.Duration `json:"tpot"`
	// Availability is the share of time the service keeps the replicas the
	// rate needs up, in (0, 1); zero: DefaultAvailability. It matters for
	// offers whose replicas can be taken away (interruptible, or stating
	// interruptions a day): they rent spare replicas to keep it.
	Availability float64 `json:"availability"`
}

// DefaultAvailability is Traffic.Availability when it is zero: the service
// keeps its replicas up 99% of the time.
const DefaultAvailability = 0.99

// DefaultInterruptionsPerDay is the interruption rate a serving request
// assumes for an interruptible offer that states none: one a day, since
// Google Cloud stops a preemptible VM after at most 24 hours of running (its
// Compute Engine documentation on preemptible instances), and providers of
// spot capacity that publish no rate take it back at least as often in
// practice.
const DefaultInterruptionsPerDay = 1.0

// Validate reports a rate or token count that is not positive and finite, or a
// negative target, each wrapping pricing.ErrInvalid.
func (t Traffic) Validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("plan: serving: "+format+": %w", append(a, pricing.ErrInvalid)...))
	}
	if !(t.Rate > 0) || math.IsInf(t.Rate, 0) {
		bad("rate %v requests per second must be positive and finite", t.Rate)
	}
	if t.PromptTokens < 1 || t.OutputTokens < 1 {
		bad("%d prompt and %d output tokens per request, want 1 or more of each", t.PromptTokens, t.OutputTokens)
	}
	if t.PromptTokens > math.MaxInt32 || t.OutputTokens > math.MaxInt32 {
		bad("%d prompt and %d output tokens per request, too many", t.PromptTokens, t.OutputTokens)
	}
	if t.TTFT < 0 || t.TPOT < 0 {
		bad("TTFT target %v and TPOT target %v must not be negative", t.TTFT, t.TPOT)
	}
	if a := t.Availability; a != 0 && !(a > 0 && a < 1) {
		bad("availability %v: want a share of time in (0, 1), such as 0.99", a)
	}
	return errors.Join(errs...)
}

type trafficPlain Traffic

type trafficWire struct {
	*trafficPlain
	TTFT string `json:"ttft"`
	TPOT string `json:"tpot"`
}

// MarshalJSON writes the targets in Go's duration syntax ("50ms").
func (t Traffic) MarshalJSON() ([]byte, error) {
	p := trafficPlain(t)
	return json.Marshal(trafficWire{&p, t.TTFT.String(), t.TPOT.String()})
}

// UnmarshalJSON reads what MarshalJSON writes, rejecting unknown fields.
func (t *Traffic) UnmarshalJSON(b []byte) error {
	var p trafficPlain
	w := trafficWire{trafficPlain: &p}
	if err := decodeStrict("serving", b, &w); err != nil {
		return err
	}
	var err error
	for _, d := range []durationField{{"ttft", w.TTFT, &p.TTFT}, {"tpot", w.TPOT, &p.TPOT}} {
		if *d.out, err = parseDuration(d.name, d.in); err != nil {
			return err
		}
	}
	*t = Traffic(p)
	return nil
}

// settleServing checks what a serving request may not say and fills its
// defaults: the reserve and the rental.
func (s *settings) settleServing() []error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("plan: request: "+format+": %w", append(a, pricing.ErrInvalid)...))
	}
	if err := s.Serving.Validate(); err != nil {
		errs = append(errs, err)
	}
	if s.Workload.Task != sizing.Inference {
		bad("a serving request needs an inference workload, not %v", s.Workload.Task)
	}
	if s.Tokens != 0 || s.Deadline != 0 {
		bad("a serving request has a rate, not tokens or a deadline")
	}
	if s.Headroom == 0 {
		s.headroom = compute.DefaultServingReserve
	}
	s.availability = cmp.Or(s.Serving.Availability, DefaultAvailability)
	if s.Usage == 0 && !s.rentalSet() {
		s.Usage = DefaultServingUsage
	}
	return errs
}

// servingWorkload is the workload a serving request's validation sees: its batch and
// sequence length come from the traffic when unset (the planner picks the
// concurrency).
func servingWorkload(w sizing.Workload, t *Traffic) sizing.Workload {
	if w.Batch == 0 {
		w.Batch = 1
	}
	if w.SeqLen == 0 && t.PromptTokens > 0 && t.OutputTokens > 0 && t.PromptTokens <= math.MaxInt32 && t.OutputTokens <= math.MaxInt32 {
		w.SeqLen = t.PromptTokens + t.OutputTokens
	}
	return w
}

// served is a serving request's answer for one card at one tensor-parallel size:
// the replica's operating point, the replicas the rate needs, and the fit options
// of the card share.
type served struct {
	card     catalog.Card
	tensor   int
	point    compute.ServingPoint
	replicas int
	err      error // compute.ErrNoFit, compute.ErrUnreachable (point is then the best reachable) or another
	latency  time.Duration
	fit      *fit
}

// serveRun is one Report's serving state: the replicas worked out per card and
// tensor-parallel size (each prepared and searched once, whatever the offers), and
// what left options out.
type serveRun struct {
	byKey  map[fitKey]*served
	capped map[fitKey]capped
	over   *candidate // the cheapest left out by the budget
}

// capped is what the offers of a (card, size) past their GPU cap noted: the GPUs
// the last of them needed, and the largest cap.
type capped struct{ need, cap int }

// replica returns the served answer for t devices of card, computing it on first
// use: compute.Serving prepared once, Best once with the request's targets.
func (s settings) replica(run *serveRun, card catalog.Card, t int) *served {
	k := fitKey{card.ID, t, t, 0}
	if v := run.byKey[k]; v != nil {
		return v
	}
	v := &served{card: card, tensor: t}
	run.byKey[k] = v
	tr := s.Serving
	sv := compute.Serving{
		Model: s.Model, Weights: s.Workload.Precision, KV: s.Workload.KVPrecision, Devices: t,
		Memory: card.Memory, Bandwidth: card.MemoryBandwidth, Peak: servingPeak(card, s.Workload.Precision),
		Link: servingLink(card, t), PromptTokens: tr.PromptTokens, OutputTokens: tr.OutputTokens,
		Reserve: s.headroom, PrefillChunk: s.Workload.PrefillChunk,
		Arch: card.Architecture, Calibration: s.calibration(&card),
	}
	p, err := sv.Prepare()
	if err != nil {
		v.err = err
		return v
	}
	v.point, v.err = p.Best(tr.TTFT, tr.TPOT)
	v.latency = requestLatency(v.point, tr.OutputTokens)
	if v.err != nil {
		return v
	}
	if v.replicas, v.err = v.point.Replicas(tr.Rate); v.err != nil {
		return v
	}
	v.fit = s.servingFit(card, t, v)
	return v
}

// requestLatency is the time one request takes at point p: its first token, then
// OutputTokens−1 more, one step each. RankTime orders serving options by it.
func requestLatency(p compute.ServingPoint, output int) time.Duration {
	return p.TTFT + time.Duration(output-1)*p.TPOT
}

// servingFit is the fit every option of (card, t) shares: the layout (replicas of
// t tensor-parallel GPUs), each GPU's memory at the chosen concurrency from
// sizing.Estimate (its Overhead the reserve, as compute.Serving counts it), and
// the notes.
func (s settings) servingFit(card catalog.Card, t int, v *served) *fit {
	f := &fit{ok: true, layout: sizing.Parallel{Data: v.replicas, Tensor: t}, eff: 1, tried: 1, warned: true}
	w := s.Workload
	// Each sequence holds its tokens in whole blocks of the paged cache, as
	// compute.Serving counts them.
	held := (s.Serving.PromptTokens + s.Serving.OutputTokens + compute.KVBlockTokens - 1) / compute.KVBlockTokens * compute.KVBlockTokens
	w.Batch, w.SeqLen, w.Parallel = v.point.Concurrency, held, sizing.Parallel{Tensor: t}
	w.Overhead = sizing.Bytes(math.Ceil(float64(card.Memory) * s.headroom))
	if w.PrefillChunk == 0 {
		w.PrefillChunk = sizing.DefaultPrefillChunk // as compute.Serving
	}
	if b, err := sizing.Estimate(s.Model, w); err == nil {
		f.mem = b
	}
	_, f.nvlink, f.linkName = linkFor(card, t, t)
	if t > 1 && !f.nvlink {
		f.pre = append(f.pre, fmt.Sprintf("tensor parallel ×%d without NVLink: its all-reduces cross %s on every token", t, f.linkName))
	}
	if _, ok := card.Peak(sizing.BF16); !ok && s.Workload.Precision == sizing.BF16 {
		f.pre = append(f.pre, card.Name+" has no BF16: the weights would be served in FP16 (same memory), timed at its FP16 rate")
	}
	if note := s.calibrated(&card, true); note != "" {
		f.pre = append(f.pre, note)
	}
	if v.point.Approx {
		f.pre = append(f.pre, "the model is known by its parameter count alone: its KV cache and attention follow an assumed shape")
	}
	return f
}

// servingPeak is the dense rate a replica's matrix multiplies run at: FP8 for FP8
// weights on a card with FP8 tensor cores, the 16-bit rate (BF16, or FP16 on cards
// without it) otherwise, as compute.Serving documents.
func servingPeak(card catalog.Card, weights sizing.Precision) compute.FLOPRate {
	if r, ok := card.Peak(sizing.FP8); ok && weights == sizing.FP8 {
		return r
	}
	r, _, _ := peakFor(card, sizing.BF16, sizing.Inference)
	return r
}

// servingLink is the link between a replica's t GPUs: NVLink (or Infinity Fabric)
// where the card has it for them, PCIe of its generation otherwise, with no
// latency of its own: compute's AllReduceBase and AllReduceHop already hold the
// cost of a small all-reduce.
func servingLink(card catalog.Card, t int) compute.Link {
	l, _, _ := linkFor(card, t, t)
	l.Latency = 0
	return l
}

// serveOffers plans a serving request: for each offer kept and each tensor-parallel
// size t of 1, 2, 4 or 8 that divides the heads and fits the offer's GPU cap, the
// replicas of t GPUs the rate needs at the highest concurrency meeting the targets
// (compute.PreparedServing.Best), priced for the request's rental. Without
// EveryCount or RankFrontier each offer keeps its best size by the rank.
func (s settings) serveOffers(w *sweep, run *serveRun) error {
	run.byKey = make(map[fitKey]*served)
	run.capped = make(map[fitKey]capped)
	for _, i := range w.in.kept {
		w.begin(i)
		card, limit := w.in.cards[i], w.limit
		m := w.o.GPUsPerInstance // zero: not sold in instances
		sizes := servingTensor[:]
		if s.pin > 0 { // one size, which settle checked against the heads
			sizes = []int{s.pin}
			if w.why != nil {
				sizes = nil
			}
		}
		for _, t := range sizes {
			// The heads divide among a replica's GPUs, which stay inside one instance.
			if t > limit || s.Model.Heads > 0 && s.Model.Heads%t != 0 || m > 0 && t > m {
				continue
			}
			w.considered++
			v := s.replica(run, *card, t)
			if v.err != nil {
				continue
			}
			replicas := v.replicas
			if up, rate, ok := s.upShare(w.o); ok {
				var err error
				if replicas, err = s.spares(v.replicas, up, rate, limit/t); err != nil {
					w.why = fmt.Errorf("%w: %w", err, pricing.ErrUnavailable)
					continue
				}
			}
			n := replicas * t
			rented := n // GPUs asked of the offer: whole instances of whole replicas
			if m > 0 {
				per := m / t // replicas one instance holds
				rented = (replicas + per - 1) / per * m
			}
			if rented > limit {
				k := fitKey{card.ID, t, t, 0}
				run.capped[k] = capped{rented, max(run.capped[k].cap, limit)}
				continue
			}
			c, ok, err := w.price(w.class.slot(t), rented, v.fit)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if c.serve == nil { // priced for its class just now: say which replicas
				c.serve, c.gpus, c.replicas = v, n, replicas
			}
			if !s.Budget.Amount.IsZero() && c.key.Amount.GreaterThan(s.Budget.Amount) {
				if run.over == nil || cmpKey(&c, run.over) < 0 {
					cc := c
					run.over = &cc
				}
				continue
			}
			w.add(c)
		}
		w.end()
	}
	return nil
}

// noFit explains an empty serving plan: per card, the closest it came (the best
// latency it reaches against the targets, the memory a replica needs, the GPUs the
// rate needs past the offers' cap), the budget, and the best latency any card
// reaches.
func (s settings) noFit(run *serveRun, rs *inputs, skipped []Skipped, causes []error) *NoFitError {
	e := &NoFitError{causes: causes}
	var closest *served
	closeness := func(v *served) float64 {
		r := 0.0
		if s.Serving.TTFT > 0 {
			r = math.Max(r, float64(v.point.TTFT)/float64(s.Serving.TTFT))
		}
		if s.Serving.TPOT > 0 {
			r = math.Max(r, float64(v.point.TPOT)/float64(s.Serving.TPOT))
		}
		return r
	}
	seen := make(map[string]bool)
	sawNoFit := false
	for _, i := range rs.kept {
		card := rs.cards[i]
		if seen[card.ID] {
			continue
		}
		seen[card.ID] = true
		var unreach, capv *served
		var over capped // capv's
		var nofit error
		for _, t := range servingTensor {
			k := fitKey{card.ID, t, t, 0}
			v := run.byKey[k]
			switch {
			case v == nil:
			case errors.Is(v.err, compute.ErrUnreachable):
				if unreach == nil || closeness(v) < closeness(unreach) {
					unreach = v
				}
			case v.err != nil:
				if nofit == nil {
					nofit = v.err
				}
			case run.capped[k].need > 0:
				if capv == nil || run.capped[k].need < over.need {
					capv, over = v, run.capped[k]
				}
			}
		}
		switch {
		case capv != nil:
			e.Reasons = append(e.Reasons, fmt.Sprintf("%s: %v requests/s need %s of %s (%s, %s each at TTFT %v, TPOT %v), over the %d its offers allow",
				card.Name, s.Serving.Rate, text.Count(capv.replicas, "replica", "replicas"), text.Count(capv.tensor, "GPU", "GPUs"), text.Count(over.need, "GPU", "GPUs"), text.Count(capv.point.Concurrency, "sequence", "sequences"), ms(capv.point.TTFT), ms(capv.point.TPOT), over.cap))
		case unreach != nil:
			e.Reasons = append(e.Reasons, fmt.Sprintf("%s: misses the targets (TTFT %s, TPOT %s) even serving one sequence: at best TTFT %v and TPOT %v on %s per replica",
				card.Name, text.Target(s.Serving.TTFT), text.Target(s.Serving.TPOT), ms(unreach.point.TTFT), ms(unreach.point.TPOT), text.Count(unreach.tensor, "GPU", "GPUs")))
			if closest == nil || closeness(unreach) < closeness(closest) {
				closest = unreach
			}
		case nofit != nil:
			sawNoFit = sawNoFit || errors.Is(nofit, compute.ErrNoFit)
			e.Reasons = append(e.Reasons, card.Name+": "+nofit.Error())
		}
	}
	if run.over != nil {
		e.Reasons = append(e.Reasons, fmt.Sprintf("the cheapest option (%d × %s) costs %s, over the %s budget", run.over.gpus, rs.cards[run.over.offer].Name, run.over.key, s.Budget))
	}
	e.addSkipped(skipped)
	if closest != nil {
		e.Suggestions = append(e.Suggestions, fmt.Sprintf("the best latency reachable is TTFT %v and TPOT %v, on %d × %s (one sequence per replica); loosen the targets or shorten the prompts",
			ms(closest.point.TTFT), ms(closest.point.TPOT), closest.tensor, closest.card.Name))
		e.causes = append(e.causes, compute.ErrUnreachable)
	}
	if sawNoFit {
		e.causes = append(e.causes, compute.ErrNoFit)
	}
	return e
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

// explainServing adds a serving option's figures: the replicas, the operating
// point, the cost per hour and per million generated tokens, and the board note.
func (s settings) explainServing(opt *Option, c *candidate, o pricing.Offer, faster *catalog.Card, run *serveRun) error {
	v := c.serve
	pt := v.point
	opt.Replicas, opt.Serving = c.replicas, &pt
	opt.Layout.Data = c.replicas
	span := usageSpan(c.rental)
	nanos := decimal.NewFromInt(int64(span)) // nanoseconds
	if !nanos.IsPositive() {
		return fmt.Errorf("plan: a rental of %v has no time to price per hour: %w", span, pricing.ErrInvalid)
	}
	mode := o.Tariff.Rounding
	// The rental's cost per nanosecond, scaled to an hour: the cost × 3.6e12 / nanoseconds.
	scaled := pricing.Money{Amount: c.total.Amount.Mul(decimal.NewFromInt(int64(time.Hour))), Currency: c.total.Currency}
	var err error
	if opt.PerHour, err = scaled.Div(nanos, mode); err != nil {
		return err
	}
	mtok, err := millionTokensPerHour(s.Serving)
	if err != nil {
		return err
	}
	if opt.PerMillion, err = scaled.Div(nanos.Mul(mtok), mode); err != nil {
		return err
	}
	if up, rate, ok := s.upShare(&o); ok {
		kind, stated := "interruptible capacity", "a day"
		if !o.Interruptible {
			kind = "outages"
		}
		if o.InterruptionsPerDay == 0 {
			stated = "a day assumed (the offer states none)"
		}
		msg := fmt.Sprintf("%s: about %s interruptions %s, %s each to restart, leave a replica up %.2f%% of the time",
			kind, strconv.FormatFloat(rate, 'g', 3, 64), stated, roundDur(s.restart), up*100)
		if spare := c.replicas - v.replicas; spare > 0 {
			msg += fmt.Sprintf("; %s (their cost included) keep the %s the rate needs up %s of the time",
				text.Count(spare, "spare replica", "spare replicas"), text.Count(v.replicas, "replica", "replicas"), percent(s.availability))
		}
		opt.Warnings = append(opt.Warnings, msg+"; a replica taken away drops its running requests")
	}
	if faster != nil {
		msg := fmt.Sprintf("%q does not say its board: planned on the %s, the slowest it may be", o.Card, v.card.Name)
		if fv := s.replica(run, *faster, v.tensor); fv.err == nil {
			msg += fmt.Sprintf("; on the %s: %s of %s, TPOT %v", faster.Name, text.Count(fv.replicas, "replica", "replicas"), text.Count(v.tensor, "GPU", "GPUs"), ms(fv.point.TPOT))
		}
		opt.Warnings = append(opt.Warnings, msg)
	}
	return nil
}

// millionTokensPerHour is the traffic's generated tokens per hour in millions,
// Rate × OutputTokens × 3600 / 10⁶, as an exact decimal read from its shortest
// formatted value.
func millionTokensPerHour(t *Traffic) (decimal.Decimal, error) {
	v := t.Rate * float64(t.OutputTokens) * 3600 / 1e6
	d, err := decimal.NewFromString(strconv.FormatFloat(v, 'f', -1, 64))
	if err != nil || !d.IsPositive() {
		return decimal.Decimal{}, fmt.Errorf("plan: serving: %v million tokens per hour: %w", v, pricing.ErrInvalid)
	}
	return d, nil
}

// elapsed is the time a candidate ranks on: the job's expected duration, or for a
// serving option the time one request takes at its operating point.
func (c *candidate) elapsed() time.Duration {
	if c.serve != nil {
		return c.serve.latency
	}
	return c.fit.duration + c.lost
}
