package compute

import (
	"fmt"
	"math"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// The fixed cost of one small all-reduce in a tensor-parallel forward pass, on top of
// what the Link charges for its latency and bandwidth: AllReduceBase +
// AllReduceHop·log₂(devices). A decode step's all-reduces carry a few kilobytes (one
// hidden vector per token), so their time is launch, synchronization and hops, not
// bytes. The two figures are fitted to gpt-fast's tensor-parallel table (README at
// commit 0f925b5, A100-80GB SXM, Llama-2-7B in BF16 at batch 1: 104.9, 168.84,
// 254.02 and 328.43 tokens/s on 1, 2, 4 and 8 GPUs; https://github.com/pytorch-labs/gpt-fast,
// read 2026-12-01): 64 all-reduces per token cost 1.2, 1.6 and 1.9 ms beyond the
// weight read at 2, 4 and 8 GPUs, about 19, 25 and 29 µs each, which 13.5 µs + 5.2 µs
// per doubling reproduces within 2%.
const (
	AllReduceBase = 13500 * time.Nanosecond
	AllReduceHop  = 5200 * time.Nanosecond
)

// StepOverhead is the fixed cost of one serving engine's step beside its kernels:
// the scheduling, sampling and launch work between one step's kernels and the
// next's, which a bare decode loop (Decode, as gpt-fast, llama.cpp and ExLlama run
// one) does not pay. Fitted to the calibration set's vLLM figures (ACCURACY.md:
// Qwen2.5 on vLLM 0.6.3 at batch 1 on an A100 decodes 10–20% slower than the
// same weights read by gpt-fast's loop).
const StepOverhead = 1500 * time.Microsecond

// RequestOverhead is the fixed cost a request pays before its first step: the
// server receiving it, tokenizing the prompt and scheduling it. It is part of
// every TTFT of At and Under (ACCURACY.md).
const RequestOverhead = 2 * time.Millisecond

// replicaSpec is what a step model is built from: the model with weights stored at
// weights (bytes of them, WeightBytes, of which embed bytes are an input embedding
// table a step reads one row of), over devices devices, each with bandwidth bw,
// peak and the link between them, on a card of architecture arch. memEff and util
// override the fractions of bandwidth and peak reached (zero: the defaults for the
// weights and arch); calib is a Calibration.Decode (zero: none).
type replicaSpec struct {
	model        sizing.Model
	weights      sizing.Precision
	bytes, embed float64
	devices      int
	bw           Bandwidth
	peak         FLOPRate
	link         Link
	memEff, util float64
	arch         string
	calib        float64
}

// replica is the cost model of one forward step of a model replica spread over
// devices tensor-parallel devices: Decode and Serving both time their steps with it.
// Every field is a total over the replica unless named per device.
type replica struct {
	devices float64
	weights float64 // bytes of the weights a step reads: all of them but an untied input embedding table
	// A mixture of experts reads its shared weights and the experts a step's tokens
	// are routed to: shared + touched(tokens)·expert bytes, expertsRead's rule.
	shared, expert, experts, routed float64
	flopsPerToken                   float64 // 2·N (MatmulParams)
	attnPerCtx                      float64 // 4·layers·d_attn: attention FLOPs per token per context token
	kvRead                          float64 // bytes of KV cache one decoding sequence reads per step, over all devices
	// kvCopies is how many devices hold each KV head: 1 while the devices split the
	// KV heads, devices/KVHeads once they outnumber them (each device keeps the one
	// head its query heads use, as vLLM and Megatron replicate them); every device
	// under latent attention, whose cache has no heads to split.
	kvCopies    float64
	ctx         float64 // context of a decoding sequence, for its attention FLOPs
	layers      float64
	hiddenBytes float64 // one token's hidden state at the compute width
	bandwidth   float64 // bytes/s of the replica's memory: devices·bandwidth
	memRate     float64 // bytes/s the replica streams weights at: devices·bandwidth·efficiency
	kvRate      float64 // bytes/s it streams KV caches at: devices·bandwidth·KVEfficiency
	flopRate    float64 // FLOP/s the replica sustains: devices·peak·utilization
	calib       float64 // the Calibration.Decode factor dividing the on-device time; 1 when none
	fixed       float64 // seconds every step pays beside its kernels: StepOverhead for a serving engine
	link        Link
	approx      bool // the shape is sizing's assumption for a model known by Params alone
	// proposed is the draft tokens each decoding sequence verifies in a step
	// beside its own (speculative.go); zero without a draft.
	proposed float64
	// ep is the expert-parallel degree, moeLayers the layers with experts and
	// moeRouted the experts a token is routed to (expert.go); ep zero or 1: the
	// experts are tensor-parallel like the rest.
	ep, moeLayers, moeRouted float64
}

// cost is one step's time split into its parts, in seconds: the linear layers
// (reading the weights the step routes to, or multiplying every token through them,
// whichever is slower), attention (decoding sequences read their KV cache, prompt
// tokens compute), the all-reduces and the step's fixed cost. The on-device parts
// are divided by the calibration already.
type cost struct {
	read            float64 // bytes read: weights and KV caches
	weights, matmul float64 // the linear layers' memory and compute times
	attn, comm      float64
	fixed           float64
}

func (c cost) total() float64 { return linear(c.weights, c.matmul) + c.attn + c.comm + c.fixed }

// linear returns the linear layers' time from their read and multiply times: a
// smooth roofline, (read^1.5 + mul^1.5)^(2/3). Where one dominates it is that
// one, as the roofline's maximum is; where the two are alike it is up to 59% more
// than either, since at the batch sizes serving runs (tens to hundreds of tokens)
// a multiply neither hides its loads behind its arithmetic nor its arithmetic
// behind its loads. The exponent is fitted to TensorRT-LLM v1.0's throughput
// tables (TestServingCalibration) and TensorRT-LLM v0.5's first-token latencies
// (ACCURACY.md's calibration set): the plain maximum read their mid-size batches
// 20–30% fast, the sum their short prompts as slow.
func linear(read, mul float64) float64 {
	s := read*math.Sqrt(read) + mul*math.Sqrt(mul)
	return math.Cbrt(s * s)
}

// newReplica builds the step model of sp, from a model the caller has had validated
// by sizing; it validates everything else it takes. The KV cache terms are left for
// the caller.
func newReplica(sp replicaSpec) (replica, error) {
	memEff, util := sp.memEff, sp.util
	if memEff == 0 {
		memEff = MemoryEfficiencyFor(sp.weights, sp.arch)
	}
	if util == 0 {
		util = PrefillEfficiency(sp.weights, sp.arch)
	}
	if sp.devices < 1 {
		return replica{}, fmt.Errorf("compute: %d devices, want 1 or more: %w", sp.devices, ErrInvalid)
	}
	if err := positive("bandwidth", float64(sp.bw)); err != nil {
		return replica{}, err
	}
	if err := positive("peak", float64(sp.peak)); err != nil {
		return replica{}, err
	}
	if err := fraction("memory efficiency", memEff); err != nil {
		return replica{}, err
	}
	if err := fraction("utilization", util); err != nil {
		return replica{}, err
	}
	if !(sp.calib >= 0 && sp.calib <= maxCalibration) {
		return replica{}, fmt.Errorf("compute: calibration decode factor %v, want 0 (not measured) or a positive factor up to %v: %w",
			sp.calib, maxCalibration, ErrInvalid)
	}
	if sp.devices > 1 {
		if sp.link.Validate() != nil {
			return replica{}, fmt.Errorf("compute: %d tensor-parallel devices need a link of positive, finite bandwidth and no negative latency, got %v and %v: %w",
				sp.devices, sp.link.Bandwidth, sp.link.Latency, ErrInvalid)
		}
	} else if !(sp.link.Bandwidth >= 0 && finite(float64(sp.link.Bandwidth))) || sp.link.Latency < 0 {
		return replica{}, fmt.Errorf("compute: link of %v and latency %v, want neither negative: %w", sp.link.Bandwidth, sp.link.Latency, ErrInvalid)
	}
	if !sp.weights.Valid() {
		return replica{}, fmt.Errorf("compute: weights precision %v is not a known precision: %w", sp.weights, ErrInvalid)
	}
	m := sp.model
	// The layers, hidden size and heads: the model's own, or for a model known by
	// Params alone the dense shape sizing.Estimate assumes, in whole layers as
	// Estimate counts the KV cache (the point's Approx then says so).
	sh, err := m.Shape()
	if err != nil {
		return replica{}, &sizingError{err}
	}
	if sp.devices > 1 && !sh.Assumed && m.Heads%sp.devices != 0 {
		return replica{}, fmt.Errorf("compute: %d attention heads do not divide over %d tensor-parallel devices: %w", m.Heads, sp.devices, ErrInvalid)
	}
	n := float64(sp.devices)
	layers := math.Ceil(sh.Layers)
	r := replica{
		devices:       n,
		weights:       sp.bytes - sp.embed,
		flopsPerToken: 2 * float64(matmulOf(m, sh.Active)),
		attnPerCtx:    4 * layers * sh.Heads * sh.HeadDim,
		layers:        layers,
		hiddenBytes:   sh.Hidden * sp.weights.ComputeBits() / 8,
		bandwidth:     n * float64(sp.bw),
		memRate:       n * float64(sp.bw) * memEff,
		kvRate:        n * float64(sp.bw) * KVEfficiency,
		flopRate:      n * float64(sp.peak) * util,
		calib:         1,
		link:          sp.link,
		approx:        sh.Assumed,
	}
	if sp.calib > 0 {
		r.calib = sp.calib
	}
	r.kvCopies = 1
	if k := math.Max(sh.KVHeads, 1); m.KVLoRARank > 0 {
		// Latent attention caches one latent per token for all the heads: tensor
		// parallelism cannot split it, and every device holds it whole (Tang et
		// al. 2025, "TPLA", arXiv 2508.15881).
		r.kvCopies = n
	} else if n > k {
		r.kvCopies = n / k
	}
	if m.Experts > 1 && m.ExpertsPerToken > 0 && m.ExpertsPerToken < m.Experts {
		E, k := float64(m.Experts), float64(m.ExpertsPerToken)
		P, A := float64(sh.Params), float64(sh.Active)
		if P > 0 && A < P {
			x := (P - A) / (E - k) // one expert's parameters over all layers
			// The embedding table, read a row at a time, belongs to the shared part.
			r.shared = (A-k*x)/P*sp.bytes - sp.embed
			r.expert = x / P * sp.bytes
			r.experts, r.routed = E, k
		}
	}
	return r, nil
}

// weightsRead returns the bytes of weights a step over tokens tokens reads. A dense
// model reads them all. A mixture of experts reads the shared weights and only the
// experts some token is routed to: with k of E experts per token, chosen uniformly
// and independently, tokens tokens touch E·(1 − (1 − k/E)^tokens) experts per layer
// on average, k for one token and nearly all of them at large batch.
func (r *replica) weightsRead(tokens float64) float64 {
	if r.experts == 0 {
		return r.weights
	}
	touched := r.experts * (1 - math.Pow(1-r.routed/r.experts, tokens))
	return r.shared + r.busiest(touched)*r.expert
}

// step returns the cost of one forward step that decodes one token for each of dec
// sequences and runs pre prompt tokens whose attention spans preCtx tokens on
// average. The linear layers read the weights the step's tokens route to, once, and
// multiply every token through them (2·N FLOPs a token): the slower of the two sets
// their time, a roofline. Attention has no weights to share: each decoding sequence
// streams its own KV cache at KVEfficiency (or computes over it, if that is
// slower), and prompt tokens compute over their context (4·layers·context·d_attn a
// token: the scores and the weighted sum of values); its kernels run after the
// linear layers' rather than beside them, so their time adds. All of it is shared
// over the devices and divided by the calibration. Tensor parallelism then adds two
// all-reduces per layer of the step's hidden states (Shoeybi et al. 2019, §3: one
// after attention, one after the MLP), each AllReduceBase +
// AllReduceHop·log₂(devices) plus the link's ring time (expert parallelism
// trades the MLP's for all-to-alls: comm); and a serving engine's step pays
// StepOverhead. With a draft, each decoding sequence also verifies its proposed
// tokens: they pass the linear layers and attend to its KV cache, read once.
func (r *replica) step(dec, pre, preCtx float64) cost {
	tokens := dec*(1+r.proposed) + pre
	var c cost
	w := r.weightsRead(tokens)
	kv := dec * r.kvRead * r.kvCopies
	c.read = w + kv
	c.weights = w / r.memRate / r.calib
	c.matmul = tokens * r.flopsPerToken / r.flopRate / r.calib
	c.attn = (math.Max(kv/r.kvRate, r.attnPerCtx*dec*(1+r.proposed)*r.ctx/r.flopRate) + r.attnPerCtx*pre*preCtx/r.flopRate) / r.calib
	if r.devices > 1 {
		c.comm = r.comm(tokens)
	}
	c.fixed = r.fixed
	return c
}

// reduce returns the seconds of one all-reduce of tokens tokens' hidden states
// over n devices of the replica (see step); none on one device.
func (r *replica) reduce(tokens, n float64) float64 {
	if n <= 1 {
		return 0
	}
	return AllReduceBase.Seconds() + AllReduceHop.Seconds()*math.Log2(n) + r.link.allReduce(tokens*r.hiddenBytes, int(n))
}

// latency converts a step's seconds to a Duration of at least one nanosecond:
// a step always takes time.
func latency(s float64) (time.Duration, error) {
	d, err := seconds(s)
	if err == nil && d < 1 {
		d = 1
	}
	return d, err
}
