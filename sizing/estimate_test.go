package sizing

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// Literal models (the presets may change independently; these are fixed shapes).
var (
	// Llama-2-7B config.json: 32 layers, hidden 4096, 32 heads, FFN 11008, vocab
	// 32000, SwiGLU, untied embeddings.
	estLlama2_7B = Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}
	// Llama-2-70B config.json: 80 layers, hidden 8192, 64 heads, 8 KV heads, FFN 28672.
	estLlama2_70B = Model{Name: "llama-2-70b", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 32000, GatedFFN: true}
	// OPT-13B config.json: 40 layers, hidden 5120, 40 heads, FFN 20480, vocab 50272.
	estOPT13B = Model{Name: "opt-13b", Layers: 40, Hidden: 5120, Heads: 40, FFN: 20480, Vocab: 50272, LinearBias: true, TiedEmbeddings: true, Positions: 2050}
	// GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, hidden 12288, 96 heads.
	estGPT3 = Model{Name: "gpt-3", Layers: 96, Hidden: 12288, Heads: 96, FFN: 4 * 12288, Vocab: 50257, TiedEmbeddings: true, LinearBias: true, Positions: 2048}
)

func modelStates(b Breakdown) Bytes { return b.Weights + b.Gradients + b.Optimizer }

func TestEstimateZeRO(t *testing.T) {
	// Rajbhandari et al. 2020 (ZeRO), §3.1 and §5, Figure 1: mixed-precision Adam
	// keeps 16 bytes per parameter; 7.5B parameters on 64 devices need, per device,
	// 120 GB plain, 31.4 GB (stage 1), 16.6 GB (stage 2), 1.9 GB (stage 3).
	m := Model{Name: "7.5b", Params: 7_500_000_000}
	tests := []struct {
		name string
		zero int
		want Bytes
	}{
		{"data parallel 16Ψ", 0, 120 * GB},
		{"stage 1 4Ψ+12Ψ/N", 1, 30*GB + 1_406_250_000},
		{"stage 2 2Ψ+14Ψ/N", 2, 15*GB + 1_640_625_000},
		{"stage 3 16Ψ/N", 3, 1_875_000_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := Workload{Task: Training, Precision: FP16, Optimizer: Adam, Batch: 1, SeqLen: 1,
				Parallel: Parallel{Data: 64, ZeRO: tc.zero}}
			b, err := Estimate(m, w)
			if err != nil {
				t.Fatal(err)
			}
			if got := modelStates(b); got != tc.want {
				t.Errorf("model states = %d, want %d", got, tc.want)
			}
			// The paper's rounded figures, in decimal GB.
			paper := map[int]float64{0: 120, 1: 31.4, 2: 16.6, 3: 1.9}[tc.zero]
			if got := modelStates(b).GB(); math.Abs(got-paper) > 0.06 {
				t.Errorf("model states = %.2f GB, paper %.1f GB", got, paper)
			}
		})
	}
}

func TestEstimateBytesPerParam(t *testing.T) {
	m := Model{Name: "1.5b", Params: 1_500_000_000}
	tests := []struct {
		name string
		w    Workload
		want Bytes // per parameter
	}{
		// ZeRO §3.1: GPT-2 1.5B with mixed-precision Adam needs at least 24 GB.
		{"ZeRO mixed-precision Adam 2+2+12", Workload{Task: Training, Precision: FP16, Optimizer: Adam}, 16},
		// Hugging Face "model memory anatomy": 18 bytes per parameter with FP32 gradients.
		{"HF mixed-precision AdamW with FP32 grads", Workload{Task: Training, Precision: BF16, GradPrecision: FP32}, 18},
		// FP32 training: 4 weights + 4 gradients + 8 moments, no master copy.
		{"FP32 AdamW", Workload{Task: Training, Precision: FP32, Optimizer: AdamW}, 16},
		// HF guide: 8-bit AdamW 2 bytes of state, plus weights, grads, master.
		{"mixed Adam8bit 2+2+4+2", Workload{Task: Training, Precision: BF16, Optimizer: Adam8bit}, 10},
		// HF guide: SGD with momentum 4 bytes of state.
		{"mixed momentum 2+2+4+4", Workload{Task: Training, Precision: BF16, Optimizer: Momentum}, 12},
		{"mixed SGD 2+2+4", Workload{Task: Training, Precision: BF16, Optimizer: SGD}, 8},
		{"mixed Lion 2+2+4+4", Workload{Task: Training, Precision: BF16, Optimizer: Lion}, 12},
		{"FP32 SGD", Workload{Task: Training, Precision: FP32, Optimizer: SGD}, 8},
		{"FP16 inference", Workload{Task: Inference, Precision: FP16}, 2},
		{"INT8 inference", Workload{Task: Inference, Precision: INT8}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.w.Batch, tc.w.SeqLen = 1, 1
			b, err := Estimate(m, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := modelStates(b), tc.want*1_500_000_000; got != want {
				t.Errorf("model states = %d, want %d", got, want)
			}
		})
	}
	// GPT-2 1.5B: 24 GB of model states.
	b, err := Estimate(m, Workload{Task: Training, Precision: FP16, Optimizer: Adam, Batch: 1, SeqLen: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := modelStates(b); got != 24*GB {
		t.Errorf("GPT-2 1.5B model states = %v bytes, want 24 GB", int64(got))
	}
}

func TestKVCacheVLLM(t *testing.T) {
	// Kwon et al. 2023 (vLLM) §3: OPT-13B keeps 2 × 5120 × 40 × 2 B = 819,200 bytes
	// per token; Llama-2-70B with 8 KV heads of 128 keeps 327,680.
	tests := []struct {
		name string
		m    Model
		want Bytes
	}{
		{"OPT-13B", estOPT13B, 819_200},
		{"Llama-2-70B GQA", estLlama2_70B, 327_680},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Estimate(tc.m, Workload{Task: Inference, Precision: FP16, Batch: 1, SeqLen: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if got := b.KVCache; got != 1000*tc.want {
				t.Errorf("KV cache for 1000 tokens = %d, want %d", got, 1000*tc.want)
			}
			kv, err := KVCacheBytes(tc.m, 1, 1, FP16)
			if err != nil || kv != tc.want {
				t.Errorf("KVCacheBytes = %d, %v, want %d", kv, err, tc.want)
			}
		})
	}
}

func TestKorthikanti(t *testing.T) {
	// Korthikanti et al. 2022, Table 2: per layer, bytes, FP16 activations.
	ar := archOf(&estGPT3)
	s, b, h, a := 2048.0, 1.0, 12288.0, 96.0
	if got := 5 * a * s / h; got != 80 {
		t.Fatalf("GPT-3 5as/h = %v, want 80", got)
	}
	tests := []struct {
		name     string
		t        float64
		scores   bool
		sp       bool
		wantCoef float64 // of s·b·h
	}{
		{"no parallelism", 1, true, false, 34 + 5*a*s/h},
		{"selective recompute", 1, false, false, 34},
		{"tensor parallel 8", 8, true, false, 10 + 24.0/8 + 5*a*s/(h*8)},
		{"tensor+sequence parallel 8", 8, true, true, 34.0/8 + 5*a*s/(h*8)},
		{"tensor+sequence parallel 8 selective", 8, false, true, 34.0 / 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := s * b * layerActivations(&ar, s, tc.t, 2, tc.scores, tc.sp)
			if want := s * b * h * tc.wantCoef; got != want {
				t.Errorf("layer activations = %v, want %v", got, want)
			}
		})
	}
	// Selective recomputation saves 80/114 = 70% of activation memory for GPT-3.
	full := layerActivations(&ar, s, 1, 2, true, false)
	sel := layerActivations(&ar, s, 1, 2, false, false)
	if saved := 1 - sel/full; math.Round(saved*100) != 70 {
		t.Errorf("selective recompute saves %.3f, want 0.70", saved)
	}
	// Full recomputation keeps 2sbh per layer, plus one layer's set while it is
	// recomputed and the loss's copies of the logits (2 + 4 + 4 + 4 bytes each).
	w := Workload{Task: Training, Precision: FP16, Batch: 1, SeqLen: 2048, Recompute: FullRecompute, EagerAttention: true}
	br, err := Estimate(estGPT3, w)
	if err != nil {
		t.Fatal(err)
	}
	want := s*b*96*2*h + s*b*h*(34+80) + s*b*50257*14
	if got := float64(br.Activations); got != want {
		t.Errorf("full recompute activations = %v, want %v", got, want)
	}
}

func TestQLoRAPrecision(t *testing.T) {
	// Dettmers et al. 2023 (QLoRA) §3: double quantization costs 8/64 + 32/(64·256)
	// = 0.127 bits per parameter on top of the 4-bit values.
	if got := NF4.Bits() - 4; math.Abs(got-0.127) > 0.0005 {
		t.Errorf("NF4 constants = %.4f bits, want 0.127", got)
	}
	b, err := Estimate(estLlama2_7B, Workload{Task: QLoRA, Precision: BF16, Batch: 1, SeqLen: 512})
	if err != nil {
		t.Fatal(err)
	}
	n := estLlama2_7B.ParamCount()
	// Adapters on every linear layer at rank 16: per layer 16·(4·(4096+4096) +
	// 3·(4096+11008)) = 1,249,280; 32 layers: 39,976,960.
	const adapters = 39_976_960
	// The base in NF4, but for the embedding table and the untied head, 2·32000·4096
	// = 262,144,000 parameters, which bitsandbytes keeps in 16 bits (re-pinned when
	// WeightBytes learned that rule; before, every parameter counted at 4.127 bits).
	const emb = 262_144_000
	base := (float64(n-emb)*NF4.Bits() + emb*16) / 8
	if got, want := float64(b.Weights), math.Ceil(base+adapters*2); got != want {
		t.Errorf("QLoRA weights = %v, want %v", got, want)
	}
	if got, want := b.Gradients, Bytes(adapters*2); got != want {
		t.Errorf("QLoRA gradients = %d, want %d", got, want)
	}
	if got, want := b.Optimizer, Bytes(adapters*12); got != want {
		t.Errorf("QLoRA optimizer = %d, want %d", got, want)
	}
}

func TestEstimateInvalid(t *testing.T) {
	ok := Workload{Task: Inference, Precision: FP16, Batch: 1, SeqLen: 1}
	huge := Model{Name: "huge", Params: math.MaxInt64}
	tests := []struct {
		name string
		m    Model
		w    func(w *Workload)
	}{
		{"unset task", estLlama2_7B, func(w *Workload) { w.Task = 0 }},
		{"unknown task", estLlama2_7B, func(w *Workload) { w.Task = 99 }},
		{"unset precision", estLlama2_7B, func(w *Workload) { w.Precision = 0 }},
		{"bad precision", estLlama2_7B, func(w *Workload) { w.Precision = 12345 }},
		{"bad grad precision", estLlama2_7B, func(w *Workload) { w.GradPrecision = 12345 }},
		{"bad KV precision", estLlama2_7B, func(w *Workload) { w.KVPrecision = 12345 }},
		{"training a quantized format", estLlama2_7B, func(w *Workload) { w.Task = Training; w.Precision = NF4 }},
		{"zero batch", estLlama2_7B, func(w *Workload) { w.Batch = 0 }},
		{"negative batch", estLlama2_7B, func(w *Workload) { w.Batch = -4 }},
		{"zero seq", estLlama2_7B, func(w *Workload) { w.SeqLen = 0 }},
		{"negative rank", estLlama2_7B, func(w *Workload) { w.LoRARank = -1 }},
		{"unknown targets", estLlama2_7B, func(w *Workload) { w.LoRATargets = 1 << 7 }},
		{"unknown optimizer", estLlama2_7B, func(w *Workload) { w.Optimizer = 42 }},
		{"unknown recompute", estLlama2_7B, func(w *Workload) { w.Recompute = 9 }},
		{"negative overhead", estLlama2_7B, func(w *Workload) { w.Overhead = -1 }},
		{"negative data degree", estLlama2_7B, func(w *Workload) { w.Parallel.Data = -1 }},
		{"negative tensor degree", estLlama2_7B, func(w *Workload) { w.Parallel.Tensor = -2 }},
		{"ZeRO 4", estLlama2_7B, func(w *Workload) { w.Parallel.ZeRO = 4 }},
		{"ZeRO -1", estLlama2_7B, func(w *Workload) { w.Parallel.ZeRO = -1 }},
		{"tensor not dividing heads", estLlama2_7B, func(w *Workload) { w.Parallel.Tensor = 3 }},
		{"tensor vs KV heads", Model{Layers: 2, Hidden: 768, Heads: 12, KVHeads: 4, FFN: 3072, Vocab: 100}, func(w *Workload) { w.Parallel.Tensor = 6 }},
		{"pipeline over layers", estLlama2_7B, func(w *Workload) { w.Parallel.Pipeline = 33 }},
		{"heads not dividing hidden", Model{Layers: 2, Hidden: 100, Heads: 3, FFN: 400, Vocab: 10}, nil},
		{"KV heads over heads", Model{Layers: 2, Hidden: 64, Heads: 4, KVHeads: 8, FFN: 256, Vocab: 10}, nil},
		{"KV heads not dividing heads", Model{Layers: 2, Hidden: 96, Heads: 6, KVHeads: 4, FFN: 256, Vocab: 10}, nil},
		{"negative params", Model{Params: -7}, nil},
		{"negative layers", Model{Params: 7, Layers: -1}, nil},
		{"no size", Model{Name: "empty"}, nil},
		{"no FFN and no params", Model{Layers: 2, Hidden: 64, Heads: 4, Vocab: 10}, nil},
		{"experts per token over experts", Model{Params: 1e9, Experts: 2, ExpertsPerToken: 3}, nil},
		{"overflowing params", huge, nil},
		{"overflowing KV cache", estLlama2_70B, func(w *Workload) { w.Batch = math.MaxInt32; w.SeqLen = math.MaxInt }},
		{"overflowing activations", estLlama2_7B, func(w *Workload) { w.Task = Training; w.Batch = math.MaxInt; w.SeqLen = math.MaxInt }},
		{"overflowing architecture", Model{Layers: math.MaxInt32, Hidden: math.MaxInt32, Heads: 1, FFN: math.MaxInt32, Vocab: math.MaxInt32}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := ok
			if tc.w != nil {
				tc.w(&w)
			}
			b, err := Estimate(tc.m, w)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Estimate() = %+v, %v; want an error wrapping ErrInvalid", b, err)
			}
			if b != (Breakdown{}) {
				t.Errorf("Estimate() returned %+v with its error, want the zero Breakdown", b)
			}
		})
	}
}

// TestOffloadedGradientsOverflow checks the bound on gradients that leave the
// device: FP64 gradients of 1.125e18 parameters are 9e18 bytes, past the limit,
// while the host term, which halves them to FP32 and shares the optimizer over 13
// data-parallel devices, stays under it; 1.124e18 parameters fit.
func TestOffloadedGradientsOverflow(t *testing.T) {
	w := Workload{Task: Training, Precision: FP16, GradPrecision: FP64, Batch: 1, SeqLen: 1,
		Parallel: Parallel{Data: 13, ZeRO: 1, OffloadOptimizer: true}}
	if b, err := Estimate(Model{Params: 1.124e18}, w); err != nil || b.Host <= 0 || b.Gradients != 0 {
		t.Errorf("1.124e18 parameters: %+v, %v; want gradients on the host", b, err)
	}
	if b, err := Estimate(Model{Params: 1.125e18}, w); !errors.Is(err, ErrInvalid) {
		t.Errorf("1.125e18 parameters: %+v, %v; want an overflow wrapping ErrInvalid", b, err)
	}
}

// TestPipelineParamsOnly checks the pipeline degree of a model known only by its
// parameter count against the layers resolveArch assumes: 7e9 parameters give
// ∛(7e9/196608) = 32.9 layers, counted as 33. Before, p = 64 gave 35.4 GiB of
// activations (18.5 GiB at p = 1) and p = 2^40 157 PB, all without error.
func TestPipelineParamsOnly(t *testing.T) {
	m := Model{Params: 7e9}
	w := Workload{Task: Training, Precision: BF16, Batch: 1, SeqLen: 4096}
	for _, tt := range []struct {
		pipeline int
		ok       bool
	}{{1, true}, {2, true}, {33, true}, {34, false}, {64, false}, {1 << 40, false}} {
		w.Parallel.Pipeline = tt.pipeline
		b, err := Estimate(m, w)
		if tt.ok && err != nil {
			t.Errorf("pipeline %d: %v, want an estimate", tt.pipeline, err)
		}
		if !tt.ok && !errors.Is(err, ErrInvalid) {
			t.Errorf("pipeline %d: activations %v, %v; want an error wrapping ErrInvalid", tt.pipeline, b.Activations, err)
		}
	}
	inf := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 4096, Parallel: Parallel{Pipeline: 64}}
	if _, err := Estimate(m, inf); !errors.Is(err, ErrInvalid) {
		t.Errorf("inference, pipeline 64: %v, want ErrInvalid", err)
	}
	if _, err := MaxContext(m, inf, 80*GiB); !errors.Is(err, ErrInvalid) {
		t.Errorf("MaxContext, pipeline 64: %v, want ErrInvalid", err)
	}
}

// TestParallelDevicesBound checks that Devices never wraps around and that Validate
// refuses layouts of more than MaxDevices devices. Before, {Data: 2^32, Tensor:
// 2^32} gave 0 devices and (2^32+1)² gave 2^33+1, and Validate accepted both.
func TestParallelDevicesBound(t *testing.T) {
	tests := []struct {
		name string
		p    Parallel
		want int
	}{
		{"zero layout", Parallel{}, 1},
		{"8 × 4 × 2", Parallel{Data: 8, Tensor: 4, Pipeline: 2}, 64},
		{"exactly MaxDevices", Parallel{Data: 1 << 12, Tensor: 1 << 12}, MaxDevices},
		{"one over", Parallel{Data: 1 << 12, Tensor: 1 << 12, Pipeline: 2}, 0},
		{"2^32 × 2^32", Parallel{Data: 1 << 32, Tensor: 1 << 32}, 0},
		{"(2^32+1)²", Parallel{Data: 1<<32 + 1, Tensor: 1<<32 + 1}, 0},
		{"huge pipeline", Parallel{Pipeline: math.MaxInt}, 0},
		{"negative", Parallel{Data: -2}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Devices(); got != tt.want {
				t.Errorf("Devices() = %d, want %d", got, tt.want)
			}
			w := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 1, Parallel: tt.p}
			if err := w.Validate(); (err == nil) != (tt.want > 0) {
				t.Errorf("Validate() = %v, want an error: %v", err, tt.want == 0)
			} else if err != nil && !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate() = %v, want one wrapping ErrInvalid", err)
			}
		})
	}
}

// TestQuantizedEmbeddings16 pins the 16-bit embeddings and head of the formats
// that quantize only the linear layers. Llama-3-8B (8,030,261,248 parameters,
// 2·128,256·4096 = 1,050,673,152 of them in the embedding and the untied head) in
// AWQ4 is 6,979,588,096 × 4.15625/8 + 1,050,673,152 × 2 = 5,727,460,432 bytes,
// about the 5.73 GB of the published AWQ checkpoints; counted at 4.156 bits
// throughout it was 4,171,971,664.
func TestQuantizedEmbeddings16(t *testing.T) {
	l3, err := Preset("llama-3-8b")
	if err != nil {
		t.Fatal(err)
	}
	n := l3.ParamCount()
	const emb = 1_050_673_152
	custom, _ := CustomBits(4.65)
	tests := []struct {
		name string
		m    Model
		p    Precision
		want Bytes
	}{
		{"Llama-3-8B AWQ4", l3, AWQ4, 5_727_460_432},
		{"Llama-3-8B GPTQ4", l3, GPTQ4, 5_727_460_432},
		{"Llama-3-8B NF4", l3, NF4, Bytes(math.Ceil((float64(n-emb)*NF4.Bits() + emb*16) / 8))},
		{"Llama-3-8B INT8", l3, INT8, Bytes(n-emb) + 2*emb},
		{"Llama-3-8B FP8", l3, FP8, Bytes(n-emb) + 2*emb},
		{"Llama-3-8B INT4", l3, INT4, Bytes((n-emb)/2) + 2*emb},
		// GGUF mixes are measured over the whole file: uniform.
		{"Llama-3-8B Q4_K_M", l3, Q4_K_M, Bytes(math.Ceil(float64(n) * 4.84 / 8))},
		{"Llama-3-8B Q8_0", l3, Q8_0, Bytes(math.Ceil(float64(n) * 8.5 / 8))},
		{"Llama-3-8B custom", l3, custom, Bytes(math.Ceil(float64(n) * 4.65 / 8))},
		{"Llama-3-8B BF16", l3, BF16, 2 * Bytes(n)},
		// OPT-13B ties its head to the embeddings and learns 2050 positions: one
		// 50272×5120 table and a 2050×5120 one stay 16-bit.
		{"OPT-13B INT8", estOPT13B, INT8, Bytes(estOPT13B.ParamCount()) + (50272+2050)*5120},
		// Without the architecture nothing is known about the embeddings.
		{"Params only AWQ4", Model{Params: 8e9}, AWQ4, Bytes(math.Ceil(8e9 * AWQ4.Bits() / 8))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := WeightBytes(tt.m, tt.p)
			if err != nil || got != tt.want {
				t.Errorf("WeightBytes = %d, %v; want %d", got, err, tt.want)
			}
			b, err := Estimate(tt.m, Workload{Task: Inference, Precision: tt.p, Batch: 1, SeqLen: 1})
			if err != nil || b.Weights != got {
				t.Errorf("Estimate weights = %d, %v; want WeightBytes' %d", b.Weights, err, got)
			}
		})
	}
}

// TestPropWeightBytesMatchesEstimate checks that WeightBytes and Estimate's Weights
// term give one answer for every model and weight precision on one device.
func TestPropWeightBytesMatchesEstimate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genAnyModel().Draw(t, "model")
		p := rapid.SampledFrom([]Precision{FP32, BF16, FP8, INT8, INT4, NF4, GPTQ4, AWQ4, Q4_K_M, Q2_K, Q8_0}).Draw(t, "precision")
		want, err := WeightBytes(m, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Estimate(m, Workload{Task: Inference, Precision: p, Batch: 1, SeqLen: 1})
		if err != nil {
			t.Fatal(err)
		}
		if b.Weights != want {
			t.Fatalf("Estimate weights %d, WeightBytes %d", b.Weights, want)
		}
	})
}

func TestUsableAndFits(t *testing.T) {
	// An RTX 4090 reports 24564 MiB; 20% free leaves 19651.2 MiB.
	rtx4090 := 24564 * MiB
	u, err := Usable(rtx4090, 0.2)
	if err != nil || u != Bytes(float64(rtx4090)*0.8) || u/MiB != 19651 {
		t.Errorf("Usable(24564 MiB, 0.2) = %v, %v; want 19651.2 MiB", u, err)
	}
	if u, err := Usable(80*GiB, 0); err != nil || u != 80*GiB {
		t.Errorf("Usable(80 GiB, 0) = %v, %v", u, err)
	}
	for _, h := range []float64{-0.1, 1, 1.5, math.NaN(), math.Inf(1)} {
		if _, err := Usable(80*GiB, h); !errors.Is(err, ErrInvalid) {
			t.Errorf("Usable(80 GiB, %v) error = %v, want ErrInvalid", h, err)
		}
	}
	// Past 2^53 bytes float64 rounds; Usable never wraps or exceeds the capacity.
	for _, c := range []Bytes{math.MaxInt64, 1<<60 - 1, 1 << 53, 1<<53 + 1} {
		for _, h := range []float64{0, 1e-18, 0.2} {
			u, err := Usable(c, h)
			if err != nil || u < 0 || u > c || (h == 0 && u != c) {
				t.Errorf("Usable(%d, %v) = %d, %v; want 0 ≤ u ≤ capacity, and the capacity at 0", int64(c), h, int64(u), err)
			}
		}
	}
	if _, err := Usable(-1, 0.2); !errors.Is(err, ErrInvalid) {
		t.Errorf("Usable(-1, 0.2) error = %v, want ErrInvalid", err)
	}
	b := Breakdown{Weights: 15 * GiB, Overhead: GiB} // 16 GiB in all
	if !b.Fits(20*GiB, 0.2) || b.Fits(20*GiB, 0.25) || b.Fits(20*GiB, math.NaN()) {
		t.Errorf("16 GiB in 20 GiB: fits at 20%% free %v, at 25%% %v, at NaN %v; want true, false, false",
			b.Fits(20*GiB, 0.2), b.Fits(20*GiB, 0.25), b.Fits(20*GiB, math.NaN()))
	}
}
