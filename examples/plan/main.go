// Command plan is gpuplan's main job: given a model, a task and how the machines
// are rented, it prints the rental options that fit, cheapest first, from the
// built-in card catalog and a price list.
//
// With no flags it plans a LoRA fine-tune of Llama-2-7B on 100 million tokens
// against a sample price list (invented providers, SAMPLE PRICES in CNY; give your
// own with -offers):
//
//	go run ./examples/plan
//	go run ./examples/plan -model llama-2-70b -task inference -precision bf16 -context 4096 -tokens 0 -usage 30d
//	go run ./examples/plan -task qlora -per-day 6h -days 20
//	go run ./examples/plan -offers my_offers.csv -deadline 12h -json
//	go run ./examples/plan -model llama-3.1-8b -serve-rps 20 -prompt 1000 -output 300 -ttft 1s -tpot 50ms
//	go run ./examples/plan -config Qwen2.5-7B/config.json -task inference
//	go run ./examples/plan -gguf llama-3-8b.Q4_K_M.gguf -task inference
//	go run ./examples/plan -render sdxl -size 1024 -usage 30d
//
// The model is a preset (-model; -model list names them), a Hugging Face
// config.json (-config), a GGUF or safetensors file (-gguf, -safetensors; the
// shards of one model, repeated or separated by commas, add up; only the headers
// are read), or a bare parameter count (-params 7B), which leaves the terms that
// need the architecture approximated: the report says so and names -config.
// With -config and weight files, the config gives the architecture and the files
// the exact parameter count and weight bytes.
//
// Training and fine-tuning default to a micro-batch of 4 and 1e8 training
// tokens; inference to one sequence and 1e6 tokens generated (-batch, -tokens).
//
// -render plans an image-generation or render job (sd15, sdxl, flux1, cycles at
// -size pixels) from sizing.RenderMemory's table: the offers whose card holds the
// high end of its memory range, less the headroom, ranked by the cost of the
// rental (-usage, or -per-day with -days; one hour without either).
//
// -serve-rps plans a service rather than a job (serve.go): replicas enough for
// that many requests a second of -prompt and -output tokens within the -ttft and
// -tpot targets, with the cost per hour and per million generated tokens of each
// option, priced for -usage (a month of continuous service when not given).
//
// -per-day and -days go together: sessions of -per-day hours on each of -days
// days, in place of -usage. Either one alone is a usage error.
//
// The duration flags (-usage, -per-day, -deadline) take Go durations (90m, 720h)
// or a count of 24-hour days in front of one: 30d, 1.5d, 30d12h.
//
// With -tokens 0 (memory only) the job takes no time, so the costs are of the
// rental given by -usage or -per-day and -days, or, with neither, of one hour
// (plan.DefaultDemoHour); the report says which.
//
// With -json, once the flags parse, standard output holds one JSON value whatever
// the outcome: the options shown (an array), the preset names for -model list (an
// array), or, when the plan fails, an object
//
//	{"error": "...", "no_fit": true, "reasons": ["..."], "suggestions": ["..."]}
//
// where no_fit says whether the failure is "no option fits", and reasons and
// suggestions (empty otherwise) are the lines of the text report. A flag that does
// not parse is reported on standard error only; a value out of range gives the
// error object, with exit status 2.
//
// Exit status:
//
//	0  the options were printed (or -h, -model list)
//	1  no option fits (the report is printed first), or another failure such as
//	   an unreadable price list or model file
//	2  usage error: a bad flag or flag value (the message names the flag), or
//	   flags that do not go together
//
// Run with -h for every flag.
package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

//go:embed sample_offers.json
var sampleOffers string

func main() {
	os.Exit(exitStatus(os.Stderr, run(os.Stdout, os.Args[1:])))
}

// The exit statuses, documented in the package comment.
const (
	exitOK    = 0 // options printed, -h, -model list
	exitFail  = 1 // no option fits, or another failure
	exitUsage = 2 // bad flags, as the flag package exits
)

const usageHeader = `Usage: plan [flags]

Prints the rental options that fit a job, cheapest first. -json prints them as
JSON; when the plan fails it prints {"error", "no_fit", "reasons", "suggestions"}.

Exit status: 0 options printed; 1 no option fits (after the report) or another
failure; 2 usage error (a bad flag, or -per-day without -days or the reverse).

Durations (-usage, -per-day, -deadline) are Go durations (90m, 720h, 1h30m) or
start with a count of 24-hour days: 30d, 1.5d, 30d12h.

Flags:
`

// options holds the command line.
type options struct {
	model, task, precision, kvPrecision, recompute string
	params, config, render, size                   string
	gguf, safetensors                              fileList
	context, batch, loraRank, maxGPUs, top         int
	eager                                          bool
	tokensArg                                      string
	tokens                                         float64         // from tokensArg, or the task's default
	budgetAmount                                   decimal.Decimal // from budget; zero: none
	usage, deadline, perDay                        time.Duration
	days                                           int
	headroom, utilization                          float64
	budget, offers                                 string
	rates                                          ratesFlag // rates.go
	json                                           bool
	out                                            string          // -o: the report's file; empty: standard output
	serve                                          serveFlags      // serve.go
	set                                            map[string]bool // the flags given on the command line
}

// parse reads the command line. The flag set comes back for printing the usage;
// the flag package itself prints nothing.
func parse(args []string) (options, *flag.FlagSet, error) {
	var o options
	fs := cli.FlagSet("plan")
	fs.StringVar(&o.model, "model", "llama-2-7b", "model preset (see -model list), or a downloaded model's folder (config.json with its safetensors shards, index or GGUF file; headers only are read); other models: -config, -gguf, -safetensors or -params")
	fs.StringVar(&o.config, "config", "", "a model's Hugging Face config.json `file` or its folder, in place of -model; with -gguf or -safetensors the files give the exact parameter count and weight bytes")
	fs.Var(&o.gguf, "gguf", "a model's GGUF `file` (only its header is read); repeat or separate with commas for a split model")
	fs.Var(&o.safetensors, "safetensors", "a model's .safetensors `file` (only its header is read); repeat or separate with commas for the shards of one model, or give their folder")
	fs.StringVar(&o.params, "params", "", "parameter count of a model without a preset or config (7B, 70b, 1.5e9); memory terms that need the architecture are approximated (-config makes them exact)")
	fs.StringVar(&o.render, "render", "", "an image-generation or render job in place of a model's: sd15, sdxl, flux1 or cycles; ranks the offers whose card holds it for -usage")
	fs.StringVar(&o.size, "size", "", "image size for -render, in pixels: 1024 (a square) or 1920x1080; default: the kind's reference size")
	fs.StringVar(&o.task, "task", "lora", "inference, training, lora or qlora")
	fs.StringVar(&o.precision, "precision", "bf16", "weights (inference) or compute precision: fp32, bf16, fp16, fp8, int8, nf4, gptq4, awq4, q4_k_m, ...")
	fs.StringVar(&o.kvPrecision, "kv-precision", "", "KV cache precision (inference); empty: -precision for FP16 and wider, FP16 for narrower formats")
	fs.StringVar(&o.recompute, "recompute", "full", "activation recomputation for training: none, selective or full")
	fs.BoolVar(&o.eager, "eager", false, "eager attention, which keeps each head's attention score matrix in memory; default: memory-efficient attention (flash attention, PyTorch SDPA)")
	fs.Var(flashFlag{&o.eager}, "flash", "deprecated: -flash=false is -eager")
	fs.IntVar(&o.context, "context", 2048, "tokens per sequence (inference: context length); by default at most the model's context window")
	fs.IntVar(&o.batch, "batch", 0, "micro-batch per GPU (default 4), or for inference the concurrent sequences (default 1)")
	fs.IntVar(&o.loraRank, "lora-rank", 0, "LoRA rank; 0: the library's default")
	fs.StringVar(&o.tokensArg, "tokens", "", "work: training tokens (default 1e8), or tokens generated for inference (default 1e6), such as 2e9 or 500M; 0: memory only")
	fs.Var((*durationValue)(&o.usage), "usage", "rental length, a `duration` (e.g. 720h or 30d); 0: as long as the job takes")
	fs.Var((*durationValue)(&o.perDay), "per-day", "time used each day, a `duration` (e.g. 6h), more than 0 and at most 24h; needs -days; replaces -usage")
	fs.IntVar(&o.days, "days", 0, "number of days of -per-day sessions, 1 to 36500; needs -per-day")
	fs.Var((*durationValue)(&o.deadline), "deadline", "finish within this `duration` (e.g. 12h or 2d); 0: no deadline")
	fs.Float64Var(&o.headroom, "headroom", 0, "fraction of GPU memory kept free; 0: 0.2")
	fs.Float64Var(&o.utilization, "utilization", 0, "fraction of peak FLOP/s sustained; 0: the middle of published MFU (38-52%)")
	fs.IntVar(&o.maxGPUs, "max-gpus", 0, "most GPUs per option; 0: each offer's limit")
	fs.StringVar(&o.budget, "budget", "", "most money to spend, in the offers' currency (e.g. 500)")
	fs.Var(&o.rates, "rates", "exchange `rates` for a price list in several currencies, BASE:CUR=RATE,... (CNY:USD=7.20 ranks in CNY, one USD = 7.20 CNY); -budget is then in BASE")
	fs.StringVar(&o.offers, "offers", "", "price list: gpuplan CSV or JSON (see the README), a SkyPilot catalog vms.csv or vast.ai offers JSON, told apart by content; empty: the built-in SAMPLE price list")
	fs.IntVar(&o.top, "top", 10, "options to print; 0: all")
	o.serve.define(fs)
	fs.BoolVar(&o.json, "json", false, "print JSON on standard output, and nothing else: the options, or an error object when the plan fails")
	fs.StringVar(&o.out, "o", "", "write the report (text, or JSON with -json) to this `file` instead of standard output")
	var err error
	if o.set, err = cli.Parse(fs, args); err != nil {
		return o, fs, err
	}
	return o, fs, nil
}

// exitStatus writes run's error to stderr, unless run reported it already, and
// returns the exit status: 0, 1 or 2 as the package comment says.
func exitStatus(stderr io.Writer, err error) int { return cli.Exit("plan", err, stderr) }

// run is the command: it writes the report (or -h's usage) to w, or to the -o
// file, and returns what went wrong; exitStatus says how main exits on it.
func run(w io.Writer, args []string) error {
	o, fs, err := parse(args)
	if errors.Is(err, flag.ErrHelp) {
		cli.Usage(w, fs, usageHeader)
		return nil
	}
	if err != nil {
		return err
	}
	return cli.To(w, o.out, func(w io.Writer) error {
		code, err := o.execute(w)
		switch {
		case err == nil && code == exitOK:
			return nil
		case err == nil:
			return &cli.Reported{Code: code, Err: errors.New("no option fits")}
		case !o.json:
			return err
		}
		return cli.FailJSON(w, err, jsonError{Error: cli.Message(err), Reasons: []string{}, Suggestions: []string{}})
	})
}

// jsonError is what -json prints when the plan fails.
type jsonError struct {
	Error       string   `json:"error"`       // the failure's message
	NoFit       bool     `json:"no_fit"`      // whether the failure is that no option fits
	Reasons     []string `json:"reasons"`     // why options were left out (no fit only)
	Suggestions []string `json:"suggestions"` // what would fit (no fit only)
}

func writeJSON(w io.Writer, v any) error { return cli.WriteJSON(w, v) }

// execute plans and prints. No fit is reported on w and gives exitFail with a
// nil error; a non-nil error is left to run to report.
func (o options) execute(w io.Writer) (int, error) {
	if o.model == "list" {
		if o.json {
			return exitOK, writeJSON(w, sizing.Presets())
		}
		_, err := fmt.Fprintln(w, strings.Join(sizing.Presets(), "\n"))
		return exitOK, err
	}
	if err := o.check(); err != nil {
		return exitUsage, err
	}
	if o.render != "" || o.set["render"] {
		return o.executeRender(w)
	}
	if o.set["size"] {
		return exitUsage, cli.Usagef("-size is for -render")
	}
	req, err := o.request()
	if err != nil {
		return exitFail, err
	}
	offers, source, err := o.loadOffers()
	if err != nil {
		return exitFail, err
	}
	if !req.Budget.Amount.IsZero() && len(offers) > 0 {
		req.Budget.Currency = offers[0].Tariff.Currency
		if o.rates.r.Base != "" {
			req.Budget.Currency = o.rates.r.Base
		}
	}
	req.Limit = o.top
	if o.top == 0 {
		req.Limit = -1 // all
	}
	rep, err := plan.Planner{Catalog: catalog.Default(), Offers: offers, Rates: o.rates.r}.Report(req)
	var nf *plan.NoFitError
	if errors.As(err, &nf) {
		if o.json {
			je := jsonError{Error: nf.Error(), NoFit: true, Reasons: nonNil(nf.Reasons), Suggestions: nonNil(nf.Suggestions)}
			return exitFail, writeJSON(w, je)
		}
		printNoFit(w, req, source, nf)
		return exitFail, nil
	}
	if errors.Is(err, pricing.ErrCurrencyMismatch) && o.rates.r.Base == "" {
		return exitFail, fmt.Errorf("%w (give them with -rates, e.g. -rates CNY:USD=7.20)", err)
	}
	if err != nil {
		return exitFail, err
	}
	if o.json {
		skipped := make([]jsonSkipped, len(rep.Skipped))
		for i, s := range rep.Skipped {
			skipped[i] = jsonSkipped{Provider: s.Offer.Provider, Region: s.Offer.Region, Card: s.Offer.Card, Line: s.Offer.Line, Reason: s.Reason}
		}
		return exitOK, writeJSON(w, jsonPlan{Job: req, Currency: rep.Options[0].RankedCost.Currency,
			Considered: rep.Considered, Returned: len(rep.Options), Skipped: skipped, Options: rep.Options})
	}
	if req.Serving != nil {
		return exitOK, printServing(w, req, source, rep)
	}
	return exitOK, printPlan(w, req, source, rep)
}

// jsonPlan is what -json prints when the plan succeeds.
type jsonPlan struct {
	Job        plan.Request  `json:"job"`        // the request planned, as the flags built it
	Currency   string        `json:"currency"`   // the currency options are ranked in
	Considered int           `json:"considered"` // candidates (offer, GPU count, layout) evaluated
	Returned   int           `json:"returned"`   // options printed
	Skipped    []jsonSkipped `json:"skipped"`    // offers left out, and why
	Options    []plan.Option `json:"options"`
}

// jsonSkipped is an offer left out of the plan.
type jsonSkipped struct {
	Provider string `json:"provider"`
	Region   string `json:"region"`
	Card     string `json:"card"`
	Line     int    `json:"line"` // of the price list; zero when not from a file
	Reason   string `json:"reason"`
}

// nonNil makes an absent list print as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// request builds the planner's request from the flags.
func (o options) request() (plan.Request, error) {
	var r plan.Request
	var err error
	wl := sizing.Workload{Batch: o.batch, SeqLen: o.context, EagerAttention: o.eager, LoRARank: o.loraRank}
	if wl.Task, err = enumFlag("task", o.task, sizing.ParseTask, "inference, training, lora or qlora"); err != nil {
		return r, err
	}
	if wl.Precision, err = enumFlag("precision", o.precision, sizing.ParsePrecision, precisionNames()); err != nil {
		return r, err
	}
	if o.kvPrecision != "" {
		if wl.KVPrecision, err = enumFlag("kv-precision", o.kvPrecision, sizing.ParsePrecision, precisionNames()); err != nil {
			return r, err
		}
	}
	if wl.Task != sizing.Inference {
		if wl.Recompute, err = enumFlag("recompute", o.recompute, sizing.ParseRecompute, "none, selective or full"); err != nil {
			return r, err
		}
	}
	if r.Model, err = o.buildModel(); err != nil {
		return r, err
	}
	if !o.set["precision"] && (wl.Task == sizing.Inference || o.set["serve-rps"]) {
		wl.Precision = o.filePrecision(r.Model, wl.Precision)
	}
	// Defaults by task: training a micro-batch of 4 on 1e8 tokens; inference one
	// sequence at a time, generating a million tokens.
	r.Tokens = o.tokens
	if !o.set["tokens"] {
		r.Tokens = defaultTrainTokens
		if wl.Task == sizing.Inference {
			r.Tokens = defaultInferTokens
		}
	}
	if !o.set["batch"] {
		wl.Batch = defaultTrainBatch
		if wl.Task == sizing.Inference {
			wl.Batch = 1
		}
	}
	if !o.set["context"] && r.Model.Context > 0 && wl.SeqLen > r.Model.Context {
		wl.SeqLen = r.Model.Context // the default context, cut to a smaller window (GPT-2's 1024)
	}
	r.Workload = wl
	if err := o.runnable(r.Model, wl); err != nil {
		return r, err
	}
	r.Usage, r.Deadline = o.usage, o.deadline
	r.Headroom, r.Utilization, r.MaxGPUs = o.headroom, o.utilization, o.maxGPUs
	switch perDay, days := o.set["per-day"], o.set["days"]; {
	case perDay && !days:
		return r, cli.Usagef("-per-day needs -days, the number of days with a session")
	case days && !perDay:
		return r, cli.Usagef("-days needs -per-day, the hours used each day")
	case perDay && days:
		if o.usage != 0 {
			return r, cli.Usagef("give -usage or -per-day with -days, not both")
		}
		r.Rental = pricing.DailySessions(o.perDay, o.days)
	}
	if err := o.serve.apply(&r, o.set); err != nil {
		return r, err
	}
	r.Budget = pricing.Money{Amount: o.budgetAmount} // the currency is the offers'; set after loading
	return r, nil
}

// loadOffers reads -offers, or the embedded sample list.
func (o options) loadOffers() ([]pricing.Offer, string, error) {
	if o.offers == "" {
		offers, err := pricelist.ReadJSON(strings.NewReader(sampleOffers))
		return offers, "built-in sample price list (SAMPLE PRICES, not quotes)", err
	}
	return readOfferFile(o.offers)
}

func describeRequest(w io.Writer, r plan.Request, source string) {
	if r.Serving != nil {
		describeServing(w, r, source)
		return
	}
	m := r.Model
	fmt.Fprintf(w, "Job:    %s (%.2fB parameters), %v in %v, ", m.Name, float64(m.ParamCount())/1e9, r.Workload.Task, r.Workload.Precision)
	if r.Workload.Task == sizing.Inference {
		fmt.Fprintf(w, "%s of up to %d tokens per replica\n", text.Count(r.Workload.Batch, "sequence", "sequences"), r.Workload.SeqLen)
	} else {
		fmt.Fprintf(w, "micro-batch %d × %d tokens per GPU, recompute %v\n", r.Workload.Batch, r.Workload.SeqLen, r.Workload.Recompute)
	}
	switch {
	case r.Tokens > 0 && r.Workload.Task == sizing.Inference:
		fmt.Fprintf(w, "Work:   %.3g tokens generated (-tokens)", r.Tokens)
	case r.Tokens > 0:
		fmt.Fprintf(w, "Work:   %.3g training tokens (-tokens)", r.Tokens)
	default:
		fmt.Fprint(w, "Work:   none given (memory only)")
	}
	if r.Deadline > 0 {
		fmt.Fprintf(w, ", deadline %s", shortDuration(r.Deadline))
	}
	fmt.Fprintln(w)
	if r.Tokens <= 0 {
		// With no work the job takes no time: the cost is of the rental asked for,
		// or of plan.DefaultDemoHour when none is.
		switch {
		case r.Rental != (pricing.Usage{}):
			fmt.Fprintf(w, "Rental: the costs are for %s of use a day on %s (-per-day, -days)\n", shortDuration(r.Rental.PerDay), text.Count(r.Rental.Days, "day", "days"))
		case r.Usage > 0:
			fmt.Fprintf(w, "Rental: the costs are for %s of rental (-usage)\n", shortDuration(r.Usage))
		default:
			fmt.Fprintf(w, "Rental: no -tokens or -usage, so the costs are for %s of rental only\n", hours(plan.DefaultDemoHour))
		}
	}
	for _, note := range modelNotes(m, r.Workload) {
		fmt.Fprintf(w, "Model:  %s\n", note)
	}
	fmt.Fprintf(w, "Offers: %s\n\n", source)
}

func printPlan(w io.Writer, r plan.Request, source string, rep plan.Report) error {
	shown := rep.Options
	describeRequest(w, r, source)
	fmt.Fprintf(w, "%s:\n\n", fitCount(rep.Considered, len(shown)))
	printSkipped(w, rep.Skipped)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tprovider\tcard\tGPUs\tlayout\tmem/GPU\tfree\ttime\tscaling\texpected cost\thourly only\tvs best\t")
	for i, o := range shown {
		scaling := "-"
		if o.Duration > 0 {
			scaling = fmt.Sprintf("%.0f%%", o.Efficiency*100)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%.0f%%\t%s\t%s\t%s\t%s\t%s\t\n",
			i+1, o.Offer.Provider, o.CardID, o.GPUs, plan.DescribeLayout(o.Layout), o.PerGPU.Total().Human(),
			o.Headroom*100, duration(o.Duration), scaling, ranked(o), money(o.HourlyOnly.Total), o.Waste)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printRates(w, shown)
	best := shown[0]
	fmt.Fprintf(w, "\nBest: %s %s (%s), %d × %s, %s\n", best.Offer.Provider, best.Offer.Region, best.Offer.Card, best.GPUs, best.CardID, plan.DescribeLayout(best.Layout))
	b := best.PerGPU
	fmt.Fprintf(w, "  memory per GPU: weights %s, gradients %s, optimizer %s, activations %s, KV cache %s, overhead %s = %s of %s (%.0f%% free)\n",
		b.Weights.Human(), b.Gradients.Human(), b.Optimizer.Human(), b.Activations.Human(), b.KVCache.Human(), b.Overhead.Human(),
		b.Total().Human(), best.Capacity.Human(), best.Headroom*100)
	if best.Duration > 0 {
		fmt.Fprintf(w, "  time: %s", duration(best.Duration))
		if duration(best.DurationLow) != duration(best.DurationHigh) {
			fmt.Fprintf(w, " (%s to %s over the utilization band)", duration(best.DurationLow), duration(best.DurationHigh))
		}
		fmt.Fprintf(w, ", scaling efficiency %.0f%%\n", best.Efficiency*100)
	}
	fmt.Fprintf(w, "  cost: %s", best.Cost.Total)
	fmt.Fprint(w, priceBasis(best))
	for _, l := range best.Cost.Lines {
		fmt.Fprintf(w, "; %s", costLine(l, unitPrefix(best)))
	}
	fmt.Fprintln(w)
	for _, warn := range best.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
	}
	if best.Offer.Notes != "" {
		fmt.Fprintf(w, "  price list note: %s\n", best.Offer.Notes)
	}
	warned := 0
	for _, o := range shown[1:] {
		warned += len(o.Warnings)
	}
	if warned > 0 {
		fmt.Fprintf(w, "\nWarnings on the other options shown:\n")
		for i, o := range shown[1:] {
			for _, warn := range o.Warnings {
				fmt.Fprintf(w, "  #%d: %s\n", i+2, warn)
			}
		}
	}
	return nil
}

func printNoFit(w io.Writer, r plan.Request, source string, nf *plan.NoFitError) {
	describeRequest(w, r, source)
	fmt.Fprintln(w, "No option fits.")
	for _, s := range nf.Reasons {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	if len(nf.Suggestions) > 0 {
		fmt.Fprintln(w, "What would fit:")
		for _, s := range nf.Suggestions {
			fmt.Fprintf(w, "  - %s\n", s)
		}
	}
}

// shortDuration prints d as time.Duration does, less zero minutes and seconds
// at the end: "720h", "6h", "1h30m", "90s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// fitCount heads the table: how many candidates (offer, GPU count, layout) were
// considered and how many options are shown, best first, one per offer.
func fitCount(considered, shown int) string {
	const ranking = "(expected cost, interruptions included; warnings do not change the order)"
	if shown == 1 {
		return fmt.Sprintf("%d candidates considered; the best option, one per offer %s", considered, ranking)
	}
	return fmt.Sprintf("%d candidates considered; the %d best options, one per offer, cheapest first %s", considered, shown, ranking)
}

// units maps a cost line's Unit to how it is written after a quantity (one,
// several) and after a price's slash.
var units = map[string]struct{ one, many, per string }{
	"hour":  {"h", "h", "h"},
	"day":   {"day", "days", "day"},
	"week":  {"week", "weeks", "week"},
	"month": {"month", "months", "month"},
	"term":  {"term", "terms", "term"},
}

// costLine writes a quote's line: the quantity rounded to two places for reading
// (more for a quantity under 0.01, so it never reads 0), counted in GPU-units
// (prefix "GPU-") when the option has several GPUs priced per GPU, in
// instance-units (prefix "instance-") for an offer sold in instances, and the
// unit price and the amount exact, as
// the library computed them: "hourly 10.48 h × CNY 0.80/h = CNY 8.382",
// "monthly 8 GPU-months × CNY 1800.00/month = CNY 14400.00", "rounding CNY
// -0.002". -json keeps the quantity exact too.
func costLine(l pricing.Line, prefix string) string {
	if l.Unit == "" && l.Quantity.Equal(decimal.NewFromInt(1)) && l.Price.Currency == l.Amount.Currency && l.Price.Amount.Equal(l.Amount.Amount) {
		return fmt.Sprintf("%s %s", l.Item, l.Amount.Exact()) // the rounding line
	}
	one, many, per := l.Unit, l.Unit+"s", l.Unit
	if u, ok := units[l.Unit]; ok {
		one, many, per = u.one, u.many, u.per
	}
	if l.Unit != "" {
		one, many = prefix+one, prefix+many
	}
	shown := l.Quantity.Round(2)
	for places := int32(3); shown.IsZero() && !l.Quantity.IsZero() && places <= 9; places++ {
		shown = l.Quantity.Round(places)
	}
	qty := shown.String() + " " + many
	if shown.Equal(decimal.NewFromInt(1)) {
		qty = "1 " + one
	}
	if l.Unit == "" {
		qty, per = shown.String(), "unit"
	}
	return fmt.Sprintf("%s %s × %s/%s = %s", l.Item, qty, l.Price.Exact(), per, l.Amount.Exact())
}

// hours writes a whole number of hours in words, "1 hour", "3 hours", and
// other durations as time.Duration prints them.
func hours(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "1 hour"
	case d > 0 && d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	default:
		return d.String()
	}
}

// duration prints a job's time for people: minutes below two days, hours above.
func duration(d time.Duration) string {
	switch {
	case d == 0:
		return "-"
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < 48*time.Hour:
		m := int64(d.Round(time.Minute) / time.Minute)
		return fmt.Sprintf("%dh%02dm", m/60, m%60)
	default:
		return fmt.Sprintf("%.0fh", d.Hours())
	}
}

// money prints an amount, "-" for a price not offered (a zero hourly-only quote).
func money(m pricing.Money) string {
	if m.Amount.IsZero() {
		return "-"
	}
	return m.String()
}
