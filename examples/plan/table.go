package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// width is the terminal the text report fits by default: tables keep to it
// unless -wide asks for every column, and long lines wrap to it.
const width = 100

// column is one column of an options table: its id (its heading is the message
// "plan.col."+id, what -h says of it "plan.colhelp."+id), how its cells sit,
// the most columns a cell takes in the default table (0: no limit), whether
// only -wide shows it, and its cell for an option.
type column struct {
	id    string
	align text.Align
	// some, when set, shows the column only when some option needs it (host
	// memory, when one offloads).
	some func(plan.Option) bool
	max  int
	wide bool
	cell func(r row) string
}

// row is what a cell is written from: the option, its rank, and the report's
// view.
type row struct {
	view
	n        int
	o        plan.Option
	currency string // the one currency of every cost shown, written in the heading; "" when they differ
}

// view is how the report is written: its language, its width, the catalog that
// names the cards, and where the offers came from.
type view struct {
	lang      msg.Lang
	precision string // the message saying where the weights' precision came from
	wide      bool
	cat       *catalog.Catalog
	source    string // the price list, for the report's head
}

// cardName is the catalog's name for a card ID, as users know the card.
func (v view) cardName(id string) string {
	if card, err := v.cat.Lookup(id); err == nil {
		return card.Name
	}
	return id
}

// offerCard is an option's card as the user knows it: the price list's name for
// it, or the catalog's when the list gave none.
func (r row) offerCard() string {
	if strings.TrimSpace(r.o.Offer.Card) != "" {
		return r.o.Offer.Card
	}
	return r.view.cardName(r.o.CardID)
}

// amount writes a cost in a table cell: the number alone, rounded to the minor
// unit, when the heading names the currency, else with its currency.
func (r row) amount(m pricing.Money) string {
	if m.Amount.IsZero() && m.Currency == "" {
		return "-"
	}
	if r.currency != "" {
		return msg.Amount(m)
	}
	return r.lang.Money(m)
}

// planColumns are the options table's columns for a job, in order.
var planColumns = []column{
	{id: "num",
		align: text.Right, cell: func(r row) string { return strconv.Itoa(r.n) }},
	{id: "provider", max: 16,
		cell: func(r row) string { return r.o.Offer.Provider }},
	{id: "region", wide: true,
		cell: func(r row) string { return r.o.Offer.Region }},
	{id: "card", max: 18,
		cell: func(r row) string { return r.offerCard() }},
	{id: "catalog", wide: true,
		cell: func(r row) string { return r.cardName(r.o.CardID) }},
	{id: "gpus", align: text.Right,
		cell: func(r row) string { return strconv.Itoa(r.o.GPUs) }},
	{id: "layout", wide: true,
		cell: func(r row) string { return layoutName(r.lang, r.o.Layout) }},
	{id: "mem", align: text.Right,
		cell: func(r row) string { return r.o.PerGPU.Total().Human() }},
	hostColumn,
	{id: "free", align: text.Right,
		cell: func(r row) string { return fmt.Sprintf("%.0f%%", r.o.Headroom*100) }},
	{id: "time", align: text.Right,
		cell: func(r row) string {
			if r.o.Duration == 0 {
				return "-"
			}
			return r.lang.Dur(r.o.Duration)
		}},
	{id: "scaling", align: text.Right, wide: true,
		cell: func(r row) string {
			if r.o.Duration == 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f%%", r.o.Efficiency*100)
		}},
	{id: "cost", align: text.Right,
		cell: func(r row) string {
			if r.o.RankedCost.Currency != "" && r.o.RankedCost.Currency != r.o.ExpectedCost.Currency {
				return r.lang.Money(r.o.ExpectedCost) + " = " + r.lang.Money(r.o.RankedCost)
			}
			return r.amount(r.o.ExpectedCost)
		}},
	{id: "hourly", align: text.Right, wide: true,
		cell: func(r row) string {
			if r.o.HourlyOnly.Total.Amount.IsZero() {
				return "-"
			}
			return r.amount(r.o.HourlyOnly.Total)
		}},
	{id: "vsbest", align: text.Right,
		cell: func(r row) string { return r.amount(r.o.Waste) }},
}

// hostColumn is the host RAM each GPU needs, shown when an option offloads to it.
var hostColumn = column{id: "host", align: text.Right, some: func(o plan.Option) bool { return o.HostMemory > 0 },
	cell: func(r row) string {
		if r.o.HostMemory == 0 {
			return "-"
		}
		return r.o.HostMemory.Human()
	}}

// servingColumns are the options table's columns for a service.
var servingColumns = []column{
	planColumns[0], planColumns[1], planColumns[2], planColumns[3], planColumns[4],
	{id: "replicas", align: text.Right,
		cell: func(r row) string { return fmt.Sprintf("%d × %d", r.o.Replicas, max(r.o.Layout.Tensor, 1)) }},
	{id: "gpus", align: text.Right, wide: true,
		cell: func(r row) string { return strconv.Itoa(r.o.GPUs) }},
	{id: "seqs", align: text.Right, wide: true,
		cell: func(r row) string { return strconv.Itoa(r.o.Serving.Concurrency) }},
	{id: "ttft", align: text.Right,
		cell: func(r row) string { return latency(r.o.Serving.TTFT) }},
	{id: "tpot", align: text.Right,
		cell: func(r row) string { return latency(r.o.Serving.TPOT) }},
	{id: "tokens", align: text.Right, wide: true,
		cell: func(r row) string {
			return fmt.Sprintf("%.0f", float64(r.o.Serving.Throughput)*float64(r.o.Replicas))
		}},
	{id: "perhour", align: text.Right,
		cell: func(r row) string { return r.amount(r.o.PerHour) }},
	{id: "permillion", align: text.Right,
		cell: func(r row) string { return r.amount(r.o.PerMillion) }},
	{id: "servecost", align: text.Right,
		cell: func(r row) string { return r.amount(r.o.ExpectedCost) }},
}

// writeOptions writes the options table: the default columns, or with wide all
// of them. Costs carry their currency in the heading of the first column of
// money when every option shares one.
func writeOptions(w io.Writer, cols []column, opts []plan.Option, v view) error {
	wide := v.wide
	currency := opts[0].RankedCost.Currency
	for _, o := range opts {
		if o.ExpectedCost.Currency != currency || o.RankedCost.Currency != currency {
			currency = ""
		}
	}
	var shown []column
	for _, c := range cols {
		if c.wide && !wide || c.some != nil && !slices.ContainsFunc(opts, c.some) {
			continue
		}
		shown = append(shown, c)
	}
	t := text.Table{Indent: "  "}
	var head []string
	named := false
	for _, c := range shown {
		t.Align = append(t.Align, c.align)
		if wide {
			t.Max = append(t.Max, 0)
		} else {
			t.Max = append(t.Max, c.max)
		}
		h := v.lang.T("plan.col." + c.id)
		if currency != "" && isMoney(c.id) && !named {
			h += v.lang.F("plan.col.currency", v.lang.Currency(currency))
			named = true // once, on the first column of money: the rest share it
		}
		head = append(head, h)
	}
	t.Row(head...)
	for i, o := range opts {
		r := row{view: v, n: i + 1, o: o, currency: currency}
		var cells []string
		for _, c := range shown {
			cells = append(cells, c.cell(r))
		}
		t.Row(cells...)
	}
	return t.Write(w)
}

// isMoney reports the columns of money.
func isMoney(id string) bool {
	switch id {
	case "cost", "servecost", "hourly", "vsbest", "perhour", "permillion":
		return true
	}
	return false
}

// columnsHelp writes what -h says of the columns: each heading, and what it
// shows wrapped beside it.
func columnsHelp(w io.Writer, title string, cols []column, l msg.Lang) {
	fmt.Fprintf(w, "%s\n", title)
	indent := 0
	for _, c := range cols {
		indent = max(indent, text.Width(l.T("plan.col."+c.id))+4)
	}
	for _, c := range cols {
		help := l.T("plan.colhelp." + c.id)
		if c.wide {
			help += l.T("plan.help.wide")
		}
		fmt.Fprintf(w, "  %s%s\n", text.PadRight(l.T("plan.col."+c.id), indent-2), text.Wrap(help, indent, width, strings.Repeat(" ", indent)))
	}
}

// view is the report's view for the offers read from source.
func (o options) view(source string) view {
	why := "plan.why.default"
	switch {
	case o.set["precision"]:
		why = "plan.why.flag"
	case o.Config != "" || len(o.GGUF) > 0 || len(o.Safetensors) > 0 || cli.IsDir(o.Model):
		why = "plan.why.files"
	}
	return view{lang: o.lang, wide: o.wide, cat: o.cat, source: source, precision: why}
}
