// Command serve draws how one model serves on two or three cards: the tokens a
// replica generates per second, and the time per output token (TPOT) each user
// sees, against the number of sequences decoding together; and with -load, the
// latency percentiles against the rate of requests arriving at random. That curve is the one
// people read to choose a card for an API: throughput climbs with concurrency while
// the weights are read once per step for every sequence, TPOT climbs with it as the
// KV caches grow, and each card stops where its memory holds no more KV cache.
//
//	go run ./examples/serve
//	go run ./examples/serve -o serve.svg
//	go run ./examples/serve -model llama-3.1-70b -cards "A100 80GB,H100 SXM,H800" -tp 4 -precision fp8 -json
//	go run ./examples/serve -gguf llama-3-8b.Q4_K_M.gguf -cards "RTX 4090,L40S"
//
// The model is named as plan names it: a preset or a downloaded model's folder
// (-model), a config.json (-config), GGUF or safetensors files (-gguf,
// -safetensors: only their headers are read), or a size alone (-params). A
// model read from files is served in the format they store unless -precision
// says otherwise.
//
// Every figure comes from compute.Serving (Prepare, then MaxConcurrency, At and Best) with the
// card's memory, bandwidth and dense peak from the catalog: FP8 weights compute at
// the FP8 rate on cards that have it, every other format at the 16-bit rate. A
// tensor-parallel replica (-tp) uses NVLink where the card has it for every GPU (a
// bridge joins a pair only), PCIe otherwise. The chart has two panels over the same
// logarithmic concurrency axis; a filled dot ends each card's curve at its
// MaxConcurrency, and an open ring marks the highest concurrency within the -tpot
// target, whose dashed line is drawn on the TPOT panel. A short table, written to
// standard output, gives the same figures; -json prints them as JSON instead.
//
// -load FILE draws a second chart: each card's replica under requests arriving
// at random (compute.PreparedServing.Under, queueing included) at shares of its
// capacity from 5% to 90%, its TTFT (log scale) and TPOT at the 50th, 90th and
// 99th percentiles, with the -ttft and -tpot targets marked; -json then
// carries those points too.
//
// The chart is written only when -o names its file. The SVG is written by hand
// with the standard library, and is deterministic: the same flags give the same
// bytes.
//
// Exit status: 0 when the figures are printed (or with -h), 1 when the chart file
// cannot be written or no card holds the model, 2 for a usage error (a bad flag, an
// unknown model, card or precision). Run with -h for every flag.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/chart"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// errNoCard is returned, after the table is written, when no card holds the model.
var errNoCard = errors.New("no card holds the model")

func main() {
	os.Exit(cli.Main("serve", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// config is the command line, checked.
type config struct {
	model     sizing.Model
	weights   sizing.Precision
	prompt    int
	output    int
	tp        int
	tpot      time.Duration
	cards     []catalog.Card
	modelName string
	lang      msg.Lang
}

// run is the command: it writes the table to w and the chart to -out (or the
// chart to w with -out -).
func run(w io.Writer, args []string, lang msg.Lang) error {
	l := cli.LangOf(args, lang) // the words of the flags and the output
	fs := cli.FlagSet("serve")
	var mf cli.ModelFlags
	mf.Define(fs, "llama-3.1-8b", l)
	cards := fs.String("cards", "RTX 4090,A100 SXM4 40GB,H100 SXM5 80GB", l.T("serve.flag.cards"))
	precision := fs.String("precision", "bf16", l.T("serve.flag.precision"))
	prompt := fs.Int("prompt", 1000, l.T("serve.flag.prompt"))
	output := fs.Int("output", 300, l.T("serve.flag.output"))
	tp := fs.Int("tp", 1, l.T("serve.flag.tp"))
	tpot := fs.Duration("tpot", 50*time.Millisecond, l.T("serve.flag.tpot"))
	ttft := fs.Duration("ttft", 0, l.T("serve.flag.ttft"))
	load := fs.String("load", "", l.T("serve.flag.load"))
	catalogFile := fs.String("catalog", "", l.T("cli.flag.catalog"))
	out := fs.String("o", "", l.T("serve.flag.o"))
	asJSON := fs.Bool("json", false, l.T("serve.flag.json"))
	cli.LangFlag(fs, &l)
	set, err := cli.Parse(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cli.Usage(w, fs, l.T("serve.usage"), l)
		}
		return err
	}
	cfg := config{prompt: *prompt, output: *output, tp: *tp, tpot: *tpot, lang: l}
	if mf.Model == "list" {
		if *asJSON {
			return cli.WriteJSON(w, sizing.Presets())
		}
		_, err := fmt.Fprintln(w, strings.Join(sizing.Presets(), "\n"))
		return err
	}
	if cfg.model, err = mf.Read(set, l); err != nil {
		return err
	}
	cfg.modelName = cfg.model.Name
	if cfg.weights, err = sizing.ParsePrecision(*precision); err != nil {
		return cli.Usagef("-precision %s: %v", text.Quote(*precision, 80), err)
	}
	if !set["precision"] {
		cfg.weights = mf.Precision(cfg.model, cfg.weights) // the model's files' own format
	}
	if *prompt < 1 || *output < 1 {
		return cli.Usagef("-prompt %d, -output %d: %s", *prompt, *output, l.T("serve.err.tokens"))
	}
	if *tp < 1 || *tp > 64 {
		return cli.Usagef("-tp %d: %s", *tp, l.T("serve.err.tp"))
	}
	if *tpot < 0 {
		return cli.Usagef("-tpot %v: %s", *tpot, l.T("serve.err.tpot"))
	}
	if *ttft < 0 {
		return cli.Usagef("-ttft %v: %s", *ttft, l.T("serve.err.tpot"))
	}
	cat, err := cli.Catalog(*catalogFile)
	if err != nil {
		return err
	}
	for _, name := range strings.Split(*cards, ",") {
		c, err := cat.Lookup(strings.TrimSpace(name))
		if errors.Is(err, catalog.ErrNotFound) {
			return cli.Usagef("-cards: %v; %s", err, l.T("cli.unknowncard"))
		}
		if err != nil {
			return cli.Usagef("-cards: %v", err)
		}
		cfg.cards = append(cfg.cards, c)
	}
	if len(cfg.cards) > chart.MaxCurves {
		return cli.Usagef("-cards: %s", l.F("serve.err.cards", len(cfg.cards), chart.MaxCurves))
	}

	curves, err := cfg.curves()
	if err != nil {
		return err
	}
	for _, c := range curves {
		// A replica the flags make invalid whatever the card (a tensor degree that
		// does not divide the heads) is said first, as the command line's fault.
		if errors.Is(c.Err, compute.ErrInvalid) && cfg.tp > 1 {
			return cli.Usagef("-tp %d: %v (%s)", cfg.tp, c.Err, l.F("serve.err.divisors", divisors(l, cfg.model.Heads), cfg.modelName))
		}
	}
	fits := false
	for _, c := range curves {
		fits = fits || c.Err == nil
	}
	var loads []chart.LoadCurve
	if *load != "" {
		if loads, err = cfg.loads(); err != nil {
			return err
		}
	}
	if *asJSON {
		j := cfg.json(curves)
		j.Load = loads
		err = cli.WriteJSON(w, j)
	} else {
		err = cfg.table(w, curves, *out)
		if err == nil && *load != "" {
			_, err = fmt.Fprintln(w, l.F("serve.loadchart", *load))
		}
	}
	if err == nil && *out != "" {
		err = cli.WriteFile(*out, []byte(chart.Serving(cfg.lang, cfg.title(), curves, cfg.tpot)))
	}
	if err == nil && *load != "" {
		err = cli.WriteFile(*load, []byte(chart.LoadChart(cfg.lang, cfg.title(), loads, *ttft, cfg.tpot)))
	}
	if err == nil && !fits {
		err = errNoCard
		if *asJSON {
			err = &cli.Reported{Code: 1, Err: err} // the JSON says so: no card holds the model
		}
	}
	return err
}

// jsonChart is what -json prints: the figures of the table and the chart.
type jsonChart struct {
	Model        string          `json:"model"`
	Precision    string          `json:"precision"`
	PromptTokens int             `json:"prompt_tokens"`
	OutputTokens int             `json:"output_tokens"`
	Tensor       int             `json:"tensor"` // GPUs a replica
	TPOTTarget   string          `json:"tpot_target"`
	Cards        []jsonCardCurve `json:"cards"`
	// Load is each card's replica under requests arriving at random, with
	// -load: its capacity and its latencies at shares of it.
	Load []chart.LoadCurve `json:"load,omitempty"`
}

// jsonCardCurve is one card's curve: every point sampled, the last at the most
// sequences its memory holds, and the most within the TPOT target.
type jsonCardCurve struct {
	CardID       string                 `json:"card_id"`
	Name         string                 `json:"name"`
	Fits         bool                   `json:"fits"`
	Error        string                 `json:"error"` // why it holds no sequence; empty when it fits
	Points       []compute.ServingPoint `json:"points"`
	WithinTarget *compute.ServingPoint  `json:"within_target"` // null: even one sequence misses it, or no fit
}

func (cfg *config) json(cs []chart.Curve) jsonChart {
	j := jsonChart{Model: cfg.modelName, Precision: strings.ToLower(cfg.weights.String()), PromptTokens: cfg.prompt,
		OutputTokens: cfg.output, Tensor: cfg.tp, TPOTTarget: cfg.tpot.String(), Cards: []jsonCardCurve{}}
	for _, c := range cs {
		jc := jsonCardCurve{CardID: c.Card.ID, Name: c.Card.Name, Fits: c.Err == nil, Points: c.Points}
		if c.Err != nil {
			jc.Error = c.Err.Error()
		}
		if jc.Points == nil {
			jc.Points = []compute.ServingPoint{}
		}
		if c.Err == nil && !c.Miss {
			best := c.Best
			jc.WithinTarget = &best
		}
		j.Cards = append(j.Cards, jc)
	}
	return j
}

// curves sweeps each card's replica (chart.Replica.Sweep).
func (cfg *config) curves() ([]chart.Curve, error) {
	r := chart.Replica{Model: cfg.model, Weights: cfg.weights, Prompt: cfg.prompt, Output: cfg.output}
	var cs []chart.Curve
	for _, card := range cfg.cards {
		c, err := r.Sweep(card, cfg.tp, cfg.tpot)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// loads sweeps each card's replica under requests arriving at random
// (chart.Replica.Load).
func (cfg *config) loads() ([]chart.LoadCurve, error) {
	r := chart.Replica{Model: cfg.model, Weights: cfg.weights, Prompt: cfg.prompt, Output: cfg.output}
	var cs []chart.LoadCurve
	for _, card := range cfg.cards {
		c, err := r.Load(card, cfg.tp)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// divisors lists the tensor degrees up to 64 that divide n heads: "1, 2, 4 or
// 8".
func divisors(l msg.Lang, n int) string {
	var d []string
	for k := 1; k <= min(n, 64); k++ {
		if n%k == 0 {
			d = append(d, strconv.Itoa(k))
		}
	}
	if len(d) < 2 {
		return strings.Join(d, "")
	}
	return l.F("serve.or", strings.Join(d[:len(d)-1], l.T("serve.sep")), d[len(d)-1])
}

// title is the chart's and the table's heading.
func (cfg *config) title() string {
	l := cfg.lang
	gpus := l.T("serve.title.one")
	if cfg.tp > 1 {
		gpus = l.F("serve.title.tp", cfg.tp)
	}
	return l.F("serve.title", cfg.modelName, strings.ToUpper(cfg.weights.String()), cfg.prompt, cfg.output, gpus)
}

// table writes the figures of each card: its MaxConcurrency, TPOT and tokens/s at
// one sequence and at the maximum, TTFT at the maximum, and the highest concurrency
// within the TPOT target.
func (cfg *config) table(w io.Writer, cs []chart.Curve, file string) error {
	l := cfg.lang
	fmt.Fprintln(w, text.Wrap(cfg.title(), 0, 100, "  "))
	fmt.Fprintln(w)
	t := text.Table{Indent: "  ", Align: []text.Align{text.Left, text.Right, text.Right, text.Right, text.Right, text.Right, text.Right, text.Right}}
	target := l.T("serve.col.within")
	if cfg.tpot > 0 {
		target = "TPOT ≤ " + chart.Millis(cfg.tpot)
	}
	t.Row(l.T("serve.col.card"), l.T("serve.col.max"), l.T("serve.col.tpot1"), l.T("serve.col.tokens1"), l.T("serve.col.tpotmax"),
		l.T("serve.col.ttftmax"), l.T("serve.col.tokensmax"), target)
	for _, c := range cs {
		if c.Err != nil {
			t.Row(c.Card.Name, l.T("serve.nofit"), "-", "-", "-", "-", "-", "-")
			continue
		}
		one, top := c.Points[0], c.Points[len(c.Points)-1]
		within := l.F("serve.within", c.Best.Concurrency, float64(c.Best.Throughput))
		if c.Miss {
			within = l.T("serve.missed")
		}
		t.Row(c.Card.Name, strconv.Itoa(top.Concurrency), chart.Millis(one.TPOT), fmt.Sprintf("%.0f", float64(one.Throughput)), chart.Millis(top.TPOT),
			chart.Millis(top.TTFT), fmt.Sprintf("%.0f", float64(top.Throughput)), within)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	for _, c := range cs {
		if c.Err != nil {
			fmt.Fprintf(w, "\n%s\n", text.Wrap(c.Card.Name+": "+c.Err.Error(), 0, 100, "  "))
		}
	}
	fmt.Fprintf(w, "\n%s\n", text.Wrap(l.T("serve.legend"), 0, 100, ""))
	var err error
	if file == "" {
		_, err = fmt.Fprintln(w, l.T("serve.drawchart"))
	} else {
		_, err = fmt.Fprintln(w, l.F("serve.chart", file))
	}
	return err
}
