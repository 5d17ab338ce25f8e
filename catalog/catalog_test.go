package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gpuplan/gpuplan/compute"
)

func TestLookupAliases(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		// Marketing names, with and without vendor words, spaces and dashes.
		{"RTX 4090", "rtx-4090"},
		{"GeForce RTX 4090", "rtx-4090"},
		{"4090", "rtx-4090"},
		{"RTX4090", "rtx-4090"},
		{"rtx-4090", "rtx-4090"},
		{"rtx_4090", "rtx-4090"},
		{"  rtx 4090  ", "rtx-4090"},
		{"RTX 4090 D", "rtx-4090d"},
		{"4090 D", "rtx-4090d"},
		{"4090D", "rtx-4090d"},
		{"RTX 3090", "rtx-3090"},
		{"3090", "rtx-3090"},
		{"RTX 5090", "rtx-5090"},
		{"A6000", "rtx-a6000"},
		{"RTX 6000 Ada", "rtx-6000-ada"},
		{"L4", "l4"},
		{"L40", "l40"},
		{"L40S", "l40s"},
		{"l40s", "l40s"},
		{"L20", "l20"},
		{"T4", "t4"},
		{"A10", "a10"},
		{"A10G", "a10g"}, // SkyPilot's name for AWS's A10 variant
		{"a10g", "a10g"},
		{"A10G 24GB", "a10g"},
		{"NVIDIA A10", "a10"},
		{"A10 24GB", "a10"},
		{"A30", "a30"},
		{"H20", "h20-96gb"},
		{"H200", "h200-sxm5-141gb"},
		{"B200", "b200-hgx-180gb"},
		{"MI300X", "mi300x"},
		{"AMD Instinct MI300X", "mi300x"},
		{"H100 SXM", "h100-sxm5-80gb"},
		{"H100 PCIe", "h100-pcie-80gb"},
		{"H100 NVL", "h100-nvl-94gb"},
		{"H100 NVL 94GB", "h100-nvl-94gb"},
		{"94GB H100 NVL", "h100-nvl-94gb"},
		{"NVL H100", "h100-nvl-94gb"},
		{"H800 PCIe", "h800-pcie-80gb"},
		// nvidia-smi names (see testdata/smi_names.txt for where each was seen).
		{"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"},
		{"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
		{"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
		{"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
		{"NVIDIA H100 80GB HBM3", "h100-sxm5-80gb"},
		{"NVIDIA H100 PCIe", "h100-pcie-80gb"},
		{"NVIDIA H100 NVL", "h100-nvl-94gb"},
		{"NVIDIA A10G", "a10g"},
		{"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
		{"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
		{"Tesla V100-PCIE-16GB", "v100-pcie-16gb"},
		{"Tesla T4", "t4"},
		{"NVIDIA GeForce RTX 4090", "rtx-4090"},
		{"NVIDIA GeForce RTX 4090 D", "rtx-4090d"},
		{"NVIDIA L40S", "l40s"},
		{"NVIDIA L40", "l40"},
		{"NVIDIA L4", "l4"},
		{"NVIDIA H800", "h800-sxm5-80gb"},
		{"NVIDIA A800-SXM4-80GB", "a800-sxm4-80gb"},
		{"NVIDIA H20", "h20-96gb"},
		{"NVIDIA RTX A6000", "rtx-a6000"},
		{"NVIDIA H200", "h200-sxm5-141gb"},
		// SkyPilot accelerator names (SkyPilot's meaning: the SXM boards).
		{"A100-80GB", "a100-sxm4-80gb"},
		{"V100-32GB", "v100-sxm2-32gb"},
		// IDs.
		{"a100-sxm4-80gb", "a100-sxm4-80gb"},
		{"A100-SXM4-80GB", "a100-sxm4-80gb"},
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

func TestLookupAmbiguous(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"A100", []string{"a100-pcie-40gb", "a100-sxm4-40gb", "a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"NVIDIA A100", []string{"a100-pcie-40gb", "a100-sxm4-40gb", "a100-pcie-80gb", "a100-sxm4-80gb"}},
		{"A100 40GB", []string{"a100-pcie-40gb", "a100-sxm4-40gb"}},
		{"A100 PCIe", []string{"a100-pcie-40gb", "a100-pcie-80gb"}},
		{"H100", []string{"h100-sxm5-80gb", "h100-pcie-80gb", "h100-nvl-94gb"}},
		{"NVIDIA H100", []string{"h100-sxm5-80gb", "h100-pcie-80gb", "h100-nvl-94gb"}},
		{"H100 80GB", []string{"h100-sxm5-80gb", "h100-pcie-80gb"}},
		{"V100", []string{"v100-sxm2-16gb", "v100-sxm2-32gb", "v100-pcie-16gb", "v100-pcie-32gb"}},
		{"V100 16GB", []string{"v100-sxm2-16gb", "v100-pcie-16gb"}},
		{"V100 SXM2", []string{"v100-sxm2-16gb", "v100-sxm2-32gb"}},
		{"A800", []string{"a800-pcie-40gb", "a800-pcie-80gb", "a800-sxm4-80gb"}},
		{"A800 80GB", []string{"a800-pcie-80gb", "a800-sxm4-80gb"}},
		{"H800 80GB", []string{"h800-sxm5-80gb", "h800-pcie-80gb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Default().Lookup(tt.name)
			if !errors.Is(err, ErrAmbiguous) {
				t.Fatalf("Lookup(%q) error = %v, want ErrAmbiguous", tt.name, err)
			}
			var ae *AmbiguousError
			if !errors.As(err, &ae) {
				t.Fatalf("error %T is not *AmbiguousError", err)
			}
			if diff := cmp.Diff(tt.want, ae.Candidates); diff != "" {
				t.Errorf("candidates mismatch (-want +got):\n%s", diff)
			}
			for _, id := range tt.want {
				if !strings.Contains(err.Error(), id) {
					t.Errorf("message %q does not list %s", err, id)
				}
			}
		})
	}
}

func TestLookupNotFound(t *testing.T) {
	tests := []struct {
		name    string
		suggest string // one of the suggestions; "" for none
	}{
		{"A100X", "A100"}, // "A1000" is as near the A4000, A5000 and A6000 as the A100
		{"RTX 4070", "GeForce RTX 4090"},
		{"L40X", "L40"},
		{"H1OO", "H100"},
		{"", ""},
		{"   ", ""},
		{"NVIDIA", ""},
		{"Quadro RTX 8000", ""},
		{strings.Repeat("x", 500), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Default().Lookup(tt.name)
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("Lookup(%q) error = %v, want ErrNotFound", tt.name, err)
			}
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Fatalf("error %T is not *NotFoundError", err)
			}
			if len(nf.Suggestions) > 3 {
				t.Errorf("%d suggestions, want at most 3", len(nf.Suggestions))
			}
			if tt.suggest != "" && !contains(nf.Suggestions, tt.suggest) {
				t.Errorf("suggestions %v lack %q", nf.Suggestions, tt.suggest)
			}
		})
	}
}

// Errors quote the name as given, cut at a character boundary when long.
func TestLookupErrorQuotesName(t *testing.T) {
	long := strings.Repeat("显卡", 40) // 240 bytes of three-byte characters
	_, err := Default().Lookup(long)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Name != long {
		t.Fatalf("Lookup(long) = %v, want a *NotFoundError with the name as given", err)
	}
	if msg := err.Error(); !utf8.ValidString(msg) || !strings.Contains(msg, "显卡显卡...") {
		t.Errorf("error %q, want valid UTF-8 cut between characters", msg)
	}
	_, err = Default().Lookup("Ａ１００")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || amb.Name != "Ａ１００" {
		t.Errorf("Lookup(fullwidth A100) = %v, want an *AmbiguousError naming it as given", err)
	}
}

func TestNilAndZeroCatalog(t *testing.T) {
	var nilCat *Catalog
	if _, err := nilCat.Lookup("A100"); !errors.Is(err, ErrNotFound) {
		t.Errorf("nil Lookup = %v", err)
	}
	if nilCat.Cards() != nil {
		t.Error("nil Cards not nil")
	}
	var zero Catalog
	if _, err := zero.Lookup("A100"); !errors.Is(err, ErrNotFound) {
		t.Errorf("zero Lookup = %v", err)
	}
	empty, err := New()
	if err != nil || len(empty.Cards()) != 0 {
		t.Errorf("New() = %v, %v", empty, err)
	}
}

// TestPropertyNamesResolve: every card's ID, name and aliases resolve to that card,
// however they are cased or spaced.
func TestPropertyNamesResolve(t *testing.T) {
	cards := Default().Cards()
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(cards).Draw(t, "card")
		names := append([]string{c.ID, c.Name}, c.Aliases...)
		n := rapid.SampledFrom(names).Draw(t, "name")
		var b strings.Builder
		for _, r := range n {
			switch rapid.IntRange(0, 5).Draw(t, "change") {
			case 0:
				b.WriteString(strings.ToUpper(string(r)))
			case 1:
				b.WriteString(strings.ToLower(string(r)))
			case 2:
				if r == ' ' || r == '-' || r == '_' {
					b.WriteString(rapid.SampledFrom([]string{"", " ", "-", "_", "  "}).Draw(t, "sep"))
					continue
				}
				b.WriteRune(r)
			default:
				b.WriteRune(r)
			}
		}
		got, err := Default().Lookup(b.String())
		if err != nil || got.ID != c.ID {
			t.Fatalf("Lookup(%q) (from %q) = %q, %v; want %q", b.String(), n, got.ID, err, c.ID)
		}
	})
}

// TestPropertyNewRejectsDuplicates: giving a second card any name of the first
// (ID, name or alias, however cased) makes New fail with ErrInvalid.
func TestPropertyNewRejectsDuplicates(t *testing.T) {
	cards := Default().Cards()
	rapid.Check(t, func(t *rapid.T) {
		i := rapid.IntRange(0, len(cards)-1).Draw(t, "first")
		j := rapid.IntRange(0, len(cards)-2).Draw(t, "second")
		if j >= i {
			j++ // any card but the first
		}
		a, b := cards[i].clone(), cards[j].clone()
		names := append([]string{a.ID, a.Name}, a.Aliases...)
		n := rapid.SampledFrom(names).Draw(t, "name")
		switch rapid.IntRange(0, 2).Draw(t, "where") {
		case 0:
			b.Aliases = append(b.Aliases, strings.ToUpper(n))
		case 1:
			b.Name = n
		case 2:
			b.ID = a.ID
		}
		if _, err := New(a, b); !errors.Is(err, ErrInvalid) {
			t.Fatalf("New with %q on both %s and %s: err = %v, want ErrInvalid", n, a.ID, b.ID, err)
		}
	})
}

func TestNewRejects(t *testing.T) {
	a := lookup(t, "a100-sxm4-80gb")
	b := lookup(t, "h100-sxm5-80gb")
	tests := []struct {
		name  string
		cards func() []Card
	}{
		{"same card twice", func() []Card { return []Card{a, a} }},
		{"duplicate ID", func() []Card { c := b.clone(); c.ID = a.ID; return []Card{a, c} }},
		{"alias equal after normalisation", func() []Card {
			c := b.clone()
			c.Aliases = append(c.Aliases, "a100 sxm4_80GB")
			return []Card{a, c}
		}},
		{"alias equal after vendor words", func() []Card {
			c := b.clone()
			c.Aliases = append(c.Aliases, "NVIDIA Tesla A100-80GB")
			return []Card{a, c}
		}},
		{"family equal to another card's alias", func() []Card {
			c := b.clone()
			c.Families = append(c.Families, "A100 80GB")
			return []Card{a, c}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cards()...); !errors.Is(err, ErrInvalid) {
				t.Errorf("New() error = %v, want ErrInvalid", err)
			}
		})
	}
	// Several problems are all reported.
	c := b.clone()
	c.ID = a.ID
	c.Memory = -1
	_, err := New(a, c)
	if err == nil || !strings.Contains(err.Error(), "memory") || !strings.Contains(err.Error(), "also names") {
		t.Errorf("New() = %v, want both the memory and the duplicate problem", err)
	}
}

func TestReadOnly(t *testing.T) {
	cat := Default()
	before, _ := cat.Lookup("a100-sxm4-80gb")
	c, _ := cat.Lookup("a100-sxm4-80gb")
	c.Aliases[0] = "changed"
	c.Families[0] = "changed"
	c.Sources[0] = "changed"
	c.Uses[0] = "changed"
	c.Aliases = append(c.Aliases, "more")
	c.Families = append(c.Families, "more") // must not spill into Uses
	c.Memory = 1
	cards := cat.Cards()
	cards[0].Aliases[0] = "changed"
	cards[0].Name = "changed"
	after, _ := cat.Lookup("a100-sxm4-80gb")
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("catalog changed through a returned card (-before +after):\n%s", diff)
	}
	if got := cat.Cards()[0]; got.Name == "changed" || got.Aliases[0] == "changed" {
		t.Errorf("Cards() shares storage: %q %q", got.Name, got.Aliases[0])
	}
	if _, err := cat.Lookup("changed"); err == nil {
		t.Error("a changed alias became a name")
	}
	// Cards given to New are copied too.
	src := lookup(t, "t4")
	own, err := New(src)
	if err != nil {
		t.Fatal(err)
	}
	src.Aliases[0] = "changed"
	if got, _ := own.Lookup("t4"); got.Aliases[0] == "changed" {
		t.Error("New kept the caller's slice")
	}
}

func TestConcurrentLookup(t *testing.T) {
	names := []string{"RTX 4090", "A100", "NVIDIA H100 80GB HBM3", "L40S", "unknown card", "T4"}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				c, err := Default().Lookup(names[(g+i)%len(names)])
				if err == nil && len(c.Aliases) > 0 {
					c.Aliases[0] = "mine" // each caller owns its copy
				}
				_ = Default().Cards()
			}
		}(g)
	}
	wg.Wait()
	if c := lookup(t, "RTX 4090"); c.Aliases[0] == "mine" {
		t.Error("a goroutine's change reached the catalog")
	}
}

func approxCards() cmp.Option {
	return cmp.Options{
		cmp.Comparer(func(a, b compute.FLOPRate) bool { return near(float64(a), float64(b)) }),
		cmp.Comparer(func(a, b compute.Bandwidth) bool { return near(float64(a), float64(b)) }),
	}
}

func TestLoadRoundTrip(t *testing.T) {
	cards := Default().Cards()
	data, err := json.Marshal(cards)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cards, cat.Cards(), approxCards()); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	// One card through Card's own JSON methods.
	var one Card
	b, _ := json.Marshal(cards[0])
	if err := json.Unmarshal(b, &one); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cards[0], one, approxCards()); diff != "" {
		t.Errorf("card round trip mismatch (-want +got):\n%s", diff)
	}
	// Unsupported is null, not zero, in JSON.
	if !bytes.Contains(b, []byte(`"bf16":null`)) {
		t.Errorf("V100 JSON lacks a null BF16: %s", b)
	}
}

func TestLoadRejects(t *testing.T) {
	good, _ := json.Marshal([]Card{lookup(t, "t4")})
	mod := func(old, new string) string {
		s := strings.Replace(string(good), old, new, 1)
		if s == string(good) {
			t.Fatalf("no %q in %s", old, good)
		}
		return s
	}
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"garbage", "not json"},
		{"object, not list", `{"id": "t4"}`},
		{"null", "null"},
		{"unknown field", mod(`"id":"t4"`, `"id":"t4","colour":"green"`)},
		{"unknown peak", mod(`"fp64":`, `"fp6":1,"fp64":`)},
		{"negative memory", mod(`"memory_mib":15360`, `"memory_mib":-15360`)},
		{"absurd memory", mod(`"memory_mib":15360`, `"memory_mib":9223372036854775807`)},
		{"memory as string", mod(`"memory_mib":15360`, `"memory_mib":"15360"`)},
		{"zero bandwidth", mod(`"memory_bandwidth_gb_per_s":320`, `"memory_bandwidth_gb_per_s":0`)},
		{"negative peak", mod(`"fp32":8.1`, `"fp32":-8.1`)},
		{"trailing data", string(good) + `[]`},
		{"duplicate card", "[" + strings.Trim(string(good), "[]") + "," + strings.Trim(string(good), "[]") + "]"},
		{"unknown market", mod(`"market":"global"`, `"market":"moon"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Load(strings.NewReader(tt.in)); !errors.Is(err, ErrInvalid) {
				t.Errorf("Load(%.60q) error = %v, want ErrInvalid", tt.in, err)
			}
		})
	}
	if _, err := Load(strings.NewReader("[]")); err != nil {
		t.Errorf("Load([]) = %v, want an empty catalog", err)
	}
	if _, err := Load(strings.NewReader(string(good))); err != nil {
		t.Errorf("Load(good) = %v", err)
	}
}

func TestMarshalRejectsOddMemory(t *testing.T) {
	c := lookup(t, "t4")
	c.Memory += 1
	if _, err := json.Marshal(c); err == nil {
		t.Error("Marshal of memory not whole MiB succeeded")
	}
}

func TestSeedUses(t *testing.T) {
	tests := []struct {
		card string
		use  string
	}{
		{"a100-sxm4-80gb", "large-scale training"},
		{"a100-pcie-40gb", "multi-GPU clusters"},
		{"v100-sxm2-32gb", "medium-model training"},
		{"rtx-4090", "inference"},
		{"rtx-4090", "rendering"},
		{"rtx-4090", "LoRA fine-tuning"},
		{"rtx-4090", "Stable Diffusion"},
		{"t4", "light tasks"},
		{"rtx-3090", "personal development"},
		{"a800-sxm4-80gb", "China-compliant A100 replacement"},
		{"h800-sxm5-80gb", "high-concurrency inference"},
	}
	for _, tt := range tests {
		t.Run(tt.card+" "+tt.use, func(t *testing.T) {
			if c := lookup(t, tt.card); !contains(c.Uses, tt.use) {
				t.Errorf("%s uses %v, want %q", tt.card, c.Uses, tt.use)
			}
		})
	}
}

func TestMarketsAndLinks(t *testing.T) {
	for _, id := range []string{"a800-sxm4-80gb", "a800-pcie-40gb", "h800-sxm5-80gb", "h20-96gb", "l20", "rtx-4090d"} {
		if c := lookup(t, id); c.Market != MarketChina {
			t.Errorf("%s market %q, want china", id, c.Market)
		}
	}
	tests := []struct {
		card string
		link LinkKind
		gbps float64
	}{
		{"a100-sxm4-80gb", LinkNVLink, 600}, // A100 datasheet
		{"a800-sxm4-80gb", LinkNVLink, 400}, // cut NVLink (secondary)
		{"h800-sxm5-80gb", LinkNVLink, 400},
		{"h100-sxm5-80gb", LinkNVLink, 900},      // H100 datasheet
		{"h100-nvl-94gb", LinkNVLinkBridge, 600}, // H100 datasheet, NVL column: bridge joins pairs
		{"a10g", LinkNone, 0},
		{"rtx-4090", LinkNone, 0},
		{"rtx-3090", LinkNVLinkBridge, 112.5},
		{"mi300x", LinkInfinityFabric, 896},
	}
	for _, tt := range tests {
		c := lookup(t, tt.card)
		if c.Link != tt.link || !near(float64(c.NVLink), tt.gbps*1e9) {
			t.Errorf("%s link %s %v GB/s, want %s %v", tt.card, c.Link, float64(c.NVLink)/1e9, tt.link, tt.gbps)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	cat := Default()
	for _, name := range []string{"NVIDIA A100-SXM4-80GB", "RTX 4090", "A100", "no such card"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_, _ = cat.Lookup(name)
			}
		})
	}
}

func TestZeroCatalog(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    *Catalog
	}{
		{"nil", nil},
		{"zero", &Catalog{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Cards(); len(got) != 0 {
				t.Errorf("Cards() = %v, want none", got)
			}
			_, err := tt.c.Lookup("A100")
			var nf *NotFoundError
			if !errors.As(err, &nf) || len(nf.Suggestions) != 0 {
				t.Errorf("Lookup(A100) error = %v, want a *NotFoundError without suggestions", err)
			}
			if _, err := tt.c.Verify("A100", 1, nil, nil); !errors.Is(err, ErrNotFound) {
				t.Errorf("Verify error = %v, want ErrNotFound", err)
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	_, err := Default().Lookup("RTX 4009")
	if got := err.Error(); !strings.HasPrefix(got, `catalog: no card named "RTX 4009"`) || !strings.HasSuffix(got, ": card not found") || strings.Count(got, "catalog") != 1 {
		t.Errorf("Lookup error = %q, want one package name, the input quoted and the sentinel last", got)
	}
	_, err = Default().Lookup("A100")
	if got, want := err.Error(), "ambiguous card name"; !strings.HasSuffix(got, want) || strings.Count(got, "catalog") != 1 {
		t.Errorf("Lookup error = %q, want it to end with %q and name the package once", got, want)
	}
	_, err = ParseSMI(strings.NewReader("0, NVIDIA A100-SXM4-80GB, lots\n"))
	if got, want := err.Error(), `catalog: ParseSMI line 1 "0, NVIDIA A100-SXM4-80GB, lots": memory.total "lots": not a whole number of MiB: invalid input`; got != want {
		t.Errorf("ParseSMI error = %q, want %q", got, want)
	}
}

// A JSON error quotes an excerpt of the input, never the whole: encoding/json
// quotes an unknown field's name in full.
func TestLoadErrorIsShort(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	_, err := Load(strings.NewReader(`[{"` + long + `": 1}]`))
	if !errors.Is(err, ErrInvalid) || len(err.Error()) > 300 || !strings.HasPrefix(err.Error(), `catalog: Load: json: unknown field "xxx`) {
		t.Errorf("Load error (%d bytes) = %.100q..., want a short one wrapping ErrInvalid", len(fmt.Sprint(err)), fmt.Sprint(err))
	}
	var c Card
	err = c.UnmarshalJSON([]byte(`{"` + long + `": 1}`))
	if !errors.Is(err, ErrInvalid) || len(err.Error()) > 300 {
		t.Errorf("Card.UnmarshalJSON error (%d bytes), want a short one wrapping ErrInvalid", len(fmt.Sprint(err)))
	}
}
