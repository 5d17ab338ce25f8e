package main

import (
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/shopspring/decimal"
)

// The price-list formats are named in the report by the messages
// "plan.format."+pricelist.Format*.

// readOfferFile reads the -offers file in whichever format pricelist.ReadList
// recognises (the package's own CSV or JSON, a SkyPilot catalog vms.csv,
// vast.ai's offers JSON) and describes what it read for the report's "Offers:"
// line: the file, its format, the offers kept and the rows left out, by reason:
//
//	lambda/vms.csv (SkyPilot catalog CSV, provider lambda): 19 offers; 2 rows left out: no GPUs (2, from line 2)
//
// A SkyPilot catalog's offers take the cloud its path names (skyPilotCloud)
// as their provider, when it names one; an offer the list names no provider for
// (a CSV without a provider column) takes the file's name, so that the report
// and its messages show where it came from. A list with no offer, a header
// alone, is an error naming the file.
func readOfferFile(file string, lang msg.Lang) ([]pricing.Offer, string, error) {
	f, err := cli.Open("offers", file)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	l, err := pricelist.ReadList(f)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", file, err)
	}
	var b strings.Builder
	format := lang.T("plan.format." + l.Format)
	if cloud := skyPilotCloud(file); l.Format == pricelist.FormatSkyPilot && cloud != "" {
		for i := range l.Offers {
			l.Offers[i].Provider = cloud
		}
		format += lang.F("plan.source.cloud", cloud)
	}
	unnamed := 0
	for i := range l.Offers {
		if strings.TrimSpace(l.Offers[i].Provider) == "" {
			l.Offers[i].Provider = filepath.Base(file)
			unnamed++
		}
	}
	b.WriteString(lang.F("plan.source", file, format, lang.N(len(l.Offers), "plan.n.offer")))
	if unnamed > 0 {
		b.WriteString(lang.F("plan.source.unnamed", unnamed))
	}
	rows, reasons := 0, make([]string, len(l.Skipped))
	for i, s := range l.Skipped {
		rows += s.Rows
		reasons[i] = lang.F("plan.source.reason", s.Reason, s.Rows, s.FirstLine)
	}
	if rows > 0 {
		b.WriteString(lang.F("plan.source.skipped", lang.N(rows, "plan.n.row"), strings.Join(reasons, lang.T("plan.list.sep"))))
	}
	if len(l.Offers) == 0 {
		return nil, "", fmt.Errorf("%s", lang.F("plan.err.nooffers", file, lang.T("plan.format."+l.Format)))
	}
	return l.Offers, b.String(), nil
}

// skyPilotCloud returns the cloud a SkyPilot catalog file belongs to, from its
// path: "lambda" for "catalogs/v7/lambda/vms.csv", and for a copy saved under
// the cloud's name, "lambda_vms.csv" or "lambda-vms.csv"; "" when the path says
// no cloud. readOfferFile sets it as the offers' Provider.
func skyPilotCloud(file string) string {
	file = strings.ReplaceAll(file, "\\", "/")
	dir, base := path.Split(file)
	dir = strings.TrimSuffix(dir, "/")
	for _, suffix := range [...]string{"_vms.csv", "-vms.csv"} {
		if cloud, ok := strings.CutSuffix(base, suffix); ok && cloud != "" {
			return cloud
		}
	}
	if base != "vms.csv" || dir == "" {
		return ""
	}
	return path.Base(dir)
}

// known splits offers into those of cards the catalog knows, by any name it
// reads (a name several boards share included), and those of cards it does not,
// left out with the catalog's reason (its closest names) before the planner sees
// them, so that they are reported as unknown, never as not fitting.
func (o options) known(offers []pricing.Offer) ([]pricing.Offer, []plan.Skipped) {
	var kept []pricing.Offer
	var unknown []plan.Skipped
	for _, off := range offers {
		if _, err := o.cat.Lookup(off.Card); errors.Is(err, catalog.ErrNotFound) {
			unknown = append(unknown, plan.Skipped{Offer: off, Reason: err.Error(), Err: err})
			continue
		}
		kept = append(kept, off)
	}
	return kept, unknown
}

// unknownCards is the error when no offer is of a card the catalog knows: each
// unknown card with the catalog's closest names, and how to add one.
func unknownCards(unknown []plan.Skipped, lang msg.Lang) error {
	var lines []string
	for _, sk := range unknown[:min(len(unknown), maxUnknownNames)] {
		lines = append(lines, text.OfferName(sk.Offer.Provider, sk.Offer.Region, sk.Offer.Card, "an offer", sk.Offer.Line)+": "+sk.Reason)
	}
	if len(unknown) > maxUnknownNames {
		lines = append(lines, lang.F("plan.unknown.more", len(unknown)-maxUnknownNames))
	}
	return fmt.Errorf("%s\n%s\n%s", lang.T("plan.unknown.none"), strings.Join(lines, "\n"), lang.T("cli.unknowncard"))
}

// maxUnknownNames is how many names of unknown cards the report lists before
// "…".
const maxUnknownNames = 8

// printSkipped writes the offers the planner left out: those of cards the
// catalog does not know as one line with their count and distinct names ("left
// out 3 offers of unknown cards: Gaudi2, …"), since a cloud's catalog holds many;
// each name with its line in the list (its first, for several offers); every
// other one on a line of its own with its line and the reason.
func printSkipped(w io.Writer, skipped []plan.Skipped, lang msg.Lang) {
	type card struct{ offers, line int }
	var names []string
	byName := map[string]*card{}
	n := 0
	for _, sk := range skipped {
		if errors.Is(sk.Err, catalog.ErrNotFound) {
			n++
			c := byName[sk.Offer.Card]
			if c == nil {
				c = &card{line: sk.Offer.Line}
				byName[sk.Offer.Card] = c
				names = append(names, sk.Offer.Card)
			}
			c.offers++
			continue
		}
		fmt.Fprintln(w, text.Wrap(lang.F("plan.skipped", sk.Offer.Provider, sk.Offer.Region, sk.Offer.Card, sk.Offer.Line, sk.Reason), 0, width, "  "))
	}
	if n > 0 {
		more := len(names) > maxUnknownNames
		names = names[:min(len(names), maxUnknownNames)]
		unknown := make([]string, len(names), len(names)+1)
		for i, name := range names {
			switch c := byName[name]; {
			case c.line == 0:
				unknown[i] = name
			case c.offers == 1:
				unknown[i] = lang.F("plan.unknown.line", name, c.line)
			default:
				unknown[i] = lang.F("plan.unknown.lines", name, c.offers, c.line)
			}
		}
		if more {
			unknown = append(unknown, "…")
		}
		fmt.Fprintln(w, text.Wrap(lang.F("plan.unknown.skipped", lang.N(n, "plan.n.unknownoffer"), strings.Join(unknown, lang.T("plan.list.sep"))), 0, width, "  "))
		fmt.Fprintf(w, "  %s\n", text.Wrap(lang.T("cli.unknowncard"), 2, width, "  "))
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w)
	}
}

// billing says what an option's prices are per and how many of those units it
// rents: "GPU" and its GPU count, or for an offer sold in instances "instance"
// and the instances, with the price per GPU derived from the instance's hourly
// price ("; USD 1.99 per GPU-hour"), exact or to six places with "≈".
func billing(o plan.Option, lang msg.Lang) (unit string, units int, perGPU string) {
	n := o.Offer.GPUsPerInstance
	if n <= 1 { // per GPU, or one-GPU instances: the same
		return "GPU", o.GPUs, ""
	}
	h := o.Offer.Tariff.Hourly
	if !h.IsPositive() {
		return "instance", o.GPUs / n, ""
	}
	q := h.DivRound(decimal.NewFromInt(int64(n)), 6)
	approx := ""
	if !q.Mul(decimal.NewFromInt(int64(n))).Equal(h) {
		approx = "≈"
	}
	perGPU = lang.F("plan.basis.pergpu", approx+lang.Price(pricing.Money{Amount: q, Currency: o.Offer.Tariff.Currency}))
	return "instance", o.GPUs / n, perGPU
}

// priceBasis writes after the best option's cost what its prices are per: " for 8
// GPUs (prices per GPU)", " for 2 instances of 8 GPUs (prices per instance; USD
// 1.99 per GPU-hour)"; empty for one GPU.
func priceBasis(o plan.Option, lang msg.Lang) string {
	unit, units, perGPU := billing(o, lang)
	if unit == "GPU" {
		if o.GPUs > 1 {
			return lang.F("plan.basis.gpus", o.GPUs)
		}
		return ""
	}
	return lang.F("plan.basis.instances", lang.N(units, "plan.n.instance"), o.Offer.GPUsPerInstance, perGPU)
}

// unitPrefix is the message costLine writes a line's unit with: "GPU-%s" for
// several GPUs priced per GPU, "instance-%s" for an offer sold in instances,
// "%s" otherwise.
func unitPrefix(o plan.Option) string {
	unit, units, _ := billing(o, msg.EN)
	if unit == "instance" {
		return "plan.unitprefix.instance"
	}
	if units > 1 {
		return "plan.unitprefix.gpu"
	}
	return "plan.unitprefix.none"
}

// instancePrefix is unitPrefix for one GPU's worth of an offer: the instance's
// when the offer is sold in instances of several GPUs, whose price is per
// instance.
func instancePrefix(o pricing.Offer) string {
	if o.GPUsPerInstance > 1 {
		return "plan.unitprefix.instance"
	}
	return "plan.unitprefix.none"
}
