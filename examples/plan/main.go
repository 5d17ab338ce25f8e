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
// the outcome: the plan (the request as the planner used it under "job", with
// the keys it left to a default listed under "defaults", then the options), the
// preset names for -model list (an array), or, when the plan fails, an object
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
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/sample"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

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
	json, wide                                     bool
	lang                                           msg.Lang
	catalog                                        string           // -catalog: a file of the user's own cards
	cat                                            *catalog.Catalog // the built-in catalog, with -catalog's cards
	out                                            string           // -o: the report's file; empty: standard output
	serve                                          serveFlags       // serve.go
	set                                            map[string]bool  // the flags given on the command line
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
	fs.StringVar(&o.catalog, "catalog", "", cli.CatalogFlag)
	fs.StringVar(&o.offers, "offers", "", "price list: gpuplan CSV or JSON (see the README), a SkyPilot catalog vms.csv or vast.ai offers JSON, told apart by content; empty: the built-in SAMPLE price list")
	fs.IntVar(&o.top, "top", 10, "options to print; 0: all")
	fs.BoolVar(&o.wide, "wide", false, "show every column of the options table; by default it fits a 100-column terminal")
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
		fmt.Fprintln(w)
		columnsHelp(w, "The options table of a job (-wide shows every column; the default fits 100 columns):", planColumns)
		fmt.Fprintln(w)
		columnsHelp(w, "The options table of a service (-serve-rps):", servingColumns)
		return nil
	}
	if err != nil {
		return err
	}
	if o.cat, err = cli.Catalog(o.catalog); err != nil {
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
	v := o.view(source)
	offers, unknown := o.known(offers)
	if len(offers) == 0 {
		return exitFail, unknownCards(unknown)
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
	rep, err := plan.Planner{Catalog: o.cat, Offers: offers, Rates: o.rates.r}.Report(req)
	rep.Skipped = append(unknown, rep.Skipped...)
	var nf *plan.NoFitError
	if errors.As(err, &nf) {
		for _, sk := range unknown {
			nf.Reasons = append(nf.Reasons, offerName(sk.Offer)+" "+sk.Offer.Card+": "+sk.Reason)
		}
		if o.json {
			je := jsonError{Error: nf.Error(), NoFit: true, Reasons: nonNil(nf.Reasons), Suggestions: nonNil(nf.Suggestions)}
			return exitFail, writeJSON(w, je)
		}
		printNoFit(w, req, nf, unknown, v)
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
		job, defaults, err := echo(req, o.set)
		if err != nil {
			return exitFail, err
		}
		return exitOK, writeJSON(w, jsonPlan{Job: job, Defaults: defaults, Currency: rep.Options[0].RankedCost.Currency,
			Considered: rep.Considered, Returned: len(rep.Options), Skipped: skipped, Options: rep.Options})
	}
	if req.Serving != nil {
		return exitOK, printServing(w, req, rep, v)
	}
	return exitOK, printPlan(w, req, rep, v)
}

// jsonPlan is what -json prints when the plan succeeds.
type jsonPlan struct {
	Job        json.RawMessage `json:"job"`        // the request as the planner used it (echo)
	Defaults   []string        `json:"defaults"`   // the keys of Job left to a default, dotted: "headroom", "workload.optimizer"
	Currency   string          `json:"currency"`   // the currency options are ranked in
	Considered int             `json:"considered"` // candidates (offer, GPU count, layout) evaluated
	Returned   int             `json:"returned"`   // options printed
	Skipped    []jsonSkipped   `json:"skipped"`    // offers left out, and why
	Options    []plan.Option   `json:"options"`
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
	if wl.Task, err = parseTask(o.task); err != nil {
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
		offers, err := sample.Offers()
		return offers, "built-in sample price list (SAMPLE PRICES, not quotes)", err
	}
	return readOfferFile(o.offers)
}

func describeRequest(w io.Writer, r plan.Request, v view) {
	lang := v.lang
	if r.Serving != nil {
		describeServing(w, r, v)
		return
	}
	m := r.Model
	job := fmt.Sprintf("%s (%s parameters), %v in %v, ", m.Name, lang.Tokens(float64(m.ParamCount())), r.Workload.Task, r.Workload.Precision)
	if r.Workload.Task == sizing.Inference {
		job += fmt.Sprintf("%s of up to %d tokens per replica", text.Count(r.Workload.Batch, "sequence", "sequences"), r.Workload.SeqLen)
	} else {
		job += fmt.Sprintf("micro-batch %d × %d tokens per GPU, recompute %v", r.Workload.Batch, r.Workload.SeqLen, r.Workload.Recompute)
	}
	field(w, "Job:    ", job)
	switch {
	case r.Tokens > 0 && r.Workload.Task == sizing.Inference:
		fmt.Fprintf(w, "Work:   %s tokens generated (-tokens)", lang.Tokens(r.Tokens))
	case r.Tokens > 0:
		fmt.Fprintf(w, "Work:   %s training tokens (-tokens)", lang.Tokens(r.Tokens))
	default:
		fmt.Fprint(w, "Work:   none given (memory only)")
	}
	if r.Deadline > 0 {
		fmt.Fprintf(w, ", deadline %s", lang.Dur(r.Deadline))
	}
	fmt.Fprintln(w)
	if r.Tokens <= 0 {
		// With no work the job takes no time: the cost is of the rental asked for,
		// or of plan.DefaultDemoHour when none is.
		switch {
		case r.Rental != (pricing.Usage{}):
			fmt.Fprintf(w, "Rental: the costs are for %s of use a day on %s (-per-day, -days)\n", lang.Dur(r.Rental.PerDay), text.Count(r.Rental.Days, "day", "days"))
		case r.Usage > 0:
			fmt.Fprintf(w, "Rental: the costs are for %s of rental (-usage)\n", lang.Dur(r.Usage))
		default:
			fmt.Fprintf(w, "Rental: no -tokens or -usage, so the costs are for %s of rental only\n", lang.Dur(plan.DefaultDemoHour))
		}
	}
	for _, note := range modelNotes(m, r.Workload) {
		field(w, "Model:  ", note)
	}
	field(w, "Offers: ", v.source)
	fmt.Fprintln(w)
}

func printPlan(w io.Writer, r plan.Request, rep plan.Report, v view) error {
	lang := v.lang
	shown := rep.Options
	describeRequest(w, r, v)
	fmt.Fprintln(w, text.Wrap(fitCount(rep.Considered, len(shown))+":", 0, width, ""))
	fmt.Fprintln(w)
	printSkipped(w, rep.Skipped)
	if err := writeOptions(w, planColumns, shown, v); err != nil {
		return err
	}
	printRates(w, shown)
	best := shown[0]
	fmt.Fprintf(w, "\nBest: %s, %d × %s, %s\n", offerName(best.Offer), best.GPUs, v.bestCard(best), plan.DescribeLayout(best.Layout))
	b := best.PerGPU
	detail(w, fmt.Sprintf("memory per GPU: weights %s, gradients %s, optimizer %s, activations %s, KV cache %s, overhead %s = %s of %s (%.0f%% free)",
		b.Weights.Human(), b.Gradients.Human(), b.Optimizer.Human(), b.Activations.Human(), b.KVCache.Human(), b.Overhead.Human(),
		b.Total().Human(), best.Capacity.Human(), best.Headroom*100))
	if best.Duration > 0 {
		t := "time: " + lang.Dur(best.Duration)
		if low, high := lang.Dur(best.DurationLow), lang.Dur(best.DurationHigh); low != high {
			t += fmt.Sprintf(" (%s to %s over the utilization band)", low, high)
		}
		detail(w, t+fmt.Sprintf(", scaling efficiency %.0f%%", best.Efficiency*100))
	}
	detail(w, "cost: "+lang.Money(best.Cost.Total)+priceBasis(best)+costLines(best.Cost, unitPrefix(best), lang))
	for _, warn := range best.Warnings {
		detail(w, "warning: "+warn)
	}
	if best.Offer.Notes != "" {
		detail(w, "price list note: "+best.Offer.Notes)
	}
	warned := 0
	for _, o := range shown[1:] {
		warned += len(o.Warnings)
	}
	if warned > 0 {
		fmt.Fprintf(w, "\nWarnings on the other options shown:\n")
		for i, o := range shown[1:] {
			for _, warn := range o.Warnings {
				detail(w, fmt.Sprintf("#%d: %s", i+2, warn))
			}
		}
	}
	return nil
}

// field writes a line of the report's head: its label, and the value wrapped
// to the terminal's width, continued under the value.
func field(w io.Writer, label, value string) {
	fmt.Fprintf(w, "%s%s\n", label, text.Wrap(value, text.Width(label), width, strings.Repeat(" ", text.Width(label))))
}

// detail writes a line under the table, indented two spaces and wrapped to
// the terminal's width with its continuation indented four.
func detail(w io.Writer, line string) {
	fmt.Fprintf(w, "  %s\n", text.Wrap(line, 2, width, "    "))
}

// offerName names an offer in the report: "provider/region" as the price list
// writes them.
func offerName(o pricing.Offer) string {
	if o.Region == "" {
		return o.Provider
	}
	return o.Provider + "/" + o.Region
}

// bestCard names an option's card for the best option's line: the price list's
// name, and the catalog's card it denotes when that differs ("RTX 4090 (GeForce
// RTX 4090)").
func (v view) bestCard(o plan.Option) string {
	name := v.cardName(o.CardID)
	card := strings.TrimSpace(o.Offer.Card)
	switch {
	case card == "":
		return name
	case strings.EqualFold(card, name):
		return card
	}
	return card + " (" + name + ")"
}

func printNoFit(w io.Writer, r plan.Request, nf *plan.NoFitError, unknown []plan.Skipped, v view) {
	describeRequest(w, r, v)
	printSkipped(w, unknown)
	fmt.Fprintln(w, "No option fits.")
	for _, s := range nf.Reasons[:len(nf.Reasons)-len(unknown)] {
		fmt.Fprintf(w, "  - %s\n", text.Wrap(s, 4, width, "    "))
	}
	if len(nf.Suggestions) > 0 {
		fmt.Fprintln(w, "What would fit:")
		for _, s := range nf.Suggestions {
			fmt.Fprintf(w, "  - %s\n", text.Wrap(s, 4, width, "    "))
		}
	}
}

// fitCount heads the table: how many candidates (offer, GPU count, layout) were
// considered and how many options are shown, best first, one per offer.
func fitCount(considered, shown int) string {
	const ranking = "(expected cost, interruptions included; warnings do not change the order)"
	if shown == 1 {
		return fmt.Sprintf("%s considered; the best option %s", text.Count(considered, "candidate", "candidates"), ranking)
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

// costLines writes a quote's lines after the cost: "; hourly 10.48 h × CNY
// 0.80/h = CNY 8.38", each rounded for reading (-json keeps them exact); a
// rounding line that rounds to nothing is left out.
func costLines(q pricing.Quote, prefix string, lang msg.Lang) string {
	var b strings.Builder
	for _, l := range q.Lines {
		if line := costLine(l, prefix, lang); line != "" {
			b.WriteString("; ")
			b.WriteString(line)
		}
	}
	return b.String()
}

// costLine writes a quote's line: the quantity rounded to two places for reading
// (more for a quantity under 0.01, so it never reads 0), counted in GPU-units
// (prefix "GPU-") when the option has several GPUs priced per GPU, in
// instance-units (prefix "instance-") for an offer sold in instances, and the
// unit price as the price list gives it, and the amount rounded to the
// currency's minor unit:
// "hourly 10.48 h × CNY 0.80/h = CNY 8.38", "monthly 8 GPU-months × CNY
// 1800.00/month = CNY 14400.00", "rounding CNY -0.01"; empty for a rounding line
// under half a minor unit. -json keeps every figure exact.
func costLine(l pricing.Line, prefix string, lang msg.Lang) string {
	if l.Unit == "" && l.Quantity.Equal(decimal.NewFromInt(1)) && l.Price.Currency == l.Amount.Currency && l.Price.Amount.Equal(l.Amount.Amount) {
		if l.Amount.Round(pricing.RoundHalfUp).Amount.IsZero() {
			return ""
		}
		return fmt.Sprintf("%s %s", l.Item, lang.Money(l.Amount)) // the rounding line
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
	return fmt.Sprintf("%s %s × %s/%s = %s", l.Item, qty, lang.Price(l.Price), per, lang.Money(l.Amount))
}
