package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// serveFlags is the command line of a serving plan: -serve-rps turns it on.
type serveFlags struct {
	rps            float64
	prompt, output int
	ttft, tpot     time.Duration
	percentile     float64
	prefix         float64
	daily          string // the daily profile's file
	mix            bool
	draft          string // speculative decoding's draft model, a preset
	draftTokens    int
	acceptance     float64
}

// serveOnly are the flags that need -serve-rps.
var serveOnly = []string{"prompt", "output", "ttft", "tpot", "percentile", "prefix", "daily", "mix", "draft", "draft-tokens", "acceptance"}

// define registers the serving flags on fs.
func (s *serveFlags) define(fs *flag.FlagSet, l msg.Lang) {
	fs.Float64Var(&s.rps, "serve-rps", 0, l.T("plan.flag.serve-rps"))
	fs.IntVar(&s.prompt, "prompt", input.DefaultPrompt, l.T("plan.flag.prompt"))
	fs.IntVar(&s.output, "output", input.DefaultOutput, l.T("plan.flag.output"))
	fs.Var((*durationValue)(&s.ttft), "ttft", l.T("plan.flag.ttft"))
	fs.Var((*durationValue)(&s.tpot), "tpot", l.T("plan.flag.tpot"))
	fs.Float64Var(&s.percentile, "percentile", 0, l.T("plan.flag.percentile"))
	fs.Float64Var(&s.prefix, "prefix", 0, l.T("plan.flag.prefix"))
	fs.StringVar(&s.daily, "daily", "", l.T("plan.flag.daily"))
	fs.BoolVar(&s.mix, "mix", false, l.T("plan.flag.mix"))
	fs.StringVar(&s.draft, "draft", "", l.T("plan.flag.draft"))
	fs.IntVar(&s.draftTokens, "draft-tokens", 4, l.T("plan.flag.draft-tokens"))
	fs.Float64Var(&s.acceptance, "acceptance", 0, l.T("plan.flag.acceptance"))
}

// apply turns r into a serving request when -serve-rps is given: an inference
// workload, no work in tokens, no deadline. Serving flags without -serve-rps, or
// job flags with it, are usage errors.
func (s serveFlags) apply(r *plan.Request, set map[string]bool, l msg.Lang) error {
	if !set["serve-rps"] {
		for _, f := range serveOnly {
			if set[f] {
				return cli.Usagef("-%s: %s", f, l.T("plan.err.needrps"))
			}
		}
		return nil
	}
	for _, f := range []string{"tokens", "deadline"} {
		if set[f] {
			return cli.Usagef("-%s: %s", f, l.T("plan.err.jobonly"))
		}
	}
	if set["task"] && r.Workload.Task != sizing.Inference {
		return cli.Usagef("-task %v: %s", r.Workload.Task, l.T("plan.err.servetask"))
	}
	for _, f := range []string{"draft-tokens", "acceptance"} {
		if set[f] && !set["draft"] {
			return cli.Usagef("-%s: %s", f, l.T("plan.err.needdraft"))
		}
	}
	p := s.percentile
	switch {
	case !(s.rps > 0) || math.IsInf(s.rps, 0):
		return cli.Usagef("-serve-rps %v: %s", s.rps, l.F("plan.want", l.T("plan.want.rps")))
	case s.prompt < 1:
		return cli.Usagef("-prompt %d: %s", s.prompt, l.F("plan.want", l.T("plan.want.tokens")))
	case s.output < 1:
		return cli.Usagef("-output %d: %s", s.output, l.F("plan.want", l.T("plan.want.tokens")))
	case s.ttft < 0:
		return cli.Usagef("-ttft %v: %s", s.ttft, l.F("plan.want", l.T("plan.want.target")))
	case s.tpot < 0:
		return cli.Usagef("-tpot %v: %s", s.tpot, l.F("plan.want", l.T("plan.want.target")))
	case p != 0 && p != 0.5 && p != 0.9 && p != 0.99:
		return cli.Usagef("-percentile %v: %s", p, l.F("plan.want", l.T("plan.want.percentile")))
	case !(s.prefix >= 0 && s.prefix < 1):
		return cli.Usagef("-prefix %v: %s", s.prefix, l.F("plan.want", l.T("plan.want.share")))
	case set["draft"] && !(s.acceptance >= 0 && s.acceptance <= 1):
		return cli.Usagef("-acceptance %v: %s", s.acceptance, l.F("plan.want", l.T("plan.want.acceptance")))
	case set["draft"] && (s.draftTokens < 1 || s.draftTokens > compute.MaxDraftTokens):
		return cli.Usagef("-draft-tokens %d: %s", s.draftTokens, l.F("plan.want", l.T("plan.want.tokens")))
	}
	t := &plan.Traffic{Rate: s.rps, PromptTokens: s.prompt, OutputTokens: s.output, TTFT: s.ttft, TPOT: s.tpot,
		Percentile: p, PrefixShare: s.prefix}
	if set["draft"] {
		m, err := sizing.Preset(s.draft)
		if err != nil {
			return cli.Usagef("-draft %s: %v", text.Quote(s.draft, 80), err)
		}
		t.Speculative = &compute.Speculation{Draft: m, Tokens: s.draftTokens, Acceptance: s.acceptance}
	}
	if s.daily != "" {
		var err error
		if t.Daily, err = readDaily(s.daily, l); err != nil {
			return err
		}
	}
	r.Workload.Task, r.Tokens, r.Mix = sizing.Inference, 0, s.mix
	r.Serving = t
	return nil
}

// maxDailyFile bounds the daily profile's file: 24 numbers and comments.
const maxDailyFile = 64 << 10

// readDaily reads a daily profile: 24 numbers separated by spaces, commas or
// lines, # starting a comment to the end of its line; each a multiple of the
// peak rate in [0, 1], the largest 1 (plan.Traffic.Validate checks the
// values). A file that does not hold 24 numbers is a usage error naming the
// flag, the file and the line at fault.
func readDaily(file string, l msg.Lang) ([]float64, error) {
	f, err := cli.Open("daily", file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDailyFile+1))
	if err != nil {
		return nil, fmt.Errorf("-daily %s: %w", file, err)
	}
	if len(b) > maxDailyFile {
		return nil, cli.Usagef("-daily %s: more than %d bytes: %s", file, maxDailyFile, l.T("plan.err.dailyfile"))
	}
	out, line, bad := parseDaily(b)
	switch {
	case bad != "":
		return nil, cli.Usagef("-daily %s: line %d: %s: %s", file, line, text.Quote(bad, 40), l.T("plan.err.dailyfile"))
	case len(out) != plan.HoursPerDay:
		return nil, cli.Usagef("-daily %s: %d numbers: %s", file, len(out), l.T("plan.err.dailyfile"))
	}
	return out, nil
}

// parseDaily reads the numbers of a daily profile's file (readDaily): fields
// separated by spaces, tabs, commas or semicolons, # starting a comment to the
// end of its line. It stops at the first field that is not a number, or at a
// field past the 24th, and returns it with its line.
func parseDaily(b []byte) (out []float64, line int, bad string) {
	for n, text := range strings.Split(string(b), "\n") {
		text, _, _ = strings.Cut(text, "#")
		for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == ';' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || len(out) == plan.HoursPerDay {
				return out, n + 1, f
			}
			out = append(out, v)
		}
	}
	return out, 0, ""
}

// shellLines breaks a launch line ("vllm serve …") into lines of at
// most width columns for a shell: at the spaces before its flags, each line
// but the last ending in " \\", the first indented by indent and the rest by
// two more, so that the command can be copied as it is.
func shellLines(line, indent string, width int) string {
	var b strings.Builder
	cur := indent
	for _, word := range strings.Split(line, " --") {
		if cur != indent {
			word = "--" + word
			if text.Width(cur)+1+text.Width(word)+2 > width {
				b.WriteString(cur + " \\\n")
				cur = indent + "  " + word
				continue
			}
			cur += " " + word
			continue
		}
		cur += word
	}
	b.WriteString(cur)
	return b.String()
}

// describeServing heads a serving plan: the model, the traffic and the rental.
func describeServing(w io.Writer, r plan.Request, v view) {
	lang := v.lang
	m, t := r.Model, r.Serving
	field(w, lang.T("plan.label.servemodel"), report.ServeModel(r, lang))
	for _, note := range modelNotes(m, r.Workload, lang) {
		field(w, strings.Repeat(" ", text.Width(lang.T("plan.label.servemodel"))), note)
	}
	field(w, lang.T("plan.label.traffic"), report.Traffic(*t, lang))
	var rental string
	switch {
	case len(t.Daily) > 0:
		days := plan.DefaultServingDays
		if r.Usage > 0 {
			days = int((r.Usage + 24*time.Hour - 1) / (24 * time.Hour))
		}
		rental = lang.F("plan.serve.days", days)
	case r.Rental != (pricing.Usage{}):
		rental = lang.F("plan.serve.sessions", lang.Dur(r.Rental.PerDay), lang.N(r.Rental.Days, "plan.n.day"))
	case r.Usage > 0:
		rental = lang.F("plan.serve.usage", lang.Dur(r.Usage))
	default:
		rental = lang.F("plan.serve.month", lang.Dur(plan.DefaultServingUsage))
	}
	field(w, lang.T("plan.label.serverental"), rental)
	reserve := r.Headroom
	if reserve == 0 {
		reserve = compute.DefaultServingReserve
	}
	field(w, lang.T("plan.label.reserve"), lang.F("plan.serve.reserve", reserve*100))
	if v.speed != "" {
		field(w, lang.T("plan.label.servespeed"), v.speed)
	}
	field(w, lang.T("plan.label.serveoffers"), v.source)
	fmt.Fprintln(w)
}

// printServing writes a serving plan: per option the replicas × GPUs, the
// replica's operating point, and the cost per hour and per million generated
// tokens; then the best option in detail.
func printServing(w io.Writer, r plan.Request, rep plan.Report, v view) error {
	v.percentile = r.Serving.Percentile
	lang := v.lang
	shown := rep.Options
	describeServing(w, r, v)
	fmt.Fprintln(w, text.Wrap(report.Fit(lang, r, rep), 0, width, ""))
	fmt.Fprintln(w)
	printSkipped(w, rep.Skipped, lang)
	if err := writeOptions(w, report.ServingColumns, shown, v); err != nil {
		return err
	}
	head, d := report.Best(shown[0], v.report())
	fmt.Fprintf(w, "\n%s\n", text.Wrap(head, 0, width, "  "))
	lines := append(append([]string{d.Replica}, d.Fleet...), d.Memory, d.Cost, d.Rates)
	for _, line := range append(lines, append(d.Warnings, d.Note)...) {
		if line != "" {
			detail(w, line)
		}
	}
	if len(d.Launch) > 0 {
		detail(w, lang.T("plan.serve.launch"))
		for _, line := range d.Launch {
			fmt.Fprintln(w, shellLines(line, "    ", width))
		}
	}
	return nil
}
