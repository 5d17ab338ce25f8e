package main

import (
	"flag"
	"fmt"
	"io"
	"math"
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
}

// define registers the serving flags on fs.
func (s *serveFlags) define(fs *flag.FlagSet, l msg.Lang) {
	fs.Float64Var(&s.rps, "serve-rps", 0, l.T("plan.flag.serve-rps"))
	fs.IntVar(&s.prompt, "prompt", input.DefaultPrompt, l.T("plan.flag.prompt"))
	fs.IntVar(&s.output, "output", input.DefaultOutput, l.T("plan.flag.output"))
	fs.Var((*durationValue)(&s.ttft), "ttft", l.T("plan.flag.ttft"))
	fs.Var((*durationValue)(&s.tpot), "tpot", l.T("plan.flag.tpot"))
}

// apply turns r into a serving request when -serve-rps is given: an inference
// workload, no work in tokens, no deadline. Serving flags without -serve-rps, or
// job flags with it, are usage errors.
func (s serveFlags) apply(r *plan.Request, set map[string]bool, l msg.Lang) error {
	if !set["serve-rps"] {
		for _, f := range []string{"prompt", "output", "ttft", "tpot"} {
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
	}
	r.Workload.Task, r.Tokens = sizing.Inference, 0
	r.Serving = &plan.Traffic{Rate: s.rps, PromptTokens: s.prompt, OutputTokens: s.output, TTFT: s.ttft, TPOT: s.tpot}
	return nil
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
	for _, line := range append([]string{d.Replica, d.Memory, d.Cost, d.Rates}, append(d.Warnings, d.Note)...) {
		if line != "" {
			detail(w, line)
		}
	}
	return nil
}
