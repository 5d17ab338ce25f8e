package compute

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// TokenRate is a rate of generation in tokens per second.
type TokenRate float64

// String returns the rate with four significant digits below 1000 tokens per second
// and in whole tokens from there: "52.5 tok/s", "0.04167 tok/s", "12345 tok/s".
func (r TokenRate) String() string {
	v := float64(r)
	if math.Abs(v) >= 1000 && !math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', 0, 64) + " tok/s"
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " tok/s"
}

// DefaultMemoryEfficiency is the fraction of peak memory bandwidth a well-tuned
// decoder of 16-bit (or wider) weights reaches on a card with no figure of its own
// (MemoryEfficiencyFor): 0.7. gpt-fast measured Llama-2-7B in BF16 at 104.9
// tokens/s on an A100, about 1.4 TB/s effective of its 2.0 TB/s peak.
const DefaultMemoryEfficiency = 0.7

// KVEfficiency is the fraction of the memory bandwidth a decode step streams the
// KV caches at: paged-attention decode kernels read many short blocks, one
// sequence's at a time, and reach less than a weight read does. Fitted to the
// calibration set's long-context decode figures (Qwen2.5-7B on vLLM at 30720
// tokens of prompt; ACCURACY.md).
const KVEfficiency = 0.75

// MemoryEfficiencyFor returns the default fraction of peak memory bandwidth a
// decoder reaches with weights stored at p on a card of architecture arch (as the
// catalog names it; empty: a generic card):
//
//   - 16 bits and wider: DefaultMemoryEfficiency, 0.8 on Ada Lovelace (llama.cpp,
//     ExLlamaV2 and MLC read GDDR6X at 0.77–0.82 of its peak);
//   - FP8 on a card with FP8 tensor cores (Hopper, Ada Lovelace, Blackwell, CDNA 3)
//     reads like 16 bits; elsewhere, and INT8, 0.85 of the 16-bit figure
//     (weight-only 8-bit kernels dequantize as they read);
//   - 4-bit GPTQ, AWQ and INT4: 0.65 of the 16-bit figure on Ampere and Hopper
//     (Marlin-class kernels; vLLM runs AWQ checkpoints on them too since 0.6), 0.8
//     on Ada Lovelace, 0.45 on older cards (the original AWQ and GPTQ kernels);
//     NF4 0.45 (bitsandbytes dequantizes each layer before its multiply);
//   - GGUF file types (llama.cpp's kernels): 0.75 of the 16-bit figure at 4.5 bits
//     per weight rising to 0.85 at 8.5, on a straight line in bits per weight;
//   - other formats below 16 bits (custom): 0.8 of the 16-bit figure.
//
// Unpacking and scaling quantized weights costs kernel time that plain 16-bit
// weights do not, so a step reads fewer bytes but not proportionally faster. The
// figures are fitted, with StepOverhead, to the calibration set (ACCURACY.md:
// Qwen2.5 on vLLM 0.6.3 in BF16, GPTQ-Int8, GPTQ-Int4 and AWQ on an A100; MLC's
// llm-perf-bench with llama.cpp Q4_0, ExLlamaV2 GPTQ and MLC q4f16 on an RTX 4090
// and 3090 Ti; gpt-fast's A100 table in BF16, INT8 and INT4). It returns the
// 16-bit figure for a precision that is not valid (Speed reports that).
func MemoryEfficiencyFor(p sizing.Precision, arch string) float64 {
	base := DefaultMemoryEfficiency
	if arch == "Ada Lovelace" {
		base = 0.8
	}
	b := p.Bits()
	switch {
	case b <= 0 || b >= 16:
		return base
	case p == sizing.FP8 && nativeFP8(arch):
		return base
	case b >= 8 && !gguf(p):
		return 0.85 * base
	case p == sizing.NF4:
		return 0.45 * base
	case p == sizing.GPTQ4 || p == sizing.AWQ4 || p == sizing.INT4:
		switch {
		case arch == "Ada Lovelace":
			return 0.8 * base
		case marlin(arch):
			return 0.65 * base
		}
		return 0.45 * base
	case gguf(p):
		x := min(max((b-4.5)/4, 0), 1)
		return (0.75 + 0.1*x) * base
	}
	return 0.8 * base
}

// nativeFP8 reports whether cards of arch multiply FP8 in their tensor cores.
func nativeFP8(arch string) bool {
	switch arch {
	case "Hopper", "Ada Lovelace", "Blackwell", "CDNA 3":
		return true
	}
	return false
}

// marlin reports whether cards of arch run Marlin-class 4-bit kernels (compute
// capability 8.0 and up; Frantar et al. 2024, "MARLIN").
func marlin(arch string) bool {
	switch arch {
	case "Ampere", "Ada Lovelace", "Hopper", "Blackwell":
		return true
	}
	return false
}

// gguf reports whether p is a GGUF file type (llama.cpp's formats).
func gguf(p sizing.Precision) bool {
	switch p {
	case sizing.Q2_K, sizing.Q3_K_M, sizing.Q4_0, sizing.Q4_K_S, sizing.Q4_K_M, sizing.Q5_K_M, sizing.Q6_K, sizing.Q8_0:
		return true
	}
	return false
}

// PrefillEfficiency returns the default fraction of the peak (at the precision the
// multiplies run in) that a serving engine's prompt passes and batched decode
// multiplies reach with weights stored at p on a card of architecture arch: 0.7
// for 16-bit multiplies on Ampere, 0.45 of the FP8 peak for FP8 on Hopper (and
// the other cards with FP8 tensor cores) and 0.55 on Ada Lovelace, 0.6 elsewhere. Fitted to the calibration set's first-token
// latencies (ACCURACY.md: TensorRT-LLM v0.5's batch-1 tables, 2048-token
// prompts: Llama-2-7B in 133 ms on an A100, in 36 ms on an H100 and 73 ms on an
// L40S in FP8).
func PrefillEfficiency(p sizing.Precision, arch string) float64 {
	if p == sizing.FP8 && nativeFP8(arch) {
		if arch == "Ada Lovelace" {
			return 0.55
		}
		return 0.45
	}
	if arch == "Ampere" {
		return 0.7
	}
	return 0.6
}

// Decode describes autoregressive generation on one device or on a tensor-parallel
// group of Devices devices joined by Link. Each step generates one token for each of
// Batch sequences and reads every weight once plus each sequence's KV cache; a group
// shares that reading and the compute over its devices and pays two all-reduces per
// layer per step. Bandwidth and Peak are each device's: a group is not a device with
// the summed bandwidth, since its all-reduces sit on every step's critical path.
type Decode struct {
	Model     sizing.Model     `json:"model"`
	Weights   sizing.Precision `json:"weights"`                    // storage of the weights; required
	KV        sizing.Precision `json:"kv_precision"`               // zero: Weights.KVDefault() (FP16 below 16 bits)
	Context   int              `json:"context"`                    // tokens already in each sequence's KV cache
	Batch     int              `json:"batch"`                      // sequences decoded together; zero: 1
	Bandwidth Bandwidth        `json:"bandwidth_bytes_per_second"` // per device
	Peak      FLOPRate         `json:"peak_flops"`                 // per device, dense, at the compute precision
	Devices   int              `json:"devices"`                    // tensor-parallel devices; zero: 1
	Link      Link             `json:"link"`                       // between the devices; required when Devices > 1

	// Arch is the devices' architecture as the catalog names it ("Ampere"); empty:
	// a generic card.
	Arch string `json:"arch"`

	// MemoryEfficiency is the fraction of Bandwidth the weights are read at; zero:
	// MemoryEfficiencyFor(Weights, Arch). Utilization is the fraction of Peak
	// reached by the matrix multiplies; zero: PrefillEfficiency(Weights, Arch).
	MemoryEfficiency float64 `json:"memory_efficiency"`
	Utilization      float64 `json:"utilization"`
}

// DecodeSpeed is the answer to Decode.Speed.
type DecodeSpeed struct {
	PerSequence TokenRate     `json:"per_sequence_tokens_per_second"` // one user's generation speed
	Total       TokenRate     `json:"total_tokens_per_second"`        // PerSequence × Batch
	Step        time.Duration `json:"step"`                           // one token for every sequence
	BytesRead   sizing.Bytes  `json:"bytes_read"`                     // per step, all devices: weights + KV caches
	MemoryBound bool          `json:"memory_bound"`                   // false: compute caps the speed
	// Comm is the part of Step spent in tensor-parallel all-reduces (zero on one
	// device).
	Comm time.Duration `json:"comm"`
	// Approx reports that the KV cache or the all-reduces were worked out from the
	// shape sizing.Estimate assumes for a model known by Params alone
	// (sizing.Model.Shape).
	Approx bool `json:"approx"`
}

func (d Decode) defaulted() (batch int, kv sizing.Precision) {
	batch, kv = d.Batch, d.KV
	if batch == 0 {
		batch = 1
	}
	if kv == 0 {
		kv = d.Weights.KVDefault() // as sizing.Estimate defaults Workload.KVPrecision
	}
	return
}

// replica validates d and returns its step model, without the KV cache.
func (d Decode) replica() (replica, error) {
	devices := d.Devices
	if devices == 0 {
		devices = 1
	}
	w, err := sizing.WeightBytes(d.Model, d.Weights) // validates the model
	if err != nil {
		return replica{}, &sizingError{err}
	}
	emb, err := sizing.InputEmbeddingBytes(d.Model, d.Weights)
	if err != nil {
		return replica{}, &sizingError{err}
	}
	return newReplica(replicaSpec{model: d.Model, weights: d.Weights, bytes: float64(w), embed: float64(emb),
		devices: devices, bw: d.Bandwidth, peak: d.Peak, link: d.Link, memEff: d.MemoryEfficiency, util: d.Utilization, arch: d.Arch})
}

// Speed returns the decode speed. Decoding a token is memory-bound at small batch:
// every weight the step uses must stream from memory once per step, whatever the
// batch, and each sequence streams its own KV cache. The linear layers take
//
//	max(weights / (Devices × Bandwidth × MemoryEfficiency), 2·N_active·Batch / (Devices × Peak × Utilization))
//
// (a roofline: batching shares the weight read until compute catches up), attention
// then adds KV(Context) × Batch at the same bandwidth (or its FLOPs, the attention
// term of InferenceFLOPs, where those are slower), and a tensor-parallel group adds
// two all-reduces per layer of the batch's hidden states, each AllReduceBase +
// AllReduceHop·log₂(Devices) plus Link.AllReduce's time. Weights are WeightBytes, of
// which a mixture of experts reads only the experts the batch is routed to (all
// shared weights, k experts per layer at batch 1); KV is KVCacheBytes. A model known
// only by Params gets the KV cache and the layers sizing.Estimate assumes for it
// (sizing.Model.Shape), and Approx says so. MemoryBound reports that reading
// (weights and KV) takes longer than the linear layers' FLOPs. Errors wrap
// ErrInvalid.
//
// Against gpt-fast's tables (A100-80GB, batch 1) the defaults give Llama-2-7B in BF16
// within 1% on one GPU and on 2, 4 and 8, Llama-2-70B within 9% on 2 to 8
// (TestDecodeGPTFastTensorParallel).
func (d Decode) Speed() (DecodeSpeed, error) {
	batch, kvp := d.defaulted()
	if batch < 1 || d.Context < 0 {
		return DecodeSpeed{}, fmt.Errorf("compute: decode batch %d and context %d, want batch at least 1 and context 0 or more: %w", d.Batch, d.Context, ErrInvalid)
	}
	r, err := d.replica()
	if err != nil {
		return DecodeSpeed{}, err
	}
	approx := false
	switch {
	case d.Model.HasArchitecture():
		kv, err := sizing.KVCacheBytes(d.Model, d.Context, 1, kvp)
		if err != nil {
			return DecodeSpeed{}, &sizingError{err}
		}
		r.kvRead, r.ctx = float64(kv), float64(d.Context)
	case d.Context > 0:
		// The KV cache of a model known by Params alone, as Estimate shapes it.
		est, err := sizing.Estimate(d.Model, sizing.Workload{Task: sizing.Inference, Precision: d.Weights,
			KVPrecision: kvp, Batch: batch, SeqLen: d.Context})
		if err != nil {
			return DecodeSpeed{}, &sizingError{err}
		}
		r.kvRead = float64(est.KVCache) / float64(batch)
		approx = true
	}
	approx = approx || r.approx && r.devices > 1
	c := r.step(float64(batch), 0, 0)
	step := c.total()
	stepD, err := latency(step)
	if err != nil {
		return DecodeSpeed{}, err
	}
	comm, err := seconds(c.comm)
	if err != nil {
		return DecodeSpeed{}, err
	}
	bytes, ok := toBytes(c.read)
	if !ok {
		return DecodeSpeed{}, fmt.Errorf("compute: bytes read per token overflow float64: %w", ErrInvalid)
	}
	per := 1 / step
	return DecodeSpeed{
		PerSequence: TokenRate(per),
		Total:       TokenRate(per * float64(batch)),
		Step:        stepD,
		BytesRead:   bytes,
		MemoryBound: c.weights+c.attn >= c.matmul,
		Comm:        comm,
		Approx:      approx,
	}, nil
}

func toBytes(f float64) (sizing.Bytes, bool) {
	if !(f >= 0 && f < 9.2e18) {
		return 0, false
	}
	return sizing.Bytes(f), true
}

// Prefill returns the time to process a prompt of tokens tokens for each of Batch
// sequences in one forward pass, with Speed's step model: the linear layers
// multiply tokens × Batch tokens, 2·N FLOPs each (or read the weights, if that is
// slower, as for a short prompt), the prompt's tokens attend to tokens/2 earlier
// tokens on average (a causal mask), and a tensor-parallel group adds its
// all-reduces. A long prompt is compute-bound. Zero tokens take no time. It
// validates the Decode as Speed does; Context is not used.
func (d Decode) Prefill(tokens int) (time.Duration, error) {
	batch, _ := d.defaulted()
	if tokens < 0 || batch < 1 {
		return 0, fmt.Errorf("compute: prefill of %d tokens at batch %d, want tokens 0 or more and batch at least 1: %w", tokens, d.Batch, ErrInvalid)
	}
	r, err := d.replica()
	if err != nil {
		return 0, err
	}
	if tokens == 0 {
		return 0, nil
	}
	return latency(r.step(0, float64(tokens)*float64(batch), float64(tokens)/2).total())
}
