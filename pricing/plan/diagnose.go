package plan

import (
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// suggest says what would fit when nothing does. When some card held the job but
// the deadline, the budget or the rental's length ruled it out, it names the
// closest option for that (beyondMemory). Otherwise memory was the limit, and it
// looks at the offered card with the most memory, trying first the levers that
// cost no GPUs (the model's own stored format, fewer sequences at once, a lower
// headroom, the optimizer offloaded to host RAM), then a smaller format or
// task, a shorter context, and last more GPUs. Training is sized at
// micro-batch 1, where the planner's search ends before it adds GPUs.
func (s *settings) suggest(cards []*catalog.Card, kept []int, d *diagnosis) []string {
	if out, ok := d.beyondMemory(s); ok {
		return out
	}
	if !slices.ContainsFunc(d.order, func(m *cardMiss) bool { return m.need > 0 }) {
		return nil // nothing was refused for memory: a smaller format would not help
	}
	var big catalog.Card
	for _, i := range kept {
		if c := cards[i]; c.Memory > big.Memory {
			big = *c
		}
	}
	if big.Memory == 0 {
		return nil
	}
	usable, _ := sizing.Usable(big.Memory, s.headroom) // settle checked the headroom
	free := s                                          // suggestions search every layout, whatever the request pins
	free.Parallel, free.pin = nil, 0
	var out []string
	w := s.Workload
	w.Parallel = sizing.Parallel{}
	if w.Task != sizing.Inference {
		w.Batch = 1
	}
	// The format the model's files store it in, for inference (it is what they
	// serve as they are).
	if p := s.Model.StoredPrecision; w.Task == sizing.Inference && p != 0 && p.Bits() < w.Precision.Bits() {
		q := w
		q.Precision = p
		if n, l, ok := free.smallestFit(q, usable); ok {
			out = append(out, fmt.Sprintf("the model's own format, %v (as its files store it), fits %s", p, onCards(n, big, l)))
		}
	}
	// Fewer sequences at once.
	if w.Task == sizing.Inference && w.Batch > 1 {
		if b, err := sizing.MaxBatch(s.Model, w, usable); err == nil && b < w.Batch {
			out = append(out, fmt.Sprintf("%s at once fit one %s", text.Count(b, "sequence", "sequences"), big.Name))
		}
	}
	// Less memory kept free: the headroom that leaves the closest miss room.
	if m, h, ok := d.lowerHeadroom(s); ok {
		out = append(out, fmt.Sprintf("keeping %.0f%% of memory free (headroom) instead of %.0f%%, %d × %s fit",
			h*100, s.headroom*100, m.needGPUs, m.card.Name))
	}
	// The optimizer offloaded to host RAM, where that takes fewer GPUs.
	plain, _, plainOK := free.smallestFit(w, usable)
	if w.Task != sizing.Inference {
		if n, b, ok := offloadFit(s.Model, w, usable); ok && (!plainOK || n < plain) {
			out = append(out, fmt.Sprintf("with the optimizer offloaded to host RAM (%s per GPU: an offer with that much), %s",
				b.Host.Human(), onCards(n, big, offloadLayout(n))))
		}
	}
	// A smaller format: the widest narrower than the request's that fits one card
	// (sizing.FitPrecision's ladder, which runs from BF16 down to Q2_K).
	if w.Task == sizing.Inference {
		if p, _, err := sizing.FitPrecision(s.Model, w, usable); err == nil && p.Bits() < w.Precision.Bits() && p != s.Model.StoredPrecision {
			out = append(out, fmt.Sprintf("weights in %v fit one %s", p, big.Name))
		}
	} else if w.Task == sizing.Training || w.Task == sizing.LoRA {
		for _, t := range []sizing.Task{sizing.LoRA, sizing.QLoRA} {
			if t == w.Task {
				continue
			}
			q := w
			q.Task = t
			if b, err := sizing.Estimate(s.Model, q); err == nil && b.Total() <= usable {
				out = append(out, fmt.Sprintf("%v fits one %s", t, big.Name))
				break
			}
		}
	}
	// A shorter context on one card, when it keeps at least a quarter of the
	// context asked for: "a context of 88 tokens" instead of 2048 is no way to
	// run the job.
	if c, err := sizing.MaxContext(s.Model, w, usable); err == nil && c < w.SeqLen && 4*c >= w.SeqLen {
		out = append(out, fmt.Sprintf("a context of %d tokens fits one %s", c, big.Name))
	}
	// More cards of the largest kind, first as asked, then with the activation
	// savings the request did not use.
	type variant struct {
		w    sizing.Workload
		note string
	}
	variants := []variant{{w, ""}}
	if w.Task != sizing.Inference {
		v := w
		v.EagerAttention = false
		if w.EagerAttention {
			variants = append(variants, variant{v, " with memory-efficient attention"})
		}
		v.Recompute = sizing.FullRecompute
		if w.Recompute != sizing.FullRecompute {
			variants = append(variants, variant{v, " with memory-efficient attention and full recomputation"})
		}
	}
	for _, v := range variants {
		if n, l, ok := free.smallestFit(v.w, usable); ok {
			if n > 1 || v.note != "" { // else it fits one card as asked: memory was not what stopped it
				out = append(out, fmt.Sprintf("%d × %s%s fit (%s)", n, big.Name, v.note, DescribeLayout(l)))
			}
			break
		}
	}
	// A model known by its parameter count alone is not split over GPUs: tensor
	// and pipeline parallelism (layouts) need its layers and heads, and data
	// parallelism keeps a whole copy on each GPU.
	if s.Model.Heads == 0 || s.Model.Layers == 0 {
		out = append(out, "giving the model's architecture (its layers, hidden size and attention heads, as its config.json states them), which tensor and pipeline parallelism need to split it over GPUs: known by its parameter count alone, it is split by neither")
	}
	return out
}

// onCards says "one X" or "n × X (layout)".
func onCards(n int, card catalog.Card, l sizing.Parallel) string {
	if n == 1 {
		return "one " + card.Name
	}
	return fmt.Sprintf("%d × %s (%s)", n, card.Name, DescribeLayout(l))
}

// minHeadroom is the least headroom a suggestion offers: 5% of memory free, for
// the allocator's fragmentation and the peaks between the estimate's terms.
const minHeadroom = 0.05

// lowerHeadroom returns the miss that a lower headroom, at least minHeadroom,
// would turn into a fit on the fewest GPUs, and that headroom (rounded down to
// a whole percent).
func (d *diagnosis) lowerHeadroom(s *settings) (*cardMiss, float64, bool) {
	var best *cardMiss
	var bestH float64
	for _, m := range d.order {
		if m.need <= 0 {
			continue
		}
		h := math.Floor(100*(1-float64(m.need)/float64(m.card.Memory))) / 100
		if h < minHeadroom || h >= s.headroom {
			continue
		}
		if best == nil || m.needGPUs < best.needGPUs || m.needGPUs == best.needGPUs && h > bestH {
			best, bestH = m, h
		}
	}
	return best, bestH, best != nil
}

// offloadLayout is the layout that offloads the optimizer on n GPUs: ZeRO-3
// over them, or one GPU alone.
func offloadLayout(n int) sizing.Parallel {
	if n == 1 {
		return sizing.Parallel{OffloadOptimizer: true}
	}
	return sizing.Parallel{Data: n, ZeRO: 3, OffloadOptimizer: true}
}

// offloadFit returns the fewest GPUs, up to 64, on which w fits in usable bytes
// per GPU with the optimizer offloaded, and the estimate there.
func offloadFit(m sizing.Model, w sizing.Workload, usable sizing.Bytes) (int, sizing.Breakdown, bool) {
	for n := 1; n <= 64; n *= 2 {
		w.Parallel = offloadLayout(n)
		if b, err := sizing.Estimate(m, w); err == nil && b.Total() <= usable {
			return n, b, true
		}
	}
	return 0, sizing.Breakdown{}, false
}

// smallestFit returns the fewest GPUs, up to 64, and the layout with which w fits
// in usable bytes per GPU, the optimizer kept on them (offloadFit says what
// offloading it takes).
func (s *settings) smallestFit(w sizing.Workload, usable sizing.Bytes) (int, sizing.Parallel, bool) {
	var buf [maxLayouts]sizing.Parallel
	for n := 1; n <= 64; n *= 2 {
		for _, l := range s.layouts(&buf, n, GPUsPerServer) {
			if l.OffloadOptimizer {
				continue
			}
			w.Parallel = l
			if b, err := sizing.Estimate(s.Model, w); err == nil && b.Total() <= usable {
				return n, l, true
			}
		}
	}
	return 0, sizing.Parallel{}, false
}

// DescribeLayout names a parallel layout for people, as the planner's messages
// do: "one GPU", "data parallel ×4, ZeRO-3", "tensor parallel ×2, data ×4",
// "pipeline ×5", with ", optimizer offloaded" when the optimizer is in host memory.
func DescribeLayout(l sizing.Parallel) string {
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

// roundDur rounds a duration for messages: to the minute past an hour, the second
// below.
func roundDur(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// diagnosis gathers, per card, why no option of it was kept: the least memory any
// of its GPU counts needed, the fastest time that still missed the deadline or
// outlasted the rental, the cheapest cost that still broke the budget.
type diagnosis struct {
	cards map[string]*cardMiss // by card ID
	order []*cardMiss          // first seen first
}

// cardMiss is the closest one card came on each ground; a GPU count of zero says
// that nothing of the card missed on that ground.
type cardMiss struct {
	card         catalog.Card
	limit        int          // the most GPUs any offer of the card allows here
	need, usable sizing.Bytes // the least memory per GPU needed (at needGPUs), and the usable
	needGPUs     int
	err          error         // a miss that is not about memory
	low          time.Duration // the fastest time past the deadline, at lowGPUs
	lowGPUs      int
	cost         pricing.Money // the cheapest cost over the budget, at costGPUs
	costGPUs     int
	fastest      time.Duration // the quickest job that outlasted the rental, at fastestGPUs
	fastestGPUs  int
	span         time.Duration // the rental's length
}

func (d *diagnosis) card(c catalog.Card) *cardMiss {
	if d.cards == nil {
		d.cards = make(map[string]*cardMiss)
	}
	m := d.cards[c.ID]
	if m == nil {
		m = &cardMiss{card: c}
		d.cards[c.ID] = m
		d.order = append(d.order, m)
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

func (d *diagnosis) late(c catalog.Card, n, limit int, low time.Duration) {
	m := d.card(c)
	m.limit = max(m.limit, limit)
	if m.lowGPUs == 0 || low < m.low {
		m.low, m.lowGPUs = low, n
	}
}

func (d *diagnosis) short(c catalog.Card, n int, job, span time.Duration) {
	m := d.card(c)
	if m.fastestGPUs == 0 || job < m.fastest {
		m.fastest, m.fastestGPUs = job, n
	}
	m.span = span
}

func (d *diagnosis) over(c catalog.Card, n int, cost pricing.Money) {
	m := d.card(c)
	if m.costGPUs == 0 || cost.Amount.LessThan(m.cost.Amount) {
		m.cost, m.costGPUs = cost, n
	}
}

// beyondMemory returns suggestions when some card fitted in memory, and whether
// one did: the fastest option found (for a deadline or a rental too short) and
// the cheapest (for a budget).
func (d *diagnosis) beyondMemory(s *settings) ([]string, bool) {
	var out []string
	var fastest, cheapest *cardMiss
	fitted := false
	for _, m := range d.order {
		fitted = fitted || m.lowGPUs > 0 || m.costGPUs > 0 || m.fastestGPUs > 0
		if m.lowGPUs > 0 && (fastest == nil || m.low < fastest.low) {
			fastest = m
		}
		if m.fastestGPUs > 0 && (fastest == nil || m.fastest < fastest.low) {
			// No limit: the rental, not the GPUs, was what it missed (moreGPUs).
			fastest = &cardMiss{card: m.card, low: m.fastest, lowGPUs: m.fastestGPUs}
		}
		if m.costGPUs > 0 && (cheapest == nil || m.cost.Amount.LessThan(cheapest.cost.Amount)) {
			cheapest = m
		}
	}
	if fastest != nil {
		out = append(out, fmt.Sprintf("the fastest option is %d × %s at %s (more GPUs per offer, a faster card, or a later deadline or longer rental)",
			fastest.lowGPUs, fastest.card.Name, roundDur(fastest.low)))
		if more := s.moreGPUs(fastest); more != "" {
			out = append(out, more)
		}
	}
	if cheapest != nil {
		out = append(out, fmt.Sprintf("the cheapest option is %d × %s at %s", cheapest.costGPUs, cheapest.card.Name, cheapest.cost))
	}
	return out, fitted
}

// reasons writes one sentence per card, the closest it came, then the others.
func (d *diagnosis) reasons(s settings) []string {
	var out []string
	for _, m := range d.order {
		name := m.card.Name
		switch {
		case m.fastestGPUs > 0:
			out = append(out, fmt.Sprintf("%s: even the fastest option (%s) takes %s, longer than the %s the rental covers", name, text.Count(m.fastestGPUs, "GPU", "GPUs"), roundDur(m.fastest), roundDur(m.span)))
		case m.costGPUs > 0:
			out = append(out, fmt.Sprintf("%s: the cheapest option (%s) costs %s, over the %s budget", name, text.Count(m.costGPUs, "GPU", "GPUs"), m.cost, s.Budget))
		case m.lowGPUs > 0:
			out = append(out, fmt.Sprintf("%s: the fastest option (%s) takes %s at the request's utilization, past the %s deadline", name, text.Count(m.lowGPUs, "GPU", "GPUs"), roundDur(m.low), roundDur(s.Deadline)))
		case m.need > 0:
			out = append(out, fmt.Sprintf("%s: needs at least %s per GPU (at %s), over the %s usable with %.0f%% headroom", name, m.need.Human(), text.Count(m.needGPUs, "GPU", "GPUs"), m.usable.Human(), s.headroom*100))
		case m.err != nil:
			out = append(out, m.err.Error())
		}
	}
	return out
}

// moreGPUs says, for a card whose offers all missed the deadline, how many GPUs
// of it would meet it, past what its offers allow (limit) or the request caps:
// the first count the planner would try beyond them, up to MaxPlanGPUs; empty
// when none would or the miss was not the deadline.
func (s *settings) moreGPUs(m *cardMiss) string {
	if s.Deadline == 0 || m.limit == 0 || m.limit >= MaxPlanGPUs {
		return ""
	}
	work, err := s.work()
	if err != nil {
		return ""
	}
	for n := m.limit + 1; n <= MaxPlanGPUs; n = nextCount(n, MaxPlanGPUs) {
		f := s.fitCard(m.card, n, GPUsPerServer, 0, work)
		if !f.ok || f.duration > s.Deadline {
			continue
		}
		why := fmt.Sprintf("its offers here allow at most %d", m.limit)
		if s.MaxGPUs > 0 && s.MaxGPUs <= m.limit {
			why = fmt.Sprintf("the request allows at most %d", s.MaxGPUs)
		}
		return fmt.Sprintf("%d × %s would finish in %s, meeting the %s deadline (%s)", n, m.card.Name, roundDur(f.duration), roundDur(s.Deadline), why)
	}
	return ""
}
