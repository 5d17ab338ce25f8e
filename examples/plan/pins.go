package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// nameList is -card: given several times, or once with names separated by
// commas, each a name the catalog knows.
type nameList []string

func (n *nameList) String() string { return strings.Join(*n, ",") }

func (n *nameList) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name == "" {
			return fmt.Errorf("empty card name")
		}
		*n = append(*n, name)
	}
	return nil
}

// parseLayout reads -layout: comma-separated settings of a parallel layout,
// "dp=8,zero=3", "tp=2,pp=2", "dp=4,zero=3,offload": dp (or data), tp (tensor),
// pp (pipeline) degrees of 1 or more, zero the ZeRO stage 0 to 3, and sp
// (sequence parallel) and offload (the optimizer to host memory) alone or
// =true/false. An unknown key is a usage error that names it and the keys
// there are; sizing and the planner judge the layout itself.
func parseLayout(s string, l msg.Lang) (sizing.Parallel, error) {
	var p sizing.Parallel
	bad := func(item, why string) (sizing.Parallel, error) {
		return sizing.Parallel{}, cli.Usagef("-layout %s: %s: %s", text.Quote(s, 60), text.Quote(item, 20), why)
	}
	for _, item := range strings.Split(s, ",") {
		key, value, has := strings.Cut(strings.TrimSpace(item), "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		switch key {
		case "dp", "data", "tp", "tensor", "pp", "pipeline", "zero":
			n, err := strconv.Atoi(value)
			least := 1
			if key == "zero" {
				least = 0
			}
			if !has || err != nil || n < least || key == "zero" && n > 3 || n > sizing.MaxDevices {
				if key == "zero" {
					return bad(item, l.T("plan.layout.wantzero"))
				}
				return bad(item, l.T("plan.layout.wantdegree"))
			}
			switch key {
			case "dp", "data":
				p.Data = n
			case "tp", "tensor":
				p.Tensor = n
			case "pp", "pipeline":
				p.Pipeline = n
			case "zero":
				p.ZeRO = n
			}
		case "sp", "offload":
			on := true
			if has {
				var err error
				if on, err = strconv.ParseBool(value); err != nil {
					return bad(item, l.T("plan.layout.wantbool"))
				}
			}
			if key == "sp" {
				p.SequenceParallel = on
			} else {
				p.OffloadOptimizer = on
			}
		default:
			return bad(item, l.T("plan.layout.unknown"))
		}
	}
	return p, nil
}

// printFit writes what -card without -offers answers: the job, and for each card
// the GPUs that hold it, the layout, the memory and the time, with no prices.
func printFit(w io.Writer, r plan.Request, opts []plan.Option, v view) error {
	describeRequest(w, r, v)
	fmt.Fprintln(w, text.Wrap(v.lang.T("plan.fit.head"), 0, width, ""))
	fmt.Fprintln(w)
	cols := report.FitColumns
	if r.Serving != nil {
		cols = report.FitServingColumns
	}
	if err := writeOptions(w, cols, opts, v); err != nil {
		return err
	}
	for _, o := range opts {
		for _, warn := range o.Warnings {
			detail(w, v.report().CardName(o.CardID)+": "+warn)
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", text.Wrap(v.lang.T("plan.fit.prices"), 0, width, ""))
	return err
}

// jsonFit is what -json prints for -card without -offers.
type jsonFit struct {
	Job      json.RawMessage `json:"job"`      // the request as the planner used it (echo)
	Defaults []string        `json:"defaults"` // the keys of Job left to a default
	// Calibrations are -calibrate's measured speed by catalog card ID; absent
	// without -calibrate.
	Calibrations map[string]compute.Calibration `json:"calibrations,omitempty"`
	Options      []plan.Option                  `json:"options"` // one a card that holds the job, in the order named; no money
}

// fit answers -card without -offers: does the job fit each card, on how many
// GPUs, and how long it takes (plan.Planner.Fit); no prices.
func (o options) fit(w io.Writer, req plan.Request) (int, error) {
	v := o.view(o.lang.T("plan.fit.source"))
	opts, err := plan.Planner{Catalog: o.cat, Calibrations: o.calib.byCard}.Fit(req)
	var nf *plan.NoFitError
	switch {
	case errors.As(err, &nf) && o.json:
		return exitFail, writeJSON(w, report.NoFit(nf))
	case errors.As(err, &nf):
		printNoFit(w, req, nf, nil, v)
		return exitFail, nil
	case errors.Is(err, catalog.ErrNotFound):
		return exitUsage, cli.Usagef("-card: %v; %s", err, o.lang.T("cli.unknowncard"))
	case err != nil:
		return exitFail, err
	}
	if o.json {
		job, defaults, err := echo(req, o.set)
		if err != nil {
			return exitFail, err
		}
		return exitOK, writeJSON(w, jsonFit{Job: job, Defaults: defaults, Calibrations: o.calib.byCard, Options: opts})
	}
	return exitOK, printFit(w, req, opts, v)
}
