package catalog

import (
	"encoding/csv"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

func lookup(t testing.TB, name string) Card {
	t.Helper()
	c, err := Default().Lookup(name)
	if err != nil {
		t.Fatalf("Lookup(%q): %v", name, err)
	}
	return c
}

func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(math.Abs(want), 1)
}

func TestDefault(t *testing.T) {
	cards := Default().Cards()
	if len(cards) != 57 {
		t.Fatalf("Default has %d cards, want 57", len(cards))
	}
	for _, c := range cards {
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", c.ID, err)
		}
		if len(c.Sources) == 0 {
			t.Errorf("%s: no sources", c.ID)
		}
		for _, s := range c.Sources {
			if _, ok := SourceByKey(s); !ok {
				t.Errorf("%s: source %q not in Sources()", c.ID, s)
			}
		}
		if c.MemoryNote == "" {
			t.Errorf("%s: no memory note", c.ID)
		}
		if c.Market == MarketChina && c.Confidence == "primary" {
			t.Errorf("%s: a China variant graded primary; the reference has only secondary sources for them", c.ID)
		}
	}
	first, second := Default(), Default()
	if first != second {
		t.Error("Default() built twice")
	}
}

func TestSourcesSortedUnique(t *testing.T) {
	s := Sources()
	for i := 1; i < len(s); i++ {
		if s[i-1].Key >= s[i].Key {
			t.Errorf("Sources not sorted/unique at %q, %q", s[i-1].Key, s[i].Key)
		}
	}
	s[0].Title = "changed"
	if Sources()[0].Title == "changed" {
		t.Error("Sources shares its slice")
	}
}

// TestCardsMatchReference checks cards.json against the reference table it was
// made from (testdata/cards.csv, a copy of the project's reference/cards.csv).
func TestCardsMatchReference(t *testing.T) {
	f, err := os.Open("testdata/cards.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	cards := Default().Cards()
	if len(cards) != len(rows)-1 {
		t.Fatalf("%d cards, %d reference rows", len(cards), len(rows)-1)
	}
	rate := func(t *testing.T, field string, got Rate, cell string) {
		if cell == "" {
			if got.Supported {
				t.Errorf("%s: got %v, want unsupported", field, got.Value)
			}
			return
		}
		want, _ := strconv.ParseFloat(cell, 64)
		if !got.Supported || !near(float64(got.Value), want*1e12) {
			t.Errorf("%s: got %v (supported %v), want %v TFLOPS", field, float64(got.Value)/1e12, got.Supported, want)
		}
	}
	// Where the catalog corrects the reference table, with the source.
	corrected := map[string]string{
		// NVIDIA L4 datasheet: FP8 485 TFLOPS and INT8 485 TOPS with sparsity, so
		// 242.5 dense; the reference rounds to 242.
		"l4/fp8_dense_tflops": "242.5",
		"l4/int8_dense_tops":  "242.5",
	}
	for i, row := range rows[1:] {
		c := cards[i]
		get := func(h string) string {
			if v, ok := corrected[row[col["id"]]+"/"+h]; ok {
				return v
			}
			return row[col[h]]
		}
		t.Run(get("id"), func(t *testing.T) {
			if c.ID != get("id") || c.Name != get("name") || c.Vendor != get("vendor") ||
				c.Architecture != get("arch") || strconv.Itoa(c.Year) != get("year") || c.Form != get("form") ||
				c.MemoryType != get("mem_type") || c.Confidence != get("confidence") {
				t.Errorf("identity fields differ: got %s %q %s %s %d %s %s %s", c.ID, c.Name, c.Vendor, c.Architecture, c.Year, c.Form, c.MemoryType, c.Confidence)
			}
			if strconv.FormatInt(int64(c.MemoryNominal/sizing.GB), 10) != get("mem_gb") {
				t.Errorf("nominal memory %v GB, want %s", c.MemoryNominal/sizing.GB, get("mem_gb"))
			}
			bw, _ := strconv.ParseFloat(get("bw_gbs"), 64)
			if !near(float64(c.MemoryBandwidth), bw*1e9) {
				t.Errorf("bandwidth %v, want %v GB/s", float64(c.MemoryBandwidth), bw)
			}
			rate(t, "fp32", c.Peaks.FP32, get("fp32_tflops"))
			rate(t, "tf32", c.Peaks.TF32, get("tf32_dense_tflops"))
			rate(t, "fp16", c.Peaks.FP16, get("fp16_dense_tflops"))
			rate(t, "bf16", c.Peaks.BF16, get("bf16_dense_tflops"))
			rate(t, "fp8", c.Peaks.FP8, get("fp8_dense_tflops"))
			rate(t, "int8", c.Peaks.INT8, get("int8_dense_tops"))
			link := get("interconnect")
			if link == "" {
				link = "none"
			}
			if string(c.Link) != link {
				t.Errorf("link %q, want %q", c.Link, link)
			}
			nv, _ := strconv.ParseFloat(get("interconnect_total_gbs"), 64)
			if !near(float64(c.NVLink), nv*1e9) {
				t.Errorf("NVLink %v, want %v GB/s", float64(c.NVLink), nv)
			}
			if strconv.Itoa(c.PCIeGen) != get("pcie_gen") || strconv.Itoa(c.TDP) != get("tdp_w") {
				t.Errorf("PCIe %d TDP %d, want %s %s", c.PCIeGen, c.TDP, get("pcie_gen"), get("tdp_w"))
			}
			if c.SparsePublished != (get("sparse_published") == "true") || c.FP32Accumulate != (get("geforce_fp32acc") == "true") {
				t.Errorf("sparse/fp32acc flags differ")
			}
			for _, s := range strings.Split(get("sources"), ";") {
				if !contains(c.Sources, s) {
					t.Errorf("source %q missing from %v", s, c.Sources)
				}
			}
			names := map[string]string{"year": "year", "form": "form", "mem_type": "memory_type",
				"bw_gbs": "memory_bandwidth_gb_per_s", "fp32_tflops": "peaks_tflops.fp32",
				"tf32_dense_tflops": "peaks_tflops.tf32", "fp16_dense_tflops": "peaks_tflops.fp16",
				"bf16_dense_tflops": "peaks_tflops.bf16", "fp8_dense_tflops": "peaks_tflops.fp8",
				"int8_dense_tops": "peaks_tflops.int8", "interconnect_total_gbs": "nvlink_gb_per_s", "pcie_gen": "pcie_gen",
				"tdp_w": "tdp_watts"}
			for _, u := range strings.Split(get("unconfirmed"), ";") {
				if u != "" && !contains(c.Unconfirmed, names[u]) {
					t.Errorf("unconfirmed %q (%s) missing from %v", u, names[u], c.Unconfirmed)
				}
			}
		})
	}
}

// TestSeedCorrections pins the datasheet figures that the first seed article's
// card table got wrong, and the sparse-for-dense mix-up common in such tables.
func TestSeedCorrections(t *testing.T) {
	tests := []struct {
		name string
		card string
		p    sizing.Precision
		want float64 // TFLOPS
	}{
		// NVIDIA A100 datasheet: FP32 19.5 TFLOPS (the seed says 5).
		{"A100 FP32 is 19.5, not 5", "a100-sxm4-80gb", sizing.FP32, 19.5},
		{"A100 40GB FP32 is 19.5", "a100-pcie-40gb", sizing.FP32, 19.5},
		// NVIDIA V100 datasheet: FP32 15.7 (SXM2) and 14 (PCIe); the seed's 7 is FP64.
		{"V100 SXM2 FP32 is 15.7, not 7", "v100-sxm2-32gb", sizing.FP32, 15.7},
		{"V100 PCIe FP32 is 14, not 7", "v100-pcie-32gb", sizing.FP32, 14},
		{"V100 PCIe FP64 is the seed's 7", "v100-pcie-32gb", sizing.FP64, 7},
		{"V100 SXM2 FP64 7.8", "v100-sxm2-32gb", sizing.FP64, 7.8},
		// NVIDIA T4 datasheet: FP32 8.1 (the seed says 1).
		{"T4 FP32 is 8.1, not 1", "t4", sizing.FP32, 8.1},
		// Ada whitepaper: RTX 4090 FP32 82.6 (the seed rounds to 82).
		{"RTX 4090 FP32 82.6", "rtx-4090", sizing.FP32, 82.6},
		// Ada whitepaper: BF16 with FP32 accumulate, dense, 165.2 (330.3 is FP16 accumulate).
		{"RTX 4090 BF16 165.2 with FP32 accumulate", "rtx-4090", sizing.BF16, 165.2},
		// NVIDIA H100 datasheet prints 1979 "with sparsity"; dense is half.
		{"H100 SXM BF16 dense 989.5, not sparse 1979", "h100-sxm5-80gb", sizing.BF16, 989.5},
		{"H100 SXM FP8 dense 1979, not 3958", "h100-sxm5-80gb", sizing.FP8, 1979},
		{"A100 BF16 dense 312, not 624", "a100-sxm4-80gb", sizing.BF16, 312},
		{"A100 TF32 dense 156", "a100-sxm4-80gb", sizing.TF32, 156},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lookup(t, tt.card).Peak(tt.p)
			if !ok || !near(float64(got), tt.want*1e12) {
				t.Errorf("%s Peak(%v) = %v TFLOPS, %v; want %v", tt.card, tt.p, float64(got)/1e12, ok, tt.want)
			}
		})
	}
}

// TestFP64 pins double precision from the datasheets (vector, then tensor): the
// first seed article's scientific-computing case must not land on a card without it.
func TestFP64(t *testing.T) {
	tests := []struct {
		name           string
		card           string
		vector, tensor float64 // TFLOPS; tensor 0: no FP64 tensor cores
		unconfirmed    bool
	}{
		{"A100 datasheet 9.7 / 19.5", "a100-sxm4-80gb", 9.7, 19.5, false},
		{"A800 same as A100 (secondary)", "a800-sxm4-80gb", 9.7, 19.5, true},
		{"H100 SXM datasheet 34 / 67", "h100-sxm5-80gb", 34, 67, false},
		{"H100 PCIe datasheet 26 / 51", "h100-pcie-80gb", 26, 51, false},
		{"H100 NVL datasheet 30 / 60", "h100-nvl-94gb", 30, 60, false},
		{"A10G 1/64 of FP32 (secondary)", "a10g", 0.4925, 0, true},
		{"H200 datasheet 34 / 67", "h200-sxm5-141gb", 34, 67, false},
		{"H800 cut to about 1 (secondary)", "h800-sxm5-80gb", 1, 1, true},
		{"H20 about 1 (secondary)", "h20-96gb", 1, 1, true},
		{"V100 SXM2 datasheet 7.8", "v100-sxm2-16gb", 7.8, 0, false},
		{"A30 datasheet 5.2 / 10.3", "a30", 5.2, 10.3, false},
		{"MI300X data sheet 81.7 / 163.4", "mi300x", 81.7, 163.4, false},
		{"RTX 4090 1/64 of FP32", "rtx-4090", 1.291, 0, true},
		{"L40S 1/64 of FP32", "l40s", 1.431, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lookup(t, tt.card)
			v, ok := c.Peak(sizing.FP64)
			if !ok || !near(float64(v), tt.vector*1e12) {
				t.Errorf("Peak(FP64) = %v, %v; want %v", float64(v)/1e12, ok, tt.vector)
			}
			best, ok := c.FP64()
			want := math.Max(tt.vector, tt.tensor)
			if !ok || !near(float64(best), want*1e12) {
				t.Errorf("FP64() = %v, %v; want %v", float64(best)/1e12, ok, want)
			}
			if c.Peaks.FP64Tensor.Supported != (tt.tensor > 0) {
				t.Errorf("FP64Tensor supported = %v, want %v", c.Peaks.FP64Tensor.Supported, tt.tensor > 0)
			}
			if got := contains(c.Unconfirmed, "peaks_tflops.fp64"); got != tt.unconfirmed {
				t.Errorf("FP64 unconfirmed = %v, want %v", got, tt.unconfirmed)
			}
		})
	}
	// Consumer cards are near 1/64 of FP32 (1/32 on Turing, the RTX 2080 Ti's
	// TU102): far too slow for a double-precision job.
	for _, c := range Default().Cards() {
		if c.FP32Accumulate {
			v, _ := c.Peak(sizing.FP64)
			f, _ := c.Peak(sizing.FP32)
			want := 1.0 / 64
			if c.Architecture == "Turing" {
				want = 1.0 / 32
			}
			if r := float64(v / f); r < want*0.9 || r > want*1.1 {
				t.Errorf("%s FP64/FP32 = %v, want about %v", c.ID, r, want)
			}
		}
	}
}

func TestPeak(t *testing.T) {
	v100 := lookup(t, "v100-sxm2-32gb")
	a100 := lookup(t, "a100-sxm4-80gb")
	fp16, _ := a100.Peak(sizing.FP16)
	custom, _ := sizing.CustomBits(4.65)
	tests := []struct {
		name string
		card Card
		p    sizing.Precision
		want compute.FLOPRate
		ok   bool
	}{
		{"V100 has no BF16", v100, sizing.BF16, 0, false},
		{"V100 has no TF32", v100, sizing.TF32, 0, false},
		{"V100 has no FP8", v100, sizing.FP8, 0, false},
		{"A100 has no FP8", a100, sizing.FP8, 0, false},
		{"A100 INT8 624 TOPS", a100, sizing.INT8, 624 * compute.TFLOPS, true},
		{"NF4 runs at FP16", a100, sizing.NF4, fp16, true},
		{"GPTQ4 runs at FP16", a100, sizing.GPTQ4, fp16, true},
		{"AWQ4 runs at FP16", a100, sizing.AWQ4, fp16, true},
		{"Q4_K_M runs at FP16", a100, sizing.Q4_K_M, fp16, true},
		{"Q8_0 runs at FP16", a100, sizing.Q8_0, fp16, true},
		{"V100 NF4 at its FP16 125", v100, sizing.NF4, 125 * compute.TFLOPS, true},
		{"INT4 not recorded", a100, sizing.INT4, 0, false},
		{"custom precision", a100, custom, 0, false},
		{"unset precision", a100, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.card.Peak(tt.p)
			if ok != tt.ok || !near(float64(got), float64(tt.want)) {
				t.Errorf("Peak(%v) = %v, %v; want %v, %v", tt.p, float64(got), ok, float64(tt.want), tt.ok)
			}
		})
	}
	var none Card
	if _, ok := none.FP64(); ok {
		t.Error("zero Card FP64() ok")
	}
}

// TestMemoryExact checks each card's memory against nvidia-smi's memory.total in
// testdata/smi_names.txt, and that the name (with the memory, where two cards
// print one name) resolves to the card.
func TestMemoryExact(t *testing.T) {
	data, err := os.ReadFile("testdata/smi_names.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		name, id := parts[0], parts[1]
		mibs, _ := strconv.ParseInt(parts[2], 10, 64)
		n++
		t.Run(name+" "+parts[2], func(t *testing.T) {
			// As Verify reads a GPU: by its name and, where two cards print one
			// name (the 24 and 48 GB RTX 4090), its memory.
			c, err := Default().deviceCard(Device{Name: name, Memory: sizing.Bytes(mibs) * sizing.MiB})
			if err != nil || c.ID != id {
				t.Errorf("deviceCard(%q, %d MiB) = %s, %v; want %s", name, mibs, c.ID, err, id)
			}
			if c.Memory != sizing.Bytes(mibs)*sizing.MiB {
				t.Errorf("%s memory %d MiB, want %d", id, c.Memory/sizing.MiB, mibs)
			}
			if !c.MemoryReported {
				t.Errorf("%s memory seen in nvidia-smi output but marked inferred", id)
			}
		})
	}
	if n < 25 {
		t.Errorf("only %d names in smi_names.txt", n)
	}
	// The figures the issue names.
	for id, mib := range map[string]int64{"a100-sxm4-80gb": 81920, "a100-pcie-40gb": 40960, "v100-sxm2-32gb": 32768,
		"v100-pcie-16gb": 16384, "t4": 15360, "rtx-4090": 24564, "h100-sxm5-80gb": 81559, "h200-sxm5-141gb": 143771,
		"rtx-3090": 24576, "a10g": 23028, "h100-nvl-94gb": 95830} {
		if got := lookup(t, id).Memory; got != sizing.Bytes(mib)*sizing.MiB {
			t.Errorf("%s memory %d MiB, want %d", id, got/sizing.MiB, mib)
		}
	}
	for _, id := range []string{"v100-pcie-32gb", "a800-pcie-40gb", "a800-pcie-80gb", "h800-pcie-80gb", "mi300x"} {
		if lookup(t, id).MemoryReported {
			t.Errorf("%s: memory marked reported, but it is inferred", id)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	base := lookup(t, "a100-sxm4-80gb")
	tests := []struct {
		name string
		mod  func(c *Card)
	}{
		{"empty id", func(c *Card) { c.ID = "" }},
		{"upper-case id", func(c *Card) { c.ID = "A100" }},
		{"zero memory", func(c *Card) { c.Memory = 0 }},
		{"negative memory", func(c *Card) { c.Memory = -sizing.GiB }},
		{"absurd memory", func(c *Card) { c.Memory = 64 * sizing.TiB }},
		{"zero bandwidth", func(c *Card) { c.MemoryBandwidth = 0 }},
		{"NaN bandwidth", func(c *Card) { c.MemoryBandwidth = compute.Bandwidth(math.NaN()) }},
		{"Inf peak", func(c *Card) { c.Peaks.FP16 = RateOf(compute.FLOPRate(math.Inf(1))) }},
		{"zero supported peak", func(c *Card) { c.Peaks.BF16 = RateOf(0) }},
		{"value on unsupported", func(c *Card) { c.Peaks.FP8 = Rate{Value: 1} }},
		{"FP16 below FP32 (sparse/dense or column mix-up)", func(c *Card) { c.Peaks.FP16 = RateOf(5 * compute.TFLOPS) }},
		{"BF16 below FP32", func(c *Card) { c.Peaks.BF16 = RateOf(5 * compute.TFLOPS) }},
		{"no FP32, FP16 or BF16", func(c *Card) { c.Peaks.FP32, c.Peaks.FP16, c.Peaks.BF16 = Rate{}, Rate{}, Rate{} }},
		{"unknown market", func(c *Card) { c.Market = "mars" }},
		{"unknown link", func(c *Card) { c.Link = "infiniband" }},
		{"none with bandwidth", func(c *Card) { c.Link = LinkNone }},
		{"nvlink without bandwidth", func(c *Card) { c.NVLink = 0 }},
		{"PCIe gen 0", func(c *Card) { c.PCIeGen = 0 }},
		{"negative TDP", func(c *Card) { c.TDP = -1 }},
		{"year 0", func(c *Card) { c.Year = 0 }},
		{"unknown unconfirmed field", func(c *Card) { c.Unconfirmed = []string{"colour"} }},
		{"name without letters or digits", func(c *Card) { c.Aliases = []string{"- -"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base.clone()
			tt.mod(&c)
			err := c.Validate()
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate() = %v, want ErrInvalid", err)
			}
			if _, err := New(c); !errors.Is(err, ErrInvalid) {
				t.Errorf("New() = %v, want ErrInvalid", err)
			}
		})
	}
}

// TestAddedCards pins the key figures of the cards added after the reference
// table (testdata/README.md says which rows extend it), each from its source.
func TestAddedCards(t *testing.T) {
	tests := []struct {
		name      string
		card      string
		memMiB    int64   // nvidia-smi memory.total
		bwGBps    float64 // memory bandwidth
		p         sizing.Precision
		tflops    float64 // dense; 0: unsupported
		link      LinkKind
		linkGBps  float64
		pcie, tdp int
	}{
		// NVIDIA H100 datasheet and product page, H100 NVL column: 94 GB HBM3 at
		// 3.9 TB/s, BF16 1,671 TFLOPS "with sparsity" (dense is half), NVLink bridge
		// 600 GB/s, PCIe Gen5, 350-400 W configurable. Memory: nvidia-smi
		// "NVIDIA H100 NVL, 95830 MiB" in public logs.
		{"H100 NVL BF16 835.5 dense, not 1671", "h100-nvl-94gb", 95830, 3900, sizing.BF16, 835.5, LinkNVLinkBridge, 600, 5, 400},
		{"H100 NVL FP16 835.5 dense", "h100-nvl-94gb", 95830, 3900, sizing.FP16, 835.5, LinkNVLinkBridge, 600, 5, 400},
		{"H100 NVL TF32 417.5 dense, not 835", "h100-nvl-94gb", 95830, 3900, sizing.TF32, 417.5, LinkNVLinkBridge, 600, 5, 400},
		{"H100 NVL FP8 1670.5 dense, not 3341", "h100-nvl-94gb", 95830, 3900, sizing.FP8, 1670.5, LinkNVLinkBridge, 600, 5, 400},
		{"H100 NVL INT8 1670.5 dense", "h100-nvl-94gb", 95830, 3900, sizing.INT8, 1670.5, LinkNVLinkBridge, 600, 5, 400},
		{"H100 NVL FP32 60", "h100-nvl-94gb", 95830, 3900, sizing.FP32, 60, LinkNVLinkBridge, 600, 5, 400},
		{"H100 NVL FP64 vector 30", "h100-nvl-94gb", 95830, 3900, sizing.FP64, 30, LinkNVLinkBridge, 600, 5, 400},
		// A10G: AWS's G5 pages give the GPU and its 24 GB; nvidia-smi prints
		// "NVIDIA A10G, 23028 MiB". FP32 31.52 TFLOPS (9216 cores at 1710 MHz),
		// 600 GB/s and the 300 W power limit rest on secondary sources only.
		// Neither NVIDIA nor AWS publishes A10G tensor rates, and they differ
		// from the A10's 125 TFLOPS, so they are recorded as unsupported.
		{"A10G FP32 31.52 (secondary)", "a10g", 23028, 600, sizing.FP32, 31.52, LinkNone, 0, 4, 300},
		{"A10G BF16 not recorded", "a10g", 23028, 600, sizing.BF16, 0, LinkNone, 0, 4, 300},
		{"A10G FP16 not recorded", "a10g", 23028, 600, sizing.FP16, 0, LinkNone, 0, 4, 300},
		{"A10G TF32 not recorded", "a10g", 23028, 600, sizing.TF32, 0, LinkNone, 0, 4, 300},
		{"A10G INT8 not recorded", "a10g", 23028, 600, sizing.INT8, 0, LinkNone, 0, 4, 300},
		{"A10G FP64 1/64 of FP32", "a10g", 23028, 600, sizing.FP64, 0.4925, LinkNone, 0, 4, 300},
		// NVIDIA A40 datasheet: 48 GB GDDR6 at 696 GB/s, FP32 37.4, TF32 74.8, BF16 and
		// FP16 149.7, INT8 299.3 TOPS (each half the "with sparsity" figure), NVLink
		// bridge 112.5 GB/s, PCIe Gen4, 300 W. nvidia-smi: "NVIDIA A40, 46068 MiB".
		{"A40 FP32 37.4", "a40", 46068, 696, sizing.FP32, 37.4, LinkNVLinkBridge, 112.5, 4, 300},
		{"A40 TF32 74.8 dense", "a40", 46068, 696, sizing.TF32, 74.8, LinkNVLinkBridge, 112.5, 4, 300},
		{"A40 BF16 149.7 dense, not 299.4", "a40", 46068, 696, sizing.BF16, 149.7, LinkNVLinkBridge, 112.5, 4, 300},
		{"A40 INT8 299.3 dense", "a40", 46068, 696, sizing.INT8, 299.3, LinkNVLinkBridge, 112.5, 4, 300},
		{"A40 no FP8", "a40", 46068, 696, sizing.FP8, 0, LinkNVLinkBridge, 112.5, 4, 300},
		// NVIDIA Ada whitepaper, RTX 4080 column: FP32 48.7; tensor FP16/BF16 with FP32
		// accumulate 97.5 dense (194.9 with sparsity), FP8 194.9, INT8 389.9 TOPS;
		// 716.8 GB/s; 320 W. nvidia-smi: "NVIDIA GeForce RTX 4080, 16376 MiB".
		{"RTX 4080 FP32 48.7", "rtx-4080", 16376, 716.8, sizing.FP32, 48.7, LinkNone, 0, 4, 320},
		{"RTX 4080 BF16 97.5 with FP32 accumulate", "rtx-4080", 16376, 716.8, sizing.BF16, 97.5, LinkNone, 0, 4, 320},
		{"RTX 4080 FP8 194.9", "rtx-4080", 16376, 716.8, sizing.FP8, 194.9, LinkNone, 0, 4, 320},
		{"RTX 4080 INT8 389.9", "rtx-4080", 16376, 716.8, sizing.INT8, 389.9, LinkNone, 0, 4, 320},
		// RTX 4080 SUPER: NVIDIA's product page (10240 cores, 2.55 GHz boost, 16 GB at
		// 23 Gbps on 256 bits = 736 GB/s, 320 W, 836 AI TOPS sparse INT8); BF16 is the
		// AI TOPS over 8, as on the 4080 (779.8 / 97.5). nvidia-smi: 16376 MiB.
		{"RTX 4080 SUPER FP32 52.2", "rtx-4080-super", 16376, 736, sizing.FP32, 52.2, LinkNone, 0, 4, 320},
		{"RTX 4080 SUPER BF16 104.5 (836 / 8)", "rtx-4080-super", 16376, 736, sizing.BF16, 104.5, LinkNone, 0, 4, 320},
		{"RTX 4080 SUPER INT8 418 (836 / 2)", "rtx-4080-super", 16376, 736, sizing.INT8, 418, LinkNone, 0, 4, 320},
		// NVIDIA GA102 whitepaper, RTX 3080 column: FP32 29.8, tensor FP16 with FP32
		// accumulate 59.5 dense, TF32 29.8, INT8 238 TOPS, 760 GB/s, 320 W, no NVLink.
		// nvidia-smi: "NVIDIA GeForce RTX 3080, 10240 MiB".
		{"RTX 3080 FP32 29.8", "rtx-3080", 10240, 760, sizing.FP32, 29.8, LinkNone, 0, 4, 320},
		{"RTX 3080 FP16 59.5 with FP32 accumulate", "rtx-3080", 10240, 760, sizing.FP16, 59.5, LinkNone, 0, 4, 320},
		{"RTX 3080 INT8 238", "rtx-3080", 10240, 760, sizing.INT8, 238, LinkNone, 0, 4, 320},
		// NVIDIA GH200 datasheet (96 GB HBM3 at 4 TB/s): FP64 34, FP64 tensor 67, FP32
		// 67, TF32 494.5, BF16 989.5, FP8 1979 dense (989, 1979, 3958 with sparsity),
		// NVLink 900 GB/s, module power up to 1000 W. nvidia-smi: "NVIDIA GH200 480GB,
		// 97871 MiB".
		{"GH200 FP64 vector 34", "gh200-96gb", 97871, 4000, sizing.FP64, 34, LinkNVLink, 900, 5, 1000},
		{"GH200 BF16 989.5 dense", "gh200-96gb", 97871, 4000, sizing.BF16, 989.5, LinkNVLink, 900, 5, 1000},
		{"GH200 FP8 1979 dense", "gh200-96gb", 97871, 4000, sizing.FP8, 1979, LinkNVLink, 900, 5, 1000},
		// AMD MI250X: FP64 and FP32 vector 47.9, matrix 95.7, FP16/BF16 383, INT8 383
		// TOPS, 128 GB HBM2e at 3.2768 TB/s, Infinity Fabric 800 GB/s, 560 W; no TF32 or FP8.
		{"MI250X FP32 vector 47.9", "mi250x", 131072, 3276.8, sizing.FP32, 47.9, LinkInfinityFabric, 800, 4, 560},
		{"MI250X BF16 383", "mi250x", 131072, 3276.8, sizing.BF16, 383, LinkInfinityFabric, 800, 4, 560},
		{"MI250X no TF32", "mi250x", 131072, 3276.8, sizing.TF32, 0, LinkInfinityFabric, 800, 4, 560},
		{"MI250X no FP8", "mi250x", 131072, 3276.8, sizing.FP8, 0, LinkInfinityFabric, 800, 4, 560},
		// NVIDIA Tesla P100 PCIe datasheet (16 GB): FP64 4.7, FP32 9.3, FP16 18.7 (no
		// tensor cores), HBM2 at 732 GB/s, PCIe Gen3, 250 W. nvidia-smi:
		// "Tesla P100-PCIE-16GB, 16280 MiB".
		{"P100 FP64 4.7", "p100-pcie-16gb", 16280, 732, sizing.FP64, 4.7, LinkNone, 0, 3, 250},
		{"P100 FP32 9.3", "p100-pcie-16gb", 16280, 732, sizing.FP32, 9.3, LinkNone, 0, 3, 250},
		{"P100 FP16 18.7 vector", "p100-pcie-16gb", 16280, 732, sizing.FP16, 18.7, LinkNone, 0, 3, 250},
		{"P100 no BF16", "p100-pcie-16gb", 16280, 732, sizing.BF16, 0, LinkNone, 0, 3, 250},
		{"P100 no INT8", "p100-pcie-16gb", 16280, 732, sizing.INT8, 0, LinkNone, 0, 3, 250},
		// NVIDIA Quadro RTX 6000 passive datasheet (source NV-QRTX6000, as Leadtek
		// reproduces it): FP32 14.9 TFLOPS, tensor 119.4 TFLOPS for FP16 with FP16
		// or FP32 accumulate (one rate: a Quadro, not a GeForce halved with FP32
		// accumulate), INT8 238.9 TOPS, 24 GB GDDR6 at 624 GB/s, NVLink bridge
		// 100 GB/s for two cards, PCIe 3.0, 250 W. The active board is faster (16.3,
		// 130.5, 672 GB/s, 295 W); NVIDIA's driver names both "Quadro RTX 6000"
		// (the passive is PCI 1E78 10DE 13D9), so the catalog keeps the slower.
		// nvidia-smi: "Quadro RTX 6000, 24576 MiB". Turing has no BF16, TF32 or FP8
		// unit.
		{"Quadro RTX 6000 FP32 14.9 (passive board)", "quadro-rtx-6000", 24576, 624, sizing.FP32, 14.9, LinkNVLinkBridge, 100, 3, 250},
		{"Quadro RTX 6000 FP16 tensor 119.4", "quadro-rtx-6000", 24576, 624, sizing.FP16, 119.4, LinkNVLinkBridge, 100, 3, 250},
		{"Quadro RTX 6000 INT8 238.9", "quadro-rtx-6000", 24576, 624, sizing.INT8, 238.9, LinkNVLinkBridge, 100, 3, 250},
		{"Quadro RTX 6000 FP64 1/32 of FP32", "quadro-rtx-6000", 24576, 624, sizing.FP64, 0.466, LinkNVLinkBridge, 100, 3, 250},
		{"Quadro RTX 6000 no BF16", "quadro-rtx-6000", 24576, 624, sizing.BF16, 0, LinkNVLinkBridge, 100, 3, 250},
		{"Quadro RTX 6000 no TF32", "quadro-rtx-6000", 24576, 624, sizing.TF32, 0, LinkNVLinkBridge, 100, 3, 250},
		{"Quadro RTX 6000 no FP8", "quadro-rtx-6000", 24576, 624, sizing.FP8, 0, LinkNVLinkBridge, 100, 3, 250},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := lookup(t, tt.card)
			if c.ID != tt.card {
				t.Fatalf("Lookup(%q) = %s", tt.card, c.ID)
			}
			if got := int64(c.Memory / sizing.MiB); got != tt.memMiB || c.Memory%sizing.MiB != 0 {
				t.Errorf("memory %d MiB, want %d", got, tt.memMiB)
			}
			if !near(float64(c.MemoryBandwidth), tt.bwGBps*1e9) {
				t.Errorf("bandwidth %v GB/s, want %v", float64(c.MemoryBandwidth)/1e9, tt.bwGBps)
			}
			got, ok := c.Peak(tt.p)
			if ok != (tt.tflops > 0) || !near(float64(got), tt.tflops*1e12) {
				t.Errorf("Peak(%v) = %v TFLOPS, %v; want %v", tt.p, float64(got)/1e12, ok, tt.tflops)
			}
			if c.Link != tt.link || !near(float64(c.NVLink), tt.linkGBps*1e9) {
				t.Errorf("link %s %v GB/s, want %s %v", c.Link, float64(c.NVLink)/1e9, tt.link, tt.linkGBps)
			}
			if c.PCIeGen != tt.pcie || c.TDP != tt.tdp {
				t.Errorf("PCIe %d, TDP %d W; want %d, %d", c.PCIeGen, c.TDP, tt.pcie, tt.tdp)
			}
			if c.Market != MarketGlobal {
				t.Errorf("market %q, want global", c.Market)
			}
		})
	}
	// The A10G's figures beyond its name and memory size are secondary; the
	// H100 NVL's are all the datasheet's.
	a10g := lookup(t, "a10g")
	if a10g.Confidence != "secondary" || a10g.SparsePublished {
		t.Errorf("A10G confidence %q, sparse %v; want secondary, false", a10g.Confidence, a10g.SparsePublished)
	}
	for _, f := range []string{"peaks_tflops.fp32", "memory_bandwidth_gb_per_s", "tdp_watts"} {
		if !contains(a10g.Unconfirmed, f) {
			t.Errorf("A10G unconfirmed %v lacks %s", a10g.Unconfirmed, f)
		}
	}
	if nvl := lookup(t, "h100-nvl-94gb"); nvl.Confidence != "primary" || len(nvl.Unconfirmed) != 0 || !nvl.SparsePublished {
		t.Errorf("H100 NVL confidence %q, unconfirmed %v, sparse %v", nvl.Confidence, nvl.Unconfirmed, nvl.SparsePublished)
	}
	// The A10 keeps its own datasheet figures; the A10G is a card of its own.
	a10 := lookup(t, "A10")
	if bf16, ok := a10.Peak(sizing.BF16); a10.ID != "a10" || !ok || !near(float64(bf16), 125e12) {
		t.Errorf("A10 = %s BF16 %v, %v; want a10 at 125 TFLOPS", a10.ID, float64(bf16)/1e12, ok)
	}
}

// The added cards answer to the names nvidia-smi and rental listings give them,
// and a variant's own word is not left out ("RTX 4080 16GB" is never the SUPER).
func TestAddedCardNames(t *testing.T) {
	for name, want := range map[string]string{
		"NVIDIA A40":                    "a40",
		"NVIDIA GeForce RTX 4080":       "rtx-4080",
		"RTX 4080 16GB":                 "rtx-4080",
		"NVIDIA GeForce RTX 4080 SUPER": "rtx-4080-super",
		"RTX 4080 SUPER 16GB":           "rtx-4080-super",
		"NVIDIA GeForce RTX 3080":       "rtx-3080",
		"NVIDIA GH200 480GB":            "gh200-96gb",
		"GH200":                         "gh200-96gb",
		"AMD Instinct MI250X":           "mi250x",
		"Tesla P100-PCIE-16GB":          "p100-pcie-16gb",
		"P100":                          "p100-pcie-16gb",
	} {
		if c, err := Default().Lookup(name); err != nil || c.ID != want {
			t.Errorf("Lookup(%q) = %q, %v; want %s", name, c.ID, err, want)
		}
	}
	// FP64: the GH200's tensor rate, the P100's vector rate.
	for id, want := range map[string]float64{"gh200-96gb": 67, "p100-pcie-16gb": 4.7, "mi250x": 95.7} {
		got, ok := lookup(t, id).FP64()
		if !ok || !near(float64(got), want*1e12) {
			t.Errorf("%s FP64() = %v, want %v TFLOPS", id, float64(got)/1e12, want)
		}
	}
}

// The Quadro RTX 6000 (Turing) answers to nvidia-smi's name, the rental spellings
// (Lambda's "RTX6000 24GB") and a bare "RTX 6000"; its Ampere, Ada and Blackwell
// successors, whose names share its words, stay apart.
func TestQuadroRTX6000Names(t *testing.T) {
	for name, want := range map[string]string{
		"Quadro RTX 6000":                "quadro-rtx-6000", // nvidia-smi
		"NVIDIA Quadro RTX 6000":         "quadro-rtx-6000",
		"Quadro RTX6000":                 "quadro-rtx-6000",
		"Quadro RTX 6000 passive":        "quadro-rtx-6000",
		"RTX 6000":                       "quadro-rtx-6000",
		"RTX6000":                        "quadro-rtx-6000",
		"RTX6000 24GB":                   "quadro-rtx-6000", // Lambda, through SkyPilot
		"RTX 6000 24GB":                  "quadro-rtx-6000",
		"Quadro RTX 6000 24GB":           "quadro-rtx-6000",
		"RTX 6000 Ada Generation":        "rtx-6000-ada",
		"NVIDIA RTX 6000 Ada Generation": "rtx-6000-ada",
		"RTX 6000 Ada":                   "rtx-6000-ada",
		"RTX6000 Ada":                    "rtx-6000-ada",
		"RTX 6000 Ada 48GB":              "rtx-6000-ada",
		"RTX A6000":                      "rtx-a6000",
		"NVIDIA RTX A6000":               "rtx-a6000",
		"A6000":                          "rtx-a6000",
		"RTX PRO 6000":                   "rtx-pro-6000-blackwell",
		"RTX 6000 Blackwell":             "rtx-pro-6000-blackwell",
		"RTX PRO 6000 96GB":              "rtx-pro-6000-blackwell",
	} {
		if c, err := Default().Lookup(name); err != nil || c.ID != want {
			t.Errorf("Lookup(%q) = %q, %v; want %s", name, c.ID, err, want)
		}
	}
	// Names of other cards, or of the Quadro with the wrong memory, find nothing.
	for _, name := range []string{"RTX 6000 48GB", "RTX 6000 24GB Blackwell", "Quadro RTX 8000", "RTX A6000 24GB"} {
		if c, err := Default().Lookup(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup(%q) = %q, %v; want ErrNotFound", name, c.ID, err)
		}
	}
	// One FP16 rate, whichever the accumulator: not a GeForce figure.
	c := lookup(t, "quadro-rtx-6000")
	if c.FP32Accumulate || c.SparsePublished || c.Architecture != "Turing" || c.MemoryNominal != 24*sizing.GB || c.MemoryType != "GDDR6" {
		t.Errorf("quadro-rtx-6000: fp32 accumulate %v, sparse %v, %s, %d GB %s; want false, false, Turing, 24 GB GDDR6",
			c.FP32Accumulate, c.SparsePublished, c.Architecture, c.MemoryNominal/sizing.GB, c.MemoryType)
	}
}
