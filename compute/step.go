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

// replica is the cost model of one forward step of a model replica spread over
// devices tensor-parallel devices: Decode and Serving both time their steps with it.
// Every field is a total over the replica unless named per device.
type replica struct {
	devices float64
	weights float64 // bytes of all weights
	// A mixture of experts reads its shared weights and the experts a step's tokens
	// are routed to: shared + touched(tokens)·expert bytes, expertsRead's rule.
	shared, expert, experts, routed float64
	flopsPerToken                   float64 // 2·N (MatmulParams)
	attnPerCtx                      float64 // 2·layers·d_attn: attention FLOPs per token per context token
	kvRead                          float64 // bytes of KV cache one decoding sequence reads per step, over all devices
	// kvCopies is how many devices hold each KV head: 1 while the devices split the
	// KV heads, devices/KVHeads once they outnumber them (each device keeps the one
	// head its query heads use, as vLLM and Megatron replicate them); every device
	// under latent attention, whose cache has no heads to split.
	kvCopies    float64
	ctx         float64 // context of a decoding sequence, for its attention FLOPs
	layers      float64
	hiddenBytes float64 // one token's hidden state at the compute width
	memRate     float64 // bytes/s the replica's memory delivers: devices·bandwidth·efficiency
	flopRate    float64 // FLOP/s the replica sustains: devices·peak·utilization
	link        Link
	approx      bool // the shape is sizing's assumption for a model known by Params alone
}

// cost is one step's time split into its parts, in seconds: the linear layers
// (reading the weights the step routes to, or multiplying every token through them,
// whichever is slower), attention (decoding sequences read their KV cache, prompt
// tokens compute), and the all-reduces.
type cost struct {
	read            float64 // bytes read: weights and KV caches
	weights, matmul float64 // the linear layers' memory and compute times
	attn, comm      float64
}

func (c cost) total() float64 { return math.Max(c.weights, c.matmul) + c.attn + c.comm }

// newReplica builds the step model of m with weights stored at p, w bytes of them
// (sizing.WeightBytes, from a model the caller has had validated by sizing), over
// devices devices, each with bandwidth bw and peak; it validates everything else it
// takes. memEff and util are the fractions of bandwidth and peak reached (zero: the
// defaults for p). The KV cache terms are left for the caller.
func newReplica(m sizing.Model, p sizing.Precision, w float64, devices int, bw Bandwidth, peak FLOPRate, link Link, memEff, util float64) (replica, error) {
	if memEff == 0 {
		memEff = MemoryEfficiencyFor(p)
	}
	if util == 0 {
		util = DefaultUtilization
	}
	if devices < 1 {
		return replica{}, fmt.Errorf("compute: %d devices, want 1 or more: %w", devices, ErrInvalid)
	}
	if err := positive("bandwidth", float64(bw)); err != nil {
		return replica{}, err
	}
	if err := positive("peak", float64(peak)); err != nil {
		return replica{}, err
	}
	if err := fraction("memory efficiency", memEff); err != nil {
		return replica{}, err
	}
	if err := fraction("utilization", util); err != nil {
		return replica{}, err
	}
	if devices > 1 {
		if link.Validate() != nil {
			return replica{}, fmt.Errorf("compute: %d tensor-parallel devices need a link of positive, finite bandwidth and no negative latency, got %v and %v: %w",
				devices, link.Bandwidth, link.Latency, ErrInvalid)
		}
	} else if !(link.Bandwidth >= 0 && finite(float64(link.Bandwidth))) || link.Latency < 0 {
		return replica{}, fmt.Errorf("compute: link of %v and latency %v, want neither negative: %w", link.Bandwidth, link.Latency, ErrInvalid)
	}
	if !p.Valid() {
		return replica{}, fmt.Errorf("compute: weights precision %v is not a known precision: %w", p, ErrInvalid)
	}
	// The layers, hidden size and heads: the model's own, or for a model known by
	// Params alone the dense shape sizing.Estimate assumes, in whole layers as
	// Estimate counts the KV cache (the point's Approx then says so).
	sh, err := m.Shape()
	if err != nil {
		return replica{}, &sizingError{err}
	}
	if devices > 1 && !sh.Assumed && m.Heads%devices != 0 {
		return replica{}, fmt.Errorf("compute: %d attention heads do not divide over %d tensor-parallel devices: %w", m.Heads, devices, ErrInvalid)
	}
	n := float64(devices)
	layers := math.Ceil(sh.Layers)
	r := replica{
		devices:       n,
		weights:       w,
		flopsPerToken: 2 * float64(matmulOf(m, sh.Active)),
		attnPerCtx:    2 * layers * sh.Heads * sh.HeadDim,
		layers:        layers,
		hiddenBytes:   sh.Hidden * p.ComputeBits() / 8,
		memRate:       n * float64(bw) * memEff,
		flopRate:      n * float64(peak) * util,
		link:          link,
		approx:        sh.Assumed,
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
			r.shared = (A - k*x) / P * r.weights
			r.expert = x / P * r.weights
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
	return r.shared + touched*r.expert
}

// step returns the cost of one forward step that decodes one token for each of dec
// sequences and runs pre prompt tokens whose attention spans preCtx tokens on
// average. The linear layers read the weights the step's tokens route to, once, and
// multiply every token through them (2·N FLOPs a token): the slower of the two sets
// their time, a roofline. Attention has no weights to share: each decoding sequence
// streams its own KV cache (or computes over it, if that is slower), and prompt
// tokens compute over their context (Kaplan's 2·layers·context·d_attn a token); its
// kernels run after the linear layers' rather than beside them, so their time adds.
// All of it is shared over the devices. Tensor parallelism then adds two all-reduces
// per layer of the step's hidden states (Shoeybi et al. 2019, §3: one after
// attention, one after the MLP), each AllReduceBase + AllReduceHop·log₂(devices)
// plus the link's ring time.
func (r *replica) step(dec, pre, preCtx float64) cost {
	tokens := dec + pre
	var c cost
	w := r.weightsRead(tokens)
	kv := dec * r.kvRead * r.kvCopies
	c.read = w + kv
	c.weights = w / r.memRate
	c.matmul = tokens * r.flopsPerToken / r.flopRate
	c.attn = math.Max(kv/r.memRate, r.attnPerCtx*dec*r.ctx/r.flopRate) + r.attnPerCtx*pre*preCtx/r.flopRate
	if r.devices > 1 {
		n := int(r.devices)
		one := AllReduceBase.Seconds() + AllReduceHop.Seconds()*math.Log2(r.devices) +
			r.link.allReduce(tokens*r.hiddenBytes, n)
		c.comm = 2 * r.layers * one
	}
	return c
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
