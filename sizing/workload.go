package sizing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gpuplan/gpuplan/internal/checked"
)

// strictJSON decodes one JSON value into v, rejecting keys v has no field for and
// anything after the value.
func strictJSON(data []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, ErrInvalid) {
			return err // a nested value's own error, which names the package already
		}
		return fmt.Errorf("sizing: %s: %s: %w", what, reason(err), ErrInvalid)
	}
	if dec.More() {
		return fmt.Errorf("sizing: %s: data after the JSON value: %w", what, ErrInvalid)
	}
	return nil
}

// UnmarshalJSON decodes a Workload, rejecting unknown keys (a misspelt
// "seq_len" would otherwise leave SeqLen zero) with an error wrapping ErrInvalid.
func (w *Workload) UnmarshalJSON(data []byte) error {
	type plain Workload
	p := plain(*w)
	if err := strictJSON(data, &p, "workload"); err != nil {
		return err
	}
	*w = Workload(p)
	return nil
}

// UnmarshalJSON decodes a Model, rejecting unknown keys, such as a Hugging Face
// config.json's (read those with ReadConfig), with an error wrapping ErrInvalid.
func (m *Model) UnmarshalJSON(data []byte) error {
	type plain Model
	p := plain(*m)
	if err := strictJSON(data, &p, "model"); err != nil {
		return err
	}
	*m = Model(p)
	return nil
}

// Workload describes the job run on the model: what it does, in which formats, at
// what batch and length, on how many devices.
//
// Zero values: an unset Task or Precision is an error; an unset Optimizer means AdamW
// for training; an unset GradPrecision follows Precision, an unset KVPrecision
// follows it for FP16 and wider and is FP16 below (see each field); Batch and SeqLen must be at least 1; zero LoRARank and LoRATargets mean
// DefaultLoRARank and the task's default targets; a zero Parallel is one device; a
// zero Overhead is DefaultOverhead. Validate lists the rules; Estimate documents how
// each field is used.
type Workload struct {
	Task Task `json:"task"`
	// Precision of the weights; for training, the compute precision (BF16 for mixed
	// precision, FP32 for pure FP32 training). QLoRA stores its base in NF4 whatever
	// this says; Precision is then the compute and adapter precision.
	Precision Precision `json:"precision"`
	// GradPrecision: zero follows Precision (the ZeRO paper's convention, 2 bytes per
	// parameter under mixed precision; for LoRA and QLoRA the adapters' width);
	// FP32 for Megatron-style FP32 accumulation (the Hugging Face docs' 18 bytes per
	// parameter). It must be a floating-point format.
	GradPrecision Precision `json:"grad_precision"`
	// KVPrecision: zero follows Precision for FP16 and wider formats, and is FP16
	// for narrower ones (FP8, INT8 and 4-bit weights are computed in 16 bits); see
	// Precision.KVDefault, which compute's Decode uses too.
	KVPrecision Precision `json:"kv_precision"`
	// StatePrecision is the width of the optimizer's moments (Adam's two, Lion's
	// and momentum's one, Adafactor's factored second moment); zero: FP32, or the
	// weights' own width when wider (FP64). Adam8bit keeps its 8-bit moments
	// whatever this says. BF16 here with Master BF16 is pure BF16 training. It must
	// be a floating-point format; ignored for Inference.
	StatePrecision Precision `json:"state_precision"`
	// Master is the width of the copy of the trained weights the optimizer updates.
	// Zero: FP32 when the trained weights are narrower (mixed precision;
	// Micikevicius et al. 2018), none when they are FP32 or wider. Equal to the
	// trained weights' width (Precision; for LoRA and QLoRA the adapters', at
	// Precision.ComputeBits): no separate copy, the optimizer updates the weights
	// themselves, as pure BF16 training does (with StatePrecision BF16, 8 bytes per
	// parameter under Adam). It must be a floating-point format no narrower than
	// the trained weights; ignored for Inference.
	Master Precision `json:"master"`
	// FullLogits, for Inference: the forward pass over the prompt builds the
	// logits of every prompt token, in the model's width and then upcast to FP32,
	// as Hugging Face transformers' causal language models did before they kept
	// only the last position's (see Estimate). False: only the last token's.
	// Ignored for training, whose loss always builds them.
	FullLogits bool `json:"full_logits"`
	// ChunkedLoss, for training: the loss takes the FP32 upcast and the
	// log-softmax of the logits a chunk at a time (torchtune's
	// CEWithChunkedOutputLoss, LitGPT's chunked cross-entropy), so only the logits
	// at the compute width are held whole. False: the whole logits at once, as
	// Hugging Face's causal language models compute their loss. Ignored for
	// Inference.
	ChunkedLoss bool      `json:"chunked_loss"`
	Optimizer   Optimizer `json:"optimizer"`
	Batch       int       `json:"batch"`   // micro-batch per device (inference: concurrent sequences)
	SeqLen      int       `json:"seq_len"` // tokens per sequence; for inference the context length
	Recompute   Recompute `json:"recompute"`
	// EagerAttention: attention that materialises the a·s² score matrix and its
	// softmax (Korthikanti's baseline; transformers' attn_implementation="eager"):
	// during inference prefill 2·a·s values per token per layer, and for training
	// Korthikanti's 5·a·s/h term. The zero value, false, is memory-efficient
	// attention that never holds the score matrix (FlashAttention, Dao et al.
	// 2022; PyTorch SDPA; paged attention): what vLLM, TGI, llama.cpp and
	// transformers (SDPA, its default for most models) run.
	EagerAttention bool `json:"eager_attention"`
	// PrefillChunk bounds the prompt tokens one inference forward pass runs: a
	// serving engine with chunked prefill runs at most this many tokens per
	// step (vLLM's max_num_batched_tokens; DefaultPrefillChunk is its default),
	// so the activations are those of min(Batch·SeqLen, PrefillChunk) tokens.
	// Zero prefills every sequence's whole prompt at once, as Hugging Face's
	// generate does. Ignored for training. Set it to DefaultPrefillChunk to size
	// a vLLM replica.
	PrefillChunk int `json:"prefill_chunk"`
	LoRARank     int `json:"lora_rank"` // zero: DefaultLoRARank for LoRA and QLoRA
	// LoRATargets selects the adapted matrices; zero: the task's default (see
	// LoRATargets). Ignored, like LoRARank, for Inference and Training.
	LoRATargets LoRATargets `json:"lora_targets"`
	Parallel    Parallel    `json:"parallel"`
	Overhead    Bytes       `json:"overhead_bytes"` // CUDA context and framework; zero: DefaultOverhead
}

// MaxDevices bounds a parallel layout: Workload.Validate refuses a layout of more
// than 1<<24 (16,777,216) devices, a thousand times the largest published training
// runs (Llama 3 405B used 16,384 H100s), so that no degree or device count can
// overflow an int, even a 32-bit one.
const MaxDevices = 1 << 24

// Parallel is the multi-GPU layout. Degrees of zero mean 1; the device count is
// Data × Tensor × Pipeline, at most MaxDevices.
type Parallel struct {
	Data     int `json:"data"`
	Tensor   int `json:"tensor"`
	Pipeline int `json:"pipeline"`
	// ZeRO stage over the data-parallel degree (Rajbhandari et al. 2020): 1 shards
	// optimizer state, 2 also gradients, 3 also weights. 0 is plain data parallel.
	ZeRO int `json:"zero"`
	// SequenceParallel splits the activations that tensor parallelism replicates
	// (layer norms, dropout) along the sequence (Korthikanti et al. 2022).
	SequenceParallel bool `json:"sequence_parallel"`
	// OffloadOptimizer keeps optimizer state (and the FP32 master copy) in host
	// memory, as ZeRO-Offload does; Breakdown.Host reports it.
	OffloadOptimizer bool `json:"offload_optimizer"`
}

// Devices returns the number of devices the layout uses, Data × Tensor × Pipeline,
// each zero counted as 1. For a layout Workload.Validate refuses (a negative degree,
// or more than MaxDevices devices) it returns 0; it never wraps around.
func (p Parallel) Devices() int { return p.devices() }

// devices is Devices for the package's own use: a pointer receiver, so that
// asking does not copy the layout.
func (p *Parallel) devices() int {
	d, t, pp := one(p.Data), one(p.Tensor), one(p.Pipeline)
	if d < 0 || t < 0 || pp < 0 || d > MaxDevices || t > MaxDevices || pp > MaxDevices {
		return 0
	}
	// Each factor is at most 2^24, so the products fit int64 (2^72 would not, but
	// the first product is checked before the second is formed).
	n := int64(d) * int64(t)
	if n > MaxDevices {
		return 0
	}
	if n *= int64(pp); n > MaxDevices {
		return 0
	}
	return int(n)
}

func one(n int) int {
	if n == 0 {
		return 1
	}
	return n
}

// Breakdown is GPU memory per device, split into its parts. Under mixed precision the
// FP32 master copy counts in Optimizer, so mixed-precision Adam is Weights 2 +
// Gradients 2 + Optimizer 12 bytes per parameter (ZeRO's 16). Host is CPU memory for
// offloaded state; it is not part of Total. Approx lists the terms that were
// approximated because the model's architecture was not given.
type Breakdown struct {
	// Weights is the model's stored weights on one device, at the workload's
	// Precision (NF4 for QLoRA), split over the tensor- and pipeline-parallel degrees
	// and, under ZeRO-3, the data-parallel degree too. For LoRA and QLoRA it includes
	// the trainable adapters.
	Weights Bytes `json:"weights_bytes"`
	// Gradients is the gradients of the trainable parameters on one device (the
	// adapters only, for LoRA and QLoRA), split like Weights but over the
	// data-parallel degree from ZeRO-2 on. Zero for inference.
	Gradients Bytes `json:"gradients_bytes"`
	// Optimizer is the optimizer state on one device, the FP32 master copy included
	// under mixed precision, split like Weights but over the data-parallel degree
	// from ZeRO-1 on. Zero for inference, and when the state is offloaded (see Host).
	Optimizer Bytes `json:"optimizer_bytes"`
	// Activations is the activation memory held on one device: for training what the
	// backward pass needs, after recomputation; for inference the working buffers of
	// one forward pass.
	Activations Bytes `json:"activations_bytes"`
	// KVCache is the key-value cache on one device for the workload's batch and
	// sequence length, split over the tensor- and pipeline-parallel degrees. Zero for
	// training.
	KVCache Bytes `json:"kv_cache_bytes"`
	// Overhead is the fixed allowance on each device for the CUDA context, the
	// framework and fragmentation: the workload's Overhead, or DefaultOverhead when
	// that is zero.
	Overhead Bytes `json:"overhead_bytes"`
	// Host is CPU memory per device for optimizer state offloaded to the host
	// (Parallel.OffloadOptimizer); it is not part of Total.
	Host Bytes `json:"host_bytes"`
	// Approx lists the terms that were approximated because the model's
	// architecture was not given; empty when every term was computed from it.
	// Without the architecture Estimate assumes today's shape (Estimate lists it):
	// grouped-query attention with 8 KV heads of 128, so an approximated KV cache
	// is that of a Llama 3, Mistral or Qwen2.5 model of the size; read the model's
	// config.json with ReadConfig to make every term exact.
	Approx Terms `json:"approximated"`
}

// Total returns the GPU memory per device: every field but Host. Estimate's
// breakdowns always sum within int64; for one built or decoded by hand, a sum past
// the int64 range saturates at math.MaxInt64 bytes (or math.MinInt64), so that it
// never wraps around to a small or negative figure.
func (b Breakdown) Total() Bytes {
	var t int64
	for _, v := range [...]Bytes{b.Weights, b.Gradients, b.Optimizer, b.Activations, b.KVCache, b.Overhead} {
		s, ok := checked.Add(t, int64(v))
		if !ok {
			if v > 0 {
				s = math.MaxInt64
			} else {
				s = math.MinInt64
			}
		}
		t = s
	}
	return Bytes(t)
}

// negative reports whether any term of b is below zero.
func (b Breakdown) negative() bool {
	return b.Weights < 0 || b.Gradients < 0 || b.Optimizer < 0 || b.Activations < 0 || b.KVCache < 0 ||
		b.Overhead < 0 || b.Host < 0
}

// Fits reports whether the memory per device fits a card of capacity bytes with
// headroom, a fraction of it, kept free: Total() ≤ Usable(capacity, headroom). It
// is false for a headroom Usable refuses and for a breakdown with a negative term
// (which no estimate has), and a total that saturates (see Total) fits nothing.
func (b Breakdown) Fits(capacity Bytes, headroom float64) bool {
	u, err := Usable(capacity, headroom)
	return err == nil && !b.negative() && b.Total() <= u && b.Total() < math.MaxInt64
}

// Usable returns the memory of a card of capacity bytes a job may plan to use when
// headroom, a fraction from 0 to below 1, is kept free: capacity × (1 − headroom),
// rounded down to whole bytes. Allocators fragment memory and batches vary, so
// planners keep some free; the pricing planner's default is 20%, under which an
// RTX 4090's 24564 MiB leave 19651.2 MiB. A negative capacity, or a headroom that is
// NaN or outside [0, 1), is an error wrapping ErrInvalid.
func Usable(capacity Bytes, headroom float64) (Bytes, error) {
	if capacity < 0 {
		return 0, fmt.Errorf("sizing: capacity %d bytes is negative: %w", int64(capacity), ErrInvalid)
	}
	if !(headroom >= 0 && headroom < 1) {
		return 0, fmt.Errorf("sizing: headroom %v: want a fraction from 0 to below 1: %w", headroom, ErrInvalid)
	}
	if headroom == 0 {
		return capacity, nil
	}
	// Rounded down, and never above capacity: float64 carries 53 bits, so a
	// capacity past 2^53 bytes may round up when converted.
	u := float64(capacity) * (1 - headroom)
	if u >= float64(capacity) {
		return capacity, nil
	}
	return Bytes(u), nil
}

// Terms is a set of Breakdown terms, used to say which ones were approximated.
type Terms uint8

// Terms of a Breakdown.
const (
	TermWeights Terms = 1 << iota
	TermGradients
	TermOptimizer
	TermActivations
	TermKVCache
	TermOverhead
)

var termNames = []string{"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"}

// Has reports whether every term in u is in t.
func (t Terms) Has(u Terms) bool { return t&u == u }

// String lists the terms joined by "+", "none" for the empty set.
func (t Terms) String() string {
	if t == 0 {
		return "none"
	}
	s := ""
	for i, n := range termNames {
		if t&(1<<i) != 0 {
			if s != "" {
				s += "+"
			}
			s += n
		}
	}
	return s
}

// MarshalText writes the set as String does ("activations+kv_cache", "none"), so
// that Breakdown reads well in JSON.
func (t Terms) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads what MarshalText writes. Unknown names wrap ErrInvalid.
func (t *Terms) UnmarshalText(b []byte) error {
	s := string(b)
	var u Terms
	if s != "none" && s != "" {
		for _, part := range strings.Split(s, "+") {
			found := false
			for i, n := range termNames {
				if part == n {
					u |= 1 << i
					found = true
				}
			}
			if !found {
				return &ParseError{Func: "Terms.UnmarshalText", Input: s, Err: newInvalidReason("want terms from " + strings.Join(termNames, ", ") + " joined with +, or none")}
			}
		}
	}
	*t = u
	return nil
}

// trainedBits returns the width of the weights training updates: Precision's for
// Training, the adapters' (Precision.ComputeBits) for LoRA and QLoRA, and 0 for
// Inference or a precision that is not valid.
func (w *Workload) trainedBits() float64 {
	switch w.Task {
	case Training:
		return w.Precision.Bits()
	case LoRA, QLoRA:
		return w.Precision.ComputeBits()
	}
	return 0
}

// isFloat reports whether p is one of the floating-point formats that training can
// keep weights and gradients in (FP64, FP32, TF32, FP16, BF16, FP8), as opposed to
// the storage-only quantized formats.
func isFloat(p Precision) bool { return p >= FP64 && p <= FP8 }

// Validate reports every problem with w on its own, joined with errors.Join; each
// wraps ErrInvalid. It returns nil for a workload Estimate accepts with any model
// (Estimate also checks the parallel layout against the model's heads and layers).
//
// Rules: Task and Precision must be set and known; GradPrecision, KVPrecision,
// StatePrecision and Master, when set, must be valid (all but KVPrecision
// floating-point ones, and Master no narrower than the weights it updates); Optimizer and Recompute must be known values; Batch and
// SeqLen at least 1; PrefillChunk, LoRARank, Overhead and the parallel degrees not negative;
// LoRATargets only known bits; ZeRO 0 to 3; at most MaxDevices devices
// (Parallel.Devices), which bounds each degree too. Full Training needs a floating-point
// Precision (FP64 to FP8): quantized formats store frozen weights, so train
// adapters on them with LoRA or QLoRA instead. A ZeRO stage with a data-parallel
// degree of 1 is allowed and shards nothing (DeepSpeed accepts it, commonly to
// use optimizer offload on one device).
func (w Workload) Validate() error {
	p := problems{collect: true, prefix: "sizing: workload: "}
	w.check(&p)
	return p.err()
}

// check records in pr each problem Validate reports.
func (w *Workload) check(pr *problems) {
	if w.Task == 0 {
		pr.add("task is not set")
	} else if w.Task >= numTasks {
		pr.add("task %v is not a known task", w.Task)
	}
	if w.Precision == 0 {
		pr.add("precision is not set")
	} else if !w.Precision.Valid() {
		pr.add("precision %v is not a valid precision", w.Precision)
	} else if w.Task == Training && !isFloat(w.Precision) {
		pr.add("full training needs a floating-point precision, not %v (use LoRA or QLoRA on quantized weights)", w.Precision)
	}
	if w.GradPrecision != 0 && !isFloat(w.GradPrecision) {
		pr.add("gradient precision %v is not a floating-point precision", w.GradPrecision)
	}
	if w.KVPrecision != 0 && !w.KVPrecision.Valid() {
		pr.add("KV cache precision %v is not a precision", w.KVPrecision)
	}
	if w.StatePrecision != 0 && !isFloat(w.StatePrecision) {
		pr.add("optimizer state precision %v is not a floating-point precision", w.StatePrecision)
	}
	if w.Master != 0 {
		if !isFloat(w.Master) {
			pr.add("master precision %v is not a floating-point precision", w.Master)
		} else if t := w.trainedBits(); w.Master.Bits() < t {
			pr.add("master precision %v is narrower than the %g-bit weights it updates", w.Master, t)
		}
	}
	if w.Optimizer >= numOptimizers {
		pr.add("unknown optimizer %v", w.Optimizer)
	}
	if w.Recompute >= numRecomputes {
		pr.add("unknown recomputation strategy %v", w.Recompute)
	}
	if w.Batch < 1 {
		pr.add("batch %d is below 1", w.Batch)
	}
	if w.SeqLen < 1 {
		pr.add("sequence length %d is below 1", w.SeqLen)
	}
	if w.PrefillChunk < 0 {
		pr.add("negative prefill chunk %d", w.PrefillChunk)
	}
	if w.LoRARank < 0 {
		pr.add("negative LoRA rank %d", w.LoRARank)
	}
	if w.LoRATargets&^TargetAllLinear != 0 {
		pr.add("unknown LoRA targets %v", w.LoRATargets)
	}
	if w.Overhead < 0 {
		pr.add("negative overhead %d bytes", int64(w.Overhead))
	}
	p := &w.Parallel
	if p.Data < 0 || p.Tensor < 0 || p.Pipeline < 0 {
		pr.add("negative parallel degree (data %d, tensor %d, pipeline %d)", p.Data, p.Tensor, p.Pipeline)
	} else if p.devices() == 0 {
		pr.add("parallel layout of data %d × tensor %d × pipeline %d is over MaxDevices (%d) devices", p.Data, p.Tensor, p.Pipeline, MaxDevices)
	}
	if p.ZeRO < 0 || p.ZeRO > 3 {
		pr.add("ZeRO stage %d is outside 0..3", p.ZeRO)
	}
}
