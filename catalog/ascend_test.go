package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/sizing"
)

// The Ascend 910B the catalog holds is the 910B2: the SKU Huawei's CANN
// documentation takes as the Atlas A2 series' example, with 64 GB, eight to an
// Atlas 800T A2 server, as rental listings mean by "910B". Its figures, by source:
//
//   - HW-CANN-A2 (Huawei CANN docs, operator migration guide and its issue 6033):
//     24 AI cores at 1.8 GHz; cube rate 353.9 TFLOPS in FP16 and BF16 (24 × 4096
//     MACs × 2 × 1.8 GHz; the guide's "353T/376T", the 376 adding the vector
//     units' 22); 64 GB at 1.6 TB/s. No FP32, TF32, FP8 or INT8 rate.
//   - AC-910B (secondary): HBM2e, 400 W, HCCS 56 GB/s to each of seven peers, 392
//     GB/s in all; npu-smi's HBM capacity 65536 MB (on a 910B1).
//   - HW-910 (secondary, for the 910): PCIe 4.0 to the host.
//
// The other SKUs' figures, as they circulate, for the record and not pinned:
// 910B1 64 GB (FP16 quoted from 313 to 376; AC-910B's npu-smi capture of a 910B1
// shows 24 AI cores at 1.8 GHz, as on the 910B2); 910B3 64 GB, 20 cores, 294.9
// FP16 (20 × 4096 × 2 × 1.8 GHz), 1.6 TB/s; 910B4 32 GB, 245.7 FP16, 0.8 TB/s;
// FP16 "256" (the 2019 Ascend 910's), "280" and "320" (no SKU named); bandwidth
// 0.8, 1.2 or 1.6 TB/s; TDP 300 to 400 W (the 2019 910: 350 W design, 310 W
// measured).
func TestAscend910B(t *testing.T) {
	c := lookup(t, "ascend-910b2")
	if c.Vendor != "huawei" || c.Market != MarketChina || c.Confidence != "mixed" {
		t.Errorf("vendor %q market %q confidence %q; want huawei, china, mixed", c.Vendor, c.Market, c.Confidence)
	}
	if c.Memory != 65536*sizing.MiB || c.MemoryNominal != 64*sizing.GB || c.MemoryReported {
		t.Errorf("memory %d MiB (nominal %d GB, reported %v); want 65536, 64, not from nvidia-smi",
			c.Memory/sizing.MiB, c.MemoryNominal/sizing.GB, c.MemoryReported)
	}
	if !near(float64(c.MemoryBandwidth), 1600e9) {
		t.Errorf("bandwidth %v GB/s, want 1600", c.MemoryBandwidth.GBps())
	}
	for _, tc := range []struct {
		p      sizing.Precision
		tflops float64 // 0: no rate
	}{
		{sizing.FP16, 353.9},
		{sizing.BF16, 353.9},
		{sizing.Q4_K_M, 353.9}, // dequantized to 16 bits
		{sizing.FP32, 0},       // Huawei publishes none
		{sizing.TF32, 0},
		{sizing.FP8, 0},
		{sizing.INT8, 0},
		{sizing.FP64, 0},
	} {
		got, ok := c.Peak(tc.p)
		if ok != (tc.tflops > 0) || !near(float64(got), tc.tflops*1e12) {
			t.Errorf("Peak(%v) = %v TFLOPS, %v; want %v", tc.p, float64(got)/1e12, ok, tc.tflops)
		}
	}
	if _, ok := c.FP64(); ok {
		t.Error("FP64() reports a rate")
	}
	if c.Link != LinkHCCS || !near(float64(c.NVLink), 392e9) || c.PCIeGen != 4 || c.TDP != 400 {
		t.Errorf("link %s %v GB/s, PCIe %d, TDP %d W; want hccs 392, 4, 400", c.Link, c.NVLink.GBps(), c.PCIeGen, c.TDP)
	}
	for _, f := range []string{"year", "memory_type", "nvlink_gb_per_s", "pcie_gen", "tdp_watts"} {
		if !contains(c.Unconfirmed, f) {
			t.Errorf("unconfirmed %v lacks %s", c.Unconfirmed, f)
		}
	}
	for _, f := range []string{"memory_bandwidth_gb_per_s", "peaks_tflops.fp16", "peaks_tflops.bf16"} {
		if contains(c.Unconfirmed, f) {
			t.Errorf("unconfirmed %v holds %s, which Huawei's documentation gives", c.Unconfirmed, f)
		}
	}
	if s, ok := SourceByKey("HW-CANN-A2"); !ok || s.Kind != "vendor-docs" || !strings.Contains(s.Title, "353.9") {
		t.Errorf("source HW-CANN-A2 = %+v, %v", s, ok)
	}
}

// The names rental listings, npu-smi, torch_npu and Chinese text give the card
// find it; other SKUs and the 2019 Ascend 910 do not.
func TestAscendNames(t *testing.T) {
	for _, name := range []string{
		"910B", "Ascend 910B", "Ascend910B", "ascend-910b", "Huawei Ascend 910B",
		"昇腾910B", "华为昇腾910B", "昇腾 910B 64GB", "ＡＳＣＥＮＤ　９１０Ｂ", // Chinese and fullwidth
		"910B2", "Ascend910B2", "Ascend 910B2", "ascend-910b2", // npu-smi, torch_npu, the ID
		"910B 64GB", "64G 910B", "Ascend 910B 64GB",
	} {
		if c, err := Default().Lookup(name); err != nil || c.ID != "ascend-910b2" {
			t.Errorf("Lookup(%q) = %q, %v; want ascend-910b2", name, c.ID, err)
		}
	}
	for _, name := range []string{"910B3", "Ascend 910B4", "910B4 32GB", "Ascend 910", "910B 32GB", "Ascend", "Huawei"} {
		if c, err := Default().Lookup(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Lookup(%q) = %q, %v; want not found", name, c.ID, err)
		}
	}
}

// A card may lack an FP32 rate (the vendor publishes none) but not every rate
// that 16- and 32-bit work is timed at.
func TestValidateWithoutFP32(t *testing.T) {
	c := lookup(t, "a100-sxm4-80gb").clone()
	c.Peaks.FP32 = Rate{}
	if err := c.Validate(); err != nil {
		t.Errorf("A100 without FP32: %v", err)
	}
	c.Peaks.FP16, c.Peaks.BF16 = Rate{}, Rate{}
	if err := c.Validate(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "no FP32, FP16 or BF16 peak") {
		t.Errorf("A100 without FP32, FP16 or BF16: %v, want ErrInvalid", err)
	}
}

// PeerLink(1) on the Ascend is PCIe, and the baseline names the links used; the
// mesh's share for 2 to 16 NPUs is in TestMeshPeerLink.
func TestHCCSPeerLink(t *testing.T) {
	c := lookup(t, "ascend-910b2")
	if l, kind, err := c.PeerLink(1); err != nil || kind != LinkNone {
		t.Errorf("PeerLink(1) = %v, %q, %v; want PCIe", l, kind, err)
	}
}
