package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
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
func (s *serveFlags) define(fs *flag.FlagSet) {
	fs.Float64Var(&s.rps, "serve-rps", 0, "plan a service instead of a job: requests per second at the peak; the options are replicas enough for the rate, priced for -usage (0: a month)")
	fs.IntVar(&s.prompt, "prompt", 1000, "serving: mean prompt tokens per request")
	fs.IntVar(&s.output, "output", 300, "serving: mean tokens generated per request")
	fs.Var((*durationValue)(&s.ttft), "ttft", "serving: time-to-first-token target, a `duration` (e.g. 1s); 0: none")
	fs.Var((*durationValue)(&s.tpot), "tpot", "serving: time-per-output-token target, a `duration` (e.g. 50ms); 0: none")
}

// apply turns r into a serving request when -serve-rps is given: an inference
// workload, no work in tokens, no deadline. Serving flags without -serve-rps, or
// job flags with it, are usage errors.
func (s serveFlags) apply(r *plan.Request, set map[string]bool) error {
	if !set["serve-rps"] {
		for _, f := range []string{"prompt", "output", "ttft", "tpot"} {
			if set[f] {
				return cli.Usagef("-%s needs -serve-rps, the requests per second to serve", f)
			}
		}
		return nil
	}
	for _, f := range []string{"tokens", "deadline"} {
		if set[f] {
			return cli.Usagef("-%s is for a job; a service (-serve-rps) has a rate and latency targets", f)
		}
	}
	if set["task"] && r.Workload.Task != sizing.Inference {
		return cli.Usagef("-serve-rps plans inference, not -task %v", r.Workload.Task)
	}
	switch {
	case !(s.rps > 0) || math.IsInf(s.rps, 0):
		return cli.Usagef("-serve-rps %v: want requests per second above 0", s.rps)
	case s.prompt < 1:
		return cli.Usagef("-prompt %d: want 1 or more tokens", s.prompt)
	case s.output < 1:
		return cli.Usagef("-output %d: want 1 or more tokens", s.output)
	case s.ttft < 0:
		return cli.Usagef("-ttft %v: want 0 (no target) or more", s.ttft)
	case s.tpot < 0:
		return cli.Usagef("-tpot %v: want 0 (no target) or more", s.tpot)
	}
	r.Workload.Task, r.Tokens = sizing.Inference, 0
	r.Serving = &plan.Traffic{Rate: s.rps, PromptTokens: s.prompt, OutputTokens: s.output, TTFT: s.ttft, TPOT: s.tpot}
	return nil
}

// describeServing heads a serving plan: the model, the traffic and the rental.
func describeServing(w io.Writer, r plan.Request, v view) {
	lang := v.lang
	m, t := r.Model, r.Serving
	fmt.Fprintf(w, "Model:   %s (%s parameters), weights in %v\n", m.Name, lang.Tokens(float64(m.ParamCount())), r.Workload.Precision)
	for _, note := range modelNotes(m, r.Workload) {
		field(w, "         ", note)
	}
	field(w, "Traffic: ", fmt.Sprintf("%g requests/s of %d prompt and %d output tokens (%.4g generated tokens/s), targets TTFT %s, TPOT %s",
		t.Rate, t.PromptTokens, t.OutputTokens, t.Rate*float64(t.OutputTokens), target(t.TTFT), target(t.TPOT)))
	switch {
	case r.Rental != (pricing.Usage{}):
		fmt.Fprintf(w, "Rental:  %s of service a day on %s (-per-day, -days)\n", lang.Dur(r.Rental.PerDay), text.Count(r.Rental.Days, "day", "days"))
	case r.Usage > 0:
		fmt.Fprintf(w, "Rental:  %s of continuous service (-usage)\n", lang.Dur(r.Usage))
	default:
		fmt.Fprintf(w, "Rental:  %s of continuous service, one month (no -usage)\n", lang.Dur(plan.DefaultServingUsage))
	}
	reserve := r.Headroom
	if reserve == 0 {
		reserve = compute.DefaultServingReserve
	}
	fmt.Fprintf(w, "Reserve: %.0f%% of each GPU's memory left unused (-headroom)\n", reserve*100)
	field(w, "Offers:  ", v.source)
	fmt.Fprintln(w)
}

// target writes a latency target: the duration, or "none".
func target(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return latency(d)
}

// printServing writes a serving plan: per option the replicas × GPUs, the
// replica's operating point, and the cost per hour and per million generated
// tokens; then the best option in detail.
func printServing(w io.Writer, r plan.Request, rep plan.Report, v view) error {
	lang := v.lang
	shown := rep.Options
	describeServing(w, r, v)
	fmt.Fprintln(w, text.Wrap(fmt.Sprintf("%d candidates (offer, GPUs per replica) considered; the %s, one per offer, cheapest first:",
		rep.Considered, text.Count(len(shown), "best option", "best options")), 0, width, ""))
	fmt.Fprintln(w)
	printSkipped(w, rep.Skipped)
	if err := writeOptions(w, servingColumns, shown, v); err != nil {
		return err
	}
	best := shown[0]
	fmt.Fprintf(w, "\nBest: %s, %s of %d × %s, %s\n", offerName(best.Offer),
		text.Count(best.Replicas, "replica", "replicas"), max(best.Layout.Tensor, 1), v.bestCard(best), plan.DescribeLayout(best.Layout))
	p := best.Serving
	detail(w, fmt.Sprintf("each replica: %s, TTFT %s, TPOT %s, %.0f tokens/s (%.1f per user), %.2f requests/s",
		text.Count(p.Concurrency, "sequence", "sequences"), latency(p.TTFT), latency(p.TPOT), float64(p.Throughput), float64(p.PerUser), p.Requests))
	b := best.PerGPU
	detail(w, fmt.Sprintf("memory per GPU: weights %s, activations %s, KV cache %s, reserve %s = %s of %s",
		b.Weights.Human(), b.Activations.Human(), b.KVCache.Human(), b.Overhead.Human(), b.Total().Human(), best.Capacity.Human()))
	detail(w, "cost: "+lang.Money(best.Cost.Total)+priceBasis(best)+" over the rental"+costLines(best.Cost, unitPrefix(best), lang))
	detail(w, fmt.Sprintf("%s an hour, %s per million generated tokens", lang.Money(best.PerHour), lang.Money(best.PerMillion)))
	for _, warn := range best.Warnings {
		detail(w, "warning: "+warn)
	}
	if best.Offer.Notes != "" {
		detail(w, "price list note: "+best.Offer.Notes)
	}
	return nil
}

// latency prints a TTFT or TPOT to a tenth of a millisecond.
func latency(d time.Duration) string {
	return d.Round(100 * time.Microsecond).String()
}
