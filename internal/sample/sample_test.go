package sample

import (
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
)

// TestOffers reads the sample list and holds it to what the examples rely on:
// offers in CNY, each of a card the built-in catalog knows, each marked as a
// sample price.
func TestOffers(t *testing.T) {
	offers, err := Offers()
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) < 10 {
		t.Fatalf("got %d offers, want at least 10", len(offers))
	}
	cat := catalog.Default()
	for i, o := range offers {
		if o.Tariff.Currency != "CNY" {
			t.Errorf("offer %d (%s %s): currency %q, want CNY", i, o.Provider, o.Card, o.Tariff.Currency)
		}
		if _, err := cat.Lookup(o.Card); err != nil {
			t.Errorf("offer %d (%s): card %q: %v", i, o.Provider, o.Card, err)
		}
		if o.Notes == "" {
			t.Errorf("offer %d (%s %s): no note saying the price is a sample", i, o.Provider, o.Card)
		}
	}
	again, err := Offers()
	if err != nil {
		t.Fatal(err)
	}
	again[0].Provider = "changed"
	if offers[0].Provider == "changed" {
		t.Error("Offers returned a slice shared between calls")
	}
}
