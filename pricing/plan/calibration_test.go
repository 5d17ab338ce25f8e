package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
)

// modeledRequest is trainingRequest timed by compute's model of the step: no
// utilization, no band.
func modeledRequest(t testing.TB) Request {
	r := trainingRequest(t)
	r.Band = compute.Band{}
	return r
}

// Without a utilization the planner times a job with compute's model of the
// step, on the card's bandwidth and architecture, the job's micro-batch and
// accumulation, and the adapters of a LoRA: one GPU's option is what
// compute.Job says of it.
func TestPlanModeledStep(t *testing.T) {
	r := modeledRequest(t)
	r.MaxGPUs = 1
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "A100 SXM4 80GB", 1, "10", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	card, _ := catalog.Default().Lookup("a100-sxm4-80gb")
	peak, _ := card.Peak(sizing.BF16)
	work, err := compute.AdapterTrainingFLOPs(r.Model, r.Tokens, r.Workload.SeqLen)
	if err != nil {
		t.Fatal(err)
	}
	want, err := compute.Job{Model: r.Model, Work: work, Precision: sizing.BF16, Recompute: sizing.FullRecompute, Adapters: true,
		Batch: o.MicroBatch, Accumulation: o.Accumulation, SeqLen: 2048, Devices: 1, PeakPerDevice: peak,
		Bandwidth: card.MemoryBandwidth, Arch: card.Architecture}.Time()
	if err != nil {
		t.Fatal(err)
	}
	if o.Duration != want.Duration || o.DurationLow != want.Low || o.DurationHigh != want.High {
		t.Errorf("option %v (%v to %v), compute.Job %v (%v to %v)", o.Duration, o.DurationLow, o.DurationHigh, want.Duration, want.Low, want.High)
	}
	// The architecture is the card's: compute gives Ampere its own attention
	// efficiency, so a generic card is timed otherwise.
	generic, _ := compute.Job{Model: r.Model, Work: work, Precision: sizing.BF16, Recompute: sizing.FullRecompute, Adapters: true,
		Batch: o.MicroBatch, Accumulation: o.Accumulation, SeqLen: 2048, Devices: 1, PeakPerDevice: peak,
		Bandwidth: card.MemoryBandwidth}.Time()
	if generic.Duration == want.Duration {
		t.Errorf("Ampere and a generic card both take %v: the test cannot tell the architecture was passed", want.Duration)
	}
}

// A calibration scales compute's model on its card alone, the options on it
// say so, and an explicit utilization takes precedence over it.
func TestPlanCalibrations(t *testing.T) {
	offers := []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.60", ""), planOffer("b", "L40S", 1, "5", "")}
	r := modeledRequest(t)
	r.EveryCount, r.Limit = true, -1
	durations := func(p Planner, r Request) (map[string]time.Duration, map[string][]string) {
		t.Helper()
		opts, err := p.Plan(r)
		if err != nil {
			t.Fatal(err)
		}
		d, w := map[string]time.Duration{}, map[string][]string{}
		for _, o := range opts {
			d[o.CardID], w[o.CardID] = o.Duration, o.Warnings
		}
		return d, w
	}
	plain, _ := durations(Planner{Offers: offers}, r)
	slow := Planner{Offers: offers, Calibrations: map[string]compute.Calibration{"rtx-4090": {Train: 0.5}}}
	cal, warn := durations(slow, r)
	if cal["rtx-4090"] <= plain["rtx-4090"]*3/2 || cal["l40s"] != plain["l40s"] {
		t.Errorf("calibrated at half speed: RTX 4090 %v (modelled %v), L40S %v (modelled %v); want the 4090 much slower, the L40S as modelled",
			cal["rtx-4090"], plain["rtx-4090"], cal["l40s"], plain["l40s"])
	}
	if w := strings.Join(warn["rtx-4090"], "|"); !strings.Contains(w, "calibrated: timed at the speed measured on the GeForce RTX 4090, 0.5 × the model's for a training step") {
		t.Errorf("RTX 4090 warnings %q, want the calibration named", warn["rtx-4090"])
	}
	if w := strings.Join(warn["l40s"], "|"); strings.Contains(w, "calibrated") {
		t.Errorf("L40S warnings %q name a calibration", warn["l40s"])
	}
	// An explicit utilization wins over the calibration.
	r.Utilization = 0.4
	at, _ := durations(Planner{Offers: offers}, r)
	atCal, warn := durations(slow, r)
	if atCal["rtx-4090"] != at["rtx-4090"] || strings.Contains(strings.Join(warn["rtx-4090"], "|"), "calibrated") {
		t.Errorf("utilization 0.4: %v with the calibration, %v without; want the same, uncalibrated", atCal["rtx-4090"], at["rtx-4090"])
	}
}

// A service's replicas follow the card's decode calibration.
func TestServingCalibration(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	r := servingRequest(t, "llama-3.1-8b", tr)
	offers := []pricing.Offer{planOffer("a", "RTX 4090", 16, "1.60", "")}
	plain, err := Planner{Offers: offers}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Planner{Offers: offers, Calibrations: map[string]compute.Calibration{"rtx-4090": {Decode: 0.7}}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if slow[0].GPUs <= plain[0].GPUs || !strings.Contains(strings.Join(slow[0].Warnings, "|"), "0.7 × the model's for a decode step") {
		t.Errorf("decode at 70%%: %d GPUs (modelled %d), warnings %q; want more, and the calibration named",
			slow[0].GPUs, plain[0].GPUs, slow[0].Warnings)
	}
}

// A calibration's key is a card ID of the catalog, and its factors valid.
func TestCalibrationErrors(t *testing.T) {
	offers := []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.60", "")}
	for key, c := range map[string]compute.Calibration{
		"RTX 4090":  {Train: 0.9}, // a name, not the ID
		"rtx-9999":  {Train: 0.9},
		"rtx-4090 ": {Train: 0.9},
	} {
		_, err := Planner{Offers: offers, Calibrations: map[string]compute.Calibration{key: c}}.Plan(modeledRequest(t))
		if !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "is no card ID of the catalog") {
			t.Errorf("key %q: %v, want ErrInvalid naming it", key, err)
		}
	}
	_, err := Planner{Offers: offers, Calibrations: map[string]compute.Calibration{"rtx-4090": {Train: -1}}}.Fit(Request{
		Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), Cards: []string{"rtx-4090"}})
	if !errors.Is(err, pricing.ErrInvalid) || !errors.Is(err, compute.ErrInvalid) {
		t.Errorf("a negative factor: %v, want ErrInvalid from pricing and compute", err)
	}
}
