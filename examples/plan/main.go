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
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/sample"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

func main() {
	os.Exit(cli.Main("plan", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// The exit statuses, documented in the package comment.
const (
	exitOK    = 0 // options printed, -h, -model list
	exitFail  = 1 // no option fits, or another failure
	exitUsage = 2 // bad flags, as the flag package exits
)

// options holds the command line.
type options struct {
	cli.ModelFlags                          // -model, -config, -gguf, -safetensors, -params
	task, precision, kvPrecision, recompute string
	render, size                            string
	context, batch, loraRank, maxGPUs       int
	limit, gpus                             int
	cards                                   nameList // -card, repeatable
	layout, rank                            string
	every                                   bool
	eager                                   bool
	tokensArg                               string
	tokens                                  float64         // from tokensArg, or the task's default
	budgetAmount                            decimal.Decimal // from budget; zero: none
	usage, deadline, perDay                 time.Duration
	days                                    int
	headroom, utilization                   float64
	budget, offers                          string
	rates                                   ratesFlag // rates.go
	json, wide                              bool
	lang                                    msg.Lang
	catalog                                 string           // -catalog: a file of the user's own cards
	calibration                             string           // -calibrate: a file of one run timed on a card
	calib                                   calibration      // what calibrate made of it
	cat                                     *catalog.Catalog // the built-in catalog, with -catalog's cards
	out                                     string           // -o: the report's file; empty: standard output
	serve                                   serveFlags       // serve.go
	set                                     map[string]bool  // the flags given on the command line
}

// parse reads the command line. The flag set comes back for printing the usage;
// the flag package itself prints nothing.
func parse(args []string, lang msg.Lang) (options, *flag.FlagSet, error) {
	o := options{lang: cli.LangOf(args, lang)}
	l := o.lang // the flags' words, in the language -lang asks for
	fs := cli.FlagSet("plan")
	o.ModelFlags.Define(fs, input.DefaultModel, l)
	fs.StringVar(&o.render, "render", "", l.T("plan.flag.render"))
	fs.StringVar(&o.size, "size", "", l.T("plan.flag.size"))
	fs.StringVar(&o.task, "task", input.DefaultTask, l.T("plan.flag.task"))
	fs.StringVar(&o.precision, "precision", input.DefaultPrecision, l.T("plan.flag.precision"))
	fs.StringVar(&o.kvPrecision, "kv-precision", "", l.T("plan.flag.kv-precision"))
	fs.StringVar(&o.recompute, "recompute", "full", l.T("plan.flag.recompute"))
	fs.BoolVar(&o.eager, "eager", false, l.T("plan.flag.eager"))
	fs.IntVar(&o.context, "context", input.DefaultContext, l.T("plan.flag.context"))
	fs.IntVar(&o.batch, "batch", 0, l.T("plan.flag.batch"))
	fs.IntVar(&o.loraRank, "lora-rank", 0, l.T("plan.flag.lora-rank"))
	fs.StringVar(&o.tokensArg, "tokens", "", l.T("plan.flag.tokens"))
	fs.Var((*durationValue)(&o.usage), "usage", l.T("plan.flag.usage"))
	fs.Var((*durationValue)(&o.perDay), "per-day", l.T("plan.flag.per-day"))
	fs.IntVar(&o.days, "days", 0, l.T("plan.flag.days"))
	fs.Var((*durationValue)(&o.deadline), "deadline", l.T("plan.flag.deadline"))
	fs.Float64Var(&o.headroom, "headroom", 0, l.T("plan.flag.headroom"))
	fs.Float64Var(&o.utilization, "utilization", 0, l.T("plan.flag.utilization"))
	fs.IntVar(&o.maxGPUs, "max-gpus", 0, l.T("plan.flag.max-gpus"))
	fs.StringVar(&o.budget, "budget", "", l.T("plan.flag.budget"))
	fs.Var(&o.rates, "rates", l.T("plan.flag.rates"))
	fs.StringVar(&o.catalog, "catalog", "", l.T("cli.flag.catalog"))
	fs.StringVar(&o.offers, "offers", "", l.T("plan.flag.offers"))
	fs.StringVar(&o.calibration, "calibrate", "", l.T("plan.flag.calibrate"))
	fs.IntVar(&o.limit, "limit", 0, l.T("plan.flag.limit"))
	fs.Var(&o.cards, "card", l.T("plan.flag.card"))
	fs.IntVar(&o.gpus, "gpus", 0, l.T("plan.flag.gpus"))
	fs.StringVar(&o.layout, "layout", "", l.T("plan.flag.layout"))
	fs.BoolVar(&o.every, "every", false, l.T("plan.flag.every"))
	fs.StringVar(&o.rank, "rank", "cost", l.T("plan.flag.rank"))
	fs.BoolVar(&o.wide, "wide", false, l.T("plan.flag.wide"))
	o.serve.define(fs, l)
	cli.LangFlag(fs, &o.lang)
	fs.BoolVar(&o.json, "json", false, l.T("plan.flag.json"))
	fs.StringVar(&o.out, "o", "", l.T("plan.flag.o"))
	var err error
	if o.set, err = cli.Parse(fs, args); err != nil {
		return o, fs, err
	}
	return o, fs, nil
}

// run is the command: it writes the report (or -h's usage) to w, or to the -o
// file, in lang unless -lang says otherwise, and returns what went wrong;
// cli.Main says how main exits on it.
func run(w io.Writer, args []string, lang msg.Lang) error {
	o, fs, err := parse(args, lang)
	if errors.Is(err, flag.ErrHelp) {
		l := o.lang
		cli.Usage(w, fs, l.T("plan.usage"), l)
		fmt.Fprintln(w)
		columnsHelp(w, l.T("plan.help.jobcols"), report.PlanColumns, l)
		fmt.Fprintln(w)
		columnsHelp(w, l.T("plan.help.servecols"), report.ServingColumns, l)
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
		return cli.FailJSON(w, err, report.Failure(cli.Message(err)))
	})
}

func writeJSON(w io.Writer, v any) error { return cli.WriteJSON(w, v) }

// execute plans and prints. No fit is reported on w and gives exitFail with a
// nil error; a non-nil error is left to run to report.
func (o options) execute(w io.Writer) (int, error) {
	if o.Model == "list" {
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
		return exitUsage, cli.Usagef("%s", o.lang.T("plan.err.size"))
	}
	req, err := o.request()
	if err != nil {
		return exitFail, err
	}
	if o.calib, err = o.calibrate(req); err != nil {
		return exitFail, err
	}
	if len(o.cards) > 0 && !o.set["offers"] {
		return o.fit(w, req)
	}
	offers, source, err := o.loadOffers()
	if err != nil {
		return exitFail, err
	}
	v := o.view(source)
	offers, unknown := o.known(offers)
	if len(offers) == 0 {
		return exitFail, unknownCards(unknown, o.lang)
	}
	if !req.Budget.Amount.IsZero() && len(offers) > 0 {
		req.Budget.Currency = offers[0].Tariff.Currency
		if o.rates.r.Base != "" {
			req.Budget.Currency = o.rates.r.Base
		}
	}
	rep, err := plan.Planner{Catalog: o.cat, Offers: offers, Rates: o.rates.r, Calibrations: o.calib.byCard}.Report(req)
	rep.Skipped = append(unknown, rep.Skipped...)
	var nf *plan.NoFitError
	if errors.As(err, &nf) {
		for _, sk := range unknown {
			nf.Reasons = append(nf.Reasons, report.OfferName(sk.Offer)+" "+sk.Offer.Card+": "+sk.Reason)
		}
		if o.json {
			je := report.NoFit(nf)
			return exitFail, writeJSON(w, je)
		}
		printNoFit(w, req, nf, unknown, v)
		return exitFail, nil
	}
	if errors.Is(err, pricing.ErrCurrencyMismatch) && o.rates.r.Base == "" {
		return exitFail, fmt.Errorf("%w (%s)", err, o.lang.T("plan.err.rates"))
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
		return exitOK, writeJSON(w, jsonPlan{Job: job, Defaults: defaults, Calibrations: o.calib.byCard, Currency: rep.Options[0].RankedCost.Currency,
			Considered: rep.Considered, Returned: len(rep.Options), Skipped: skipped, Options: rep.Options})
	}
	if req.Serving != nil {
		return exitOK, printServing(w, req, rep, v)
	}
	return exitOK, printPlan(w, req, rep, v)
}

// jsonPlan is what -json prints when the plan succeeds.
type jsonPlan struct {
	Job      json.RawMessage `json:"job"`      // the request as the planner used it (echo)
	Defaults []string        `json:"defaults"` // the keys of Job left to a default, dotted: "headroom", "workload.optimizer"
	// Calibrations are -calibrate's measured speed by catalog card ID
	// (plan.Planner.Calibrations); absent without -calibrate.
	Calibrations map[string]compute.Calibration `json:"calibrations,omitempty"`
	Currency     string                         `json:"currency"`   // the currency options are ranked in
	Considered   int                            `json:"considered"` // candidates (offer, GPU count, layout) evaluated
	Returned     int                            `json:"returned"`   // options printed
	Skipped      []jsonSkipped                  `json:"skipped"`    // offers left out, and why
	Options      []plan.Option                  `json:"options"`
}

// jsonSkipped is an offer left out of the plan.
type jsonSkipped struct {
	Provider string `json:"provider"`
	Region   string `json:"region"`
	Card     string `json:"card"`
	Line     int    `json:"line"` // of the price list; zero when not from a file
	Reason   string `json:"reason"`
}

// request builds the planner's request from the flags.
func (o options) request() (plan.Request, error) {
	var r plan.Request
	var err error
	wl := sizing.Workload{Batch: o.batch, SeqLen: o.context, EagerAttention: o.eager, LoRARank: o.loraRank}
	if wl.Task, err = parseTask(o.task, o.lang); err != nil {
		return r, err
	}
	if wl.Precision, err = enumFlag(o.lang, "precision", o.precision, sizing.ParsePrecision, precisionNames()); err != nil {
		return r, err
	}
	if o.kvPrecision != "" {
		if wl.KVPrecision, err = enumFlag(o.lang, "kv-precision", o.kvPrecision, sizing.ParsePrecision, precisionNames()); err != nil {
			return r, err
		}
	}
	if wl.Task != sizing.Inference {
		if wl.Recompute, err = enumFlag(o.lang, "recompute", o.recompute, sizing.ParseRecompute, "none, selective or full"); err != nil {
			return r, err
		}
	}
	if r.Model, err = o.Read(o.set, o.lang); err != nil {
		return r, err
	}
	if !o.set["precision"] && (wl.Task == sizing.Inference || o.set["serve-rps"]) {
		wl.Precision = o.Precision(r.Model, wl.Precision)
	}
	// Defaults by task: training a micro-batch of 4 on 1e8 tokens; inference one
	// sequence at a time, generating a million tokens.
	r.Tokens = o.tokens
	if !o.set["tokens"] {
		r.Tokens = input.DefaultTrainTokens
		if wl.Task == sizing.Inference {
			r.Tokens = input.DefaultInferTokens
		}
	}
	if !o.set["batch"] {
		wl.Batch = input.DefaultTrainBatch
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
		return r, cli.Usagef("%s", o.lang.T("plan.err.perday"))
	case days && !perDay:
		return r, cli.Usagef("%s", o.lang.T("plan.err.days"))
	case perDay && days:
		if o.usage != 0 {
			return r, cli.Usagef("%s", o.lang.T("plan.err.usagesessions"))
		}
		r.Rental = pricing.DailySessions(o.perDay, o.days)
	}
	if err := o.serve.apply(&r, o.set, o.lang); err != nil {
		return r, err
	}
	r.Budget = pricing.Money{Amount: o.budgetAmount} // the currency is the offers'; set after loading
	r.Cards, r.GPUs, r.Limit, r.EveryCount = o.cards, o.gpus, o.limit, o.every
	if r.Rank, err = plan.ParseRank(o.rank); err != nil {
		return r, cli.Usagef("-rank %s: %s", text.Quote(o.rank, 40), o.lang.F("plan.want", "cost, time, frontier"))
	}
	if o.layout != "" {
		p, err := parseLayout(o.layout, o.lang)
		if err != nil {
			return r, err
		}
		r.Parallel = &p
	}
	return r, nil
}

// loadOffers reads -offers, or the embedded sample list.
func (o options) loadOffers() ([]pricing.Offer, string, error) {
	if o.offers == "" {
		offers, err := sample.Offers()
		return offers, o.lang.T("plan.sample"), err
	}
	return readOfferFile(o.offers, o.lang)
}

func describeRequest(w io.Writer, r plan.Request, v view) {
	lang := v.lang
	if r.Serving != nil {
		describeServing(w, r, v)
		return
	}
	m, wl := r.Model, r.Workload
	field(w, lang.T("plan.label.job"), report.Job(r, lang, v.precision))
	var work string
	switch {
	case r.Tokens > 0 && wl.Task == sizing.Inference:
		work = lang.F("plan.work.generated", lang.Tokens(r.Tokens))
	case r.Tokens > 0:
		work = lang.F("plan.work.training", lang.Tokens(r.Tokens))
	default:
		work = lang.T("plan.work.none")
	}
	if r.Deadline > 0 {
		work += lang.F("plan.work.deadline", lang.Dur(r.Deadline))
	}
	field(w, lang.T("plan.label.work"), work)
	if r.Tokens <= 0 {
		// With no work the job takes no time: the cost is of the rental asked for,
		// or of plan.DefaultDemoHour when none is.
		var rental string
		switch {
		case r.Rental != (pricing.Usage{}):
			rental = lang.F("plan.rental.sessions", lang.Dur(r.Rental.PerDay), lang.N(r.Rental.Days, "plan.n.day"))
		case r.Usage > 0:
			rental = lang.F("plan.rental.usage", lang.Dur(r.Usage))
		default:
			rental = lang.F("plan.rental.demo", lang.Dur(plan.DefaultDemoHour))
		}
		field(w, lang.T("plan.label.rental"), rental)
	}
	for _, note := range modelNotes(m, wl, lang) {
		field(w, lang.T("plan.label.model"), note)
	}
	if v.speed != "" {
		field(w, lang.T("plan.label.speed"), v.speed)
	}
	field(w, lang.T("plan.label.offers"), v.source)
	fmt.Fprintln(w)
}

func printPlan(w io.Writer, r plan.Request, rep plan.Report, v view) error {
	lang := v.lang
	shown := rep.Options
	describeRequest(w, r, v)
	fmt.Fprintln(w, text.Wrap(report.Fit(lang, r, rep), 0, width, ""))
	fmt.Fprintln(w)
	printSkipped(w, rep.Skipped, lang)
	if err := writeOptions(w, report.PlanColumns, shown, v); err != nil {
		return err
	}
	printRates(w, shown, lang)
	head, d := report.Best(shown[0], v.report())
	fmt.Fprintf(w, "\n%s\n", text.Wrap(head, 0, width, "  "))
	for _, line := range append([]string{d.Memory, d.Host, d.Time, d.MicroBatch, d.Cost, d.CostRange}, append(d.Warnings, d.Note)...) {
		if line != "" {
			detail(w, line)
		}
	}
	warned := 0
	for _, o := range shown[1:] {
		warned += len(o.Warnings)
	}
	if warned > 0 {
		fmt.Fprintf(w, "\n%s\n", lang.T("plan.warnings.others"))
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

func printNoFit(w io.Writer, r plan.Request, nf *plan.NoFitError, unknown []plan.Skipped, v view) {
	describeRequest(w, r, v)
	printSkipped(w, unknown, v.lang)
	fmt.Fprintln(w, v.lang.T("plan.nofit"))
	for _, s := range nf.Reasons[:len(nf.Reasons)-len(unknown)] {
		fmt.Fprintf(w, "  - %s\n", text.Wrap(s, 4, width, "    "))
	}
	if len(nf.Suggestions) > 0 {
		fmt.Fprintln(w, v.lang.T("plan.nofit.would"))
		for _, s := range nf.Suggestions {
			fmt.Fprintf(w, "  - %s\n", text.Wrap(s, 4, width, "    "))
		}
	}
}
