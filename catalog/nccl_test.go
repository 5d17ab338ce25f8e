package catalog

import (
	"errors"
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/compute"
)

// PeerLink: a baseboard's NVLink joins any count, a bridge a pair only, and the rest
// talk over PCIe of the card's generation.
func TestPeerLink(t *testing.T) {
	cat := Default()
	for _, tc := range []struct {
		card string
		n    int
		kind LinkKind
		bw   compute.Bandwidth
	}{
		{"a100-sxm4-80gb", 8, LinkNVLink, compute.NVLink(600 * compute.GBps).Bandwidth},
		{"a100-sxm4-80gb", 1, LinkNone, 0},
		{"a100-pcie-80gb", 2, LinkNVLinkBridge, compute.NVLink(600 * compute.GBps).Bandwidth},
		{"a100-pcie-80gb", 4, LinkNone, 0},
		{"rtx-4090", 8, LinkNone, 0},
	} {
		c, err := cat.Lookup(tc.card)
		if err != nil {
			t.Fatal(err)
		}
		l, kind, err := c.PeerLink(tc.n)
		if err != nil || kind != tc.kind {
			t.Errorf("%s.PeerLink(%d) = kind %q, %v; want %q", tc.card, tc.n, kind, err, tc.kind)
			continue
		}
		want := tc.bw
		if kind == LinkNone {
			pcie, _ := compute.PCIeLink(c.PCIeGen)
			want = pcie.Bandwidth
		}
		if l.Bandwidth != want || l.Latency != 0 {
			t.Errorf("%s.PeerLink(%d) = %v, want %v and no latency", tc.card, tc.n, l, want)
		}
	}
	bad := Card{ID: "x", PCIeGen: 9}
	if _, _, err := bad.PeerLink(2); !errors.Is(err, ErrInvalid) {
		t.Errorf("PeerLink with PCIe Gen9: %v, want ErrInvalid", err)
	}
}

// A full mesh joins each device of a server to each of its seven peers by a link
// of its own, so n devices use n−1 of the seven and get that share of the card's
// total; more than eight get no more than eight. Per link, both directions:
//
//   - Ascend 910B2, HCCS: 56 GB/s, 392 in all (AC-910B: npu-smi info -t topo
//     shows HCCS between every pair of an Atlas 800T A2's eight NPUs).
//   - Instinct MI300X, Infinity Fabric: 128 GB/s, 896 in all. AMD's white paper
//     "Introducing AMD CDNA 3 Architecture" (Figure 9 and Table 2): seven x16
//     Infinity Fabric links per GPU join the eight OAMs of a UBB into a fully
//     connected node, links of 16 lanes at up to 32 Gb/s (64 GB/s each way), 896
//     GB/s peer-to-peer aggregate for 8 GPUs; the MI300X product page gives 128
//     GB/s peak per Infinity Fabric link.
//
// The MI250X keeps its whole 800 GB/s at any count: its node is not such a mesh
// (AMD's ROCm MI250 microarchitecture page joins its dies by single, double and
// quad links; Pearson 2023, "Interconnect Bandwidth Heterogeneity on AMD MI250x
// and Infinity Fabric", measures the difference), so no per-peer share applies.
func TestMeshPeerLink(t *testing.T) {
	for _, tc := range []struct {
		card     string
		n        int
		kind     LinkKind
		perDirGB float64 // per direction
		name     string  // as AllReduceBaseline names the link
	}{
		{"ascend-910b2", 2, LinkHCCS, 28, "HCCS (1 of its 7 links, 56 GB/s)"},
		{"ascend-910b2", 4, LinkHCCS, 84, "HCCS (3 of its 7 links, 168 GB/s)"},
		{"ascend-910b2", 8, LinkHCCS, 196, "HCCS (7 of its 7 links, 392 GB/s)"},
		{"ascend-910b2", 16, LinkHCCS, 196, "HCCS (7 of its 7 links, 392 GB/s)"},
		{"mi300x", 2, LinkInfinityFabric, 64, "Infinity Fabric (1 of its 7 links, 128 GB/s)"},
		{"mi300x", 4, LinkInfinityFabric, 192, "Infinity Fabric (3 of its 7 links, 384 GB/s)"},
		{"mi300x", 8, LinkInfinityFabric, 448, "Infinity Fabric (7 of its 7 links, 896 GB/s)"},
		{"mi300x", 16, LinkInfinityFabric, 448, "Infinity Fabric (7 of its 7 links, 896 GB/s)"},
		{"mi250x", 2, LinkInfinityFabric, 400, "Infinity Fabric (800 GB/s total)"},
		{"mi250x", 8, LinkInfinityFabric, 400, "Infinity Fabric (800 GB/s total)"},
	} {
		c := lookup(t, tc.card)
		l, kind, err := c.PeerLink(tc.n)
		if err != nil || kind != tc.kind || !near(float64(l.Bandwidth), tc.perDirGB*1e9) || l.Latency != 0 {
			t.Errorf("%s.PeerLink(%d) = %v GB/s, %q, %v; want %v GB/s each way over %s",
				tc.card, tc.n, l.Bandwidth.GBps(), kind, err, tc.perDirGB, tc.kind)
		}
		// A ring over a link of b each way runs at a bus bandwidth of b
		// (nccl-tests' busbw = algbw · 2(n−1)/n), within the nanosecond rounding
		// of the ring's time.
		bus, name, err := c.AllReduceBaseline(tc.n)
		if err != nil || math.Abs(float64(bus)/(tc.perDirGB*1e9)-1) > 1e-6 || name != tc.name {
			t.Errorf("%s.AllReduceBaseline(%d) = %v GB/s, %q, %v; want %v GB/s, %q",
				tc.card, tc.n, bus.GBps(), name, err, tc.perDirGB, tc.name)
		}
	}
}
