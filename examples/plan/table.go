package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// width is the terminal the text report fits by default: tables keep to it
// unless -wide asks for every column, and long lines wrap to it.
const width = 100

// view is how the report is written: its language, its width, the catalog that
// names the cards, and where the offers came from.
type view struct {
	lang      msg.Lang
	precision string // the message saying where the weights' precision came from
	wide      bool
	cat       *catalog.Catalog
	source    string // the price list, for the report's head
	speed     string // -calibrate's measurement, for the report's head; "" without
	// percentile is a service's: the share of requests its targets hold for
	// (report.View.Percentile).
	percentile float64
}

// report is the view as the shared report package takes it.
func (v view) report() report.View {
	return report.View{Lang: v.lang, Wide: v.wide, Cat: v.cat, Percentile: v.percentile}
}

// writeOptions writes the options table (report.Options): the default
// columns, or with -wide all of them.
func writeOptions(w io.Writer, cols []report.Column, opts []plan.Option, v view) error {
	rt := report.Options(cols, opts, v.report())
	t := text.Table{Indent: "  ", Align: rt.Align, Max: rt.Max}
	t.Row(rt.Head...)
	for _, r := range rt.Rows {
		t.Row(r...)
	}
	return t.Write(w)
}

// columnsHelp writes what -h says of the columns: each heading, and what it
// shows wrapped beside it.
func columnsHelp(w io.Writer, title string, cols []report.Column, l msg.Lang) {
	fmt.Fprintf(w, "%s\n", title)
	indent := 0
	for _, c := range cols {
		indent = max(indent, text.Width(l.T("plan.col."+c.ID))+4)
	}
	for _, c := range cols {
		help := l.T("plan.colhelp." + c.ID)
		if c.Wide {
			help += l.T("plan.help.wide")
		}
		fmt.Fprintf(w, "  %s%s\n", text.PadRight(l.T("plan.col."+c.ID), indent-2), text.Wrap(help, indent, width, strings.Repeat(" ", indent)))
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
	return view{lang: o.lang, wide: o.wide, cat: o.cat, source: source, precision: why, speed: o.calib.line}
}
