package plan

import (
	"cmp"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"math"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// fit is the planner's answer for one card at one GPU count: the layout chosen,
// its micro-batch, its memory and its timing. The same card, GPU count and
// request give the same fit however many offers share them, so Plan computes
// each once.
type fit struct {
	ok        bool
	layout    sizing.Parallel
	micro     int // training: the micro-batch per data-parallel replica; zero for inference
	accum     int // training: micro-batches per optimizer step
	mem       sizing.Breakdown
	duration  time.Duration
	low, high time.Duration
	eff       float64
	nvlink    bool
	linkName  string
	need      sizing.Bytes // the smallest per-GPU total of the layouts tried, when none fits
	hostNeed  sizing.Bytes // when only the host RAM stopped it: the least a layout that fit the GPUs needed
	usable    sizing.Bytes // card memory less the headroom
	tried     int          // layouts evaluated for this card and GPU count
	server    int          // GPUs per server the fit was made for (serverOf)
	err       error        // why nothing fits (memory, or a card that cannot run the precision)

	// The warnings every option of this fit shares (settings.fitWarnings),
	// written on first use.
	warned bool
	pre    []string
}

// maxLayouts is the most layouts lists for one GPU count.
const maxLayouts = 11

// layouts lists the parallel layouts tried for n GPUs, in order of preference, in
// buf (no allocation: there are at most maxLayouts): the request's pinned
// layout alone when it has one. Tensor parallelism, whose all-reduces sit on
// every layer's critical path, is kept inside one server of server GPUs, as
// Megatron-LM deploys it.
func (s *settings) layouts(buf *[maxLayouts]sizing.Parallel, n, server int) []sizing.Parallel {
	if s.Parallel != nil {
		return append(buf[:0], *s.Parallel)
	}
	m := s.Model
	heads, kv := m.Heads, cmp.Or(m.KVHeads, m.Heads)
	divides := func(t int) bool { return heads > 0 && heads%t == 0 && kv%t == 0 }
	ls := buf[:0]
	if s.Workload.Task == sizing.Inference {
		ls = append(ls, sizing.Parallel{Data: n})
		if n > 1 && n <= server && divides(n) { // tensor parallelism stays inside a server
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
		for _, t := range [...]int{2, 4, 8} {
			if t <= n && t <= server && n%t == 0 && divides(t) {
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

// fitCard tries every layout of n GPUs of card, in servers of server GPUs, each
// at its micro-batch (batch), and keeps the fastest that fits (among equals
// as winsTie orders them, then the first listed; without Tokens, the first
// that fits). A layout fits when its memory per GPU fits the card less the
// headroom and, when host is set (the offer's host RAM per GPU), its host
// memory (Breakdown.Host: an offloaded optimizer) fits host. The links and the
// peak do not depend on the layout: they are found once.
func (s *settings) fitCard(card catalog.Card, n, server int, host sizing.Bytes, work compute.FLOPs) *fit {
	usable, _ := sizing.Usable(card.Memory, s.headroom) // settle checked the headroom
	link, nvlink, linkName := linkFor(card, n, server)
	peak, _, peakErr := peakFor(card, s.Workload.Precision, s.Workload.Task)
	var smallest sizing.Bytes = -1
	var hostNeed sizing.Bytes // the least host RAM of a layout that fit the GPUs but not host
	var chosen fit            // the fastest layout that fits and can be timed, else the first that fits
	found := false
	var jobs timings
	tried := 0
	var buf [maxLayouts]sizing.Parallel
	training := s.Workload.Task != sizing.Inference
	for _, l := range s.layouts(&buf, n, server) {
		tried++
		// A layout is at its fastest at its largest micro-batch: when that was
		// timed already and cannot beat the chosen layout, its memory need not
		// be searched.
		if chosen.ok && training && jobs.cannotBeat(l, s.topMicro(l), &chosen) {
			continue
		}
		b, micro, need, ok := s.batch(l, usable)
		if need > 0 && (smallest < 0 || need < smallest) {
			smallest = need
		}
		if !ok {
			continue
		}
		if host > 0 && b.Host > host {
			if hostNeed == 0 || b.Host < hostNeed {
				hostNeed = b.Host
			}
			continue
		}
		cur := fit{ok: true, layout: l, mem: b, micro: micro, usable: usable, nvlink: nvlink, linkName: linkName}
		if micro > 0 {
			cur.accum = s.perReplica(l) / micro
		}
		switch {
		case peakErr != nil:
			cur.ok, cur.err = false, peakErr
		case chosen.ok && training && jobs.cannotBeat(l, micro, &chosen):
			continue
		default:
			if err := s.timeFit(&cur, &card, n, server, work, peak, link, &jobs); err != nil {
				cur.ok, cur.err = false, fmt.Errorf("%s at %s: %w", card.Name, text.Count(n, "GPU", "GPUs"), err)
			}
		}
		if !found || cur.ok && (!chosen.ok || cur.duration < chosen.duration || cur.duration == chosen.duration && winsTie(l, micro, &chosen)) {
			chosen, found = cur, true
		}
		if s.Tokens == 0 && chosen.ok {
			break
		}
	}
	if found {
		f := chosen
		f.tried, f.server = tried, server
		return &f
	}
	f := &fit{usable: usable, tried: tried, server: server}
	switch {
	case hostNeed > 0:
		f.hostNeed = hostNeed
		f.err = fmt.Errorf("%s at %s: offloading the optimizer needs %s of host RAM per GPU, over the %s the offer has",
			card.Name, text.Count(n, "GPU", "GPUs"), hostNeed.Human(), host.Human())
	case smallest < 0:
		f.err = fmt.Errorf("%s: no layout of %s is valid for this model", card.Name, text.Count(n, "GPU", "GPUs"))
	default:
		f.need = smallest
		f.err = fmt.Errorf("%s at %s needs %s per GPU, over the %s usable (%s less %.0f%% headroom)",
			card.Name, text.Count(n, "GPU", "GPUs"), smallest.Human(), usable.Human(), card.Memory.Human(), s.headroom*100)
	}
	return f
}

// perReplica is the sequences one data-parallel replica of layout l runs per
// optimizer step: GlobalBatch over the data-parallel degree, or the workload's
// Batch without a global batch; zero when the degree does not divide
// GlobalBatch.
func (s *settings) perReplica(l sizing.Parallel) int {
	if s.GlobalBatch == 0 {
		return s.Workload.Batch
	}
	if d := max(l.Data, 1); s.GlobalBatch%d == 0 {
		return s.GlobalBatch / d
	}
	return 0
}

// batch finds layout l's memory per GPU and, for training, its micro-batch:
// the largest divisor of the sequences a replica runs per optimizer step
// (perReplica), no larger than the workload's Batch, whose estimate fits in
// usable bytes. The largest is the fastest (a larger micro-batch never slows
// a step: the same work, in fewer and larger matrix multiplies), so the search
// is by memory alone, not a timing of each size: the largest first, and when
// it does not fit a bisection over the smaller divisors, since memory grows
// with the batch (sizing.MaxBatch's search, over the divisors: for a step of
// 4 sequences whose 4 do not fit, one estimate at 2 decides, where MaxBatch
// would search every batch up to 4). Inference keeps the workload's batch (its
// concurrent sequences). It reports the memory one sequence needs (need) when
// that does not fit, and false when the layout does not fit or the model
// cannot take it.
func (s *settings) batch(l sizing.Parallel, usable sizing.Bytes) (b sizing.Breakdown, micro int, need sizing.Bytes, ok bool) {
	w := s.Workload
	w.Parallel = l
	training := w.Task != sizing.Inference
	top := w.Batch
	if training {
		if top = s.topMicro(l); top == 0 {
			return b, 0, 0, false // the data-parallel degree does not divide the global batch
		}
		w.Batch = top
	}
	b, err := sizing.Estimate(s.Model, w)
	if err != nil {
		return b, 0, 0, false // a layout the model cannot take (heads, degrees)
	}
	if b.Total() <= usable {
		return b, top * boolInt(training), 0, true
	}
	if !training || top == 1 {
		return b, 0, b.Total(), false
	}
	// Bisect: ds[lo] fits (lo −1: none known to), ds[hi] does not (hi
	// len(ds): top, just estimated).
	var buf [maxDivisors]int
	ds := divisors(&buf, s.perReplica(l), top)
	var fits sizing.Breakdown
	lo, hi := -1, len(ds)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		w.Batch = ds[mid]
		if b, err = sizing.Estimate(s.Model, w); err != nil {
			return b, 0, 0, false
		}
		if b.Total() <= usable {
			lo, fits = mid, b
		} else {
			hi = mid
		}
	}
	if lo < 0 { // the last estimate was one sequence's, and it does not fit
		return b, 0, b.Total(), false
	}
	return fits, ds[lo], 0, true
}

// maxDivisors is the room divisors has on the stack: no number up to 2^20
// (sizing.MaxSearchBatch, the most a global batch may be) has more than 240
// divisors (720,720 has that many); past it the list grows on the heap.
const maxDivisors = 256

// divisors lists, ascending in buf, the divisors of n below limit (n ≥ 1),
// found among the divisor pairs up to √n.
func divisors(buf *[maxDivisors]int, n, limit int) []int {
	small, large := buf[:0], make([]int, 0, 16)
	for i := 1; i*i <= n && i < limit; i++ {
		if n%i != 0 {
			continue
		}
		small = append(small, i)
		if j := n / i; j != i && j < limit {
			large = append(large, j)
		}
	}
	for k := len(large) - 1; k >= 0; k-- {
		small = append(small, large[k])
	}
	return small
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// jobTiming is compute.Job's timing of a training layout over the utilization
// band and at the request's utilization. It depends on the tensor degree, the
// pipeline stages, whether ZeRO-3 gathers the weights and the micro-batch alone
// among a layout's fields (an offloaded optimizer is added after, by timeFit),
// so fitCard times each once.
type jobTiming struct {
	tensor, pipeline, micro int
	zero3                   bool
	band, mid               compute.Timing
	err                     error
}

// timings is one fitCard's jobTimings, at most one per layout (kept in an
// array, on the stack).
type timings struct {
	list [maxLayouts]jobTiming
	n    int
}

// find returns the timing of layout l's tensor degree, pipeline stages and
// ZeRO-3 at micro-batch micro, or nil.
func (j *timings) find(l sizing.Parallel, micro int) *jobTiming {
	t, p, z3 := max(l.Tensor, 1), max(l.Pipeline, 1), l.ZeRO == 3
	for i := range j.n {
		if jt := &j.list[i]; jt.tensor == t && jt.pipeline == p && jt.zero3 == z3 && jt.micro == micro {
			return jt
		}
	}
	return nil
}

// cannotBeat reports whether training layout l at micro-batch micro cannot
// be chosen over the chosen fit: its tensor degree, ZeRO-3 and micro-batch were
// timed already (for a ZeRO-3 layout, the same without ZeRO-3 will do: a lower
// bound), slower than the chosen, or as fast without winning the tie
// (winsTie), and its offload only adds to that time (see
// addsSafely).
func (j *timings) cannotBeat(l sizing.Parallel, micro int, chosen *fit) bool {
	jt := j.find(l, micro)
	if jt == nil && l.ZeRO == 3 {
		// ZeRO-3's gathers only add to the step (compute.Job.ZeRO): the same
		// layout's time without them bounds it from below.
		plain := l
		plain.ZeRO = 0
		jt = j.find(plain, micro)
	}
	if jt == nil {
		return false
	}
	d := jt.mid.Duration
	return jt.err == nil && (d > chosen.duration || d == chosen.duration && !winsTie(l, micro, chosen)) &&
		(!l.OffloadOptimizer || d < addsSafely)
}

// winsTie reports whether training layout l at micro-batch micro is chosen over
// the chosen fit when both take as long: a layout without ZeRO-3 over one with
// it (with the collectives hidden behind compute the two can time alike, and
// the gathers' traffic is the one to spare), then the larger micro-batch.
func winsTie(l sizing.Parallel, micro int, chosen *fit) bool {
	z3, c3 := l.ZeRO == 3, chosen.layout.ZeRO == 3
	return !z3 && c3 || z3 == c3 && micro > chosen.micro
}

// topMicro is the largest micro-batch layout l is tried at: the largest
// divisor of its sequences per step no larger than the workload's Batch; zero
// when its data-parallel degree does not divide the global batch.
func (s *settings) topMicro(l sizing.Parallel) int {
	per := s.perReplica(l)
	if per == 0 {
		return 0
	}
	if s.Workload.Batch >= per {
		return per
	}
	var buf [maxDivisors]int
	ds := divisors(&buf, per, s.Workload.Batch+1)
	return ds[len(ds)-1] // 1 divides every count
}

// timeFit fills the fit's durations and efficiency, n GPUs of card in servers of
// server GPUs joined by link inside each.
func (s *settings) timeFit(f *fit, card *catalog.Card, n, server int, work compute.FLOPs, peak compute.FLOPRate, link compute.Link, jobs *timings) error {
	f.eff = 1
	if s.Tokens == 0 {
		return nil
	}
	if s.Workload.Task == sizing.Inference {
		return s.timeDecode(f, card, peak, link)
	}
	jt := jobs.find(f.layout, f.micro)
	if jt == nil {
		jt = &jobs.list[jobs.n]
		jobs.n++
		*jt = s.timeJob(card, work, n, server, f.layout, f.micro, f.accum, peak, link)
	}
	if jt.err != nil {
		return jt.err
	}
	band, mid := jt.band, jt.mid
	// What an offloaded optimizer adds (compute.Timing.WithOffload): the
	// optimizer's shard of gradients out and weights back over the card's PCIe
	// link each step.
	var host compute.Bandwidth
	var offload sizing.Bytes
	if f.layout.OffloadOptimizer {
		var err error
		if host, err = compute.PCIe(cmp.Or(card.PCIeGen, 4)); err != nil {
			return err
		}
		offload = f.mem.Gradients
	}
	mid.Low, mid.High = band.Low, band.High
	t2, err := mid.WithOffload(offload, host)
	if err != nil {
		return err
	}
	f.duration, f.low, f.high, f.eff = t2.Duration, t2.Low, t2.High, t2.Efficiency
	return nil
}

// dataParallelOverlap is the fraction of the data-parallel collectives the
// planner's jobs hide behind a micro-batch's compute: all of it, up to that
// compute (compute.Exposed). The frameworks that run these jobs overlap them
// (PyTorch DDP all-reduces gradient buckets during the backward pass, Li et
// al. 2020, §3.2.3; FSDP and ZeRO-3 prefetch the next layer's weights), and
// ACCURACY.md times the figures of such frameworks (FSDP, DDP, Megatron-Core:
// all its multi-GPU training figures but the Megatron-LM 2021 and BLOOM
// pipeline rows) with it, so the planner times what was measured there.
const dataParallelOverlap = 1

// timeJob times n GPUs of card in layout l's tensor degree, pipeline stages
// and ZeRO stage with compute.Job, each data-parallel replica running accum
// micro-batches of micro sequences per optimizer step (the gradients
// all-reduced once per step, hidden behind compute as dataParallelOverlap
// says), at the card's memory bandwidth and architecture,
// in servers of server GPUs joined by link inside each and, past one server,
// by the network (InterServerLink a GPU) between them. Without a utilization
// in the request compute models the step (calibrated for the card when the
// planner has its calibration), and its band is the model's error.
func (s *settings) timeJob(card *catalog.Card, work compute.FLOPs, n, server int, l sizing.Parallel, micro, accum int, peak compute.FLOPRate, link compute.Link) jobTiming {
	t, p := max(l.Tensor, 1), max(l.Pipeline, 1)
	task := s.Workload.Task
	j := compute.Job{
		Model: s.Model, Work: work, Precision: s.Workload.Precision, Recompute: s.Workload.Recompute,
		Adapters: task == sizing.LoRA || task == sizing.QLoRA,
		Batch:    micro, Accumulation: accum, SeqLen: s.Workload.SeqLen,
		Devices: n, Tensor: t, Pipeline: p, PeakPerDevice: peak, Bandwidth: card.MemoryBandwidth, Link: link,
		DevicesPerMachine: server, ZeRO: l.ZeRO,
		Arch: card.Architecture, Utilization: s.band, Calibration: s.calibration(card),
		Overlap: dataParallelOverlap,
	}
	if task == sizing.QLoRA {
		j.WeightPrecision = sizing.NF4 // the frozen base, as sizing.Estimate stores it
	}
	if n > server {
		j.Network = compute.Link{Bandwidth: InterServerLink, Latency: networkStepLatency}
	}
	jt := jobTiming{tensor: t, pipeline: p, zero3: l.ZeRO == 3, micro: micro}
	if jt.band, jt.err = j.Time(); jt.err != nil {
		return jt
	}
	if s.modeled {
		jt.mid = jt.band
		return jt
	}
	if s.util == s.band.Mid() {
		// The band's Duration is the time at its middle, as a point there would
		// give it; a point's ends are its middle.
		jt.mid = jt.band
		jt.mid.Low, jt.mid.High = jt.mid.Duration, jt.mid.Duration
		return jt
	}
	j.Utilization = compute.Point(s.util)
	jt.mid, jt.err = j.Time()
	return jt
}

// timeDecode times Tokens of generation: each data-parallel replica (a GPU, or
// the tensor- or pipeline-parallel group) decodes Batch sequences at
// compute.Decode's speed with a context of SeqLen tokens, the longest the job
// keeps (a conservative choice). A tensor-parallel group is Decode's Devices on
// the link between them (its weights read in parallel, two all-reduces a layer);
// a pipeline reads each stage in turn, so one sequence decodes no faster than on
// one GPU. A calibration's Decode factor divides the step's on-device time, as
// compute.Serving applies it; the all-reduces stay as modelled.
func (s *settings) timeDecode(f *fit, card *catalog.Card, peak compute.FLOPRate, link compute.Link) error {
	replicas, width := max(f.layout.Data, 1), max(f.layout.Tensor, 1)
	speedup := 1.0
	if c := s.calibration(card); c != nil && c.Decode > 0 {
		speedup = c.Decode
	}
	at := func(u float64) (time.Duration, error) {
		d := compute.Decode{
			Model: s.Model, Weights: s.Workload.Precision, KV: s.Workload.KVPrecision,
			Context: s.Workload.SeqLen, Batch: s.Workload.Batch,
			Bandwidth: card.MemoryBandwidth, Peak: peak, Devices: width, Arch: card.Architecture, Utilization: u,
		}
		if width > 1 {
			d.Link = link
		}
		sp, err := d.Speed()
		if err != nil {
			return 0, err
		}
		comm := float64(sp.Comm)
		device := (float64(sp.Step) - comm) / speedup
		if !(device > 0) {
			return 0, fmt.Errorf("decode step takes no time: %w", pricing.ErrInvalid)
		}
		f.eff = device / (device + comm)
		rate := float64(max(s.Workload.Batch, 1)) / ((device + comm) / float64(time.Second)) * float64(replicas)
		if !(rate > 0) {
			return 0, fmt.Errorf("decode speed is zero: %w", pricing.ErrInvalid)
		}
		return seconds(s.Tokens / rate)
	}
	var err error
	if s.modeled { // the model's own decode speed; no band around it
		f.duration, err = at(0)
		f.low, f.high = f.duration, f.duration
		return err
	}
	if f.low, err = at(s.band.High); err != nil {
		return err
	}
	if f.high, err = at(s.band.Low); err != nil {
		return err
	}
	f.duration, err = at(s.util) // last, so f.eff is the middle one's
	return err
}

// calibrated says that the job on card is timed with the calibration measured
// on it, and by what factor (decode: a decode step's, else a training step's);
// empty when it is not.
func (s *settings) calibrated(card *catalog.Card, decode bool) string {
	c := s.calibration(card)
	what, f := "training", 0.0
	if c != nil {
		if f = c.Train; decode {
			what, f = "decode", c.Decode
		}
	}
	if f == 0 {
		return ""
	}
	return fmt.Sprintf("calibrated: timed at the speed measured on the %s, %s × the model's for a %s step",
		card.Name, strconv.FormatFloat(f, 'g', 3, 64), what)
}

// calibration returns the planner's calibration for card when compute's model
// times the job (the request leaves Utilization and Band zero); nil otherwise.
func (s *settings) calibration(card *catalog.Card) *compute.Calibration {
	if !s.modeled {
		return nil
	}
	c, ok := s.calibrations[card.ID]
	if !ok {
		return nil
	}
	return &c
}

// addsSafely bounds the durations to which compute.Timing.WithZeRO cannot add
// time and return a shorter one. Below ZeRO-3 and without offload it adds
// nothing; otherwise it adds a positive number of seconds in float64 and
// converts back, and below 2^50 ns (about 13 days) that trip is off by under
// half a nanosecond, so the sum comes back no shorter.
const addsSafely = time.Duration(1) << 50

// seconds converts a float count of seconds to a Duration, refusing values past
// its range.
func seconds(sec float64) (time.Duration, error) {
	ns := math.Ceil(sec * 1e9)
	if math.IsNaN(ns) || ns >= math.MaxInt64 {
		return 0, fmt.Errorf("plan: %g s is past time.Duration's range: %w", sec, pricing.ErrInvalid)
	}
	return time.Duration(ns), nil
}

// linkFor returns the link n GPUs of card share inside a server of server GPUs
// (all n when they fit in one, a server's worth otherwise): NVLink (or Infinity
// Fabric) where the card has it for every GPU, a bridge for a pair only, PCIe
// otherwise. Between servers each GPU has InterServerLink of network (see
// timeJob), which compute.Job charges only the rings that cross servers (the
// data-parallel ones; tensor parallelism stays inside a server).
func linkFor(card catalog.Card, n, server int) (compute.Link, bool, string) {
	l, kind, err := card.PeerLink(min(n, server))
	gen := card.PCIeGen
	switch {
	case err != nil: // a generation compute does not know: PCIe Gen4, the common one
		l, _ = compute.PCIeLink(4)
		gen = 4
	case kind != catalog.LinkNone:
		l.Latency = nvlinkStepLatency
		return l, true, kind.String()
	}
	l.Latency = pcieStepLatency
	return l, false, "PCIe Gen" + strconv.Itoa(gen)
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

// networkName names the link between servers (InterServerLink a GPU) in
// warnings.
const networkName = "the network between servers (200 Gb/s per GPU assumed)"

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
	// No rate to time the job at: the card lacks the unit (FP64 on most cards), or
	// its maker publishes no rate for it (FP32 on the Ascend 910B). Never a zero
	// peak, which would give no time, or an infinite one.
	return 0, "", fmt.Errorf("%s has no %v rate in the catalog (no such unit, or none published) to time the job at", card.Name, p)
}
