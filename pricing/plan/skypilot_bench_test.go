package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/gpuplan/gpuplan/sizing"
)

// skyPilotOffers loads every GPU offer of the dated SkyPilot catalog excerpts in
// pricing/testdata/skypilot (Lambda, RunPod and AWS; see its README), each with
// its cloud as provider.
func skyPilotOffers(tb testing.TB) []pricing.Offer {
	tb.Helper()
	files, err := filepath.Glob("../testdata/skypilot/*.csv")
	if err != nil || len(files) < 3 {
		tb.Fatalf("SkyPilot snapshot: %v, %d files", err, len(files))
	}
	var offers []pricing.Offer
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			tb.Fatal(err)
		}
		got, err := pricelist.ReadSkyPilot(f)
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", file, err)
		}
		cloud, named := strings.CutSuffix(filepath.Base(file), "_vms.csv") // lambda_vms.csv: lambda
		for i := range got {
			if named {
				got[i].Provider = cloud
			}
			offers = append(offers, got[i])
		}
	}
	return offers
}

// The real book plans: every offer is sold in instances, every option rents whole
// ones, and no offer is left out: the catalog knows every card of the snapshot,
// Lambda's "RTX6000 24GB" (line 15) included.
func TestPlanSkyPilotSnapshot(t *testing.T) {
	offers := skyPilotOffers(t)
	rep, err := Planner{Offers: offers}.Report(Request{Model: mustPreset(t, "llama-2-70b"), Workload: inference(sizing.BF16, 4096), EveryCount: true, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range rep.Skipped {
		t.Errorf("left out %s (line %d): %s", sk.Offer.Card, sk.Offer.Line, sk.Reason)
	}
	if len(rep.Options) == 0 {
		t.Fatal("no options")
	}
	for _, o := range rep.Options {
		if n := o.Offer.GPUsPerInstance; n < 1 || o.GPUs%n != 0 {
			t.Errorf("%s %s line %d: %d GPUs in instances of %d", o.Offer.Provider, o.Offer.Card, o.Offer.Line, o.GPUs, n)
		}
	}
}

// Lambda's RTX6000 rows are the Quadro RTX 6000: a 7B model in BF16 is served on
// one of them in FP16 (Turing has no BF16), at its FP16 tensor rate, and the
// option says so.
func TestPlanSkyPilotLambdaRTX6000(t *testing.T) {
	var lambda []pricing.Offer
	for _, o := range skyPilotOffers(t) {
		if o.Provider == "lambda" {
			lambda = append(lambda, o)
		}
	}
	rep, err := Planner{Offers: lambda}.Report(Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 4096), EveryCount: true, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 0 {
		t.Errorf("skipped %+v, want none", rep.Skipped)
	}
	var one *Option
	for i, o := range rep.Options {
		if o.Offer.Card == "RTX6000 24GB" {
			if o.CardID != "quadro-rtx-6000" || o.Offer.Line != 15 {
				t.Errorf("%q line %d planned on %s, want quadro-rtx-6000 from line 15", o.Offer.Card, o.Offer.Line, o.CardID)
			}
			if o.GPUs == 1 {
				one = &rep.Options[i]
			}
		}
	}
	if one == nil {
		t.Fatal("no option of one RTX6000 24GB")
	}
	if one.Cost.Total.String() != "USD 0.69" || len(one.Warnings) != 1 || !strings.Contains(one.Warnings[0], "no BF16") {
		t.Errorf("one RTX6000: cost %s, warnings %q; want USD 0.69 and the FP16 note", one.Cost.Total, one.Warnings)
	}
}

// BenchmarkPlanSkyPilot plans a training job over every GPU offer of the real
// SkyPilot snapshot, instances of up to 8 GPUs with no cap on their number.
func BenchmarkPlanSkyPilot(b *testing.B) {
	p := Planner{Offers: skyPilotOffers(b)}
	benchPlanner(b, p, trainingRequest(b))
	b.ReportMetric(float64(len(p.Offers)), "offers")
}
