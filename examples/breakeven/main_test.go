package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	svgcheck "github.com/gpuplan/gpuplan/internal/svg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var goldenCases = []struct {
	name string
	args []string
}{
	{name: "default", args: nil},
	// A USD offer on a 30-day month whose day package never pays within a day
	// (50 > 24 × 1.99): only the monthly break-even is marked, with days.
	{name: "usd_720h", args: []string{"-hourly", "1.99", "-daily", "50", "-monthly", "1100",
		"-currency", "USD", "-hours-per-month", "720"}},
	// In Chinese, with prices as Chinese price lists write them.
	{name: "zh", args: []string{"-lang", "zh", "-hourly", "1.98元/小时", "-daily", "¥40", "-monthly", "1100元/月"}},
}

func TestGolden(t *testing.T) {
	for _, tt := range goldenCases {
		t.Run(tt.name, func(t *testing.T) {
			out := bytes.NewBuffer(chartSVG(t, tt.args))
			golden := filepath.Join("testdata", tt.name+".golden.svg")
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
				t.Errorf("run(%q) output differs from %s; rerun with -update and look at the picture", tt.args, golden)
			}
			wellFormed(t, out.Bytes())
			if tt.name != "default" { // default.golden is TestOutputFile's
				var text bytes.Buffer
				if err := run(&text, tt.args, msg.EN); err != nil {
					t.Fatal(err)
				}
				textGolden(t, tt.name+".golden", text.Bytes())
			}
		})
	}
}

// wellFormed fails the test unless svg is a well-formed SVG document.
func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	if err := svgcheck.Check(svg); err != nil {
		t.Error(err)
	}
}

// chartSVG runs the command with args and -o, and returns the chart it wrote.
func chartSVG(t *testing.T, args []string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chart.svg")
	if err := run(io.Discard, append(append([]string{}, args...), "-o", path), msg.EN); err != nil {
		t.Fatalf("run(%q) error = %v", args, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestContent(t *testing.T) {
	svg := string(chartSVG(t, nil))
	for _, want := range []string{
		"(sample prices)",               // the defaults are labelled as samples
		"SAMPLE prices",                 // and again in the caption
		"500 h in a month",              // ¥9000 / ¥18 (REFERENCES.md, pricing conventions)
		"16.7 h in a day",               // ¥300 / ¥18
		"720 h (30 whole days)",         // ¥9000 / ¥300
		"whole days of 24 h",            // the daily assumption is stated
		"Hours of use in the month",     // x axis label
		"Cost per month (CNY)",          // y axis label
		">700</text>", ">¥14000</text>", // ticks
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("default chart lacks %q", want)
		}
	}
}

// TestSampleLabel checks that the chart says which prices are the sample
// defaults: all of them when no price flag is given (whatever -currency,
// -hours-per-month or -o say), none when all three are given, and which ones
// otherwise.
func TestSampleLabel(t *testing.T) {
	for _, tc := range []struct {
		name          string
		args          []string
		title, source string
	}{
		{"defaults", nil, " (sample prices)", "Prices: SAMPLE prices for illustration, not a provider&#39;s quote."},
		{"currency only", []string{"-currency", "USD"}, " (sample prices)", "Prices: SAMPLE prices for illustration"},
		{"month only", []string{"-hours-per-month", "720"}, " (sample prices)", "Prices: SAMPLE prices for illustration"},
		{"hourly only", []string{"-hourly", "20"}, " (partly sample prices)",
			"Prices: hourly as given; daily and monthly the SAMPLE defaults for illustration, not a provider&#39;s quote."},
		{"daily missing", []string{"-hourly", "20", "-monthly", "8000"}, " (partly sample prices)",
			"Prices: hourly and monthly as given; daily the SAMPLE default for illustration"},
		{"all given", []string{"-hourly", "20", "-daily", "300", "-monthly", "8000"}, "", "Prices: as given on the command line."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := string(chartSVG(t, tc.args))
			if title := "against hours used" + tc.title + "</text>"; !strings.Contains(svg, title) {
				t.Errorf("run(%q): chart lacks the title ending %q", tc.args, title)
			}
			if !strings.Contains(svg, tc.source) {
				t.Errorf("run(%q): chart lacks %q", tc.args, tc.source)
			}
		})
	}
}

// TestHelp checks that -h says what the command does, its exit statuses, and
// marks the default prices as samples.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}, msg.EN); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	help := out.String()
	for _, want := range []string{
		"Usage: breakeven [flags]",
		"Prints what one GPU costs in a month",
		"SAMPLE PRICES",
		"Exit status: 0",
		"2 usage error",
		"price of one GPU-hour, in -currency; the default is a SAMPLE price, not a quote (default \"18\")",
		"price of one GPU-day (24 hours), in -currency, or none when there is no daily package; the default is a SAMPLE price, not a quote (default \"300\")",
		"price of one GPU-month, in -currency; the default is a SAMPLE price, not a quote (default \"9000\")",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("-h output lacks %q:\n%s", want, help)
		}
	}
}

// Without -o the figures go to standard output as text and no chart is drawn;
// with -o the chart goes to the file and the text names it.
func TestOutputFile(t *testing.T) {
	var plain bytes.Buffer
	if err := run(&plain, nil, msg.EN); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "<svg") || !strings.HasSuffix(plain.String(), "-o FILE draws the chart as an SVG.\n") {
		t.Errorf("run() wrote %q; want the text, ending with how to draw the chart", plain.String())
	}
	textGolden(t, "default.golden", plain.Bytes())
	path := filepath.Join(t.TempDir(), "chart.svg")
	var stdout bytes.Buffer
	if err := run(&stdout, []string{"-o", path}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(plain.String(), "-o FILE draws the chart as an SVG.", "Chart: "+path, 1); stdout.String() != want {
		t.Errorf("run with -o wrote %q, want %q", stdout.String(), want)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "default.golden.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("-o file differs from testdata/default.golden.svg")
	}
}

// textGolden compares got with testdata/name, or rewrites it with -update.
func textGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
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
		t.Errorf("output differs from %s:\n%s", path, got)
	}
}

// -json prints the prices, the break-even points and the costs at the table's
// hours as one JSON value, the amounts exact strings.
func TestJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	var got jsonChart
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON value: %v", err)
	}
	if len(got.BreakEven) != 3 || got.BreakEven[1].Hours != 500 || !got.BreakEven[1].Cost.Equal(decimal.New(9000, 0)) {
		t.Errorf("break-even %+v: want three, the second at 500 h for 9000", got.BreakEven)
	}
	last := got.Costs[len(got.Costs)-1]
	if last.Hours != 730 || !last.Cost["hourly"].Equal(decimal.New(13140, 0)) || !last.Cost["cheapest"].Equal(decimal.New(9000, 0)) {
		t.Errorf("costs at 730 h %+v: want hourly 13140 (730 × 18) and the month, 9000, cheapest", last)
	}
	if len(got.Samples) != 3 {
		t.Errorf("sample prices %q: want all three", got.Samples)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // stderr names the flag and what it wants
	}{
		{[]string{"-hourly", "0"}, "-hourly 0: want a positive price such as 2.49"},
		{[]string{"-daily", "-3"}, "-daily -3: want a positive price such as 2.49, or as a price list writes it: ¥1.98, 1.98元/小时, or none"},
		{[]string{"-monthly", "lots"}, "-monthly lots: want a positive price"},
		{[]string{"-monthly", "1e3"}, "-monthly 1e3: want a positive price"},
		{[]string{"-monthly", strings.Repeat("9", 10000) + "x"}, "-monthly 9999999999999999999999999999999999999999...: want"},
		{[]string{"-currency", "yuan"}, `-currency "yuan": want a three-letter ISO 4217 code`},
		{[]string{"-currency", "yuan", "-hourly", "2"}, `-currency "yuan"`}, // the currency, not the price, is at fault
		{[]string{"-hours-per-month", "1000"}, "-hours-per-month 1000: want 672 to 744"},
		{[]string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		err := run(io.Discard, tc.args, msg.EN)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("run(%q) error = %v, want a usage error", tc.args, err)
			continue
		}
		var stderr bytes.Buffer
		if got := cli.Exit("breakeven", err, &stderr, msg.EN); got != 2 || !strings.HasPrefix(stderr.String(), "breakeven: "+tc.want) {
			t.Errorf("run(%q): exit %d, stderr %q; want 2 and %q", tc.args, got, stderr.String(), tc.want)
		}
	}
}

// A tariff without a daily package draws hourly, monthly and the mix, and marks
// the monthly break-even only.
func TestNoDaily(t *testing.T) {
	out := chartSVG(t, []string{"-hourly", "2.49", "-daily", "none", "-monthly", "1300", "-currency", "USD"})
	svg := string(out)
	wellFormed(t, out)
	for _, want := range []string{"no day package", "522.1 h in a month", "No daily package."} { // 1300 / 2.49 = 522.09 h
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	for _, bad := range []string{"Daily (whole days", "a day package", "whole days)"} {
		if strings.Contains(svg, bad) {
			t.Errorf("chart without a daily package shows %q", bad)
		}
	}
}

// No Go identifier reaches the chart: what a reader sees is words.
func TestNoGoIdentifiers(t *testing.T) {
	ident := regexp.MustCompile(`\b(pricing|Tariff|Quote|Money)\.[A-Z]|BreakEven|\(s\)`)
	for _, args := range [][]string{nil, {"-daily", "none"}} {
		var out bytes.Buffer
		if err := run(&out, args, msg.EN); err != nil {
			t.Fatal(err)
		}
		if m := ident.FindString(out.String() + string(chartSVG(t, args))); m != "" {
			t.Errorf("run(%q): text or chart shows %q", args, m)
		}
	}
}

// Prices read as a price list writes them; a package that costs less than a
// shorter one is warned of, in the text and the JSON.
func TestPriceForms(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-hourly", "¥1.98", "-daily", "40元/天", "-monthly", "1,100"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if want := "One GPU: ¥1.98 an hour, ¥40 a day, ¥1100 a month of 730 h."; !strings.HasPrefix(out.String(), want) || strings.Contains(out.String(), "Warning") {
		t.Errorf("output %q: want it to start %q, without warnings", out.String(), want)
	}
	if err := run(io.Discard, []string{"-hourly", "$2"}, msg.EN); !errors.Is(err, cli.ErrUsage) {
		t.Errorf("-hourly $2 in CNY: %v, want a usage error", err)
	}
	out.Reset()
	if err := run(&out, []string{"-hourly", "20", "-daily", "300", "-monthly", "250", "-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	var got jsonChart
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a month (¥250) costs less than a day (¥300): check the prices, a longer package never costs less than a shorter one"}; !slices.Equal(got.Warnings, want) {
		t.Errorf("warnings %q, want %q", got.Warnings, want)
	}
}

// TestNever checks that a package which never pays against hourly use within
// its span is said so, rather than left out of the break-even points: at ¥7.98
// an hour a ¥9000 month would take 1127.8 h (over 730), and a ¥300 day 37.6 h.
func TestNever(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-hourly", "7.98", "-daily", "300", "-monthly", "9000"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"The monthly package (¥9000) never beats hourly use within the month: all 730 h by the hour cost\n    ¥5825.40.", // 730 × 7.98
		"A day package (¥300) never beats hourly use: a whole day by the hour costs ¥191.52.",                            // 24 × 7.98
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("run() output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "beats hourly use.") {
		t.Errorf("run() output marks a break-even with hourly use that does not happen:\n%s", out.String())
	}
}
