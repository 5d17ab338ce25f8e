package compute

import (
	"fmt"
	"math"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// TokenRate is a rate of generation in tokens per second.
type TokenRate float64

// DefaultMemoryEfficiency is the fraction of peak memory bandwidth a well-tuned
// decoder of 16-bit (or wider) weights reaches when the caller gives none: 0.7.
// gpt-fast measured Llama-2-7B in BF16 at 104.9 tokens/s on an A100, about 1.4 TB/s
// effective of its 2.0 TB/s peak. Narrower weights reach less; see
// MemoryEfficiencyFor.
const DefaultMemoryEfficiency = 0.7

// MemoryEfficiencyFor returns the default fraction of peak memory bandwidth a
// decoder reaches with weights stored at p: 0.7 for 16 bits and wider, 0.59 at 8
// bits, 0.4 at 4 bits and below, and in between a straight line on bits per
// weight. Unpacking and scaling quantized weights costs kernel time that plain
// 16-bit weights do not, so a step reads fewer bytes but not proportionally faster.
// The figures come from gpt-fast's A100-80GB table (batch 1, a 5-token prompt):
// against the bytes Speed counts, Llama-2-7B reached 0.69 of peak in BF16, 0.53 in
// INT8 and 0.36 in INT4 (groups of 32), Llama-2-70B 0.65 in INT8 and 0.44 in INT4;
// 0.59 and 0.4 sit between the small and the large model, within 11% of each of
// those measurements. It returns DefaultMemoryEfficiency for a precision that is not
// valid (Speed reports that).
func MemoryEfficiencyFor(p sizing.Precision) float64 {
	b := p.Bits()
	switch {
	case b <= 0 || b >= 16:
		return DefaultMemoryEfficiency
	case b >= 8:
		return 0.59 + (DefaultMemoryEfficiency-0.59)*(b-8)/8
	case b > 4:
		return 0.4 + (0.59-0.4)*(b-4)/4
	}
	return 0.4
}

// Decode describes autoregressive generation on one device (or one tensor-parallel
// group, given its summed bandwidth and peak). Each step generates one token for
// each of Batch sequences and reads every weight once plus each sequence's KV cache.
type Decode struct {
	Model     sizing.Model     `json:"model"`
	Weights   sizing.Precision `json:"weights"`      // storage of the weights; required
	KV        sizing.Precision `json:"kv_precision"` // zero: Weights.KVDefault() (FP16 below 16 bits)
	Context   int              `json:"context"`      // tokens already in each sequence's KV cache
	Batch     int              `json:"batch"`        // sequences decoded together; zero: 1
	Bandwidth Bandwidth        `json:"bandwidth_bytes_per_second"`
	Peak      FLOPRate         `json:"peak_flops"` // dense peak at the compute precision

	// MemoryEfficiency is the fraction of Bandwidth reached; zero:
	// MemoryEfficiencyFor(Weights). Utilization is the fraction of Peak reached by
	// the matrix multiplies; zero: DefaultUtilization.
	MemoryEfficiency float64 `json:"memory_efficiency"`
	Utilization      float64 `json:"utilization"`
}

// DecodeSpeed is the answer to Decode.Speed.
type DecodeSpeed struct {
	PerSequence TokenRate     `json:"per_sequence_tokens_per_second"` // one user's generation speed
	Total       TokenRate     `json:"total_tokens_per_second"`        // PerSequence × Batch
	Step        time.Duration `json:"step"`                           // one token for every sequence
	BytesRead   sizing.Bytes  `json:"bytes_read"`                     // per step: weights + KV caches
	MemoryBound bool          `json:"memory_bound"`                   // false: compute caps the speed
	// Approx reports that the KV cache was approximated from Params alone, with
	// the shape sizing.Estimate assumes for such a model.
	Approx bool `json:"approx"`
}

func (d Decode) defaulted() (batch int, kv sizing.Precision, memEff, util float64) {
	batch, kv, memEff, util = d.Batch, d.KV, d.MemoryEfficiency, d.Utilization
	if batch == 0 {
		batch = 1
	}
	if kv == 0 {
		kv = d.Weights.KVDefault() // as sizing.Estimate defaults Workload.KVPrecision
	}
	if memEff == 0 {
		memEff = MemoryEfficiencyFor(d.Weights)
	}
	if util == 0 {
		util = DefaultUtilization
	}
	return
}

// Speed returns the decode speed. Decoding a token is memory-bound at small batch:
// every weight the step uses and the KV cache must stream from memory each step, so
//
//	step ≥ (weights + KV(Context) × Batch) / (Bandwidth × MemoryEfficiency)
//
// and it is also at least the compute, 2·N_active·Batch / (Peak × Utilization), plus
// the attention term of InferenceFLOPs. The step is the larger of the two (a
// roofline). Weights are WeightBytes, of which a mixture of experts reads only the
// experts the batch is routed to (all shared weights, k experts per layer at batch
// 1); KV is KVCacheBytes. A model known only by Params gets the KV cache
// sizing.Estimate approximates for it, and Approx says so. Errors wrap ErrInvalid.
func (d Decode) Speed() (DecodeSpeed, error) {
	batch, kvp, memEff, util := d.defaulted()
	if batch < 1 || d.Context < 0 {
		return DecodeSpeed{}, fmt.Errorf("compute: decode batch %d and context %d, want batch at least 1 and context 0 or more: %w", d.Batch, d.Context, ErrInvalid)
	}
	if err := positive("bandwidth", float64(d.Bandwidth)); err != nil {
		return DecodeSpeed{}, err
	}
	if err := positive("peak", float64(d.Peak)); err != nil {
		return DecodeSpeed{}, err
	}
	if err := fraction("memory efficiency", memEff); err != nil {
		return DecodeSpeed{}, err
	}
	if err := fraction("utilization", util); err != nil {
		return DecodeSpeed{}, err
	}
	w, err := sizing.WeightBytes(d.Model, d.Weights)
	if err != nil {
		return DecodeSpeed{}, &foreign{err, ErrInvalid}
	}
	read := float64(w) * expertsRead(d.Model, batch)
	seq, approx := 0, false
	switch {
	case d.Model.HasArchitecture():
		kv, err := sizing.KVCacheBytes(d.Model, d.Context, batch, kvp)
		if err != nil {
			return DecodeSpeed{}, &foreign{err, ErrInvalid}
		}
		read += float64(kv)
		seq = d.Context
	case d.Context > 0:
		// The KV cache of a model known by Params alone, as Estimate shapes it.
		est, err := sizing.Estimate(d.Model, sizing.Workload{Task: sizing.Inference, Precision: d.Weights,
			KVPrecision: kvp, Batch: batch, SeqLen: d.Context})
		if err != nil {
			return DecodeSpeed{}, &foreign{err, ErrInvalid}
		}
		read += float64(est.KVCache)
		approx = true
	}
	work, err := InferenceFLOPs(d.Model, float64(batch), seq)
	if err != nil {
		return DecodeSpeed{}, err
	}
	mem := read / (float64(d.Bandwidth) * memEff)
	comp := float64(work) / (float64(d.Peak) * util)
	step := math.Max(mem, comp)
	stepD, err := seconds(step)
	if err != nil {
		return DecodeSpeed{}, err
	}
	bytes, ok := toBytes(read)
	if !ok {
		return DecodeSpeed{}, fmt.Errorf("compute: bytes read per token overflow float64: %w", ErrInvalid)
	}
	return DecodeSpeed{
		PerSequence: TokenRate(1 / step),
		Total:       TokenRate(float64(batch) / step),
		Step:        stepD,
		BytesRead:   bytes,
		MemoryBound: mem >= comp,
		Approx:      approx,
	}, nil
}

// expertsRead returns the fraction of the weights a decode step reads. A dense model
// reads them all. A mixture of experts reads the shared weights and only the experts
// some token of the batch is routed to: with k of E experts per token, chosen
// uniformly and independently, a batch of B tokens touches E·(1 − (1 − k/E)^B)
// experts per layer on average, k at batch 1 and nearly all of them at large batch.
// One expert's parameters (over all layers) are (ParamCount − ActiveParams)/(E − k).
func expertsRead(m sizing.Model, batch int) float64 {
	E, k := float64(m.Experts), float64(m.ExpertsPerToken)
	P, A := float64(m.ParamCount()), float64(m.ActiveParams())
	if m.Experts <= 1 || m.ExpertsPerToken <= 0 || k >= E || P <= 0 || A >= P {
		return 1
	}
	x := (P - A) / (E - k)
	shared := A - k*x
	touched := E * (1 - math.Pow(1-k/E, float64(batch)))
	return (shared + touched*x) / P
}

func toBytes(f float64) (sizing.Bytes, bool) {
	if !(f >= 0 && f < 9.2e18) {
		return 0, false
	}
	return sizing.Bytes(f), true
}

// Prefill returns the time to process a prompt of tokens tokens for each of Batch
// sequences: InferenceFLOPs(Model, tokens × Batch, tokens) / (Peak × Utilization).
// Prefill multiplies whole prompts at once and is compute-bound. It counts the
// attention term over the full prompt length (Kaplan's n_ctx), which overstates a
// causal prompt's attention by up to 2×, a small share of the total for prompts
// shorter than the hidden size.
func (d Decode) Prefill(tokens int) (time.Duration, error) {
	batch, _, _, util := d.defaulted()
	if tokens < 0 || batch < 1 {
		return 0, fmt.Errorf("compute: prefill of %d tokens at batch %d, want tokens 0 or more and batch at least 1: %w", tokens, d.Batch, ErrInvalid)
	}
	if err := positive("peak", float64(d.Peak)); err != nil {
		return 0, err
	}
	if err := fraction("utilization", util); err != nil {
		return 0, err
	}
	seq := 0
	if d.Model.HasArchitecture() {
		seq = tokens
	}
	work, err := InferenceFLOPs(d.Model, float64(tokens)*float64(batch), seq)
	if err != nil {
		return 0, err
	}
	return TimeFor(work, d.Peak*FLOPRate(util))
}
