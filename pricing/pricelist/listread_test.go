package pricelist

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/pricing"
	"pgregory.net/rapid"
)

// TestOfferChunksReserve adds offers with room reserved at random points, too
// little or too much: all returns them in the order added, and holds no more
// than a quarter and 64 offers of room unused.
func TestOfferChunksReserve(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 20000).Draw(t, "n")
		var c offerChunks
		for i := range n {
			if rapid.IntRange(0, 499).Draw(t, "reserve?") == 0 {
				c.reserve(rapid.IntRange(0, 2*n).Draw(t, "room"))
			}
			c.add(pricing.Offer{Line: i})
		}
		all := c.all()
		if all == nil || len(all) != n {
			t.Fatalf("all: %d offers (nil %v), want %d", len(all), all == nil, n)
		}
		for i, o := range all {
			if o.Line != i {
				t.Fatalf("offer %d has line %d", i, o.Line)
			}
		}
		if spare := cap(all) - len(all); spare > 64+len(all)/4 {
			t.Fatalf("%d offers hold room for %d more", len(all), spare)
		}
	})
}

// TestLoadSkyPilotCSVReserved loads a 2 MB catalog from a reader that tells its
// size, which reserves room for the offers, and from one that does not: the
// offers are the same.
func TestReadSkyPilotReserved(t *testing.T) {
	data := bigSkyPilot(t, 2e6)
	sized, err := ReadSkyPilot(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	chunked, err := ReadSkyPilot(io.MultiReader(bytes.NewReader(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(sized) < 5000 {
		t.Fatalf("%d offers, want a catalog of more than 5000", len(sized))
	}
	if diff := cmp.Diff(chunked, sized); diff != "" {
		t.Errorf("offers (-unsized +sized):\n%s", diff)
	}
	if spare := cap(sized) - len(sized); spare > 64+len(sized)/4 {
		t.Errorf("%d offers hold room for %d more", len(sized), spare)
	}
}
