package main

import (
	"math"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// The work planned when -tokens is not given: 1e8 training tokens (about a
// hundred thousand 1k-token examples for a fine-tune), or 1e6 tokens generated
// for inference (a thousand answers of a thousand tokens).
const (
	defaultTrainTokens = 1e8
	defaultInferTokens = 1e6
	defaultTrainBatch  = 4 // micro-batch per GPU for training; inference runs one sequence
)

// check refuses flag values out of range, naming the flag, before anything is
// planned: a usage error (exit status 2).
func (o *options) check() error {
	bad := func(flag string, v any, want string) error {
		return cli.Usagef("-%s %v: want %s", flag, v, want)
	}
	if o.set["tokens"] {
		t, err := input.Count(o.tokensArg)
		if err != nil {
			return cli.Usagef("-tokens %q: %v", o.tokensArg, err)
		}
		o.tokens = t
	}
	if o.budget != "" {
		amount, err := decimal.NewFromString(o.budget)
		switch {
		case err != nil:
			return cli.Usagef("-budget %s is not a decimal amount", text.Quote(o.budget, 40))
		case amount.Sign() <= 0:
			return bad("budget", o.budget, "an amount above 0")
		}
		o.budgetAmount = amount
	}
	switch {
	case o.set["batch"] && o.batch < 1:
		return bad("batch", o.batch, "1 or more")
	case o.context < 1:
		return bad("context", o.context, "1 or more tokens")
	case o.loraRank < 0:
		return bad("lora-rank", o.loraRank, "0 (the default rank) or more")
	case o.maxGPUs < 0:
		return bad("max-gpus", o.maxGPUs, "0 (each offer's limit) or more")
	case o.top < 0:
		return bad("top", o.top, "0 (all) or more")
	case math.IsNaN(o.headroom) || o.headroom < 0 || o.headroom >= 1:
		return bad("headroom", o.headroom, "a fraction from 0 to below 1")
	case math.IsNaN(o.utilization) || o.utilization < 0 || o.utilization > 1:
		return bad("utilization", o.utilization, "a fraction above 0 and at most 1 (0: the default)")
	case o.usage < 0:
		return bad("usage", o.lang.Dur(o.usage), "0 or more")
	case o.deadline < 0:
		return bad("deadline", o.lang.Dur(o.deadline), "0 (none) or more")
	case o.set["days"] && (o.days < 1 || o.days > 36500):
		return bad("days", o.days, "1 to 36500")
	case o.set["per-day"] && (o.perDay <= 0 || o.perDay > 24*time.Hour):
		return bad("per-day", o.lang.Dur(o.perDay), "more than 0 and at most 24h")
	case o.deadline > 0 && o.set["tokens"] && o.tokens == 0:
		return cli.Usagef("-deadline needs work to finish, and -tokens 0 gives none")
	}
	return nil
}

// runnable refuses a job the model cannot run whatever the cards, naming the
// flags at fault: a context past the model's window (inference), or full
// training of quantized weights. It sizes the job once on one device, as
// sizing.Estimate checks it.
func (o options) runnable(m sizing.Model, wl sizing.Workload) error {
	if wl.Task == sizing.Inference && m.Context > 0 && wl.SeqLen > m.Context {
		return cli.Usagef("-context %d: past %s's context window of %d tokens", wl.SeqLen, m.Name, m.Context)
	}
	if _, err := sizing.Estimate(m, wl); err != nil {
		return cli.Usagef("-task %s, -precision %s, -context %d: %v", o.task, o.precision, wl.SeqLen, err)
	}
	return nil
}

// parseTask reads -task: one of the four names, in any case. A fine-tune is
// either kind of training, so "finetune" (which sizing.ParseTask reads as full
// training, for programs) is refused with what each kind is called.
func parseTask(s string) (sizing.Task, error) {
	const want = "want inference, training, lora or qlora"
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "inference", "training", "lora", "qlora":
		return sizing.ParseTask(s)
	case "finetune", "fine-tune", "fine_tune", "ft", "sft", "full", "fullfinetune", "full-finetune":
		return 0, cli.Usagef("-task %s: a fine-tune of every weight is training, of adapters lora (or qlora on 4-bit weights); %s", text.Quote(s, 40), want)
	}
	return 0, cli.Usagef("-task %s: %s", text.Quote(s, 40), want)
}

// enumFlag reads a named value of a flag with parse; an unknown name is a usage
// error naming the flag and the names it takes.
func enumFlag[T any](flag, value string, parse func(string) (T, error), names string) (T, error) {
	v, err := parse(value)
	if err != nil {
		return v, cli.Usagef("-%s %q: want %s", flag, value, names)
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
