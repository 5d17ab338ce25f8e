package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	svgcheck "github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/sizing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var goldenCases = []struct {
	name string
	args []string
}{
	{name: "default", args: nil},
	// A 70B model in FP8 on four GPUs a replica: the A100 has no FP8 tensor cores
	// and computes at its 16-bit rate, the H800's NVLink is cut to 400 GB/s.
	{name: "70b_tp4_fp8", args: []string{"-model", "llama-3.1-70b", "-cards", "A100 SXM4 80GB,H100 SXM5 80GB,H800",
		"-tp", "4", "-precision", "fp8", "-tpot", "100ms"}},
	// One card that cannot hold the model beside two that can.
	{name: "13b_nofit", args: []string{"-model", "llama-2-13b", "-cards", "RTX 4090,A100 SXM4 40GB,L40S", "-prompt", "500", "-output", "500"}},
}

// TestGolden holds the table and the SVG of each case to testdata/<name>.txt and
// testdata/<name>.golden.svg, and checks the SVG is well-formed.
func TestGolden(t *testing.T) {
	for _, tt := range goldenCases {
		t.Run(tt.name, func(t *testing.T) {
			svgFile := filepath.Join(t.TempDir(), "serve.svg")
			var table bytes.Buffer
			if err := run(&table, append(tt.args, "-out", svgFile)); err != nil {
				t.Fatalf("run(%q) error = %v", tt.args, err)
			}
			svg, err := os.ReadFile(svgFile)
			if err != nil {
				t.Fatal(err)
			}
			var stdout bytes.Buffer
			if err := run(&stdout, append(tt.args, "-out", "-")); err != nil {
				t.Fatalf("run(%q, -out -) error = %v", tt.args, err)
			}
			if !bytes.Equal(stdout.Bytes(), svg) {
				t.Errorf("-out - wrote a different SVG from -out FILE")
			}
			golden(t, filepath.Join("testdata", tt.name+".txt"), table.Bytes())
			golden(t, filepath.Join("testdata", tt.name+".golden.svg"), svg)
			wellFormed(t, svg)
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s; rerun with -update and look at it:\n%s", path, got)
	}
}

// wellFormed fails the test unless svg is a well-formed SVG document.
func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	if err := svgcheck.Check(svg); err != nil {
		t.Error(err)
	}
}

// The table's figures are compute.Serving's, for the catalog's cards: the
// default H100 row's maximum concurrency and throughput at it, and its
// concurrency at the TPOT target.
func TestTableAgainstServing(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-out", filepath.Join(t.TempDir(), "s.svg")}); err != nil {
		t.Fatal(err)
	}
	card, err := catalog.Default().Lookup("H100 SXM5 80GB")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := sizing.Preset("llama-3.1-8b")
	peak, _ := card.Peak(sizing.BF16)
	s := compute.Serving{Model: m, Weights: sizing.BF16, Memory: card.Memory, Bandwidth: card.MemoryBandwidth, Peak: peak,
		PromptTokens: 1000, OutputTokens: 300}
	n, err := s.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.At(n)
	if err != nil {
		t.Fatal(err)
	}
	best, err := s.Best(0, 50e6)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\s*H100 SXM5 80GB\s+(\d+)\s.*\s(\d+)\s+(\d+) seqs, (\d+) tokens/s$`).FindStringSubmatch(out.String())
	if row == nil {
		t.Fatalf("no H100 row in\n%s", out.String())
	}
	for i, want := range []int{n, int(float64(p.Throughput) + 0.5), best.Concurrency, int(float64(best.Throughput) + 0.5)} {
		if got, _ := strconv.Atoi(row[i+1]); got != want {
			t.Errorf("H100 row field %d = %d, want %d (compute.Serving)\n%s", i+1, got, want, row[0])
		}
	}
	// The sampled concurrencies: two an octave.
	k, got := 1, []int{}
	for ; k <= 48; k = next(k) {
		got = append(got, k)
	}
	if want := []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48}; !slices.Equal(got, want) {
		t.Errorf("sampled %v, want %v", got, want)
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"-model", "llama-9"}, 2, "-model"},
		{[]string{"-cards", "RTX 9999"}, 2, "-cards"},
		{[]string{"-cards", "T4,L4,A10,A30"}, 2, "one to 3"},
		{[]string{"-precision", "fp7"}, 2, "-precision"},
		{[]string{"-prompt", "0"}, 2, "-prompt"},
		{[]string{"-output", "-3"}, 2, "-output"},
		{[]string{"-tp", "0"}, 2, "-tp"},
		{[]string{"-tpot", "-1ms"}, 2, "-tpot"},
		{[]string{"extra"}, 2, "unexpected"},
		{[]string{"-model", "llama-3.1-70b", "-cards", "RTX 4090", "-out", "-"}, 1, "no card holds"},
		{[]string{"-out", filepath.Join(t.TempDir(), "missing", "s.svg")}, 1, "no such file"},
	} {
		var out, stderr bytes.Buffer
		err := run(&out, tt.args)
		if got := cli.Exit("serve", err, &stderr); got != tt.status || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("run(%q): status %d, stderr %q; want %d and %q", tt.args, got, stderr.String(), tt.status, tt.msg)
		}
	}
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}); cli.Exit("serve", err, io.Discard) != 0 || !strings.Contains(out.String(), "-tpot") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
}
