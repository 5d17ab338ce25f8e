package sizing

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// archOf is the architecture Estimate uses for m, a valid model, for tests.
func archOf(m *Model) arch {
	var ar arch
	c := *m
	checkModel(&c, &ar)
	return ar
}

func TestLayerActivationsGeneralised(t *testing.T) {
	llama := archOf(&estLlama2_7B)
	tests := []struct {
		name string
		ar   arch
		t, e float64
		want float64 // bytes per token per layer, no scores
	}{
		// Llama-2-7B, gated FFN 11008: kept whole 2·4·4096 + 2·4096 = 40,960; split
		// 2·(2·4096 + 2·4096 + 4·11008) = 120,832.
		{"llama-2-7b gated", llama, 1, 2, 40960 + 120832},
		// The same over 4 devices: whole stays, split divides.
		{"llama-2-7b tensor 4", llama, 4, 2, 40960 + 120832/4},
		// FP32 activations: 4-byte elements, dropout masks still one byte.
		{"llama-2-7b fp32", llama, 1, 4, 4*4*4096 + 2*4096 + 4*(2*4096+2*4096+4*11008)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := layerActivations(&tc.ar, 4096, tc.t, tc.e, false, false); got != tc.want {
				t.Errorf("layerActivations = %v, want %v", got, tc.want)
			}
		})
	}
	// GQA keeps fewer K and V values: 70B with 8 KV heads against 64.
	gqa := archOf(&estLlama2_70B)
	mha := gqa
	mha.k = mha.a
	diff := layerActivations(&mha, 1, 1, 2, false, false) - layerActivations(&gqa, 1, 1, 2, false, false)
	if want := 2.0 * 2 * (64 - 8) * 128; diff != want {
		t.Errorf("MHA − GQA per token = %v, want %v", diff, want)
	}
	// Experts: memory follows experts per token, not the number of experts (only
	// the router's logits grow with it).
	moe := func(experts, ept int) float64 {
		m := estLlama2_7B
		m.Experts, m.ExpertsPerToken = experts, ept
		ar := archOf(&m)
		return layerActivations(&ar, 1, 1, 2, false, false)
	}
	if d := moe(16, 2) - moe(8, 2); d != 2*8 {
		t.Errorf("8 more experts add %v bytes per token, want 16 (router logits)", d)
	}
	if d := moe(8, 2) - moe(8, 1); d != 2*4*11008 {
		t.Errorf("a second routed expert adds %v bytes per token, want %v", d, 2*4*11008)
	}
}

func TestActivationsLayouts(t *testing.T) {
	base := Workload{Task: Training, Precision: BF16, Batch: 2, SeqLen: 2048}
	get := func(w Workload) Breakdown {
		t.Helper()
		b, err := Estimate(estLlama2_7B, w)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one := get(base)
	// 1F1B: a pipeline whose degree divides the layers keeps the whole model's
	// activations on its first stage.
	for _, p := range []int{2, 4, 8, 32} {
		w := base
		w.Parallel.Pipeline = p
		b := get(w)
		if b.Activations != one.Activations {
			t.Errorf("pipeline %d activations = %d, want %d (1F1B)", p, b.Activations, one.Activations)
		}
		if want := (one.Weights + Bytes(p) - 1) / Bytes(p); b.Weights != want {
			t.Errorf("pipeline %d weights = %d, want %d", p, b.Weights, want)
		}
	}
	// Tensor 2 × pipeline 2 splits model state four ways.
	w := base
	w.Parallel = Parallel{Tensor: 2, Pipeline: 2}
	if b := get(w); modelStates(b) != modelStates(one)/4 {
		t.Errorf("t2·p2 model states = %d, want %d", modelStates(b), modelStates(one)/4)
	}
	// Offload moves the optimizer, master copy included, and the gradients in
	// FP32 (twice their BF16 bytes) to the host, times DeepSpeed's 1.5 buffer factor.
	w = base
	w.Parallel.OffloadOptimizer = true
	if b, want := get(w), (one.Optimizer+2*one.Gradients)*3/2; b.Optimizer != 0 || b.Gradients != 0 || b.Host != want || b.Weights != one.Weights {
		t.Errorf("offload: %+v, want %d on the host", b, want)
	}
	// Full recomputation: each layer's input, plus one layer's set while it is
	// recomputed (161,792 bytes per token) and the loss's copies of the logits
	// (32000 × (2 + 4 + 4 + 4): BF16, their FP32 upcast, the log-softmax and its
	// gradient).
	w = base
	w.Recompute = FullRecompute
	full := get(w)
	want := 2048 * 2 * (32*2*4096 + 161792 + 32000*14)
	if full.Activations != Bytes(want) {
		t.Errorf("full recompute activations = %d, want %d", full.Activations, want)
	}
}

func TestInferenceTerms(t *testing.T) {
	tests := []struct {
		name    string
		w       Workload
		kvBytes Bytes // per token
		act     Bytes
	}{
		// Llama-2-7B, one token, FlashAttention: the FFN phase 2·(2·4096 + 3·11008)
		// = 82,432 outweighs attention; logits 32000·4.
		{"bf16", Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 1}, 524_288, 82432 + 128000},
		// 4-bit weights: KV and activations stay FP16.
		{"int4 weights, fp16 kv", Workload{Task: Inference, Precision: GPTQ4, Batch: 1, SeqLen: 1}, 524_288, 82432 + 128000},
		{"fp8 weights, fp16 kv", Workload{Task: Inference, Precision: FP8, Batch: 1, SeqLen: 1}, 524_288, 82432 + 128000},
		{"fp8 kv", Workload{Task: Inference, Precision: BF16, KVPrecision: FP8, Batch: 1, SeqLen: 1}, 262_144, 82432 + 128000},
		{"fp32", Workload{Task: Inference, Precision: FP32, Batch: 1, SeqLen: 1}, 1_048_576, 2*82432 + 128000},
		// Tensor 4 splits KV heads and the FFN, not the residual stream.
		{"tensor 4", Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 1, Parallel: Parallel{Tensor: 4}},
			131_072, 2*(8192+3*11008/4) + 32000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Estimate(estLlama2_7B, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			if b.KVCache != tc.kvBytes || b.Activations != tc.act {
				t.Errorf("KV = %d, activations = %d; want %d, %d", b.KVCache, b.Activations, tc.kvBytes, tc.act)
			}
		})
	}
}

func TestLoRATrainable(t *testing.T) {
	// PEFT's print_trainable_parameters for Llama-2-7B with r = 8 on q_proj and
	// v_proj: "trainable params: 4,194,304 || all params: 6,742,609,920".
	ar := archOf(&estLlama2_7B)
	if got, _ := adapterShape(&ar, TargetQuery|TargetValue, 8); got != 4_194_304 {
		t.Errorf("trainable = %v, want 4,194,304", got)
	}
	if n := estLlama2_7B.ParamCount(); n+4_194_304 != 6_742_609_920 {
		t.Errorf("base %d + adapters != PEFT's all params 6,742,609,920", n)
	}
	// LoRA's default is q and v at DefaultLoRARank; gradients are 2 bytes each
	// under BF16.
	b, err := Estimate(estLlama2_7B, Workload{Task: LoRA, Precision: BF16, Batch: 1, SeqLen: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := Bytes(2 * 4_194_304 * DefaultLoRARank / 8); b.Gradients != want {
		t.Errorf("LoRA gradients = %d, want %d", b.Gradients, want)
	}
	// Gate targets are ignored on a plain FFN; Adafactor keeps (d_in+r)+(r+d_out)
	// values per adapter.
	plain := arch{L: 1, h: 10, a: 2, k: 2, d: 5, f: 40, experts: 1, ept: 1}
	if p, f := adapterShape(&plain, TargetGate|TargetUp, 2); p != 2*(10+40) || f != 10+40+4 {
		t.Errorf("plain FFN up adapter = %v params, %v factored; want 100, 54", p, f)
	}
}

func TestApproxAndJSON(t *testing.T) {
	tests := []struct {
		name string
		m    Model
		task Task
		want Terms
	}{
		{"architecture", estLlama2_7B, Inference, 0},
		{"params-only inference", Model{Params: 7e9}, Inference, TermActivations | TermKVCache},
		{"params-only training", Model{Params: 7e9}, Training, TermActivations},
		{"params-only lora", Model{Params: 7e9}, LoRA, TermWeights | TermGradients | TermOptimizer | TermActivations},
		{"no FFN width", Model{Params: 7e9, Layers: 32, Hidden: 4096, Heads: 32, Vocab: 32000}, Training, TermActivations},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Estimate(tc.m, Workload{Task: tc.task, Precision: BF16, Batch: 1, SeqLen: 128})
			if err != nil {
				t.Fatal(err)
			}
			if b.Approx != tc.want {
				t.Errorf("Approx = %v, want %v", b.Approx, tc.want)
			}
		})
	}
	b, _ := Estimate(Model{Params: 7e9}, Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 128})
	js, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"approximated":"activations+kv_cache"`) {
		t.Errorf("JSON %s lacks the approximated terms", js)
	}
	var back Breakdown
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b, back); diff != "" {
		t.Errorf("JSON round trip mismatch (-want +got):\n%s", diff)
	}
	var tm Terms
	if err := tm.UnmarshalText([]byte("weights+bogus")); err == nil {
		t.Errorf("UnmarshalText accepted an unknown term")
	}
}

func TestLoRATargetsText(t *testing.T) {
	tests := []struct {
		name string
		in   LoRATargets
		text string
	}{
		{"default", 0, "default"},
		{"peft default", TargetQuery | TargetValue, "q+v"},
		{"all linear", TargetAllLinear, "q+k+v+o+gate+up+down"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.in.MarshalText()
			if err != nil || string(b) != tc.text {
				t.Fatalf("MarshalText() = %q, %v; want %q", b, err, tc.text)
			}
			var back LoRATargets
			if err := back.UnmarshalText(b); err != nil || back != tc.in {
				t.Fatalf("UnmarshalText(%q) = %v, %v; want %v", b, back, err, tc.in)
			}
		})
	}
	var got LoRATargets
	if err := got.UnmarshalText([]byte("all")); err != nil || got != TargetAllLinear {
		t.Errorf(`UnmarshalText("all") = %v, %v`, got, err)
	}
	if err := got.UnmarshalText([]byte("q+lm_head")); err == nil {
		t.Errorf("UnmarshalText accepted an unknown target")
	}
	if _, err := LoRATargets(1 << 7).MarshalText(); err == nil {
		t.Errorf("MarshalText accepted an unknown bit")
	}
	js, err := json.Marshal(Workload{Task: LoRA, LoRATargets: TargetQuery | TargetValue})
	if err != nil || !strings.Contains(string(js), `"lora_targets":"q+v"`) {
		t.Errorf("Workload JSON = %s, %v; want lora_targets \"q+v\"", js, err)
	}
}
