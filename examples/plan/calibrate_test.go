package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// -calibrate fits the step it measured to the card's factor, which -json
// reports by card ID and which slows the card's options against a plan without
// it; other cards keep their times.
func TestCalibrate(t *testing.T) {
	args := []string{"-limit", "-1", "-every"}
	with, _ := planJSON(t, append(args, "-calibrate", "testdata/calibrate_step.json")...)
	without, _ := planJSON(t, args...)
	c, ok := with.Calibrations["rtx-4090"]
	if len(with.Calibrations) != 1 || !ok || !(c.Train > 0.5 && c.Train < 1) || c.Decode != 0 {
		t.Fatalf("calibrations %v; want rtx-4090 alone, a training factor under 1 (6s is slower than modelled)", with.Calibrations)
	}
	if without.Calibrations != nil {
		t.Errorf("calibrations without -calibrate: %v", without.Calibrations)
	}
	type key struct {
		offer string
		gpus  int
	}
	times := func(p jsonPlan) map[key]plan.Option {
		m := map[key]plan.Option{}
		for _, o := range p.Options {
			m[key{o.Offer.Provider + "/" + o.Offer.Region + "/" + o.CardID, o.GPUs}] = o
		}
		return m
	}
	before, slowed, kept := times(without), 0, 0
	for k, o := range times(with) {
		b, ok := before[k]
		switch {
		case !ok:
		case o.CardID == "rtx-4090" && o.Duration > b.Duration:
			slowed++
		case o.CardID == "rtx-4090":
			t.Errorf("%v: %v calibrated, %v modelled; want it slower", k, o.Duration, b.Duration)
		case o.Duration != b.Duration && o.Layout == b.Layout && o.MicroBatch == b.MicroBatch:
			t.Errorf("%v: %v with another card's calibration, %v without; want the same", k, o.Duration, b.Duration)
		default:
			kept++
		}
	}
	if slowed == 0 || kept == 0 {
		t.Errorf("%d RTX 4090 options slowed, %d others kept; want some of each", slowed, kept)
	}
}

// The factor calibrate fits reproduces the step it was given when the job is
// timed with it, as the planner times the card.
func TestCalibrateRoundTrip(t *testing.T) {
	o, _, err := parse([]string{"-calibrate", "testdata/calibrate_step.json"}, msg.EN)
	if err != nil {
		t.Fatal(err)
	}
	o.cat = catalog.Default()
	req, err := o.request()
	if err != nil {
		t.Fatal(err)
	}
	cal, err := o.calibrate(req)
	if err != nil {
		t.Fatal(err)
	}
	c := cal.byCard["rtx-4090"]
	card, _ := o.cat.Lookup("rtx-4090")
	peak, _ := peakOf(card, req.Workload.Precision)
	wl := req.Workload
	j := compute.Job{Model: req.Model, Work: compute.FLOPs(1e18), Precision: wl.Precision, Recompute: wl.Recompute, Adapters: wl.Task == sizing.LoRA,
		Batch: wl.Batch, SeqLen: wl.SeqLen, Devices: 1, PeakPerDevice: peak, Bandwidth: card.MemoryBandwidth, Arch: card.Architecture, Calibration: &c}
	tm, err := j.Time()
	if err != nil {
		t.Fatal(err)
	}
	if d := tm.Step - 6*time.Second; d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("step with the calibration %v, want the 6s measured", tm.Step)
	}
	if !strings.Contains(cal.line, factor(c.Train)+" × the modelled speed") {
		t.Errorf("line %q: want the factor", cal.line)
	}
}
