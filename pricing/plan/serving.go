package plan

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
)

// DefaultServingUsage is the rental priced for a serving request that gives neither
// Usage nor Rental: one month of continuous service, 730 hours (8760 / 12, the
// month the tariffs' HoursPerMonth defaults to).
const DefaultServingUsage = 730 * time.Hour

// DefaultServingDays is the rental of a serving request with a daily profile
// (Traffic.Daily) that gives no Usage: 30 whole days.
const DefaultServingDays = 30

// servingTensor lists the tensor-parallel sizes a serving request tries for each
// replica, all inside one server.
var servingTensor = [...]int{1, 2, 4, 8}

// Traffic is the load a serving request plans for: Rate requests a second at the
// peak, each of PromptTokens prompt tokens and OutputTokens generated tokens on
// average, with optional latency targets (zero: none). TTFT is the time to the
// first token, TPOT the time per output token after it, queueing included, as
// compute.Serving.Under reports them for requests arriving at random (a
// Poisson process); Percentile says which share of requests the targets hold
// for.
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
	// Percentile is the share of requests whose TTFT and TPOT must be within
	// the targets: 0.5, 0.9 or 0.99 (the percentiles compute.LoadPoint
	// reports); zero: the targets hold for the mean.
	Percentile float64 `json:"percentile"`
	// PrefixShare is the share of each prompt found in the engine's prefix
	// cache (a system prompt, few-shot examples, a document under questions),
	// in [0, 1): compute.Serving.PrefixShare. Zero: no cache hits.
	PrefixShare float64 `json:"prefix_share"`
	// Daily is the traffic over a day: 24 hourly multiples of Rate, each in
	// [0, 1] and the largest 1 (Rate is the peak), hour 0 first. It decides how
	// many hours a day each group of replicas is rented (Group.Hours); the
	// rental is then whole days. Empty: the peak all day.
	Daily []float64 `json:"daily"`
	// Speculative, when set, serves with speculative decoding
	// (compute.Serving.Speculative): the draft model, named as the engines
	// load it (Draft.Name), the tokens it proposes a step and their
	// acceptance rate, which only a measurement on the traffic can give, so
	// the planner never guesses one. Nil: without.
	Speculative *compute.Speculation `json:"speculative"`
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

// HoursPerDay is the length of Traffic.Daily: one multiple of the rate an hour.
const HoursPerDay = 24

// Validate reports a rate or token count that is not positive and finite, a
// negative target, a percentile other than 0.5, 0.9 or 0.99 (or zero), a
// prefix share outside [0, 1), a daily profile without 24 values in [0, 1]
// whose largest is 1, or a speculation the compute package refuses or whose
// draft has no name, each naming its field and wrapping pricing.ErrInvalid.
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
	switch p := t.Percentile; {
	case p == 0 || p == 0.5 || p == 0.9 || p == 0.99:
	case !(p > 0 && p < 1):
		bad("percentile %v: want a share of requests in (0, 1), 0.5, 0.9 or 0.99 (zero: the mean)", p)
	default:
		bad("percentile %v: want 0.5, 0.9 or 0.99, the percentiles the load model reports (zero: the mean)", p)
	}
	if a := t.PrefixShare; !(a >= 0 && a < 1) {
		bad("prefix_share %v: want the share of a prompt found in the cache, in [0, 1)", a)
	}
	if len(t.Daily) > 0 {
		errs = append(errs, validDaily(t.Daily)...)
	}
	if sp := t.Speculative; sp != nil {
		if err := sp.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("plan: serving: %w", invalid(err)))
		}
		if sp.Draft.Name == "" {
			bad("speculative.draft has no name: the launch lines load the draft model by it")
		}
		if err := sp.Draft.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("plan: serving: speculative.draft: %w", invalid(err)))
		}
	}
	return errors.Join(errs...)
}

// validDaily checks a daily profile: 24 finite values in [0, 1], the largest 1.
func validDaily(d []float64) []error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("plan: serving: daily"+format+": %w", append(a, pricing.ErrInvalid)...)
	}
	if len(d) != HoursPerDay {
		return []error{bad(": %d values, want %d (one multiple of the peak rate an hour)", len(d), HoursPerDay)}
	}
	var errs []error
	top := 0.0
	for h, v := range d {
		if !(v >= 0 && v <= 1) {
			errs = append(errs, bad("[%d] %v: want a multiple of the peak rate in [0, 1]", h, v))
			continue
		}
		top = math.Max(top, v)
	}
	if len(errs) == 0 && top != 1 {
		errs = append(errs, bad(": the largest value is %v, want 1 (the rate is the peak's)", top))
	}
	return errs
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
// defaults: the reserve, the availability and the rental (whole days with a
// daily profile).
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
	// The engines planned (vLLM, SGLang) run memory-efficient attention and
	// build only the last position's logits, as compute.Serving sizes a prefill
	// chunk: a workload asking otherwise would be sized apart from the KV cache
	// the replica was given, past the card.
	if s.Workload.EagerAttention || s.Workload.FullLogits {
		bad("a serving request plans vLLM or SGLang, which run memory-efficient attention and keep the last token's logits: leave eager_attention and full_logits unset")
	}
	if s.Headroom == 0 {
		s.headroom = compute.DefaultServingReserve
	}
	s.availability = cmp.Or(s.Serving.Availability, DefaultAvailability)
	s.profile = []float64{1}
	if len(s.Serving.Daily) > 0 {
		if s.rentalSet() {
			bad("a daily profile rents whole days: give usage (its days), not a rental pattern")
		}
		s.profile = s.Serving.Daily
		s.days = DefaultServingDays
		if s.Usage > 0 {
			s.days = int((s.Usage + 24*time.Hour - 1) / (24 * time.Hour))
		}
		if s.days > maxServingDays {
			bad("usage %v: a daily profile rents at most %d days", s.Usage, maxServingDays)
		}
	} else if s.Usage == 0 && !s.rentalSet() {
		s.Usage = DefaultServingUsage
	}
	if s.Mix && (s.GPUs > 0 || s.Parallel != nil) {
		bad("mix searches the cards and replicas of a fleet: leave gpus and parallel unpinned")
	}
	return errs
}

// maxServingDays bounds the rental of a daily profile, as pricing bounds the
// days of daily sessions.
const maxServingDays = 36500

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

// replicaKey names one way to build a replica: a card, its tensor-parallel
// degree and its expert-parallel degree (zero: none).
type replicaKey struct {
	card           string
	tensor, expert int
}

// served is one way to build a replica (replicaKey) and what the serving
// request makes of it: prepared once (compute.PreparedServing) whatever the
// offers, its capacity, and once searched (search), the replicas the peak rate
// needs within the targets and the bracket of the per-replica rate that meets
// them.
type served struct {
	card           catalog.Card
	tensor, expert int
	prep           compute.PreparedServing
	slots          int                  // sequence slots, MaxConcurrency
	capacity       float64              // requests a second one replica completes with every slot busy
	point          compute.ServingPoint // the closed loop's highest concurrency within the targets (Best)
	err            error                // compute.ErrNoFit, ErrUnreachable (point: one sequence), errCapped, or another
	fit            *fit

	searched bool
	peak     int     // replicas the peak rate needs
	lo, hi   float64 // requests a second per replica: lo meets the targets, hi (or more) does not
	loads    map[float64]compute.LoadPoint
	fails    int               // the most replicas known to miss the targets, before the search (beyond)
	needs    []int             // replicas each hour of the profile needs (search)
	reach    compute.LoadPoint // unreachable: the lowest load tried, the best it reaches
}

// errCapped is the search's error when the peak needs more replicas than any
// offer may rent (MaxPlanGPUs).
var errCapped = errors.New("needs more replicas than the planner rents")

// serveRun is one Report's serving state: the replicas worked out per card,
// tensor and expert degree (each prepared and searched once, whatever the
// offers), the fleets priced per class of offers, and what left options out.
type serveRun struct {
	byKey  map[replicaKey]*served
	fleets map[fleetKey]fleetEntry
	floors map[fleetKey]floorOf
	capped map[replicaKey]capped
	over   *candidate // the cheapest left out by the budget
	pairs  map[pairKey]*pair
}

func newServeRun() *serveRun {
	return &serveRun{byKey: make(map[replicaKey]*served), fleets: make(map[fleetKey]fleetEntry),
		floors: make(map[fleetKey]floorOf), capped: make(map[replicaKey]capped), pairs: make(map[pairKey]*pair)}
}

// capped is what the offers of a replica past their GPU cap noted: the GPUs
// the last of them needed, and the largest cap.
type capped struct{ need, cap int }

// replica returns the served answer for t devices of card at expert degree e,
// computing it on first use: compute.Serving prepared once, its capacity and
// the closed loop's best point within the targets (compute.PreparedServing.Best,
// which says when even one sequence misses them).
func (s settings) replica(run *serveRun, card catalog.Card, t, e int) *served {
	k := replicaKey{card.ID, t, e}
	if v := run.byKey[k]; v != nil {
		return v
	}
	v := &served{card: card, tensor: t, expert: e}
	run.byKey[k] = v
	tr := s.Serving
	sv := compute.Serving{
		Model: s.Model, Weights: s.Workload.Precision, KV: s.Workload.KVPrecision, Devices: t,
		Memory: card.Memory, Bandwidth: card.MemoryBandwidth, Peak: servingPeak(card, s.Workload.Precision),
		Link: servingLink(card, t), PromptTokens: tr.PromptTokens, OutputTokens: tr.OutputTokens,
		Reserve: s.headroom, PrefillChunk: s.Workload.PrefillChunk,
		Arch: card.Architecture, Calibration: s.calibration(&card),
		PrefixShare: tr.PrefixShare, Speculative: tr.Speculative, Expert: e,
	}
	if v.prep, v.err = sv.Prepare(); v.err != nil {
		return v
	}
	if v.slots, v.err = v.prep.MaxConcurrency(); v.err != nil {
		return v
	}
	if v.capacity, v.err = v.prep.Capacity(); v.err != nil {
		return v
	}
	if !s.targets() {
		v.point, v.err = v.prep.At(v.slots) // Best without targets: every slot busy
	} else {
		v.point, v.err = v.prep.Best(tr.TTFT, tr.TPOT)
	}
	if v.err != nil {
		return v
	}
	v.fit = s.servingFit(card, t, v)
	return v
}

// percentile picks the statistic of p that the traffic's targets hold for.
func (s *settings) percentile(p compute.Percentiles) time.Duration {
	return pick(p, s.Serving.Percentile)
}

// pick returns the statistic of p at percentile pct (0.5, 0.9, 0.99), or its
// mean for zero.
func pick(p compute.Percentiles, pct float64) time.Duration {
	switch pct {
	case 0.5:
		return p.P50
	case 0.9:
		return p.P90
	case 0.99:
		return p.P99
	}
	return p.Mean
}

// targets reports whether the traffic has a latency target.
func (s *settings) targets() bool { return s.Serving.TTFT > 0 || s.Serving.TPOT > 0 }

// meets reports whether a load point is stable and within the targets at the
// traffic's percentile.
func (s *settings) meets(lp compute.LoadPoint) bool {
	t := s.Serving
	return lp.Stable && (t.TTFT == 0 || s.percentile(lp.TTFT) <= t.TTFT) && (t.TPOT == 0 || s.percentile(lp.TPOT) <= t.TPOT)
}

// under returns the replica's load point at rate requests a second, simulated
// once per rate (compute.PreparedServing.Under).
func (v *served) under(rate float64) (compute.LoadPoint, error) {
	if lp, ok := v.loads[rate]; ok {
		return lp, nil
	}
	lp, err := v.prep.Under(rate)
	if err != nil {
		return lp, err
	}
	if v.loads == nil {
		v.loads = make(map[float64]compute.LoadPoint)
	}
	v.loads[rate] = lp
	return lp, nil
}

// meetsAt reports whether one replica under rate requests a second meets the
// targets: below its capacity, and with targets, within them by Under.
func (s *settings) meetsAt(v *served, rate float64) (bool, error) {
	if !(rate < v.capacity) {
		return false, nil
	}
	if !s.targets() {
		return true, nil
	}
	lp, err := v.under(rate)
	return err == nil && s.meets(lp), err
}

// fewest returns the fewest replicas that give each at most x requests a
// second of rate: ⌈rate / x⌉, made exact against the division's rounding (zero
// for no rate).
func fewest(rate, x float64) int {
	if !(rate > 0) {
		return 0
	}
	n := int(math.Min(math.Ceil(rate/x), math.MaxInt32))
	for n > 1 && rate/float64(n-1) <= x {
		n--
	}
	for n < math.MaxInt32 && rate/float64(n) > x {
		n++
	}
	return n
}

// search finds the replicas the peak rate needs within the targets, once per
// replica, with a few Under calls: below ⌈Rate / Capacity⌉ no number of
// replicas is stable, so the search starts there, or at the closed loop's
// estimate (Rate over what Best's point completes) when that is more; from the
// start it bisects down when the start meets the targets, or gallops up
// (1, 2, 4, … replicas more) to the first count that does and bisects back.
// The counts it tries depend only on which met the targets, so a higher
// percentile, which no count meets unless every lower one does, never needs
// fewer replicas. Under is simulated and so not exactly monotone in the
// replicas; the search returns a count that meets the targets with one fewer
// that does not. Without targets no Under is needed: the fewest stable
// replicas serve.
//
// It then sets the bracket of the per-replica rate, lo = Rate / peak meeting
// the targets and hi = Rate / (peak − 1), or the capacity, not meeting them,
// and for a daily profile the replicas each hour needs (hourly).
func (s *settings) search(v *served) error {
	if v.searched || v.err != nil {
		return v.err
	}
	v.searched = true
	rate := s.Serving.Rate
	n0 := fewest(rate, math.Nextafter(v.capacity, 0)) // the fewest stable: rate/n below the capacity
	most := MaxPlanGPUs / v.tensor
	if n0 > most {
		v.peak, v.err = n0, errCapped
		return v.err
	}
	start := n0
	if p := v.point.Requests; p > 0 {
		start = max(start, min(fewest(rate, p), most))
	}
	lo, hi := n0-1, start // lo fails (unstable below n0); hi is tried first
	ok, err := s.meetsAt(v, rate/float64(start))
	if err != nil {
		return err
	}
	if !ok {
		lo = start
		for step := 1; ; step *= 2 {
			n := min(lo+step, most)
			if ok, err = s.meetsAt(v, rate/float64(n)); err != nil {
				return err
			}
			if ok {
				hi = n
				break
			}
			if n == most {
				// Even the lowest load the planner would rent misses the targets.
				v.reach, _ = v.under(rate / float64(n))
				v.err = fmt.Errorf("misses the targets at %s even with %d replicas: %w", s.pctName(), n, compute.ErrUnreachable)
				return v.err
			}
			lo = n
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok, err = s.meetsAt(v, rate/float64(mid)); err != nil {
			return err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	v.peak, v.lo, v.hi = hi, rate/float64(hi), v.capacity
	if lo >= n0 {
		v.hi = rate / float64(lo)
	}
	return s.hourly(v)
}

// hourly sets the replicas each hour of the daily profile needs. A replica
// meets the targets at a per-replica rate at or under lo and misses them at
// hi or over, so an hour of rate r needs ⌈r / lo⌉ replicas unless one fewer
// gives a rate between the two, which Under decides (and that narrows the
// bracket for the other hours); the latencies are taken to grow with the rate
// a replica serves. Hours of highest rate are settled first, and no hour
// needs more replicas than the peak.
func (s *settings) hourly(v *served) error {
	rates := make([]float64, len(s.profile))
	for h, m := range s.profile {
		rates[h] = m * s.Serving.Rate
	}
	order := slices.Clone(rates)
	slices.SortFunc(order, func(a, b float64) int { return cmp.Compare(b, a) })
	for _, r := range slices.Compact(order) {
		n := fewest(r, v.lo)
		if n <= 1 {
			continue
		}
		if x := r / float64(n-1); x > v.lo && x < v.hi {
			ok, err := s.meetsAt(v, x)
			if err != nil {
				return err
			}
			if ok {
				v.lo = x
			} else {
				v.hi = x
			}
		}
	}
	v.needs = make([]int, len(rates))
	for h, r := range rates {
		v.needs[h] = min(fewest(r, v.lo), v.peak)
	}
	return nil
}

// pctName names the traffic's percentile for messages: "p99", or "the mean".
func (s *settings) pctName() string {
	if p := s.Serving.Percentile; p > 0 {
		return "p" + strconv.FormatFloat(p*100, 'g', -1, 64)
	}
	return "the mean"
}

// latencyOf is the time one request takes under lp at percentile pct (zero:
// the mean): its first token, then output − 1 more. RankTime orders serving
// options by it.
func latencyOf(lp compute.LoadPoint, pct float64, output int) time.Duration {
	return pick(lp.TTFT, pct) + time.Duration(output-1)*pick(lp.TPOT, pct)
}

// servingFit is the fit every option of a replica shares: the layout (replicas
// of t tensor-parallel GPUs), each GPU's memory as compute.Serving sizes it
// (the weights' share, a prefill chunk's activations, the reserve as Overhead,
// and the KV cache of every sequence slot, as the engine allocates it: each
// sequence's own blocks, the shared prefix blocks once, a draft's weights and
// cache beside the model's) from sizing.Estimate, and the notes.
func (s settings) servingFit(card catalog.Card, t int, v *served) *fit {
	f := &fit{ok: true, layout: sizing.Parallel{Tensor: t}, eff: 1, tried: 1, warned: true}
	tr := s.Serving
	// Each sequence holds its tokens in whole blocks of the paged cache, as
	// compute.Serving counts them.
	held := (tr.PromptTokens + tr.OutputTokens + compute.KVBlockTokens - 1) / compute.KVBlockTokens * compute.KVBlockTokens
	cached := int(math.Floor(float64(tr.PromptTokens)*tr.PrefixShare/compute.KVBlockTokens)) * compute.KVBlockTokens
	w := s.Workload
	w.Batch, w.SeqLen, w.Parallel = 1, held, sizing.Parallel{Tensor: t}
	w.Overhead = sizing.Bytes(math.Ceil(float64(card.Memory) * s.headroom))
	if w.PrefillChunk == 0 {
		w.PrefillChunk = sizing.DefaultPrefillChunk // as compute.Serving
	}
	if b, err := sizing.Estimate(s.Model, w); err == nil {
		perSeq := float64(b.KVCache)
		if sp := tr.Speculative; sp != nil {
			if d, err := sizing.Estimate(sp.Draft, w); err == nil {
				b.Weights += d.Weights
				perSeq += float64(d.KVCache)
			}
		}
		own := perSeq * float64(held-cached) / float64(held)
		b.KVCache = sizing.Bytes(float64(v.slots)*own + perSeq - own)
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

// replicas lists the replicas offer w.o may run: each tensor-parallel size of
// 1, 2, 4 or 8 (or the pinned one) that divides the heads and fits the
// offer's GPU cap and instances, and for a mixture of experts each size above
// 1 also with its experts spread over all its GPUs (Serving.Expert = the size,
// the expert-parallel mode vLLM's --enable-expert-parallel and SGLang's
// --ep-size give), where that divides the experts.
func (s settings) replicas(w *sweep, run *serveRun, buf []*served) []*served {
	card, limit, m := w.in.cards[w.i], w.limit, w.o.GPUsPerInstance
	sizes := servingTensor[:]
	if s.pin > 0 { // one size, which settle checked against the heads
		sizes = []int{s.pin}
		if w.why != nil {
			sizes = nil
		}
	}
	out := buf[:0]
	for _, t := range sizes {
		// The heads divide among a replica's GPUs, which stay inside one instance.
		if t > limit || s.Model.Heads > 0 && s.Model.Heads%t != 0 || m > 0 && t > m {
			continue
		}
		out = append(out, s.replica(run, *card, t, 0))
		if t > 1 && s.Model.Experts > 1 && s.Model.ExpertsPerToken > 0 && s.Model.Experts%t == 0 {
			out = append(out, s.replica(run, *card, t, t))
		}
	}
	return out
}

// serveOffers plans a serving request: for each offer kept and each replica it
// may run (replicas), the fleet of those replicas the traffic needs within the
// targets (search), priced for the request's rental (fleetOn). Without
// EveryCount or RankFrontier each offer keeps its best replica by the rank.
//
// Ranked by cost with a limit, the offers are taken cheapest floor first:
// each fleet's floor (the fewest replicas the capacity allows, at
// pricing.Pricer.Floor) is known before any Under call, so replicas whose
// fleets cannot make the plan are never searched.
func (s settings) serveOffers(w *sweep, run *serveRun) error {
	order := w.in.kept
	if w.top.top != nil {
		order = s.byFloor(w, run)
	}
	from := len(w.skipped)
	var skipped []int // offer index of each Skipped the sweep adds
	var buf [2 * len(servingTensor)]*served
	for _, i := range order {
		w.begin(i)
		vs := s.replicas(w, run, buf[:])
		if w.top.top != nil { // the cheapest floor first: the offer's bar is tight for the rest
			slices.SortStableFunc(vs, func(a, b *served) int {
				return cmp.Compare(s.floorOn(w, run, a).minor, s.floorOn(w, run, b).minor)
			})
		}
		for _, v := range vs {
			w.considered++
			if v.err != nil {
				continue
			}
			if err := s.offerFleet(w, run, v); err != nil {
				return err
			}
		}
		if s.pin == 0 {
			if err := s.offerPairs(w, run); err != nil {
				return err
			}
		}
		n := len(w.skipped)
		w.end()
		for range len(w.skipped) - n {
			skipped = append(skipped, i)
		}
	}
	// Offers left out are listed in the price list's order, whatever the order
	// they were planned in.
	sortSkipped(w.skipped[from:], w.causes[len(w.causes)-len(skipped):], skipped)
	return nil
}

// sortSkipped orders skipped (and causes, beside it) by the offers' places in
// the list, idx.
func sortSkipped(skipped []Skipped, causes []error, idx []int) {
	perm := seq(len(idx))
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(idx[a], idx[b]) })
	sk, cs := slices.Clone(skipped), slices.Clone(causes)
	for j, k := range perm {
		skipped[j], causes[j] = sk[k], cs[k]
	}
}

// byFloor returns the offers kept, cheapest floor first (then in list order):
// each offer's floor is the least of its replicas' fleet floors (floorOn).
func (s settings) byFloor(w *sweep, run *serveRun) []int {
	type keyed struct {
		i     int
		floor int64
	}
	ks := make([]keyed, 0, len(w.in.kept))
	var buf [2 * len(servingTensor)]*served
	for _, i := range w.in.kept {
		w.begin(i)
		fl := int64(math.MaxInt64)
		for _, v := range s.replicas(w, run, buf[:]) {
			if v.err == nil {
				fl = min(fl, s.floorOn(w, run, v).minor)
			}
		}
		ks = append(ks, keyed{i, fl})
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(a.floor, b.floor) })
	out := make([]int, len(ks))
	for j, k := range ks {
		out[j] = k.i
	}
	return out
}

// noFit explains an empty serving plan: per card, the closest it came (the best
// latency it reaches against the targets, the memory a replica needs, the GPUs the
// rate needs past the offers' cap), the budget, and the best latency any card
// reaches.
func (s settings) noFit(run *serveRun, rs *inputs, skipped []Skipped, causes []error) *NoFitError {
	e := &NoFitError{causes: causes}
	var closest *served
	closeness := func(v *served) float64 {
		ttft, tpot := v.best(&s)
		r := 0.0
		if s.Serving.TTFT > 0 {
			r = math.Max(r, float64(ttft)/float64(s.Serving.TTFT))
		}
		if s.Serving.TPOT > 0 {
			r = math.Max(r, float64(tpot)/float64(s.Serving.TPOT))
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
			for _, ex := range [...]int{0, t} {
				if ex == 1 {
					continue
				}
				k := replicaKey{card.ID, t, ex}
				v := run.byKey[k]
				switch {
				case v == nil:
				case errors.Is(v.err, compute.ErrUnreachable):
					if unreach == nil || closeness(v) < closeness(unreach) {
						unreach = v
					}
				case v.err != nil && !errors.Is(v.err, errCapped):
					if nofit == nil {
						nofit = v.err
					}
				case run.capped[k].need > 0:
					if capv == nil || run.capped[k].need < over.need {
						capv, over = v, run.capped[k]
					}
				}
			}
		}
		switch {
		case capv != nil:
			e.Reasons = append(e.Reasons, fmt.Sprintf("%s: %v requests/s need %s of %s (%s), over the %d its offers allow",
				card.Name, s.Serving.Rate, text.Count(capv.peak, "replica", "replicas"), text.Count(capv.tensor, "GPU", "GPUs"),
				text.Count(over.need, "GPU", "GPUs"), over.cap))
		case unreach != nil:
			ttft, tpot := unreach.best(&s)
			e.Reasons = append(e.Reasons, fmt.Sprintf("%s: misses the targets (TTFT %s, TPOT %s at %s) even at the lowest load: at best TTFT %v and TPOT %v on %s per replica",
				card.Name, text.Target(s.Serving.TTFT), text.Target(s.Serving.TPOT), s.pctName(), ms(ttft), ms(tpot), text.Count(unreach.tensor, "GPU", "GPUs")))
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
		ttft, tpot := closest.best(&s)
		e.Suggestions = append(e.Suggestions, fmt.Sprintf("the best latency reachable is TTFT %v and TPOT %v at %s, on %d × %s (at the lowest load); loosen the targets or shorten the prompts",
			ms(ttft), ms(tpot), s.pctName(), closest.tensor, closest.card.Name))
		e.causes = append(e.causes, compute.ErrUnreachable)
	}
	if sawNoFit {
		e.causes = append(e.causes, compute.ErrNoFit)
	}
	return e
}

// best is the best latency an unreachable replica reached, at the traffic's
// percentile: one sequence alone (Best's point) when even that missed, else
// the lowest load the search tried.
func (v *served) best(s *settings) (ttft, tpot time.Duration) {
	if v.reach.Stable {
		return s.percentile(v.reach.TTFT), s.percentile(v.reach.TPOT)
	}
	return v.point.TTFT, v.point.TPOT
}
