package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
)

// A model known by its parameter count alone is timed by the plain 4·N·D of
// adapter training (6·N·D for full training): the attention term needs the
// architecture, and its absence is no reason to refuse the plan.
func TestPlanParamsOnlyTraining(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.80", "")}}
	for _, task := range []sizing.Task{sizing.LoRA, sizing.QLoRA, sizing.Training} {
		req := trainingRequest(t)
		req.Model = sizing.Model{Name: "custom", Params: 1e9}
		req.Workload.Task = task
		opts, err := p.Plan(req)
		if err != nil {
			t.Fatalf("%v: Plan: %v", task, err)
		}
		count := compute.AdapterTrainingFLOPs
		if task == sizing.Training {
			count = compute.TrainingFLOPs
		}
		want, err := count(req.Model, req.Tokens, 0)
		if err != nil {
			t.Fatal(err)
		}
		s, err := req.settle()
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.work(); err != nil || got != want {
			t.Errorf("%v: work() = %v, %v; want %v (no attention term)", task, got, err, want)
		}
		if opts[0].Duration <= 0 || opts[0].PerGPU.Approx == 0 {
			t.Errorf("%v: duration %v, approximated terms %v; want a time and the terms approximated", task, opts[0].Duration, opts[0].PerGPU.Approx)
		}
	}
}

// No-fit reasons count GPUs in words: "1 GPU", never "GPU(s)".
func TestNoFitCountsGPUsInWords(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.80", "")}}
	_, err := p.Plan(Request{Model: mustPreset(t, "llama-2-13b"), Workload: inference(sizing.FP16, 4096)})
	if err == nil || strings.Contains(err.Error(), "GPU(s)") || !strings.Contains(err.Error(), "(at 1 GPU)") {
		t.Errorf("Plan: %v; want a no-fit error saying (at 1 GPU)", err)
	}
	for n, want := range map[int]string{0: "0 GPUs", 1: "1 GPU", 8: "8 GPUs"} {
		if got := text.Count(n, "GPU", "GPUs"); got != want {
			t.Errorf("count(%d, \"GPU\") = %q, want %q", n, got, want)
		}
	}
}

// A model known by its parameter count alone is not split over GPUs, so Fit's
// reason names the closest miss at one GPU, not "at 1024 GPUs" (the last count
// tried, which needs as much), and the suggestions say what would let it be
// split: 70B in Q4_K_M is 41.7 GiB on every count of a 24 GB card.
func TestFitParamsOnlyNoFit(t *testing.T) {
	req := Request{Model: sizing.Model{Name: "custom", Params: 70e9}, Workload: inference(sizing.Q4_K_M, 2048), Cards: []string{"RTX 4090 D"}}
	_, err := Planner{}.Fit(req)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("Fit: %v; want a *NoFitError", err)
	}
	if r := strings.Join(nf.Reasons, "\n"); !strings.Contains(r, "at 1 GPU needs") || strings.Contains(r, "1024") {
		t.Errorf("reasons %q; want the miss at 1 GPU", nf.Reasons)
	}
	if s := strings.Join(nf.Suggestions, "\n"); !strings.Contains(s, "known by its parameter count alone, it is split by neither") {
		t.Errorf("suggestions %q; want the architecture asked for", nf.Suggestions)
	}
	// With the architecture, no such suggestion: tensor parallelism splits it.
	req.Model = mustPreset(t, "llama-2-70b")
	if _, err := (Planner{}).Fit(req); err != nil {
		t.Errorf("Fit(llama-2-70b in Q4_K_M on RTX 4090 D): %v; want an option on several GPUs", err)
	}
}

// A shorter context is suggested when it keeps at least a quarter of the
// context asked for: Llama-3.1-8B in BF16 at 32768 tokens fits one RTX 4090 at
// some thirteen thousand, worth saying; Llama-3.1-70B in AWQ4 fits one RTX
// A6000 only at some eighty tokens of 2048, which is no way to run it.
func TestSuggestShorterContext(t *testing.T) {
	for _, tc := range []struct {
		model string
		prec  sizing.Precision
		ctx   int
		card  string
		want  bool
	}{
		{"llama-3.1-8b", sizing.BF16, 32768, "RTX 4090", true},
		{"llama-3.1-70b", sizing.AWQ4, 2048, "RTX A6000", false},
	} {
		w := inference(tc.prec, tc.ctx)
		w.EagerAttention = false
		_, err := Planner{}.Fit(Request{Model: mustPreset(t, tc.model), Workload: w, Cards: []string{tc.card}, GPUs: 1})
		var nf *NoFitError
		if !errors.As(err, &nf) {
			t.Fatalf("%s on one %s: %v; want a *NoFitError", tc.model, tc.card, err)
		}
		got := strings.Contains(strings.Join(nf.Suggestions, "\n"), "a context of")
		if got != tc.want {
			t.Errorf("%s on one %s: suggestions %q; want a shorter context suggested: %v", tc.model, tc.card, nf.Suggestions, tc.want)
		}
	}
}
