package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// Column is one column of an options table: its ID (its heading is the message
// "plan.col."+ID, what -h says of it "plan.colhelp."+ID), how its cells sit,
// the most columns a cell takes in the default table (0: no limit), whether
// only a wide table (View.Wide, plan -wide) shows it, whether only a table
// with an option that needs it does (Some), and its cell for an option.
type Column struct {
	ID    string
	Align text.Align
	Max   int
	Wide  bool
	// Some, when set, shows the column only when some option needs it (host
	// memory, when one offloads).
	Some func(plan.Option) bool
	cell func(r row) string
}

// row is what a cell is written from: the option, its rank, and the report's
// view.
type row struct {
	View
	n        int
	o        plan.Option
	currency string // the one currency of every cost shown, written in the heading; "" when they differ
}

// offerCard is an option's card as the user knows it: the price list's name for
// it, or the catalog's when the list gave none.
func (r row) offerCard() string {
	if strings.TrimSpace(r.o.Offer.Card) != "" {
		return r.o.Offer.Card
	}
	return r.CardName(r.o.CardID)
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
	return r.Lang.Money(m)
}

// PlanColumns are the options table's columns for a job, in order.
var PlanColumns = []Column{
	{ID: "num",
		Align: text.Right, cell: func(r row) string { return strconv.Itoa(r.n) }},
	{ID: "provider", Max: 16,
		cell: func(r row) string { return r.o.Offer.Provider }},
	{ID: "region", Wide: true,
		cell: func(r row) string { return r.o.Offer.Region }},
	{ID: "card", Max: 18,
		cell: func(r row) string { return r.offerCard() }},
	{ID: "catalog", Wide: true,
		cell: func(r row) string { return r.CardName(r.o.CardID) }},
	{ID: "gpus", Align: text.Right,
		cell: func(r row) string { return strconv.Itoa(r.o.GPUs) }},
	{ID: "layout", Wide: true,
		cell: func(r row) string { return LayoutName(r.Lang, r.o.Layout) }},
	{ID: "mem", Align: text.Right,
		cell: func(r row) string { return r.o.PerGPU.Total().Human() }},
	hostColumn,
	{ID: "free", Align: text.Right,
		cell: func(r row) string { return fmt.Sprintf("%.0f%%", r.o.Headroom*100) }},
	{ID: "time", Align: text.Right,
		cell: func(r row) string {
			if r.o.Duration == 0 {
				return "-"
			}
			return r.Lang.Dur(r.o.Duration)
		}},
	{ID: "scaling", Align: text.Right, Wide: true,
		cell: func(r row) string {
			if r.o.Duration == 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f%%", r.o.Efficiency*100)
		}},
	{ID: "cost", Align: text.Right,
		cell: func(r row) string {
			if r.o.RankedCost.Currency != "" && r.o.RankedCost.Currency != r.o.ExpectedCost.Currency {
				return r.Lang.Money(r.o.ExpectedCost) + " = " + r.Lang.Money(r.o.RankedCost)
			}
			return r.amount(r.o.ExpectedCost)
		}},
	{ID: "hourly", Align: text.Right, Wide: true,
		cell: func(r row) string {
			if r.o.HourlyOnly.Total.Amount.IsZero() {
				return "-"
			}
			return r.amount(r.o.HourlyOnly.Total)
		}},
	{ID: "vsbest", Align: text.Right,
		cell: func(r row) string { return r.amount(r.o.Waste) }},
}

// hostColumn is the host RAM each GPU needs, shown when an option offloads to it.
var hostColumn = Column{ID: "host", Align: text.Right, Some: func(o plan.Option) bool { return o.HostMemory > 0 },
	cell: func(r row) string {
		if r.o.HostMemory == 0 {
			return "-"
		}
		return r.o.HostMemory.Human()
	}}

// ServingColumns are the options table's columns for a service.
var ServingColumns = []Column{
	PlanColumns[0], PlanColumns[1], PlanColumns[2], PlanColumns[3], PlanColumns[4],
	{ID: "replicas", Align: text.Right,
		cell: func(r row) string { return fleetCell(r.o) }},
	{ID: "gpus", Align: text.Right, Wide: true,
		cell: func(r row) string { return strconv.Itoa(r.o.GPUs) }},
	{ID: "seqs", Align: text.Right, Wide: true,
		cell: func(r row) string {
			if r.o.Load != nil {
				return fmt.Sprintf("%.0f", r.o.Load.Concurrency)
			}
			return strconv.Itoa(r.o.Serving.Concurrency)
		}},
	{ID: "ttft", Align: text.Right,
		cell: func(r row) string {
			if r.o.Load != nil {
				return Latency(r.Pick(r.o.Load.TTFT))
			}
			return Latency(r.o.Serving.TTFT)
		}},
	{ID: "tpot", Align: text.Right,
		cell: func(r row) string {
			if r.o.Load != nil {
				return Latency(r.Pick(r.o.Load.TPOT))
			}
			return Latency(r.o.Serving.TPOT)
		}},
	{ID: "tokens", Align: text.Right, Wide: true,
		cell: func(r row) string {
			if r.o.Load != nil {
				return fmt.Sprintf("%.0f", float64(r.o.Load.Throughput))
			}
			return fmt.Sprintf("%.0f", float64(r.o.Serving.Throughput)*float64(r.o.Replicas))
		}},
	{ID: "perhour", Align: text.Right,
		cell: func(r row) string { return r.amount(r.o.PerHour) }},
	{ID: "permillion", Align: text.Right,
		cell: func(r row) string { return r.amount(r.o.PerMillion) }},
	{ID: "servecost", Align: text.Right,
		cell: func(r row) string { return r.amount(r.o.ExpectedCost) }},
}

// fleetCell writes a service's replicas: "7 × 1" (replicas × GPUs each); for
// a fleet on one offer that follows the day, from the replicas rented all day
// to all of them ("2–6 × 1"); for a disaggregated one its prefill and decode
// replicas ("2p + 3d × 1"); for a mix each offer's, joined by "+".
func fleetCell(o plan.Option) string {
	if len(o.Fleet) <= 1 {
		return fmt.Sprintf("%d × %d", o.Replicas, max(o.Layout.Tensor, 1))
	}
	if o.Fleet[0].Role == plan.RolePrefill {
		return fmt.Sprintf("%dp + %dd × %d", o.Fleet[0].Replicas, o.Fleet[1].Replicas, max(o.Fleet[0].Tensor, 1))
	}
	var parts []string
	for j := 0; j < len(o.Fleet); {
		g := o.Fleet[j]
		base, all := 0, 0
		k := j
		for ; k < len(o.Fleet) && sameOffer(o.Fleet[k], g); k++ {
			all += o.Fleet[k].Replicas
			if o.Fleet[k].Hours >= plan.HoursPerDay {
				base += o.Fleet[k].Replicas
			}
		}
		if base == all {
			parts = append(parts, fmt.Sprintf("%d × %d", all, max(g.Tensor, 1)))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d × %d", base, all, max(g.Tensor, 1)))
		}
		j = k
	}
	return strings.Join(parts, " + ")
}

// sameOffer reports whether two groups run the same replicas on the same
// offer.
func sameOffer(a, b plan.Group) bool {
	return a.Offer.Provider == b.Offer.Provider && a.Offer.Region == b.Offer.Region && a.Offer.Card == b.Offer.Card &&
		a.Offer.Line == b.Offer.Line && a.Tensor == b.Tensor && a.Expert == b.Expert
}

// FitColumns are the columns of a table that says how each card holds a job,
// with no prices (plan -card without -offers; plan.Planner.Fit).
var FitColumns = slices.Concat(Pick(PlanColumns, "num", "catalog", "gpus", "layout", "mem", "host"),
	[]Column{{ID: "microbatch", Align: text.Right, cell: func(r row) string {
		if r.o.MicroBatch == 0 {
			return "-"
		}
		return fmt.Sprintf("%d × %d", r.o.MicroBatch, max(r.o.Accumulation, 1))
	}}},
	Pick(PlanColumns, "free", "time"))

// FitServingColumns are FitColumns for a service: one replica of each card.
var FitServingColumns = append(Pick(PlanColumns, "num", "catalog", "gpus", "mem", "free"), Pick(ServingColumns, "seqs", "ttft", "tpot")...)

// Pick returns the columns of cols with these IDs, in the order given, each
// shown in the default table as well as the wide one.
func Pick(cols []Column, ids ...string) []Column {
	var out []Column
	for _, id := range ids {
		for _, c := range cols {
			if c.ID == id {
				c.Wide = false
				out = append(out, c)
			}
		}
	}
	return out
}

// Table is an options table as its reader sees it: the headings, how each
// column's cells sit, the most columns a cell takes (0: no limit; text.Table
// cuts longer ones), and a row of cells per option.
type Table struct {
	Head  []string
	Align []text.Align
	Max   []int
	Rows  [][]string
}

// Options lays out the options in cols: the default columns, or with v.Wide
// all of them, without limits on a cell; a column with Some only when an
// option needs it. Costs carry their currency in the
// heading of the first column of money when every option shares one.
func Options(cols []Column, opts []plan.Option, v View) Table {
	var t Table
	currency := ""
	if len(opts) > 0 {
		currency = opts[0].RankedCost.Currency
	}
	for _, o := range opts {
		if o.ExpectedCost.Currency != currency || o.RankedCost.Currency != currency {
			currency = ""
		}
	}
	var shown []Column
	named := false
	regions := sameButRegion(opts)
	for _, c := range cols {
		if c.Wide && !v.Wide && !(c.ID == "region" && regions) || c.Some != nil && !slices.ContainsFunc(opts, c.Some) {
			continue
		}
		shown = append(shown, c)
		t.Align = append(t.Align, c.Align)
		if v.Wide {
			t.Max = append(t.Max, 0)
		} else {
			t.Max = append(t.Max, c.Max)
		}
		h := v.Lang.T("plan.col." + c.ID)
		if currency != "" && isMoney(c.ID) && !named {
			h += v.Lang.F("plan.col.currency", v.Lang.Currency(currency))
			named = true // once, on the first column of money: the rest share it
		}
		t.Head = append(t.Head, h)
	}
	for i, o := range opts {
		r := row{View: v, n: i + 1, o: o, currency: currency}
		cells := make([]string, len(shown))
		for j, c := range shown {
			cells[j] = c.cell(r)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// sameButRegion reports whether two options differ in their region alone of
// what the default table shows of an offer (provider and card, as a SkyPilot
// catalog or a cloud's list sells the same card in several regions): then the
// default table shows the region too, or their rows would read alike.
func sameButRegion(opts []plan.Option) bool {
	type key struct{ provider, card string }
	region := map[key]string{}
	for _, o := range opts {
		k := key{o.Offer.Provider, o.Offer.Card}
		if r, ok := region[k]; ok && r != o.Offer.Region {
			return true
		}
		region[k] = o.Offer.Region
	}
	return false
}

// isMoney reports the columns of money.
func isMoney(id string) bool {
	switch id {
	case "cost", "servecost", "hourly", "vsbest", "perhour", "permillion":
		return true
	}
	return false
}
