package main

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/gpuplan/gpuplan/internal/chart"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// answer is the plan as the page shows it: what examples/plan prints, built
// by the same code (internal/report), with the memory and the serving curves
// drawn.
type answer struct {
	Head     []pair // what was planned: the job or the service, the work, the price list
	Fit      string // how many candidates were considered and options are shown
	Skipped  []string
	Table    table
	Best     string
	Memory   template.HTML // the best option's memory per GPU, an SVG bar
	Lines    []string      // the best option's replica, time, cost and its range, rates
	Warnings []string      // the best option's
	Note     string        // the price list's note on the best offer
	Others   []string      // the other options' warnings, each "#n: ..."
	Curves   template.HTML // a service's curves, an SVG chart; empty for a job
	NoFit    *plan.NoFitError
}

// pair is a label and its value.
type pair struct{ Label, Value string }

// table is the options table as HTML shows it: its headings and rows of
// cells, each right-aligned (Num) or not.
type table struct {
	Head []cell
	Rows [][]cell
}

// cell is one cell of a table.
type cell struct {
	Text string
	Num  bool
}

// newAnswer builds the page's answer from the plan's input and its report
// (empty when nothing fits).
func (s *server) newAnswer(w *words, lang msg.Lang, in planInput, rep plan.Report) *answer {
	a := &answer{Head: head(w, lang, in)}
	a.Skipped, _ = report.Skipped(rep.Skipped, lang)
	if len(rep.Options) == 0 {
		return a
	}
	v := report.View{Lang: lang, Cat: s.cat}
	a.Fit = strings.TrimRight(report.Fit(lang, in.req, rep), ":：")
	cols := report.PlanColumns
	if in.req.Serving != nil {
		cols = report.ServingColumns
	}
	a.Table = htmlTable(report.Options(cols, rep.Options, v))
	best := rep.Options[0]
	var d report.Details
	a.Best, d = report.Best(best, v)
	a.Memory = template.HTML(inline(memoryBar(w, best)))
	for _, line := range []string{d.Replica, d.Time, d.Cost, d.CostRange, d.Rates} {
		if line != "" {
			a.Lines = append(a.Lines, line)
		}
	}
	a.Warnings, a.Note = best.Warnings, d.Note
	if in.req.Serving != nil {
		a.Curves = template.HTML(inline(s.curves(lang, in.req, rep.Options)))
	}
	for i, o := range rep.Options[1:] {
		for _, warn := range o.Warnings {
			a.Others = append(a.Others, fmt.Sprintf("#%d: %s", i+2, warn))
		}
	}
	return a
}

// curves draws the serving curves examples/serve draws (chart.Serving) for the
// cards of the first options, at most chart.MaxCurves, each on its option's
// GPUs a replica, with the request's TPOT target; empty when no curve can be
// drawn.
func (s *server) curves(lang msg.Lang, r plan.Request, opts []plan.Option) string {
	t := r.Serving
	rep := chart.Replica{Model: r.Model, Weights: r.Workload.Precision, Prompt: t.PromptTokens, Output: t.OutputTokens}
	tp := func(o plan.Option) int { return max(o.Layout.Tensor, 1) }
	gpus := func(n int) string {
		if n > 1 {
			return lang.F("serve.title.tp", n)
		}
		return lang.T("serve.title.one")
	}
	var cs []chart.Curve
	seen := map[string]bool{}
	for _, o := range opts {
		card, err := s.cat.Lookup(o.CardID)
		if err != nil || seen[o.CardID] || len(cs) == chart.MaxCurves {
			continue
		}
		seen[o.CardID] = true
		c, err := rep.Sweep(card, tp(o), t.TPOT)
		if err != nil {
			continue
		}
		if tp(o) != tp(opts[0]) {
			c.Label += " " + gpus(tp(o))
		}
		cs = append(cs, c)
	}
	if len(cs) == 0 {
		return ""
	}
	subtitle := lang.F("serve.title", r.Model.Name, strings.ToUpper(r.Workload.Precision.String()), t.PromptTokens, t.OutputTokens, gpus(tp(opts[0])))
	return chart.Serving(lang, subtitle, cs, t.TPOT)
}

// head is what the answer says was planned, in the words examples/plan heads
// its report with: the job (or the service's model and traffic), the work,
// and the price list.
func head(w *words, lang msg.Lang, in planInput) []pair {
	r := in.req
	label := func(key string) string { return strings.TrimSpace(lang.T(key)) }
	var h []pair
	if r.Serving != nil {
		h = append(h, pair{label("plan.label.servemodel"), report.ServeModel(r, lang)},
			pair{label("plan.label.traffic"), report.Traffic(*r.Serving, lang)})
	} else {
		h = append(h, pair{label("plan.label.job"), report.Job(r, lang, "")})
		work := w.NoWork
		if r.Tokens > 0 {
			work = fmt.Sprintf(w.Work, lang.Tokens(r.Tokens))
		}
		if r.Deadline > 0 {
			work += lang.F("plan.work.deadline", lang.Dur(r.Deadline))
		}
		h = append(h, pair{label("plan.label.work"), work})
	}
	if r.Usage > 0 {
		h = append(h, pair{label("plan.label.rental"), fmt.Sprintf(w.Rented, lang.Dur(r.Usage))})
	}
	return append(h, pair{label("plan.label.offers"), in.source})
}

// htmlTable is the options table with each cell told how it sits.
func htmlTable(t report.Table) table {
	var h table
	num := func(j int) bool { return j < len(t.Align) && t.Align[j] == text.Right }
	for j, s := range t.Head {
		h.Head = append(h.Head, cell{s, num(j)})
	}
	for _, r := range t.Rows {
		row := make([]cell, len(r))
		for j, s := range r {
			row[j] = cell{s, num(j)}
		}
		h.Rows = append(h.Rows, row)
	}
	return h
}

// memoryBar draws the option's memory per GPU.
func memoryBar(w *words, o plan.Option) string {
	b := o.PerGPU
	overhead := w.Overhead
	if o.Serving != nil {
		overhead = w.Reserve
	}
	parts := []chart.Part{{Label: w.Weights, Size: b.Weights}, {Label: w.Gradients, Size: b.Gradients},
		{Label: w.Optimizer, Size: b.Optimizer}, {Label: w.Activations, Size: b.Activations},
		{Label: w.KV, Size: b.KVCache}, {Label: overhead, Size: b.Overhead}}
	title := fmt.Sprintf(w.MemoryTitle, b.Total().Human(), o.Capacity.Human(), o.Headroom*100)
	return chart.MemoryBar(title, parts, o.Capacity, w.Free)
}

// inline is an SVG document made fit to sit in HTML: without its XML
// declaration.
func inline(doc string) string {
	if _, rest, ok := strings.Cut(doc, "?>\n"); ok && strings.HasPrefix(doc, "<?xml") {
		return rest
	}
	return doc
}
