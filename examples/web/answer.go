package main

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/chart"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// answer is the plan as the page shows it.
type answer struct {
	Head       []pair // what was planned: the job, the work, the price list
	Considered string
	Skipped    []string
	Table      table
	Best       string
	Memory     template.HTML // the best option's memory per GPU, an SVG bar
	Lines      []pair        // the best option's time and cost
	Warnings   []string      // the best option's
	Curves     template.HTML // a service's curves, an SVG chart; empty for a job
	NoFit      *plan.NoFitError
}

// pair is a label and its value.
type pair struct{ Label, Value string }

// table is an options table: its heading and rows of cells.
type table struct {
	Head []cell
	Rows [][]cell
}

// cell is one cell of a table; Num right-aligns it.
type cell struct {
	Text string
	Num  bool
}

// newAnswer builds the page's answer from the plan's input and its report.
func newAnswer(w *words, lang msg.Lang, in planInput, rep plan.Report) *answer {
	a := &answer{}
	m := in.req.Model
	a.Head = append(a.Head, pair{w.Model, fmt.Sprintf("%s (%s), %s, %s", m.Name, lang.Tokens(float64(m.ParamCount())),
		w.Tasks[in.req.Workload.Task.String()], strings.ToLower(in.req.Workload.Precision.String()))})
	a.Head = append(a.Head, pair{w.Prices, in.source})
	if len(rep.Options) == 0 {
		return a
	}
	a.Considered = fmt.Sprintf(w.Considered, rep.Considered, len(rep.Options))
	a.Table = optionsTable(lang, rep.Options)
	best := rep.Options[0]
	a.Best = fmt.Sprintf("%s: %s %s, %d × %s, %s", w.Best, best.Offer.Provider, best.Offer.Region, best.GPUs, best.Offer.Card, plan.DescribeLayout(best.Layout))
	a.Memory = template.HTML(inline(memoryBar(w, best)))
	if best.Duration > 0 {
		t := lang.Dur(best.Duration)
		if low, high := lang.Dur(best.DurationLow), lang.Dur(best.DurationHigh); low != high {
			t += " (" + fmt.Sprintf(w.TimeBand, low, high) + ")"
		}
		a.Lines = append(a.Lines, pair{w.Time, t})
	}
	c := lang.Money(best.ExpectedCost)
	if low, high := lang.Money(best.CostLow), lang.Money(best.CostHigh); !best.CostHigh.IsZero() && low != high {
		c += " (" + fmt.Sprintf(w.CostRange, low, high) + ")"
	}
	a.Lines = append(a.Lines, pair{w.Cost, c})
	a.Warnings = best.Warnings
	return a
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

// optionsTable is the options table.
func optionsTable(lang msg.Lang, opts []plan.Option) table {
	var t table
	for _, h := range []string{"#", "provider", "card", "GPUs", "mem/GPU", "free", "time", "cost", "vs best"} {
		t.Head = append(t.Head, cell{Text: h, Num: h != "provider" && h != "card"})
	}
	for i, o := range opts {
		dur := "-"
		if o.Duration > 0 {
			dur = lang.Dur(o.Duration)
		}
		t.Rows = append(t.Rows, []cell{
			{strconv.Itoa(i + 1), true}, {o.Offer.Provider, false}, {o.Offer.Card, false},
			{strconv.Itoa(o.GPUs), true}, {o.PerGPU.Total().Human(), true},
			{fmt.Sprintf("%.0f%%", o.Headroom*100), true}, {dur, true},
			{lang.Money(o.ExpectedCost), true}, {lang.Money(o.Waste), true},
		})
	}
	return t
}
