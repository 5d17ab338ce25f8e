package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/sample"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// planJSON runs the command with -json and args and decodes what it prints.
func planJSON(t *testing.T, args ...string) (jsonPlan, map[string]json.RawMessage) {
	t.Helper()
	r := runArgs(append([]string{"-json"}, args...)...)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("run(-json %q) = exit %d, stderr %q", args, r.code, r.stderr)
	}
	var out jsonPlan
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	var job map[string]json.RawMessage
	if err := json.Unmarshal(out.Job, &job); err != nil {
		t.Fatal(err)
	}
	return out, job
}

// -json echoes the request as the planner used it: the defaults written out and
// named, the parameter count filled in; fed back to the planner, the echo plans
// the same options.
func TestEchoJob(t *testing.T) {
	out, _ := planJSON(t, "-limit", "3", "-headroom", "0.25")
	var req plan.Request
	if err := json.Unmarshal(out.Job, &req); err != nil {
		t.Fatalf("the echo does not decode as a plan.Request: %v", err)
	}
	if req.Model.Params != 6738415616 || req.Headroom != 0.25 || req.Utilization != 0 || req.Limit != 3 ||
		req.Workload.LoRARank != 16 || req.Workload.Optimizer.String() != "adamw" || req.Tokens != 1e8 {
		t.Errorf("echo %+v: want the parameter count, the headroom given, the defaults written out", req)
	}
	for _, key := range []string{"tokens", "workload.batch", "checkpoint", "restart",
		"market_threshold", "rank", "workload.optimizer", "workload.lora_rank", "workload.overhead_bytes"} {
		if !slices.Contains(out.Defaults, key) {
			t.Errorf("defaults %q lack %q", out.Defaults, key)
		}
	}
	for _, key := range []string{"headroom", "limit"} { // given on the command line
		if slices.Contains(out.Defaults, key) {
			t.Errorf("defaults %q name %q, which the command line gave", out.Defaults, key)
		}
	}
	offers, err := sample.Offers()
	if err != nil {
		t.Fatal(err)
	}
	again, err := plan.Planner{Catalog: catalog.Default(), Offers: offers}.Plan(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(out.Options) {
		t.Fatalf("the echo plans %d options, the command printed %d", len(again), len(out.Options))
	}
	for i := range again {
		if !again[i].ExpectedCost.Amount.Equal(out.Options[i].ExpectedCost.Amount) || again[i].Offer.Line != out.Options[i].Offer.Line {
			t.Errorf("option %d: the echo plans %v on line %d, the command printed %v on line %d", i+1,
				again[i].ExpectedCost, again[i].Offer.Line, out.Options[i].ExpectedCost, out.Options[i].Offer.Line)
		}
	}
}

// A serving request's echo leaves out the workload's training fields, and
// gives the serving defaults: a 10% reserve, a month of service.
func TestEchoServing(t *testing.T) {
	out, job := planJSON(t, append(serveArgs, "-limit", "1")...)
	var w map[string]json.RawMessage
	if err := json.Unmarshal(job["workload"], &w); err != nil {
		t.Fatal(err)
	}
	for key := range servingOnly {
		if _, ok := w[key]; ok {
			t.Errorf("the serving echo's workload has %q", key)
		}
	}
	for _, key := range []string{"task", "precision", "kv_precision"} {
		if _, ok := w[key]; !ok {
			t.Errorf("the serving echo's workload lacks %q", key)
		}
	}
	if string(job["headroom"]) != "0.1" || string(job["usage"]) != `"730h0m0s"` || string(w["kv_precision"]) != `"BF16"` {
		t.Errorf("echo headroom %s, usage %s, kv %s: want 0.1, 730h0m0s and BF16", job["headroom"], job["usage"], w["kv_precision"])
	}
	if !slices.Contains(out.Defaults, "usage") || slices.Contains(out.Defaults, "workload.batch") {
		t.Errorf("defaults %q: want usage, and no batch (the planner picks it)", out.Defaults)
	}
	var req plan.Request
	if err := json.Unmarshal(out.Job, &req); err != nil || req.Serving == nil || req.Serving.Rate != 20 {
		t.Errorf("the serving echo decodes as %+v, %v", req.Serving, err)
	}
}

// The pins of issue 23 reach the planner and its echo: -card, -gpus, -layout,
// -every, -rank and -limit, as the request's cards, gpus, parallel,
// every_count, rank and limit.
func TestEchoPins(t *testing.T) {
	out, _ := planJSON(t, "-card", "rtx-4090", "-offers", "testdata/only_4090.csv", "-gpus", "1", "-layout", "dp=1", "-every", "-rank", "time", "-limit", "-1")
	var req plan.Request
	if err := json.Unmarshal(out.Job, &req); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(req.Cards, []string{"rtx-4090"}) || req.GPUs != 1 || req.Parallel == nil || req.Parallel.Data != 1 ||
		!req.EveryCount || req.Rank != plan.RankTime || req.Limit != -1 {
		t.Errorf("echo %+v: want the pins as given", req)
	}
	if slices.Contains(out.Defaults, "rank") || slices.Contains(out.Defaults, "limit") {
		t.Errorf("defaults %q name pins the command line gave", out.Defaults)
	}
	for _, o := range out.Options {
		if o.CardID != "rtx-4090" || o.GPUs != 1 {
			t.Errorf("option %s × %d: want the pinned card and GPU count", o.CardID, o.GPUs)
		}
	}
	// Without -offers, -card fits the job on the cards, with no prices.
	r := runArgs("-json", "-card", "rtx-4090,H100 SXM5 80GB")
	var fit jsonFit
	if err := json.Unmarshal([]byte(r.stdout), &fit); err != nil || r.code != exitOK {
		t.Fatalf("-json -card: exit %d, %v:\n%s", r.code, err, r.stdout)
	}
	if len(fit.Options) != 2 || fit.Options[0].CardID != "rtx-4090" || fit.Options[1].CardID != "h100-sxm5-80gb" ||
		fit.Options[0].Duration == 0 || !fit.Options[0].ExpectedCost.Amount.IsZero() {
		t.Errorf("-json -card: options %+v; want the two cards in order, timed and unpriced", fit.Options)
	}
}
