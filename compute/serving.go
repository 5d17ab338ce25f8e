package compute

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// Serving sentinels, besides ErrInvalid.
var (
	// ErrNoFit reports a replica whose memory cannot hold the model and the KV cache
	// of the concurrency asked for (or of one sequence).
	ErrNoFit = errors.New("does not fit")
	// ErrUnreachable reports a latency target a replica misses even serving one
	// sequence.
	ErrUnreachable = errors.New("latency target not reachable")
)

// DefaultServingReserve is the fraction of each device's memory a serving replica
// leaves unused when Serving.Reserve is zero: vLLM's gpu_memory_utilization of 0.9
// leaves 0.1 for the CUDA context, NCCL buffers and fragmentation.
const DefaultServingReserve = 0.1

// KVBlockTokens is the number of tokens in one block of a paged KV cache, vLLM's
// default block size (Kwon et al. 2023, §4): a sequence holds whole blocks.
const KVBlockTokens = 16

// Serving describes one replica of a model behind an API: a tensor-parallel group of
// Devices devices running continuous batching (Yu et al. 2022, Orca; vLLM), with
// requests of PromptTokens prompt tokens and OutputTokens generated tokens each.
//
// Memory, Bandwidth and Peak are each device's; Peak is the dense rate at the
// precision the matrix multiplies run in, which the caller picks: FP8 for FP8
// weights on a card that has FP8 tensor cores, 16-bit otherwise (weight-only
// quantized formats such as INT4, AWQ or GGUF's compute in 16 bits).
//
// A model known by Params alone is served with the shape sizing.Estimate assumes
// for it (sizing.Model.Shape: dense, Llama-like, 8 KV heads), on one device or
// tensor-parallel, and every ServingPoint says so in Approx.
type Serving struct {
	Model     sizing.Model     `json:"model"`
	Weights   sizing.Precision `json:"weights"`                    // storage of the weights; required
	KV        sizing.Precision `json:"kv_precision"`               // zero: Weights.KVDefault(); FP8 halves a 16-bit cache
	Devices   int              `json:"devices"`                    // tensor-parallel devices per replica; zero: 1
	Memory    sizing.Bytes     `json:"memory_bytes"`               // per device
	Bandwidth Bandwidth        `json:"bandwidth_bytes_per_second"` // per device
	Peak      FLOPRate         `json:"peak_flops"`                 // per device, dense, at the compute precision
	Link      Link             `json:"link"`                       // between the devices; required when Devices > 1

	PromptTokens int `json:"prompt_tokens"` // mean prompt length of a request; at least 1
	OutputTokens int `json:"output_tokens"` // mean tokens generated per request; at least 1

	// Reserve is the fraction of each device's memory left unused; zero:
	// DefaultServingReserve. PrefillChunk is the prompt tokens of one chunked-prefill
	// pass; zero: sizing.DefaultPrefillChunk. A prompt may take at most
	// MaxPromptChunks chunks.
	Reserve      float64 `json:"reserve"`
	PrefillChunk int     `json:"prefill_chunk"`
	// MemoryEfficiency and Utilization are the fractions of Bandwidth and Peak
	// reached; zero: MemoryEfficiencyFor(Weights, Arch) and
	// PrefillEfficiency(Weights, Arch), as in Decode.
	MemoryEfficiency float64 `json:"memory_efficiency"`
	Utilization      float64 `json:"utilization"`
	// Arch is the devices' architecture as the catalog names it ("Hopper"), for
	// the efficiencies that depend on it; empty: a generic card.
	Arch string `json:"arch"`
	// Calibration, when set, divides the modelled on-device time of every step by
	// its Decode factor (Serving.Fit works one out); nil or a zero factor: as
	// modelled.
	Calibration *Calibration `json:"calibration"`

	// PrefixShare is the share of each prompt found in a prefix cache (vLLM's
	// automatic prefix caching, SGLang's RadixAttention), in [0, 1): the whole
	// KVBlockTokens blocks of that share are not prefilled, and are held once for
	// every sequence, so a cache never lowers MaxConcurrency nor slows a TTFT.
	// Zero: no cache.
	PrefixShare float64 `json:"prefix_share"`
	// Speculative, when set, decodes with a draft (Speculation); nil: without.
	Speculative *Speculation `json:"speculative"`
	// SeparatePrefill schedules prompts in steps of their own: a step either runs
	// waiting prompts (up to PrefillChunk tokens) or decodes, never both, and the
	// decoding sequences wait while a prompt runs. Engines that put prefills first
	// without mixing them into decode steps do this: vLLM before its V1 engine
	// unless chunked prefill is enabled (its default only past 32K tokens of
	// context), SGLang without --enable-mixed-chunk. False: prompt chunks ride in
	// the decode steps (chunked prefill as Sarathi-Serve describes it, vLLM V1,
	// TensorRT-LLM's in-flight batching).
	SeparatePrefill bool `json:"separate_prefill"`
	// Expert is the expert-parallel degree of a mixture of experts: its routed
	// experts spread over Expert groups of the Devices, whole experts to a group,
	// with attention tensor-parallel over all of them, each MoE layer's tokens
	// going to their experts and back in two all-to-alls, and each step waiting
	// for the group its tokens touch most (at small batch that is slower than
	// tensor parallelism, at large batch it sends less). Memory per device is as
	// without it. It divides both Devices and the model's Experts; zero or 1: the
	// experts are tensor-parallel like the rest.
	Expert int `json:"expert"`
}

// ServingPoint is a replica's steady state with Concurrency users in a closed loop
// (At).
type ServingPoint struct {
	Concurrency int           `json:"concurrency"`                  // sequences decoding together
	TTFT        time.Duration `json:"ttft"`                         // time to first token: the request's overhead, the wait for a step and its prefill
	TPOT        time.Duration `json:"tpot"`                         // time per output token: one step at this load
	Throughput  TokenRate     `json:"throughput_tokens_per_second"` // generated tokens/s of the replica: Requests × OutputTokens
	PerUser     TokenRate     `json:"per_user_tokens_per_second"`   // one sequence's generation speed: 1/TPOT
	// Requests is the requests the replica completes per second: Concurrency /
	// (TTFT + (OutputTokens − 1) × TPOT), each user's cycle in a closed loop.
	Requests float64 `json:"requests_per_second"`
	// Approx reports a model known by Params alone: its KV cache, attention and
	// all-reduces follow the shape sizing.Estimate assumes for it
	// (sizing.Model.Shape), dense with grouped-query attention of 8 KV heads.
	Approx bool `json:"approx"`
}

// PreparedServing is a Serving validated and sized once, the one implementation
// of MaxConcurrency, At and Best: Serving's methods prepare one and ask it. A
// caller that asks many questions of one replica (a sweep, a planner over many
// offers) prepares it once with Serving.Prepare. The zero PreparedServing is not
// usable: its methods return errors wrapping ErrInvalid.
type PreparedServing struct {
	r        replica
	separate bool // Serving.SeparatePrefill
	prompt   float64
	output   float64
	chunk    float64
	kvSeq    float64 // bytes of KV cache a sequence holds of its own at its longest, in whole blocks (shared prefix blocks apart: modes.kvShared)
	free     float64 // bytes left for the KV cache over the whole replica
	need     float64 // bytes per device the weights, a chunk's activations and the reserve take
	max      int
	modes    // prefix cache, speculative decoding (modes.go)
}

// MaxPromptChunks is the most chunks Serving lets a prompt take (PromptTokens over
// PrefillChunk, rounded up). Engines run chunks of hundreds to thousands of
// tokens (vLLM's default max_num_batched_tokens is 2048 under chunked prefill,
// SGLang's chunked_prefill_size 2048 to 8192), so a million-token prompt takes
// a few hundred; a chunk of a few tokens describes no engine, and Under's
// simulation, which runs every chunk as a step, would take seconds a call.
const MaxPromptChunks = 1024

// Prepare validates s and works out its per-replica quantities once, with the
// errors MaxConcurrency returns.
func (s Serving) Prepare() (PreparedServing, error) {
	devices, kvp, reserve, chunk := s.Devices, s.KV, s.Reserve, s.PrefillChunk
	if devices == 0 {
		devices = 1
	}
	if kvp == 0 {
		kvp = s.Weights.KVDefault()
	}
	if reserve == 0 {
		reserve = DefaultServingReserve
	}
	if chunk == 0 {
		chunk = sizing.DefaultPrefillChunk
	}
	if s.PromptTokens < 1 || s.OutputTokens < 1 {
		return PreparedServing{}, fmt.Errorf("compute: serving %d prompt and %d output tokens per request, want 1 or more of each: %w", s.PromptTokens, s.OutputTokens, ErrInvalid)
	}
	if s.PromptTokens > math.MaxInt32 || s.OutputTokens > math.MaxInt32-s.PromptTokens-KVBlockTokens {
		return PreparedServing{}, fmt.Errorf("compute: serving %d prompt and %d output tokens per request, too long: %w", s.PromptTokens, s.OutputTokens, ErrInvalid)
	}
	if chunk < 1 {
		return PreparedServing{}, fmt.Errorf("compute: prefill chunk of %d tokens, want 1 or more: %w", s.PrefillChunk, ErrInvalid)
	}
	if n := (s.PromptTokens + chunk - 1) / chunk; n > MaxPromptChunks {
		return PreparedServing{}, fmt.Errorf("compute: prefill chunk of %d tokens splits a %d-token prompt into %d chunks, want at most %d (a chunk of %d tokens or more): %w",
			chunk, s.PromptTokens, n, MaxPromptChunks, (s.PromptTokens+MaxPromptChunks-1)/MaxPromptChunks, ErrInvalid)
	}
	if !(reserve > 0 && reserve < 1) {
		return PreparedServing{}, fmt.Errorf("compute: memory reserve %v, want a fraction in (0, 1): %w", s.Reserve, ErrInvalid)
	}
	if s.Memory <= 0 {
		return PreparedServing{}, fmt.Errorf("compute: device memory %d bytes, want more than 0: %w", s.Memory, ErrInvalid)
	}
	if !kvp.Valid() {
		return PreparedServing{}, fmt.Errorf("compute: KV cache precision %v is not a known precision: %w", kvp, ErrInvalid)
	}
	if !s.Weights.Valid() {
		return PreparedServing{}, fmt.Errorf("compute: weights precision %v is not a known precision: %w", s.Weights, ErrInvalid)
	}
	// The weights and the activations of one prefill chunk, as sizing.Estimate
	// counts them (it validates the model); for a model known by Params alone, its
	// KV cache per token too.
	est, err := sizing.Estimate(s.Model, sizing.Workload{Task: sizing.Inference, Precision: s.Weights,
		KVPrecision: kvp, Batch: 1, SeqLen: chunk})
	if err != nil {
		return PreparedServing{}, &sizingError{err}
	}
	emb, err := sizing.InputEmbeddingBytes(s.Model, s.Weights)
	if err != nil {
		return PreparedServing{}, &sizingError{err}
	}
	var calib float64
	if s.Calibration != nil {
		if err := s.Calibration.Validate(); err != nil {
			return PreparedServing{}, err
		}
		calib = s.Calibration.Decode
	}
	r, err := newReplica(replicaSpec{model: s.Model, weights: s.Weights, bytes: float64(est.Weights), embed: float64(emb),
		devices: devices, bw: s.Bandwidth, peak: s.Peak, link: s.Link, memEff: s.MemoryEfficiency, util: s.Utilization,
		arch: s.Arch, calib: calib})
	if err != nil {
		return PreparedServing{}, err
	}
	r.fixed = StepOverhead.Seconds()
	held := (s.PromptTokens + s.OutputTokens + KVBlockTokens - 1) / KVBlockTokens * KVBlockTokens
	ctx := s.PromptTokens + s.OutputTokens/2 // a decoding sequence's mean context
	// The KV cache a sequence holds at its longest, and what it reads at its mean
	// context, in proportion.
	var kvSeq float64
	if s.Model.HasArchitecture() {
		a, err := sizing.KVCacheBytes(s.Model, held, 1, kvp)
		if err != nil {
			return PreparedServing{}, &sizingError{err}
		}
		kvSeq = float64(a)
	} else {
		kvSeq = float64(est.KVCache) / float64(chunk) * float64(held)
	}
	kvRead := kvSeq * float64(ctx) / float64(held)
	kvSeq *= r.kvCopies // the memory a sequence takes over the whole replica
	r.kvRead, r.ctx = kvRead, float64(ctx)
	n, mem := float64(devices), float64(s.Memory)
	sv := PreparedServing{
		r: r, separate: s.SeparatePrefill, prompt: float64(s.PromptTokens), output: float64(s.OutputTokens), chunk: float64(chunk),
		kvSeq: kvSeq,
		need:  mem*reserve + float64(est.Weights)/n + float64(est.Activations),
	}
	if err := sv.setModes(s, held); err != nil {
		return PreparedServing{}, err
	}
	sv.free = n * (mem - sv.need)
	if kvSeq = sv.kvSeq + sv.kvShared; sv.free < kvSeq || !(kvSeq > 0) {
		return PreparedServing{}, fmt.Errorf("compute: %s on %d × %s: weights, a %d-token prefill chunk's activations and the %.0f%% reserve take %s of each device's %s, leaving the replica %s for a KV cache of %s per sequence (%d tokens): %w",
			modelName(s.Model), devices, s.Memory.HumanSI(), chunk, 100*reserve, sizing.Bytes(math.Min(sv.need, 9e18)).HumanSI(), s.Memory.HumanSI(),
			sizing.Bytes(math.Max(sv.free, 0)).HumanSI(), sizing.Bytes(kvSeq).HumanSI(), held, ErrNoFit)
	}
	sv.max = int(math.Min((sv.free-sv.kvShared)/sv.kvSeq, math.MaxInt32))
	return sv, nil
}

func modelName(m sizing.Model) string {
	if m.Name != "" {
		return m.Name
	}
	return fmt.Sprintf("a %.3g-parameter model", float64(m.ParamCount()))
}

// MaxConcurrency is shorthand for Prepare, then PreparedServing.MaxConcurrency.
func (s Serving) MaxConcurrency() (int, error) {
	p, err := s.Prepare()
	if err != nil {
		return 0, err
	}
	return p.MaxConcurrency()
}

// At is shorthand for Prepare, then PreparedServing.At.
func (s Serving) At(concurrency int) (ServingPoint, error) {
	p, err := s.Prepare()
	if err != nil {
		return ServingPoint{}, err
	}
	return p.At(concurrency)
}

// Best is shorthand for Prepare, then PreparedServing.Best.
func (s Serving) Best(ttft, tpot time.Duration) (ServingPoint, error) {
	p, err := s.Prepare()
	if err != nil {
		return ServingPoint{}, err
	}
	return p.Best(ttft, tpot)
}

var errUnprepared = fmt.Errorf("compute: a PreparedServing not made by Serving.Prepare: %w", ErrInvalid)

// MaxConcurrency returns how many sequences the replica can hold at once: the KV
// cache gets each device's memory less the reserve, its share of the weights and the
// activations of one prefill chunk (sizing.Estimate, batch 1, PrefillChunk tokens),
// and each sequence holds PromptTokens + OutputTokens tokens of it, in whole blocks
// of KVBlockTokens, so no sequence is preempted. (Prepare reports a replica that
// cannot hold one sequence: an error wrapping ErrNoFit that says what is needed
// and what is left.)
func (p *PreparedServing) MaxConcurrency() (int, error) {
	if p.max < 1 {
		return 0, errUnprepared
	}
	return p.max, nil
}

// At returns the steady state of the replica serving concurrency users in a closed
// loop, as benchmark clients run them: each user sends a request, waits for its
// last token and sends the next.
//
// Each step decodes one token of each running sequence, whose mean context is
// PromptTokens + OutputTokens/2, and runs the prompt tokens that arrived since the
// last (chunked prefill shares the GPU with decoding, as Sarathi-Serve and vLLM
// do). The step's linear layers read the weights once for all its tokens or
// compute them, whichever is slower; attention then reads every running
// sequence's KV cache and computes the prompt tokens' context; tensor parallelism
// adds its all-reduces, and every step its fixed cost (see replica.step). A user's
// cycle is its TTFT and OutputTokens − 1 steps; over it the other users decode for
// the share of their own cycles their decoding takes, and their prompts arrive at
// concurrency − 1 per cycle. That step is TPOT. TTFT is RequestOverhead, the wait
// for the step in flight (the other users keep the engine busy (c − 1)/c of the
// time), then the prompt in chunks of PrefillChunk tokens, each one step beside the
// decoding users. The loop is solved by fixed-point iteration from everyone
// decoding.
//
// With SeparatePrefill the prompts that arrive while a step runs run after it in
// steps of their own, whole prompts batched up to PrefillChunk tokens a step, and
// the decoding users wait for them: TPOT is a decode step and those prompt steps;
// a prompt's own steps carry no decoding users.
//
// Queueing for a free sequence slot is not counted: concurrency must be from 1 to
// MaxConcurrency (ErrInvalid below, ErrNoFit above).
func (sv *PreparedServing) At(c int) (ServingPoint, error) {
	if sv.max < 1 {
		return ServingPoint{}, errUnprepared
	}
	if c < 1 {
		return ServingPoint{}, fmt.Errorf("compute: concurrency %d, want 1 or more: %w", c, ErrInvalid)
	}
	if c > sv.max {
		return ServingPoint{}, fmt.Errorf("compute: concurrency %d needs %s of KV cache, the replica has room for %s (%d sequences): %w",
			c, sizing.Bytes(math.Min(sv.kvShared+float64(c)*sv.kvSeq, 9e18)).HumanSI(), sizing.Bytes(sv.free).HumanSI(), sv.max, ErrNoFit)
	}
	ttft, tpot := sv.loop(float64(c))
	tp, err := latency(tpot)
	if err != nil {
		return ServingPoint{}, err
	}
	tf, err := latency(ttft)
	if err != nil {
		return ServingPoint{}, err
	}
	cycle := ttft + (sv.output-1)*tpot
	req := float64(c) / cycle
	return ServingPoint{
		Concurrency: c, TTFT: tf, TPOT: tp,
		Throughput: TokenRate(req * sv.output), PerUser: TokenRate(1 / tpot),
		Requests: req, Approx: sv.r.approx,
	}, nil
}

// loop returns the TTFT and TPOT, in seconds, of c users in a closed loop (At).
func (sv *PreparedServing) loop(c float64) (ttft, tpot float64) {
	others := c - 1
	step := sv.step(c, 0, 0)
	ttft = sv.firstToken(others, step, others/c)
	for range 8 {
		cycle := ttft + sv.steps*step
		decoding := others * sv.steps * step / cycle
		// The other users' prompt tokens that arrive while one step runs.
		arriving := others * sv.fill / cycle * step
		if sv.separate {
			// A decode step, and the prompts that arrived run in steps of their own
			// between decode steps while the decoding sequences wait.
			step = sv.step(1+decoding, 0, 0) + sv.prefills(arriving)
			ttft = sv.firstToken(0, step, others/c)
			continue
		}
		step = sv.step(1+decoding, arriving, sv.cached+sv.fill/2)
		ttft = sv.firstToken(decoding, step, others/c)
	}
	return ttft, step * sv.perToken
}

// prefills returns the seconds that tokens prompt tokens (a mean, fractional)
// take in steps of their own: whole prompts batched up to a chunk a step, a
// fraction of a prompt as that fraction of a prompt's steps.
func (sv *PreparedServing) prefills(tokens float64) float64 {
	if tokens <= 0 {
		return 0
	}
	per := math.Min(math.Max(tokens, sv.fill), sv.chunk) // prompt tokens a step runs
	return tokens / per * sv.step(0, per, sv.cached+sv.fill/2)
}

// firstToken returns the seconds from a request's arrival to its first token when
// dec sequences decode beside it and the engine is busy with a step of step
// seconds for the share busy of the time: RequestOverhead, the wait for the step
// in flight, then the prompt tokens not found in the prefix cache in chunks, each
// chunk's tokens attending to the cached prefix, the chunks before them and half
// of their own.
func (sv *PreparedServing) firstToken(dec, step, busy float64) float64 {
	whole := math.Floor(sv.fill / sv.chunk)
	last := sv.fill - whole*sv.chunk
	t := RequestOverhead.Seconds() + busy*step
	if whole > 0 {
		// The whole chunks' mean context is the midpoint of the prompt they cover.
		t += whole * sv.step(dec, sv.chunk, sv.cached+whole*sv.chunk/2)
	}
	if last > 0 {
		t += sv.step(dec, last, sv.cached+whole*sv.chunk+last/2)
	}
	return t
}

// Best returns the point of highest concurrency (and so highest throughput) whose
// TTFT and TPOT are within the targets; a zero target is no limit, a negative one
// ErrInvalid. TTFT and TPOT only grow with concurrency, so this is a binary search
// over 1..MaxConcurrency, one validation and a few dozen steps. When even one
// sequence misses a target, Best returns the point at concurrency 1 (the best
// latency the replica reaches) with an error wrapping ErrUnreachable.
func (sv *PreparedServing) Best(ttft, tpot time.Duration) (ServingPoint, error) {
	if sv.max < 1 {
		return ServingPoint{}, errUnprepared
	}
	if ttft < 0 || tpot < 0 {
		return ServingPoint{}, fmt.Errorf("compute: TTFT target %v and TPOT target %v, want neither negative: %w", ttft, tpot, ErrInvalid)
	}
	meets := func(p ServingPoint) bool {
		return (ttft == 0 || p.TTFT <= ttft) && (tpot == 0 || p.TPOT <= tpot)
	}
	best, err := sv.At(1)
	if err != nil {
		return ServingPoint{}, err
	}
	if !meets(best) {
		return best, fmt.Errorf("compute: at concurrency 1 TTFT is %v (target %v) and TPOT %v (target %v): %w",
			best.TTFT, ttft, best.TPOT, tpot, ErrUnreachable)
	}
	lo, hi := 1, sv.max // lo meets; find the largest that does
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		p, err := sv.At(mid)
		if err != nil {
			return ServingPoint{}, err
		}
		if meets(p) {
			lo, best = mid, p
		} else {
			hi = mid - 1
		}
	}
	return best, nil
}

// Fit returns the calibration under which the modelled replica (its own
// Calibration left out) serving concurrency users in a closed loop (At) decodes at
// tpot, a measured time per output token: Decode is the factor on the modelled
// on-device speed of a step that reproduces it, so that s with that Calibration
// gives At(concurrency).TPOT = tpot (within a nanosecond's rounding), and another
// model served on the same card carries it over.
//
// A TPOT faster than the card allows is an error wrapping ErrInvalid that names
// it: faster than the weights read at the full Bandwidth, or than a step's
// all-reduces and StepOverhead alone. Errors of Prepare and At too.
func (s Serving) Fit(concurrency int, tpot time.Duration) (Calibration, error) {
	if s.Speculative != nil {
		return Calibration{}, fmt.Errorf("compute: a TPOT measured with speculative decoding mixes the card's speed with the draft's acceptance: fit from a run without it: %w", ErrInvalid)
	}
	s.Calibration = nil
	p, err := s.Prepare()
	if err != nil {
		return Calibration{}, err
	}
	if _, err := p.At(concurrency); err != nil {
		return Calibration{}, err
	}
	if tpot <= 0 {
		return Calibration{}, fmt.Errorf("compute: a measured TPOT of %v, want more than zero: %w", tpot, ErrInvalid)
	}
	want, c := tpot.Seconds(), float64(concurrency)
	// A step reads at least the weights and one sequence's KV cache.
	if floor := p.r.step(1, 0, 0).read / p.r.bandwidth; want < floor {
		return Calibration{}, fmt.Errorf("compute: a measured TPOT of %v at concurrency %d is faster than the %v the weights take to read at the full %v: %w",
			tpot, concurrency, time.Duration(floor*1e9), Bandwidth(p.r.bandwidth/p.r.devices), ErrInvalid)
	}
	p.r.calib = maxCalibration
	if _, floor := p.loop(c); want <= floor {
		return Calibration{}, fmt.Errorf("compute: a measured TPOT of %v is no longer than the %v of a step's all-reduces and fixed cost: %w",
			tpot, time.Duration(floor*1e9), ErrInvalid)
	}
	f, ok := fitFactor(func(f float64) float64 {
		p.r.calib = f
		_, got := p.loop(c)
		return got
	}, want)
	if !ok {
		return Calibration{}, fmt.Errorf("compute: a measured TPOT of %v is %.3g times the modelled speed, past the factor of %v a calibration allows: %w",
			tpot, f, maxCalibration, ErrInvalid)
	}
	return Calibration{Decode: f}, nil
}

// Replicas returns how many replicas at this point serve rate requests per second:
// ⌈rate / Requests⌉ and at least one, each replica completing Requests a second in
// its steady state.
// A rate that is not positive and finite, or a point with no Requests, is an error
// wrapping ErrInvalid; more than math.MaxInt32 replicas, ErrRange.
func (p ServingPoint) Replicas(rate float64) (int, error) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		return 0, fmt.Errorf("compute: %v requests per second, want a positive finite rate: %w", rate, ErrInvalid)
	}
	if !(p.Requests > 0) || math.IsInf(p.Requests, 0) {
		return 0, fmt.Errorf("compute: a serving point completing %v requests per second: %w", p.Requests, ErrInvalid)
	}
	n := math.Max(math.Ceil(rate/p.Requests), 1) // a quotient that underflows to 0 still needs one
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("compute: %v requests per second need %.3g replicas: %w", rate, n, ErrRange)
	}
	return int(n), nil
}
