package catalog

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gpuplan/gpuplan/sizing"
)

// TestLookupWords covers names the exact index does not hold: words in another
// order, the memory size added, a bare "SXM". Memory sizes are the cards'
// marketed sizes (cards.json memory_nominal_gb, from the vendors' datasheets).
func TestLookupWords(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"A100 80GB SXM", "a100-sxm4-80gb"},
		{"A100 SXM 80GB", "a100-sxm4-80gb"},
		{"a100 sxm4 80gb", "a100-sxm4-80gb"}, // the card's name, through the index
		{"SXM A100 80GB", "a100-sxm4-80gb"},
		{"H100 80GB SXM", "h100-sxm5-80gb"},
		{"H100 SXM 80 GB", "h100-sxm5-80gb"},
		{"RTX 4090 24GB", "rtx-4090"},
		{"GeForce 24GB RTX 4090", "rtx-4090"},
		{"4090 RTX", "rtx-4090"},
		{"T4 16GB", "t4"},
		{"Tesla T4 16GB", "t4"},
		{"L40S 48GB", "l40s"},
		{"L40 48GB", "l40"}, // not the L40S: "S" is the L40S's own word
		{"L4 24GB", "l4"},
		{"RTX 4090 D 24GB", "rtx-4090d"},
		{"24GB 4090D", "rtx-4090d"},
		{"MI300X 192GB", "mi300x"},
		{"192GB MI300X", "mi300x"},
		{"H800 SXM 80GB", "h800-sxm5-80gb"},
		{"H800 80GB SXM5", "h800-sxm5-80gb"},
		{"H20 96G", "h20-96gb"},
		{"H20 SXM", "h20-96gb"}, // the H20's form is SXM5
		{"H200 SXM5 141GB", "h200-sxm5-141gb"},
		{"B200 HGX 180GB", "b200-hgx-180gb"},
		{"RTX 6000 Ada 48GB", "rtx-6000-ada"},
		{"A6000 48GB", "rtx-a6000"},
		{"V100 SXM2 32GB", "v100-sxm2-32gb"},
		{"V100 32GB PCIe", "v100-pcie-32gb"},
		{"PCIe A100 40GB", "a100-pcie-40gb"},
		{"PCIe 80GB A100", "a100-pcie-80gb"},
		{"PCIe H800", "h800-pcie-80gb"},
		// A memory type is compared with the card's: the PCIe H100 and H800 have
		// HBM2e, the SXM5 boards HBM3 (NVIDIA's H100 datasheet; secondary tables
		// for the H800).
		{"H100 80GB HBM2e", "h100-pcie-80gb"},
		{"H100 PCIe HBM2e", "h100-pcie-80gb"},
		{"HBM3 H100 80GB", "h100-sxm5-80gb"}, // nvidia-smi's name, reordered
		{"H800 80GB HBM3", "h800-sxm5-80gb"},
		{"H100 PCIe HBM3", "h100-nvl-94gb"}, // the H100 NVL is a PCIe card with HBM3
		{"RTX 4090 24GB GDDR6X", "rtx-4090"},
		// HGX is NVIDIA's SXM baseboard.
		{"HGX H100", "h100-sxm5-80gb"},
		{"H100 HGX 80GB", "h100-sxm5-80gb"},
		// Memory written "80G" or "80GiB", or put first, means what "A100 80GB" means
		// today: SkyPilot's A100-80GB, the SXM4 board.
		{"A100 80G", "a100-sxm4-80gb"},
		{"A100 80GiB", "a100-sxm4-80gb"},
		{"80GB A100", "a100-sxm4-80gb"},
		{"NVIDIA A100 80 G", "a100-sxm4-80gb"},
		{"V100 32G", "v100-sxm2-32gb"}, // SkyPilot's V100-32GB
		// NVL is a board word, so the H100 NVL answers to its memory size.
		{"H100 94GB", "h100-nvl-94gb"},
		{"A6000 Ada", "rtx-6000-ada"}, // a common misnomer of the RTX 6000 Ada
		// Fullwidth forms, as Chinese input methods type them, and the ideographic space.
		{"Ｈ１００\u3000ＳＸＭ", "h100-sxm5-80gb"},
		{"ＲＴＸ４０９０", "rtx-4090"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Default().Lookup(tt.name)
			if err != nil || c.ID != tt.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q", tt.name, c.ID, err, tt.want)
			}
		})
	}
}

func TestLookupWordsAmbiguous(t *testing.T) {
	tests := []struct {
		name string
		want []string // sorted from the word match; catalog order from the index
	}{
		{"a100 sxm", []string{"a100-sxm4-40gb", "a100-sxm4-80gb"}},
		{"SXM A100", []string{"a100-sxm4-40gb", "a100-sxm4-80gb"}},
		{"V100 SXM2", []string{"v100-sxm2-16gb", "v100-sxm2-32gb"}}, // family name, index
		{"V100 SXM", []string{"v100-sxm2-16gb", "v100-sxm2-32gb"}},
		{"SXM2 V100", []string{"v100-sxm2-16gb", "v100-sxm2-32gb"}},
		{"A100 40G", []string{"a100-pcie-40gb", "a100-sxm4-40gb"}},
		{"80GB H100", []string{"h100-sxm5-80gb", "h100-pcie-80gb"}}, // "H100 80GB", a family name
		// "H800 80GB" is a family name in cards.json covering both H800 boards; the
		// index answers it before the word match and that is kept.
		{"H800 80GB", []string{"h800-sxm5-80gb", "h800-pcie-80gb"}},
		{"80GB H800", []string{"h800-sxm5-80gb", "h800-pcie-80gb"}},
		{"V100 PCIe", []string{"v100-pcie-16gb", "v100-pcie-32gb"}},
		{"A800 PCIe", []string{"a800-pcie-40gb", "a800-pcie-80gb"}},
		// The H100 NVL has HBM3 too (NVIDIA's H100 datasheet).
		{"H100 HBM3", []string{"h100-nvl-94gb", "h100-sxm5-80gb"}},
		{"A100 80GB HBM2e", []string{"a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"HGX A100", []string{"a100-sxm4-40gb", "a100-sxm4-80gb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Default().Lookup(tt.name)
			var ae *AmbiguousError
			if !errors.As(err, &ae) || !errors.Is(err, ErrAmbiguous) {
				t.Fatalf("Lookup(%q) = %q, %v; want an *AmbiguousError", tt.name, c.ID, err)
			}
			if diff := cmp.Diff(tt.want, ae.Candidates); diff != "" {
				t.Errorf("candidates mismatch (-want +got):\n%s", diff)
			}
			if ae.Name != tt.name {
				t.Errorf("Name = %q, want %q", ae.Name, tt.name)
			}
		})
	}
}

func TestLookupWordsNotFound(t *testing.T) {
	tests := []string{
		"RTX 6000 48GB",      // the Quadro RTX 6000 has 24 GB; "Ada" is the RTX 6000 Ada's own word
		"L40 S 48GB",         // "S" apart is not the L40S's "L40S"
		"A100 48GB",          // no such memory
		"A100 SXM 40GB 80GB", // two sizes
		"A100 80GB HBM3",     // the A100 80GB has HBM2e
		"A100 40GB HBM2e",    // the A100 40GB has HBM2
		"HGX RTX 4090",       // no RTX 4090 sits on an SXM board
		"T4 15GB",            // nominal is 16 GB (15360 MiB is what nvidia-smi reports)
		"80GB",               // memory alone names no model
		"SXM",
		"SXM 80GB",
		"PCIe",
		"RTX",
		"24GB RTX", // "RTX" names no model; no card is called that alone
		"GeForce",
		"H100 SXM4", // the H100 SXM is SXM5
		"H100 PCIe SXM",
		"0GB A100",
		"99999999999GB A100",
		"A100 80GB SXM " + strings.Repeat("x ", 20), // too many words
		"A100 80GB SXM" + strings.Repeat(" ", 200),  // too long
		"A100 \xff80GB\x00SXM4 extra",
	}
	for _, name := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := Default().Lookup(name)
			var nf *NotFoundError
			if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
				t.Fatalf("Lookup(%q) = %q, %v; want a *NotFoundError", name, c.ID, err)
			}
			if nf.Name != name {
				t.Errorf("Name = %q, want %q", nf.Name, name)
			}
		})
	}
}

// TestLookupVariantWord: a card whose own names all carry a variant's word ("D" of
// the 4090 D, "S" of the L40S) is never found by a name without it, even when no
// other card would match; a name with the word finds only the variant.
func TestLookupVariantWord(t *testing.T) {
	d, s, l40 := lookup(t, "rtx-4090d"), lookup(t, "l40s"), lookup(t, "l40")
	onlyVariants, err := New(d, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"RTX 4090 24GB", "4090 24GB", "L40 48GB", "RTX 4090"} {
		if c, err := onlyVariants.Lookup(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup(%q) without the base card = %q, %v; want ErrNotFound", name, c.ID, err)
		}
	}
	both, err := New(l40, s, d, lookup(t, "rtx-4090"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want string }{
		{"L40 48GB", "l40"}, {"48GB L40S", "l40s"}, {"RTX 4090 24GB", "rtx-4090"}, {"D 24GB RTX 4090", "rtx-4090d"},
	}
	for _, tt := range tests {
		if c, err := both.Lookup(tt.name); err != nil || c.ID != tt.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.name, c.ID, err, tt.want)
		}
	}
}

// TestLookupWordsCustomCatalog: the word match uses the catalog's own cards, with
// their memory and form, not the built-in list.
func TestLookupWordsCustomCatalog(t *testing.T) {
	a := lookup(t, "a100-sxm4-80gb")
	a.ID, a.Name, a.Aliases, a.Families = "x1-sxm9-100gb", "X1 SXM9 100GB", []string{"Acme X1"}, nil
	a.Form, a.MemoryNominal = "SXM9", 100*sizing.GB
	cat, err := New(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"X1 100GB", "Acme X1 SXM", "100G X1", "sxm9 x1"} {
		if c, err := cat.Lookup(name); err != nil || c.ID != a.ID {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, c.ID, err, a.ID)
		}
	}
	if _, err := cat.Lookup("X1 80GB"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lookup(X1 80GB) = %v, want ErrNotFound", err)
	}
	var zero Catalog
	if _, err := zero.Lookup("A100 80GB SXM"); !errors.Is(err, ErrNotFound) {
		t.Errorf("zero catalog: %v", err)
	}
	var nilCat *Catalog
	if _, err := nilCat.Lookup("A100 80GB SXM"); !errors.Is(err, ErrNotFound) {
		t.Errorf("nil catalog: %v", err)
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		in       string
		words    []string
		memory   []int64
		memTypes []string
	}{
		{"NVIDIA A100-SXM4-80GB", []string{"a100", "sxm4"}, []int64{80}, nil},
		{"A100 80 G", []string{"a100"}, []int64{80}, nil},
		{"A100 80gib", []string{"a100"}, []int64{80}, nil},
		{"GeForce RTX 4090 D", []string{"rtx", "4090", "d"}, nil, nil},
		{"B200 (HGX) 180GB", []string{"b200", "hgx"}, []int64{180}, nil},
		{"NVIDIA H100 80GB HBM3", []string{"h100"}, []int64{80}, []string{"hbm3"}},
		{"GDDR6X RTX hbm", []string{"rtx", "hbm"}, nil, []string{"gddr6x"}},
		{"gb 80", []string{"gb", "80"}, nil, nil},
		{"0gb", []string{"0gb"}, nil, nil},
		{"", nil, nil, nil},
	}
	for _, tt := range tests {
		q, ok := parseQuery(tt.in)
		if !ok {
			t.Errorf("parseQuery(%q) not ok", tt.in)
			continue
		}
		if diff := cmp.Diff(query{words: tt.words, memory: tt.memory, memTypes: tt.memTypes}, q, cmp.AllowUnexported(query{})); diff != "" {
			t.Errorf("parseQuery(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// shuffled returns the words of s (split at spaces) in an order rapid draws.
func shuffled(t *rapid.T, s string) string {
	words := strings.Fields(s)
	for i := len(words) - 1; i > 0; i-- {
		j := rapid.IntRange(0, i).Draw(t, fmt.Sprintf("swap%d", i))
		words[i], words[j] = words[j], words[i]
	}
	return strings.Join(words, " ")
}

// resolvesTo reports whether Lookup's answer is the card or an ambiguity listing it.
func resolvesTo(got Card, err error, id string) bool {
	var ae *AmbiguousError
	switch {
	case err == nil:
		return got.ID == id
	case errors.As(err, &ae):
		return contains(ae.Candidates, id)
	}
	return false
}

// TestPropertyNameWithMemory: every card's name with its marketed memory added
// ("<Name> <N>GB"), in any word order, resolves to the card or to an ambiguity
// that lists it; with any other memory size it never resolves to that card alone.
func TestPropertyNameWithMemory(t *testing.T) {
	cards := Default().Cards()
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(cards).Draw(t, "card")
		gb := int64(c.MemoryNominal / sizing.GB)
		name := shuffled(t, fmt.Sprintf("%s %dGB", c.Name, gb))
		got, err := Default().Lookup(name)
		if !resolvesTo(got, err, c.ID) {
			t.Fatalf("Lookup(%q) = %q, %v; want %s", name, got.ID, err, c.ID)
		}
		other := rapid.Int64Range(1, 1000).Filter(func(n int64) bool { return n != gb }).Draw(t, "other")
		wrong := shuffled(t, fmt.Sprintf("%s %dGB", c.Name, other))
		if got, err := Default().Lookup(wrong); err == nil && got.ID == c.ID {
			t.Fatalf("Lookup(%q) = %q; memory %d GB is not the card's %d", wrong, got.ID, other, gb)
		}
	})
}

// TestPropertyShuffledNames: every card's name and aliases, split at spaces and
// dashes and shuffled, resolve to the card or to an ambiguity that lists it.
func TestPropertyShuffledNames(t *testing.T) {
	cards := Default().Cards()
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(cards).Draw(t, "card")
		n := rapid.SampledFrom(append([]string{c.ID, c.Name}, c.Aliases...)).Draw(t, "name")
		name := shuffled(t, strings.ReplaceAll(n, "-", " "))
		got, err := Default().Lookup(name)
		if !resolvesTo(got, err, c.ID) {
			t.Fatalf("Lookup(%q) (from %q) = %q, %v; want %s", name, n, got.ID, err, c.ID)
		}
	})
}

func TestConcurrentWordLookup(t *testing.T) {
	cat, err := New(Default().Cards()...)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"A100 80GB SXM", "RTX 4090 24GB", "a100 sxm", "L40 48GB", "no such 80GB"}
	want := make([]string, len(names))
	for i, n := range names {
		c, err := cat.Lookup(n)
		want[i] = c.ID + fmt.Sprint(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				k := (g + i) % len(names)
				c, err := cat.Lookup(names[k])
				if got := c.ID + fmt.Sprint(err); got != want[k] {
					t.Errorf("Lookup(%q) = %s, want %s", names[k], got, want[k])
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func FuzzLookup(f *testing.F) {
	for _, s := range []string{"", "A100", "A100 80GB SXM", "a100 sxm", "RTX 4090 D 24GB", "80 G", "L40 48GB",
		"NVIDIA", "99999999999999999999gb x", "\xff\x00 gib", "sxm sxm sxm", "4090 gb gb gb"} {
		f.Add(s)
	}
	cat := Default()
	f.Fuzz(func(t *testing.T, name string) {
		c, err := cat.Lookup(name)
		var ae *AmbiguousError
		var nf *NotFoundError
		switch {
		case err == nil:
			if again, err := cat.Lookup(c.ID); err != nil || again.ID != c.ID {
				t.Fatalf("Lookup(%q) = %q, but its ID gives %q, %v", name, c.ID, again.ID, err)
			}
		case errors.As(err, &ae):
			if len(ae.Candidates) < 2 {
				t.Fatalf("Lookup(%q): ambiguity with %v", name, ae.Candidates)
			}
			for _, id := range ae.Candidates {
				if _, err := cat.Lookup(id); err != nil {
					t.Fatalf("candidate %q: %v", id, err)
				}
			}
		case errors.As(err, &nf):
			if len(nf.Suggestions) > 3 {
				t.Fatalf("%d suggestions", len(nf.Suggestions))
			}
		default:
			t.Fatalf("Lookup(%q): unexpected error %v", name, err)
		}
		c2, err2 := cat.Lookup(name)
		if c2.ID != c.ID || fmt.Sprint(err2) != fmt.Sprint(err) {
			t.Fatalf("Lookup(%q) not deterministic: %q %v then %q %v", name, c.ID, err, c2.ID, err2)
		}
		cands, cerr := cat.Candidates(name)
		if errors.Is(err, ErrNotFound) {
			if cands != nil || fmt.Sprint(cerr) != fmt.Sprint(err) {
				t.Fatalf("Candidates(%q) = %d cards, %v; Lookup: %v", name, len(cands), cerr, err)
			}
			return
		}
		if cerr != nil {
			t.Fatalf("Candidates(%q): %v; Lookup: %q, %v", name, cerr, c.ID, err)
		}
		checkCandidates(t, cat, name, cands)
	})
}

func BenchmarkCandidates(b *testing.B) {
	cat := Default()
	for _, name := range []string{"NVIDIA H100 80GB HBM3", "A100 80GB", "A100", "H800 80GB HBM3"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_, _ = cat.Candidates(name)
			}
		})
	}
}

func BenchmarkLookupWords(b *testing.B) {
	cat := Default()
	for _, name := range []string{"A100 80GB SXM", "A100 80G", "a100 sxm", "no such 80GB"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_, _ = cat.Lookup(name)
			}
		})
	}
}
