package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"pgregory.net/rapid"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./examples/plan -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("run() output mismatch (-want +got):\n%s", diff)
	}
}

// result is one run of the command.
type result struct {
	code           int
	stdout, stderr string
}

func runArgs(args ...string) result {
	var out, errOut bytes.Buffer
	code := cli.Main("plan", run, args, msg.EN, &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// noFitArgs is a job that fits no offer: a 13B model in FP16 on 24 GB cards.
var noFitArgs = []string{"-model", "llama-2-13b", "-task", "inference", "-precision", "fp16", "-context", "4096", "-batch", "1", "-offers", "testdata/only_4090.csv"}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"default", nil, exitOK},
		{"70b_inference_month", []string{"-model", "llama-2-70b", "-task", "inference", "-precision", "bf16", "-context", "4096", "-batch", "8", "-tokens", "0", "-usage", "720h", "-limit", "5"}, exitOK},
		{"13b_fp16_no_fit", noFitArgs, exitFail},
		{"8b_deadline", []string{"-model", "llama-3-8b", "-task", "training", "-tokens", "2e9", "-deadline", "24h", "-limit", "5"}, exitOK},
		{"daily_sessions", []string{"-task", "qlora", "-per-day", "6h", "-days", "20", "-limit", "3"}, exitOK},
		// No tokens and no -usage: the costs are of plan.DefaultDemoHour, and say so.
		{"memory_only", []string{"-tokens", "0", "-limit", "2"}, exitOK},
		// One option fits: the header is singular.
		{"one_fit", []string{"-task", "qlora", "-tokens", "1e7", "-offers", "testdata/only_4090.csv"}, exitOK},
		// Price books as providers publish them: a SkyPilot catalog (the cloud from
		// the file's name, the CPU rows left out, Lambda's RTX6000 planned as the
		// Quadro RTX 6000 at its FP16 rate) and vast.ai's offers, priced per instance.
		{"skypilot_lambda", []string{"-offers", "../../pricing/testdata/skypilot/lambda_vms.csv", "-limit", "4"}, exitOK},
		{"skypilot_lambda_70b", []string{"-offers", "../../pricing/testdata/skypilot/lambda_vms.csv", "-model", "llama-2-70b", "-task", "inference", "-precision", "bf16", "-context", "4096", "-batch", "8", "-tokens", "0", "-usage", "720h", "-limit", "3"}, exitOK},
		{"vast", []string{"-offers", "../../pricing/testdata/vast/offers_sample.json", "-limit", "3"}, exitOK},
		// A list in CNY and USD, ranked in CNY at a rate the user gives.
		{"two_currencies", []string{"-offers", "testdata/two_currencies.csv", "-rates", "CNY:USD=7.20", "-limit", "3"}, exitOK},
		// A model known by its size alone: the note names -config.
		{"params_only", []string{"-params", "7B", "-limit", "3"}, exitOK},
		// A model from its config.json; inference defaults to one sequence and 1e6 tokens.
		{"config_inference", []string{"-config", qwenConfig, "-task", "inference", "-limit", "3"}, exitOK},
		// An image-generation job: the cards that hold SDXL at 1024², priced for a day of use.
		{"render_sdxl", []string{"-render", "sdxl", "-size", "1024", "-usage", "24h", "-limit", "5"}, exitOK},
		// SDXL at 2048² by the scaling rule: 25.1 GiB with headroom, over a 24 GB card.
		{"render_no_fit", []string{"-render", "sdxl", "-size", "2048", "-offers", "testdata/only_4090.csv"}, exitFail},
		// Every column, past the 100 columns of the default.
		{"wide", []string{"-wide", "-limit", "3"}, exitOK},
		// In Chinese: the default job, the Chinese price-list template (provider
		// and region names in Chinese, aligned by display width), a render job,
		// a job that fits nowhere, and offers of an unknown card beside known ones.
		{"zh_default", []string{"-lang", "zh"}, exitOK},
		{"zh_template", []string{"-lang", "zh", "-offers", "offers_template_zh.csv", "-limit", "2"}, exitOK},
		{"zh_render", []string{"-lang", "zh", "-render", "sdxl", "-size", "1024", "-usage", "24h", "-limit", "3"}, exitOK},
		{"zh_no_fit", append([]string{"-lang", "zh"}, noFitArgs...), exitFail},
		// Issue 23's pins: -card without -offers answers whether the job fits and
		// how long it takes (no prices), in both languages; a layout pinned with
		// offload shows the host memory column; -rank time orders by time.
		{"fit_cards", []string{"-card", "rtx-4090", "-card", "H100 SXM5 80GB,A100 80GB"}, exitOK},
		{"zh_fit_cards", []string{"-lang", "zh", "-card", "rtx-4090", "-model", "llama-2-13b", "-task", "training"}, exitOK},
		{"fit_serving", append([]string{"-card", "rtx-4090,L40S"}, serveArgs...), exitOK},
		{"pinned_layout", []string{"-layout", "dp=2,zero=3,offload", "-limit", "3"}, exitOK},
		{"rank_time", []string{"-rank", "time", "-limit", "3", "-every"}, exitOK},
		// -calibrate: a step timed on the RTX 4090 times its offers, other cards as modelled.
		{"calibrated", []string{"-calibrate", "testdata/calibrate_step.json", "-limit", "3"}, exitOK},
		{"zh_calibrated_serving", append([]string{"-lang", "zh", "-calibrate", "testdata/calibrate_tpot.json", "-limit", "3"}, serveArgs...), exitOK},
		{"zh_two_currencies", []string{"-lang", "zh", "-offers", "testdata/two_currencies.csv", "-rates", "CNY:USD=7.20", "-limit", "3"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runArgs(tc.args...)
			if r.code != tc.code || r.stderr != "" {
				t.Fatalf("run(%q) = exit %d, stderr %q; want exit %d, empty stderr", tc.args, r.code, r.stderr, tc.code)
			}
			golden(t, tc.name, []byte(r.stdout))
			if tc.name != "wide" && !strings.Contains(tc.name, "fit_") { // -card's fit table lists whole layouts
				fits(t, r.stdout)
			}
		})
	}
}

// fits fails the test when a line of out passes the 100 columns of the default
// report, unless it is one word that cannot be broken.
func fits(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if text.Width(l) > width && len(strings.Fields(l)) > 1 {
			t.Errorf("line of %d columns, over %d:\n%s", text.Width(l), width, l)
		}
	}
}

func TestJSON(t *testing.T) {
	r := runArgs("-json", "-limit", "2")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q; want exit 0, empty stderr", r.code, r.stderr)
	}
	var out struct {
		Currency   string           `json:"currency"`
		Considered int              `json:"considered"`
		Returned   int              `json:"returned"`
		Options    []map[string]any `json:"options"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	opts := out.Options
	if out.Currency != "CNY" || out.Returned != 2 || out.Considered <= out.Returned {
		t.Errorf("currency %q, %d returned of %d considered; want CNY, 2 of more", out.Currency, out.Returned, out.Considered)
	}
	if len(opts) != 2 {
		t.Fatalf("%d options, want 2", len(opts))
	}
	cost := opts[0]["cost"].(map[string]any)["total"].(map[string]any)
	if _, ok := cost["amount"].(string); !ok || cost["currency"] != "CNY" {
		t.Errorf("cost total %v: want an exact string amount in CNY", cost)
	}
	golden(t, "json_top2", []byte(r.stdout))
}

// TestJSONNoFit checks that -json reports no fit as a JSON object holding the
// same reasons and suggestions as the text report, and exits 1.
func TestJSONNoFit(t *testing.T) {
	r := runArgs(append([]string{"-json"}, noFitArgs...)...)
	if r.code != exitFail || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q; want exit 1, empty stderr", r.code, r.stderr)
	}
	var got report.ErrorJSON
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("output %q is not the error object: %v", r.stdout, err)
	}
	golden(t, "13b_fp16_no_fit_json", []byte(r.stdout))

	// The text report's "  - " lines: the reasons, then after "What would fit:"
	// the suggestions.
	text := runArgs(noFitArgs...)
	var want report.ErrorJSON
	want.NoFit = true
	list := &want.Reasons
	for _, line := range strings.Split(text.stdout, "\n") {
		switch {
		case line == "What would fit:":
			list = &want.Suggestions
		case strings.HasPrefix(line, "  - "):
			*list = append(*list, strings.TrimPrefix(line, "  - "))
		case strings.HasPrefix(line, "    ") && len(*list) > 0: // a wrapped line
			(*list)[len(*list)-1] += " " + strings.TrimPrefix(line, "    ")
		}
	}
	if len(want.Reasons) == 0 || len(want.Suggestions) == 0 {
		t.Fatalf("text report %q: want reasons and suggestions to compare with", text.stdout)
	}
	want.Error = "plan: no option fits: " + strings.Join(want.Reasons, "; ") + "; what would fit: " + strings.Join(want.Suggestions, "; ")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON no-fit report differs from the text report (-want +got):\n%s", diff)
	}
}

// TestJSONErrors checks that with -json a failure after the flags parse is a
// JSON object on stdout, with the exit status of the failure.
func TestJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string // in the error
	}{
		{[]string{"-offers", "testdata/missing.json"}, exitUsage, "-offers testdata/missing.json: cannot open"},
		{[]string{"-model", "llama-9"}, exitUsage, `-model "llama-9"`},
		{[]string{"-per-day", "6h"}, exitUsage, "-per-day needs -days"},
		{[]string{"-budget", "lots"}, exitUsage, `-budget "lots"`},
	} {
		r := runArgs(append([]string{"-json"}, tc.args...)...)
		var got report.ErrorJSON
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Errorf("run(-json %q): stdout %q is not JSON: %v", tc.args, r.stdout, err)
			continue
		}
		if r.code != tc.code || r.stderr != "" || !strings.Contains(got.Error, tc.msg) || got.NoFit ||
			got.Reasons == nil || len(got.Reasons) != 0 || got.Suggestions == nil || len(got.Suggestions) != 0 {
			t.Errorf("run(-json %q) = exit %d, stderr %q, %+v; want exit %d, empty stderr, an error naming %q, no_fit false, empty lists",
				tc.args, r.code, r.stderr, got, tc.code, tc.msg)
		}
	}
}

// TestExitStatus checks the status and the message of each kind of failure.
func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string // on stderr
	}{
		{"bad flag value", []string{"-context", "x"}, exitUsage, `invalid value "x" for flag -context`},
		{"bad usage", []string{"-usage", "30x"}, exitUsage, `invalid value "30x" for flag -usage: want a duration such as 720h, 90m or 30d`},
		{"bare number usage", []string{"-usage", "30"}, exitUsage, `invalid value "30" for flag -usage: want a duration such as 720h, 90m or 30d`},
		{"two day counts", []string{"-deadline", "1d2d"}, exitUsage, `invalid value "1d2d" for flag -deadline: want a duration`},
		{"bad per-day", []string{"-per-day", "six hours", "-days", "2"}, exitUsage, `for flag -per-day: want a duration such as 720h, 90m or 30d`},
		{"days past range", []string{"-usage", "200000d"}, exitUsage, `invalid value "200000d" for flag -usage: out of range`},
		{"unknown flag", []string{"-bogus"}, exitUsage, "flag provided but not defined: -bogus"},
		{"rates without base", []string{"-rates", "USD=7.2"}, exitUsage, `invalid value "USD=7.2" for flag -rates: want BASE:CUR=RATE`},
		{"rate not a number", []string{"-rates", "CNY:USD=seven"}, exitUsage, `for flag -rates: USD="seven": not a number`},
		{"rate twice", []string{"-rates", "CNY:USD=7,USD=8"}, exitUsage, "for flag -rates: USD given twice"},
		{"mixed currencies without rates", []string{"-offers", "testdata/two_currencies.csv"}, exitFail,
			"plan: offers in CNY (line 2) and USD (line 3): give exchange rates to rank them together: currency mismatch (give them with -rates, e.g. -rates CNY:USD=7.20)\n"},
		{"extra argument", []string{"extra"}, exitUsage, `unexpected arguments ["extra"]`},
		{"bad params", []string{"-params", "-5"}, exitUsage, `-params "-5": want a count such as 7B`},
		{"params too large", []string{"-params", "2000T"}, exitUsage, `-params "2000T": want from 1 to 1e15 parameters`},
		{"params under one", []string{"-params", "0.4"}, exitUsage, `-params "0.4": want from 1 to 1e15 parameters`},
		{"params not a number", []string{"-params", "seven"}, exitUsage, `-params "seven": want a count`},
		{"params and config", []string{"-params", "7B", "-config", "../../sizing/models/qwen2.5-7b.json"}, exitUsage, "-params is for a model known by its size alone"},
		{"model and config", []string{"-model", "llama-2-7b", "-config", "../../sizing/models/qwen2.5-7b.json"}, exitUsage, "give -model or a model's -params, -config or files, not both"},
		{"gguf and safetensors", []string{"-gguf", "testdata/tiny.gguf", "-safetensors", "testdata/tiny-00001-of-00002.safetensors"}, exitUsage, "give -gguf or -safetensors files of one model, not both"},
		{"empty file name", []string{"-safetensors", "a.safetensors,"}, exitUsage, "empty file name"},
		{"missing config", []string{"-config", "testdata/missing.json"}, exitUsage, "-config testdata/missing.json: cannot open"},
		{"config not a config", []string{"-config", "testdata/only_4090.csv"}, exitFail, "-config testdata/only_4090.csv: sizing: config.json"},
		{"safetensors not safetensors", []string{"-safetensors", "testdata/only_4090.csv"}, exitFail, "-safetensors testdata/only_4090.csv: sizing:"},
		{"gguf not gguf", []string{"-gguf", "testdata/only_4090.csv"}, exitFail, "-gguf testdata/only_4090.csv: sizing:"},
		{"negative batch", []string{"-batch", "-1"}, exitUsage, "-batch -1: want 1 or more"},
		{"zero batch", []string{"-batch", "0", "-task", "inference"}, exitUsage, "-batch 0: want 1 or more"},
		{"zero context", []string{"-context", "0"}, exitUsage, "-context 0: want 1 or more tokens"},
		{"negative lora rank", []string{"-lora-rank", "-8"}, exitUsage, "-lora-rank -8: want 0 (the default rank) or more"},
		{"negative max-gpus", []string{"-max-gpus", "-1"}, exitUsage, "-max-gpus -1: want 0"},
		{"negative tokens", []string{"-tokens", "-5"}, exitUsage, `-tokens "-5": want a count`},
		{"NaN tokens", []string{"-tokens", "NaN"}, exitUsage, `-tokens "NaN": want a count`},
		{"headroom of one", []string{"-headroom", "1"}, exitUsage, "-headroom 1: want a fraction from 0 to below 1"},
		{"utilization past one", []string{"-utilization", "1.5"}, exitUsage, "-utilization 1.5: want a fraction above 0 and at most 1"},
		{"negative usage", []string{"-usage", "-1h"}, exitUsage, "-usage -1h: want 0 or more"},
		{"negative deadline", []string{"-deadline", "-2h"}, exitUsage, "-deadline -2h: want 0 (none) or more"},
		{"bad kv precision", []string{"-task", "inference", "-kv-precision", "fp5"}, exitUsage, `-kv-precision "fp5": want fp64, fp32`},
		{"bad recompute", []string{"-recompute", "some"}, exitUsage, `-recompute "some": want none, selective or full`},
		{"context past the window", []string{"-task", "inference", "-context", "9000"}, exitUsage, "-context 9000: past llama-2-7b's context window of 4096 tokens"},
		{"training quantized weights", []string{"-task", "training", "-precision", "q4_k_m"}, exitUsage, "-task training, -precision q4_k_m, -context 2048: sizing: workload: full training needs a floating-point precision"},
		{"deadline without work", []string{"-tokens", "0", "-deadline", "12h"}, exitUsage, "-deadline needs work to finish, and -tokens 0 gives none"},
		{"render with a model flag", []string{"-render", "sdxl", "-task", "inference"}, exitUsage, "-task does not apply to -render"},
		{"size without render", []string{"-size", "1024"}, exitUsage, "-size is for -render"},
		{"unknown render kind", []string{"-render", "dalle"}, exitUsage, `-render "dalle": want sd15, sdxl, flux1 or cycles`},
		{"empty render kind", []string{"-render", ""}, exitUsage, `-render "": want sd15, sdxl, flux1 or cycles`},
		{"bad size", []string{"-render", "sdxl", "-size", "big"}, exitUsage, `-size "big": want pixels, such as 1024 (a square) or 1920x1080`},
		{"zero size", []string{"-render", "sdxl", "-size", "0x512"}, exitUsage, `-size "0x512": want pixels`},
		{"past the render table", []string{"-render", "flux1", "-size", "2048"}, exitUsage, "-render flux1 -size 2048: sizing: flux1 at 2048×2048 is past the render table"},
		{"usage and sessions", []string{"-usage", "1h", "-per-day", "2h", "-days", "3"}, exitUsage, "give -usage or -per-day with -days, not both"},
		{"bad budget", []string{"-budget", "lots"}, exitUsage, `-budget "lots": not a decimal amount`},
		// A budget with its unit after it: what to write instead (a sign in
		// front, "¥50", reads as the web page reads it).
		{"budget with a unit", []string{"-budget", "50元"}, exitUsage, `-budget "50元": not a decimal amount: write the number, such as 500 or ¥500`},
		{"limit under -1", []string{"-limit", "-2"}, exitUsage, "-limit -2: want -1 (all), 0 (ten) or more"},
		{"negative gpus", []string{"-gpus", "-1"}, exitUsage, "-gpus -1: want 0 (searched) or more"},
		{"unknown layout key", []string{"-layout", "dp=2,foo=1"}, exitUsage, `-layout "dp=2,foo=1": "foo=1": not a key of a layout: dp, tp, pp, zero, sp, offload`},
		{"bad zero stage", []string{"-layout", "zero=4"}, exitUsage, `"zero=4": want zero=0 to zero=3`},
		{"bad rank", []string{"-rank", "fastest"}, exitUsage, `-rank "fastest": want cost, time, frontier`},
		{"unknown card to fit", []string{"-card", "RTX 9090"}, exitUsage, `-card: `},
		{"per-day alone", []string{"-per-day", "6h"}, exitUsage, "-per-day needs -days"},
		{"days alone", []string{"-days", "20"}, exitUsage, "-days needs -per-day"},
		{"zero days given", []string{"-per-day", "6h", "-days", "0"}, exitUsage, "-days 0: want 1 to 36500"},
		{"long per-day", []string{"-per-day", "25h", "-days", "2"}, exitUsage, "-per-day 25h: want more than 0 and at most 24h"},
		{"unknown model", []string{"-model", "llama-9"}, exitUsage, `-model "llama-9": not a preset (-model list prints them; a model's folder, or -config with its config.json, reads another)`},
		{"unknown task", []string{"-task", "dance"}, exitUsage, `-task "dance": want inference, training, lora or qlora`},
		{"fine-tune", []string{"-task", "finetune"}, exitUsage, `-task "finetune": a fine-tune of every weight is training, of adapters lora (or qlora on 4-bit weights); want inference, training, lora or qlora`},
		{"unknown precision", []string{"-precision", "fp7"}, exitUsage, `-precision "fp7": want fp64, fp32, tf32, fp16, bf16, fp8, int8, int4, nf4, gptq4, awq4, q2_k, q3_k_m, q4_0, q4_k_s, q4_k_m, q5_k_m, q6_k, q8_0, mxfp4, nvfp4, or bits per weight`},
		{"missing offers", []string{"-offers", "testdata/missing.json"}, exitUsage, "-offers testdata/missing.json: cannot open"},
		{"missing calibration", []string{"-calibrate", "testdata/missing.json"}, exitUsage, "-calibrate testdata/missing.json: cannot open"},
		{"calibration key misspelt", []string{"-calibrate", "testdata/calibrate_typo.json"}, exitFail, `-calibrate testdata/calibrate_typo.json: json: unknown field "stpe"; want JSON such as {"card": "RTX 4090", "step": "1.9s"}`},
		{"calibration faster than the card", []string{"-calibrate", "testdata/calibrate_fast.json"}, exitFail, "-calibrate testdata/calibrate_fast.json: compute: a measured step of 100ms is faster than"},
		{"decode calibration for training", []string{"-calibrate", "testdata/calibrate_tpot.json"}, exitUsage, `-calibrate testdata/calibrate_tpot.json: a "step" measures training and a "tpot" inference`},
		{"calibration of an unknown model", []string{"-calibrate", "testdata/calibrate_badmodel.json"}, exitFail, `-calibrate testdata/calibrate_badmodel.json: model "llama-99": not a preset`},
		{"calibration and utilization", []string{"-calibrate", "testdata/calibrate_step.json", "-utilization", "0.4"}, exitUsage, "-utilization sets the speed by hand"},
		{"calibration with render", []string{"-render", "sdxl", "-calibrate", "testdata/calibrate_step.json"}, exitUsage, "-calibrate does not apply to -render"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runArgs(tc.args...)
			if r.code != tc.code || !strings.HasPrefix(r.stderr, "plan: ") || !strings.Contains(r.stderr, tc.msg) || r.stdout != "" {
				t.Errorf("run(%q) = exit %d, stderr %q, stdout %q; want exit %d, stderr naming %q, empty stdout",
					tc.args, r.code, r.stderr, r.stdout, tc.code, tc.msg)
			}
			if m := goIdentifier.FindString(r.stderr); m != "" {
				t.Errorf("run(%q) stderr %q shows %q", tc.args, r.stderr, m)
			}
			if strings.Contains(r.stderr, "plan: plan:") || strings.Contains(r.stderr, "usage error:") {
				t.Errorf("run(%q) stderr %q names the command or the kind of error twice", tc.args, r.stderr)
			}
			if tc.code == exitUsage && !strings.Contains(r.stderr, "-h") && !strings.Contains(r.stderr, "Usage:") {
				t.Errorf("run(%q) stderr %q: want a pointer to the usage", tc.args, r.stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	r := runArgs("-h")
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q; want exit 0, empty stderr", r.code, r.stderr)
	}
	for _, want := range []string{"Usage: plan", "Exit status: 0", "2 usage error", "-per-day duration", "-usage duration",
		"-deadline duration", "30d, 1.5d, 30d12h", "needs -days", "-json",
		"-config file", "-gguf file", "-safetensors file", "-params string", "-eager", "-render string", "-size string", "7B, 70b, 1.5e9"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("-h output lacks %q:\n%s", want, r.stdout)
		}
	}
	// Every column of both tables is explained, under its heading.
	for _, cols := range [][]report.Column{report.PlanColumns, report.ServingColumns} {
		for _, c := range cols {
			head, help := msg.EN.T("plan.col."+c.ID), msg.EN.T("plan.colhelp."+c.ID)
			words := strings.Join(strings.Fields(help)[:3], " ")
			if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(head) + ` +` + regexp.QuoteMeta(words)).MatchString(r.stdout) {
				t.Errorf("-h does not explain the column %q (%q...):\n%s", head, words, r.stdout)
			}
		}
	}
	// A bad flag says what is wrong and where the usage is, on stderr.
	bad := runArgs("-bogus")
	if bad.code != exitUsage || bad.stdout != "" || !strings.Contains(bad.stderr, "-bogus") || !strings.Contains(bad.stderr, "-h lists the flags") {
		t.Errorf("bad flag: exit %d, stdout %q, stderr %q; want exit 2 and a pointer to -h on stderr", bad.code, bad.stdout, bad.stderr)
	}
}

func TestModelList(t *testing.T) {
	text := runArgs("-model", "list")
	if text.code != exitOK || !strings.Contains(text.stdout, "llama-2-7b\n") {
		t.Errorf("-model list = exit %d, %q; want exit 0 and llama-2-7b listed", text.code, text.stdout)
	}
	js := runArgs("-json", "-model", "list")
	var names []string
	if err := json.Unmarshal([]byte(js.stdout), &names); err != nil || js.code != exitOK {
		t.Fatalf("-json -model list = exit %d, %q (%v); want exit 0 and a JSON array", js.code, js.stdout, err)
	}
	if got, want := strings.Join(names, "\n")+"\n", text.stdout; got != want {
		t.Errorf("JSON names %q, want the text list %q", got, want)
	}
}

// The Job line names the model asked for: DeepSeek-R1 shares DeepSeek-V3's
// architecture but is a model of its own, and -model list lists both.
func TestJobNamesModelAskedFor(t *testing.T) {
	for _, tc := range []struct{ model, want string }{
		{"deepseek-ai/DeepSeek-R1", "Job:    deepseek-r1 (671B parameters)"},
		{"deepseek-v3", "Job:    deepseek-v3 (671B parameters)"},
	} {
		r := runArgs("-model", tc.model, "-task", "inference", "-precision", "fp8", "-batch", "1", "-context", "4096")
		if !strings.HasPrefix(r.stdout, tc.want) {
			line, _, _ := strings.Cut(r.stdout, "\n")
			t.Errorf("-model %s: exit %d, first line %q, want it to begin %q (stderr %q)", tc.model, r.code, line, tc.want, r.stderr)
		}
	}
	list := runArgs("-model", "list").stdout
	for _, name := range []string{"deepseek-r1\n", "deepseek-v3\n"} {
		if !strings.Contains(list, name) {
			t.Errorf("-model list lacks %q:\n%s", name, list)
		}
	}
}

// TestJSONAlways checks, over drawn command lines, that with -json stdout is
// exactly one JSON value: an array of options when the exit status is 0, an error
// object otherwise; stderr stays empty.
func TestJSONAlways(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		args := []string{"-json",
			"-model", rapid.SampledFrom([]string{"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-9"}).Draw(t, "model"),
			"-task", rapid.SampledFrom([]string{"inference", "lora", "qlora", "training", "dance"}).Draw(t, "task"),
			"-precision", rapid.SampledFrom([]string{"bf16", "fp16", "fp8", "nf4", "fp7"}).Draw(t, "precision"),
			"-context", strconv.Itoa(rapid.SampledFrom([]int{-1, 0, 512, 4096, 1 << 20}).Draw(t, "context")),
			"-offers", rapid.SampledFrom([]string{"", "testdata/only_4090.csv", "testdata/missing.json"}).Draw(t, "offers"),
			"-limit", "2",
		}
		if rapid.Bool().Draw(t, "per_day") {
			args = append(args, "-per-day", rapid.SampledFrom([]string{"0s", "6h", "25h"}).Draw(t, "per_day_value"))
		}
		if rapid.Bool().Draw(t, "days") {
			args = append(args, "-days", rapid.SampledFrom([]string{"0", "20"}).Draw(t, "days_value"))
		}
		if rapid.Bool().Draw(t, "usage") {
			args = append(args, "-usage", "100h")
		}
		r := runArgs(args...)
		if r.stderr != "" {
			t.Fatalf("run(%q): stderr %q, want empty", args, r.stderr)
		}
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("run(%q): stdout %q is not JSON: %v", args, r.stdout, err)
		}
		if dec.More() {
			t.Fatalf("run(%q): stdout %q holds more than one JSON value", args, r.stdout)
		}
		switch r.code {
		case exitOK:
			if m, ok := v.(map[string]any); !ok || len(m["options"].([]any)) == 0 {
				t.Fatalf("run(%q) = exit 0 with %q; want an object with options", args, r.stdout)
			}
		case exitFail, exitUsage:
			obj, ok := v.(map[string]any)
			if !ok || obj["error"] == "" || obj["error"] == nil {
				t.Fatalf("run(%q) = exit %d with %q; want an error object", args, r.code, r.stdout)
			}
		default:
			t.Fatalf("run(%q) = exit %d, want 0, 1 or 2", args, r.code)
		}
	})
}

// TestMemoryOnlyCost checks that with no tokens the output says which rental the
// costs are for: plan.DefaultDemoHour, or the -usage given.
func TestMemoryOnlyCost(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-tokens", "0", "-limit", "1"}, "no -tokens or -usage, so the costs are for " + msg.EN.Dur(plan.DefaultDemoHour) + " of rental only"},
		{[]string{"-tokens", "0", "-usage", "90m", "-limit", "1"}, "the costs are for 1h30m of rental (-usage)"},
		{[]string{"-tokens", "0", "-per-day", "6h", "-days", "1", "-limit", "1"}, "the costs are for 6h of use a day on 1 day (-per-day, -days)"},
	} {
		r := runArgs(tc.args...)
		if r.code != exitOK || !strings.Contains(r.stdout, "Rental: "+tc.want+"\n") {
			t.Errorf("run(%q) = exit %d:\n%s\nwant exit 0 and %q", tc.args, r.code, r.stdout, tc.want)
		}
	}
	if r := runArgs("-limit", "1"); strings.Contains(r.stdout, "Rental:") {
		t.Errorf("run with tokens says which rental the costs are for; the job's time is the rental:\n%s", r.stdout)
	}
}

// failingWriter fails every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// When even the JSON error object cannot be written, the exit status still says
// what went wrong first, and stderr says both.
func TestJSONErrorWriteFails(t *testing.T) {
	var errOut bytes.Buffer
	code := cli.Main("plan", run, []string{"-json", "-per-day", "6h"}, msg.EN, failingWriter{}, &errOut)
	if code != exitUsage || !strings.Contains(errOut.String(), "-per-day needs -days") || !strings.Contains(errOut.String(), "broken pipe") {
		t.Errorf("exit %d, stderr %q; want 2 naming the usage error and the failed write", code, errOut.String())
	}
}

// goIdentifier matches Go names that mean nothing to someone running the
// command: a package or type with a field or method, and "GPU(s)"-style plurals.
var goIdentifier = regexp.MustCompile(`\b(sizing|pricing|plan|catalog|compute|Tariff|Quote|Money|Request|Workload|Model|Offer|Option|Breakdown)\.[A-Z]|BreakEven|InterruptionsPerDay|EagerAttention|FlashAttention|\bRates\b|MaxGPUs|GPUsPerInstance|\(s\)`)

// The default context is cut to a smaller window: GPT-2 XL's position table
// holds 1024 tokens.
func TestDefaultContextWithinWindow(t *testing.T) {
	r := runArgs("-model", "gpt2-xl", "-task", "inference", "-limit", "1")
	if r.code != exitOK || !strings.Contains(strings.ReplaceAll(r.stdout, "\n        ", " "), "1 sequence of up to 1024 tokens per replica") {
		t.Errorf("exit %d, stderr %q:\n%s\nwant a plan at 1024 tokens", r.code, r.stderr, r.stdout)
	}
}

// TestNoGoIdentifiers scans every golden file and the -h text for Go names.
func TestNoGoIdentifiers(t *testing.T) {
	goldens, err := filepath.Glob("testdata/*.golden")
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	texts := map[string]string{"-h": runArgs("-h").stdout}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		texts[g] = string(b)
	}
	for name, text := range texts {
		if m := goIdentifier.FindString(text); m != "" {
			t.Errorf("%s shows %q", name, m)
		}
	}
	if m := goIdentifier.FindString("about 1 GPU(s), give Tariff.BreakEvenFor"); m == "" {
		t.Error("the pattern misses what it is for")
	}
}

// Unit prices print exactly, on the cost line and in the market warning: a price
// list's USD 0.333/h never reads USD 0.33/h.
func TestUnitPricesExact(t *testing.T) {
	for _, args := range [][]string{
		{"-task", "inference", "-tokens", "0", "-usage", "10h", "-offers", "testdata/usd_third.csv"},
		{"-render", "sd15", "-usage", "10h", "-offers", "testdata/usd_third.csv"},
	} {
		r := runArgs(args...)
		if r.code != exitOK {
			t.Fatalf("run(%q) = exit %d, %q", args, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "hourly 10 h × USD 0.333/h = USD 3.33") || strings.Contains(r.stdout, "0.33/h") {
			t.Errorf("run(%q):\n%s\nwant the unit price USD 0.333/h exactly", args, r.stdout)
		}
	}
}

// The warning on a card whose name does not say its board compares the times
// as it writes them: never "1h10m0s instead of 1h10m0s" (Llama-3.1-8B LoRA on
// 6 "A100 80G", whose PCIe and SXM4 boards finish seconds apart).
func TestBoardWarningTimesDiffer(t *testing.T) {
	args := []string{"-model", "llama-3.1-8b", "-offers", "testdata/a100_80g.csv", "-limit", "1"}
	r := runArgs(args...)
	if r.code != exitOK || !strings.Contains(r.stdout, "does not say its board") {
		t.Fatalf("run(%q) = exit %d, %q\n%s; want an option warned of its board", args, r.code, r.stderr, r.stdout)
	}
	for _, m := range regexp.MustCompile(`(\S+) instead of (\S+)`).FindAllStringSubmatch(strings.ReplaceAll(r.stdout, "\n    ", " "), -1) {
		if strings.TrimSuffix(m[2], ",") == m[1] {
			t.Errorf("run(%q) compares a time with itself: %q", args, m[0])
		}
	}
}

// -eager sets Workload.EagerAttention, which keeps the attention scores and so
// needs more activation memory; -flash, a deprecated copy of it, is gone.
func TestEager(t *testing.T) {
	plan := func(args ...string) (eager bool, activations int64) {
		t.Helper()
		r := runArgs(append([]string{"-json", "-limit", "1", "-batch", "1"}, args...)...) // one sequence: no smaller micro-batch to fall back on
		if r.code != exitOK {
			t.Fatalf("run(%q) = exit %d, %q", args, r.code, r.stderr)
		}
		var out struct {
			Job struct {
				Workload struct {
					Eager bool `json:"eager_attention"`
				} `json:"workload"`
			} `json:"job"`
			Options []struct {
				PerGPU struct {
					Activations int64 `json:"activations_bytes"`
				} `json:"per_gpu"`
			} `json:"options"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatal(err)
		}
		return out.Job.Workload.Eager, out.Options[0].PerGPU.Activations
	}
	e0, a0 := plan()
	e1, a1 := plan("-eager")
	if e0 || !e1 || a1 <= a0 {
		t.Errorf("default %v %d, -eager %v %d; want eager only with -eager, with more activations", e0, a0, e1, a1)
	}
	if r := runArgs("-flash=false"); r.code != exitUsage || !strings.Contains(r.stderr, "flag provided but not defined: -flash") {
		t.Errorf("-flash: exit %d, stderr %q; want it gone, a usage error", r.code, r.stderr)
	}
}

// The locale main hands to run decides the language when -lang is not given;
// -lang overrides it either way; -h is in that language.
func TestLanguage(t *testing.T) {
	run1 := func(lang msg.Lang, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := cli.Main("plan", run, args, lang, &out, &errOut); code != exitOK {
			t.Fatalf("run(%q) in %v = exit %d, %q", args, lang, code, errOut.String())
		}
		return out.String()
	}
	if got := run1(msg.ZH, "-limit", "1"); !strings.HasPrefix(got, "任务：") || !strings.Contains(got, "预计费用（元）") {
		t.Errorf("a zh locale: want the report in Chinese:\n%s", got)
	}
	if got := run1(msg.ZH, "-limit", "1", "-lang", "en"); !strings.HasPrefix(got, "Job:") {
		t.Errorf("-lang en in a zh locale: want English:\n%s", got)
	}
	if got := run1(msg.EN, "-lang", "zh", "-h"); !strings.HasPrefix(got, "用法：plan") || !strings.Contains(got, "预设模型名") ||
		!strings.Contains(got, "（默认 \"llama-2-7b\"）") || !strings.Contains(got, "\n  预计费用  ") {
		t.Errorf("-lang zh -h: want the usage in Chinese:\n%s", got)
	}
	var out, errOut bytes.Buffer
	if code := cli.Main("plan", run, []string{"-lang", "zh", "-budget", "-10"}, msg.EN, &out, &errOut); code != exitUsage ||
		!strings.Contains(errOut.String(), "-budget -10: 应为大于 0 的金额") || !strings.Contains(errOut.String(), msg.ZH.T("cli.usage")) {
		t.Errorf("a usage error in Chinese: exit %d, stderr %q", code, errOut.String())
	}
	errOut.Reset()
	if code := cli.Main("plan", run, []string{"-lang", "fr"}, msg.EN, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), "-lang: want zh or en") {
		t.Errorf("-lang fr: exit %d, stderr %q", code, errOut.String())
	}
}
