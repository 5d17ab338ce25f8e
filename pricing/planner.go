package pricing

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// ErrNoFit reports that no offer can run the job: it does not fit in memory, misses
// the deadline, exceeds the budget, or no offer can serve the usage. The error is a
// *NoFitError that says why and what would fit.
var ErrNoFit = errors.New("pricing: no option fits")

// Planner ranks rental options for a job over a list of offers. Catalog resolves the
// offers' card names; nil means catalog.Default(). A Planner is a value: Plan
// neither changes it nor keeps state between calls, so one Planner may serve many
// goroutines.
type Planner struct {
	Catalog *catalog.Catalog
	Offers  []Offer
}

// Option is one way to run the job: an offer at a GPU count and parallel layout,
// with the memory, the time, the money and the warnings that explain it.
type Option struct {
	Offer  Offer           `json:"offer"`
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
	Rental Usage `json:"rental"`
	// Cost is the cheapest cover of Rental for all GPUs, with line items.
	Cost Quote `json:"cost"`
	// HourlyOnly is the same rental paid by the hour (zero when the offer has no
	// hourly price), to set beside the best packages in Cost.
	HourlyOnly Quote `json:"hourly_only"`
	// Waste is ExpectedCost minus that of the first (cheapest) option: what this
	// choice costs beyond the cheapest one that fits. When the option has more
	// GPUs or a bigger card than that one, it is the seeds' over-provisioning
	// cost; between offers of the same card it is the price difference.
	Waste Money `json:"waste"`
	// Interruptions is the expected number of interruptions during the job (from
	// the offer's InterruptionsPerDay), TimeLost the expected time they cost
	// (half a checkpoint interval of work plus a restart each), and ExpectedCost
	// Cost plus the rental of TimeLost. Options are ranked on ExpectedCost.
	Interruptions float64       `json:"interruptions"`
	TimeLost      time.Duration `json:"time_lost_ns"`
	ExpectedCost  Money         `json:"expected_cost"`
	Warnings      []string      `json:"warnings"`

	index int // the offer's place in Planner.Offers, the last tie-break
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
	b.WriteString("pricing: no option fits")
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

// fit is the planner's answer for one card at one GPU count: the layout chosen,
// its memory and its timing. The same card, GPU count and request give the same
// fit however many offers share them, so Plan computes each once.
type fit struct {
	ok        bool
	layout    sizing.Parallel
	mem       sizing.Breakdown
	duration  time.Duration
	low, high time.Duration
	eff       float64
	nvlink    bool
	linkName  string
	notes     []string     // warnings that belong to the card and layout
	need      sizing.Bytes // the smallest per-GPU total of the layouts tried, when none fits
	usable    sizing.Bytes // card memory less the headroom
	err       error        // why nothing fits (memory, or a card that cannot run the precision)
}

type fitKey struct {
	card string
	gpus int
}

// Plan tries each offer at each GPU count from 1 to its limit (the offer's MaxGPUs,
// DefaultPlanGPUs when it states none, capped by Request.MaxGPUs) and, for each
// count, the first parallel layout that fits in this order:
//
//   - training (full, LoRA, QLoRA): data parallel; ZeRO stages 1, 2 and 3 over the
//     data-parallel GPUs; tensor parallel of 2, 4 or 8 (dividing the heads and KV
//     heads) with sequence parallelism, the rest data parallel; and, as a
//     fallback, ZeRO-3 (or one GPU) with the optimizer offloaded to host memory;
//   - inference: one replica per GPU; tensor parallel over all the GPUs (heads
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
// ExpectedCost, then Duration, then fewer GPUs, then provider, region and card for
// a stable order. With no option left, the error is a *NoFitError (ErrNoFit).
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
		return nil, fmt.Errorf("pricing: plan: no offers: %w", ErrInvalid)
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
	byCard := make([]Offer, len(p.Offers))
	for i, o := range p.Offers {
		byCard[i] = o
		byCard[i].Card = cards[i].ID
		if o.Interruptible {
			byCard[i].Card += " (interruptible)"
		}
	}
	checks, err := MarketCheck(byCard, s.threshold)
	if err != nil {
		return nil, err
	}

	work, err := s.work()
	if err != nil {
		return nil, err
	}

	fits := make(map[fitKey]*fit)
	s.quotes = make(map[quoteKey]quotePair)
	opts := make([]Option, 0, s.optionBound(p.Offers))
	var diag diagnosis
	for i, o := range p.Offers {
		card := cards[i]
		s.offer = &offerPricing{key: tariffKey(o.Tariff)}
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
			opt, err := s.option(i, o, card, n, f, checks[i])
			var short *shortRental
			if errors.As(err, &short) {
				diag.short(card, n, f.duration, short.span)
				continue
			}
			if err != nil {
				if errors.Is(err, ErrUnavailable) {
					diag.other.add(err.Error())
					continue
				}
				return nil, err
			}
			if !s.Budget.Amount.IsZero() && opt.ExpectedCost.Amount.GreaterThan(s.Budget.Amount) {
				diag.over(card, n, opt.ExpectedCost)
				continue
			}
			opts = append(opts, opt)
		}
	}
	if len(opts) == 0 {
		return nil, &NoFitError{Reasons: diag.reasons(s), Suggestions: s.suggest(cards, &diag)}
	}

	opts = sortOptions(opts)
	cheapest := opts[0].ExpectedCost // the first option: ranked on expected cost
	for i := range opts {
		w, err := opts[i].ExpectedCost.Sub(cheapest)
		if err != nil {
			return nil, err
		}
		opts[i].Waste = w
	}
	return opts, nil
}

// gpuLimit is the most GPUs tried on an offer: its MaxGPUs (DefaultPlanGPUs when
// it states none), capped by the request's MaxGPUs and by MaxPlanGPUs.
func (s settings) gpuLimit(o Offer) int {
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

// optionBound is the most options a plan can return, to size the slice once:
// Option is large, and growing the slice by copying showed in profiles.
func (s settings) optionBound(offers []Offer) int {
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
			return nil, fmt.Errorf("pricing: plan: offer %d (%s %s): %w", i, o.Provider, o.Card, err)
		}
		if currency == "" {
			currency = o.Tariff.Currency
		} else if o.Tariff.Currency != currency {
			return nil, fmt.Errorf("pricing: plan: offer %d (%s) is in %s, others in %s: %w", i, o.Provider, o.Tariff.Currency, currency, ErrCurrencyMismatch)
		}
		if j, ok := byName[o.Card]; ok {
			cards[i] = cards[j]
			continue
		}
		c, err := cat.Lookup(o.Card)
		if err != nil {
			return nil, fmt.Errorf("pricing: plan: offer %d (%s): %w", i, o.Provider, err)
		}
		cards[i] = c
		byName[o.Card] = i
	}
	if !s.Budget.Amount.IsZero() && s.Budget.Currency != currency {
		return nil, fmt.Errorf("pricing: plan: budget in %s, offers in %s: %w", s.Budget.Currency, currency, ErrCurrencyMismatch)
	}
	return cards, nil
}

// work returns the job's training work in FLOPs (zero for inference, whose time
// comes from decode speed, and for a memory-only request): compute.TrainingFLOPs
// (6·N·D plus attention) for full training. LoRA and QLoRA freeze the base, so its
// weights need no weight gradients: the backward pass computes only activation
// gradients, and the weight-gradient half of it, 2·N per token, is dropped (the
// adapters' own work is under 1% at the default rank). This is the usual
// accounting of backward = activation gradients + weight gradients, each about
// the forward's FLOPs (Kaplan et al. 2020, §2.1; Narayanan et al. 2021).
//
// The work is model FLOPs (compute.TrainingFLOPs) and the utilization is model
// FLOPs utilization, as compute.Job reads them: published MFU figures come from
// runs that recompute activations (PaLM reports 46.2% MFU against 57.8% hardware
// utilization with rematerialization, Chowdhery et al. 2022), so the band already
// absorbs that cost. A job without recomputation may run faster than the band
// says; give a higher Utilization for it.
func (s settings) work() (compute.FLOPs, error) {
	if s.Tokens == 0 || s.Workload.Task == sizing.Inference {
		return 0, nil
	}
	f, err := compute.TrainingFLOPs(s.Model, s.Tokens, s.Workload.SeqLen)
	if err != nil {
		return 0, fmt.Errorf("pricing: plan: %w: %w", err, ErrInvalid)
	}
	if s.Workload.Task == sizing.LoRA || s.Workload.Task == sizing.QLoRA {
		n, err := compute.MatmulParams(s.Model)
		if err != nil {
			return 0, fmt.Errorf("pricing: plan: %w: %w", err, ErrInvalid)
		}
		f -= compute.FLOPs(2 * float64(n) * s.Tokens)
	}
	return f, nil
}

// layouts lists the parallel layouts tried for n GPUs, in order of preference.
func (s settings) layouts(n int) []sizing.Parallel {
	m := s.Model
	heads, kv := m.Heads, m.KVHeads
	if kv == 0 {
		kv = heads
	}
	divides := func(t int) bool { return heads > 0 && heads%t == 0 && kv%t == 0 }
	var ls []sizing.Parallel
	if s.Workload.Task == sizing.Inference {
		ls = append(ls, sizing.Parallel{Data: n})
		if n > 1 && divides(n) {
			ls = append(ls, sizing.Parallel{Tensor: n})
		}
		if n > 1 && m.Layers >= n {
			ls = append(ls, sizing.Parallel{Pipeline: n})
		}
		return ls
	}
	ls = append(ls, sizing.Parallel{Data: n})
	if n > 1 {
		for z := 1; z <= 3; z++ {
			ls = append(ls, sizing.Parallel{Data: n, ZeRO: z})
		}
		for _, t := range []int{2, 4, 8} {
			if t <= n && n%t == 0 && divides(t) {
				ls = append(ls, sizing.Parallel{Data: n / t, Tensor: t, SequenceParallel: true})
				if n/t > 1 {
					ls = append(ls, sizing.Parallel{Data: n / t, Tensor: t, SequenceParallel: true, ZeRO: 3})
				}
			}
		}
		ls = append(ls, sizing.Parallel{Data: n, ZeRO: 3, OffloadOptimizer: true})
	} else {
		ls = append(ls, sizing.Parallel{OffloadOptimizer: true})
	}
	return ls
}

// fitCard finds the first layout of n GPUs of card that fits, and times it.
func (s settings) fitCard(card catalog.Card, n int, work compute.FLOPs) *fit {
	f := &fit{}
	usable := sizing.Bytes(float64(card.Memory) * (1 - s.headroom))
	f.usable = usable
	var smallest sizing.Bytes = -1
	w := s.Workload
	for _, l := range s.layouts(n) {
		w.Parallel = l
		b, err := sizing.Estimate(s.Model, w)
		if err != nil {
			continue // a layout the model cannot take (heads, degrees)
		}
		if smallest < 0 || b.Total() < smallest {
			smallest = b.Total()
		}
		if b.Total() <= usable {
			f.ok, f.layout, f.mem = true, l, b
			break
		}
	}
	if !f.ok {
		if smallest < 0 {
			f.err = fmt.Errorf("%s: no layout of %d GPU(s) is valid for this model", card.Name, n)
		} else {
			f.need = smallest
			f.err = fmt.Errorf("%s at %d GPU(s) needs %s per GPU, over the %s usable (%s less %.0f%% headroom)",
				card.Name, n, smallest.Human(), usable.Human(), card.Memory.Human(), s.headroom*100)
		}
		return f
	}
	link, nvlink, name := linkFor(card, n)
	f.nvlink, f.linkName = nvlink, name
	peak, note, err := peakFor(card, s.Workload.Precision, s.Workload.Task)
	if err != nil {
		f.ok, f.err = false, err
		return f
	}
	if note != "" {
		f.notes = append(f.notes, note)
	}
	if f.layout.OffloadOptimizer {
		f.notes = append(f.notes, fmt.Sprintf("optimizer state offloaded to host memory (%s per GPU): the duration counts the PCIe transfers, not the CPU's optimizer step", f.mem.Host.Human()))
	}
	if f.mem.Approx != 0 {
		f.notes = append(f.notes, "memory terms approximated from the parameter count alone: "+f.mem.Approx.String())
	}
	if err := s.timeFit(f, card, n, work, peak, link); err != nil {
		f.ok, f.err = false, fmt.Errorf("%s at %d GPU(s): %w", card.Name, n, err)
	}
	return f
}

// timeFit fills the fit's durations and efficiency.
func (s settings) timeFit(f *fit, card catalog.Card, n int, work compute.FLOPs, peak compute.FLOPRate, link compute.Link) error {
	f.eff = 1
	if s.Tokens == 0 {
		return nil
	}
	if s.Workload.Task == sizing.Inference {
		return s.timeDecode(f, card, n, peak, link)
	}
	j := compute.Job{
		Model: s.Model, Work: work, Precision: s.Workload.Precision, Recompute: s.Workload.Recompute,
		Batch: s.Workload.Batch, SeqLen: s.Workload.SeqLen,
		Devices: n, Tensor: one(f.layout.Tensor), PeakPerDevice: peak, Link: link,
		Utilization: s.band,
	}
	band, err := j.Time()
	if err != nil {
		return err
	}
	j.Utilization = compute.Point(s.util)
	mid, err := j.Time()
	if err != nil {
		return err
	}
	f.duration, f.low, f.high, f.eff = mid.Duration, band.Low, band.High, mid.Efficiency
	return s.layoutCost(f, card, mid)
}

// layoutCost adds to a fit's durations what compute.Job does not model:
//   - ZeRO-3 gathers the weights before the forward and the backward pass and
//     reduce-scatters the gradients, 3Ψ per step against data parallelism's 2Ψ
//     (Rajbhandari et al. 2020, §7.2): the exposed communication grows by half;
//   - optimizer offload sends each step's gradients (this GPU's shard of them) to
//     the host and as many bytes of updated weights back over PCIe, not
//     overlapped (Ren et al. 2021, ZeRO-Offload; a lower bound: the CPU's own
//     optimizer step, which ZeRO-Offload overlaps with the next step, is not
//     counted).
func (s settings) layoutCost(f *fit, card catalog.Card, mid compute.Timing) error {
	var extra time.Duration
	if f.layout.ZeRO == 3 && mid.Comm > 0 {
		extra += mid.Comm / 2
	}
	if f.layout.OffloadOptimizer && mid.Steps > 0 {
		gen := card.PCIeGen
		if gen == 0 {
			gen = 4
		}
		pcie, err := compute.PCIe(gen)
		if err != nil {
			return err
		}
		// This GPU's gradients go out, as many bytes of weights come back.
		perStep, err := seconds(2 * float64(f.mem.Gradients) / float64(pcie))
		if err != nil {
			return err
		}
		total, err := seconds(perStep.Seconds() * mid.Steps)
		if err != nil {
			return err
		}
		extra += total
	}
	if extra == 0 {
		return nil
	}
	var err error
	for _, d := range []*time.Duration{&f.duration, &f.low, &f.high} {
		if *d, err = seconds(d.Seconds() + extra.Seconds()); err != nil {
			return err
		}
	}
	f.eff *= float64(mid.Duration) / float64(f.duration)
	return nil
}

// timeDecode times Tokens of generation: each replica (a GPU, or the tensor- or
// pipeline-parallel group) decodes Batch sequences at its memory-bound speed with
// a context of SeqLen tokens, the longest the job keeps (a conservative choice). A
// tensor-parallel group reads at the summed bandwidth of its GPUs and waits, each
// step, for two all-reduces per layer of the step's activations (Shoeybi et al.
// 2019, §3: the forward half of compute.TensorParallelComm's training step, each
// all-reduce paying the link's per-step latency); a pipeline reads each stage in turn, so one sequence
// decodes no faster than on one GPU.
func (s settings) timeDecode(f *fit, card catalog.Card, n int, peak compute.FLOPRate, link compute.Link) error {
	replicas, width := n, 1
	var comm time.Duration
	switch {
	case f.layout.Tensor > 1:
		replicas, width = 1, f.layout.Tensor
		step, err := compute.TensorParallelComm(s.Model, s.Workload.Batch, 1, width, s.Workload.Precision, sizing.NoRecompute, link)
		if err != nil {
			return err
		}
		comm = step / 2
	case f.layout.Pipeline > 1:
		replicas = 1
	}
	at := func(u float64) (time.Duration, error) {
		d := compute.Decode{
			Model: s.Model, Weights: s.Workload.Precision, KV: s.Workload.KVPrecision,
			Context: s.Workload.SeqLen, Batch: s.Workload.Batch,
			Bandwidth: card.MemoryBandwidth * compute.Bandwidth(width), Peak: peak * compute.FLOPRate(width),
			Utilization: u,
		}
		sp, err := d.Speed()
		if err != nil {
			return 0, err
		}
		if sp.Step <= 0 {
			return 0, fmt.Errorf("decode step takes no time: %w", ErrInvalid)
		}
		f.eff = float64(sp.Step) / float64(sp.Step+comm)
		rate := float64(sp.Total) * f.eff * float64(replicas)
		if !(rate > 0) {
			return 0, fmt.Errorf("decode speed is zero: %w", ErrInvalid)
		}
		return seconds(s.Tokens / rate)
	}
	var err error
	if f.low, err = at(s.band.High); err != nil {
		return err
	}
	if f.high, err = at(s.band.Low); err != nil {
		return err
	}
	f.duration, err = at(s.util) // last, so f.eff is the middle one's
	return err
}

// seconds converts a float count of seconds to a Duration, refusing values past
// its range.
func seconds(sec float64) (time.Duration, error) {
	ns := math.Ceil(sec * 1e9)
	if math.IsNaN(ns) || ns >= math.MaxInt64 {
		return 0, fmt.Errorf("pricing: plan: %g s is past time.Duration's range: %w", sec, ErrInvalid)
	}
	return time.Duration(ns), nil
}

// linkFor returns the link n GPUs of card share: NVLink (or Infinity Fabric) where
// the card has it for every GPU, a bridge for a pair only, PCIe otherwise, and the
// network (InterServerLink) once the GPUs fill more than one server, since a ring
// all-reduce runs at the speed of its slowest link.
func linkFor(card catalog.Card, n int) (compute.Link, bool, string) {
	if n > GPUsPerServer {
		return compute.Link{Bandwidth: InterServerLink, Latency: networkStepLatency}, false, "the network between servers (200 Gb/s per GPU assumed)"
	}
	if n > 1 && card.NVLink > 0 {
		nv := compute.NVLink(card.NVLink)
		nv.Latency = nvlinkStepLatency
		switch card.Link {
		case catalog.LinkNVLink, catalog.LinkInfinityFabric:
			return nv, true, string(card.Link)
		case catalog.LinkNVLinkBridge:
			if n == 2 {
				return nv, true, "NVLink bridge"
			}
		}
	}
	gen := card.PCIeGen
	if gen == 0 {
		gen = 4
	}
	l, err := compute.PCIeLink(gen)
	if err != nil {
		l, _ = compute.PCIeLink(4)
		gen = 4
	}
	l.Latency = pcieStepLatency
	return l, false, fmt.Sprintf("PCIe Gen%d", gen)
}

// Latency of one step of a ring collective (a ring all-reduce over n GPUs takes
// 2·(n−1) steps), by link: assumed, order-of-magnitude figures for small messages,
// in line with the few to tens of microseconds NCCL's all-reduce takes for small
// buffers (nccl-tests). They matter only where messages are small, as in
// tensor-parallel decode, where PCIe's hops through the host are what make it slow.
const (
	nvlinkStepLatency  = 1 * time.Microsecond
	pcieStepLatency    = 3 * time.Microsecond
	networkStepLatency = 5 * time.Microsecond
)

// peakFor returns the card's dense peak for the workload's compute precision. A
// card without BF16 (V100, T4) runs mixed precision in FP16, with loss scaling; a
// card with no published rate for the precision is timed at its FP32 rate.
func peakFor(card catalog.Card, p sizing.Precision, task sizing.Task) (compute.FLOPRate, string, error) {
	if p == sizing.FP64 {
		if r, ok := card.FP64(); ok {
			return r, "", nil
		}
	}
	if r, ok := card.Peak(p); ok {
		return r, "", nil
	}
	if p == sizing.BF16 {
		if r, ok := card.Peak(sizing.FP16); ok {
			if task == sizing.Inference {
				return r, card.Name + " has no BF16: the weights would be served in FP16 (same memory), timed at its FP16 rate", nil
			}
			return r, card.Name + " has no BF16: timed at its FP16 rate (FP16 training needs loss scaling)", nil
		}
	}
	// No published rate for the precision (the A10G's tensor rates, say): the FP32
	// rate is a floor every card reaches, so the time errs long, never short.
	if r, ok := card.Peak(sizing.FP32); ok && p.Bits() <= 32 {
		return r, fmt.Sprintf("%s has no published %v rate: timed at its FP32 rate, a conservative floor", card.Name, p), nil
	}
	return 0, "", fmt.Errorf("%s has no %v support", card.Name, p)
}

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
		return Option{}, fmt.Errorf("pricing: plan: %s on %d GPU(s) rents %s, past the %s pricing limit: %w",
			card.Name, n, roundDur(span), roundDur(MaxDuration), ErrUnavailable)
	}
	q, hq, err := s.quote(o, opt.Rental, n)
	if err != nil {
		return Option{}, err
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
			return Quote{}, Quote{}, fmt.Errorf("pricing: plan: %s (%s) at %d GPU(s): %w", o.Provider, o.Card, n, err)
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
// then provider, region and card. Options are large, so it sorts indices on a
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
	return a.index < b.index
}

// suggest says what would fit when nothing does. When some card held the job but
// the deadline, the budget or the rental's length ruled it out, it names the
// closest option for that (beyondMemory). Otherwise memory was the limit, and it
// looks at the offered card with the most memory: a smaller format, a shorter
// context, or more GPUs.
func (s settings) suggest(cards []catalog.Card, d *diagnosis) []string {
	if out, ok := d.beyondMemory(s); ok {
		return out
	}
	if !d.memoryMissed() {
		return nil // nothing was refused for memory: a smaller format would not help
	}
	var big catalog.Card
	for _, c := range cards {
		if c.Memory > big.Memory {
			big = c
		}
	}
	if big.Memory == 0 {
		return nil
	}
	usable := sizing.Bytes(float64(big.Memory) * (1 - s.headroom))
	var out []string
	w := s.Workload
	w.Parallel = sizing.Parallel{}
	fits := func(w sizing.Workload) bool {
		b, err := sizing.Estimate(s.Model, w)
		return err == nil && b.Total() <= usable
	}
	// A smaller format: the widest narrower than the request's that fits one card
	// (sizing.FitPrecision's ladder, which runs from BF16 down to Q2_K).
	if w.Task == sizing.Inference {
		if p, _, err := sizing.FitPrecision(s.Model, w, usable); err == nil && p.Bits() < w.Precision.Bits() {
			out = append(out, fmt.Sprintf("weights in %v fit one %s", p, big.Name))
		}
	} else if w.Task == sizing.Training || w.Task == sizing.LoRA {
		for _, t := range []sizing.Task{sizing.LoRA, sizing.QLoRA} {
			if t == w.Task {
				continue
			}
			q := w
			q.Task = t
			if fits(q) {
				out = append(out, fmt.Sprintf("%v fits one %s", t, big.Name))
				break
			}
		}
	}
	// A shorter context on one card.
	if c, err := sizing.MaxContext(s.Model, w, usable); err == nil && c < w.SeqLen {
		out = append(out, fmt.Sprintf("a context of %d tokens fits one %s", c, big.Name))
	}
	// More cards of the largest kind, first as asked, then with the activation
	// savings the request did not use.
	variants := []struct {
		w    sizing.Workload
		note string
	}{{w, ""}}
	if w.Task != sizing.Inference {
		if !w.FlashAttention {
			v := w
			v.FlashAttention = true
			variants = append(variants, struct {
				w    sizing.Workload
				note string
			}{v, " with FlashAttention"})
		}
		if w.Recompute != sizing.FullRecompute {
			v := w
			v.FlashAttention, v.Recompute = true, sizing.FullRecompute
			variants = append(variants, struct {
				w    sizing.Workload
				note string
			}{v, " with FlashAttention and full recomputation"})
		}
	}
	for _, v := range variants {
		if n, l, ok := s.smallestFit(v.w, usable); ok {
			if n == 1 && v.note == "" {
				break // fits one card as asked: memory was not what stopped it
			}
			out = append(out, fmt.Sprintf("%d × %s%s fit (%s)", n, big.Name, v.note, describeLayout(l)))
			break
		}
	}
	return out
}

// smallestFit returns the fewest GPUs, up to 64, and the layout with which w fits
// in usable bytes per GPU.
func (s settings) smallestFit(w sizing.Workload, usable sizing.Bytes) (int, sizing.Parallel, bool) {
	for n := 1; n <= 64; n *= 2 {
		for _, l := range s.layouts(n) {
			w.Parallel = l
			if b, err := sizing.Estimate(s.Model, w); err == nil && b.Total() <= usable {
				return n, l, true
			}
		}
	}
	return 0, sizing.Parallel{}, false
}

// describeLayout names a parallel layout for people: "data parallel ×4",
// "tensor parallel ×2 × data ×4, ZeRO-3, optimizer offloaded".
func describeLayout(l sizing.Parallel) string {
	var parts []string
	switch {
	case l.Tensor > 1:
		parts = append(parts, fmt.Sprintf("tensor parallel ×%d", l.Tensor))
		if l.Data > 1 {
			parts = append(parts, fmt.Sprintf("data ×%d", l.Data))
		}
	case l.Pipeline > 1:
		parts = append(parts, fmt.Sprintf("pipeline ×%d", l.Pipeline))
	case l.Data > 1:
		parts = append(parts, fmt.Sprintf("data parallel ×%d", l.Data))
	default:
		parts = append(parts, "one GPU")
	}
	if l.ZeRO > 0 {
		parts = append(parts, fmt.Sprintf("ZeRO-%d", l.ZeRO))
	}
	if l.OffloadOptimizer {
		parts = append(parts, "optimizer offloaded")
	}
	return strings.Join(parts, ", ")
}

// DescribeLayout names a parallel layout for people, as the planner's messages
// do: "one GPU", "data parallel ×4, ZeRO-3", "tensor parallel ×2, data ×4",
// "pipeline ×5", with ", optimizer offloaded" when the optimizer is in host memory.
func DescribeLayout(l sizing.Parallel) string { return describeLayout(l) }

// roundDur rounds a duration for messages: to the minute past an hour, the second
// below.
func roundDur(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

func one(n int) int {
	if n == 0 {
		return 1
	}
	return n
}

// diagnosis gathers, per card, why no option of it was kept: the least memory any
// of its GPU counts needed, the fastest time that still missed the deadline, the
// cheapest cost that still broke the budget.
type diagnosis struct {
	order []string // card IDs, first seen first
	cards map[string]*cardMiss
	other reasonSet
}

type cardMiss struct {
	name           string
	need, usable   sizing.Bytes
	needGPUs       int
	err            error // a miss that is not about memory
	low            time.Duration
	lowGPUs        int
	cost           Money
	costGPUs       int
	fitted, priced bool
	fastest        time.Duration // the quickest job that outlasted the rental
	fastestGPUs    int
	span           time.Duration // the rental's length
	outlasted      bool
}

func (d *diagnosis) card(c catalog.Card) *cardMiss {
	if d.cards == nil {
		d.cards = make(map[string]*cardMiss)
	}
	m := d.cards[c.ID]
	if m == nil {
		m = &cardMiss{name: c.Name}
		d.cards[c.ID] = m
		d.order = append(d.order, c.ID)
	}
	return m
}

func (d *diagnosis) miss(c catalog.Card, n int, f *fit) {
	m := d.card(c)
	if f.need <= 0 {
		if m.err == nil {
			m.err = f.err
		}
		return
	}
	if m.need == 0 || f.need < m.need {
		m.need, m.needGPUs, m.usable = f.need, n, f.usable
	}
}

func (d *diagnosis) late(c catalog.Card, n int, low time.Duration) {
	m := d.card(c)
	if !m.fitted || low < m.low {
		m.low, m.lowGPUs = low, n
	}
	m.fitted = true
}

// beyondMemory returns suggestions when some card fitted in memory, and whether
// one did: the fastest option found (for a deadline or a rental too short) and
// the cheapest (for a budget).
func (d *diagnosis) beyondMemory(s settings) ([]string, bool) {
	var out []string
	var fastest, cheapest *cardMiss
	fitted := false
	for _, id := range d.order {
		m := d.cards[id]
		fitted = fitted || m.fitted || m.priced || m.outlasted
		if m.fitted && (fastest == nil || m.low < fastest.low) {
			fastest = m
		}
		if m.outlasted && (fastest == nil || m.fastest < fastest.low) {
			fastest = &cardMiss{name: m.name, low: m.fastest, lowGPUs: m.fastestGPUs}
		}
		if m.priced && (cheapest == nil || m.cost.Amount.LessThan(cheapest.cost.Amount)) {
			cheapest = m
		}
	}
	if fastest != nil {
		out = append(out, fmt.Sprintf("the fastest option is %d × %s at %s (more GPUs per offer, a faster card, or a later deadline or longer rental)",
			fastest.lowGPUs, fastest.name, roundDur(fastest.low)))
	}
	if cheapest != nil {
		out = append(out, fmt.Sprintf("the cheapest option is %d × %s at %s", cheapest.costGPUs, cheapest.name, cheapest.cost))
	}
	return out, fitted
}

// memoryMissed reports whether some card was refused for lack of memory.
func (d *diagnosis) memoryMissed() bool {
	for _, id := range d.order {
		if d.cards[id].need > 0 {
			return true
		}
	}
	return false
}

func (d *diagnosis) short(c catalog.Card, n int, job, span time.Duration) {
	m := d.card(c)
	if !m.outlasted || job < m.fastest {
		m.fastest, m.fastestGPUs = job, n
	}
	m.span, m.outlasted = span, true
}

func (d *diagnosis) over(c catalog.Card, n int, cost Money) {
	m := d.card(c)
	if !m.priced || cost.Amount.LessThan(m.cost.Amount) {
		m.cost, m.costGPUs = cost, n
	}
	m.priced = true
}

// reasons writes one sentence per card, the closest it came, then the others.
func (d *diagnosis) reasons(s settings) []string {
	var out []string
	for _, id := range d.order {
		m := d.cards[id]
		switch {
		case m.outlasted:
			out = append(out, fmt.Sprintf("%s: even the fastest option (%d GPU(s)) takes %s, longer than the %s the rental covers", m.name, m.fastestGPUs, roundDur(m.fastest), roundDur(m.span)))
		case m.priced:
			out = append(out, fmt.Sprintf("%s: the cheapest option (%d GPU(s)) costs %s, over the %s budget", m.name, m.costGPUs, m.cost, s.Budget))
		case m.fitted:
			out = append(out, fmt.Sprintf("%s: the fastest option (%d GPU(s)) takes %s even at the high end of the utilization band, past the %s deadline", m.name, m.lowGPUs, roundDur(m.low), roundDur(s.Deadline)))
		case m.need > 0:
			out = append(out, fmt.Sprintf("%s: needs at least %s per GPU (at %d GPU(s)), over the %s usable with %.0f%% headroom", m.name, m.need.Human(), m.needGPUs, m.usable.Human(), s.headroom*100))
		case m.err != nil:
			out = append(out, m.err.Error())
		}
	}
	return append(out, d.other.list...)
}

// reasonSet keeps distinct reasons in the order first seen, at most a dozen.
type reasonSet struct {
	list []string
	seen map[string]bool
}

func (r *reasonSet) add(s string) {
	if r.seen == nil {
		r.seen = make(map[string]bool)
	}
	if r.seen[s] || len(r.list) >= 12 {
		return
	}
	r.seen[s] = true
	r.list = append(r.list, s)
}
