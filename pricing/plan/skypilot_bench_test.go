package plan

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
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
		got, err := pricing.LoadSkyPilotCSV(f)
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", file, err)
		}
		cloud := pricing.SkyPilotCloud(file)
		for i := range got {
			if cloud != "" {
				got[i].Provider = cloud
			}
			offers = append(offers, got[i])
		}
	}
	return offers
}

// The real book plans: every offer is sold in instances, every option rents whole
// ones, and the only offers left out are of cards the catalog does not know.
func TestPlanSkyPilotSnapshot(t *testing.T) {
	offers := skyPilotOffers(t)
	rep, err := Planner{Offers: offers}.Report(Request{Model: mustPreset(t, "llama-2-70b"), Workload: inference(sizing.BF16, 4096), EveryCount: true, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range rep.Skipped {
		if !errors.Is(sk.Err, catalog.ErrNotFound) {
			t.Errorf("left out %s (line %d): %s", sk.Offer.Card, sk.Offer.Line, sk.Reason)
		}
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

// BenchmarkPlanSkyPilot plans a training job over every GPU offer of the real
// SkyPilot snapshot, instances of up to 8 GPUs with no cap on their number.
func BenchmarkPlanSkyPilot(b *testing.B) {
	p := Planner{Offers: skyPilotOffers(b)}
	r := trainingRequest(b)
	if _, err := p.Plan(r); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := p.Plan(r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.Offers)), "offers")
}
