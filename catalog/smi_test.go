package catalog

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuplan/gpuplan/sizing"
)

func parseFile[T any](t *testing.T, path string, parse func(r *os.File) (T, error)) T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func TestParseSMIFiles(t *testing.T) {
	tests := []struct {
		file string
		n    int
		name string
		mib  int64
	}{
		{"testdata/smi_a100x8.csv", 8, "NVIDIA A100-SXM4-80GB", 81920},
		{"testdata/smi_4090x2_nounits_crlf.csv", 2, "NVIDIA GeForce RTX 4090", 24564},
		{"testdata/smi_a100_40gb_noheader.csv", 2, "NVIDIA A100-SXM4-40GB", 40960},
		{"testdata/smi_t4_noheader_nounits.csv", 1, "Tesla T4", 15360},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			devs := parseFile(t, tt.file, func(f *os.File) ([]Device, error) { return ParseSMI(f) })
			if len(devs) != tt.n {
				t.Fatalf("got %d devices, want %d", len(devs), tt.n)
			}
			for i, d := range devs {
				want := Device{Index: i, Name: tt.name, Memory: sizing.Bytes(tt.mib) * sizing.MiB}
				if diff := cmp.Diff(want, d); diff != "" {
					t.Errorf("device %d mismatch (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

func TestParseSMIVariants(t *testing.T) {
	want := []Device{{0, "NVIDIA H100 80GB HBM3", 81559 * sizing.MiB}, {1, "NVIDIA H100 80GB HBM3", 81559 * sizing.MiB}}
	tests := []struct{ name, in string }{
		{"header, units", "index, name, memory.total [MiB]\n0, NVIDIA H100 80GB HBM3, 81559 MiB\n1, NVIDIA H100 80GB HBM3, 81559 MiB\n"},
		{"header, nounits", "index, name, memory.total [MiB]\n0, NVIDIA H100 80GB HBM3, 81559\n1, NVIDIA H100 80GB HBM3, 81559\n"},
		{"noheader, units", "0, NVIDIA H100 80GB HBM3, 81559 MiB\n1, NVIDIA H100 80GB HBM3, 81559 MiB\n"},
		{"noheader, nounits", "0, NVIDIA H100 80GB HBM3, 81559\n1, NVIDIA H100 80GB HBM3, 81559"},
		{"CRLF and blank lines", "\r\nindex, name, memory.total [MiB]\r\n\r\n0, NVIDIA H100 80GB HBM3, 81559 MiB\r\n1, NVIDIA H100 80GB HBM3, 81559 MiB\r\n\r\n"},
		{"unit without a space", "0, NVIDIA H100 80GB HBM3, 81559MiB\n1, NVIDIA H100 80GB HBM3, 81559MiB\n"},
		{"extra spaces", "  0 ,   NVIDIA H100 80GB HBM3  ,  81559 MiB  \n1,NVIDIA H100 80GB HBM3,81559\n"},
		{"header in another order with an extra column", "name, memory.total [MiB], index, driver_version\nNVIDIA H100 80GB HBM3, 81559 MiB, 0, 550.54.15\nNVIDIA H100 80GB HBM3, 81559 MiB, 1, 550.54.15\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSMI(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSMIErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
	}{
		{"empty", "", 0},
		{"header only", "index, name, memory.total [MiB]\n", 0},
		{"no devices", "No devices were found\n", 1},
		{"garbage", "hello world\n", 1},
		{"missing column", "0, NVIDIA A100-SXM4-80GB\n", 1},
		{"extra column without header", "0, NVIDIA A100-SXM4-80GB, 81920 MiB, 7\n", 1},
		{"negative memory", "0, NVIDIA A100-SXM4-80GB, -81920 MiB\n", 1},
		{"zero memory", "0, NVIDIA A100-SXM4-80GB, 0 MiB\n", 1},
		{"absurd memory", "0, NVIDIA A100-SXM4-80GB, 999999999999 MiB\n", 1},
		{"overflowing memory", "0, NVIDIA A100-SXM4-80GB, 99999999999999999999999 MiB\n", 1},
		{"memory in GiB", "0, NVIDIA A100-SXM4-80GB, 80 GiB\n", 1},
		{"memory N/A", "0, NVIDIA A100-SXM4-80GB, [N/A]\n", 1},
		{"memory with two numbers", "0, NVIDIA A100-SXM4-80GB, 81920 81920 MiB\n", 1},
		{"fractional memory", "0, NVIDIA A100-SXM4-80GB, 81920.5 MiB\n", 1},
		{"negative index", "-1, NVIDIA A100-SXM4-80GB, 81920 MiB\n", 1},
		{"index not a number", "x, NVIDIA A100-SXM4-80GB, 81920 MiB\n", 1},
		{"empty name", "0, , 81920 MiB\n", 1},
		{"repeated index", "0, NVIDIA A100-SXM4-80GB, 81920 MiB\n0, NVIDIA A100-SXM4-80GB, 81920 MiB\n", 2},
		{"bad second line", "index, name, memory.total [MiB]\n0, NVIDIA A100-SXM4-80GB, 81920 MiB\n1, NVIDIA A100-SXM4-80GB\n", 3},
		{"header without memory", "index, name\n0, NVIDIA A100-SXM4-80GB\n", 1},
		{"line too long", "0, " + strings.Repeat("x", 100000) + ", 1 MiB\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			devs, err := ParseSMI(strings.NewReader(tt.in))
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseSMI() = %v, %v; want ErrInvalid", devs, err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not *ParseError", err)
			}
			if pe.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", pe.Line, tt.line, err)
			}
		})
	}
}

func TestParseTopologyFiles(t *testing.T) {
	open := func(t *testing.T, path string) Topology {
		return parseFile(t, path, func(f *os.File) (Topology, error) { return ParseTopology(f) })
	}
	t.Run("8x A100 SXM4, NV12 everywhere", func(t *testing.T) {
		topo := open(t, "testdata/topo_a100x8_nv12.txt")
		if topo.GPUs() != 8 {
			t.Fatalf("GPUs() = %d, want 8", topo.GPUs())
		}
		for i := 0; i < 8; i++ {
			for j := 0; j < 8; j++ {
				l, _ := topo.Link(i, j)
				if i == j && l.Path != PathSelf || i != j && (l != Link{Path: PathNVLink, Links: 12} || !topo.NVLinked(i, j)) {
					t.Errorf("GPU%d-GPU%d = %v", i, j, l)
				}
			}
		}
	})
	t.Run("8x RTX 4090 over PCIe", func(t *testing.T) {
		topo := open(t, "testdata/topo_4090x8_pcie.txt")
		want := map[[2]int]string{{0, 1}: "PIX", {0, 2}: "NODE", {0, 4}: "SYS", {6, 7}: "PIX", {5, 3}: "SYS", {1, 1}: "X"}
		for ij, w := range want {
			l, ok := topo.Link(ij[0], ij[1])
			if !ok || l.String() != w {
				t.Errorf("GPU%d-GPU%d = %v, want %s", ij[0], ij[1], l, w)
			}
			if topo.NVLinked(ij[0], ij[1]) {
				t.Errorf("GPU%d-GPU%d NVLinked", ij[0], ij[1])
			}
		}
	})
	t.Run("2 PCIe GPUs, PHB", func(t *testing.T) {
		topo := open(t, "testdata/topo_2gpu_phb.txt")
		if l, _ := topo.Link(0, 1); topo.GPUs() != 2 || l.Path != PathPHB {
			t.Errorf("GPUs %d, link %v", topo.GPUs(), l)
		}
	})
	t.Run("2 PCIe GPUs with a bridge", func(t *testing.T) {
		topo := open(t, "testdata/topo_2gpu_nv4_bridge.txt")
		if l, _ := topo.Link(1, 0); !topo.NVLinked(0, 1) || l.Links != 4 {
			t.Errorf("link %v", l)
		}
	})
	var zero Topology
	if zero.NVLinked(0, 1) || zero.GPUs() != 0 {
		t.Error("zero Topology has links")
	}
	topo := open(t, "testdata/topo_2gpu_nv4_bridge.txt")
	if topo.NVLinked(-1, 0) || topo.NVLinked(0, 2) {
		t.Error("out-of-range GPUs linked")
	}
}

func TestParseTopologyVariants(t *testing.T) {
	// Older drivers: SOC for SYS, no affinity columns; newer: escape codes around
	// the header when written to a terminal.
	tests := []struct{ name, in string }{
		{"old SOC", "\tGPU0\tGPU1\nGPU0\t X \tSOC\nGPU1\tSOC\t X \n"},
		{"ANSI header", "\x1b[4m\x1b[1m\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\x1b[0m\nGPU0\t X \tSYS\t0-7\t0\nGPU1\tSYS\t X \t8-15\t1\n"},
		{"spaces not tabs", "        GPU0    GPU1    CPU Affinity\nGPU0     X      SYS     0-7\nGPU1    SYS      X      0-7\n\nLegend:\n  X = Self\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			topo, err := ParseTopology(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if l, _ := topo.Link(0, 1); topo.GPUs() != 2 || l.Path != PathSYS {
				t.Errorf("GPUs %d, link %v", topo.GPUs(), l)
			}
		})
	}
}

func TestParseTopologyErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"garbage", "hello\nworld\n"},
		{"legend only", "Legend:\n  X = Self\n"},
		{"columns out of order", "\tGPU1\tGPU0\nGPU0\t X \tNV4\n"},
		{"missing row", "\tGPU0\tGPU1\nGPU0\t X \tNV4\n"},
		{"repeated row", "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n"},
		{"row beyond columns", "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \nGPU2\tNV4\tNV4\t X\n"},
		{"short row", "\tGPU0\tGPU1\nGPU0\t X\nGPU1\tNV4\t X \n"},
		{"unknown cell", "\tGPU0\tGPU1\nGPU0\t X \tFAST\nGPU1\tFAST\t X \n"},
		{"NV0", "\tGPU0\tGPU1\nGPU0\t X \tNV0\nGPU1\tNV0\t X \n"},
		{"X off the diagonal", "\tGPU0\tGPU1\nGPU0\t X \t X \nGPU1\tNV4\t X \n"},
		{"not X on the diagonal", "\tGPU0\tGPU1\nGPU0\tNV4\tNV4\nGPU1\tNV4\t X \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTopology(strings.NewReader(tt.in))
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParseTopology() error = %v, want ErrInvalid", err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not *ParseError", err)
			}
		})
	}
}
