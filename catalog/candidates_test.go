package catalog

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// ids returns the IDs of cards, in order.
func ids(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.ID
	}
	return out
}

// TestCandidates reads real names: nvidia-smi's (its --query-gpu=name column, as
// public logs and NVIDIA's docs print it), price lists' and SkyPilot's spellings,
// and Chinese ones. The memory types are the datasheets': the SXM5 H100 and H800
// have HBM3, their PCIe boards HBM2e (NVIDIA's H100 datasheet; secondary tables for
// the H800); the A100 80GB has HBM2e on both boards. Lists are slowest first.
func TestCandidates(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		// nvidia-smi names one board.
		{"NVIDIA H100 80GB HBM3", []string{"h100-sxm5-80gb"}},
		{"NVIDIA H100 PCIe", []string{"h100-pcie-80gb"}},
		{"NVIDIA H100 NVL", []string{"h100-nvl-94gb"}},
		{"NVIDIA A100-SXM4-80GB", []string{"a100-sxm4-80gb"}},
		{"NVIDIA A100 80GB PCIe", []string{"a100-pcie-80gb"}},
		{"NVIDIA A100-PCIE-40GB", []string{"a100-pcie-40gb"}},
		{"NVIDIA A100-SXM4-40GB", []string{"a100-sxm4-40gb"}},
		{"NVIDIA A800-SXM4-80GB", []string{"a800-sxm4-80gb"}},
		{"NVIDIA H800 PCIe", []string{"h800-pcie-80gb"}},
		{"Tesla V100-SXM2-32GB", []string{"v100-sxm2-32gb"}},
		{"Tesla V100-PCIE-16GB", []string{"v100-pcie-16gb"}},
		{"NVIDIA H200", []string{"h200-sxm5-141gb"}},
		{"NVIDIA H20", []string{"h20-96gb"}},
		{"NVIDIA GeForce RTX 4090", []string{"rtx-4090"}},
		{"NVIDIA GeForce RTX 4090 D", []string{"rtx-4090d"}},
		{"NVIDIA L40S", []string{"l40s"}},
		{"NVIDIA A10G", []string{"a10g"}},
		{"Tesla T4", []string{"t4"}},
		// A name with its board, or a memory type that settles it.
		{"A100 SXM4 80GB", []string{"a100-sxm4-80gb"}},
		{"A100 PCIe 80GB", []string{"a100-pcie-80gb"}},
		{"a100-pcie-80gb", []string{"a100-pcie-80gb"}},
		{"H100 SXM", []string{"h100-sxm5-80gb"}},
		{"H100-SXM5-80GB", []string{"h100-sxm5-80gb"}},
		{"H100PCIe", []string{"h100-pcie-80gb"}},
		{"HGX H100", []string{"h100-sxm5-80gb"}},
		{"H100 80GB HBM3", []string{"h100-sxm5-80gb"}},
		{"HBM3 H100 80GB", []string{"h100-sxm5-80gb"}},
		{"H100 80GB HBM2e", []string{"h100-pcie-80gb"}},
		{"H800 80GB HBM3", []string{"h800-sxm5-80gb"}},
		{"H800 HBM2e", []string{"h800-pcie-80gb"}},
		{"A800 SXM4", []string{"a800-sxm4-80gb"}},
		{"Ｈ１００\u3000ＳＸＭ", []string{"h100-sxm5-80gb"}},
		// A name several boards share, even where Lookup picks one by convention.
		{"A100 80GB", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"A100-80GB", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}}, // SkyPilot's
		{"A100 80G", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"80GB A100", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"A100 80GB HBM2e", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"H100 80GB", []string{"h100-pcie-80gb", "h100-sxm5-80gb"}},
		{"H100", []string{"h100-pcie-80gb", "h100-sxm5-80gb", "h100-nvl-94gb"}},
		{"H100 HBM3", []string{"h100-sxm5-80gb", "h100-nvl-94gb"}},
		{"H800", []string{"h800-pcie-80gb", "h800-sxm5-80gb"}},
		{"NVIDIA H800", []string{"h800-pcie-80gb", "h800-sxm5-80gb"}}, // vendor words weigh nothing
		{"H800 80GB", []string{"h800-pcie-80gb", "h800-sxm5-80gb"}},
		{"A800 80GB", []string{"a800-pcie-80gb", "a800-sxm4-80gb"}},
		{"A800", []string{"a800-pcie-40gb", "a800-pcie-80gb", "a800-sxm4-80gb"}},
		// The 40 GB A100s have the same bandwidth, peak and link bandwidth; the PCIe
		// board's bridge joins pairs only.
		{"A100", []string{"a100-pcie-40gb", "a100-sxm4-40gb", "a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"A100 40GB", []string{"a100-pcie-40gb", "a100-sxm4-40gb"}},
		{"A100 SXM", []string{"a100-sxm4-40gb", "a100-sxm4-80gb"}},
		{"V100-32GB", []string{"v100-pcie-32gb", "v100-sxm2-32gb"}}, // SkyPilot's: FP16 112 < 125
		{"V100 16GB", []string{"v100-pcie-16gb", "v100-sxm2-16gb"}},
		// Names one card has, with no sibling on another board.
		{"RTX 4090", []string{"rtx-4090"}},
		{"4090", []string{"rtx-4090"}},
		{"RTX 4090 24GB GDDR6X", []string{"rtx-4090"}},
		{"4090D", []string{"rtx-4090d"}},
		{"ＲＴＸ４０９０", []string{"rtx-4090"}},
		{"H200 141GB", []string{"h200-sxm5-141gb"}},
		{"B200", []string{"b200-hgx-180gb"}},
		{"MI300X", []string{"mi300x"}},
		{"GH200", []string{"gh200-96gb"}},
		// Chinese names: characters other than fullwidth ASCII are dropped, so the
		// rest is read (昇腾 is Ascend, 华为 Huawei, 英伟达 NVIDIA).
		{"昇腾910B", []string{"ascend-910b2"}},
		{"华为昇腾910B", []string{"ascend-910b2"}},
		{"英伟达 A100 80GB", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"英伟达H800", []string{"h800-pcie-80gb", "h800-sxm5-80gb"}},
		{"英伟达 H100 SXM5 80G", []string{"h100-sxm5-80gb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Default().Candidates(tt.name)
			if err != nil {
				t.Fatalf("Candidates(%q): %v", tt.name, err)
			}
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("Candidates(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

func TestCandidatesNotFound(t *testing.T) {
	var nilCat *Catalog
	for _, tt := range []struct {
		cat  *Catalog
		name string
	}{
		{Default(), "RTX 4070"}, {Default(), ""}, {Default(), "A100 80GB HBM3"}, {nilCat, "A100"}, {&Catalog{}, "A100"},
	} {
		got, err := tt.cat.Candidates(tt.name)
		var nf *NotFoundError
		if got != nil || !errors.As(err, &nf) || nf.Name != tt.name {
			t.Errorf("Candidates(%q) = %v, %v; want no cards and a *NotFoundError", tt.name, ids(got), err)
		}
	}
	_, err := Default().Candidates("RTX 4090X")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !slices.Contains(nf.Suggestions, "GeForce RTX 4090") {
		t.Errorf("Candidates(\"RTX 4090X\"): %v; want Lookup's suggestions", err)
	}
}

// Every card's ID denotes that card alone: IDs carry the board wherever another
// board shares the model and memory.
func TestCandidatesOfID(t *testing.T) {
	for _, c := range Default().Cards() {
		got, err := Default().Candidates(c.ID)
		if err != nil || len(got) != 1 || got[0].ID != c.ID {
			t.Errorf("Candidates(%q) = %v, %v; want the card alone", c.ID, ids(got), err)
		}
	}
}

// The candidates are copies: changing one leaves the catalog's card as it was.
func TestCandidatesCopies(t *testing.T) {
	got, _ := Default().Candidates("A100 80GB")
	got[0].Aliases[0] = "changed"
	again, _ := Default().Candidates("A100 80GB")
	if again[0].Aliases[0] == "changed" {
		t.Error("Candidates returned the catalog's own slices")
	}
}

// TestPropertyCandidates: for any name of any card (ID, name, alias, family),
// Candidates agrees with Lookup (the card Lookup resolves is among the
// candidates; an ambiguity lists exactly the candidates), the list has no
// duplicates, and no card comes after a card slower than it.
func TestPropertyCandidates(t *testing.T) {
	cat := Default()
	cards := cat.Cards()
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(cards).Draw(t, "card")
		name := rapid.SampledFrom(append(append([]string{c.ID, c.Name}, c.Aliases...), c.Families...)).Draw(t, "name")
		got, err := cat.Candidates(name)
		if err != nil {
			t.Fatalf("Candidates(%q): %v", name, err)
		}
		checkCandidates(t, cat, name, got)
	})
}

// checkCandidates checks that cands, the candidates of name, agree with Lookup,
// are distinct and are ordered slowest first.
func checkCandidates(t interface{ Fatalf(string, ...any) }, cat *Catalog, name string, cands []Card) {
	got := ids(cands)
	card, err := cat.Lookup(name)
	var amb *AmbiguousError
	switch {
	case errors.As(err, &amb):
		if diff := cmp.Diff(slices.Sorted(slices.Values(amb.Candidates)), slices.Sorted(slices.Values(got))); diff != "" {
			t.Fatalf("Candidates(%q) differ from Lookup's ambiguity (-lookup +candidates):\n%s", name, diff)
		}
	case err != nil:
		t.Fatalf("Candidates(%q) = %v but Lookup: %v", name, got, err)
	case !slices.Contains(got, card.ID):
		t.Fatalf("Candidates(%q) = %v lack Lookup's %s", name, got, card.ID)
	}
	for i := 1; i < len(cands); i++ {
		if slices.Contains(got[:i], got[i]) {
			t.Fatalf("Candidates(%q) = %v repeat %s", name, got, got[i])
		}
		a, b := cands[i-1], cands[i]
		if a.MemoryBandwidth > b.MemoryBandwidth || a.MemoryBandwidth == b.MemoryBandwidth && peak16(a) > peak16(b) {
			t.Fatalf("Candidates(%q) = %v: %s is faster than %s after it", name, got, a.ID, b.ID)
		}
	}
}
