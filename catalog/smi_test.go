package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

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
		{"index and name, no memory", "0, NVIDIA A100-SXM4-80GB\n", 1},
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

// mibDevs returns n devices numbered from 0, each named name with mib MiB.
func mibDevs(n int, name string, mib int64) []Device {
	devs := make([]Device, n)
	for i := range devs {
		devs[i] = Device{Index: i, Name: name, Memory: sizing.Bytes(mib) * sizing.MiB}
	}
	return devs
}

// Captures in testdata/smi: the forms ParseSMI reads besides the original query.
// Names and memory figures are the ones in testdata/smi_names.txt, checked there
// against published nvidia-smi output.
func TestParseSMICaptures(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []Device
	}{
		{"--query-gpu=name,memory.total --format=csv: numbered in row order",
			"query_name_memory_h100x8.csv", mibDevs(8, "NVIDIA H100 80GB HBM3", 81559)},
		{"name,memory.total with nounits",
			"query_name_memory_nounits_4090x2.csv", mibDevs(2, "NVIDIA GeForce RTX 4090", 24564)},
		{"name,memory.total with noheader,nounits",
			"query_name_memory_noheader_nounits_l40sx4.csv", mibDevs(4, "NVIDIA L40S", 46068)},
		{"name,memory.total with noheader, one GPU",
			"query_name_memory_noheader_t4.csv", mibDevs(1, "Tesla T4", 15360)},
		{"UTF-8 BOM and CRLF (saved on Windows)",
			"bom_crlf_a100x2.csv", mibDevs(2, "NVIDIA A100 80GB PCIe", 81920)},
		{"UTF-8 BOM before a headerless row",
			"bom_noheader_nounits_a6000.csv", mibDevs(1, "NVIDIA RTX A6000", 49140)},
		{"infoROM warning above the header is skipped",
			"warning_inforom_a100x8.csv", mibDevs(8, "NVIDIA A100-SXM4-80GB", 81920)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseFile(t, "testdata/smi/"+tt.file, func(f *os.File) ([]Device, error) { return ParseSMI(f) })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSMI() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Captures of what is not the query's output: each error names what the input
// is, quotes the line and, where another command is needed, gives it.
func TestParseSMICaptureErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		line int
		want []string // substrings of the message
	}{
		{"default table, from its timestamp", "table_a100x8.txt", 1,
			[]string{`line 1 "Tue Oct 10 09:41:27 2023"`, "nvidia-smi's default table", smiQuery}},
		{"nvidia-smi -L", "list_a100x8.txt", 1,
			[]string{`"GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-5e3f1c7a-2b4d-8e91-a6c0-3f7d2e91b4a8)"`, "this is nvidia-smi -L output", smiQuery}},
		{"nvidia-smi -q", "query_q_t4.txt", 2, []string{"nvidia-smi -q output", smiQuery}},
		{"GPU lost from the bus", "lost_gpu.txt", 1,
			[]string{`"Unable to determine the device handle for GPU0000:81:00.0: Unknown Error"`, "cannot reach a GPU", "broken or lost"}},
		{"no devices", "no_devices.txt", 1, []string{"found no GPUs"}},
		{"no driver", "driver_failure.txt", 1, []string{"driver is not loaded"}},
		{"driver and library differ", "nvml_mismatch.txt", 1, []string{"Failed to initialize NVML", "differs in version"}},
		{"UTF-16 from Windows PowerShell", "utf16le_a10.csv", 1, []string{": " + utf16Text + ": "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := os.ReadFile("testdata/smi/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			devs, err := ParseSMI(bytes.NewReader(b))
			checkParseError(t, devs, err, tt.line, tt.want)
		})
	}
}

// checkParseError checks that err is a *ParseError wrapping ErrInvalid at line,
// whose message holds each of want.
func checkParseError(t *testing.T, got any, err error, line int, want []string) {
	t.Helper()
	var pe *ParseError
	if !errors.Is(err, ErrInvalid) || !errors.As(err, &pe) {
		t.Fatalf("got %v, %v; want a *ParseError wrapping ErrInvalid", got, err)
	}
	if pe.Line != line {
		t.Errorf("got line %d, want %d (%v)", pe.Line, line, err)
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("got %q, want it to hold %q", msg, w)
		}
	}
	if !strings.HasPrefix(msg, "catalog: "+pe.Func) || !strings.HasSuffix(msg, ": "+ErrInvalid.Error()) || strings.Count(msg, "catalog") != 1 {
		t.Errorf("got %q, want the package named once and the sentinel last", msg)
	}
}

func TestParseSMIForms(t *testing.T) {
	a100 := func(idx ...int) []Device {
		devs := make([]Device, len(idx))
		for i, x := range idx {
			devs[i] = Device{Index: x, Name: "NVIDIA A100-SXM4-40GB", Memory: 40960 * sizing.MiB}
		}
		return devs
	}
	tests := []struct {
		name string
		in   string
		want []Device
	}{
		{"index from the header, not row order", "index, name, memory.total [MiB]\n3, NVIDIA A100-SXM4-40GB, 40960 MiB\n1, NVIDIA A100-SXM4-40GB, 40960 MiB\n", a100(3, 1)},
		{"header without index, extra column", "name, pci.bus_id, memory.total [MiB]\nNVIDIA A100-SXM4-40GB, 00000000:07:00.0, 40960 MiB\nNVIDIA A100-SXM4-40GB, 00000000:0B:00.0, 40960 MiB\n", a100(0, 1)},
		{"memory first", "memory.total [MiB], name\n40960 MiB, NVIDIA A100-SXM4-40GB\n", a100(0)},
		{"headerless two columns, blank lines between", "\nNVIDIA A100-SXM4-40GB, 40960 MiB\n\nNVIDIA A100-SXM4-40GB, 40960MiB\n\n", a100(0, 1)},
		{"warnings between rows", "0, NVIDIA A100-SXM4-40GB, 40960\nWARNING: infoROM is corrupted at gpu 0000:0B:00.0\n1, NVIDIA A100-SXM4-40GB, 40960\n", a100(0, 1)},
		{"BOM then blank line", "\ufeff\n\nNVIDIA A100-SXM4-40GB, 40960\n", a100(0)},
		{"BOM, spaces, header", "\ufeff  index, name, memory.total [MiB]\n0, NVIDIA A100-SXM4-40GB, 40960 MiB\n", a100(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSMI(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSMI() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSMIFormErrors(t *testing.T) {
	const row = "NVIDIA A100-SXM4-80GB, 81920 MiB"
	tests := []struct {
		name string
		in   string
		line int
		want []string
	}{
		{"two columns, then three", row + "\n1, " + row + "\n", 2, []string{"want 2 columns (name, memory.total) as on the first row, got 3"}},
		{"three columns, then two", "0, " + row + "\n" + row + "\n", 2, []string{"want 3 columns (index, name, memory.total) as on the first row, got 2"}},
		{"one column", "NVIDIA A100-SXM4-80GB\n", 1, []string{"want 3 columns (index, name, memory.total) or 2 (name, memory.total), got 1"}},
		{"four columns, no header", "0, " + row + ", 7\n", 1, []string{"got 4"}},
		{"index and memory, no name", "0, 81920 MiB\n", 1, []string{`name "0" is a number`}},
		{"header short of a column", "name, memory.total [MiB], index\n" + row + "\n", 2, []string{"want 3 columns as the header names, got 2"}},
		{"header without name", "index, memory.total [MiB]\n0, 81920 MiB\n", 1, []string{"header has no name column"}},
		{"header without memory", "index, name\n0, NVIDIA A100-SXM4-80GB\n", 1, []string{"header has no memory.total column"}},
		{"header with neither", "index, uuid\n", 1, []string{"no name and no memory.total"}},
		{"header without unit", "name, memory.total\n" + row + "\n", 1, []string{"without a unit"}},
		{"empty name, numbered by row", "name, memory.total [MiB]\n" + row + "\n, 81920 MiB\n", 3, []string{"empty GPU name"}},
		{"table pasted without its timestamp", "+-----------------------------------------------------------------------------+\n| NVIDIA-SMI 525.85.12    Driver Version: 525.85.12    CUDA Version: 12.0     |\n", 1,
			[]string{"this is nvidia-smi's default table, not the CSV of a query; run " + smiQuery}},
		{"table row", "|   0  Tesla T4            Off  | 00000000:00:04.0 Off |                    0 |\n", 1, []string{"default table"}},
		{"lost GPU after good rows", "0, " + row + "\nUnable to determine the device handle for GPU 0000:0B:00.0: Unknown Error\n", 2,
			[]string{`"Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error"`, "cannot reach a GPU"}},
		{"lost GPU, Windows wording", "Unable to detect the device handle for GPU0000:B1:00.0: Unknown Error\n", 1, []string{"cannot reach a GPU"}},
		{"GPU is lost", "Unable to determine the device handle for GPU0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU\n", 1, []string{"cannot reach a GPU"}},
		{"not installed", "bash: nvidia-smi: command not found\n", 1, []string{"nvidia-smi is not installed"}},
		{"-L after a header", "index, name, memory.total [MiB]\nGPU 0: Tesla T4 (UUID: GPU-1b9f7e3c-6d40-a2e8-f51c-4e7b0d93a8c2)\n", 2, []string{"nvidia-smi -L"}},
		{"only warnings", "WARNING: infoROM is corrupted at gpu 0000:81:00.0\n", 0, []string{"no GPU listed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			devs, err := ParseSMI(strings.NewReader(tt.in))
			checkParseError(t, devs, err, tt.line, tt.want)
		})
	}
}

// A line too long to read is reported by its number, with its start quoted
// whole: a multi-byte character at the cut is left out, not split.
func TestParseSMILongLine(t *testing.T) {
	long := strings.Repeat("x", maxLine)
	tests := []struct {
		name  string
		in    string
		line  int
		quote string // the quoted start, as Error writes it
	}{
		{"first line", "0, " + long + ", 1 MiB\n", 1, `"0, ` + strings.Repeat("x", maxQuote-6) + `..."`},
		{"third line", "index, name, memory.total [MiB]\n0, Tesla T4, 15360 MiB\n1, " + long + "\n", 3, `"1, ` + strings.Repeat("x", maxQuote-6) + `..."`},
		// "显" is 3 bytes: after "0, ", 24 of them fill 75 bytes, and a cut at 77 would split the 25th.
		{"multi-byte characters", "0, " + strings.Repeat("显", maxLine) + "\n", 1, `"0, ` + strings.Repeat("显", 24) + `..."`},
		{"after a BOM and spaces", "\ufeff   " + long, 1, `"` + strings.Repeat("x", maxQuote-3) + `..."`},
		{"no line end at all", long + "x", 1, `"` + strings.Repeat("x", maxQuote-3) + `..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			devs, err := ParseSMI(strings.NewReader(tt.in))
			checkParseError(t, devs, err, tt.line, []string{"line " + strconv.Itoa(tt.line) + " " + tt.quote + ": line longer than 64 KiB"})
			var pe *ParseError
			if errors.As(err, &pe) && (!utf8.ValidString(pe.Input) || len(pe.Input) > maxQuote) {
				t.Errorf("got Input %q, want whole characters within %d bytes", pe.Input, maxQuote)
			}
		})
	}
	// A line of exactly the limit, line end included, is still read.
	fits := "0, " + strings.Repeat("x", maxLine-len("0, , 1 MiB\n")) + ", 1 MiB\n"
	if devs, err := ParseSMI(strings.NewReader(fits)); err != nil || len(devs) != 1 {
		t.Errorf("got %d devices, %v; want a line of %d bytes read", len(devs), err, maxLine)
	}
}

type failingReader struct{ data string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, io.ErrUnexpectedEOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestParseSMIReadError(t *testing.T) {
	devs, err := ParseSMI(&failingReader{"0, Tesla T4, 15360 MiB\n"})
	checkParseError(t, devs, err, 0, []string{"reading line 2: unexpected EOF"})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v, want it to wrap the read's error", err)
	}
}

// Whatever form the query was printed in, ParseSMI reads the same devices back;
// without an index column they are numbered in row order.
func TestParseSMIFormsProperty(t *testing.T) {
	names := []string{"NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3", "Tesla T4", "NVIDIA GeForce RTX 4090 D", "NVIDIA L40S"}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 16).Draw(t, "gpus")
		header := rapid.Bool().Draw(t, "header")
		units := rapid.Bool().Draw(t, "units")
		index := rapid.Bool().Draw(t, "index")
		bom := rapid.Bool().Draw(t, "bom")
		eol := rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "eol")
		first := rapid.IntRange(0, 1000).Draw(t, "first index")
		var b strings.Builder
		if bom {
			b.WriteString(utf8BOM)
		}
		if header {
			if index {
				b.WriteString("index, ")
			}
			b.WriteString("name, memory.total [MiB]" + eol)
		}
		want := make([]Device, n)
		for i := range want {
			mib := rapid.Int64Range(1, 4<<20).Draw(t, "mib")
			want[i] = Device{Index: i, Name: rapid.SampledFrom(names).Draw(t, "name"), Memory: sizing.Bytes(mib) * sizing.MiB}
			if index {
				want[i].Index = first + i
				fmt.Fprintf(&b, "%d, ", want[i].Index)
			}
			fmt.Fprintf(&b, "%s, %d", want[i].Name, mib)
			if units {
				b.WriteString(" MiB")
			}
			b.WriteString(eol)
		}
		got, err := ParseSMI(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("ParseSMI(%q): %v", b.String(), err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("ParseSMI(%q) mismatch (-want +got):\n%s", b.String(), diff)
		}
	})
}

func BenchmarkParseSMI(b *testing.B) {
	in, err := os.ReadFile("testdata/smi_a100x8.csv")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if _, err := ParseSMI(bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}
