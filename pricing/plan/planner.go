package plan

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// ErrNoFit reports that no offer can run the job: it does not fit in memory, misses
// the deadline, exceeds the budget, or no offer can serve the usage. The error is a
// *NoFitError that says why and what would fit.
var ErrNoFit = errors.New("no option fits")

// Planner ranks rental options for a job over a list of offers. Catalog resolves the
// offers' card names; nil means catalog.Default(). A Planner is a value: Plan
// neither changes it nor keeps state between calls, so one Planner may serve many
// goroutines.
type Planner struct {
	Catalog *catalog.Catalog // nil: catalog.Default()
	Offers  []pricing.Offer
	// Rates ranks offers priced in several currencies in Rates.Base; the zero
	// value allows one currency only.
	Rates pricing.Rates
	// Calibrations are measured speeds by catalog card ID (compute.Job.Fit and
	// compute.Serving.Fit make them from one run on the card): a card's scales
	// compute's model wherever the request leaves Utilization and Band zero
	// (Train for a training step, Decode for a decode step), and its options
	// say so. A key that is no card ID of the catalog is an error.
	Calibrations map[string]compute.Calibration
}

// Report is a plan with what went into it.
type Report struct {
	Options    []Option  `json:"options"`
	Considered int       `json:"considered"` // candidates (offer, GPU count, layout; serving: offer, GPUs per replica) evaluated
	Skipped    []Skipped `json:"skipped"`    // offers left out before ranking, each with its reason
}

// Skipped is an offer left out of a plan, and why: a card the catalog does not
// know, a currency without a rate, a tariff that cannot serve the usage.
type Skipped struct {
	Offer  pricing.Offer `json:"offer"`
	Reason string        `json:"reason"`
	// Err is the error behind Reason, for errors.Is: catalog.ErrNotFound for an
	// offer of a card the catalog does not know.
	Err error `json:"-"`
}

// Option is one way to run the job: an offer at a GPU count and parallel layout,
// with the memory, the time, the money and the warnings that explain it.
type Option struct {
	Offer  pricing.Offer `json:"offer"`
	CardID string        `json:"card_id"` // the catalog card the offer resolved to
	// GPUs counts the GPUs rented and paid for: on an offer sold in instances
	// (pricing.Offer.GPUsPerInstance) whole instances, which may hold more GPUs
	// than the job uses; Layout says how many it uses, and a warning names the
	// idle ones.
	GPUs   int             `json:"gpus"`
	Layout sizing.Parallel `json:"layout"`
	// PerGPU is the memory each GPU needs; Capacity what each has; Headroom the
	// fraction of Capacity left free, 1 − PerGPU.Total()/Capacity.
	PerGPU   sizing.Breakdown `json:"per_gpu"`
	Capacity sizing.Bytes     `json:"capacity_bytes"`
	Headroom float64          `json:"headroom"`
	// Duration is the job's time at the request's utilization; DurationLow and
	// DurationHigh are the times at the high and low ends of the utilization band.
	// All are zero for a request without Tokens. Inference decode is memory-bound
	// at small batches, so its band is narrow or empty: the utilization of peak
	// FLOP/s barely changes it (compute.Decode).
	Duration     time.Duration `json:"duration"`
	DurationLow  time.Duration `json:"duration_low"`
	DurationHigh time.Duration `json:"duration_high"`
	// Efficiency is the multi-GPU scaling efficiency (1 for one GPU).
	Efficiency float64 `json:"efficiency"`
	// MicroBatch is, for training, the sequences each data-parallel replica
	// runs at once, the largest that fits (down to 1 before more GPUs), and
	// Accumulation the micro-batches it runs per optimizer step: MicroBatch ×
	// Accumulation is the workload's Batch, or Request.GlobalBatch over the
	// data-parallel degree. Both are zero for inference.
	MicroBatch   int `json:"micro_batch"`
	Accumulation int `json:"accumulation"`
	// HostMemory is the host RAM each GPU needs: with the optimizer offloaded,
	// its state and the gradients with their pinned buffers (PerGPU.Host);
	// zero otherwise.
	HostMemory sizing.Bytes `json:"host_memory_bytes"`
	// Rental is the usage priced: the request's, or a run as long as the job.
	Rental pricing.Usage `json:"rental"`
	// Cost is the cheapest cover of Rental for all GPUs, with line items.
	Cost pricing.Quote `json:"cost"`
	// HourlyOnly is the same rental paid by the hour (zero when the offer has no
	// hourly price), to set beside the best packages in Cost.
	HourlyOnly pricing.Quote `json:"hourly_only"`
	// CostLow and CostHigh are the cheapest covers of DurationLow and
	// DurationHigh, the fast and slow ends of the time band, for all GPUs
	// (a week's package or hourly use for a job of five to eight days): equal
	// to Cost.Total when the rental does not follow the job (Usage or Rental
	// set, a service, memory only). CostHigh is zero when the slow end is past
	// what can be priced (pricing.MaxDuration).
	CostLow  pricing.Money `json:"cost_low"`
	CostHigh pricing.Money `json:"cost_high"`
	// Waste is ExpectedCost minus that of the first (cheapest) option: what this
	// choice costs beyond the cheapest one that fits. When the option has more
	// GPUs or a bigger card than that one, it is the seeds' over-provisioning
	// cost; between offers of the same card it is the price difference.
	Waste pricing.Money `json:"waste"`
	// Interruptions is the expected number of interruptions during the job (from
	// the offer's InterruptionsPerDay), TimeLost the expected time they cost
	// (half a checkpoint interval of work plus a restart each), and ExpectedCost
	// Cost plus the rental of TimeLost. Options are ranked on ExpectedCost.
	Interruptions float64       `json:"interruptions"`
	TimeLost      time.Duration `json:"time_lost"`
	ExpectedCost  pricing.Money `json:"expected_cost"`
	// RankedCost is ExpectedCost in the currency options are ranked in
	// (Planner.Rates.Base, or the offers' own currency without rates), and Rate the
	// exchange rate that converted it, as an exact decimal ("" when none did).
	// Waste is in that currency too.
	RankedCost pricing.Money `json:"ranked_cost"`
	Rate       string        `json:"rate"`
	Warnings   []string      `json:"warnings"`

	// A serving request's figures (zero otherwise). Replicas is the tensor-parallel
	// groups the fleet rents at its busiest (spares included; GPUs = Replicas ×
	// Layout.Tensor for a fleet of one replica shape), Serving the closed-loop
	// point (compute.PreparedServing.At) of the slowest group's replica at the
	// mean sequences Load says it runs (Fit: the highest concurrency within the
	// targets). PerHour is Cost over the rental's hours and PerMillion Cost over
	// the million tokens the traffic generates in them (Rate × OutputTokens,
	// with a daily profile times its mean), each rounded once to the currency's
	// minor unit with the tariff's rounding, in the offer's currency.
	Replicas   int                   `json:"replicas,omitempty"`
	Serving    *compute.ServingPoint `json:"serving,omitempty"`
	PerHour    pricing.Money         `json:"per_hour"`
	PerMillion pricing.Money         `json:"per_million"`
	// Fleet is a serving option's groups of replicas: one for a plain
	// service all day, several on one offer for a daily profile (the base all
	// day, the rest in the busy hours), a prefill and a decode group for a
	// disaggregated service, and groups on several offers and cards with
	// Request.Mix. GPUs and Cost are the fleet's sums; Offer, CardID and
	// Layout its first group's.
	Fleet []Group `json:"fleet,omitempty"`
	// Launch holds the command lines that start each group's replicas as
	// they were priced, one per engine per group.
	Launch []Command `json:"launch,omitempty"`
	// Load is what each replica of the slowest group does under its share of
	// the peak rate (compute.LoadPoint: the latencies with queueing, at every
	// percentile).
	Load *compute.LoadPoint `json:"load,omitempty"`
}

// NoFitError explains an empty plan: why each offer was left out, and what would
// fit.
type NoFitError struct {
	Reasons     []string // why options were left out, one sentence per cause
	Suggestions []string // what would fit: a quantization, a context, a GPU count
	causes      []error  // errors behind the offers left out (catalog.ErrNotFound, ...)
}

// Error describes the failure, quoting the input where there is one.
func (e *NoFitError) Error() string {
	msg := "plan: no option fits"
	if len(e.Reasons) > 0 {
		msg += ": " + strings.Join(e.Reasons, "; ")
	}
	if len(e.Suggestions) > 0 {
		msg += "; what would fit: " + strings.Join(e.Suggestions, "; ")
	}
	return msg
}

// Unwrap returns ErrNoFit and the errors that left offers out, so that
// errors.Is(err, catalog.ErrNotFound) holds when an unknown card was one reason.
func (e *NoFitError) Unwrap() []error { return append([]error{ErrNoFit}, e.causes...) }

// addSkipped gives the reason of each offer left out.
func (e *NoFitError) addSkipped(skipped []Skipped) {
	for _, sk := range skipped {
		e.Reasons = append(e.Reasons, offerName(sk.Offer)+": "+sk.Reason)
	}
}

// Plan returns Report's options: the best rental options for the job, ranked.
func (p Planner) Plan(r Request) ([]Option, error) {
	rep, err := p.Report(r)
	return rep.Options, err
}

// Report tries each offer at each GPU count from 1 to its limit (the offer's
// MaxGPUs, DefaultPlanGPUs when it states none, capped by Request.MaxGPUs), or
// at the count Request.GPUs or Request.Parallel pins, and, for each count,
// every parallel layout that fits (the pinned one alone, when there is one),
// keeping the fastest:
//
//   - training (full, LoRA, QLoRA): data parallel; ZeRO stages 1, 2 and 3 over the
//     data-parallel GPUs; tensor parallel of 2, 4 or 8 (dividing the heads and KV
//     heads) with sequence parallelism, the rest data parallel, with and without
//     ZeRO-3; and ZeRO-3 (or one GPU) with the optimizer offloaded to host memory;
//   - inference: one replica per GPU; tensor parallel over all the GPUs of one
//     server (heads and KV heads divisible); pipeline parallel over all of them.
//
// For training each layout runs its largest micro-batch that fits (a divisor
// of the sequences each data-parallel replica runs per optimizer step, the
// workload's Batch or Request.GlobalBatch over the data-parallel degree, and
// no larger than the workload's Batch), accumulating to the step: down to one
// sequence before more GPUs. A layout fits when sizing.Estimate's Total is at
// most the card's memory less the headroom, and its offloaded state
// (Breakdown.Host) at most the offer's Offer.HostMemory when the offer states
// it; among the layouts that fit, the fastest wins, then the larger
// micro-batch, then the one listed first. The duration comes from compute: for training, compute.Job on the card's
// dense peak at the workload's precision with the scaling efficiency of its links
// (NVLink where the card has it, a bridge for pairs only, PCIe otherwise); for
// inference, compute.Decode's memory-bound decode speed across the replicas. The
// rental is priced with the offer's tariff for all GPUs, or, for an offer sold in
// instances of m GPUs (pricing.Offer.GPUsPerInstance), for the ⌈n/m⌉ whole
// instances that hold n GPUs, the tariff pricing one instance: Option.GPUs then
// counts the instances' GPUs, each instance is one server (more than one talk
// over InterServerLink), and the offer's MaxGPUs of zero sets no cap but
// MaxPlanGPUs. Request.MaxGPUs caps the GPUs rented.
//
// A serving request (Request.Serving) tries tensor-parallel replicas of 1, 2, 4
// and 8 GPUs instead (or the pinned count), as many as the rate needs within
// the targets at the traffic's percentile, and spares on offers whose
// replicas can be taken away; each option is a fleet of groups (one offer's
// unless Request.Mix), and the package documentation says how. With Mix, the
// planner also searches fleets over several offers (a base rented all day
// and a burst for the busy hours): exactly, over the MixShapes replicas of
// least cost per request a second and for each the MixOffers offers of
// cheapest replica all day and by the hour, every base count and every pair
// of base and burst; the cheapest such fleet joins the options when it costs
// less than every single offer's, so a mix never costs more than the best
// single offer.
//
// Options whose expected duration (at the request's utilization, with the time
// interruptions are expected to lose) misses the deadline, or whose expected cost
// is over the budget, are left out. Of the rest, Rank orders the options; without
// EveryCount each offer keeps only its best GPU count, and Limit cuts the list.
// Ties fall to expected cost, duration, fewer GPUs, provider, region, catalog card,
// card name as written, and last the offer's place in the list, so the order is
// stable. Only the options returned are explained (quotes, warnings, waste).
//
// Offers of a card the catalog does not know, offers in a currency Rates cannot
// convert, offers that cannot give the pinned GPUs, and offers that cannot
// price the usage at any GPU count that holds the job in time (no price for
// the pattern, an expected time with interruptions past the pricing limit, too
// little host RAM for the offloaded optimizer, replicas too seldom up to keep a
// service's availability) are left out and listed in Report.Skipped with the
// reason, whatever the Limit. An offer whose card name covers
// several boards ("A100 80GB") is planned on the slowest of them, with a warning.
//
// Errors: a *NoFitError (ErrNoFit) when no option is left; pricing.ErrInvalid for
// a request or offer that makes no sense (an empty offer list, an invalid tariff);
// pricing.ErrCurrencyMismatch for offers (or a budget) in more than one currency
// without Rates, naming the currencies and the offers' lines.
func (p Planner) Report(r Request) (Report, error) {
	s, err := p.settle(r)
	if err != nil {
		return Report{}, err
	}
	// The planner runs in phases: resolve the inputs (each offer's card and
	// class, the offers kept), fit and price every candidate (offer, GPU count,
	// layout), rank, and explain only the options returned.
	in, err := p.resolve(s)
	if err != nil {
		return Report{}, err
	}
	work, err := s.work()
	if err != nil {
		return Report{}, err
	}
	w := newSweep(&s, &p, in)
	var run *serveRun
	if s.Serving != nil { // a service: serving.go plans it, the rest is shared
		run = newServeRun()
		if err = s.serveOffers(w, run); err == nil && s.Mix {
			err = s.mix(w, run)
		}
	} else {
		err = s.trainOffers(w, work)
	}
	if err != nil {
		return Report{}, err
	}
	rep := Report{Considered: w.considered, Skipped: w.skipped}
	switch {
	case len(w.cands) == 0 && run != nil:
		return rep, s.noFit(run, in, rep.Skipped, w.causes)
	case len(w.cands) == 0:
		e := &NoFitError{Reasons: w.diag.reasons(s), Suggestions: s.suggest(in.cards, in.kept, &w.diag), causes: w.causes}
		e.addSkipped(rep.Skipped)
		return rep, e
	}
	order := s.choose(w.cands, p.Offers, in.cards)
	rep.Options, err = p.explainAll(s, in, w.cands, order, run, work)
	if err != nil {
		return Report{}, err
	}
	return rep, nil
}

// Fit answers "does it fit, and how long?" without prices: for each card the
// request names in Cards (any name the catalog knows; a family name means each
// of its cards), on the GPUs the request pins (GPUs or Parallel) or else the
// fewest that hold the job (up to MaxGPUs, or MaxPlanGPUs), the layout, the
// micro-batch, the memory per GPU and the time that Plan would find, in the
// order the cards are named. The offers, Deadline, Budget and rental are not
// used; every money field of the options is zero, and Option.Offer names the
// card alone. A serving request gives one replica per card: the smallest
// tensor-parallel degree that holds the model (or the pinned one), at the
// highest concurrency within the targets (Option.Serving).
//
// Errors: pricing.ErrInvalid for a request that makes no sense, empty Cards
// included; catalog.ErrNotFound (with pricing.ErrInvalid) for a card the
// catalog does not know; a *NoFitError (ErrNoFit) naming each card when none
// holds the job. Cards that do not hold it are left out when another does.
func (p Planner) Fit(r Request) ([]Option, error) {
	s, err := p.settle(r)
	if err != nil {
		return nil, err
	}
	if len(r.Cards) == 0 {
		return nil, fmt.Errorf("plan: fit: name the cards to fit the job on (cards): %w", pricing.ErrInvalid)
	}
	cards, err := namedCards(cmp.Or(p.Catalog, catalog.Default()), r.Cards)
	if err != nil {
		return nil, err
	}
	work, err := s.work()
	if err != nil {
		return nil, err
	}
	var opts []Option
	nf := &NoFitError{}
	var d diagnosis
	run := newServeRun()
	kept := make([]*catalog.Card, len(cards))
	for i := range cards {
		kept[i] = &cards[i]
		opt, miss, n, why := s.fitOn(&cards[i], work, run)
		if why == nil {
			opts = append(opts, opt)
			continue
		}
		nf.Reasons = append(nf.Reasons, why.Error())
		nf.causes = append(nf.causes, why)
		if miss != nil {
			d.miss(cards[i], n, miss)
		}
	}
	if len(opts) == 0 {
		nf.Suggestions = s.suggest(kept, seq(len(kept)), &d)
		return nil, nf
	}
	return opts, nil
}

// seq returns 0, 1, …, n−1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// namedCards returns the cards the request's names denote, in order, each
// once: every card a name may denote (catalog.Catalog.Candidates, slowest
// first, as offers' names are read; a family name denotes each of its cards).
func namedCards(cat *catalog.Catalog, names []string) ([]catalog.Card, error) {
	var out []catalog.Card
	for _, name := range names {
		cs, err := cat.Candidates(name)
		if err != nil {
			return nil, fmt.Errorf("plan: request: cards: %w", invalid(err))
		}
		for _, c := range cs {
			if !slices.ContainsFunc(out, func(o catalog.Card) bool { return o.ID == c.ID }) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// fitOn fits the request on card for Fit: the pinned GPUs or the fewest that
// hold the job, or for a service one replica of the smallest tensor degree
// that holds the model. The error says why nothing held it, with the last fit
// tried and its GPU count when that was a job.
func (s *settings) fitOn(card *catalog.Card, work compute.FLOPs, run *serveRun) (Option, *fit, int, error) {
	if s.Serving != nil {
		sizes := servingTensor[:]
		if s.pin > 0 {
			sizes = []int{s.pin}
		}
		var why error
		for _, t := range sizes {
			if s.Model.Heads > 0 && s.Model.Heads%t != 0 {
				continue
			}
			v := s.replica(run, *card, t, 0)
			if v.err != nil {
				why = cmp.Or(why, v.err) // the smallest size's reason
				continue
			}
			f := *v.fit
			f.layout.Data = 1
			opt := s.fitOption(&f, *card)
			opt.Offer.Card, opt.Replicas, opt.Warnings = card.Name, 1, slices.Clone(f.pre)
			pt := v.point
			opt.Serving = &pt
			return opt, nil, 0, nil
		}
		return Option{}, nil, 0, fmt.Errorf("%s: %w", card.Name, cmp.Or(why, errors.New("no tensor-parallel size divides the heads")))
	}
	limit := cmp.Or(s.MaxGPUs, MaxPlanGPUs)
	from, to := 1, limit
	if s.pin > 0 {
		from, to = s.pin, s.pin
	}
	// When no count fits, the miss reported is the closest: the least memory
	// per GPU (the fewest GPUs among equals: a model that cannot be split needs
	// as much on one GPU as on a thousand), else the last count tried.
	var closest *fit
	at := 0
	for n := from; n <= to; n = nextCount(n, to) {
		f := s.fitCard(*card, n, GPUsPerServer, 0, work)
		if f.ok {
			opt := s.fitOption(f, *card)
			opt.Offer.Card, opt.GPUs = card.Name, n
			opt.Warnings = slices.Clone(s.fitWarnings(f, n, *card))
			if f.layout.OffloadOptimizer {
				opt.Warnings = append(opt.Warnings, offloadWarning(f, nil))
			}
			return opt, nil, 0, nil
		}
		if closest == nil || f.need > 0 && (closest.need <= 0 || f.need < closest.need) || f.need <= 0 && closest.need <= 0 {
			closest, at = f, n
		}
	}
	if closest == nil {
		return Option{}, nil, 0, fmt.Errorf("%s: no GPU count to try under the cap of %d", card.Name, limit)
	}
	return Option{}, closest, at, closest.err
}

// settle is the request's settings with the planner's calibrations, each
// checked: its key a card ID of the catalog, its factors valid.
func (p Planner) settle(r Request) (settings, error) {
	s, err := r.settle()
	if err != nil {
		return s, err
	}
	cat := cmp.Or(p.Catalog, catalog.Default())
	var errs []error
	for _, id := range slices.Sorted(maps.Keys(p.Calibrations)) {
		if c, err := cat.Lookup(id); err != nil || c.ID != id {
			errs = append(errs, fmt.Errorf("plan: calibrations: %s is no card ID of the catalog: %w", text.Quote(id, 64), pricing.ErrInvalid))
		}
		if err := p.Calibrations[id].Validate(); err != nil {
			errs = append(errs, fmt.Errorf("plan: calibrations: %s: %w", text.Quote(id, 64), invalid(err)))
		}
	}
	s.calibrations = p.Calibrations
	return s, errors.Join(errs...)
}

// inputs is what the first phase makes of the offers: the catalog card of each
// (by offer index), the fastest board when the name left the board open, the
// class of each offer kept, the offers kept (indices, in list order) and those
// left out, and the cache the later phases share.
type inputs struct {
	cat     *catalog.Catalog
	cards   []*catalog.Card // shared by the offers of one card name
	boards  []*catalog.Card // the fastest board the name allows, when the slowest was assumed
	classes []*class
	kept    []int
	skipped []Skipped
	causes  []error // the errors behind skipped, for NoFitError's Unwrap
	cache   *cache
}

// resolve checks the offers against the request: it reads the request's card
// filter, looks each offer's card up (once per distinct name), keeps the offers
// of the cards asked for whose currency can be ranked, validates every offer,
// and checks the currencies: one for all offers (and the budget) without rates;
// each convertible with them.
func (p Planner) resolve(s settings) (*inputs, error) {
	if len(p.Offers) == 0 {
		return nil, fmt.Errorf("plan: no offers: %w", pricing.ErrInvalid)
	}
	cat := cmp.Or(p.Catalog, catalog.Default())
	want, err := cardFilter(cat, s.Cards)
	if err != nil {
		return nil, err
	}
	if !isZeroRates(p.Rates) {
		if err := p.Rates.Validate(); err != nil {
			return nil, fmt.Errorf("plan: rates: %w", err)
		}
	}
	n := len(p.Offers)
	in := &inputs{cat: cat, cards: make([]*catalog.Card, n), boards: make([]*catalog.Card, n),
		classes: make([]*class, n), kept: make([]int, 0, n), cache: newCache(n)}
	names := make(map[string]*named)
	for i := range p.Offers {
		if err := in.add(&p, i, names, want); err != nil {
			return nil, err
		}
	}
	if len(in.kept) == 0 {
		e := &NoFitError{causes: in.causes}
		e.addSkipped(in.skipped)
		if len(e.Reasons) == 0 {
			e.Reasons = []string{"no offer is of the cards asked for (" + strings.Join(s.Cards, ", ") + ")"}
		}
		return nil, e
	}
	return in, p.checkCurrencies(s, in)
}

// cardFilter returns the catalog IDs of the cards a request asks for
// (namedCards); nil when it asks for none.
func cardFilter(cat *catalog.Catalog, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	cards, err := namedCards(cat, names)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(cards))
	for _, c := range cards {
		want[c.ID] = true
	}
	return want, nil
}

// named is what the catalog says of one card name as an offer wrote it
// (lookupBoard).
type named struct {
	card   catalog.Card
	faster *catalog.Card
	ids    []string
	err    error
}

// add resolves offer i: its card (looked up once per distinct name), whether it
// is kept (a card asked for, a currency that can be ranked) or left out and
// why, and its class. Every offer is validated, kept or not, and an invalid one
// fails the whole call; a tariff and a card name are validated with the first
// offer that has them (a provider's regions often share a tariff, many offers a
// card).
func (in *inputs) add(p *Planner, i int, names map[string]*named, want map[string]bool) error {
	o := &p.Offers[i]
	l, seen := names[o.Card]
	if !seen {
		l = new(named)
		l.card, l.faster, l.ids, l.err = lookupBoard(in.cat, o.Card)
		names[o.Card] = l
	}
	var why error // why the offer is left out
	keep := false
	_, rated := p.Rates.Per[o.Tariff.Currency]
	switch {
	case l.err != nil:
		why = l.err
	case want != nil && !slices.ContainsFunc(l.ids, func(id string) bool { return want[id] }):
		// not a card asked for: filtered, not skipped
	case !isZeroRates(p.Rates) && o.Tariff.Currency != p.Rates.Base && !rated:
		why = fmt.Errorf("no exchange rate for %s into %s: %w", o.Tariff.Currency, p.Rates.Base, pricing.ErrCurrencyMismatch)
	default:
		keep = true
	}
	v := *o
	if seen {
		v.Card = "gpu" // a valid name, validated with the first offer that has it
	}
	tid := in.cache.tariff(&o.Tariff)
	t := &in.cache.tariffs[tid]
	err := v.ValidateFields()
	switch {
	case err != nil:
	case keep: // an offer kept is priced: its tariff is prepared, which validates it
		_, err = t.pricer()
	default:
		err = t.check()
	}
	if err != nil {
		return fmt.Errorf("plan: offer %s: %w", offerName(*o), err)
	}
	if why != nil {
		in.skipped = append(in.skipped, Skipped{Offer: *o, Reason: why.Error(), Err: why})
		in.causes = append(in.causes, why)
	}
	if keep {
		in.cards[i], in.boards[i] = &l.card, l.faster
		in.classes[i] = in.cache.class(tid, &l.card, o)
		in.kept = append(in.kept, i)
	}
	return nil
}

// pricer returns the tariff of kept offer i, prepared as resolve validated it.
func (in *inputs) pricer(i int) *pricing.Pricer {
	return &in.cache.tariffs[in.classes[i].tariff].pr
}

// checkCurrencies checks that the offers kept can be ranked together: one
// currency without rates, and a budget in the currency they are ranked in.
func (p Planner) checkCurrencies(s settings, in *inputs) error {
	first := p.Offers[in.kept[0]].Tariff.Currency
	mixed := slices.ContainsFunc(in.kept, func(i int) bool { return p.Offers[i].Tariff.Currency != first })
	if isZeroRates(p.Rates) && mixed {
		return fmt.Errorf("plan: offers in %s: give exchange rates to rank them together: %w",
			describeCurrencies(p.Offers, in.kept), pricing.ErrCurrencyMismatch)
	}
	if !s.Budget.Amount.IsZero() {
		// Without rates, the offers' one currency (valid rates have a base).
		if base := cmp.Or(p.Rates.Base, first); s.Budget.Currency != base {
			return fmt.Errorf("plan: budget in %s, offers ranked in %s: %w", s.Budget.Currency, base, pricing.ErrCurrencyMismatch)
		}
	}
	return nil
}

// trainOffers fits and prices a job (training or inference) on every offer
// kept, at each GPU count up to the offer's limit, as Report says.
func (s *settings) trainOffers(w *sweep, work compute.FLOPs) error {
	for _, i := range w.in.kept {
		w.begin(i)
		card, server := w.in.cards[i], serverOf(*w.o)
		for n := w.from; n <= w.to; n = nextCount(n, w.to) {
			at := w.class.slot(n)
			if at.fit == nil {
				// Within one server the server's size changes nothing (the layouts
				// and the link are those of n GPUs), so such fits are shared by all
				// sizes.
				at.fit = s.fitOf(w.in.cache, card, n, min(server, n), sizing.Bytes(w.o.HostMemory), work)
			}
			f := at.fit
			w.considered += max(f.tried, 1)
			if !f.ok && f.hostNeed > 0 { // the offer's host RAM, not the card, left it out
				w.why = fmt.Errorf("%w: %w", f.err, pricing.ErrUnavailable)
				continue
			}
			if !f.ok {
				w.diag.miss(*card, n, f)
				continue
			}
			if s.Deadline > 0 && f.duration > s.Deadline {
				w.diag.late(*card, n, w.limit, f.duration)
				continue
			}
			c, ok, err := w.price(at, n, f)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if !s.Budget.Amount.IsZero() && c.key.Amount.GreaterThan(s.Budget.Amount) {
				w.diag.over(*card, n, c.key)
				continue
			}
			w.add(c)
		}
		w.end()
	}
	return nil
}

// fitOf returns the fit of n GPUs of card in servers of server GPUs with host
// bytes of host RAM per GPU (zero: unknown), worked out once per Report.
func (s *settings) fitOf(c *cache, card *catalog.Card, n, server int, host sizing.Bytes, work compute.FLOPs) *fit {
	k := fitKey{card, n, server, host}
	f := c.fits[k]
	if f == nil {
		f = s.fitCard(*card, n, server, host, work)
		c.fits[k] = f
	}
	return f
}

// explainAll writes the options returned, cands[order], in rank order: each
// with its quotes, market check, waste against the cheapest and warnings.
func (p Planner) explainAll(s settings, in *inputs, cands []candidate, order []int, run *serveRun, work compute.FLOPs) ([]Option, error) {
	checks, err := p.marketChecks(in, s, cands, order)
	if err != nil {
		return nil, err
	}
	cheapest := &cands[order[0]]
	for _, k := range order {
		if cands[k].key.Amount.LessThan(cheapest.key.Amount) {
			cheapest = &cands[k]
		}
	}
	opts := make([]Option, len(order))
	for j, k := range order {
		c := &cands[k]
		pr := in.pricer(c.offer) // prepared when the candidate was priced
		if err := s.explain(&opts[j], c, p.Offers[c.offer], pr, *in.cards[c.offer], in.boards[c.offer], checks[c.offer], cheapest, in.cache, work); err != nil {
			return nil, err
		}
		if c.members != nil {
			if err := s.explainServing(&p, in, &opts[j], c, run); err != nil {
				return nil, err
			}
		}
	}
	return opts, nil
}

// marketChecks runs the market check for the options returned (cands[order]):
// each over the offers kept in its market, that of the catalog card it resolved to
// and its currency ("A100 80GB" and "NVIDIA A100-SXM4-80GB" are one market;
// interruptible capacity is a market of its own, since spot prices are meant to
// be lower). It returns the checks of the returned options' offers, by offer
// index.
func (p Planner) marketChecks(in *inputs, s settings, cands []candidate, order []int) (map[int]pricing.PriceCheck, error) {
	type marketKey struct {
		card, currency string
		spot           bool
	}
	key := func(i int) marketKey {
		return marketKey{in.cards[i].ID, p.Offers[i].Tariff.Currency, p.Offers[i].Interruptible}
	}
	shown := make(map[marketKey]string, len(order)) // each market shown, named
	out := make(map[int]pricing.PriceCheck, len(order))
	var cards []string // the cards of the markets shown
	for _, k := range order {
		m := key(cands[k].offer)
		name := m.card + " " + m.currency
		if m.spot {
			name += " (interruptible)"
		}
		shown[m] = name
		out[cands[k].offer] = pricing.PriceCheck{}
		if !slices.Contains(cards, m.card) {
			cards = append(cards, m.card)
		}
	}
	var markets []string
	var index []int
	for _, i := range in.kept {
		if !slices.Contains(cards, in.cards[i].ID) {
			continue // most offers: another card, without building the key
		}
		if m, ok := shown[key(i)]; ok {
			markets, index = append(markets, m), append(index, i)
		}
	}
	offers := make([]pricing.Offer, len(index)) // copied once, at their number
	for j, i := range index {
		offers[j] = p.Offers[i]
	}
	got, err := pricing.MarketCheckIn(offers, markets, s.threshold)
	if err != nil {
		return nil, err
	}
	for j, i := range index {
		if _, ok := out[i]; ok {
			out[i] = got[j]
		}
	}
	return out, nil
}

// gpuLimit is the most GPUs tried on an offer: its MaxGPUs (DefaultPlanGPUs when
// it states none), capped by the request's MaxGPUs and by MaxPlanGPUs. For an
// offer sold in instances a MaxGPUs of zero is no cap, and the limit is a whole
// number of instances, zero when the caps leave not even one.
func (s *settings) gpuLimit(o pricing.Offer) int {
	limit := o.MaxGPUs
	if limit == 0 {
		limit = DefaultPlanGPUs
		if o.GPUsPerInstance > 0 {
			limit = MaxPlanGPUs
		}
	}
	limit = min(limit, cmp.Or(s.MaxGPUs, MaxPlanGPUs), MaxPlanGPUs) // settle checked MaxGPUs >= 0
	if per := o.GPUsPerInstance; per > 0 {
		limit -= limit % per
	}
	return limit
}

// rent is what a job on n GPUs rents on offer o: the GPUs paid for and the units
// the tariff prices. An offer sold in instances of m GPUs rents whole instances,
// ⌈n/m⌉ of them, priced as that many units; any other offer rents n GPUs, priced
// per GPU. This is the one place where an offer's shape meets a GPU count.
func rent(o pricing.Offer, n int) (gpus, units int) {
	if m := o.GPUsPerInstance; m > 0 {
		k := (n + m - 1) / m
		return k * m, k
	}
	return n, n
}

// serverOf is the GPUs one server of offer o holds: its instance when it is sold
// in instances (more than one instance talks over the network between servers),
// GPUsPerServer otherwise.
func serverOf(o pricing.Offer) int {
	if o.GPUsPerInstance > 0 {
		return o.GPUsPerInstance
	}
	return GPUsPerServer
}

// nextCount is the GPU count tried after n: every count up to one server
// (GPUsPerServer), then doubling, and the limit itself last.
func nextCount(n, limit int) int {
	switch {
	case n < GPUsPerServer:
		return n + 1
	case n == limit:
		return limit + 1
	case 2*n > limit:
		return limit
	}
	return 2 * n
}

// lookupBoard resolves a card name through the catalog's reading of it
// (catalog.Catalog.Candidates): the slowest card the name may denote, which
// the offer is planned on (the conservative time), the fastest beside it when
// the name leaves the board open ("A100 80GB", "H800"), so the option can say
// what it would change, and every candidate's ID, which the Cards filter
// matches.
func lookupBoard(cat *catalog.Catalog, name string) (slow catalog.Card, fast *catalog.Card, ids []string, err error) {
	cs, err := cat.Candidates(name)
	if err != nil {
		return catalog.Card{}, nil, nil, err
	}
	ids = make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	if len(cs) > 1 {
		fast = &cs[len(cs)-1]
	}
	return cs[0], fast, ids, nil
}

func isZeroRates(r pricing.Rates) bool { return r.Base == "" && len(r.Per) == 0 }

// describeCurrencies names the currencies of offers[kept], each with the lines of
// its offers (or their places in the list, for offers not read from a file): "CNY
// (lines 2, 3) and USD (line 4)", or "EUR (offer 1)".
func describeCurrencies(offers []pricing.Offer, kept []int) string {
	m := make(map[string][]int) // currency → its offers
	for _, i := range kept {
		c := offers[i].Tariff.Currency
		m[c] = append(m[c], i)
	}
	codes := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(codes))
	for k, c := range codes {
		lines, places := []string{}, []string{}
		for _, i := range m[c] {
			if len(lines)+len(places) == 5 {
				if len(lines) > 0 {
					lines = append(lines, "…")
				} else {
					places = append(places, "…")
				}
				break
			}
			if l := offers[i].Line; l > 0 {
				lines = append(lines, strconv.Itoa(l))
			} else {
				places = append(places, strconv.Itoa(i+1))
			}
		}
		where := []string{}
		if len(lines) > 0 {
			where = append(where, text.Noun(len(lines), "line", "lines")+" "+strings.Join(lines, ", "))
		}
		if len(places) > 0 {
			where = append(where, text.Noun(len(places), "offer", "offers")+" "+strings.Join(places, ", "))
		}
		parts[k] = c + " (" + strings.Join(where, "; ") + ")"
	}
	return strings.Join(parts, " and ")
}

// work returns the job's training work in FLOPs (zero for inference, whose time
// comes from decode speed, and for a memory-only request): compute.TrainingFLOPs
// (6·N·D plus attention) for full training, compute.AdapterTrainingFLOPs (4·N·D
// plus attention: a frozen base needs no weight gradients) for LoRA and QLoRA.
//
// The work is model FLOPs and the utilization is model FLOPs utilization, as
// compute.Job reads them: published MFU figures come from runs that recompute
// activations (PaLM reports 46.2% MFU against 57.8% hardware utilization with
// rematerialization, Chowdhery et al. 2022), so the band already absorbs that
// cost. A job without recomputation may run faster than the band says; give a
// higher Utilization for it.
func (s *settings) work() (compute.FLOPs, error) {
	if s.Tokens == 0 || s.Workload.Task == sizing.Inference {
		return 0, nil
	}
	count := compute.TrainingFLOPs
	if s.Workload.Task == sizing.LoRA || s.Workload.Task == sizing.QLoRA {
		count = compute.AdapterTrainingFLOPs
	}
	// The attention term needs the architecture; a model known by its parameter
	// count alone gets the plain 6·N·D (4·N·D), which leaves that term out.
	seq := s.Workload.SeqLen
	if !s.Model.HasArchitecture() {
		seq = 0
	}
	f, err := count(s.Model, s.Tokens, seq)
	if err != nil {
		return 0, fmt.Errorf("plan: training work: %w", invalid(err))
	}
	return f, nil
}

// bound is, for a ranking by cost with a limit, the Limit smallest ranking
// costs known (offers' best ones, without EveryCount): a candidate dearer than
// the last of them, or than its offer's best so far, cannot be returned, and
// price skips it on its floor.
type bound struct {
	top   []*priced // exact ones (whole minor units), ascending; nil: no bound
	limit int
}

func (s *settings) bound() bound {
	if s.Rank != RankCost || s.limit <= 0 {
		return bound{}
	}
	// The list grows to at most Limit costs, but a Limit far past the candidates
	// (math.MaxInt, for all of them) must not be allocated up front.
	return bound{make([]*priced, 0, min(s.limit, DefaultLimit)+1), s.limit}
}

// keep counts candidate c among the costs known.
func (b *bound) keep(c *candidate) {
	if b.top == nil || !c.exact {
		return
	}
	j, _ := slices.BinarySearchFunc(b.top, c.minor, func(p *priced, minor int64) int { return cmp.Compare(p.minor, minor) })
	b.top = slices.Insert(b.top, j, c.priced)[:min(len(b.top)+1, b.limit)]
}

// sweep is the second phase, the frame the training and serving paths share
// around each offer's sizes (GPU counts; serving: GPUs per replica): the
// candidates kept, the bound on the costs that can still be returned, and the
// offers left out. For each offer kept, begin it, try its sizes, pricing each
// through price and keeping it with add, and end it.
type sweep struct {
	s          *settings
	p          *Planner
	in         *inputs
	best       bool        // one candidate per offer is kept
	top        bound       // the costs known
	cands      []candidate // grown as candidates survive: most offers are priced out by the floor
	considered int         // Report.Considered
	skipped    []Skipped
	causes     []error // the errors behind skipped, for NoFitError's Unwrap
	diag       diagnosis

	// The offer being planned.
	i      int
	o      *pricing.Offer
	pr     *pricing.Pricer
	class  *class
	limit  int // the most GPUs it may rent (gpuLimit)
	from   int // the GPU counts tried: from, then nextCount up to to; the pin alone when there is one
	to     int
	first  int   // where its candidates start in cands
	served bool  // a size could price the usage: kept, or left out on its floor or the budget
	why    error // why a size could not
}

func newSweep(s *settings, p *Planner, in *inputs) *sweep {
	return &sweep{s: s, p: p, in: in, best: !s.EveryCount && s.Rank != RankFrontier, top: s.bound(),
		skipped: in.skipped, causes: in.causes}
}

// begin starts offer i.
func (w *sweep) begin(i int) {
	w.i, w.o, w.pr, w.class = i, &w.p.Offers[i], w.in.pricer(i), w.in.classes[i]
	w.limit = w.s.gpuLimit(*w.o)
	w.first, w.served, w.why = len(w.cands), false, nil
	w.from, w.to = 1, w.limit
	switch {
	case w.limit == 0: // instances larger than the request allows
		w.why = fmt.Errorf("sold in instances of %d GPUs, more than the %d allowed: %w", w.o.GPUsPerInstance, w.s.MaxGPUs, pricing.ErrUnavailable)
	case w.s.pin > 0:
		w.from, w.to = w.s.pin, w.s.pin
		if w.why = w.s.cannotGive(*w.o, w.limit); w.why != nil {
			w.to = 0
		}
	}
}

// cannotGive says why offer o, which may rent up to limit GPUs, cannot give
// the request's pinned GPUs (each replica's, for a service): more than it
// rents, or a tensor-parallel group larger than its instances (tensor
// parallelism stays inside a server). Nil when it can.
func (s *settings) cannotGive(o pricing.Offer, limit int) error {
	if rented, _ := rent(o, s.pin); rented > limit {
		return fmt.Errorf("rents at most %s here, and the request pins %d: %w", text.Count(limit, "GPU", "GPUs"), s.pin, pricing.ErrUnavailable)
	}
	t := s.pin // a serving replica is one tensor-parallel group
	if s.Serving == nil {
		t = 1
		if s.Parallel != nil {
			t = max(s.Parallel.Tensor, 1)
		}
	}
	if t > serverOf(o) {
		return fmt.Errorf("sold in instances of %d GPUs, too few for the pinned tensor-parallel group of %d: %w", o.GPUsPerInstance, t, pricing.ErrUnavailable)
	}
	return nil
}

// end finishes the offer: its best candidate counts among the costs known, or,
// when no size could price the usage, it is listed in Skipped with why. A size
// left out on its floor or the budget could (price checks all that Total can
// fail on before the floor), so what is left out does not depend on the Limit.
func (w *sweep) end() {
	if w.best && len(w.cands) > w.first {
		w.top.keep(&w.cands[w.first])
	}
	if !w.served && w.why != nil {
		w.skipped = append(w.skipped, Skipped{Offer: *w.o, Reason: w.why.Error(), Err: w.why})
		w.causes = append(w.causes, w.why)
	}
}

// add keeps candidate c of the offer: with best, in place of the offer's
// candidate when better, counted among the costs known once the offer is done;
// otherwise as one more, counted now.
func (w *sweep) add(c candidate) {
	switch {
	case !w.best:
		w.cands = append(w.cands, c)
		w.top.keep(&c)
	case len(w.cands) == w.first:
		w.cands = append(w.cands, c)
	case w.s.less(&c, &w.cands[w.first], w.p.Offers, w.in.cards):
		w.cands[w.first] = c
	}
}

// barMinor is the bar's cost (bar) in whole minor units of the ranking's
// currency; math.MaxInt64 when there is no bar.
func (w *sweep) barMinor() int64 {
	if b := w.bar(); b != nil {
		return b.minor
	}
	return math.MaxInt64
}

// bar is the candidate whose cost (its key, a whole number of minor units of
// the ranking's currency) is the one above which a candidate of the offer
// cannot be returned: the Limit-th cost known, or the offer's best so far when
// one option per offer is kept and that is lower; nil when there is none.
func (w *sweep) bar() *priced {
	var bar *priced
	t := w.top.top
	if t == nil {
		return nil
	}
	if len(t) == w.top.limit {
		bar = t[len(t)-1]
	}
	if c := w.cands[w.first:]; w.best && len(c) > 0 && c[0].exact && (bar == nil || c[0].minor < bar.minor) {
		bar = c[0].priced
	}
	return bar
}
