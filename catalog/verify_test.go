package catalog

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/sizing"
)

func devices(n int, name string, mib int64) []Device {
	d := make([]Device, n)
	for i := range d {
		d[i] = Device{Index: i, Name: name, Memory: sizing.Bytes(mib) * sizing.MiB}
	}
	return d
}

func topoFile(t *testing.T, path string) *Topology {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	topo, err := ParseTopology(f)
	if err != nil {
		t.Fatal(err)
	}
	return &topo
}

func TestVerify(t *testing.T) {
	nv12 := topoFile(t, "testdata/topo_a100x8_nv12.txt")
	split := topoFile(t, "testdata/topo_a100x8_split.txt")
	pcie8 := topoFile(t, "testdata/topo_4090x8_pcie.txt")
	phb2 := topoFile(t, "testdata/topo_2gpu_phb.txt")
	bridge2 := topoFile(t, "testdata/topo_2gpu_nv4_bridge.txt")
	a100 := devices(8, "NVIDIA A100-SXM4-80GB", 81920)
	tests := []struct {
		name       string
		advertised string
		gpus       int
		devs       []Device
		topo       *Topology
		problems   []string // substrings, one per problem expected, in order
		notes      []string // substrings that must appear among the notes
	}{
		{name: "8x A100 80GB as advertised", advertised: "A100-80GB", gpus: 8, devs: a100, topo: nv12},
		{name: "older driver reserves 669 MiB", advertised: "a100-sxm4-80gb", gpus: 1,
			devs: devices(1, "NVIDIA A100-SXM4-80GB", 81251)},
		{name: "80 GB sold, 40 GB delivered", advertised: "NVIDIA A100-SXM4-80GB", gpus: 2,
			devs: devices(2, "NVIDIA A100-SXM4-40GB", 40960), topo: nil,
			problems: []string{"GPU 0 reports NVIDIA A100-SXM4-40GB", "GPU 0 has 40960 MiB", "GPU 1 reports NVIDIA A100-SXM4-40GB", "GPU 1 has 40960 MiB"},
			notes:    []string{"not checked"}},
		{name: "memory cut under the right name", advertised: "a100-sxm4-80gb", gpus: 1,
			devs: devices(1, "NVIDIA A100-SXM4-80GB", 40960), problems: []string{"80 GB sold, 40 GB delivered"}},
		{name: "fewer GPUs than ordered", advertised: "a100-sxm4-80gb", gpus: 8, devs: a100[:4], topo: nv12,
			problems: []string{"8 GPUs ordered, 4 delivered"}},
		{name: "another model: A800 for A100", advertised: "a100-sxm4-80gb", gpus: 1,
			devs: devices(1, "NVIDIA A800-SXM4-80GB", 81920), problems: []string{"a800-sxm4-80gb"}},
		{name: "another model: 4090 D for 4090", advertised: "RTX 4090", gpus: 1,
			devs: devices(1, "NVIDIA GeForce RTX 4090 D", 24564), problems: []string{"rtx-4090d"}},
		{name: "another model: A10G for A10", advertised: "A10", gpus: 1,
			devs: devices(1, "NVIDIA A10G", 23028), problems: []string{"a10g"}},
		{name: "A10G as advertised", advertised: "A10G", gpus: 4, devs: devices(4, "NVIDIA A10G", 23028),
			topo: nil, notes: []string{"not checked"}},
		{name: "H100 NVL pair with its bridge", advertised: "H100 NVL", gpus: 2,
			devs: devices(2, "NVIDIA H100 NVL", 95830), topo: bridge2},
		{name: "H100 PCIe delivered for H100 NVL", advertised: "H100 NVL", gpus: 1,
			devs: devices(1, "NVIDIA H100 PCIe", 81559), problems: []string{"h100-pcie-80gb", "81559 MiB"}},
		{name: "unknown device", advertised: "RTX 4090", gpus: 1,
			devs: devices(1, "NVIDIA GeForce RTX 4080", 16376), problems: []string{"not the advertised", "16376 MiB"}},
		{name: "SXM board with the NVLink halves cut", advertised: "a100-sxm4-80gb", gpus: 8, devs: a100, topo: split,
			problems: []string{"16 of 28 GPU pairs are joined by PCIe only"}},
		{name: "SXM set on a PCIe box", advertised: "h100-sxm5-80gb", gpus: 2,
			devs: devices(2, "NVIDIA H100 80GB HBM3", 81559), topo: phb2, problems: []string{"1 of 1 GPU pairs are joined by PCIe only, not NVLink as the H100 SXM5 80GB's baseboard provides: GPU0-GPU1 PHB."}},
		{name: "topology shorter than the order", advertised: "a100-sxm4-80gb", gpus: 8, devs: a100, topo: phb2,
			problems: []string{"topology lists 2 GPUs; 8 were delivered", "1 of 1 GPU pairs"}},
		{name: "4090 box: no NVLink is a note", advertised: "RTX 4090", gpus: 8,
			devs: devices(8, "NVIDIA GeForce RTX 4090", 24564), topo: pcie8, notes: []string{"has no NVLink"}},
		{name: "bridge card without bridges is a note", advertised: "A100 80GB PCIe", gpus: 2,
			devs: devices(2, "NVIDIA A100 80GB PCIe", 81920), topo: phb2, notes: []string{"No NVLink bridges"}},
		{name: "bridge card with a bridge", advertised: "A100 80GB PCIe", gpus: 2,
			devs: devices(2, "NVIDIA A100 80GB PCIe", 81920), topo: bridge2},
		{name: "links unchecked without topology", advertised: "a100-sxm4-80gb", gpus: 8, devs: a100,
			notes: []string{"GPU links were not checked"}},
		{name: "more GPUs than ordered is a note", advertised: "a100-sxm4-80gb", gpus: 2, devs: a100, topo: nv12,
			notes: []string{"8 GPUs visible, 2 ordered"}},
		{name: "nothing delivered", advertised: "t4", gpus: 1, problems: []string{"1 GPUs ordered, 0 delivered"}},
		// A listing is held to what it says. "A100 80GB" reads as the SXM4 board
		// (SkyPilot's meaning) but does not say it: the PCIe board is a note, and
		// its links are checked as a PCIe card's.
		{name: "board not named: PCIe A100 80GB for \"A100 80GB\"", advertised: "A100 80GB", gpus: 8,
			devs: devices(8, "NVIDIA A100 80GB PCIe", 81920), topo: pcie8,
			notes: []string{"does not name the board", "No NVLink bridges"}},
		{name: "board named: PCIe for SXM4 is a problem", advertised: "A100 SXM4 80GB", gpus: 1,
			devs: devices(1, "NVIDIA A100 80GB PCIe", 81920), problems: []string{"a100-pcie-80gb"}},
		{name: "board not named, memory still held", advertised: "A100 80GB", gpus: 1,
			devs: devices(1, "NVIDIA A100-SXM4-40GB", 40960), problems: []string{"a100-sxm4-40gb", "40960 MiB"}},
		// A family name allows any of its cards, each held to its own memory and links.
		{name: "family: PCIe H100 for \"H100 80GB\"", advertised: "H100 80GB", gpus: 2,
			devs: devices(2, "NVIDIA H100 PCIe", 81559), topo: phb2, notes: []string{"names a family"}},
		{name: "family: SXM H100 pair on PCIe links", advertised: "H100 80GB", gpus: 2,
			devs: devices(2, "NVIDIA H100 80GB HBM3", 81559), topo: phb2,
			problems: []string{"1 of 1 GPU pairs are joined by PCIe only"}},
		{name: "family: memory of the card delivered", advertised: "A100", gpus: 1,
			devs: devices(1, "NVIDIA A100-SXM4-80GB", 40960), problems: []string{"GPU 0 has 40960 MiB of memory; the A100 SXM4 80GB it reports has 81920 MiB"}},
		{name: "family: mixed cards are a problem", advertised: "A100", gpus: 2,
			devs:     []Device{{Index: 0, Name: "NVIDIA A100-SXM4-80GB", Memory: 81920 * sizing.MiB}, {Index: 1, Name: "NVIDIA A100-PCIE-40GB", Memory: 40960 * sizing.MiB}},
			problems: []string{"not all the same card (a100-sxm4-80gb, a100-pcie-40gb)"}},
		{name: "family: a spare GPU of another kind is only a note", advertised: "A100", gpus: 1,
			devs:  []Device{{Index: 0, Name: "NVIDIA A100-SXM4-80GB", Memory: 81920 * sizing.MiB}, {Index: 1, Name: "NVIDIA A100-PCIE-40GB", Memory: 40960 * sizing.MiB}},
			notes: []string{"2 GPUs visible, 1 ordered"}},
		{name: "board not named: SXM4 and PCIe mixed", advertised: "A100 80GB", gpus: 2,
			devs:     []Device{{Index: 0, Name: "NVIDIA A100-SXM4-80GB", Memory: 81920 * sizing.MiB}, {Index: 1, Name: "NVIDIA A100 80GB PCIe", Memory: 81920 * sizing.MiB}},
			problems: []string{"not all the same card"}},
		{name: "fullwidth listing names the board", advertised: "Ａ１００－ＳＸＭ４－８０ＧＢ", gpus: 1,
			devs: devices(1, "NVIDIA A100 80GB PCIe", 81920), problems: []string{"a100-pcie-80gb"}},
		{name: "family: a T4 is none of the A100s", advertised: "A100", gpus: 1,
			devs: devices(1, "Tesla T4", 15360), problems: []string{`not the advertised "A100" (a100-pcie-40gb or`, "15360 MiB of memory; the smallest card advertised, the A100 PCIe 40GB, has 40960 MiB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Default().Verify(tt.advertised, tt.gpus, tt.devs, tt.topo)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Problems) != len(tt.problems) {
				t.Fatalf("problems %q, want %d matching %q", r.Problems, len(tt.problems), tt.problems)
			}
			for i, p := range tt.problems {
				if !strings.Contains(r.Problems[i], p) {
					t.Errorf("problem %d = %q, want it to contain %q", i, r.Problems[i], p)
				}
			}
			if r.OK() != (len(tt.problems) == 0) {
				t.Errorf("OK() = %v with problems %q", r.OK(), r.Problems)
			}
			for _, n := range tt.notes {
				if !strings.Contains(strings.Join(r.Notes, "\n"), n) {
					t.Errorf("notes %q lack %q", r.Notes, n)
				}
			}
		})
	}
}

func TestVerifyErrors(t *testing.T) {
	devs := devices(1, "Tesla T4", 15360)
	if _, err := Default().Verify("Z9000", 1, devs, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown advertised: %v", err)
	}
	for _, n := range []int{0, -3} {
		if _, err := Default().Verify("t4", n, devs, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("gpus %d: %v", n, err)
		}
	}
}

// Verify reads nvidia-smi's output, which lists NVIDIA GPUs only: an order of
// Huawei NPUs or AMD GPUs could never be checked, so it is refused, with or
// without devices, naming the tool that lists such cards, rather than held
// against nvidia-smi rows.
func TestVerifyRefusesCardsNvidiaSMIDoesNotSee(t *testing.T) {
	for _, tc := range []struct {
		advertised string
		devs       []Device
		want       string
	}{
		{"910B", nil, "catalog: Verify: the Ascend 910B2 is a Huawei NPU, which nvidia-smi does not see; npu-smi is the tool that checks Ascend machines: invalid input"},
		{"昇腾910B", devices(8, "NVIDIA A100-SXM4-80GB", 81920), "npu-smi"},
		{"MI300X", nil, "catalog: Verify: the Instinct MI300X is an AMD GPU, which nvidia-smi does not see; rocm-smi is the tool that checks AMD machines: invalid input"},
		{"AMD Instinct MI250X", devices(8, "NVIDIA A100-SXM4-80GB", 81920), "rocm-smi"},
	} {
		r, err := Default().Verify(tc.advertised, 8, tc.devs, nil)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Verify(%q) = %v; want ErrInvalid with %q", tc.advertised, err, tc.want)
		}
		if r.Advertised != "" || r.Problems != nil || r.Notes != nil {
			t.Errorf("Verify(%q) reported %+v alongside the error", tc.advertised, r)
		}
	}
	// A card of another vendor that a loaded list holds is refused too.
	c := lookup(t, "t4").clone()
	c.ID, c.Name, c.Vendor, c.Aliases, c.Families = "gaudi-x", "Gaudi X", "intel", nil, nil
	cat, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cat.Verify("gaudi-x", 1, nil, nil)
	if want := "the Gaudi X is not an NVIDIA GPU, which nvidia-smi does not see; its vendor's tools check such machines"; !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
		t.Errorf("Verify(gaudi-x) = %v; want ErrInvalid with %q", err, want)
	}
}
