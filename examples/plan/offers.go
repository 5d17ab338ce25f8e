package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

// The price-list formats are named in the report by the messages
// "plan.format."+pricelist.Format*.

// readOfferFile reads the -offers file in whichever format pricelist.ReadList
// recognises (the package's own CSV or JSON, a SkyPilot catalog vms.csv,
// vast.ai's offers JSON) and describes what it read for the report's "Offers:"
// line (report.PriceList). A list with no offer, a header alone, is an error
// naming the file.
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
	offers, source := report.PriceList(file, l, lang)
	if len(offers) == 0 {
		return nil, "", fmt.Errorf("%s", lang.F("plan.err.nooffers", file, lang.T("plan.format."+l.Format)))
	}
	return offers, source, nil
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
	for _, sk := range unknown[:min(len(unknown), report.MaxUnknownNames)] {
		lines = append(lines, text.OfferName(sk.Offer.Provider, sk.Offer.Region, sk.Offer.Card, "an offer", sk.Offer.Line)+": "+sk.Reason)
	}
	if len(unknown) > report.MaxUnknownNames {
		lines = append(lines, lang.F("plan.unknown.more", len(unknown)-report.MaxUnknownNames))
	}
	return fmt.Errorf("%s\n%s\n%s", lang.T("plan.unknown.none"), strings.Join(lines, "\n"), lang.T("cli.unknowncard"))
}

// printSkipped writes the offers the planner left out (report.Skipped), and
// after the line of offers of unknown cards how to add a card.
func printSkipped(w io.Writer, skipped []plan.Skipped, lang msg.Lang) {
	lines, unknown := report.Skipped(skipped, lang)
	for _, l := range lines {
		fmt.Fprintln(w, text.Wrap(l, 0, width, "  "))
	}
	if unknown {
		fmt.Fprintf(w, "  %s\n", text.Wrap(lang.T("cli.unknowncard"), 2, width, "  "))
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w)
	}
}
