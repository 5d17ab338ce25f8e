package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

var serveArgs = []string{"-model", "llama-3.1-8b", "-serve-rps", "20", "-prompt", "1000", "-output", "300", "-ttft", "1s", "-tpot", "50ms"}

// fleetArgs is the README's fleet: the command it shows.
var fleetArgs = []string{"-model", "llama-3.1-8b", "-offers", "testdata/fleet.csv", "-serve-rps", "20", "-ttft", "1s", "-tpot", "50ms",
	"-percentile", "0.9", "-daily", "testdata/daily.txt", "-mix", "-limit", "3"}

func TestServeGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"serve", append(serveArgs, "-limit", "5"), exitOK},
		{"serve_usage", append(serveArgs, "-usage", "10d", "-limit", "3"), exitOK},
		// No card reaches a 2 ms TPOT: the best latency reachable, and on what.
		{"serve_unreachable", []string{"-model", "llama-3.1-8b", "-serve-rps", "20", "-tpot", "2ms"}, exitFail},
		{"serve_json", append(serveArgs, "-limit", "1", "-json"), exitOK},
		{"zh_serve", append([]string{"-lang", "zh"}, append(serveArgs, "-limit", "5")...), exitOK},
		// The README's fleet: a monthly base, spot capacity for the busy hours of
		// the day, targets for 90% of requests.
		{"serve_fleet", fleetArgs, exitOK},
		{"zh_serve_fleet", append([]string{"-lang", "zh"}, fleetArgs...), exitOK},
		// Speculative decoding and a prefix cache, on a sample offer.
		{"serve_draft", append(serveArgs, "-limit", "2", "-prefix", "0.5", "-draft", "llama-3.2-1b", "-acceptance", "0.7"), exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runArgs(tc.args...)
			if r.code != tc.code || r.stderr != "" {
				t.Fatalf("run(%q) = exit %d, stderr %q; want exit %d, empty stderr", tc.args, r.code, r.stderr, tc.code)
			}
			golden(t, tc.name, []byte(r.stdout))
			if !strings.HasSuffix(tc.name, "json") {
				fits(t, r.stdout)
			}
		})
	}
}

// -json carries the serving figures of each option: its fleet, what each
// replica does under its share of the rate, and the lines that start them.
func TestServeJSON(t *testing.T) {
	r := runArgs(append(serveArgs, "-limit", "1", "-json")...)
	var out struct {
		Options []struct {
			GPUs       int `json:"gpus"`
			Replicas   int `json:"replicas"`
			PerMillion struct {
				Amount   string `json:"amount"`
				Currency string `json:"currency"`
			} `json:"per_million"`
			Fleet []struct {
				CardID   string  `json:"card_id"`
				Replicas int     `json:"replicas"`
				Tensor   int     `json:"tensor"`
				Role     string  `json:"role"`
				Hours    float64 `json:"hours"`
			} `json:"fleet"`
			Launch []struct {
				Engine string   `json:"engine"`
				Args   []string `json:"args"`
			} `json:"launch"`
			Load struct {
				Rate   float64 `json:"rate"`
				Stable bool    `json:"stable"`
				TPOT   struct {
					Mean string `json:"mean"`
				} `json:"tpot"`
			} `json:"load"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	o := out.Options[0]
	g := o.Fleet[0]
	if len(o.Fleet) != 1 || g.Replicas != o.Replicas || o.GPUs != g.Replicas*g.Tensor || g.Role != "serve" || g.Hours != 24 ||
		o.PerMillion.Currency != "CNY" || o.PerMillion.Amount == "" {
		t.Errorf("option %+v", o)
	}
	if !o.Load.Stable || o.Load.Rate != 20/float64(o.Replicas) || o.Load.TPOT.Mean == "" {
		t.Errorf("load %+v, want each of %d replicas stable under 20/%d requests/s", o.Load, o.Replicas, o.Replicas)
	}
	if len(o.Launch) != 2 || o.Launch[0].Engine != "vllm" || o.Launch[1].Engine != "sglang" ||
		strings.Join(o.Launch[0].Args[:3], " ") != "vllm serve llama-3.1-8b" {
		t.Errorf("launch %+v", o.Launch)
	}
}

func TestServeUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-prompt", "100"},
		{"-tpot", "50ms"},
		{"-mix"},
		{"-daily", "testdata/daily.txt"},
		{"-serve-rps", "20", "-percentile", "0.95"},
		{"-serve-rps", "20", "-percentile", "1"},
		{"-serve-rps", "20", "-prefix", "1"},
		{"-serve-rps", "20", "-prefix", "-0.1"},
		{"-serve-rps", "20", "-acceptance", "0.5"},
		{"-serve-rps", "20", "-draft", "llama-3.2-1b", "-acceptance", "1.5"},
		{"-serve-rps", "20", "-draft", "llama-9"},
		{"-serve-rps", "20", "-daily", "testdata/missing.txt"},
		{"-serve-rps", "20", "-daily", "testdata/fleet.csv"},
		{"-serve-rps", "20", "-tokens", "1e9"},
		{"-serve-rps", "20", "-deadline", "1h"},
		{"-serve-rps", "20", "-task", "training"},
		{"-serve-rps", "20", "-ttft", "soon"},
		{"-serve-rps", "0"},
		{"-serve-rps", "NaN"},
		{"-serve-rps", "-3"},
		{"-serve-rps", "20", "-prompt", "0"},
		{"-serve-rps", "20", "-output", "-1"},
		{"-serve-rps", "20", "-tpot", "-1ms"},
	} {
		r := runArgs(args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "plan:") {
			t.Errorf("run(%q) = exit %d, stderr %q; want a usage error", args, r.code, r.stderr)
		}
	}
	// A bad rate names the flag, as every usage error does.
	r := runArgs("-serve-rps", "0")
	if !strings.Contains(r.stderr, "-serve-rps 0: want requests per second above 0") {
		t.Errorf("-serve-rps 0: stderr %q", r.stderr)
	}
}

// The READMEs quote the fleet's output: each line of the block after their
// "<!-- fleet: FILE -->" marker (but "  ..." for the lines left out) is a line
// of that golden file, which TestServeGolden keeps equal to the command's
// output.
func TestReadmeFleet(t *testing.T) {
	for _, readme := range []string{"../../README.md", "../../README.zh-CN.md"} {
		b, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(b), "<!-- fleet: examples/plan/")
		if !ok {
			t.Fatalf("%s: no fleet block", readme)
		}
		file, rest, _ := strings.Cut(rest, " -->")
		_, rest, _ = strings.Cut(rest, "```text\n")
		block, _, _ := strings.Cut(rest, "```")
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(want), "\n")
		quoted := 0
		for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
			if l == "  ..." || l == "" {
				continue
			}
			quoted++
			if !slices.Contains(lines, l) {
				t.Errorf("%s quotes a line %s does not hold:\n%s", readme, file, l)
			}
		}
		if quoted < 10 {
			t.Errorf("%s quotes %d lines of %s", readme, quoted, file)
		}
	}
}

// The -json echo of a fleet request plans the same fleet: a daily profile's
// rental is whole days, DefaultServingDays of them, written as its usage.
func TestEchoFleet(t *testing.T) {
	out, job := planJSON(t, fleetArgs...)
	if string(job["usage"]) != `"720h0m0s"` || string(job["mix"]) != "true" {
		t.Errorf("echo usage %s, mix %s; want 720h0m0s (30 days) and true", job["usage"], job["mix"])
	}
	var req plan.Request
	if err := json.Unmarshal(out.Job, &req); err != nil {
		t.Fatal(err)
	}
	offers, _, err := readOfferFile("testdata/fleet.csv", msg.EN)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := plan.Planner{Offers: offers}.Plan(req)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := opts[0].Cost.Total, out.Options[0].Cost.Total; !got.Amount.Equal(want.Amount) || len(opts[0].Fleet) < 2 {
		t.Errorf("the echo plans %s on %d groups; the command said %s", got, len(opts[0].Fleet), want)
	}
}

// parseDaily never fails but with the line and field at fault, and returns no
// more than 24 numbers; seeds: the README's profile, a comment, a stray word,
// a 25th number.
func FuzzParseDaily(f *testing.F) {
	seed, err := os.ReadFile("testdata/daily.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("1 # all day\n"))
	f.Add([]byte("0.5, 1; x\n"))
	f.Add([]byte(strings.Repeat("1 ", 25)))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, line, bad := parseDaily(b)
		if len(out) > plan.HoursPerDay {
			t.Fatalf("%d numbers", len(out))
		}
		if (bad == "") != (line == 0) || line < 0 || line > strings.Count(string(b), "\n")+1 {
			t.Fatalf("line %d, field %q", line, bad)
		}
	})
}
