package sizing

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestFitPrecision(t *testing.T) {
	l3, err := Preset("llama-3-8b")
	if err != nil {
		t.Fatal(err)
	}
	serve := Workload{Task: Inference, Batch: 1, SeqLen: 4096}
	// Full fine-tuning of Llama-2-7B, ZeRO-3 over 8 GPUs with full recomputation:
	// FP32 needs 16.4 GiB per GPU, BF16 mixed precision 15.5, FP8 14.0.
	train := Workload{Task: Training, Batch: 1, SeqLen: 2048, Recompute: FullRecompute,
		Parallel: Parallel{Data: 8, ZeRO: 3}}
	tests := []struct {
		name       string
		m          Model
		w          Workload
		capacity   Bytes
		candidates []Precision
		want       Precision
		wantErr    error
	}{
		// Llama-3-8B serving 4096 tokens needs 17.2 GiB in BF16, 10.7 in FP8, 10.2 in
		// Q8_0, 8.3 in Q6_K, 7.5 in Q5_K_M, 6.7 in Q4_K_M and 5.3 in Q2_K.
		{"24 GiB card serves BF16", l3, serve, 24 * GiB, nil, BF16, nil},
		{"16 GiB card needs FP8", l3, serve, 16 * GiB, nil, FP8, nil},
		{"10.5 GiB card takes Q8_0", l3, serve, 10752 * MiB, nil, Q8_0, nil},
		{"8 GiB card takes Q5_K_M", l3, serve, 8 * GiB, nil, Q5_K_M, nil},
		{"6.75 GiB takes Q4_K_M", l3, serve, 6912 * MiB, nil, Q4_K_M, nil},
		{"5.5 GiB takes Q2_K", l3, serve, 5632 * MiB, nil, Q2_K, nil},
		{"4 GiB fits nothing", l3, serve, 4 * GiB, nil, 0, ErrDoesNotFit},
		{"candidates in the caller's order", l3, serve, 80 * GiB, []Precision{Q4_K_M, BF16}, Q4_K_M, nil},
		{"training: FP32 fits 16.5 GiB", estLlama2_7B, train, 16896 * MiB, nil, FP32, nil},
		{"training: BF16 fits 15.75 GiB", estLlama2_7B, train, 16128 * MiB, nil, BF16, nil},
		{"training: FP8 fits 14 GiB", estLlama2_7B, train, 14 * GiB, nil, FP8, nil},
		{"training: 12 GiB fits nothing", estLlama2_7B, train, 12 * GiB, nil, 0, ErrDoesNotFit},
		{"training in a quantized format", estLlama2_7B, train, 80 * GiB, []Precision{Q4_K_M}, 0, ErrInvalid},
		{"zero capacity", l3, serve, 0, nil, 0, ErrInvalid},
		{"bad workload", l3, Workload{Task: Inference, Batch: 0, SeqLen: 1}, 80 * GiB, nil, 0, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, b, err := FitPrecision(tt.m, tt.w, tt.capacity, tt.candidates...)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || got != 0 || b != (Breakdown{}) {
					t.Fatalf("FitPrecision = %v, %+v, %v; want an error wrapping %v", got, b, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("FitPrecision = %v, %v; want %v", got, err, tt.want)
			}
			w := tt.w
			w.Precision = got
			if want, _ := Estimate(tt.m, w); b != want || b.Total() > tt.capacity {
				t.Errorf("breakdown %+v (total %d), want Estimate's %+v within %d", b, b.Total(), want, tt.capacity)
			}
		})
	}
	// The error names the candidate that needs least.
	_, _, err = FitPrecision(l3, serve, 4*GiB)
	if err == nil || !strings.Contains(err.Error(), "Q2_K") {
		t.Errorf("error %v does not name Q2_K, the smallest need", err)
	}
}

// TestPropFitPrecision checks FitPrecision's contract: the answer fits, every
// candidate before it does not, and when none fits no candidate does.
func TestPropFitPrecision(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := genAnyModel().Draw(t, "model")
		w := genWorkload(m).Draw(t, "workload")
		ladder := inferenceLadder[:]
		if w.Task != Inference {
			ladder = trainingLadder[:]
		}
		if w.Task == LoRA && rapid.Bool().Draw(t, "lora_on_quantized") {
			ladder = inferenceLadder[:] // LoRA's Precision is its frozen base
		}
		var candidates []Precision
		if rapid.Bool().Draw(t, "own_candidates") {
			candidates = rapid.SliceOfN(rapid.SampledFrom(ladder), 1, 6).Draw(t, "candidates")
		}
		capacity := Bytes(rapid.Int64Range(1, 1<<44).Draw(t, "capacity"))
		p, b, err := FitPrecision(m, w, capacity, candidates...)
		tried := candidates
		if tried == nil {
			tried = ladder
			if w.Task == LoRA {
				tried = trainingLadder[:]
			}
		}
		if err != nil && !errors.Is(err, ErrDoesNotFit) {
			t.Fatalf("FitPrecision: %v", err)
		}
		for _, q := range tried {
			if q == p {
				if b.Total() > capacity {
					t.Fatalf("%v needs %d, over the capacity %d", p, b.Total(), capacity)
				}
				return
			}
			w.Precision = q
			if e, err := Estimate(m, w); err != nil || e.Total() <= capacity {
				t.Fatalf("%v (total %d, %v) fits %d and comes before the answer %v", q, e.Total(), err, capacity, p)
			}
		}
		if err == nil {
			t.Fatalf("answer %v is not among the candidates %v", p, tried)
		}
	})
}
