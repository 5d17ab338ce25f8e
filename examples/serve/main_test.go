package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/chart"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
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
	// In Chinese: the table and the chart; a card by its Chinese alias.
	{name: "zh_default", args: []string{"-lang", "zh", "-cards", "RTX 4090,昇腾910B,H100 SXM5 80GB"}},
}

// TestGolden holds the table and the SVG of each case to testdata/<name>.txt and
// testdata/<name>.golden.svg, and checks the SVG is well-formed.
func TestGolden(t *testing.T) {
	for _, tt := range goldenCases {
		t.Run(tt.name, func(t *testing.T) {
			svgFile := filepath.Join(t.TempDir(), "serve.svg")
			var table bytes.Buffer
			if err := run(&table, append(tt.args, "-o", svgFile), msg.EN); err != nil {
				t.Fatalf("run(%q) error = %v", tt.args, err)
			}
			svg, err := os.ReadFile(svgFile)
			if err != nil {
				t.Fatal(err)
			}
			// Without -o the table is the same, less the line naming the chart, and
			// no file is written.
			var plain bytes.Buffer
			if err := run(&plain, tt.args, msg.EN); err != nil {
				t.Fatalf("run(%q) error = %v", tt.args, err)
			}
			l := cli.LangOf(tt.args, msg.EN)
			withChart := strings.Replace(table.String(), l.F("serve.chart", svgFile)+"\n", l.T("serve.drawchart")+"\n", 1)
			if plain.String() != withChart {
				t.Errorf("the table without -o differs from the one with it:\n%s\nwant:\n%s", plain.String(), withChart)
			}
			table = *bytes.NewBufferString(strings.Replace(table.String(), svgFile, "serve.svg", 1))
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

// -load draws the latency percentiles against the rate: testdata/load.golden.svg
// in English and zh_load.golden.svg in Chinese, each well-formed, the table
// naming the chart; each curve's points are compute.Serving.Under's at shares
// of the replica's capacity, and -json carries them.
func TestLoadChart(t *testing.T) {
	for _, tc := range []struct {
		name string
		lang msg.Lang
	}{{"load", msg.EN}, {"zh_load", msg.ZH}} {
		file := filepath.Join(t.TempDir(), "load.svg")
		var out bytes.Buffer
		if err := run(&out, []string{"-load", file, "-ttft", "1s"}, tc.lang); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), tc.lang.F("serve.loadchart", file)) {
			t.Errorf("%s: the table does not name the chart:\n%s", tc.name, out.String())
		}
		svg, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("testdata", tc.name+".golden.svg"), svg)
		wellFormed(t, svg)
	}
	var out bytes.Buffer
	if err := run(&out, []string{"-json", "-load", filepath.Join(t.TempDir(), "l.svg"), "-cards", "H100 SXM5 80GB"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	var got jsonChart
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Load) != 1 {
		t.Fatalf("-json with -load: %v, %d curves", err, len(got.Load))
	}
	card, _ := catalog.Default().Lookup("H100 SXM5 80GB")
	m, _ := sizing.Preset("llama-3.1-8b")
	peak, _ := card.Peak(sizing.BF16)
	s := compute.Serving{Model: m, Weights: sizing.BF16, Memory: card.Memory, Bandwidth: card.MemoryBandwidth, Peak: peak,
		PromptTokens: 1000, OutputTokens: 300}
	c := got.Load[0]
	if len(c.Points) != len(chart.LoadShares) {
		t.Fatalf("%d points, want %d", len(c.Points), len(chart.LoadShares))
	}
	for k, f := range chart.LoadShares {
		want, err := s.Under(f * c.Capacity)
		if err != nil || want != c.Points[k] {
			t.Errorf("point %d: %+v, compute says %+v (%v)", k, c.Points[k], want, err)
		}
	}
}

// The table's figures are compute.Serving's, for the catalog's cards: the
// default H100 row's maximum concurrency and throughput at it, and its
// concurrency at the TPOT target.
func TestTableAgainstServing(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, nil, msg.EN); err != nil {
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
}

// goName matches the Go names of the library that a message to a user of the
// command must not name: a function to call, a package-qualified name.
var goName = regexp.MustCompile(`\bPresets\b|\b(sizing|compute|catalog|pricing)\.[A-Z]|\b[A-Z][a-z]+[A-Z][A-Za-z]*\(`)

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"-model", "llama-9"}, 2, `serve: -model "llama-9": not a preset (-model list prints them;`},
		{[]string{"-model", "lama-3.1-8b"}, 2, `-config with its config.json, reads another); sizing: no preset model "lama-3.1-8b" (did you mean llama-3.1-8b`},
		{[]string{"-model", "llama-2-7b", "-params", "7B"}, 2, "give -model or a model's -params, -config or files, not both"},
		{[]string{"-config", "missing.json"}, 2, "-config missing.json: cannot open"},
		{[]string{"-tp", "3"}, 2, "serve: -tp 3: compute: 32 attention heads do not divide over 3 tensor-parallel devices: invalid input (-tp takes 1, 2, 4, 8, 16 or 32 for llama-3.1-8b)\n"},
		{[]string{"-cards", "RTX 9999"}, 2, "-cards"},
		{[]string{"-cards", "T4,L4,A10,A30"}, 2, "one to 3"},
		{[]string{"-precision", "fp7"}, 2, "-precision"},
		{[]string{"-prompt", "0"}, 2, "-prompt"},
		{[]string{"-output", "-3"}, 2, "-output"},
		{[]string{"-tp", "0"}, 2, "-tp"},
		{[]string{"-tpot", "-1ms"}, 2, "-tpot"},
		{[]string{"-ttft", "-1ms"}, 2, "-ttft"},
		{[]string{"-load", filepath.Join(t.TempDir(), "missing", "l.svg")}, 1, "no such file"},
		{[]string{"extra"}, 2, "unexpected"},
		{[]string{"-model", "llama-3.1-70b", "-cards", "RTX 4090"}, 1, "no card holds"},
		{[]string{"-o", filepath.Join(t.TempDir(), "missing", "s.svg")}, 1, "no such file"},
	} {
		var out, stderr bytes.Buffer
		err := run(&out, tt.args, msg.EN)
		if got := cli.Exit("serve", err, &stderr, msg.EN); got != tt.status || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("run(%q): status %d, stderr %q; want %d and %q", tt.args, got, stderr.String(), tt.status, tt.msg)
		}
		if m := goName.FindString(stderr.String()); m != "" {
			t.Errorf("run(%q): stderr %q names %q, which a user of the command cannot run", tt.args, stderr.String(), m)
		}
		if tt.status == 2 && out.Len() > 0 {
			t.Errorf("run(%q): a usage error after output %q", tt.args, out.String())
		}
	}
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}, msg.EN); cli.Exit("serve", err, io.Discard, msg.EN) != 0 || !strings.Contains(out.String(), "-tpot") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
}

// -json prints the figures of the table and nothing else: each card's points,
// the last at its maximum concurrency, and its point within the TPOT target.
func TestJSON(t *testing.T) {
	var out, table bytes.Buffer
	if err := run(&out, []string{"-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if err := run(&table, nil, msg.EN); err != nil {
		t.Fatal(err)
	}
	var got jsonChart
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("stdout is not the JSON figures: %v", err)
	}
	if dec.More() {
		t.Error("stdout holds more than one JSON value")
	}
	if len(got.Cards) != 3 || got.Model != "llama-3.1-8b" || got.TPOTTarget != "50ms" {
		t.Fatalf("JSON %+v: want 3 cards of llama-3.1-8b at a 50ms target", got)
	}
	for _, c := range got.Cards {
		last := c.Points[len(c.Points)-1]
		row := fmt.Sprintf("%s %d ", c.Name, last.Concurrency)
		if !strings.Contains(strings.Join(strings.Fields(table.String()), " "), row) {
			t.Errorf("card %s: max %d sequences in JSON, not in the table:\n%s", c.Name, last.Concurrency, table.String())
		}
		if c.WithinTarget == nil || c.WithinTarget.TPOT > 50*time.Millisecond {
			t.Errorf("card %s: within target %+v, want a point at or under 50ms", c.Name, c.WithinTarget)
		}
	}
	// No card holds the model: the JSON says so (fits false, the reason), exit 1.
	out.Reset()
	err := run(&out, []string{"-json", "-model", "llama-3.1-70b", "-cards", "RTX 4090"}, msg.EN)
	if code := cli.Exit("serve", err, io.Discard, msg.EN); code != 1 {
		t.Errorf("no fit with -json: exit %d, want 1", code)
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got.Cards) != 1 || got.Cards[0].Fits || got.Cards[0].Error == "" {
		t.Errorf("no fit with -json: %v, %+v; want one card that does not fit, with its reason", err, got)
	}
}

// serve reads a model as plan does: a config.json, a downloaded model's folder,
// a size alone; the title names it.
func TestModelFlags(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		title string
	}{
		{[]string{"-config", "../../sizing/models/qwen2.5-7b.json"}, "qwen2.5-7b in BF16,"},
		{[]string{"-model", "../plan/testdata/qwen2.5-7b"}, "qwen2.5-7b in BF16,"},
		{[]string{"-params", "7B"}, "custom in BF16,"},
	} {
		var out bytes.Buffer
		if err := run(&out, append(tc.args, "-cards", "H100 SXM5 80GB"), msg.EN); err != nil {
			t.Errorf("run(%q) = %v", tc.args, err)
			continue
		}
		if !strings.HasPrefix(out.String(), tc.title) {
			t.Errorf("run(%q):\n%s\nwant it to start %q", tc.args, out.String(), tc.title)
		}
	}
}
