package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

// TestCards2026 pins the published figures of the cards people rent in 2026, each
// with its source (the keys are in Sources). Rates are dense, TFLOPS (TOPS for
// INT8); 0 means the catalog records no rate. Memory is nvidia-smi's memory.total
// where public logs show it.
func TestCards2026(t *testing.T) {
	tests := []struct {
		card                   string
		memMiB                 int64
		bwGBps                 float64
		fp32, bf16, fp8, fp4   float64
		link                   LinkKind
		linkGBps               float64
		domain, pcie, tdp      int
		market                 Market
		nominalGB              int64
		sparse, fp32Accumulate bool
	}{
		// NV-HGX (HGX B300, per GPU: 108 PF dense FP4, 72 PF sparse FP8 and 36 PF
		// sparse BF16 over 8 GPUs; 600 TF FP32 over 8; NVLink 1.8 TB/s) and
		// NV-BWULTRA (288 GB HBM3E at 8 TB/s, PCIe Gen 6); nvidia-smi
		// "NVIDIA B300 SXM6 AC, 275040 MiB" with a 1100 W limit.
		{"b300-hgx-288gb", 275040, 8000, 75, 2250, 4500, 13500, LinkNVLink, 1800, 0, 6, 1100, MarketGlobal, 288, true, false},
		// NV-GB200 (per GPU at 1,200 W: FP4 10, FP8 5, BF16 2.5 PF dense, FP32 90 TF;
		// 72 GPUs in one NVLink domain); nvidia-smi "NVIDIA GB200, 189471 MiB".
		{"gb200-nvl72-186gb", 189471, 8000, 90, 2500, 5000, 10000, LinkNVLink, 1800, 72, 5, 1200, MarketGlobal, 186, true, false},
		// NV-GB300 (1,080 PF dense FP4 over 72 GPUs: 15 each; FP8 720 and BF16 360
		// PF sparse: 5 and 2.5 dense each); FP32 80 from VERDA-BW; nvidia-smi
		// "NVIDIA GB300, 284208 MiB".
		{"gb300-nvl72-288gb", 284208, 8000, 80, 2500, 5000, 15000, LinkNVLink, 1800, 72, 6, 1400, MarketGlobal, 288, true, false},
		// NV-PRO6000: FP32 125, 4,000 AI TOPS sparse FP4 (2,000 dense; FP8 1,000,
		// BF16 500 at full FP32-accumulate rate), 96 GB GDDR7 at 1,792 GB/s, 600 W.
		{"rtx-pro-6000-blackwell", 97887, 1792, 125, 500, 1000, 2000, LinkNone, 0, 0, 5, 600, MarketGlobal, 96, true, false},
		// NV-5090D: 2,375 AI TOPS sparse FP4 (1,187.5 dense), the 5090's 3,352 scaled;
		// BF16 with FP32 accumulate 2375/16; 32 GB at 1,792 GB/s, 575 W.
		{"rtx-5090d", 32607, 1792, 104.8, 148.4, 296.9, 1187.5, LinkNone, 0, 0, 5, 575, MarketChina, 32, true, true},
		// AMD-MI325X: BF16 1,307.4, FP8 2,614.9 dense, 256 GB HBM3E at 6 TB/s,
		// 1,000 W, Infinity Fabric 7 × 128 GB/s; no FP4.
		{"mi325x", 262144, 6000, 163.4, 1307.4, 2614.9, 0, LinkInfinityFabric, 896, 0, 5, 1000, MarketGlobal, 256, true, false},
		// AMD-MI355X: BF16 2,516.6, FP8 5,033.2, MXFP4 10,066.3 dense; 288 GB at
		// 8 TB/s; 1,400 W; Infinity Fabric 7 × 153.6 GB/s.
		{"mi355x", 294912, 8000, 157.3, 2516.6, 5033.2, 10066.3, LinkInfinityFabric, 1075.2, 0, 5, 1400, MarketGlobal, 288, true, false},
		// HW-CM384: two dies, 752 TFLOPS dense FP16/BF16, 128 GB at 3.2 TB/s.
		{"ascend-910c", 131072, 3200, 0, 752, 0, 0, LinkHCCS, 392, 0, 4, 800, MarketChina, 128, false, false},
		// NV-TU102, reference board: FP32 13.4, FP16 with FP32 accumulate 53.8, no
		// BF16; 11 GB at 616 GB/s; NVLink bridge 100 GB/s; 250 W.
		{"rtx-2080-ti", 11264, 616, 13.4, 0, 0, 0, LinkNVLinkBridge, 100, 0, 3, 250, MarketGlobal, 11, false, true},
		// NV-3080TI: FP32 34.1; GA102 GeForce ratios give BF16 68.2; 912 GB/s, 350 W.
		{"rtx-3080-ti", 12288, 912, 34.1, 68.2, 0, 0, LinkNone, 0, 0, 4, 350, MarketGlobal, 12, true, true},
		// NV-A4000: FP32 19.2, tensor 153.4 sparse (76.7 dense), 448 GB/s, 140 W.
		{"rtx-a4000", 16376, 448, 19.2, 76.7, 0, 0, LinkNone, 0, 0, 4, 140, MarketGlobal, 16, true, false},
		// NV-A5000: FP32 27.8, tensor 222.2 sparse (111.1 dense), 768 GB/s, NVLink
		// bridge 112.5 GB/s, 230 W.
		{"rtx-a5000", 24564, 768, 27.8, 111.1, 0, 0, LinkNVLinkBridge, 112.5, 0, 4, 230, MarketGlobal, 24, true, false},
		// NV-TITANXP: FP32 12.15, 547.7 GB/s, 250 W, no tensor cores.
		{"titan-xp", 12288, 547.7, 12.15, 0, 0, 0, LinkNone, 0, 0, 3, 250, MarketGlobal, 12, false, false},
		// CN-4090-48: nvidia-smi "NVIDIA GeForce RTX 4090, 49140 MiB", 450 W; the
		// rest is the 24 GB card's (NV-ADA).
		{"rtx-4090-48gb", 49140, 1008, 82.6, 165.2, 330.3, 0, LinkNone, 0, 0, 4, 450, MarketChina, 48, true, true},
		// The Blackwell cards already in the catalog gain their FP4 rates: the RTX
		// Blackwell whitepaper's 5090 (3,352 sparse, 1,676 dense) and NV-HGX's
		// HGX B200 (72 PF dense over 8 GPUs).
		{"rtx-5090", 32607, 1792, 104.8, 209.5, 419, 1676, LinkNone, 0, 0, 5, 575, MarketGlobal, 32, true, true},
		{"b200-hgx-180gb", 183359, 8000, 75, 2250, 4500, 9000, LinkNVLink, 1800, 0, 5, 1000, MarketGlobal, 180, true, false},
	}
	rate := func(t *testing.T, name string, got Rate, want float64) {
		t.Helper()
		if want == 0 {
			if got.Supported {
				t.Errorf("%s = %v TFLOPS, want none recorded", name, float64(got.Value/compute.TFLOPS))
			}
			return
		}
		if !got.Supported || !near(float64(got.Value), want*1e12) {
			t.Errorf("%s = %v TFLOPS (supported %v), want %v", name, float64(got.Value/compute.TFLOPS), got.Supported, want)
		}
	}
	for _, tt := range tests {
		t.Run(tt.card, func(t *testing.T) {
			c := lookup(t, tt.card)
			if c.Memory != sizing.Bytes(tt.memMiB)*sizing.MiB || c.MemoryNominal != sizing.Bytes(tt.nominalGB)*sizing.GB {
				t.Errorf("memory %d MiB, nominal %d GB; want %d, %d", c.Memory/sizing.MiB, c.MemoryNominal/sizing.GB, tt.memMiB, tt.nominalGB)
			}
			if !near(float64(c.MemoryBandwidth), tt.bwGBps*1e9) {
				t.Errorf("bandwidth %v GB/s, want %v", float64(c.MemoryBandwidth/compute.GBps), tt.bwGBps)
			}
			rate(t, "FP32", c.Peaks.FP32, tt.fp32)
			if c.Peaks.FP16.Supported && !c.Peaks.BF16.Supported {
				rate(t, "FP16", c.Peaks.FP16, map[string]float64{"rtx-2080-ti": 53.8, "titan-xp": 12.15}[tt.card])
			} else {
				rate(t, "BF16", c.Peaks.BF16, tt.bf16)
			}
			rate(t, "FP8", c.Peaks.FP8, tt.fp8)
			rate(t, "FP4", c.Peaks.FP4, tt.fp4)
			if c.Link != tt.link || !near(float64(c.NVLink), tt.linkGBps*1e9) || c.NVLinkDomain != tt.domain {
				t.Errorf("link %s %v GB/s, domain %d; want %s %v, %d", c.Link, float64(c.NVLink/compute.GBps), c.NVLinkDomain, tt.link, tt.linkGBps, tt.domain)
			}
			if c.PCIeGen != tt.pcie || c.TDP != tt.tdp || c.Market != tt.market {
				t.Errorf("PCIe %d, %d W, market %s; want %d, %d W, %s", c.PCIeGen, c.TDP, c.Market, tt.pcie, tt.tdp, tt.market)
			}
			if c.SparsePublished != tt.sparse || c.FP32Accumulate != tt.fp32Accumulate {
				t.Errorf("sparse published %v, FP32 accumulate %v; want %v, %v", c.SparsePublished, c.FP32Accumulate, tt.sparse, tt.fp32Accumulate)
			}
		})
	}
}

func TestLinkDomain(t *testing.T) {
	for id, want := range map[string]int{
		"gb200-nvl72-186gb": 72, "gb300-nvl72-288gb": 72, // NVL72: one rack, one NVLink domain
		"b300-hgx-288gb": 8, "h100-sxm5-80gb": 8, // zero: one 8-GPU server
		"mi355x": 8, "ascend-910b2": 8, // other board-wide links
		"a100-pcie-80gb": 2, "rtx-a5000": 2, // bridges join pairs
		"rtx-4090": 1, "rtx-pro-6000-blackwell": 1,
	} {
		if got := lookup(t, id).LinkDomain(); got != want {
			t.Errorf("%s LinkDomain() = %d, want %d", id, got, want)
		}
	}
}

// The 48 GB RTX 4090 is a card of its own, read as such by its memory, with its
// caveats where a planner and a reader see them.
func TestRTX4090With48GB(t *testing.T) {
	c := lookup(t, "rtx-4090-48gb")
	if c.ReportsAs != "rtx-4090" || c.Caveat == "" || !strings.Contains(c.MemoryNote, "no NVIDIA datasheet") ||
		c.Confidence != "secondary" || c.Market != MarketChina {
		t.Errorf("rtx-4090-48gb: reports as %q, caveat %q, note %q, %s, %s", c.ReportsAs, c.Caveat, c.MemoryNote, c.Confidence, c.Market)
	}
	for _, k := range Default().Cards() {
		if k.ID != "rtx-4090-48gb" && k.Caveat != "" {
			t.Errorf("%s has a caveat: %q", k.ID, k.Caveat)
		}
	}
	for name, want := range map[string][]string{
		"RTX 4090":         {"rtx-4090"}, // stays the 24 GB card
		"4090 RTX":         {"rtx-4090"},
		"GeForce RTX 4090": {"rtx-4090"},
		"RTX 4090 24G":     {"rtx-4090"},
		"RTX 4090 48GB":    {"rtx-4090-48gb"},
		"4090 48G":         {"rtx-4090-48gb"},
		"48GB RTX4090":     {"rtx-4090-48gb"},
		"魔改4090 48G":       {"rtx-4090-48gb"}, // "modified 4090", as Chinese listings write it
	} {
		got, err := Default().Candidates(name)
		if err != nil {
			t.Errorf("Candidates(%q): %v", name, err)
			continue
		}
		if diff := cmp.Diff(want, ids(got)); diff != "" {
			t.Errorf("Candidates(%q) (-want +got):\n%s", name, diff)
		}
	}

	// Verify reads nvidia-smi's shared name by the memory.
	devs48 := devices(2, "NVIDIA GeForce RTX 4090", 49140)
	r, err := Default().Verify("RTX 4090 48GB", 2, devs48, nil)
	if err != nil || !r.OK() {
		t.Errorf("48 GB cards for a 48 GB listing: %v, problems %q", err, r.Problems)
	}
	r, err = Default().Verify("4090 48G", 1, devices(1, "NVIDIA GeForce RTX 4090", 24564), nil)
	if err != nil || len(r.Problems) != 2 || !strings.Contains(r.Problems[0], "(rtx-4090), not the advertised GeForce RTX 4090 48GB") ||
		!strings.Contains(r.Problems[1], "48 GB sold, 24 GB delivered") {
		t.Errorf("24 GB card for a 48 GB listing: %v, problems %q", err, r.Problems)
	}
	r, err = Default().Verify("RTX 4090", 1, devs48[:1], nil)
	if err != nil || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "rtx-4090-48gb") {
		t.Errorf("48 GB card for a 24 GB listing: %v, problems %q", err, r.Problems)
	}
}

func TestReportsAsRejects(t *testing.T) {
	c := lookup(t, "rtx-4090-48gb")
	for _, tt := range []struct {
		reportsAs string
		want      string
	}{
		{"rtx-9090", `reports as "rtx-9090", which is no card's ID`},
		{"RTX 4090", `reports as "RTX 4090", which is no card's ID`}, // an ID, not a name
		{"rtx-4090-48gb", "reports as itself"},
	} {
		k := c
		k.ReportsAs = tt.reportsAs
		_, err := New(lookup(t, "rtx-4090"), k)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(fmt.Sprint(err), tt.want) {
			t.Errorf("ReportsAs %q: %v; want %q", tt.reportsAs, err, tt.want)
		}
	}
	// No chains: a card that reports as one that reports as another.
	a, b, z := lookup(t, "rtx-4090"), c, userCard(t, "rtx-4090-96gb", "RTX 4090 96GB")
	z.ReportsAs = "rtx-4090-48gb"
	if _, err := New(a, b, z); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "in turn") {
		t.Errorf("chain: %v", err)
	}
}

func TestNVLinkDomainRejects(t *testing.T) {
	for _, tt := range []struct {
		card   string
		domain int
	}{
		{"h100-sxm5-80gb", 1}, {"h100-sxm5-80gb", -8}, {"h100-sxm5-80gb", maxDomain + 1},
		{"rtx-4090", 8},       // no link
		{"a100-pcie-80gb", 8}, // a bridge joins pairs
	} {
		c := lookup(t, tt.card)
		c.NVLinkDomain = tt.domain
		if err := c.Validate(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "NVLink domain") {
			t.Errorf("%s with domain %d: %v", tt.card, tt.domain, err)
		}
	}
}

// TestPeakFP4: the FP4 formats get the FP4 rate where the card computes them
// natively, else the 16-bit rate (figures as in TestCards2026).
func TestPeakFP4(t *testing.T) {
	for _, tt := range []struct {
		card   string
		p      sizing.Precision
		tflops float64
	}{
		{"gb300-nvl72-288gb", sizing.NVFP4, 15000},
		{"gb300-nvl72-288gb", sizing.MXFP4, 15000},
		{"b200-hgx-180gb", sizing.MXFP4, 9000},
		{"rtx-5090", sizing.NVFP4, 1676},
		{"rtx-pro-6000-blackwell", sizing.NVFP4, 2000},
		{"mi355x", sizing.MXFP4, 10066.3},
		{"mi355x", sizing.NVFP4, 2516.6}, // no NVFP4 unit: the 16-bit rate
		{"h100-sxm5-80gb", sizing.MXFP4, 989.5},
		{"mi325x", sizing.MXFP4, 1307.4},
		{"rtx-4090", sizing.NVFP4, 165.2},
		{"titan-xp", sizing.MXFP4, 12.15},
		{"ascend-910c", sizing.MXFP4, 752},
	} {
		got, ok := lookup(t, tt.card).Peak(tt.p)
		if !ok || !near(float64(got), tt.tflops*1e12) {
			t.Errorf("%s Peak(%s) = %v TFLOPS, %v; want %v", tt.card, tt.p, float64(got/compute.TFLOPS), ok, tt.tflops)
		}
	}
	// Every card with an FP4 rate says which formats it computes; no other does.
	for _, c := range Default().Cards() {
		if c.Peaks.FP4.Supported != (len(c.FP4Formats) > 0) {
			t.Errorf("%s: FP4 peak %v with formats %v", c.ID, c.Peaks.FP4.Supported, c.FP4Formats)
		}
	}
	if f := lookup(t, "mi355x").FP4Formats; len(f) != 1 || f[0] != sizing.MXFP4 {
		t.Errorf("mi355x FP4 formats %v, want MXFP4 alone", f)
	}
}

func TestFP4Rejects(t *testing.T) {
	base := lookup(t, "gb200-nvl72-186gb")
	for name, mod := range map[string]func(c *Card){
		"rate without formats": func(c *Card) { c.FP4Formats = nil },
		"formats without rate": func(c *Card) { c.Peaks.FP4 = Rate{} },
		"not an FP4 format":    func(c *Card) { c.FP4Formats = []sizing.Precision{sizing.FP8} },
		"format twice":         func(c *Card) { c.FP4Formats = []sizing.Precision{sizing.NVFP4, sizing.NVFP4} },
		"FP4 below FP8":        func(c *Card) { c.Peaks.FP4 = RateOf(c.Peaks.FP8.Value / 2) },
	} {
		c := base
		c.FP4Formats = slices.Clone(base.FP4Formats)
		mod(&c)
		if err := c.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate() = %v, want ErrInvalid", name, err)
		}
	}
	data, _ := json.Marshal([]Card{base})
	bad := strings.Replace(string(data), `"fp4_formats":["nvfp4","mxfp4"]`, `"fp4_formats":["fp8"]`, 1)
	if bad == string(data) {
		t.Fatalf("no fp4_formats in %s", data)
	}
	if _, err := Load(strings.NewReader(bad)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `fp4_formats: "fp8"`) {
		t.Errorf("Load with fp4_formats [fp8]: %v", err)
	}
}
