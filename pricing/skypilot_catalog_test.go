package pricing_test

import (
	"errors"
	"os"
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
)

// Every GPU offer of the real catalog excerpts names a card the catalog knows, or
// a family it knows (which the planner plans on the slowest board), except the
// cards it lacks, listed here.
func TestSkyPilotCardsResolve(t *testing.T) {
	lacking := map[string]bool{
		"RTX6000 24GB": true, // Lambda's Quadro RTX 6000 (Turing), not in the catalog
	}
	cat := catalog.Default()
	for _, name := range []string{"lambda_vms.csv", "runpod_vms.csv", "aws_vms_gpu.csv"} {
		f, err := os.Open("testdata/skypilot/" + name)
		if err != nil {
			t.Fatal(err)
		}
		offers, err := pricing.LoadSkyPilotCSV(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range offers {
			_, err := cat.Lookup(o.Card)
			switch {
			case err == nil, errors.Is(err, catalog.ErrAmbiguous):
				if lacking[o.Card] {
					t.Errorf("%s line %d: %q resolves now; drop it from the list", name, o.Line, o.Card)
				}
			case !lacking[o.Card]:
				t.Errorf("%s line %d: card %q: %v", name, o.Line, o.Card, err)
			}
		}
	}
}
