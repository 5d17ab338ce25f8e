package pricelist_test

import (
	"errors"
	"os"
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

// Every GPU offer of the real catalog excerpts names a card the catalog knows, or
// a family it knows (which the planner plans on the slowest board). Lambda's
// "RTX6000 24GB" is the Turing Quadro RTX 6000, not the RTX 6000 Ada.
func TestSkyPilotCardsResolve(t *testing.T) {
	cat := catalog.Default()
	quadro := 0
	for _, name := range []string{"lambda_vms.csv", "runpod_vms.csv", "aws_vms_gpu.csv"} {
		f, err := os.Open("../testdata/skypilot/" + name)
		if err != nil {
			t.Fatal(err)
		}
		offers, err := pricelist.ReadSkyPilot(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range offers {
			c, err := cat.Lookup(o.Card)
			if err != nil && !errors.Is(err, catalog.ErrAmbiguous) {
				t.Errorf("%s line %d: card %q: %v", name, o.Line, o.Card, err)
			}
			if o.Card == "RTX6000 24GB" {
				quadro++
				if c.ID != "quadro-rtx-6000" {
					t.Errorf("%s line %d: %q = %q, want quadro-rtx-6000", name, o.Line, o.Card, c.ID)
				}
			}
		}
	}
	if quadro != 1 {
		t.Errorf("%d offers of Lambda's RTX6000 24GB, want 1 (line 15)", quadro)
	}
}
