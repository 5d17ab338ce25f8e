package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "default", args: nil},
		{name: "long_sequence", args: []string{"-context", "2048", "-seq", "4096"}},
		{name: "zh", args: []string{"-lang", "zh"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(&out, tt.args, msg.EN); err != nil {
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

// A context past the Llama-2 window of 4096 tokens is an error naming it.
func TestContextPastWindow(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, []string{"-context", "32768"}, msg.EN)
	if err == nil || !strings.Contains(err.Error(), "context window of 4096 tokens") {
		t.Errorf("run(-context 32768) = %v, want an error naming the 4096-token window", err)
	}
}

// TestClaims pins the figures the report exists to show, so that a golden file
// regenerated after a library change cannot silently lose them.
func TestClaims(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, nil, msg.EN); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	flat := strings.ReplaceAll(report, "\n  ", " ") // wrapped claims and verdicts back on one line
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
		// Training advice: 16 B/param puts 3B past a 32 GB card; 10B past one 80 GB card.
		"only 1B in full, and the 24 GB RTX 4090 only 1B",
		"10B on A100 SXM4 80GB: ZeRO-3 over 3 GPUs",
		"V100 SXM2 32GB: no BF16",
		// The named 7B models, from their config files: 7,615,616,512 and 8,030,261,248 parameters.
		"Qwen2-7B has 7.62B parameters (15.2 GB)",
		"Llama-3-8B 8.03B (16.1 GB)",
		"'keep 28 GB or more' rules out the 24 GB card",
		// The T4: 15360 MiB, 320 GB/s against the RTX 4090's 1008 GB/s.
		"A 7B model in FP16 needs 17.4 GB at 4K, more than the T4's 15360 MiB",
		"decodes the same Q4_K_M model at 31 tokens/s against 97",
		// Serving (compute.Serving, 1000 + 300 tokens a request): Llama-2-7B's full KV
		// cache holds 13 requests on a 24 GB 4090, 36 on an A100 40GB, 92 on an H800;
		// Llama-3-8B's GQA cache four times as many; 13B BF16 does not fit the 4090.
		"llama-2-7b   BF16   GeForce RTX 4090        13",
		"llama-2-13b  BF16   GeForce RTX 4090    no fit",
		"holds 13 requests at once on the RTX 4090 and 36 on the A100 40GB",
		"one H800 holds 92 requests of Llama-2-7B",
		"H800's cut link costs it nothing here",
		// Batch 1 to 8 doubles Llama-2-7B inference memory at 4096 tokens, not at 512.
		"from 1.14× at 512 tokens to\n  2.00× at 4096",
		"McCandlish et al. 2018",
		// 13B: LoRA on a 16-bit base does not fit 24 GB, QLoRA and Q4_K_M inference do.
		"For 13B, LoRA on a 16-bit base does not fit",
		"quantized to Q4_K_M it fits at this context",
		// The 3090 draws less than the 4090 (350 W against 450 W), at 102 against 184 FP32 GFLOPS per watt.
		"The 3090's board power is 350 W, less than the 4090's 450 W",
		"(102 against 184 FP32 GFLOPS per watt",
		// Ring all-reduce of 1 GB over 8 GPUs: 2·7/8 GB at 300 GB/s (A100 NVLink) against 31.5 GB/s (PCIe 4.0).
		"should take about 5.8 ms",
		"it takes 55.5 ms, 10 times as long",
		// Prices: REFERENCES.md's indicative ranges and the sample list's medians.
		"A100 80GB USD 1.20–3.40, 4.0–11.3× the 4090",
		"price per 16-bit PFLOPS-hour 4.0×",
		"45.8% below the median CNY 1.475/h",
		"Tier III 99.982%",
	} {
		if !strings.Contains(report, want) && !strings.Contains(flat, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(report, "\nClaim (article "); n != 26 {
		t.Errorf("report has %d claims, want 26", n)
	}
	if n := strings.Count(report, "\nVerdict: "); n != 26 {
		t.Errorf("report has %d verdicts, want 26", n)
	}
	// Every verdict opens with one of the report's words for it.
	for _, v := range strings.Split(report, "\nVerdict: ")[1:] {
		if !strings.HasPrefix(v, "reproduced") && !strings.HasPrefix(v, "corrected") &&
			!strings.HasPrefix(v, "partly true") && !strings.HasPrefix(v, "not reproduced") {
			t.Errorf("verdict opens %q, want reproduced, corrected, partly true or not reproduced", v[:min(len(v), 40)])
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-context", "0"},
		{"-seq", "-1"},
		{"-nosuchflag"},
		{"extra"},
	} {
		if err := run(io.Discard, args, msg.EN); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("run(%q) error = %v, want a usage error", args, err)
		}
	}
}

// TestHelp checks that -h says what the command does and its exit statuses.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}, msg.EN); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: seeds [flags]", "Prints each worked example and claim", "Exit status: 0", "2 usage error", "-context int"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, out.String())
		}
	}
}

// -json prints the settings and every section of the text report, as one JSON
// value.
func TestJSON(t *testing.T) {
	var out, text bytes.Buffer
	if err := run(&out, []string{"-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if err := run(&text, nil, msg.EN); err != nil {
		t.Fatal(err)
	}
	var got jsonReport
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON report: %v", err)
	}
	if got.Context != 4096 || got.Seq != 2048 {
		t.Errorf("settings %d, %d; want 4096 and 2048", got.Context, got.Seq)
	}
	for i, sec := range got.Sections {
		if head := fmt.Sprintf("\n%d. %s\n", i+1, sec.Title); !strings.Contains(text.String(), head) || len(sec.Library) == 0 || sec.Verdict == "" {
			t.Errorf("section %d %q: not in the text report, or without figures and verdict", i+1, sec.Title)
		}
	}
	if n := strings.Count(text.String(), "\nVerdict: "); len(got.Sections) != n {
		t.Errorf("%d sections in JSON, %d verdicts in the text", len(got.Sections), n)
	}
}
