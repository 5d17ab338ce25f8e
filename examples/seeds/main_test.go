package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "default", args: nil},
		{name: "long_context", args: []string{"-context", "32768", "-seq", "4096"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(&out, tt.args); err != nil {
				t.Fatalf("run(%q) error = %v", tt.args, err)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("run(%q) output differs from %s:\ngot:\n%s\nwant:\n%s", tt.args, golden, got, want)
			}
		})
	}
}

// TestClaims pins the figures the report exists to show, so that a golden file
// regenerated after a library change cannot silently lose them.
func TestClaims(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, nil); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	for _, want := range []string{
		"compute.SampleFLOPs(1e8, 1e9 FLOP) = 1e+17 FLOP; compute.RateFor(it, 24h) = 1.157 TFLOPS", // the slip
		"1e+18 FLOP in 24h, needs 11.57 TFLOPS",
		"worked example adds it up (base + Adam + activations): 30.0 GB to 36.0 GB", // 14 + 14 + 2..8
		"= model states 107.8 GB, 16.0 bytes per parameter",                         // ZeRO's 16 B/param
		"A100 SXM4 80GB      5 TFLOPS   19.5 TFLOPS",                                // card table
		"V100 PCIe 32GB      7 TFLOPS     14 TFLOPS     7 TFLOPS",
		"GeForce RTX 4090   82 TFLOPS   82.6 TFLOPS",
		"T4                  1 TFLOPS    8.1 TFLOPS",
		"Tariff.BreakEven() = 500.0 h a month", // ¥9000 / ¥18
		"(80 GB sold, 40 GB delivered)",
		"SAMPLE prices",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(report, "\nClaim (article "); n != 16 {
		t.Errorf("report has %d claims, want 16", n)
	}
	if n := strings.Count(report, "\nVerdict: "); n != 16 {
		t.Errorf("report has %d verdicts, want 16", n)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-context", "0"},
		{"-seq", "-1"},
		{"-nosuchflag"},
		{"extra"},
	} {
		if err := run(io.Discard, args); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) error = %v, want a usage error", args, err)
		}
	}
}

// TestHelp checks that -h says what the command does and its exit statuses.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: seeds [flags]", "Prints each worked example and claim", "Exit status: 0", "2 usage error", "-context int"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, out.String())
		}
	}
}
