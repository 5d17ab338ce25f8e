package catalog

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// links returns the whole matrix of a Topology, row by row, as topo -m writes it.
func links(topo Topology) [][]string {
	m := make([][]string, topo.GPUs())
	for i := range m {
		m[i] = make([]string, topo.GPUs())
		for j := range m[i] {
			l, _ := topo.Link(i, j)
			m[i][j] = l.String()
		}
	}
	return m
}

func TestParseTopologyCaptures(t *testing.T) {
	tests := []struct {
		name string
		file string
		want [][]string
	}{
		{"UTF-8 BOM and CRLF (saved on Windows), 2 PCIe GPUs with a bridge", "topo_bom_crlf_2gpu_nv4.txt",
			[][]string{{"X", "NV4"}, {"NV4", "X"}}},
		{"infoROM warning above the header is skipped", "topo_warning_2gpu_sys.txt",
			[][]string{{"X", "SYS"}, {"SYS", "X"}}},
		// The file's rows: GPU0 X NV4 PXB SYS / GPU1 SYS X NODE SYS /
		// GPU2 NODE NODE X NV4 / GPU3 SYS SYS NV2 X. Each pair gets its slower
		// direction: 0-1 SYS over NV4, 0-2 NODE over PXB, 2-3 NV2 over NV4.
		{"lopsided matrix: the slower direction both ways", "topo_lopsided_4gpu.txt",
			[][]string{
				{"X", "SYS", "NODE", "SYS"},
				{"SYS", "X", "NODE", "SYS"},
				{"NODE", "NODE", "X", "NV2"},
				{"SYS", "SYS", "NV2", "X"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			topo := parseFile(t, "testdata/smi/"+tt.file, func(f *os.File) (Topology, error) { return ParseTopology(f) })
			if diff := cmp.Diff(tt.want, links(topo)); diff != "" {
				t.Errorf("ParseTopology() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Verify reads one direction of a pair; with a lopsided matrix it must see the
// slower link whichever way it reads.
func TestParseTopologyLopsidedVerify(t *testing.T) {
	topo := parseFile(t, "testdata/smi/topo_lopsided_4gpu.txt", func(f *os.File) (Topology, error) { return ParseTopology(f) })
	if topo.NVLinked(0, 1) || topo.NVLinked(1, 0) {
		t.Errorf("got GPU0-GPU1 NVLinked, want SYS, the slower direction")
	}
	for _, ij := range [][2]int{{2, 3}, {3, 2}} {
		if l, _ := topo.Link(ij[0], ij[1]); l != (Link{Path: PathNVLink, Links: 2}) {
			t.Errorf("got GPU%d-GPU%d %v, want NV2", ij[0], ij[1], l)
		}
	}
}

// Failure messages and nvidia-smi's other outputs give ParseTopology the same
// clear errors as ParseSMI.
func TestParseTopologyFailures(t *testing.T) {
	tests := []struct {
		name string
		file string
		line int
		want []string
		same bool // the reason reads as ParseSMI's does
	}{
		{"no devices", "no_devices.txt", 1, []string{`line 1 "No devices were found": nvidia-smi found no GPUs`}, true},
		{"no driver", "driver_failure.txt", 1, []string{"nvidia-smi failed: the NVIDIA driver is not loaded or not reachable"}, true},
		{"driver and library differ", "nvml_mismatch.txt", 1, []string{"Failed to initialize NVML"}, true},
		{"GPU lost from the bus", "lost_gpu.txt", 1,
			[]string{`"Unable to determine the device handle for GPU0000:81:00.0: Unknown Error"`, "cannot reach a GPU"}, true},
		{"UTF-16 from Windows PowerShell", "utf16le_a10.csv", 1, []string{utf16Text}, true},
		{"default table", "table_a100x8.txt", 1, []string{"nvidia-smi's default table", "run nvidia-smi topo -m"}, false},
		{"nvidia-smi -L", "list_a100x8.txt", 1, []string{"this is nvidia-smi -L output, not the topology matrix; run nvidia-smi topo -m"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := os.ReadFile("testdata/smi/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			topo, err := ParseTopology(strings.NewReader(string(b)))
			checkParseError(t, topo.GPUs(), err, tt.line, tt.want)
			if !tt.same {
				return
			}
			_, smiErr := ParseSMI(strings.NewReader(string(b)))
			if got, want := reason(err), reason(smiErr); got != want {
				t.Errorf("got %q from ParseTopology, want ParseSMI's %q", got, want)
			}
		})
	}
}

// reason returns a *ParseError's reason: its message after the quoted line.
func reason(err error) string {
	if pe, ok := err.(*ParseError); ok {
		return pe.Err.Error()
	}
	return fmt.Sprint(err)
}

func TestParseTopologyFormErrors(t *testing.T) {
	long := strings.Repeat("\tGPU0", maxLine/4)
	tests := []struct {
		name string
		in   string
		line int
		want []string
	}{
		{"failure after the header", "\tGPU0\tGPU1\nUnable to determine the device handle for GPU0000:0B:00.0: Unknown Error\n", 2, []string{"cannot reach a GPU"}},
		{"no devices after a warning", "WARNING: infoROM is corrupted at gpu 0000:81:00.0\nNo devices were found\n", 2, []string{"found no GPUs"}},
		{"only warnings", "WARNING: infoROM is corrupted at gpu 0000:81:00.0\n", 0, []string{"no topology matrix"}},
		{"header too long", long + "\n", 1, []string{`line 1 "GPU0` + strings.Repeat(`\tGPU0`, 14) + `\tGP...": line longer than 64 KiB`}},
		{"row too long after a BOM'd header", "\ufeff\tGPU0\nGPU0\t" + strings.Repeat("X ", maxLine) + "\n", 2, []string{`line 2 "GPU0\tX X`, `...": line longer`}},
		{"the query's CSV", "index, name, memory.total [MiB]\n0, Tesla T4, 15360 MiB\n", 1, []string{"header names no GPU columns"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			topo, err := ParseTopology(strings.NewReader(tt.in))
			checkParseError(t, topo.GPUs(), err, tt.line, tt.want)
		})
	}
}

// Whatever the cells, the matrix ParseTopology returns is symmetric, and each
// pair holds the slower of the two directions written.
func TestParseTopologySymmetricProperty(t *testing.T) {
	cells := []Link{{Path: PathNVLink, Links: 1}, {Path: PathNVLink, Links: 4}, {Path: PathNVLink, Links: 12}, {Path: PathNVLink, Links: 18},
		{Path: PathPIX}, {Path: PathPXB}, {Path: PathPHB}, {Path: PathNode}, {Path: PathSYS}}
	rank := func(l Link) int { // position in order of speed, fastest first
		if l.Path == PathNVLink {
			return 100 - l.Links
		}
		return 100 + int(l.Path)
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "gpus")
		raw := make([][]Link, n)
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\tGPU%d", i)
		}
		b.WriteString("\tCPU Affinity\tNUMA Affinity\n")
		for i := range raw {
			raw[i] = make([]Link, n)
			fmt.Fprintf(&b, "GPU%d", i)
			for j := range raw[i] {
				raw[i][j] = Link{Path: PathSelf}
				if i != j {
					raw[i][j] = rapid.SampledFrom(cells).Draw(t, fmt.Sprintf("GPU%d-GPU%d", i, j))
				}
				fmt.Fprintf(&b, "\t%s", raw[i][j])
			}
			b.WriteString("\t0-31\t0\n")
		}
		topo, err := ParseTopology(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("ParseTopology(%q): %v", b.String(), err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := raw[i][j]
				if rank(raw[j][i]) > rank(want) {
					want = raw[j][i]
				}
				got, _ := topo.Link(i, j)
				if got != want {
					t.Fatalf("got GPU%d-GPU%d %v, want %v (written %v and %v)", i, j, got, want, raw[i][j], raw[j][i])
				}
				if topo.NVLinked(i, j) != topo.NVLinked(j, i) {
					t.Fatalf("got NVLinked(%d, %d) != NVLinked(%d, %d)", i, j, j, i)
				}
			}
		}
	})
}

func BenchmarkParseTopology(b *testing.B) {
	in, err := os.ReadFile("testdata/topo_a100x8_nv12.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if _, err := ParseTopology(strings.NewReader(string(in))); err != nil {
			b.Fatal(err)
		}
	}
}
