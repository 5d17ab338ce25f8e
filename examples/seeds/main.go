// Command seeds checks the two articles gpuplan grew from against the library.
//
// The articles (Chinese, on renting GPU servers in Hangzhou) size a job in three
// steps: memory first, then compute, then price and rental terms. Article 1 is
// about working out the compute a job needs; article 2 about choosing the card.
// For each worked example and claim, this program prints the claim, what the
// library computes for it, and a verdict: reproduced, or corrected with the
// reason and its source. In English (the default) it gives each claim in its
// own words; in Chinese (-lang zh, or a zh_* locale) it quotes the article's
// sentences with their lines. Both languages print the figures of one
// computation: every sentence is a key of internal/msg's tables with its
// arguments, written in a language only when the report is printed.
//
//	go run ./examples/seeds                    # inference at 4096 tokens, training at 2048
//	go run ./examples/seeds -context 2048 -seq 4096
//	go run ./examples/seeds -lang zh           # 中文报告
//
// The articles' models are the Llama-2 family, whose context window is 4096
// tokens: a longer -context is an error that names the window.
//
// Every figure is computed when the program runs, from the packages sizing,
// compute, catalog and pricing; nothing is typed in except the articles' own
// numbers and, for the pricing claims, the indicative price ranges of the
// project's reference notes, a sample tariff and the sample price list the
// other examples use (internal/sample),
// each marked in the report as indicative or sample prices, not quotes.
// -json prints the report in English whatever the language.
//
// Exit status: 0 when the report is printed (or with -h), 1 when a check cannot
// be computed, 2 for a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/sample"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

func main() {
	os.Exit(cli.Main("seeds", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// settings are the choices the articles leave open.
type settings struct {
	context  int     // inference context, tokens
	seq      int     // training sequence length, tokens (batch 1)
	headroom float64 // memory kept free on a card
	cat      *catalog.Catalog
}

// run is the command: it writes the report (or the -h text) to w.
func run(w io.Writer, args []string, lang msg.Lang) error {
	l := cli.LangOf(args, lang) // the words of the flags and the output
	fs := cli.FlagSet("seeds")
	ctx := fs.Int("context", 4096, l.T("seeds.flag.context"))
	seq := fs.Int("seq", 2048, l.T("seeds.flag.seq"))
	asJSON := fs.Bool("json", false, l.T("seeds.flag.json"))
	out := fs.String("o", "", l.T("seeds.flag.o"))
	cli.LangFlag(fs, &l)
	if _, err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cli.Usage(w, fs, l.T("seeds.usage"), l)
		}
		return err
	}
	if *ctx < 1 || *ctx > sizing.MaxSearchContext || *seq < 1 || *seq > sizing.MaxSearchContext {
		return cli.Usagef("-context %d, -seq %d: %s", *ctx, *seq, l.F("seeds.err.range", sizing.MaxSearchContext))
	}
	s := settings{context: *ctx, seq: *seq, headroom: plan.DefaultHeadroom, cat: catalog.Default()}
	return cli.To(w, *out, func(w io.Writer) error {
		secs, err := s.sections()
		switch {
		case err != nil && *asJSON:
			return cli.FailJSON(w, err, nil)
		case err != nil:
			return err
		case *asJSON:
			j := jsonReport{Context: s.context, Seq: s.seq, Headroom: s.headroom}
			for _, sec := range secs {
				j.Sections = append(j.Sections, sec.json())
			}
			return cli.WriteJSON(w, j)
		}
		s.header(w, l)
		for i, sec := range secs {
			sec.write(w, i+1, l)
		}
		return nil
	})
}

// jsonReport is what -json prints: the settings and every section.
type jsonReport struct {
	Context  int           `json:"context"`  // inference context, tokens
	Seq      int           `json:"seq"`      // training sequence length, tokens
	Headroom float64       `json:"headroom"` // share of each card's memory kept free
	Sections []jsonSection `json:"sections"`
}

// header heads the text report: the articles and the settings.
func (s settings) header(w io.Writer, l msg.Lang) {
	fmt.Fprintln(w, l.T("seeds.head"))
	fmt.Fprintln(w, strings.Repeat("=", text.Width(l.T("seeds.head"))))
	fmt.Fprintln(w, l.T("seeds.article1"))
	fmt.Fprintln(w, l.T("seeds.article2"))
	fmt.Fprintln(w, l.F("seeds.settings1", s.context, s.seq))
	fmt.Fprintln(w, l.F("seeds.settings2", s.headroom*100))
	fmt.Fprintln(w, l.T("seeds.units"))
	fmt.Fprintln(w, l.T("seeds.lines"))
	if l == msg.ZH {
		fmt.Fprintln(w, l.T("seeds.english"))
	}
}

// sections checks each claim, in the report's order.
func (s settings) sections() ([]section, error) {
	var secs []section
	for _, check := range []func(settings) (section, error){
		articleFormula, fullFineTune, trainingCards, computeExample, utilization, cardTable,
		inferenceMemory, t4Inference, servingAPI, halfPrecision, sevenTimes, batchMemory,
		batchConvergence, quantization, lora, rendering, power3090, links, allReduceCheck,
		bigCardsOrMany, headroom, delivered, prices, marketCheck, tierStability, rentalTerms,
	} {
		sec, err := check(s)
		if err != nil {
			return nil, err
		}
		secs = append(secs, sec)
	}
	return secs, nil
}

// section is one claim and what the library makes of it, in phrases that are
// written in a language when printed.
type section struct {
	title   phrase
	article phrase // "1", "2" or "1 and 2"
	claim   phrase // in English the claim in the report's words; in Chinese the article's own, with their lines
	library []phrase
	verdict phrase
}

// jsonSection is a section in -json, in English.
type jsonSection struct {
	Title   string   `json:"title"`
	Article string   `json:"article"` // "1", "2" or "1 and 2"
	Claim   string   `json:"claim"`
	Library []string `json:"library"` // what the library computes, line by line
	Verdict string   `json:"verdict"`
}

// newSection starts a section with its title, its article (say.T of
// "seeds.article.1", ".2" or ".both") and its claim.
func newSection(title, article, claim phrase) section {
	return section{title: title, article: article, claim: claim}
}

// F adds a line of what the library computes: the message key, formatted with
// args when printed.
func (s *section) F(key string, args ...any) { s.library = append(s.library, say.F(key, args...)) }

func (s section) json() jsonSection {
	j := jsonSection{Title: s.title.in(msg.EN), Article: s.article.in(msg.EN), Claim: s.claim.in(msg.EN),
		Verdict: s.verdict.in(msg.EN)}
	for _, line := range s.library {
		j.Library = append(j.Library, line.in(msg.EN))
	}
	return j
}

func (s section) write(w io.Writer, n int, l msg.Lang) {
	fmt.Fprintf(w, "\n%d. %s\n", n, s.title.in(l))
	fmt.Fprintln(w, wrap(l.F("seeds.claim", s.article.in(l), s.claim.in(l))))
	fmt.Fprintln(w, l.T("seeds.library"))
	for _, line := range s.library {
		fmt.Fprintf(w, "  %s\n", strings.TrimRight(line.in(l), " "))
	}
	fmt.Fprintln(w, wrap(l.F("seeds.verdict", s.verdict.in(l))))
}

// A phrase is a sentence or a few words of the report: a key of the message
// tables (internal/msg) and the arguments its format takes. It is written in a
// language only when the report is printed, so that the English report, the
// Chinese one and -json print the figures of one computation in two tables of
// words.
type phrase struct {
	key    string
	args   []any
	format bool // made by F or N: the message is a format; by T: printed as it is
}

// localized is an argument written in the words of the report's language: a
// phrase, an amount of money.
type localized interface{ in(msg.Lang) string }

// in writes p in l. An argument that is localized is written in l first; it and
// every string argument then pad to their verb's width by display columns, so
// that Chinese words line up in the tables.
func (p phrase) in(l msg.Lang) string {
	if !p.format {
		return l.T(p.key)
	}
	args := make([]any, len(p.args))
	for i, a := range p.args {
		switch a := a.(type) {
		case localized:
			args[i] = cell(a.in(l))
		case string:
			args[i] = cell(a)
		default:
			args[i] = a
		}
	}
	return l.F(p.key, args...)
}

// sayer makes phrases. Its methods are named as msg.Lang's, so that
// internal/msg's test finds the keys the report uses.
type sayer int

// say is the report's maker of phrases.
const say sayer = 0

// T is the message key, printed as it is (a literal % needs no doubling).
func (sayer) T(key string) phrase { return phrase{key: key} }

// F is the message key, formatted with args.
func (sayer) F(key string, args ...any) phrase { return phrase{key: key, args: args, format: true} }

// N is key+".one" for n = 1 and key+".many" otherwise, formatted with n.
func (sayer) N(n int, key string) phrase {
	if n == 1 {
		return say.F(key+".one", n)
	}
	return say.F(key+".many", n)
}

// cell is a string that pads to its verb's width by display columns
// (text.Width), where fmt counts runes: a Chinese character takes two columns.
type cell string

// Format writes c for %s and %v, padded to the width by text.PadLeft, or
// text.PadRight with the - flag.
func (c cell) Format(f fmt.State, verb rune) {
	s := string(c)
	if w, ok := f.Width(); ok {
		if f.Flag('-') {
			s = text.PadRight(s, w)
		} else {
			s = text.PadLeft(s, w)
		}
	}
	io.WriteString(f, s)
}

// list is phrases joined by the message sep: ", " in English, "，" in Chinese.
type list struct {
	sep   phrase
	parts []phrase
}

func (li list) in(l msg.Lang) string {
	parts := make([]string, len(li.parts))
	for i, p := range li.parts {
		parts[i] = p.in(l)
	}
	return strings.Join(parts, li.sep.in(l))
}

// money is an amount for a reader, rounded to the currency's minor unit:
// "CNY 18.98", "¥18.98" (msg.Lang.Money).
type money pricing.Money

func (m money) in(l msg.Lang) string { return l.Money(pricing.Money(m)) }

// unitPrice is a price as the price list gives it, exact: "CNY 1.475",
// "¥1.475" (msg.Lang.Price).
type unitPrice pricing.Money

func (m unitPrice) in(l msg.Lang) string { return l.Price(pricing.Money(m)) }

// Article 1's memory formula and its worked example.
func articleFormula(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.articleFormula"), say.T("seeds.article.1"), say.T("seeds.formula.claim"))
	a, err := sizing.ThumbArticle(7e9, sizing.FP16)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.formula.thumb", si(a.Weights), si(a.Gradients), si(a.Optimizer), siRange(a.Activations))
	sec.F("seeds.formula.worked", siRange(a.WorkedExample()))
	sec.F("seeds.formula.written", siRange(a.Formula()))

	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	w := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Optimizer: sizing.AdamW,
		Batch: 1, SeqLen: s.seq}
	b, err := sizing.Estimate(m, w)
	if err != nil {
		return sec, err
	}
	states := b.Weights + b.Gradients + b.Optimizer
	sec.F("seeds.formula.estimate", count(m.ParamCount()))
	sec.F("seeds.formula.batch", s.seq)
	sec.F("seeds.formula.states", si(b.Weights), si(b.Gradients), si(b.Optimizer))
	sec.F("seeds.formula.perparam", si(states), float64(states)/float64(m.ParamCount()))
	sec.F("seeds.formula.total", si(b.Activations), si(b.Overhead), si(b.Total()))
	w.Recompute = sizing.FullRecompute
	r, err := sizing.Estimate(m, w)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.formula.recompute", si(r.Activations), si(r.Total()))
	w.Recompute = sizing.NoRecompute
	w.GradPrecision = sizing.FP32
	h, err := sizing.Estimate(m, w)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.formula.fp32grads", si(h.Weights+h.Gradients+h.Optimizer))
	sec.verdict = say.F("seeds.formula.verdict", si(r.Activations), si(b.Activations), s.seq, states.GB())
	return sec, nil
}

// Article 2: a 7B full fine-tune is comfortable on 40 GB.
func fullFineTune(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.fullFineTune"), say.T("seeds.article.2"), say.T("seeds.fullft.claim"))
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	weights, err := sizing.WeightBytes(sizing.Model{Params: 7e9}, sizing.FP16)
	if err != nil {
		return sec, err
	}
	thumb, err := sizing.ThumbTraining(weights)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.fullft.thumb", si(weights), siRange(thumb))
	a40, err := s.cat.Lookup("a100-sxm4-40gb")
	if err != nil {
		return sec, err
	}
	a80, err := s.cat.Lookup("a100-sxm4-80gb")
	if err != nil {
		return sec, err
	}
	sec.F("seeds.fullft.setup1", s.seq)
	sec.F("seeds.fullft.setup2", s.headroom*100)
	sec.F("seeds.fullft.row", say.T("seeds.col.layout"), say.T("seeds.col.pergpu"), say.T("seeds.col.host"),
		gbWhole(a40.MemoryNominal), gbWhole(a80.MemoryNominal))
	base := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Optimizer: sizing.AdamW,
		Batch: 1, SeqLen: s.seq, Recompute: sizing.FullRecompute}
	row := func(name phrase, w sizing.Workload) error {
		b, err := sizing.Estimate(m, w)
		if err != nil {
			return err
		}
		host := "-"
		if b.Host > 0 {
			host = si(b.Host)
		}
		sec.F("seeds.fullft.row", name, si(b.Total()), host,
			yesNo(fits(b.Total(), a40, s.headroom)), yesNo(fits(b.Total(), a80, s.headroom)))
		return nil
	}
	w := base
	if err := row(say.T("seeds.fullft.adamw"), w); err != nil {
		return sec, err
	}
	w.Optimizer = sizing.Adam8bit
	if err := row(say.T("seeds.fullft.adam8"), w); err != nil {
		return sec, err
	}
	w = base
	w.Parallel = sizing.Parallel{ZeRO: 3, OffloadOptimizer: true}
	if err := row(say.T("seeds.fullft.offload"), w); err != nil {
		return sec, err
	}
	for _, card := range []catalog.Card{a40, a80} {
		n, err := smallestZeRO3(m, base, card, s.headroom)
		if err != nil {
			return sec, err
		}
		w = base
		w.Parallel = sizing.Parallel{Data: n, ZeRO: 3}
		if err := row(say.F("seeds.fullft.zero3", n, card.Name[len(card.Name)-4:]), w); err != nil {
			return sec, err
		}
	}
	w = base
	w.Task = sizing.LoRA
	w.Optimizer = sizing.Adam8bit
	if err := row(say.F("seeds.fullft.lora", sizing.DefaultLoRARank), w); err != nil {
		return sec, err
	}
	sec.verdict = say.T("seeds.fullft.verdict")
	return sec, nil
}

// smallestZeRO3 returns the fewest GPUs of card over which ZeRO-3 fits w.
func smallestZeRO3(m sizing.Model, w sizing.Workload, card catalog.Card, headroom float64) (int, error) {
	for n := 2; n <= 64; n++ {
		w.Parallel = sizing.Parallel{Data: n, ZeRO: 3}
		b, err := sizing.Estimate(m, w)
		if err != nil {
			return 0, err
		}
		if fits(b.Total(), card, headroom) {
			return n, nil
		}
	}
	return 0, fmt.Errorf("ZeRO-3 does not fit %s on 64 GPUs", card.Name)
}

// Article 1's compute example.
func computeExample(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.computeExample"), say.T("seeds.article.1"), say.T("seeds.compute.claim"))
	day := 24 * time.Hour
	work, err := compute.SampleFLOPs(1e8, 1e9*compute.FLOP)
	if err != nil {
		return sec, err
	}
	rate, err := compute.RateFor(work, day)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.compute.rate", work, rate)
	tenfold := 10 * work
	rate18, err := compute.RateFor(tenfold, day)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.compute.article", tenfold, rate18)
	for _, band := range []struct {
		name phrase
		u    float64
	}{
		{say.F("seeds.compute.atarticle", 100*compute.SeedUtilization().Mid()), compute.SeedUtilization().Mid()},
		{say.F("seeds.compute.atpublished", 100*compute.DefaultUtilization), compute.DefaultUtilization},
	} {
		peak, err := compute.PeakFor(tenfold, day, band.u)
		if err != nil {
			return sec, err
		}
		sec.F("seeds.compute.peak", tenfold, band.name, peak)
	}
	for _, id := range []string{"v100-sxm2-32gb", "a100-sxm4-80gb"} {
		c, err := s.cat.Lookup(id)
		if err != nil {
			return sec, err
		}
		fp32, _ := c.Peak(sizing.FP32)
		fp16, _ := c.Peak(sizing.FP16)
		sec.F("seeds.compute.card", c.Name, fp32, fp16)
	}
	sec.verdict = say.T("seeds.compute.verdict")
	return sec, nil
}

// Utilization.
func utilization(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.utilization"), say.T("seeds.article.1"), say.T("seeds.util.claim"))
	seed, pub := compute.SeedUtilization(), compute.PublishedMFU()
	sec.F("seeds.util.bands", seed.Low*100, seed.High*100, pub.Low*100, pub.High*100, compute.DefaultUtilization*100)
	c, err := s.cat.Lookup("a100-sxm4-80gb")
	if err != nil {
		return sec, err
	}
	peak, _ := c.Peak(sizing.BF16)
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	work, err := compute.TrainingFLOPs(m, 1e9, s.seq)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.util.job", s.seq, work, c.Name, peak)
	for _, b := range []struct {
		name phrase
		band compute.Band
	}{{say.T("seeds.util.article"), seed}, {say.T("seeds.util.published"), pub}} {
		span, err := compute.TimeBand(work, peak, b.band)
		if err != nil {
			return sec, err
		}
		sec.F("seeds.util.row", b.name, hours(span.Low), hours(span.High))
	}
	sec.verdict = say.T("seeds.util.verdict")
	return sec, nil
}

// Article 1's card table.
func cardTable(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.cardTable"), say.T("seeds.article.1"), say.T("seeds.cards.claim"))
	sec.F("seeds.cards.source")
	sec.F("seeds.cards.head", say.T("seeds.col.card"), say.T("seeds.col.article"), "FP32", "FP64", say.T("seeds.col.smi"))
	rows := []struct {
		id      string
		article int // the article's single-precision TFLOPS
	}{
		{"a100-sxm4-40gb", 5}, {"a100-sxm4-80gb", 5},
		{"v100-pcie-32gb", 7}, {"v100-sxm2-32gb", 7},
		{"rtx-4090", 82}, {"t4", 1},
	}
	for _, r := range rows {
		c, err := s.cat.Lookup(r.id)
		if err != nil {
			return sec, err
		}
		fp32, _ := c.Peak(sizing.FP32)
		fp64, _ := c.Peak(sizing.FP64)
		sec.F("seeds.cards.row", c.Name, r.article, fp32, fp64, c.Memory/sizing.MiB)
	}
	sec.verdict = say.T("seeds.cards.verdict")
	return sec, nil
}

// Article 2's inference memory for 7B, 13B and 70B.
func inferenceMemory(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.inferenceMemory"), say.T("seeds.article.2"), say.T("seeds.infer.claim"))
	r4090, err := s.cat.Lookup("rtx-4090")
	if err != nil {
		return sec, err
	}
	a40, err := s.cat.Lookup("a100-sxm4-40gb")
	if err != nil {
		return sec, err
	}
	a80, err := s.cat.Lookup("a100-sxm4-80gb")
	if err != nil {
		return sec, err
	}
	sec.F("seeds.infer.source1")
	sec.F("seeds.infer.source2", s.context, s.headroom*100)
	sec.F("seeds.infer.row", say.T("seeds.col.model"), say.T("seeds.col.article"), say.T("seeds.col.params"),
		say.T("seeds.col.weights"), say.T("seeds.col.rule"), say.T("seeds.col.estimate"),
		gbWhole(r4090.MemoryNominal), gbWhole(a40.MemoryNominal), gbWhole(a80.MemoryNominal))
	weights := map[string]sizing.Bytes{}
	params := map[string]string{}
	fit24 := map[string]bool{}
	for _, r := range []struct {
		preset, article string
	}{{"llama-2-7b", "14 GB"}, {"qwen2-7b", "14 GB"}, {"llama-3-8b", "14 GB"}, {"llama-2-13b", "26 GB"}, {"llama-2-70b", "140 GB"}} {
		m, err := sizing.Preset(r.preset)
		if err != nil {
			return sec, err
		}
		wb, err := sizing.WeightBytes(m, sizing.FP16)
		if err != nil {
			return sec, err
		}
		thumb, err := sizing.ThumbInference(wb)
		if err != nil {
			return sec, err
		}
		b, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.FP16, Batch: 1, SeqLen: s.context})
		if err != nil {
			return sec, err
		}
		weights[r.preset], params[r.preset], fit24[r.preset] = wb, count(m.ParamCount()), fits(b.Total(), r4090, s.headroom)
		sec.F("seeds.infer.row", r.preset, r.article, count(m.ParamCount()), si(wb),
			siRangeShort(thumb), si(b.Total()),
			yesNo(fits(b.Total(), r4090, s.headroom)), yesNo(fits(b.Total(), a40, s.headroom)), yesNo(fits(b.Total(), a80, s.headroom)))
	}
	m70, err := sizing.Preset("llama-2-70b")
	if err != nil {
		return sec, err
	}
	var fit70 []bool // tensor parallel over 2, over 4, Q4_K_M on one
	for _, p := range []struct {
		name phrase
		prec sizing.Precision
		tp   int
	}{
		{say.F("seeds.infer.tp", sizing.FP16, 2), sizing.FP16, 2},
		{say.F("seeds.infer.tp", sizing.FP16, 4), sizing.FP16, 4},
		{say.F("seeds.infer.one", sizing.Q4_K_M), sizing.Q4_K_M, 1},
	} {
		b, err := sizing.Estimate(m70, sizing.Workload{Task: sizing.Inference, Precision: p.prec, Batch: 1, SeqLen: s.context,
			Parallel: sizing.Parallel{Tensor: p.tp}})
		if err != nil {
			return sec, err
		}
		ok := fits(b.Total(), a80, s.headroom)
		fit70 = append(fit70, ok)
		sec.F("seeds.infer.row70", p.name, si(b.Total()), fitsWord(ok), s.headroom*100, percent(b.Total(), a80.Memory), a80.Name)
	}
	sevens := say.T("seeds.infer.all3")
	switch n := btoi(fit24["llama-2-7b"]) + btoi(fit24["qwen2-7b"]) + btoi(fit24["llama-3-8b"]); n {
	case 0:
		sevens = say.T("seeds.infer.none3")
	case 1, 2:
		sevens = say.T("seeds.infer.some3")
	}
	two := say.T("seeds.infer.two.fit")
	if !fit70[0] {
		two = say.T("seeds.infer.two.nofit")
	}
	sec.verdict = say.F("seeds.infer.verdict",
		si(weights["llama-2-7b"]), si(weights["llama-2-13b"]), si(weights["llama-2-70b"]),
		params["qwen2-7b"], si(weights["qwen2-7b"]), params["llama-3-8b"], si(weights["llama-3-8b"]),
		sevens, s.headroom*100, r4090.Memory/sizing.MiB, two,
		yesNoWord(fit70[1], say.T("seeds.do"), say.T("seeds.donot")),
		yesNoWord(fit70[2], say.T("seeds.does"), say.T("seeds.doesnot")))
	return sec, nil
}

// FP16 halves memory.
func halfPrecision(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.halfPrecision"), say.T("seeds.article.1"), say.T("seeds.half.claim"))
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	w32, err := sizing.WeightBytes(m, sizing.FP32)
	if err != nil {
		return sec, err
	}
	w16, err := sizing.WeightBytes(m, sizing.FP16)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.half.weights", si(w32), si(w16), float64(w16)/float64(w32))
	for _, r := range []struct {
		name phrase
		prec sizing.Precision
	}{{say.T("seeds.half.fp32"), sizing.FP32}, {say.T("seeds.half.mixed"), sizing.FP16}} {
		b, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Training, Precision: r.prec, Optimizer: sizing.AdamW,
			Batch: 1, SeqLen: s.seq, Recompute: sizing.FullRecompute})
		if err != nil {
			return sec, err
		}
		sec.F("seeds.half.row", r.name, si(b.Weights), si(b.Gradients), si(b.Optimizer), si(b.Total()))
	}
	sec.verdict = say.T("seeds.half.verdict")
	return sec, nil
}

// 7B needs seven times the memory of 1B.
func sevenTimes(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.sevenTimes"), say.T("seeds.article.1"), say.T("seeds.seven.claim"))
	one, seven := sizing.Model{Params: 1e9}, sizing.Model{Params: 7e9}
	var wts [2]sizing.Bytes
	var inf [2]sizing.Breakdown
	for i, m := range []sizing.Model{one, seven} {
		var err error
		if wts[i], err = sizing.WeightBytes(m, sizing.BF16); err != nil {
			return sec, err
		}
		if inf[i], err = sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: s.context}); err != nil {
			return sec, err
		}
	}
	sec.F("seeds.seven.weights", si(wts[0]), si(wts[1]), float64(wts[1])/float64(wts[0]))
	sec.F("seeds.seven.infer", s.context, terms(inf[1].Approx), si(inf[0].Total()), si(inf[1].Total()),
		float64(inf[1].Total())/float64(inf[0].Total()))
	sec.verdict = say.T("seeds.seven.verdict")
	return sec, nil
}

// 4-bit quantization.
func quantization(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.quantization"), say.T("seeds.article.2"), say.T("seeds.quant.claim"))
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	base, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.FP16, Batch: 1, SeqLen: s.context})
	if err != nil {
		return sec, err
	}
	sec.F("seeds.quant.setup", s.context)
	sec.F("seeds.quant.head", say.T("seeds.col.weightfmt"), say.T("seeds.col.bits"), say.T("seeds.col.weights"),
		say.T("seeds.col.total"), say.T("seeds.col.lessweights"), say.T("seeds.col.lesstotal"))
	for _, p := range []sizing.Precision{sizing.FP16, sizing.Q8_0, sizing.Q4_K_M, sizing.GPTQ4, sizing.Q4_0} {
		wb, err := sizing.WeightBytes(m, p)
		if err != nil {
			return sec, err
		}
		b, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: p, Batch: 1, SeqLen: s.context})
		if err != nil {
			return sec, err
		}
		sec.F("seeds.quant.row", p, p.Bits(), si(wb), si(b.Total()),
			100*(1-float64(wb)/float64(base.Weights)), 100*(1-float64(b.Total())/float64(base.Total())))
	}
	sec.verdict = say.T("seeds.quant.verdict")
	return sec, nil
}

// LoRA and QLoRA.
func lora(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.lora"), say.T("seeds.article.2"), say.T("seeds.lora.claim"))
	card, err := s.cat.Lookup("rtx-4090")
	if err != nil {
		return sec, err
	}
	train := func(t sizing.Task) sizing.Workload {
		return sizing.Workload{Task: t, Precision: sizing.BF16, Batch: 1, SeqLen: s.seq,
			Recompute: sizing.FullRecompute}
	}
	infer := func(p sizing.Precision, n int) sizing.Workload {
		return sizing.Workload{Task: sizing.Inference, Precision: p, Batch: 1, SeqLen: n}
	}
	sec.F("seeds.lora.setup1", s.seq)
	sec.F("seeds.lora.setup2", card.Name, card.Memory/sizing.MiB, s.headroom*100)
	sec.F("seeds.lora.head", say.T("seeds.col.model"), say.T("seeds.col.job"), say.T("seeds.col.weights"),
		say.T("seeds.col.gradsoptim"), say.T("seeds.col.total"))
	fit := map[string]bool{}
	loraName := say.F("seeds.lora.lora", sizing.DefaultLoRARank)
	for _, r := range []struct {
		preset string
		name   phrase
		w      sizing.Workload
	}{
		{"llama-2-7b", say.F("seeds.lora.infer", sizing.BF16, s.seq), infer(sizing.BF16, s.seq)},
		{"llama-2-7b", loraName, train(sizing.LoRA)},
		{"llama-2-7b", say.T("seeds.lora.qlora"), train(sizing.QLoRA)},
		{"llama-2-7b", say.T("seeds.lora.full"), train(sizing.Training)},
		{"llama-2-13b", loraName, train(sizing.LoRA)},
		{"llama-2-13b", say.T("seeds.lora.qlora"), train(sizing.QLoRA)},
		{"llama-2-13b", say.F("seeds.lora.infer", sizing.FP16, s.context), infer(sizing.FP16, s.context)},
		{"llama-2-13b", say.F("seeds.lora.infer", sizing.Q4_K_M, s.context), infer(sizing.Q4_K_M, s.context)},
	} {
		m, err := sizing.Preset(r.preset)
		if err != nil {
			return sec, err
		}
		b, err := sizing.Estimate(m, r.w)
		if err != nil {
			return sec, err
		}
		ok := fits(b.Total(), card, s.headroom)
		fit[r.preset+" "+r.w.Task.String()+" "+r.w.Precision.String()] = ok
		sec.F("seeds.lora.row", r.preset, r.name, si(b.Weights), si(b.Gradients+b.Optimizer), si(b.Total()), fitsWord(ok))
	}
	does := func(preset string, t sizing.Task, p sizing.Precision) phrase {
		return fitsWord(fit[preset+" "+t.String()+" "+p.String()])
	}
	m13, err := sizing.Preset("llama-2-13b")
	if err != nil {
		return sec, err
	}
	w13, err := sizing.WeightBytes(m13, sizing.BF16)
	if err != nil {
		return sec, err
	}
	seven := say.F("seeds.lora.seven", does("llama-2-7b", sizing.LoRA, sizing.BF16), does("llama-2-7b", sizing.QLoRA, sizing.BF16))
	if fit["llama-2-7b "+sizing.LoRA.String()+" "+sizing.BF16.String()] && fit["llama-2-7b "+sizing.QLoRA.String()+" "+sizing.BF16.String()] {
		seven = say.T("seeds.lora.sevenboth")
	}
	q4 := say.T("seeds.lora.q4fits")
	if !fit["llama-2-13b "+sizing.Inference.String()+" "+sizing.Q4_K_M.String()] {
		q4 = say.T("seeds.lora.q4nofit")
	}
	sec.verdict = say.F("seeds.lora.verdict", seven, does("llama-2-13b", sizing.LoRA, sizing.BF16), si(w13), si(card.Memory),
		does("llama-2-13b", sizing.QLoRA, sizing.BF16), does("llama-2-13b", sizing.Inference, sizing.FP16), q4)
	return sec, nil
}

// Rendering.
func rendering(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.rendering"), say.T("seeds.article.both"), say.T("seeds.render.claim"))
	card, err := s.cat.Lookup("rtx-4090")
	if err != nil {
		return sec, err
	}
	for _, r := range []struct {
		name phrase
		job  sizing.RenderJob
	}{
		{say.F("seeds.render.size", "Cycles", 3840, 2160), sizing.RenderJob{Kind: sizing.Cycles}},
		{say.F("seeds.render.size", "Cycles", 7680, 4320), sizing.RenderJob{Kind: sizing.Cycles, Width: 7680, Height: 4320}},
		{say.T("seeds.render.complex"), sizing.RenderJob{Kind: sizing.Cycles, Complex: true}},
		{say.F("seeds.render.size", "SDXL", 1024, 1024), sizing.RenderJob{Kind: sizing.SDXL}},
	} {
		e, err := sizing.RenderMemory(r.job)
		if err != nil {
			return sec, err
		}
		var band, word localized = verbatim(siRangeShort(e.Range)), fitsWord(e.Range.High <= card.Memory)
		if e.AtLeast {
			band = say.F("seeds.render.atleast", si(e.Range.Low))
			word = yesNoWord(e.Range.Low <= card.Memory, say.T("seeds.render.floor"), say.T("seeds.nofit"))
		}
		sec.F("seeds.render.row", say.F("seeds.render.arg", r.name), band, card.Name, word)
	}
	sec.F("seeds.render.approx")
	sec.verdict = say.T("seeds.render.verdict")
	return sec, nil
}

// Links between cards.
func links(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.links"), say.T("seeds.article.both"), say.T("seeds.links.claim"))
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	work, err := compute.TrainingFLOPs(m, 1e9, s.seq)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.links.setup1", s.seq)
	sec.F("seeds.links.setup2", compute.DefaultUtilization*100)
	sec.F("seeds.links.head", say.T("seeds.col.card"), say.T("seeds.col.link"), say.T("seeds.col.perdir"),
		say.T("seeds.col.bf16peak"), say.T("seeds.col.efficiency"), say.T("seeds.col.duration"))
	eff := map[string]float64{}
	for _, id := range []string{"rtx-4090", "a100-sxm4-80gb", "h800-sxm5-80gb", "h100-sxm5-80gb"} {
		c, err := s.cat.Lookup(id)
		if err != nil {
			return sec, err
		}
		link, name, err := cardLink(c, 8)
		if err != nil {
			return sec, err
		}
		peak, _ := c.Peak(sizing.BF16)
		t, err := compute.Job{Model: m, Work: work, Batch: 4, SeqLen: s.seq, Devices: 8,
			PeakPerDevice: peak, Link: link, Utilization: compute.Point(compute.DefaultUtilization)}.Time()
		if err != nil {
			return sec, err
		}
		sec.F("seeds.links.row", c.Name, name, link.Bandwidth, peak, 100*t.Efficiency, hours(t.Duration))
		eff[id] = t.Efficiency
	}
	sec.F("seeds.links.note")
	sec.verdict = say.F("seeds.links.verdict", 100*(1-eff["rtx-4090"]), 100*(1-eff["a100-sxm4-80gb"]))
	return sec, nil
}

// cardLink returns the link n cards of c share in one server (catalog's PeerLink),
// named for the report.
func cardLink(c catalog.Card, n int) (compute.Link, phrase, error) {
	l, kind, err := c.PeerLink(n)
	if kind != catalog.LinkNone {
		return l, say.F("seeds.link.nvlink", c.NVLink), err
	}
	return l, say.F("seeds.link.pcie", c.PCIeGen), err
}

// Two big cards against four small ones.
func bigCardsOrMany(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.bigCardsOrMany"), say.T("seeds.article.2"), say.T("seeds.bigcards.claim"))
	m, err := sizing.Preset("llama-2-13b")
	if err != nil {
		return sec, err
	}
	a80, err := s.cat.Lookup("a100-sxm4-80gb")
	if err != nil {
		return sec, err
	}
	r4090, err := s.cat.Lookup("rtx-4090")
	if err != nil {
		return sec, err
	}
	work, err := compute.TrainingFLOPs(m, 1e8, s.seq)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.bigcards.setup", s.seq)
	var took []time.Duration // the two multi-GPU set-ups, in order
	lw := sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 1, SeqLen: s.seq,
		Recompute: sizing.FullRecompute}
	for _, r := range []struct {
		card     catalog.Card
		devices  int
		parallel sizing.Parallel
		tensor   int
		name     phrase
	}{
		{r4090, 1, sizing.Parallel{}, 1, say.F("seeds.bigcards.one", 1, "RTX 4090")},
		{a80, 2, sizing.Parallel{Data: 2}, 1, say.F("seeds.bigcards.dp", 2, "A100 80GB")},
		{r4090, 4, sizing.Parallel{Tensor: 4, SequenceParallel: true}, 4, say.F("seeds.bigcards.tp", 4, "RTX 4090", 4)},
	} {
		w := lw
		w.Parallel = r.parallel
		b, err := sizing.Estimate(m, w)
		if err != nil {
			return sec, err
		}
		if r.devices == 1 {
			sec.F("seeds.bigcards.row1", r.name, si(b.Total()), fitsWord(fits(b.Total(), r.card, s.headroom)))
			continue
		}
		link, _, err := cardLink(r.card, r.devices)
		if err != nil {
			return sec, err
		}
		peak, _ := r.card.Peak(sizing.BF16)
		t, err := compute.Job{Model: m, Work: work, Batch: 1, SeqLen: s.seq, Devices: r.devices, Tensor: r.tensor,
			Recompute: sizing.FullRecompute, PeakPerDevice: peak, Link: link,
			Utilization: compute.Point(compute.DefaultUtilization)}.Time()
		if err != nil {
			return sec, err
		}
		sec.F("seeds.bigcards.row", r.name, si(b.Total()), fitsWord(fits(b.Total(), r.card, s.headroom)),
			hours(t.Duration), 100*t.Efficiency)
		took = append(took, t.Duration)
	}
	sec.F("seeds.bigcards.note1")
	sec.F("seeds.bigcards.note2")
	sec.verdict = say.T("seeds.bigcards.verdict")
	if took[0] >= took[1] {
		sec.verdict = say.T("seeds.bigcards.notreproduced")
	}
	return sec, nil
}

// Headroom.
func headroom(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.headroom"), say.T("seeds.article.both"), say.T("seeds.headroom.claim"))
	m, err := sizing.Preset("llama-3.1-8b")
	if err != nil {
		return sec, err
	}
	card, err := s.cat.Lookup("rtx-4090")
	if err != nil {
		return sec, err
	}
	sec.F("seeds.headroom.default", plan.DefaultHeadroom*100)
	sec.F("seeds.headroom.setup", card.Name, card.Memory/sizing.MiB)
	for _, h := range []float64{0, 0.2, 0.3} {
		capacity := usable(card, h)
		n, err := sizing.MaxContext(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 1}, capacity)
		if err != nil {
			return sec, err
		}
		sec.F("seeds.headroom.row", h*100, si(capacity), n)
	}
	sec.verdict = say.T("seeds.headroom.verdict")
	return sec, nil
}

// 80 GB sold, 40 GB delivered.
func delivered(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.delivered"), say.T("seeds.article.2"), say.T("seeds.delivered.claim"))
	devs := []catalog.Device{
		{Index: 0, Name: "NVIDIA A100-SXM4-40GB", Memory: 40960 * sizing.MiB},
		{Index: 1, Name: "NVIDIA A100-SXM4-40GB", Memory: 40960 * sizing.MiB},
	}
	r, err := s.cat.Verify("A100-80GB", len(devs), devs, nil)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.delivered.call", "A100-80GB", len(devs), "A100-SXM4-40GB", devs[0].Memory/sizing.MiB)
	for _, p := range r.Problems {
		sec.F("seeds.delivered.problem", p)
	}
	for _, n := range r.Notes {
		sec.F("seeds.delivered.note", n)
	}
	sec.F("seeds.delivered.verify")
	sec.verdict = say.T("seeds.delivered.verdict")
	return sec, nil
}

// Rental terms.
func rentalTerms(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.rentalTerms"), say.T("seeds.article.both"), say.T("seeds.terms.claim"))
	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(18), Daily: decimal.NewFromInt(300),
		Monthly: decimal.NewFromInt(9000)}
	cny := func(d decimal.Decimal) unitPrice { return unitPrice{Amount: d, Currency: t.Currency} }
	sec.F("seeds.terms.tariff", cny(t.Hourly), cny(t.Daily), cny(t.Monthly), pricing.DefaultHoursPerMonth)
	be, err := t.BreakEven()
	if err != nil {
		return sec, err
	}
	bd, err := t.BreakEvenFor(pricing.Daily)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.terms.breakeven", hours(be), hours(bd))
	hourlyOnly := pricing.Tariff{Currency: t.Currency, Hourly: t.Hourly}
	sec.F("seeds.terms.head", say.T("seeds.col.usage"), say.T("seeds.col.hourlyonly"), say.T("seeds.col.cheapest"))
	for _, h := range []int{100, 400, 600, 730} {
		d := time.Duration(h) * time.Hour
		ho, err := hourlyOnly.Cost(d)
		if err != nil {
			return sec, err
		}
		best, err := t.Cost(d)
		if err != nil {
			return sec, err
		}
		sec.F("seeds.terms.row", say.F("seeds.terms.continuous", h), money(ho.Total), money(best.Total), items(best))
	}
	trialFor, rest := 48*time.Hour, 682*time.Hour
	trial, err := t.Price(pricing.TrialThen(trialFor, rest), 1)
	if err != nil {
		return sec, err
	}
	month := trialFor + rest
	direct, err := t.Cost(month)
	if err != nil {
		return sec, err
	}
	extra, err := trial.Total.Sub(direct.Total)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.terms.row", say.F("seeds.terms.trial", trialFor.Hours(), rest.Hours()), "", money(trial.Total), items(trial))
	sec.F("seeds.terms.extra", money(extra))
	sec.verdict = say.F("seeds.terms.verdict", be.Hours(), 100*float64(be)/float64(month))
	return sec, nil
}

// Article 1's training advice: which card for 1–7B and for 10B+.
func trainingCards(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.trainingCards"), say.T("seeds.article.1"), say.T("seeds.train.claim"))
	cards, err := lookup(s.cat, "v100-sxm2-32gb", "rtx-4090", "a100-sxm4-80gb")
	if err != nil {
		return sec, err
	}
	base := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Optimizer: sizing.AdamW,
		Batch: 1, SeqLen: s.seq, Recompute: sizing.FullRecompute}
	sec.F("seeds.train.setup1")
	sec.F("seeds.train.setup2", s.seq)
	sec.F("seeds.train.setup3", s.headroom*100)
	sec.F("seeds.train.row", say.T("seeds.col.params"), "AdamW", say.T("seeds.train.adam8"), cards[0].Name, cards[1].Name, cards[2].Name)
	var approx sizing.Terms
	fitsOn := make([][]phrase, len(cards)) // per card, the sizes whose AdamW training fits
	var need7 sizing.Bytes
	for _, p := range []int64{1e9, 3e9, 7e9, 10e9} {
		m := sizing.Model{Params: p}
		b, err := sizing.Estimate(m, base)
		if err != nil {
			return sec, err
		}
		approx = b.Approx
		if p == 7e9 {
			need7 = b.Total()
		}
		w8 := base
		w8.Optimizer = sizing.Adam8bit
		b8, err := sizing.Estimate(m, w8)
		if err != nil {
			return sec, err
		}
		name := say.F("seeds.billions", p/1e9)
		words := make([]phrase, len(cards))
		for i, c := range cards {
			switch {
			case fits(b.Total(), c, s.headroom):
				words[i] = yesNo(true)
				fitsOn[i] = append(fitsOn[i], name)
			case fits(b8.Total(), c, s.headroom):
				words[i] = say.T("seeds.train.adam8")
			default:
				words[i] = yesNo(false)
			}
		}
		sec.F("seeds.train.row", name, si(b.Total()), si(b8.Total()), words[0], words[1], words[2])
	}
	sec.F("seeds.train.legend", terms(approx))
	m10 := sizing.Model{Params: 10e9}
	n, err := smallestZeRO3(m10, base, cards[2], s.headroom)
	if err != nil {
		return sec, err
	}
	off := base
	off.Parallel = sizing.Parallel{ZeRO: 3, OffloadOptimizer: true}
	bo, err := sizing.Estimate(m10, off)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.train.ten1", cards[2].Name, n)
	sec.F("seeds.train.ten2", si(bo.Total()), si(bo.Host))
	seven := sizing.Model{Params: 7e9}
	lw := sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 1, SeqLen: s.seq,
		Recompute: sizing.FullRecompute}
	bl, err := sizing.Estimate(seven, lw)
	if err != nil {
		return sec, err
	}
	lw.Task = sizing.QLoRA
	bq, err := sizing.Estimate(seven, lw)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.train.lora", si(bl.Total()),
		cards[0].Name, fitsWord(fits(bl.Total(), cards[0], s.headroom)),
		cards[1].Name, fitsWord(fits(bl.Total(), cards[1], s.headroom)), si(bq.Total()))
	for _, c := range cards {
		bf, okBF := c.Peak(sizing.BF16)
		fp, _ := c.Peak(sizing.FP16)
		if okBF {
			sec.F("seeds.train.bf16", c.Name, bf)
		} else {
			sec.F("seeds.train.nobf16", c.Name, fp)
		}
	}
	only := func(sizes []phrase) phrase {
		if len(sizes) == 0 {
			return say.T("seeds.train.none")
		}
		return say.F("seeds.train.only", list{say.T("seeds.and"), sizes})
	}
	sec.verdict = say.F("seeds.train.verdict", only(fitsOn[0]), only(fitsOn[1]), si(need7))
	return sec, nil
}

// Article 1: a T4 for batched inference at 4K.
func t4Inference(s settings) (section, error) {
	const ctx = 4096 // the claim's "4K", read as tokens of context
	sec := newSection(say.T("seeds.title.t4Inference"), say.T("seeds.article.1"), say.T("seeds.t4.claim"))
	cards, err := lookup(s.cat, "t4", "rtx-4090")
	if err != nil {
		return sec, err
	}
	t4, r4090 := cards[0], cards[1]
	capT4 := usable(t4, s.headroom)
	sec.F("seeds.t4.read", ctx, t4.Name, t4.Memory/sizing.MiB, si(t4.Memory), si(capT4), s.headroom*100)
	// The T4 (Turing) computes in FP16, not BF16 or FP8: the widest format first,
	// then the quantized ones in FitPrecision's default order.
	cands := []sizing.Precision{sizing.FP16, sizing.INT8, sizing.Q8_0, sizing.Q6_K, sizing.Q5_K_M,
		sizing.Q4_K_M, sizing.AWQ4, sizing.Q4_0, sizing.Q3_K_M, sizing.Q2_K}
	sec.F("seeds.t4.fit", cands[0], cands[1], cands[2], cands[len(cands)-1])
	sec.F("seeds.t4.head", say.T("seeds.col.model"), say.T("seeds.col.params"), say.T("seeds.col.fp16need"),
		say.T("seeds.col.widest"), say.T("seeds.col.itsneed"), say.T("seeds.col.maxbatch"))
	fp16Need := map[string]sizing.Bytes{}
	fitT4 := map[string]sizing.Precision{}
	batchT4 := map[string]int{}
	for _, preset := range []string{"llama-2-7b", "llama-3-8b", "llama-2-13b"} {
		m, err := sizing.Preset(preset)
		if err != nil {
			return sec, err
		}
		w := sizing.Workload{Task: sizing.Inference, Precision: sizing.FP16, Batch: 1, SeqLen: ctx,
			KVPrecision: sizing.FP16}
		full, err := sizing.Estimate(m, w)
		if err != nil {
			return sec, err
		}
		fp16Need[preset] = full.Total()
		p, b, err := sizing.FitPrecision(m, w, capT4, cands...)
		if err != nil {
			return sec, err
		}
		fitT4[preset] = p
		w.Precision = p
		nb, err := sizing.MaxBatch(m, w, capT4)
		if err != nil {
			return sec, err
		}
		batchT4[preset] = nb
		sec.F("seeds.t4.row", preset, count(m.ParamCount()), si(full.Total()), p, si(b.Total()), nb)
	}
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	sec.F("seeds.t4.decode", ctx)
	sec.F("seeds.t4.dhead", say.T("seeds.col.card"), say.T("seeds.col.weights"), say.T("seeds.col.bandwidth"),
		say.T("seeds.col.fp16peak"), "TDP", say.T("seeds.col.tokens"))
	speed := map[string]float64{}
	for _, r := range []struct {
		card catalog.Card
		prec sizing.Precision
	}{{t4, fitT4["llama-2-7b"]}, {t4, sizing.Q4_K_M}, {r4090, sizing.Q4_K_M}, {r4090, sizing.FP16}} {
		peak, _ := r.card.Peak(sizing.FP16)
		sp, err := compute.Decode{Model: m, Weights: r.prec, Context: ctx, Bandwidth: r.card.MemoryBandwidth, Peak: peak}.Speed()
		if err != nil {
			return sec, err
		}
		speed[r.card.ID+" "+r.prec.String()] = float64(sp.PerSequence)
		sec.F("seeds.t4.drow", r.card.Name, r.prec, r.card.MemoryBandwidth, peak, r.card.TDP, float64(sp.PerSequence))
	}
	t4fp16, _ := t4.Peak(sizing.FP16)
	r4090fp16, _ := r4090.Peak(sizing.FP16)
	q4 := sizing.Q4_K_M.String()
	sec.verdict = say.F("seeds.t4.verdict",
		si(fp16Need["llama-2-7b"]), t4.Memory/sizing.MiB, fitT4["llama-2-7b"], fitT4["llama-3-8b"], fitT4["llama-2-13b"],
		batchT4["llama-2-7b"], batchT4["llama-3-8b"],
		tflops(t4fp16), tflops(r4090fp16), t4.MemoryBandwidth, r4090.MemoryBandwidth, q4,
		speed["t4 "+q4], speed["rtx-4090 "+q4], t4.TDP)
	return sec, nil
}

// The serving claims: a 7B–13B model behind an API on an A100 40GB or an RTX 4090
// "depending on the concurrency", and the H800 for high-concurrency inference.
func servingAPI(s settings) (section, error) {
	const (
		prompt, output = 1000, 300 // a chat request: tokens in, tokens out (an assumption)
		target         = 50 * time.Millisecond
	)
	sec := newSection(say.T("seeds.title.servingAPI"), say.T("seeds.article.2"), say.T("seeds.serve.claim"))
	cards, err := lookup(s.cat, "rtx-4090", "a100-sxm4-40gb", "h800-sxm5-80gb")
	if err != nil {
		return sec, err
	}
	sec.F("seeds.serve.setup1", prompt, output)
	sec.F("seeds.serve.setup2", compute.DefaultServingReserve*100)
	sec.F("seeds.serve.setup3", ms(target), float64(time.Second)/float64(target))
	sec.F("seeds.serve.head", say.T("seeds.col.model"), say.T("seeds.col.format"), say.T("seeds.col.card"),
		say.T("seeds.col.maxseqs"), say.T("seeds.col.tpot1"), say.T("seeds.col.tokensmax"), say.T("seeds.col.within"))
	type key struct{ model, card string }
	type row struct {
		max  int
		top  float64 // tokens/s at max concurrency
		best compute.ServingPoint
	}
	got := map[key]row{}
	for _, r := range []struct {
		preset string
		prec   sizing.Precision
		cards  []catalog.Card
	}{
		{"llama-2-7b", sizing.BF16, cards},
		{"llama-3-8b", sizing.BF16, cards[:2]},
		{"llama-2-13b", sizing.BF16, cards},
		{"llama-2-13b", sizing.AWQ4, cards[:2]},
		{"llama-2-7b", sizing.FP8, cards[2:]},
	} {
		m, err := sizing.Preset(r.preset)
		if err != nil {
			return sec, err
		}
		for _, c := range r.cards {
			peak, _ := c.Peak(sizing.BF16)
			if r.prec == sizing.FP8 {
				peak, _ = c.Peak(sizing.FP8)
			}
			sv := compute.Serving{Model: m, Weights: r.prec, Memory: c.Memory, Bandwidth: c.MemoryBandwidth, Peak: peak,
				PromptTokens: prompt, OutputTokens: output}
			k := key{r.preset + " " + r.prec.String(), c.ID}
			n, err := sv.MaxConcurrency()
			if errors.Is(err, compute.ErrNoFit) {
				sec.F("seeds.serve.nofitrow", r.preset, r.prec, c.Name, say.T("seeds.serve.nofit"))
				continue
			}
			if err != nil {
				return sec, err
			}
			one, err := sv.At(1)
			if err != nil {
				return sec, err
			}
			top, err := sv.At(n)
			if err != nil {
				return sec, err
			}
			best, err := sv.Best(0, target)
			if err != nil {
				return sec, err
			}
			got[k] = row{max: n, top: float64(top.Throughput), best: best}
			sec.F("seeds.serve.row", r.preset, r.prec, c.Name, n, ms(one.TPOT),
				float64(top.Throughput), best.Concurrency, float64(best.Throughput))
		}
	}
	bf := sizing.BF16.String()
	r7, a7, h7 := got[key{"llama-2-7b " + bf, "rtx-4090"}], got[key{"llama-2-7b " + bf, "a100-sxm4-40gb"}], got[key{"llama-2-7b " + bf, "h800-sxm5-80gb"}]
	a13, h13 := got[key{"llama-2-13b " + bf, "a100-sxm4-40gb"}], got[key{"llama-2-13b " + bf, "h800-sxm5-80gb"}]
	q13 := got[key{"llama-2-13b " + sizing.AWQ4.String(), "rtx-4090"}]
	r8, a8 := got[key{"llama-3-8b " + bf, "rtx-4090"}], got[key{"llama-3-8b " + bf, "a100-sxm4-40gb"}]
	h7f := got[key{"llama-2-7b " + sizing.FP8.String(), "h800-sxm5-80gb"}]
	if r7.max == 0 || a7.max == 0 || h7.max == 0 || a13.max == 0 || h13.max == 0 || q13.max == 0 || h7f.max == 0 || r8.max == 0 || a8.max == 0 {
		return sec, errors.New("serving: a replica the verdict reads did not fit")
	}
	sec.verdict = say.F("seeds.serve.verdict",
		r7.max, a7.max, float64(r7.best.Throughput), float64(a7.best.Throughput), ms(target), r8.max, a8.max,
		q13.max, a13.max, h7.max, h13.max, float64(h7.best.Throughput), float64(h7.best.Throughput)/float64(a7.best.Throughput),
		float64(h7f.best.Throughput))
	return sec, nil
}

// Article 2: batch 1 to 8 may double the memory.
func batchMemory(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.batchMemory"), say.T("seeds.article.2"), say.T("seeds.batch.claim"))
	contexts := []int{512, 2048, 4096}
	if !slices.Contains(contexts, s.context) {
		contexts = append(contexts, s.context)
	}
	sec.F("seeds.batch.setup")
	sec.F("seeds.batch.head", say.T("seeds.col.model"), say.T("seeds.col.job"), say.T("seeds.col.tokencount"),
		say.F("seeds.col.batch", 1), say.F("seeds.col.batch", 8), say.T("seeds.col.ratio"))
	type key struct {
		model string
		ctx   int
	}
	ratios := map[key]float64{}
	kvPerToken := map[string]sizing.Bytes{}
	row := func(preset string, job phrase, w sizing.Workload) (float64, error) {
		m, err := sizing.Preset(preset)
		if err != nil {
			return 0, err
		}
		w.Batch = 1
		one, err := sizing.Estimate(m, w)
		if err != nil {
			return 0, err
		}
		w.Batch = 8
		eight, err := sizing.Estimate(m, w)
		if err != nil {
			return 0, err
		}
		r := float64(eight.Total()) / float64(one.Total())
		sec.F("seeds.batch.row", preset, job, w.SeqLen, si(one.Total()), si(eight.Total()), r)
		return r, nil
	}
	for _, preset := range []string{"llama-2-7b", "qwen2-7b"} {
		m, err := sizing.Preset(preset)
		if err != nil {
			return sec, err
		}
		kv, err := sizing.KVCacheBytes(m, 1, 1, sizing.BF16)
		if err != nil {
			return sec, err
		}
		kvPerToken[preset] = kv
		for _, c := range contexts {
			r, err := row(preset, say.F("seeds.batch.infer", si(kv)),
				sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, SeqLen: c})
			if err != nil {
				return sec, err
			}
			ratios[key{preset, c}] = r
		}
	}
	lw := sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, SeqLen: s.seq}
	loraNo, err := row("llama-2-7b", say.T("seeds.batch.lorano"), lw)
	if err != nil {
		return sec, err
	}
	lw.Recompute = sizing.FullRecompute
	loraFull, err := row("llama-2-7b", say.T("seeds.batch.lorafull"), lw)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.batch.kv1")
	sec.F("seeds.batch.kv2")
	sec.verdict = say.F("seeds.batch.verdict",
		ratios[key{"llama-2-7b", 512}], ratios[key{"llama-2-7b", 4096}],
		float64(kvPerToken["llama-2-7b"])/float64(kvPerToken["qwen2-7b"]), ratios[key{"qwen2-7b", 512}], ratios[key{"qwen2-7b", 4096}], s.seq, loraNo, loraFull)
	return sec, nil
}

// Article 1: a larger batch converges faster.
func batchConvergence(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.batchConvergence"), say.T("seeds.article.1"), say.T("seeds.conv.claim"))
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	card, err := s.cat.Lookup("rtx-4090")
	if err != nil {
		return sec, err
	}
	w := sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, SeqLen: s.seq,
		Recompute: sizing.FullRecompute}
	var parts []phrase
	for _, b := range []int{1, 2, 4, 8, 16} {
		w.Batch = b
		e, err := sizing.Estimate(m, w)
		if err != nil {
			return sec, err
		}
		parts = append(parts, say.F("seeds.conv.batch", b, si(e.Total())))
	}
	sec.F("seeds.conv.setup", s.seq)
	sec.F("seeds.conv.list", list{say.T("seeds.comma"), parts})
	nb, err := sizing.MaxBatch(m, w, usable(card, s.headroom))
	if err != nil {
		return sec, err
	}
	sec.F("seeds.conv.max", card.Name, s.headroom*100, nb)
	f, err := compute.AdapterTrainingFLOPs(m, 1e8, s.seq)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.conv.work1", f)
	sec.F("seeds.conv.work2")
	sec.F("seeds.conv.work3")
	sec.verdict = say.T("seeds.conv.verdict")
	return sec, nil
}

// Article 2: the RTX 3090 draws a lot of power.
func power3090(s settings) (section, error) {
	const decodeContext = 4096 // Llama-2-7B in FP16 fits a 24 GB card at this context
	sec := newSection(say.T("seeds.title.power3090"), say.T("seeds.article.2"), say.T("seeds.power.claim"))
	cards, err := lookup(s.cat, "rtx-3090", "rtx-4090")
	if err != nil {
		return sec, err
	}
	sec.F("seeds.power.source")
	sec.F("seeds.power.head", say.T("seeds.col.card"), "TDP", "FP32", say.T("seeds.col.bf16tensor"),
		say.T("seeds.col.bandwidth"), say.T("seeds.col.fp32perw"), say.T("seeds.col.bf16perw"))
	perW := map[string][2]float64{}
	for _, c := range cards {
		fp32, _ := c.Peak(sizing.FP32)
		bf16, _ := c.Peak(sizing.BF16)
		a, b := 1000*tflops(fp32)/float64(c.TDP), 1000*tflops(bf16)/float64(c.TDP)
		perW[c.ID] = [2]float64{a, b}
		sec.F("seeds.power.row", c.Name, c.TDP, fp32, bf16, c.MemoryBandwidth, a, b)
	}
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	work, err := compute.AdapterTrainingFLOPs(m, 1e8, s.seq)
	if err != nil {
		return sec, err
	}
	offers, err := sample.Offers()
	if err != nil {
		return sec, err
	}
	sec.F("seeds.power.job1", work, compute.DefaultUtilization*100)
	sec.F("seeds.power.job2")
	sec.F("seeds.power.job3", decodeContext)
	sec.F("seeds.power.jhead", say.T("seeds.col.card"), say.T("seeds.col.time"), say.T("seeds.col.energy"),
		say.T("seeds.col.sampleprice"), say.T("seeds.col.samplecost"), say.T("seeds.col.decode"))
	hoursOf := map[string]float64{}
	energy := map[string]float64{}
	cost := map[string]decimal.Decimal{}
	decode := map[string]float64{}
	for _, c := range cards {
		bf16, _ := c.Peak(sizing.BF16)
		d, err := compute.TimeFor(work, bf16*compute.DefaultUtilization)
		if err != nil {
			return sec, err
		}
		own, err := offersOf(s.cat, offers, c.ID)
		if err != nil {
			return sec, err
		}
		if len(own) == 0 {
			return sec, fmt.Errorf("no sample offer of %s", c.Name)
		}
		t := own[0].Tariff
		hourlyOnly := pricing.Tariff{Currency: t.Currency, Hourly: t.Hourly}
		q, err := hourlyOnly.Cost(d.Round(time.Second))
		if err != nil {
			return sec, err
		}
		fp16, _ := c.Peak(sizing.FP16)
		sp, err := compute.Decode{Model: m, Weights: sizing.FP16, Context: decodeContext, Bandwidth: c.MemoryBandwidth, Peak: fp16}.Speed()
		if err != nil {
			return sec, err
		}
		hoursOf[c.ID], energy[c.ID], cost[c.ID], decode[c.ID] = d.Hours(), d.Hours()*float64(c.TDP)/1000, q.Total.Amount, float64(sp.PerSequence)
		sec.F("seeds.power.jrow", c.Name, hours(d), energy[c.ID],
			say.F("seeds.perhour", unitPrice{Amount: t.Hourly, Currency: t.Currency}), money(q.Total), decode[c.ID])
	}
	cheaper := say.T("seeds.power.more")
	if cost["rtx-3090"].LessThan(cost["rtx-4090"]) {
		cheaper = say.T("seeds.power.less")
	}
	sec.verdict = say.F("seeds.power.verdict",
		cards[0].TDP, cards[1].TDP, perW["rtx-3090"][0], perW["rtx-4090"][0],
		hoursOf["rtx-3090"]/hoursOf["rtx-4090"], energy["rtx-3090"]/energy["rtx-4090"], cheaper,
		cards[0].MemoryBandwidth, cards[1].MemoryBandwidth, decode["rtx-3090"], decode["rtx-4090"])
	return sec, nil
}

// Article 2: check the links with an all-reduce test.
func allReduceCheck(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.allReduceCheck"), say.T("seeds.article.2"), say.T("seeds.allreduce.claim"))
	cards, err := lookup(s.cat, "a100-sxm4-80gb", "h800-sxm5-80gb", "rtx-4090")
	if err != nil {
		return sec, err
	}
	size := 1 * sizing.GB
	sec.F("seeds.allreduce.setup1", si(size))
	sec.F("seeds.allreduce.setup2")
	sec.F("seeds.allreduce.row", say.T("seeds.col.cardlink"), say.T("seeds.col.perdir"),
		say.N(2, "seeds.n.gpu"), say.N(8, "seeds.n.gpu"))
	type link struct {
		name phrase
		l    compute.Link
	}
	var rows []link
	for _, c := range cards {
		l, name, err := cardLink(c, 8)
		if err != nil {
			return sec, err
		}
		rows = append(rows, link{say.F("seeds.allreduce.cardlink", c.Name, name), l})
	}
	pcie, err := compute.PCIeLink(cards[0].PCIeGen)
	if err != nil {
		return sec, err
	}
	rows = append(rows, link{say.F("seeds.allreduce.pcieonly", cards[0].PCIeGen), pcie})
	var times []time.Duration // of 8 GPUs, per row
	for _, r := range rows {
		two, err := r.l.AllReduce(size, 2)
		if err != nil {
			return sec, err
		}
		eight, err := r.l.AllReduce(size, 8)
		if err != nil {
			return sec, err
		}
		times = append(times, eight)
		sec.F("seeds.allreduce.row", r.name, r.l.Bandwidth, ms(two), ms(eight))
	}
	nv, pc := times[0], times[len(times)-1]
	sec.F("seeds.allreduce.nccl1")
	sec.F("seeds.allreduce.nccl2")
	sec.F("seeds.allreduce.verify1")
	sec.F("seeds.allreduce.verify2", say.T("seeds.title.delivered"))
	sec.verdict = say.F("seeds.allreduce.verdict",
		cards[0].Name, ms(nv), cards[0].PCIeGen, ms(pc), float64(pc)/float64(nv))
	return sec, nil
}

// Articles 1 and 2: hourly prices, and price against performance.
func prices(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.prices"), say.T("seeds.article.both"), say.T("seeds.prices.claim"))
	// Indicative per-GPU-hour figures from REFERENCES.md ("Pricing conventions"),
	// typed in as published figures: RTX 4090 ¥1.2–2 on Chinese marketplaces or
	// about $0.30; A100 80GB $1.2–3.4.
	r4090CNY := [2]decimal.Decimal{decimal.New(12, -1), decimal.New(2, 0)}
	r4090USD := decimal.New(30, -2)
	a100USD := [2]decimal.Decimal{decimal.New(12, -1), decimal.New(34, -1)}
	// The exchange rate the sample price lists were written at
	// (pricing/testdata/README.md), for reading USD figures against yuan.
	cnyPerUSD := decimal.New(72, -1)
	sec.F("seeds.prices.indicative")
	sec.F("seeds.prices.ranges",
		r4090CNY[0].StringFixed(2), r4090CNY[1].StringFixed(2), r4090USD.StringFixed(2), a100USD[0].StringFixed(2),
		a100USD[1].StringFixed(2), ratio(a100USD[0], r4090USD), ratio(a100USD[1], r4090USD))
	offers, err := sample.Offers()
	if err != nil {
		return sec, err
	}
	var steady []pricing.Offer // interruptible capacity is a market of its own
	for _, o := range offers {
		if !o.Interruptible {
			steady = append(steady, o)
		}
	}
	checks, err := pricing.MarketCheck(steady, decimal.New(3, -1))
	if err != nil {
		return sec, err
	}
	sec.F("seeds.prices.sample1")
	sec.F("seeds.prices.sample2")
	sec.F("seeds.prices.sample3")
	sec.F("seeds.prices.sample4")
	sec.F("seeds.prices.head", say.T("seeds.col.card"), say.T("seeds.col.offers"), say.T("seeds.col.medianh"),
		say.T("seeds.col.eight"), "FP32", "FP16/BF16", "FP32", say.T("seeds.col.16bit"))
	type row struct {
		median, per32, per16 decimal.Decimal
		fp32, fp16           compute.FLOPRate
		eight                localized // the cheapest hour of 8 GPUs, or "-"
	}
	rows := map[string]row{}
	ids := []string{"t4", "rtx-3090", "rtx-4090", "v100-sxm2-32gb", "a100-sxm4-80gb", "h800-sxm5-80gb"}
	cards, err := lookup(s.cat, ids...)
	if err != nil {
		return sec, err
	}
	for _, c := range cards {
		var median pricing.Money
		n := 0
		for _, pc := range checks {
			oc, err := s.cat.Lookup(pc.Offer.Card)
			if err != nil {
				return sec, err
			}
			if oc.ID == c.ID && pc.Offers > 0 {
				median, n = pc.Median, pc.Offers
			}
		}
		if n == 0 {
			return sec, fmt.Errorf("no sample offer of %s", c.Name)
		}
		own, err := offersOf(s.cat, steady, c.ID)
		if err != nil {
			return sec, err
		}
		cmp, err := pricing.Compare(own, pricing.Continuous(time.Hour), 8)
		if err != nil {
			return sec, err
		}
		var eight localized = verbatim("-")
		if cmp[0].Err == nil {
			eight = money(cmp[0].Quote.Total)
		}
		fp32, _ := c.Peak(sizing.FP32)
		fp16, _ := c.Peak(sizing.FP16)
		p32, err := perPFLOPSHour(median.Amount, fp32)
		if err != nil {
			return sec, err
		}
		p16, err := perPFLOPSHour(median.Amount, fp16)
		if err != nil {
			return sec, err
		}
		rows[c.ID] = row{median.Amount, p32, p16, fp32, fp16, eight}
		sec.F("seeds.prices.row", c.Name, n, unitPrice(median), eight,
			fp32, fp16, p32.StringFixed(2), p16.StringFixed(2))
	}
	a, r := rows["a100-sxm4-80gb"], rows["rtx-4090"]
	ac, rc := cards[4], cards[2]
	sec.F("seeds.prices.ratio1",
		ac.Name, rc.Name, ratio(a.median, r.median), tflops(a.fp16)/tflops(r.fp16), tflops(a.fp32)/tflops(r.fp32))
	sec.F("seeds.prices.ratio2",
		float64(ac.Memory)/float64(rc.Memory), ratio(a.per16, r.per16), ratio(a.per32, r.per32))
	sec.verdict = say.F("seeds.prices.verdict",
		decimal.NewFromInt(10).DivRound(r4090CNY[1], 0), fixed(a100USD[0].Mul(cnyPerUSD)),
		fixed(a100USD[1].Mul(cnyPerUSD)), cnyPerUSD, a.eight,
		fixed(a100USD[1].Mul(cnyPerUSD).Mul(decimal.NewFromInt(8))), ratio(a100USD[0], r4090USD), ratio(a100USD[1], r4090USD), ratio(a.median, r.median),
		ratio(a.per16, r.per16), ratio(a.per32, r.per32), gbWhole(ac.MemoryNominal), ac.MemoryType, gbWhole(rc.MemoryNominal), rc.MemoryType,
		price(rows["rtx-3090"].median), price(r.median))
	return sec, nil
}

// Article 2: a price far under the market.
func marketCheck(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.marketCheck"), say.T("seeds.article.2"), say.T("seeds.market.claim"))
	offers, err := sample.Offers()
	if err != nil {
		return sec, err
	}
	var steady []pricing.Offer
	for _, o := range offers {
		if !o.Interruptible {
			steady = append(steady, o)
		}
	}
	threshold := decimal.New(3, -1)
	checks, err := pricing.MarketCheck(steady, threshold)
	if err != nil {
		return sec, err
	}
	sec.F("seeds.market.setup1", threshold)
	sec.F("seeds.market.setup2")
	sec.F("seeds.market.row", say.T("seeds.col.card"), say.T("seeds.col.provider"), say.T("seeds.col.tiersupport"),
		say.T("seeds.col.hourly"), say.T("seeds.col.median"), say.T("seeds.col.flag"))
	flagged := 0
	for _, pc := range checks {
		if pc.Offers < 2 {
			continue
		}
		o := pc.Offer
		tier := say.F("seeds.market.tier", o.Tier, o.Support)
		if o.Tier == "" {
			tier = say.F("seeds.market.notier", o.Support)
		}
		sec.F("seeds.market.row", o.Card, o.Provider, tier, price(pc.Hourly.Amount), price(pc.Median.Amount), flagWord(pc.Flag))
		if pc.Flag == pricing.PriceBelow {
			flagged++
			for _, l := range strings.Split(wrap(pc.Message), "\n") {
				sec.F("seeds.market.message", strings.TrimPrefix(l, "  "))
			}
		}
	}
	sec.F("seeds.market.planner")
	sec.verdict = say.F("seeds.market.verdict", threshold.Mul(decimal.NewFromInt(100)), say.N(flagged, "seeds.n.offer"),
		say.T("seeds.title.delivered"))
	return sec, nil
}

// flagWord names a market check's flag in the report's words.
func flagWord(f pricing.PriceFlag) localized {
	switch f {
	case pricing.PriceNormal:
		return say.T("seeds.flag.normal")
	case pricing.PriceBelow:
		return say.T("seeds.flag.below")
	case pricing.PriceAbove:
		return say.T("seeds.flag.above")
	}
	return verbatim(f.String())
}

// Article 2: datacenter tier, stability and interruptions.
func tierStability(s settings) (section, error) {
	sec := newSection(say.T("seeds.title.tierStability"), say.T("seeds.article.2"), say.T("seeds.tier.claim"))
	sec.F("seeds.tier.source")
	var tier3 phrase // Tier III's outage a year
	for _, tier := range []string{"Tier I", "Tier II", "Tier III", "Tier IV"} {
		a, ok := pricing.SiteAvailability(tier)
		if !ok {
			return sec, fmt.Errorf("tier %q unknown", tier)
		}
		outage := hours(time.Duration((1 - a) * 8760 * float64(time.Hour)))
		if tier == "Tier III" {
			tier3 = outage
		}
		sec.F("seeds.tier.row", tier, 100*a, outage)
	}
	offers, err := sample.Offers()
	if err != nil {
		return sec, err
	}
	r4090, err := offersOf(s.cat, offers, "rtx-4090")
	if err != nil {
		return sec, err
	}
	m, err := sizing.Preset("llama-2-7b")
	if err != nil {
		return sec, err
	}
	req := plan.Request{Model: m, Workload: sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 1,
		SeqLen: s.seq, Recompute: sizing.FullRecompute}, Tokens: 2e8, MaxGPUs: 1}
	sec.F("seeds.tier.plan1")
	sec.F("seeds.tier.plan2", minutes(plan.DefaultCheckpoint), minutes(plan.DefaultRestart))
	sec.F("seeds.tier.head", say.T("seeds.col.provider"), say.T("seeds.col.tier"), say.T("seeds.col.interruptions"),
		say.T("seeds.col.hourly"), say.T("seeds.col.jobtime"), say.T("seeds.col.cost"), say.T("seeds.col.lost"),
		say.T("seeds.col.expected"))
	var spot pricing.Offer
	for _, o := range r4090 {
		if o.Interruptible {
			spot = o
		}
	}
	if spot.Provider == "" {
		return sec, errors.New("no interruptible RTX 4090 sample offer")
	}
	opts, err := plan.Planner{Catalog: s.cat, Offers: r4090}.Plan(req)
	if err != nil {
		return sec, err
	}
	var cheapestSteady plan.Option
	for _, o := range opts {
		tier := o.Offer.Tier
		if tier == "" {
			tier = "-"
		}
		sec.F("seeds.tier.row2", o.Offer.Provider, tier, o.Offer.InterruptionsPerDay,
			price(o.Offer.Tariff.Hourly), hours(o.Duration), money(o.Cost.Total), minutes(o.TimeLost), money(o.ExpectedCost))
		if _, rated := pricing.SiteAvailability(o.Offer.Tier); rated && !o.Offer.Interruptible && cheapestSteady.Offer.Provider == "" {
			cheapestSteady = o
		}
	}
	crossover, below := 0.0, 0.0 // the first rate tried at which the spot costs more, and the last at which it does not
	for _, rate := range []float64{2, 4, 8, 16, 32} {
		o := spot
		o.InterruptionsPerDay = rate
		opt, err := plan.Planner{Catalog: s.cat, Offers: []pricing.Offer{o}}.Plan(req)
		if err != nil {
			return sec, err
		}
		sec.F("seeds.tier.row2", say.F("seeds.tier.whatif", o.Provider), "-", rate,
			price(o.Tariff.Hourly), hours(opt[0].Duration), money(opt[0].Cost.Total), minutes(opt[0].TimeLost), money(opt[0].ExpectedCost))
		if crossover == 0 && opt[0].ExpectedCost.Amount.GreaterThan(cheapestSteady.ExpectedCost.Amount) {
			crossover = rate
		}
		if crossover == 0 {
			below = rate
		}
	}
	sec.F("seeds.tier.labels")
	sec.F("seeds.tier.only")
	when := say.T("seeds.tier.never")
	if crossover > 0 {
		when = say.F("seeds.tier.at", crossover, below)
	}
	sec.verdict = say.F("seeds.tier.verdict", tier3, cheapestSteady.Offer.Provider, when)
	return sec, nil
}

// wrap breaks text into lines of at most 100 columns, indenting the lines
// after the first by two spaces.
func wrap(s string) string { return text.Wrap(s, 0, 100, "  ") }

// items lists a quote's lines in the report's words: "monthly 1 + hourly 2".
func items(q pricing.Quote) list {
	var parts []phrase
	for _, l := range q.Lines {
		n := l.Quantity.String()
		switch l.Item {
		case "hourly":
			parts = append(parts, say.F("seeds.item.hourly", n))
		case "daily":
			parts = append(parts, say.F("seeds.item.daily", n))
		case "weekly":
			parts = append(parts, say.F("seeds.item.weekly", n))
		case "monthly":
			parts = append(parts, say.F("seeds.item.monthly", n))
		case "trial":
			parts = append(parts, say.F("seeds.item.trial", n))
		default:
			parts = append(parts, say.F("seeds.item.other", l.Item, n))
		}
	}
	return list{say.T("seeds.plus"), parts}
}

// terms names a set of a Breakdown's terms in the report's words:
// "activations+kv_cache" as sizing.Terms writes it, "激活值、KV 缓存".
func terms(t sizing.Terms) localized {
	var parts []phrase
	for _, term := range []struct {
		t    sizing.Terms
		name phrase
	}{
		{sizing.TermWeights, say.T("seeds.term.weights")}, {sizing.TermGradients, say.T("seeds.term.gradients")},
		{sizing.TermOptimizer, say.T("seeds.term.optimizer")}, {sizing.TermActivations, say.T("seeds.term.activations")},
		{sizing.TermKVCache, say.T("seeds.term.kv_cache")}, {sizing.TermOverhead, say.T("seeds.term.overhead")},
	} {
		if t.Has(term.t) {
			parts = append(parts, term.name)
		}
	}
	if len(parts) == 0 || t&^(sizing.TermWeights|sizing.TermGradients|sizing.TermOptimizer|sizing.TermActivations|
		sizing.TermKVCache|sizing.TermOverhead) != 0 {
		return verbatim(t.String()) // none, or a term this report does not know
	}
	return list{say.T("seeds.term.sep"), parts}
}

// fixed is an exact amount that a message writes with %.Nf to N places
// (decimal's StringFixed, half away from zero), never through a float: a
// whole number of yuan in an English sentence, two places in Chinese.
type fixed decimal.Decimal

// Format writes d for %f with its precision (none: as it is), and as it is for
// any other verb.
func (d fixed) Format(f fmt.State, verb rune) {
	s := decimal.Decimal(d).String()
	if p, ok := f.Precision(); ok && verb == 'f' {
		s = decimal.Decimal(d).StringFixed(int32(p))
	}
	io.WriteString(f, s)
}

// verbatim is a string printed as it is in every language: a name, a figure.
type verbatim string

func (v verbatim) in(msg.Lang) string { return string(v) }

// usable is the memory of card left for the job when headroom of it is kept free.
func usable(card catalog.Card, headroom float64) sizing.Bytes {
	return sizing.Bytes(float64(card.Memory) * (1 - headroom))
}

// fits reports whether need fits card with headroom kept free.
func fits(need sizing.Bytes, card catalog.Card, headroom float64) bool {
	return need <= usable(card, headroom)
}

// yesNo answers a table's question whether a job fits: "yes" or "no".
func yesNo(ok bool) phrase { return yesNoWord(ok, say.T("seeds.yes"), say.T("seeds.no")) }

func yesNoWord(ok bool, yes, no phrase) phrase {
	if ok {
		return yes
	}
	return no
}

// fitsWord says whether a job fits: "fits" or "does not fit".
func fitsWord(ok bool) phrase { return yesNoWord(ok, say.T("seeds.fits"), say.T("seeds.nofit")) }

// si prints a size in decimal units, as the articles quote sizes: "13.5 GB".
func si(b sizing.Bytes) string { return b.HumanSI() }

// siRange prints a band in decimal units: "30.0 GB to 36.0 GB".
func siRange(r sizing.ByteRange) phrase { return say.F("seeds.range", si(r.Low), si(r.High)) }

// siRangeShort prints a band compactly: "20.2–27.0 GB".
func siRangeShort(r sizing.ByteRange) string {
	return fmt.Sprintf("%.1f–%s", r.Low.GB(), si(r.High))
}

// count prints a parameter count in billions: "6.74B".
func count(n int64) string { return fmt.Sprintf("%.2fB", float64(n)/1e9) }

// btoi is 1 for true and 0 for false, to count.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// percent prints need as a share of capacity.
func percent(need, capacity sizing.Bytes) string {
	return fmt.Sprintf("%.0f%%", 100*float64(need)/float64(capacity))
}

// hours prints a duration in hours with one decimal: "83.1 h", "83.1 小时".
func hours(d time.Duration) phrase { return say.F("seeds.unit.hours", d.Hours()) }

// offersOf returns the offers that resolve to the catalog card id.
func offersOf(cat *catalog.Catalog, offers []pricing.Offer, id string) ([]pricing.Offer, error) {
	var out []pricing.Offer
	for _, o := range offers {
		c, err := cat.Lookup(o.Card)
		if err != nil {
			return nil, err
		}
		if c.ID == id {
			out = append(out, o)
		}
	}
	return out, nil
}

// lookup returns the catalog cards with the given ids, in order.
func lookup(cat *catalog.Catalog, ids ...string) ([]catalog.Card, error) {
	cards := make([]catalog.Card, len(ids))
	for i, id := range ids {
		c, err := cat.Lookup(id)
		if err != nil {
			return nil, err
		}
		cards[i] = c
	}
	return cards, nil
}

// tflops is a rate in TFLOPS, for display and ratios.
func tflops(r compute.FLOPRate) float64 { return float64(r / compute.TFLOPS) }

// perPFLOPSHour is an hourly price per GPU divided by the card's peak in PFLOPS:
// what an hour of one PFLOPS of that peak costs. The peak enters as a decimal of
// its TFLOPS to three places, so the money never passes through a float.
func perPFLOPSHour(price decimal.Decimal, peak compute.FLOPRate) (decimal.Decimal, error) {
	tf, err := decimal.NewFromString(strconv.FormatFloat(tflops(peak), 'f', 3, 64))
	if err != nil || !tf.IsPositive() {
		return decimal.Decimal{}, fmt.Errorf("peak %s: not a positive rate", peak)
	}
	return price.Mul(decimal.NewFromInt(1000)).DivRound(tf, 2), nil
}

// ratio is a/b of two prices to one decimal place, for display.
func ratio(a, b decimal.Decimal) string { return a.DivRound(b, 1).StringFixed(1) }

// price prints an exact price with at least two decimals: "1.60", "1.475".
func price(d decimal.Decimal) string {
	places := 0
	if _, frac, ok := strings.Cut(d.String(), "."); ok {
		places = len(frac)
	}
	return d.StringFixed(int32(max(2, places)))
}

// gbWhole prints a marketed memory size in whole GB: "80 GB".
func gbWhole(b sizing.Bytes) string { return fmt.Sprintf("%.0f GB", b.GB()) }

// ms prints a duration in milliseconds with one decimal: "6.7 ms", "6.7 毫秒".
func ms(d time.Duration) phrase {
	return say.F("seeds.unit.ms", float64(d)/float64(time.Millisecond))
}

// minutes prints a duration in whole minutes: "40 min", "40 分钟".
func minutes(d time.Duration) phrase { return say.F("seeds.unit.min", d.Minutes()) }
