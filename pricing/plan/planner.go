package plan

import (
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
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
	Catalog *catalog.Catalog
	Offers  []pricing.Offer
}

// Option is one way to run the job: an offer at a GPU count and parallel layout,
// with the memory, the time, the money and the warnings that explain it.
type Option struct {
	Offer  pricing.Offer   `json:"offer"`
	CardID string          `json:"card_id"` // the catalog card the offer resolved to
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
	Duration     time.Duration `json:"duration_ns"`
	DurationLow  time.Duration `json:"duration_low_ns"`
	DurationHigh time.Duration `json:"duration_high_ns"`
	// Efficiency is the multi-GPU scaling efficiency (1 for one GPU).
	Efficiency float64 `json:"efficiency"`
	// Rental is the usage priced: the request's, or a run as long as the job.
	Rental pricing.Usage `json:"rental"`
	// Cost is the cheapest cover of Rental for all GPUs, with line items.
	Cost pricing.Quote `json:"cost"`
	// HourlyOnly is the same rental paid by the hour (zero when the offer has no
	// hourly price), to set beside the best packages in Cost.
	HourlyOnly pricing.Quote `json:"hourly_only"`
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
	TimeLost      time.Duration `json:"time_lost_ns"`
	ExpectedCost  pricing.Money `json:"expected_cost"`
	Warnings      []string      `json:"warnings"`
}

// NoFitError explains an empty plan: why each offer was left out, and what would
// fit.
type NoFitError struct {
	Reasons     []string // why options were left out, one sentence per cause
	Suggestions []string // what would fit: a quantization, a context, a GPU count
}

// Error describes the failure, quoting the input where there is one.
func (e *NoFitError) Error() string {
	var b strings.Builder
	b.WriteString("plan: no option fits")
	if len(e.Reasons) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(e.Reasons, "; "))
	}
	if len(e.Suggestions) > 0 {
		b.WriteString("; what would fit: ")
		b.WriteString(strings.Join(e.Suggestions, "; "))
	}
	return b.String()
}

// Unwrap returns ErrNoFit.
func (e *NoFitError) Unwrap() error { return ErrNoFit }

// Plan tries each offer at each GPU count from 1 to its limit (the offer's MaxGPUs,
// DefaultPlanGPUs when it states none, capped by Request.MaxGPUs) and, for each
// count, the first parallel layout that fits in this order:
//
//   - training (full, LoRA, QLoRA): data parallel; ZeRO stages 1, 2 and 3 over the
//     data-parallel GPUs; tensor parallel of 2, 4 or 8 (dividing the heads and KV
//     heads) with sequence parallelism, the rest data parallel; and, as a
//     fallback, ZeRO-3 (or one GPU) with the optimizer offloaded to host memory;
//   - inference: one replica per GPU; tensor parallel over all the GPUs of one server (heads
//     and KV heads divisible); pipeline parallel over all of them.
//
// A layout fits when sizing.Estimate's Total is at most the card's memory less the
// headroom. The duration comes from compute: for training, compute.Job on the
// card's dense peak at the workload's precision with the scaling efficiency of its
// links (NVLink where the card has it, a bridge for pairs only, PCIe otherwise);
// for inference, compute.Decode's memory-bound decode speed across the replicas.
// The rental is priced with the offer's tariff for all GPUs.
//
// Options that miss the deadline even at the optimistic end of the utilization
// band, or cost more than the budget, are left out. The rest are ranked by
// ExpectedCost, then Duration, then fewer GPUs, then provider, region, catalog card
// and card name as written, and last the offer's place in the list, so the order
// is stable. With no option left, the error is a *NoFitError (ErrNoFit).
//
// Errors: ErrInvalid for a request or offer that makes no sense (an empty offer
// list, an invalid tariff), ErrCurrencyMismatch for offers (or a budget) in more
// than one currency, and catalog.ErrNotFound or catalog.ErrAmbiguous for an offer
// whose card the catalog cannot resolve to one card.
func (p Planner) Plan(r Request) ([]Option, error) {
	s, err := r.settle()
	if err != nil {
		return nil, err
	}
	if len(p.Offers) == 0 {
		return nil, fmt.Errorf("plan: no offers: %w", pricing.ErrInvalid)
	}
	cat := p.Catalog
	if cat == nil {
		cat = catalog.Default()
	}
	cards, err := p.resolve(cat, s)
	if err != nil {
		return nil, err
	}
	// The market check groups offers by the catalog card they resolved to, so
	// "A100 80GB" and "NVIDIA A100-SXM4-80GB" are one market; interruptible
	// capacity is a market of its own, since spot prices are meant to be lower.
	markets := make([]string, len(p.Offers))
	for i, o := range p.Offers {
		markets[i] = cards[i].ID
		if o.Interruptible {
			markets[i] += " (interruptible)"
		}
	}
	checks, err := marketCheck(p.Offers, markets, s.threshold, true) // resolve validated them
	if err != nil {
		return nil, err
	}

	work, err := s.work()
	if err != nil {
		return nil, err
	}

	fits := make(map[fitKey]*fit)
	bound := s.candidateBound(p.Offers)
	s.tariffs = make(map[string]*tariffPricing)
	pricings := make([]*tariffPricing, len(p.Offers))
	for i, o := range p.Offers {
		pricings[i] = s.pricing(o)
	}
	s.quotes = make(map[quoteKey]quotePair)
	cands := make([]candidate, 0, bound)
	var diag diagnosis
	for i, o := range p.Offers {
		card := cards[i]
		s.offer = pricings[i]
		limit := s.gpuLimit(o)
		for n := 1; n <= limit; n = nextCount(n, limit) {
			k := fitKey{card.ID, n}
			f := fits[k]
			if f == nil {
				f = s.fitCard(card, n, work)
				fits[k] = f
			}
			if !f.ok {
				diag.miss(card, n, f)
				continue
			}
			if s.Deadline > 0 && f.low > s.Deadline {
				diag.late(card, n, f.low)
				continue
			}
			c, err := s.price(i, o, n, f)
			if err != nil {
				var short *shortRental
				if errors.As(err, &short) {
					diag.short(card, n, f.duration, short.span)
					continue
				}
				var un *unavailable
				if errors.As(err, &un) {
					diag.other.add(un.reason())
					continue
				}
				return nil, err
			}
			if !s.Budget.Amount.IsZero() && c.expected.Amount.GreaterThan(s.Budget.Amount) {
				diag.over(card, n, c.expected)
				continue
			}
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nil, &NoFitError{Reasons: diag.reasons(s), Suggestions: s.suggest(cards, &diag)}
	}

	order := rank(cands, p.Offers, cards)
	cheapest := &cands[order[0]] // ranked on expected cost
	opts := make([]Option, len(order))
	for j, k := range order {
		c := &cands[k]
		if err := s.explain(&opts[j], c, p.Offers[c.offer], cards[c.offer], checks[c.offer], cheapest); err != nil {
			return nil, err
		}
	}
	return opts, nil
}

// gpuLimit is the most GPUs tried on an offer: its MaxGPUs (DefaultPlanGPUs when
// it states none), capped by the request's MaxGPUs and by MaxPlanGPUs.
func (s settings) gpuLimit(o pricing.Offer) int {
	limit := o.MaxGPUs
	if limit == 0 {
		limit = DefaultPlanGPUs
	}
	if s.MaxGPUs > 0 && s.MaxGPUs < limit {
		limit = s.MaxGPUs
	}
	return min(limit, MaxPlanGPUs)
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

// candidateBound is the most candidates a plan can have, to size the slice once:
// growing it by copying showed in profiles.
func (s settings) candidateBound(offers []pricing.Offer) int {
	total := 0
	for _, o := range offers {
		limit := s.gpuLimit(o)
		for n := 1; n <= limit; n = nextCount(n, limit) {
			total++
		}
	}
	return total
}

// resolve looks every offer's card up once per distinct name and checks that the
// offers (and the budget) share one currency.
func (p Planner) resolve(cat *catalog.Catalog, s settings) ([]catalog.Card, error) {
	cards := make([]catalog.Card, len(p.Offers))
	byName := make(map[string]int) // card name → index of the first offer with it
	currency := ""
	for i, o := range p.Offers {
		if err := o.Validate(); err != nil {
			return nil, &contextError{context: fmt.Sprintf("plan: offer %d (%s)", i, offerName(o)), drop: "offer: ", err: err}
		}
		if currency == "" {
			currency = o.Tariff.Currency
		} else if o.Tariff.Currency != currency {
			return nil, fmt.Errorf("plan: offer %d (%s) is in %s, others in %s: %w", i, o.Provider, o.Tariff.Currency, currency, pricing.ErrCurrencyMismatch)
		}
		if j, ok := byName[o.Card]; ok {
			cards[i] = cards[j]
			continue
		}
		c, err := cat.Lookup(o.Card)
		if err != nil {
			return nil, &contextError{context: fmt.Sprintf("plan: offer %d (%s)", i, offerName(o)), err: err}
		}
		cards[i] = c
		byName[o.Card] = i
	}
	if !s.Budget.Amount.IsZero() && s.Budget.Currency != currency {
		return nil, fmt.Errorf("plan: budget in %s, offers in %s: %w", s.Budget.Currency, currency, pricing.ErrCurrencyMismatch)
	}
	return cards, nil
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
func (s settings) work() (compute.FLOPs, error) {
	if s.Tokens == 0 || s.Workload.Task == sizing.Inference {
		return 0, nil
	}
	count := compute.TrainingFLOPs
	if s.Workload.Task == sizing.LoRA || s.Workload.Task == sizing.QLoRA {
		count = compute.AdapterTrainingFLOPs
	}
	f, err := count(s.Model, s.Tokens, s.Workload.SeqLen)
	if err != nil {
		return 0, &contextError{context: "plan", err: err, also: pricing.ErrInvalid}
	}
	return f, nil
}
