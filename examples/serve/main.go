// Command serve draws how one model serves on two or three cards: the tokens a
// replica generates per second, and the time per output token (TPOT) each user
// sees, against the number of sequences decoding together. That curve is the one
// people read to choose a card for an API: throughput climbs with concurrency while
// the weights are read once per step for every sequence, TPOT climbs with it as the
// KV caches grow, and each card stops where its memory holds no more KV cache.
//
//	go run ./examples/serve
//	go run ./examples/serve -o serve.svg
//	go run ./examples/serve -model llama-3.1-70b -cards "A100 80GB,H100 SXM,H800" -tp 4 -precision fp8 -json
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
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// errNoCard is returned, after the table is written, when no card holds the model.
var errNoCard = errors.New("no card holds the model")

func main() {
	os.Exit(cli.Main("serve", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// maxCards is how many cards one chart compares: one colour each.
const maxCards = 3

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
	model := fs.String("model", "llama-3.1-8b", l.T("serve.flag.model"))
	cards := fs.String("cards", "RTX 4090,A100 SXM4 40GB,H100 SXM5 80GB", l.T("serve.flag.cards"))
	precision := fs.String("precision", "bf16", l.T("serve.flag.precision"))
	prompt := fs.Int("prompt", 1000, l.T("serve.flag.prompt"))
	output := fs.Int("output", 300, l.T("serve.flag.output"))
	tp := fs.Int("tp", 1, l.T("serve.flag.tp"))
	tpot := fs.Duration("tpot", 50*time.Millisecond, l.T("serve.flag.tpot"))
	catalogFile := fs.String("catalog", "", l.T("cli.flag.catalog"))
	out := fs.String("o", "", l.T("serve.flag.o"))
	asJSON := fs.Bool("json", false, l.T("serve.flag.json"))
	cli.LangFlag(fs, &l)
	if _, err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cli.Usage(w, fs, l.T("serve.usage"), l)
		}
		return err
	}
	cfg := config{prompt: *prompt, output: *output, tp: *tp, tpot: *tpot, modelName: *model, lang: l}
	var err error
	if *model == "list" {
		if *asJSON {
			return cli.WriteJSON(w, sizing.Presets())
		}
		_, err := fmt.Fprintln(w, strings.Join(sizing.Presets(), "\n"))
		return err
	}
	if cfg.model, err = sizing.Preset(*model); err != nil {
		return cli.Usagef("-model %s: %s%s", text.Quote(*model, 80), l.F("serve.err.model", len(sizing.Presets())), suggestion(err))
	}
	if cfg.weights, err = sizing.ParsePrecision(*precision); err != nil {
		return cli.Usagef("-precision %s: %v", text.Quote(*precision, 80), err)
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
	if len(cfg.cards) > maxCards {
		return cli.Usagef("-cards: %s", l.F("serve.err.cards", len(cfg.cards), maxCards))
	}

	curves, err := cfg.curves()
	if err != nil {
		return err
	}
	for _, c := range curves {
		// A replica the flags make invalid whatever the card (a tensor degree that
		// does not divide the heads) is said first, as the command line's fault.
		if errors.Is(c.err, compute.ErrInvalid) && cfg.tp > 1 {
			return cli.Usagef("-tp %d: %v (%s)", cfg.tp, c.err, l.F("serve.err.divisors", divisors(l, cfg.model.Heads), cfg.modelName))
		}
	}
	fits := false
	for _, c := range curves {
		fits = fits || c.err == nil
	}
	if *asJSON {
		err = cli.WriteJSON(w, cfg.json(curves))
	} else {
		err = cfg.table(w, curves, *out)
	}
	if err == nil && *out != "" {
		err = cli.WriteFile(*out, []byte(cfg.svg(curves)))
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

func (cfg *config) json(cs []curve) jsonChart {
	j := jsonChart{Model: cfg.modelName, Precision: strings.ToLower(cfg.weights.String()), PromptTokens: cfg.prompt,
		OutputTokens: cfg.output, Tensor: cfg.tp, TPOTTarget: cfg.tpot.String(), Cards: []jsonCardCurve{}}
	for _, c := range cs {
		jc := jsonCardCurve{CardID: c.card.ID, Name: c.card.Name, Fits: c.err == nil, Points: c.points}
		if c.err != nil {
			jc.Error = c.err.Error()
		}
		if jc.Points == nil {
			jc.Points = []compute.ServingPoint{}
		}
		if c.err == nil && !c.miss {
			best := c.best
			jc.WithinTarget = &best
		}
		j.Cards = append(j.Cards, jc)
	}
	return j
}

// curve is one card's replica swept over concurrency.
type curve struct {
	card   catalog.Card
	err    error                  // the replica holds no sequence (ErrNoFit), or cannot be built
	points []compute.ServingPoint // at sampled concurrencies, the last at MaxConcurrency
	best   compute.ServingPoint   // the highest concurrency within the TPOT target
	miss   bool                   // even one sequence misses the target
}

// serving returns the replica of the model on c.
func (cfg *config) serving(c catalog.Card) (compute.Serving, error) {
	peak, ok := c.Peak(sizing.BF16)
	if !ok {
		peak, ok = c.Peak(sizing.FP16)
	}
	if fp8, has := c.Peak(sizing.FP8); cfg.weights == sizing.FP8 && has {
		peak, ok = fp8, true
	}
	if !ok {
		return compute.Serving{}, fmt.Errorf("%s has no 16-bit tensor rate in the catalog", c.Name)
	}
	s := compute.Serving{Model: cfg.model, Weights: cfg.weights, Devices: cfg.tp,
		Memory: c.Memory, Bandwidth: c.MemoryBandwidth, Peak: peak,
		PromptTokens: cfg.prompt, OutputTokens: cfg.output}
	if cfg.tp > 1 {
		// The link the catalog models for tp GPUs in one server: NVLink, Infinity
		// Fabric or HCCS where it joins them, PCIe of the card's generation otherwise.
		l, _, err := c.PeerLink(cfg.tp)
		if err != nil {
			return compute.Serving{}, err
		}
		s.Link = l
	}
	return s, nil
}

// curves sweeps each card's replica over concurrencies 1, 2, 3, 4, 6, 8, 12, 16,
// ... (two points an octave) and its MaxConcurrency.
func (cfg *config) curves() ([]curve, error) {
	var cs []curve
	for _, card := range cfg.cards {
		c := curve{card: card}
		cs = append(cs, c)
		cur := &cs[len(cs)-1]
		s, err := cfg.serving(card)
		if err != nil {
			cur.err = err
			continue
		}
		// The replica is validated and sized once for its whole sweep.
		r, err := s.Prepare()
		if err != nil {
			if !errors.Is(err, compute.ErrNoFit) && !errors.Is(err, compute.ErrInvalid) {
				return nil, err
			}
			cur.err = err
			continue
		}
		n, err := r.MaxConcurrency()
		if err != nil {
			return nil, err
		}
		for k := 1; k < n; k = next(k) {
			p, err := r.At(k)
			if err != nil {
				return nil, err
			}
			cur.points = append(cur.points, p)
		}
		p, err := r.At(n)
		if err != nil {
			return nil, err
		}
		cur.points = append(cur.points, p)
		cur.best, err = r.Best(0, cfg.tpot)
		if errors.Is(err, compute.ErrUnreachable) {
			cur.miss, err = true, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// suggestion is sizing.Preset's error when it names the closest presets, for a
// user to read after the command's own words; "" when it has none to name (it
// then points a program at a function, which a user of the command cannot call).
func suggestion(err error) string {
	if strings.Contains(err.Error(), "did you mean") {
		return "; " + err.Error()
	}
	return ""
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

// next returns the concurrency sampled after k: 1, 2, 3, 4, 6, 8, 12, 16, 24, ...
func next(k int) int {
	switch {
	case k < 4:
		return k + 1
	case k&(k-1) == 0: // 2^j → 3·2^(j-1)
		return k + k/2
	}
	return k + k/3 // 3·2^j → 2^(j+2)
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
func (cfg *config) table(w io.Writer, cs []curve, chart string) error {
	l := cfg.lang
	fmt.Fprintln(w, text.Wrap(cfg.title(), 0, 100, "  "))
	fmt.Fprintln(w)
	t := text.Table{Indent: "  ", Align: []text.Align{text.Left, text.Right, text.Right, text.Right, text.Right, text.Right, text.Right, text.Right}}
	target := l.T("serve.col.within")
	if cfg.tpot > 0 {
		target = "TPOT ≤ " + ms(cfg.tpot)
	}
	t.Row(l.T("serve.col.card"), l.T("serve.col.max"), l.T("serve.col.tpot1"), l.T("serve.col.tokens1"), l.T("serve.col.tpotmax"),
		l.T("serve.col.ttftmax"), l.T("serve.col.tokensmax"), target)
	for _, c := range cs {
		if c.err != nil {
			t.Row(c.card.Name, l.T("serve.nofit"), "-", "-", "-", "-", "-", "-")
			continue
		}
		one, top := c.points[0], c.points[len(c.points)-1]
		within := l.F("serve.within", c.best.Concurrency, float64(c.best.Throughput))
		if c.miss {
			within = l.T("serve.missed")
		}
		t.Row(c.card.Name, strconv.Itoa(top.Concurrency), ms(one.TPOT), fmt.Sprintf("%.0f", float64(one.Throughput)), ms(top.TPOT),
			ms(top.TTFT), fmt.Sprintf("%.0f", float64(top.Throughput)), within)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	for _, c := range cs {
		if c.err != nil {
			fmt.Fprintf(w, "\n%s\n", text.Wrap(c.card.Name+": "+c.err.Error(), 0, 100, "  "))
		}
	}
	fmt.Fprintf(w, "\n%s\n", text.Wrap(l.T("serve.legend"), 0, 100, ""))
	var err error
	if chart == "" {
		_, err = fmt.Fprintln(w, l.T("serve.drawchart"))
	} else {
		_, err = fmt.Fprintln(w, l.F("serve.chart", chart))
	}
	return err
}

// ms formats a duration in milliseconds, to three significant figures.
func ms(d time.Duration) string {
	v := d.Seconds() * 1000
	if v >= 1000 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.3g ms", v)
}

// Chart geometry, in SVG user units.
const (
	width, height = 800.0, 650.0
	left, plotW   = 90.0, 640.0
	panelH        = 220.0
	top1, top2    = 70.0, 340.0
	gridColor     = "#dddddd"
)

// colors are the cards' line colours, distinct for readers with colour-blindness
// (Okabe and Ito's palette).
var colors = [maxCards]string{"#0072B2", "#D55E00", "#009E73"}

// svg draws the chart.
func (cfg *config) svg(cs []curve) string {
	// The x axis runs over powers of two from 1 to the largest MaxConcurrency.
	xMax, yThr, yTPOT := 2.0, 0.0, 0.0
	for _, c := range cs {
		for _, p := range c.points {
			for xMax < float64(p.Concurrency) {
				xMax *= 2
			}
			yThr = math.Max(yThr, float64(p.Throughput))
			yTPOT = math.Max(yTPOT, p.TPOT.Seconds()*1000)
		}
	}
	if cfg.tpot > 0 {
		yTPOT = math.Max(yTPOT, cfg.tpot.Seconds()*1000*1.1)
	}
	thrStep := svg.NiceStep(math.Max(yThr, 1) / 5)
	thrMax := math.Ceil(math.Max(yThr, 1)/thrStep) * thrStep
	tpotStep := svg.NiceStep(math.Max(yTPOT, 1) / 5)
	tpotMax := math.Ceil(math.Max(yTPOT, 1)/tpotStep) * tpotStep
	octaves := math.Log2(xMax)
	x := func(k int) float64 { return left + math.Log2(float64(k))/octaves*plotW }
	y1 := func(v float64) float64 { return top1 + panelH - v/thrMax*panelH }
	y2 := func(v float64) float64 { return top2 + panelH - v/tpotMax*panelH }

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	svg.Start(&b, width, height)
	p(`<text x="%g" y="28" font-size="18" font-weight="bold">%s</text>`, left, svg.Esc(cfg.lang.T("serve.svg.title")))
	p(`<text x="%g" y="48" fill="#444444">%s</text>`, left, svg.Esc(cfg.title()))

	panel := func(top float64, yMax, yStep float64, y func(float64) float64, label string) {
		p(`<g stroke="%s" stroke-width="1">`, gridColor)
		for v := 0.0; v <= yMax+yStep/2; v += yStep {
			p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, left, y(v), left+plotW, y(v))
		}
		for k := 1; float64(k) <= xMax; k *= 2 {
			p(`<line x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, x(k), top, x(k), top+panelH)
		}
		p(`</g>`)
		p(`<g font-size="12" text-anchor="end" fill="#333333">`)
		for v := 0.0; v <= yMax+yStep/2; v += yStep {
			p(`<text x="%g" y="%.1f">%s</text>`, left-6, y(v)+4, tick(v))
		}
		p(`</g>`)
		p(`<g font-size="12" text-anchor="middle" fill="#333333">`)
		for k := 1; float64(k) <= xMax; k *= 2 {
			p(`<text x="%.1f" y="%g">%d</text>`, x(k), top+panelH+16, k)
		}
		p(`</g>`)
		p(`<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#333333"/>`, left, top, plotW, panelH)
		cy := top + panelH/2
		p(`<text x="%g" y="%g" text-anchor="middle" transform="rotate(-90 %g %g)">%s</text>`, left-58, cy, left-58, cy, svg.Esc(label))
	}
	panel(top1, thrMax, thrStep, y1, cfg.lang.T("serve.svg.throughput"))
	panel(top2, tpotMax, tpotStep, y2, cfg.lang.T("serve.svg.tpot"))
	p(`<text x="%g" y="%g" text-anchor="middle">%s</text>`, left+plotW/2, top2+panelH+40, svg.Esc(cfg.lang.T("serve.svg.x")))

	if cfg.tpot > 0 {
		t := cfg.tpot.Seconds() * 1000
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 4"/>`, left, y2(t), left+plotW, y2(t))
		p(`<text x="%g" y="%.1f" font-size="12" fill="#555555">%s</text>`, left+6, y2(t)-5, svg.Esc(cfg.lang.F("serve.svg.target", ms(cfg.tpot))))
	}

	for i, c := range cs {
		if c.err != nil {
			continue
		}
		var thr, lat strings.Builder
		for j, pt := range c.points {
			sep := " "
			if j == 0 {
				sep = ""
			}
			fmt.Fprintf(&thr, "%s%.1f,%.1f", sep, x(pt.Concurrency), y1(float64(pt.Throughput)))
			fmt.Fprintf(&lat, "%s%.1f,%.1f", sep, x(pt.Concurrency), y2(pt.TPOT.Seconds()*1000))
		}
		p(`<polyline fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round" points="%s"/>`, colors[i], thr.String())
		p(`<polyline fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round" points="%s"/>`, colors[i], lat.String())
		end := c.points[len(c.points)-1]
		p(`<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"/>`, x(end.Concurrency), y1(float64(end.Throughput)), colors[i])
		p(`<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"/>`, x(end.Concurrency), y2(end.TPOT.Seconds()*1000), colors[i])
		if cfg.tpot > 0 && !c.miss && c.best.Concurrency < end.Concurrency {
			p(`<circle cx="%.1f" cy="%.1f" r="6" fill="white" stroke="%s" stroke-width="2"/>`, x(c.best.Concurrency), y1(float64(c.best.Throughput)), colors[i])
			p(`<circle cx="%.1f" cy="%.1f" r="6" fill="white" stroke="%s" stroke-width="2"/>`, x(c.best.Concurrency), y2(c.best.TPOT.Seconds()*1000), colors[i])
		}
	}
	// Legend, one entry a card, in the empty upper left of the throughput panel.
	p(`<rect x="%g" y="%g" width="300" height="%g" fill="white" fill-opacity="0.9" stroke="#bbbbbb"/>`, left+10, top1+10, 10+18*float64(len(cs)))
	for i, c := range cs {
		ly := top1 + 28 + 18*float64(i)
		label := c.card.Name
		if c.err != nil {
			label += cfg.lang.T("serve.svg.nofit")
		} else {
			label += cfg.lang.F("serve.svg.upto", c.points[len(c.points)-1].Concurrency)
		}
		p(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="3"/>`, left+18, ly-4.5, left+42, ly-4.5, colors[i])
		p(`<text x="%g" y="%g">%s</text>`, left+48, ly, svg.Esc(label))
	}
	note := cfg.lang.T("serve.svg.note")
	p(`<text x="%g" y="%g" font-size="12" fill="#444444">%s</text>`, left, height-14, svg.Esc(note))
	p(`</svg>`)
	return b.String()
}

// tick formats an axis value: 12000 as 12k.
func tick(v float64) string {
	if v >= 1000 && math.Mod(v, 1000) == 0 {
		return fmt.Sprintf("%gk", v/1000)
	}
	return fmt.Sprintf("%g", v)
}
