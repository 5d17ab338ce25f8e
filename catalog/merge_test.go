package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuplan/gpuplan/sizing"
)

// userCard is a card a user might add: the 24 GB RTX 4090's figures under a new
// ID, name and aliases.
func userCard(t *testing.T, id, name string, aliases ...string) Card {
	c := lookup(t, "rtx-4090")
	c.ID, c.Name, c.Aliases, c.Families = id, name, aliases, nil
	return c
}

func TestMergeAddsAndReplaces(t *testing.T) {
	base := Default()
	n := len(base.Cards())
	added := userCard(t, "rtx-4090-oc", "GeForce RTX 4090 OC", "4090 OC")
	changed := lookup(t, "t4")
	changed.TDP = 75
	m, err := Merge(base, added, changed)
	if err != nil {
		t.Fatal(err)
	}
	cards := m.Cards()
	if len(cards) != n+1 || cards[n].ID != "rtx-4090-oc" {
		t.Fatalf("merged catalog has %d cards, last %q; want %d, the added card last", len(cards), cards[len(cards)-1].ID, n+1)
	}
	if got, err := m.Lookup("4090 OC"); err != nil || got.ID != "rtx-4090-oc" {
		t.Errorf("Lookup(\"4090 OC\") = %q, %v", got.ID, err)
	}
	// The replaced card keeps its place and answers with the user's figures.
	for i, c := range base.Cards() {
		if c.ID == "t4" && (cards[i].ID != "t4" || cards[i].TDP != 75) {
			t.Errorf("card %d = %s at %d W, want t4 at 75 W in its place", i, cards[i].ID, cards[i].TDP)
		}
	}
	if got, _ := base.Lookup("t4"); got.TDP != 70 {
		t.Errorf("base catalog's T4 changed to %d W", got.TDP)
	}
	if _, err := base.Lookup("4090 OC"); !errors.Is(err, ErrNotFound) {
		t.Errorf("base catalog answers to the added card: %v", err)
	}
}

// A card that joins a family is among the family's candidates.
func TestMergeJoinsFamily(t *testing.T) {
	c := lookup(t, "a100-pcie-40gb")
	c.ID, c.Name, c.Aliases = "a100-pcie-64gb", "A100 PCIe 64GB", nil
	c.Memory, c.MemoryNominal = 65536*sizing.MiB, 64*sizing.GB
	m, err := Merge(Default(), c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Candidates("A100")
	if err != nil || !strings.Contains(strings.Join(ids(got), " "), "a100-pcie-64gb") || len(got) != 5 {
		t.Errorf("Candidates(\"A100\") = %v, %v; want the four A100s and the added one", ids(got), err)
	}
}

func TestMergeRejects(t *testing.T) {
	tests := []struct {
		name  string
		cards func(t *testing.T) []Card
		want  []string // substrings of the message
	}{
		{"alias another card answers to", func(t *testing.T) []Card {
			return []Card{userCard(t, "my-4090", "My 4090", "RTX 4090")}
		}, []string{`"my-4090"`, `"RTX 4090"`, `"rtx-4090"`}},
		{"alias another card answers to, written otherwise", func(t *testing.T) []Card {
			return []Card{userCard(t, "my-a100", "My A100", "nvidia a100-sxm4-80gb")}
		}, []string{`"my-a100"`, `"a100-sxm4-80gb"`}},
		{"name equal to a family name", func(t *testing.T) []Card {
			return []Card{userCard(t, "my-h100", "H100 80GB")}
		}, []string{`"my-h100"`, `"h100-sxm5-80gb"`}},
		{"family name equal to a card's name", func(t *testing.T) []Card {
			c := userCard(t, "my-l4", "My L4")
			c.Families = []string{"L4"}
			return []Card{c}
		}, []string{`"my-l4"`, `"l4"`}},
		{"one ID twice", func(t *testing.T) []Card {
			return []Card{userCard(t, "mine", "Mine A"), userCard(t, "mine", "Mine B")}
		}, []string{`"mine" given twice`}},
		{"invalid card", func(t *testing.T) []Card {
			c := userCard(t, "broken", "Broken")
			c.Memory = 0
			return []Card{c}
		}, []string{`"broken"`, "memory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Merge(Default(), tt.cards(t)...)
			if m != nil || !errors.Is(err, ErrInvalid) {
				t.Fatalf("Merge = %v, %v; want no catalog and ErrInvalid", m, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %s", err, w)
				}
			}
		})
	}
}

func TestMergeNilBase(t *testing.T) {
	c := userCard(t, "mine", "Mine", "my card")
	m, err := Merge(nil, c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"mine"}, ids(m.Cards())); diff != "" {
		t.Errorf("Merge(nil) cards (-want +got):\n%s", diff)
	}
	if m, err := Merge(nil); err != nil || len(m.Cards()) != 0 {
		t.Errorf("Merge(nil) = %v, %v; want an empty catalog", m, err)
	}
}
