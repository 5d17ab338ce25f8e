package main

import (
	"errors"
	"math"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// check refuses flag values out of range, naming the flag, before anything is
// planned: a usage error (exit status 2).
func (o *options) check() error {
	l := o.lang
	bad := func(flag string, v any, want string) error {
		return cli.Usagef("-%s %v: %s", flag, v, l.F("plan.want", want))
	}
	if o.set["tokens"] {
		t, err := input.Count(o.tokensArg)
		if err != nil {
			return cli.Usagef("-tokens %q: %v", o.tokensArg, err)
		}
		o.tokens = t
	}
	if o.budget != "" {
		amount, err := input.Amount(o.budget)
		switch {
		case errors.Is(err, input.ErrAmountPositive):
			return bad("budget", o.budget, l.T("plan.want.positive"))
		case err != nil:
			return cli.Usagef("-budget %s: %s", text.Quote(o.budget, 40), l.T("plan.err.budget"))
		}
		o.budgetAmount = amount
	}
	switch {
	case o.set["batch"] && o.batch < 1:
		return bad("batch", o.batch, l.T("plan.want.one"))
	case o.context < 1:
		return bad("context", o.context, l.T("plan.want.tokens"))
	case o.loraRank < 0:
		return bad("lora-rank", o.loraRank, l.T("plan.want.rank"))
	case o.maxGPUs < 0:
		return bad("max-gpus", o.maxGPUs, l.T("plan.want.maxgpus"))
	case o.limit < -1:
		return bad("limit", o.limit, l.T("plan.want.limit"))
	case o.gpus < 0:
		return bad("gpus", o.gpus, l.T("plan.want.gpus"))
	case math.IsNaN(o.headroom) || o.headroom < 0 || o.headroom >= 1:
		return bad("headroom", o.headroom, l.T("plan.want.headroom"))
	case math.IsNaN(o.utilization) || o.utilization < 0 || o.utilization > 1:
		return bad("utilization", o.utilization, l.T("plan.want.utilization"))
	case o.usage < 0:
		return bad("usage", l.Dur(o.usage), l.T("plan.want.zero"))
	case o.deadline < 0:
		return bad("deadline", l.Dur(o.deadline), l.T("plan.want.none"))
	case o.set["days"] && (o.days < 1 || o.days > 36500):
		return bad("days", o.days, l.T("plan.want.days"))
	case o.set["per-day"] && (o.perDay <= 0 || o.perDay > 24*time.Hour):
		return bad("per-day", l.Dur(o.perDay), l.T("plan.want.perday"))
	case o.deadline > 0 && o.set["tokens"] && o.tokens == 0:
		return cli.Usagef("%s", l.T("plan.err.deadline"))
	}
	return nil
}

// runnable refuses a job the model cannot run whatever the cards, naming the
// flags at fault: a context past the model's window (inference), or full
// training of quantized weights. It sizes the job once on one device, as
// sizing.Estimate checks it.
func (o options) runnable(m sizing.Model, wl sizing.Workload) error {
	if wl.Task == sizing.Inference && m.Context > 0 && wl.SeqLen > m.Context {
		return cli.Usagef("-context %d: %s", wl.SeqLen, o.lang.F("plan.err.window", m.Name, m.Context))
	}
	if _, err := sizing.Estimate(m, wl); err != nil {
		return cli.Usagef("-task %s, -precision %s, -context %d: %v", o.task, o.precision, wl.SeqLen, err)
	}
	return nil
}

// parseTask reads -task: one of the four names, in any case. A fine-tune is
// either kind of training, so "finetune" (which sizing.ParseTask reads as full
// training, for programs) is refused with what each kind is called.
func parseTask(s string, l msg.Lang) (sizing.Task, error) {
	want := l.F("plan.want", l.T("plan.want.tasks"))
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "inference", "training", "lora", "qlora":
		return sizing.ParseTask(s)
	case "finetune", "fine-tune", "fine_tune", "ft", "sft", "full", "fullfinetune", "full-finetune":
		return 0, cli.Usagef("-task %s: %s; %s", text.Quote(s, 40), l.T("plan.err.finetune"), want)
	}
	return 0, cli.Usagef("-task %s: %s", text.Quote(s, 40), want)
}

// enumFlag reads a named value of a flag with parse; an unknown name is a usage
// error naming the flag and the names it takes.
func enumFlag[T any](l msg.Lang, flag, value string, parse func(string) (T, error), names string) (T, error) {
	v, err := parse(value)
	if err != nil {
		return v, cli.Usagef("-%s %q: %s", flag, value, l.F("plan.want", names))
	}
	return v, nil
}

// precisionNames lists sizing's named precisions for -precision's message.
func precisionNames() string {
	var names []string
	for _, p := range sizing.Precisions() {
		names = append(names, strings.ToLower(p.String()))
	}
	return strings.Join(names, ", ") + ", or bits per weight such as 4.65bpw"
}
