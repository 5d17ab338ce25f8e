package catalog

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

func TestParseDmonFiles(t *testing.T) {
	tests := []struct {
		file string
		want []GPUUse
	}{
		// sm 29 and 18: mean 23.5, to nearest 24; mem 5 and 3: 4. No fb column.
		{"testdata/dmon_pucv_idle.txt", []GPUUse{{Index: 0, Samples: 2, SMPercent: 24, MemPercent: 4, MemoryUsed: -1}}},
		// With a time column first and fb (4198 MiB).
		{"testdata/dmon_pucvm_dt.txt", []GPUUse{{Index: 0, Samples: 2, SMPercent: 66, MemPercent: 18, MemoryUsed: 4198 * sizing.MiB}}},
		{"testdata/dmon_pucm_4gpu.txt", []GPUUse{
			{Index: 0, Samples: 1, SMPercent: 98, MemPercent: 57, MemoryUsed: 90538 * sizing.MiB},
			{Index: 1, Samples: 1, SMPercent: 99, MemPercent: 55, MemoryUsed: 90536 * sizing.MiB},
			{Index: 2, Samples: 1, SMPercent: 100, MemPercent: 51, MemoryUsed: 48243 * sizing.MiB},
			{Index: 3, Samples: 1, SMPercent: 100, MemPercent: 58, MemoryUsed: 48209 * sizing.MiB},
		}},
	}
	for _, tt := range tests {
		got := parseFile(t, tt.file, func(f *os.File) ([]GPUUse, error) { return ParseDmon(f) })
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseDmon(%s) (-want +got):\n%s", tt.file, diff)
		}
	}
}

func TestParseDmonVariants(t *testing.T) {
	const head = "# gpu    pwr  gtemp  mtemp     sm    mem\n# Idx      W      C      C      %      %\n"
	// Rows of two GPUs interleaved, a "-" figure left out, the header repeated as
	// dmon does, CRLF and a warning line.
	in := "\ufeff" + head + "    0  100  40  -  10  -\r\n    1  100  40  -  -  -\r\nWARNING: infoROM is corrupted at gpu 0000:81:00.0\n" +
		head + "    1  100  40  -  90  7\n    0  100  40  -  21  3\n"
	got, err := ParseDmon(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []GPUUse{
		{Index: 0, Samples: 2, SMPercent: 16, MemPercent: 3, MemoryUsed: -1}, // (10+21)/2 = 15.5 → 16
		{Index: 1, Samples: 2, SMPercent: 90, MemPercent: 7, MemoryUsed: -1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Only "-": no figure.
	got, err = ParseDmon(strings.NewReader(head + "    3  1  1  -  -  -\n"))
	if err != nil || got[0].SMPercent != -1 || got[0].MemPercent != -1 {
		t.Errorf("all dashes = %+v, %v; want -1 figures", got, err)
	}
}

func TestParseDmonErrors(t *testing.T) {
	const head = "# gpu sm mem\n# Idx % %\n"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "no GPU rows"},
		{"header only", head, "no GPU rows"},
		{"row before header", "    0  10  5\n", "before the header"},
		{"no sm column", "# gpu pwr\n0 100\n", "gpu and sm columns"},
		{"short row", head + "0 10\n", "2 columns, want 3"},
		{"bad index", head + "x 10 5\n", `gpu "x"`},
		{"negative index", head + "-1 10 5\n", "not a GPU index"},
		{"percent over 100", head + "0 101 5\n", `sm "101" is not a percentage`},
		{"bad fb", "# gpu sm fb\n0 10 -5\n", `fb "-5"`},
		{"default table", "+-----+\n", "default table"},
		{"no driver", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n", "driver"},
		{"long line", head + strings.Repeat("9", 70000) + "\n", "longer than 64 KiB"},
	}
	for _, tt := range tests {
		_, err := ParseDmon(strings.NewReader(tt.in))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ParseDmon = %v, want ErrInvalid with %q", tt.name, err, tt.want)
		}
	}
}

func TestParseDmonDeviceLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("# gpu sm\n")
	for i := range maxDevices + 1 {
		b.WriteString(strings.Repeat(" ", 2) + strconv.Itoa(i) + " 50\n")
	}
	_, err := ParseDmon(strings.NewReader(b.String()))
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "more than 1024 GPUs") {
		t.Errorf("ParseDmon(1025 GPUs) = %v, want the limit", err)
	}
}

func TestParseAllReducePerfFiles(t *testing.T) {
	run := parseFile(t, "testdata/nccl_a100x8.txt", func(f *os.File) (AllReduceRun, error) { return ParseAllReducePerf(f) })
	if len(run.Ranks) != 8 || run.Ranks[7] != "NVIDIA A100-SXM4-80GB" {
		t.Errorf("ranks = %q, want 8 A100s", run.Ranks)
	}
	if len(run.Results) != 6 {
		t.Fatalf("%d rows, want 6", len(run.Results))
	}
	first := AllReduceRow{Size: 32 * sizing.MiB, BusBandwidth: 170.31 * compute.GBps, InPlace: 167.99 * compute.GBps}
	if diff := cmp.Diff(first, run.Results[0]); diff != "" {
		t.Errorf("first row (-want +got):\n%s", diff)
	}
	if got, want := run.PeakBusBandwidth(), 231.72*compute.GBps; got != want {
		t.Errorf("peak busbw = %v, want %v (1 GiB, out of place)", got, want)
	}
	if got, want := run.AvgBusBandwidth, 210.99*compute.GBps; got != want {
		t.Errorf("avg busbw = %v, want %v", got, want)
	}

	run = parseFile(t, "testdata/nccl_h100x16_2node.txt", func(f *os.File) (AllReduceRun, error) { return ParseAllReducePerf(f) })
	if len(run.Ranks) != 16 || run.Ranks[0] != "NVIDIA H100 80GB HBM3" || len(run.Results) != 5 {
		t.Errorf("ranks %q, %d rows; want 16 H100s and 5 rows", run.Ranks, len(run.Results))
	}
	if got, want := run.PeakBusBandwidth(), 338.82*compute.GBps; got != want {
		t.Errorf("peak busbw = %v, want %v", got, want)
	}
}

func TestParseAllReducePerfVariants(t *testing.T) {
	// nccl-tests before the root column, with "error" columns, validation off (N/A),
	// and wrong results counted.
	in := "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n" +
		"     1048576        262144   float     sum    120.3    8.72   15.26    N/A    119.9    8.75   15.31    N/A\n" +
		"host:1:1 [0] NCCL INFO Ring 00 : 0 1 2 3\n" +
		"     2097152        524288   float     sum    200.0   10.49   18.35      2    200.1   10.48   18.34      1\n"
	run, err := ParseAllReducePerf(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Results) != 2 || run.Results[0].Wrong != -1 || run.Results[1].Wrong != 3 || run.AvgBusBandwidth != 0 {
		t.Errorf("run = %+v", run)
	}
}

func TestParseAllReducePerfErrors(t *testing.T) {
	const row = "    33554432       8388608     float     sum      -1    344.8   97.32  170.31      0    349.5   95.99  167.99      0\n"
	tests := []struct{ name, in, want string }{
		{"empty", "", "no result rows"},
		{"comments only", "# nThread 1\n# Avg bus bandwidth : 1\n", "no result rows"},
		{"short row", "33554432 8388608 float sum\n", "4 columns"},
		{"bad busbw", strings.Replace(row, "170.31", "fast", 1), `busbw "fast"`},
		{"NaN busbw", strings.Replace(row, "170.31", "NaN", 1), "not a number of GB/s"},
		{"negative wrong", strings.Replace(row, "170.31      0", "170.31     -1", 1), "wrong count"},
		{"huge size", strings.Replace(row, "33554432 ", "99999999999999999999 ", 1), "whole number of bytes"},
		{"bad average", row + "# Avg bus bandwidth    : x\n", "average bus bandwidth"},
	}
	for _, tt := range tests {
		_, err := ParseAllReducePerf(strings.NewReader(tt.in))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ParseAllReducePerf = %v, want ErrInvalid with %q", tt.name, err, tt.want)
		}
	}
}

// The baseline is the per-direction bandwidth of the link the ring runs on: the
// card's NVLink total halved (compute.NVLink), a bridge for two GPUs only, PCIe
// otherwise (compute.PCIe).
func TestAllReduceBaseline(t *testing.T) {
	tests := []struct {
		card string
		n    int
		want compute.Bandwidth
	}{
		{"a100-sxm4-80gb", 8, 300 * compute.GBps},  // NVLink 600 GB/s total
		{"h100-sxm5-80gb", 8, 450 * compute.GBps},  // 900 GB/s total
		{"rtx-4090", 8, 31.5076923 * compute.GBps}, // PCIe Gen4 x16 after 128b/130b
		{"a100-pcie-80gb", 2, 300 * compute.GBps},  // NVLink bridge, a pair
		{"a100-pcie-80gb", 4, 31.5076923 * compute.GBps},
	}
	for _, tt := range tests {
		c := lookup(t, tt.card)
		got, _, err := c.AllReduceBaseline(tt.n)
		if err != nil {
			t.Fatal(err)
		}
		if d := float64(got - tt.want); d > 1e6 || d < -1e6 {
			t.Errorf("%s ×%d: baseline %v, want %v", tt.card, tt.n, got, tt.want)
		}
	}
	if _, _, err := lookup(t, "t4").AllReduceBaseline(1); !errors.Is(err, ErrInvalid) {
		t.Errorf("baseline of one GPU = %v, want ErrInvalid", err)
	}
}
