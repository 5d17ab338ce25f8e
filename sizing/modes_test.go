package sizing

import (
	"encoding/json"
	"errors"
	"testing"

	"pgregory.net/rapid"
)

// TestOptimizerModes pins the bytes per parameter of the optimizer's memory modes
// on Llama-2-7B (6,738,415,616 parameters): weights, gradients and optimizer state
// together, as the ZeRO paper counts model states (Rajbhandari et al. 2020, §3.1).
func TestOptimizerModes(t *testing.T) {
	n := float64(estLlama2_7B.ParamCount())
	tests := []struct {
		name string
		w    Workload
		want float64 // bytes per parameter
	}{
		// Mixed precision: BF16 weights and gradients, FP32 master and moments.
		{"mixed AdamW", Workload{Precision: BF16}, 2 + 2 + 4 + 8},
		{"mixed AdamW, master FP32 said", Workload{Precision: BF16, Master: FP32}, 2 + 2 + 4 + 8},
		// Pure BF16 (torchtune's dtype bf16, LitGPT's bf16-true): no master, BF16
		// moments.
		{"pure BF16 AdamW", Workload{Precision: BF16, StatePrecision: BF16, Master: BF16}, 2 + 2 + 4},
		// BF16 moments beside an FP32 master.
		{"BF16 moments, FP32 master", Workload{Precision: BF16, StatePrecision: BF16}, 2 + 2 + 4 + 4},
		// 8-bit Adam keeps 8-bit moments whatever StatePrecision says; without a
		// master, 6 bytes.
		{"Adam8bit, BF16 master", Workload{Precision: BF16, Optimizer: Adam8bit, StatePrecision: FP32, Master: BF16}, 2 + 2 + 2},
		{"Adam8bit mixed", Workload{Precision: BF16, Optimizer: Adam8bit}, 2 + 2 + 4 + 2},
		// FP32 training keeps no separate master; FP64 moments for FP64 weights.
		{"FP32 AdamW", Workload{Precision: FP32}, 4 + 4 + 8},
		{"FP64 AdamW", Workload{Precision: FP64}, 8 + 8 + 16},
		{"FP32 weights, FP16 moments", Workload{Precision: FP32, StatePrecision: FP16}, 4 + 4 + 4},
		{"Lion pure BF16", Workload{Precision: BF16, Optimizer: Lion, StatePrecision: BF16, Master: BF16}, 2 + 2 + 2},
		{"SGD pure BF16", Workload{Precision: BF16, Optimizer: SGD, Master: BF16}, 2 + 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w
			w.Task, w.Batch, w.SeqLen = Training, 1, 1
			b, err := Estimate(estLlama2_7B, w)
			if err != nil {
				t.Fatal(err)
			}
			if got := float64(b.Weights+b.Gradients+b.Optimizer) / n; got < tc.want-1e-6 || got > tc.want+1e-6 {
				t.Errorf("model states %.4f bytes per parameter, want %g", got, tc.want)
			}
		})
	}
	// LoRA's adapters train at the compute width: a BF16 master is no copy.
	lora := Workload{Task: LoRA, Precision: BF16, Batch: 1, SeqLen: 1, LoRARank: 8}
	mixed, _ := Estimate(estLlama2_7B, lora)
	lora.StatePrecision, lora.Master = BF16, BF16
	pure, _ := Estimate(estLlama2_7B, lora)
	const adapters = 4_194_304 // q and v at rank 8 (PEFT's count)
	if mixed.Optimizer != 12*adapters || pure.Optimizer != 4*adapters {
		t.Errorf("LoRA optimizer %d mixed, %d pure; want %d and %d", mixed.Optimizer, pure.Optimizer, 12*adapters, 4*adapters)
	}
}

func TestModeValidation(t *testing.T) {
	for _, w := range []Workload{
		{Task: Training, Precision: FP32, Master: BF16, Batch: 1, SeqLen: 1},           // a master narrower than the weights
		{Task: LoRA, Precision: INT4, Master: FP8, Batch: 1, SeqLen: 1},                // narrower than the 16-bit adapters
		{Task: Training, Precision: BF16, StatePrecision: Q4_K_M, Batch: 1, SeqLen: 1}, // quantized moments
		{Task: Training, Precision: BF16, Master: NF4, Batch: 1, SeqLen: 1},
	} {
		if err := w.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%+v) = %v, want ErrInvalid", w, err)
		}
		if _, err := Estimate(estLlama2_7B, w); !errors.Is(err, ErrInvalid) {
			t.Errorf("Estimate(%+v) = %v, want ErrInvalid", w, err)
		}
	}
	// A master as wide as the adapters of LoRA on a quantized base is no copy.
	if err := (Workload{Task: LoRA, Precision: INT4, Master: BF16, Batch: 1, SeqLen: 1}).Validate(); err != nil {
		t.Errorf("LoRA on INT4 with a BF16 master: %v", err)
	}
}

// TestLogitsModes pins the logits terms: inference with FullLogits holds every
// prompt token's logits at the compute width and in FP32 (2 + 4 bytes each)
// instead of the layer's working set; a chunked loss holds the 16-bit logits and
// an eighth of the FP32 copies.
func TestLogitsModes(t *testing.T) {
	const s, V = 4096.0, 32000.0
	w := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: int(s)}
	last, _ := Estimate(estLlama2_7B, w)
	w.FullLogits = true
	full, _ := Estimate(estLlama2_7B, w)
	if want := Bytes(s * V * 6); full.Activations != want {
		t.Errorf("full logits: activations %d, want %d", full.Activations, want)
	}
	// The layer's working set at 4096 tokens: the FFN phase, 2·(2·4096 + 3·11008)
	// bytes a token, and the last token's FP32 logits.
	if want := Bytes(s*2*(2*4096+3*11008) + V*4); last.Activations != want {
		t.Errorf("last logits: activations %d, want %d", last.Activations, want)
	}
	tr := Workload{Task: Training, Precision: BF16, Batch: 2, SeqLen: int(s), Recompute: FullRecompute}
	whole, _ := Estimate(estLlama2_7B, tr)
	tr.ChunkedLoss = true
	chunked, _ := Estimate(estLlama2_7B, tr)
	if got, want := whole.Activations-chunked.Activations, Bytes(2*s*V*(12-12.0/8)); got != want {
		t.Errorf("a chunked loss saves %d bytes, want %d", got, want)
	}
}

// Properties of the modes: dropping the master copy or narrowing the moments
// never needs more memory, nor does a chunked loss; full logits never need less.
func TestPropertyModes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genAnyModel().Draw(t, "model")
		w := genWorkload(m).Draw(t, "workload")
		w.Task = rapid.SampledFrom([]Task{Training, LoRA, QLoRA}).Draw(t, "task")
		w.Precision = rapid.SampledFrom([]Precision{FP16, BF16}).Draw(t, "precision")
		w.StatePrecision, w.ChunkedLoss = 0, false
		base := mustEstimate(t, m, w)
		pure := w
		pure.StatePrecision, pure.Master = BF16, BF16
		if p := mustEstimate(t, m, pure); p.Total() > base.Total() {
			t.Fatalf("pure BF16 %d bytes, more than mixed precision's %d", p.Total(), base.Total())
		}
		chunked := w
		chunked.ChunkedLoss = true
		if c := mustEstimate(t, m, chunked); c.Total() > base.Total() {
			t.Fatalf("chunked loss %d bytes, more than %d", c.Total(), base.Total())
		}
		inf := w
		inf.Task, inf.FullLogits = Inference, false
		last := mustEstimate(t, m, inf)
		inf.FullLogits = true
		// The last token's logits are among every token's: full logits may drop
		// them, b·V FP32 values (V 32000 for a model known by Params alone).
		lastLogits := Bytes(4 * inf.Batch * max(m.Vocab, approxVocab))
		if f := mustEstimate(t, m, inf); f.Total() < last.Total()-lastLogits {
			t.Fatalf("full logits %d bytes, less than %d", f.Total(), last.Total())
		}
	})
}

func TestModesJSON(t *testing.T) {
	in := `{"task":"training","precision":"bf16","state_precision":"bf16","master":"bf16","full_logits":true,"chunked_loss":true,"batch":1,"seq_len":8}`
	var w Workload
	if err := json.Unmarshal([]byte(in), &w); err != nil {
		t.Fatal(err)
	}
	if w.StatePrecision != BF16 || w.Master != BF16 || !w.FullLogits || !w.ChunkedLoss {
		t.Errorf("Unmarshal = %+v; want BF16 moments and master, full logits, chunked loss", w)
	}
	out, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var back Workload
	if err := json.Unmarshal(out, &back); err != nil || back != w {
		t.Errorf("round trip %s = %+v, %v; want %+v", out, back, err, w)
	}
}
