// Command plan is gpuplan's main job: given a model, a task and how the machines
// are rented, it prints the rental options that fit, cheapest first, from the
// built-in card catalog and a price list.
//
// With no flags it plans a LoRA fine-tune of Llama-2-7B on 100 million tokens
// against a sample price list (invented providers, SAMPLE PRICES in CNY; give your
// own with -offers):
//
//	go run ./examples/plan
//	go run ./examples/plan -model llama-2-70b -task inference -precision bf16 -context 4096 -tokens 0 -usage 720h
//	go run ./examples/plan -offers my_offers.csv -deadline 12h -json
//
// Run with -h for every flag.
package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

//go:embed sample_offers.json
var sampleOffers string

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h: the usage was printed; asking for help is not a failure
		}
		fmt.Fprintln(os.Stderr, "plan:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// options holds the command line.
type options struct {
	model, task, precision, kvPrecision, recompute string
	params                                         string
	context, batch, loraRank, maxGPUs, top         int
	flash                                          bool
	tokens                                         float64
	usage, deadline, perDay                        time.Duration
	days                                           int
	headroom, utilization                          float64
	budget, offers                                 string
	json                                           bool
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.model, "model", "llama-2-7b", "model preset (see -model list)")
	fs.StringVar(&o.params, "params", "", "parameter count of a model without a preset (e.g. 7e9); memory terms that need the architecture are approximated")
	fs.StringVar(&o.task, "task", "lora", "inference, training, lora or qlora")
	fs.StringVar(&o.precision, "precision", "bf16", "weights (inference) or compute precision: fp32, bf16, fp16, fp8, int8, nf4, gptq4, awq4, q4_k_m, ...")
	fs.StringVar(&o.kvPrecision, "kv-precision", "", "KV cache precision (inference); empty: follows -precision")
	fs.StringVar(&o.recompute, "recompute", "full", "activation recomputation for training: none, selective or full")
	fs.BoolVar(&o.flash, "flash", true, "FlashAttention (no attention score matrix in memory)")
	fs.IntVar(&o.context, "context", 2048, "tokens per sequence (inference: context length)")
	fs.IntVar(&o.batch, "batch", 4, "micro-batch per GPU (inference: concurrent sequences)")
	fs.IntVar(&o.loraRank, "lora-rank", 0, "LoRA rank; 0: the library's default")
	fs.Float64Var(&o.tokens, "tokens", 1e8, "work: training tokens, or tokens generated for inference; 0: memory only")
	fs.DurationVar(&o.usage, "usage", 0, "rental length (e.g. 720h); 0: as long as the job takes")
	fs.DurationVar(&o.perDay, "per-day", 0, "with -days: hours used each day (e.g. 6h); replaces -usage")
	fs.IntVar(&o.days, "days", 0, "with -per-day: number of days")
	fs.DurationVar(&o.deadline, "deadline", 0, "finish within (e.g. 12h); 0: no deadline")
	fs.Float64Var(&o.headroom, "headroom", 0, "fraction of GPU memory kept free; 0: 0.2")
	fs.Float64Var(&o.utilization, "utilization", 0, "fraction of peak FLOP/s sustained; 0: the middle of published MFU (38-52%)")
	fs.IntVar(&o.maxGPUs, "max-gpus", 0, "most GPUs per option; 0: each offer's limit")
	fs.StringVar(&o.budget, "budget", "", "most money to spend, in the offers' currency (e.g. 500)")
	fs.StringVar(&o.offers, "offers", "", "price list, .json or .csv (see the README); empty: the built-in SAMPLE price list")
	fs.IntVar(&o.top, "top", 10, "options to print; 0: all")
	fs.BoolVar(&o.json, "json", false, "print the options as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err // the usage is printed; main exits 0
		}
		return o, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	return o, nil
}

func run(w io.Writer, args []string) error {
	o, err := parse(args, w)
	if err != nil {
		return err
	}
	if o.model == "list" {
		fmt.Fprintln(w, strings.Join(sizing.Presets(), "\n"))
		return nil
	}
	req, err := o.request()
	if err != nil {
		return err
	}
	offers, source, err := o.loadOffers()
	if err != nil {
		return err
	}
	if !req.Budget.Amount.IsZero() && len(offers) > 0 {
		req.Budget.Currency = offers[0].Tariff.Currency
	}
	opts, err := pricing.Planner{Catalog: catalog.Default(), Offers: offers}.Plan(req)
	var nf *pricing.NoFitError
	if errors.As(err, &nf) {
		return printNoFit(w, req, source, nf)
	}
	if err != nil {
		return err
	}
	shown := opts
	if o.top > 0 && len(shown) > o.top {
		shown = shown[:o.top]
	}
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(shown)
	}
	return printPlan(w, req, source, opts, shown)
}

// request builds the planner's request from the flags.
func (o options) request() (pricing.Request, error) {
	var r pricing.Request
	var err error
	if o.params != "" {
		f, perr := strconv.ParseFloat(o.params, 64)
		if perr != nil || !(f >= 1) || f > 1e15 {
			return r, fmt.Errorf("%w: -params %q is not a parameter count", errUsage, o.params)
		}
		r.Model = sizing.Model{Name: "custom", Params: int64(f)}
	} else if r.Model, err = sizing.Preset(o.model); err != nil {
		return r, fmt.Errorf("%w (-model list prints every preset)", err)
	}
	wl := sizing.Workload{Batch: o.batch, SeqLen: o.context, FlashAttention: o.flash, LoRARank: o.loraRank}
	if wl.Task, err = sizing.ParseTask(o.task); err != nil {
		return r, err
	}
	if wl.Precision, err = sizing.ParsePrecision(o.precision); err != nil {
		return r, err
	}
	if o.kvPrecision != "" {
		if wl.KVPrecision, err = sizing.ParsePrecision(o.kvPrecision); err != nil {
			return r, err
		}
	}
	if wl.Task != sizing.Inference {
		if wl.Recompute, err = sizing.ParseRecompute(o.recompute); err != nil {
			return r, err
		}
	}
	r.Workload = wl
	r.Tokens, r.Usage, r.Deadline = o.tokens, o.usage, o.deadline
	r.Headroom, r.Utilization, r.MaxGPUs = o.headroom, o.utilization, o.maxGPUs
	if o.perDay > 0 || o.days > 0 {
		if o.usage > 0 {
			return r, fmt.Errorf("%w: give -usage or -per-day with -days, not both", errUsage)
		}
		r.Rental = pricing.DailySessions(o.perDay, o.days)
	}
	if o.budget != "" {
		amount, err := decimal.NewFromString(o.budget)
		if err != nil {
			return r, fmt.Errorf("%w: -budget %q is not a decimal amount", errUsage, o.budget)
		}
		r.Budget = pricing.Money{Amount: amount} // the currency is the offers'; set after loading
	}
	return r, nil
}

// loadOffers reads -offers, or the embedded sample list.
func (o options) loadOffers() ([]pricing.Offer, string, error) {
	if o.offers == "" {
		offers, err := pricing.LoadOffersJSON(strings.NewReader(sampleOffers))
		return offers, "built-in sample price list (SAMPLE PRICES, not quotes)", err
	}
	f, err := os.Open(o.offers)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	var offers []pricing.Offer
	if strings.EqualFold(filepath.Ext(o.offers), ".csv") {
		offers, err = pricing.LoadOffersCSV(f)
	} else {
		offers, err = pricing.LoadOffersJSON(f)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", o.offers, err)
	}
	return offers, o.offers, nil
}

func describeRequest(w io.Writer, r pricing.Request, source string) {
	m := r.Model
	fmt.Fprintf(w, "Job:    %s (%.2fB parameters), %v in %v, ", m.Name, float64(m.ParamCount())/1e9, r.Workload.Task, r.Workload.Precision)
	if r.Workload.Task == sizing.Inference {
		fmt.Fprintf(w, "%d sequence(s) of up to %d tokens per replica\n", r.Workload.Batch, r.Workload.SeqLen)
	} else {
		fmt.Fprintf(w, "micro-batch %d × %d tokens per GPU, recompute %v\n", r.Workload.Batch, r.Workload.SeqLen, r.Workload.Recompute)
	}
	switch {
	case r.Tokens > 0:
		fmt.Fprintf(w, "Work:   %.3g tokens", r.Tokens)
	default:
		fmt.Fprint(w, "Work:   none given (memory only)")
	}
	if r.Deadline > 0 {
		fmt.Fprintf(w, ", deadline %v", r.Deadline)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Offers: %s\n\n", source)
}

func printPlan(w io.Writer, r pricing.Request, source string, all, shown []pricing.Option) error {
	describeRequest(w, r, source)
	fmt.Fprintf(w, "%d options fit; the %d cheapest (expected cost, interruptions included):\n\n", len(all), len(shown))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "#\tprovider\tcard\tGPUs\tlayout\tmem/GPU\tfree\ttime\tscaling\texpected cost\thourly only\tvs best\t")
	for i, o := range shown {
		scaling := "-"
		if o.Duration > 0 {
			scaling = fmt.Sprintf("%.0f%%", o.Efficiency*100)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%.0f%%\t%s\t%s\t%s\t%s\t%s\t\n",
			i+1, o.Offer.Provider, o.CardID, o.GPUs, pricing.DescribeLayout(o.Layout), o.PerGPU.Total().Human(),
			o.Headroom*100, duration(o.Duration), scaling, o.ExpectedCost, money(o.HourlyOnly.Total), o.Waste)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	best := shown[0]
	fmt.Fprintf(w, "\nBest: %s %s (%s), %d × %s, %s\n", best.Offer.Provider, best.Offer.Region, best.Offer.Card, best.GPUs, best.CardID, pricing.DescribeLayout(best.Layout))
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
	for _, l := range best.Cost.Lines {
		fmt.Fprintf(w, "; %s %s × %s = %s", l.Item, l.Quantity, l.Price.Amount, l.Amount.Amount)
	}
	fmt.Fprintln(w)
	for _, warn := range best.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warn)
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

func printNoFit(w io.Writer, r pricing.Request, source string, nf *pricing.NoFitError) error {
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
	return nil
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
