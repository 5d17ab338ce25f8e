package catalog

import (
	"errors"
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
