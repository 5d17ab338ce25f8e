package main

import (
	"cmp"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// An image-generation or render job (-render) runs on one card: its memory comes
// from sizing.RenderMemory's table of published figures, not from a model of its
// parts, and it has no work to time, so it is priced for the rental asked for
// (-usage, or -per-day with -days; one hour without either). The offers whose
// card holds the high end of the job's memory range, less the headroom, are
// ranked by the rental's cost; interruption risk is not weighed.

// renderFlags are the flags a render job takes besides -render and -size.
var renderFlags = map[string]bool{"render": true, "size": true, "usage": true, "per-day": true, "days": true,
	"headroom": true, "budget": true, "offers": true, "limit": true, "json": true, "o": true, "lang": true, "wide": true, "catalog": true}

// parseSize reads -size: "1024" (a square) or "1920x1080" (width × height).
func parseSize(s string) (w, h int, err error) {
	ws, hs, two := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !two {
		hs = ws
	}
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err1 != nil || err2 != nil || w < 1 || h < 1 {
		return 0, 0, cli.Usagef("-size %q: want pixels, such as 1024 (a square) or 1920x1080", s)
	}
	return w, h, nil
}

// renderJob reads -render and -size; flags for a model's job are a usage error.
func (o options) renderJob() (sizing.RenderJob, error) {
	var job sizing.RenderJob
	for name := range o.set {
		if !renderFlags[name] {
			return job, cli.Usagef("-%s %s", name, o.lang.T("plan.err.render"))
		}
	}
	var err error
	if job.Kind, err = enumFlag(o.lang, "render", o.render, sizing.ParseRenderKind, "sd15, sdxl, flux1 or cycles"); err != nil {
		return job, err
	}
	if o.size != "" {
		if job.Width, job.Height, err = parseSize(o.size); err != nil {
			return job, err
		}
	}
	return job, nil
}

// renderOption is an offer that holds a render job, priced for the rental.
type renderOption struct {
	Offer    pricing.Offer `json:"-"`
	Provider string        `json:"provider"`
	Region   string        `json:"region"`
	Card     string        `json:"card"`    // as the price list names it
	CardID   string        `json:"card_id"` // the catalog's
	Line     int           `json:"line"`    // of the price list; zero when not from a file
	Capacity sizing.Bytes  `json:"capacity_bytes"`
	Usable   sizing.Bytes  `json:"usable_bytes"` // capacity less the headroom
	Cost     pricing.Quote `json:"cost"`
}

// jsonRender is what -json prints for a render job that fits.
type jsonRender struct {
	Job      sizing.RenderJob      `json:"job"`
	Memory   sizing.RenderEstimate `json:"memory"`
	Headroom float64               `json:"headroom"`
	Rental   pricing.Usage         `json:"rental"`
	Currency string                `json:"currency"`
	Skipped  []jsonSkipped         `json:"skipped"`
	Options  []renderOption        `json:"options"`
}

// executeRender plans a render job: exit 0 with options, 1 when no card holds it.
func (o options) executeRender(w io.Writer) (int, error) {
	job, err := o.renderJob()
	if err != nil {
		return exitUsage, err
	}
	est, err := sizing.RenderMemory(job)
	if err != nil {
		return exitUsage, cli.Usagef("-render %s -size %s: %v", o.render, o.size, err)
	}
	r, err := o.request() // the rental, budget and headroom, as for a model's job
	if err != nil {
		return exitFail, err
	}
	rental := r.Rental
	switch {
	case rental != (pricing.Usage{}):
	case r.Usage > 0:
		rental = pricing.Continuous(r.Usage)
	default:
		rental = pricing.Continuous(plan.DefaultDemoHour)
	}
	headroom := o.headroom
	if headroom == 0 {
		headroom = plan.DefaultHeadroom
	}
	offers, source, err := o.loadOffers()
	if err != nil {
		return exitFail, err
	}
	cat := o.cat
	var opts []renderOption
	var skipped []jsonSkipped
	var smaller []string // cards too small, for the no-fit report
	currency := ""
	for _, off := range offers {
		skip := func(reason string) {
			skipped = append(skipped, jsonSkipped{Provider: off.Provider, Region: off.Region, Card: off.Card, Line: off.Line, Reason: reason})
		}
		card, err := cat.Lookup(off.Card)
		if err != nil {
			skip(err.Error())
			continue
		}
		usable, err := sizing.Usable(card.Memory, headroom)
		if err != nil {
			return exitFail, err
		}
		if usable < est.Memory {
			smaller = append(smaller, fmt.Sprintf("%s %s: %s usable of %s", off.Provider, card.Name, usable.Human(), card.Memory.Human()))
			continue
		}
		q, err := off.Tariff.Price(rental, 1)
		if err != nil {
			skip(err.Error())
			continue
		}
		if currency == "" {
			currency = q.Total.Currency
		} else if q.Total.Currency != currency {
			return exitFail, fmt.Errorf("%s", o.lang.F("plan.err.rendercurrency", currency, q.Total.Currency))
		}
		if !r.Budget.Amount.IsZero() && q.Total.Amount.GreaterThan(r.Budget.Amount) {
			smaller = append(smaller, o.lang.F("plan.render.overbudget", off.Provider, card.Name, o.lang.Money(q.Total)))
			continue
		}
		opts = append(opts, renderOption{Offer: off, Provider: off.Provider, Region: off.Region, Card: off.Card, CardID: card.ID,
			Line: off.Line, Capacity: card.Memory, Usable: usable, Cost: q})
	}
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].Cost.Total.Amount.LessThan(opts[j].Cost.Total.Amount) })
	if len(opts) == 0 {
		why := o.lang.F("plan.render.nofit", renderName(o.lang, job.Kind), renderSize(o.lang, job), est.Memory.Human(), headroom*100)
		if o.json {
			why = msg.EN.F("plan.render.nofit", renderName(msg.EN, job.Kind), renderSize(msg.EN, job), est.Memory.Human(), headroom*100)
			return exitFail, writeJSON(w, report.ErrorJSON{Error: "plan: no option fits: " + why, NoFit: true, Reasons: append([]string{}, smaller...), Suggestions: []string{}})
		}
		describeRender(w, job, est, headroom, rental, source, o.lang)
		fmt.Fprintln(w, text.Wrap(o.lang.F("plan.render.nofitline", why), 0, width, "  "))
		for _, s := range smaller {
			fmt.Fprintf(w, "  - %s\n", text.Wrap(s, 4, width, "    "))
		}
		return exitFail, nil
	}
	all := len(opts)
	if limit := cmp.Or(o.limit, plan.DefaultLimit); limit > 0 && len(opts) > limit {
		opts = opts[:limit]
	}
	if o.json {
		return exitOK, writeJSON(w, jsonRender{Job: job, Memory: est, Headroom: headroom, Rental: rental, Currency: currency,
			Skipped: append([]jsonSkipped{}, skipped...), Options: opts})
	}
	describeRender(w, job, est, headroom, rental, source, o.lang)
	fmt.Fprintf(w, "%s\n\n", text.Wrap(o.lang.F("plan.render.fit", all, len(offers), len(opts)), 0, width, ""))
	for _, sk := range skipped {
		fmt.Fprintln(w, text.Wrap(o.lang.F("plan.skipped", sk.Provider, sk.Region, sk.Card, sk.Line, sk.Reason), 0, width, "  "))
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w)
	}
	t := text.Table{Indent: "  ", Align: []text.Align{text.Right, text.Left, text.Left, text.Left, text.Right, text.Right, text.Right}}
	if !o.wide {
		t.Max = []int{0, 16, 16, 18}
	}
	t.Row("#", o.lang.T("plan.col.provider"), o.lang.T("plan.col.region"), o.lang.T("plan.col.card"), o.lang.T("plan.render.memory"),
		o.lang.T("plan.col.free"), o.lang.T("plan.col.servecost")+o.lang.F("plan.col.currency", o.lang.Currency(currency)))
	for i, op := range opts {
		free := 100 * (1 - float64(est.Memory)/float64(op.Capacity))
		t.Row(strconv.Itoa(i+1), op.Provider, op.Region, op.Card, op.Capacity.Human(), fmt.Sprintf("%.0f%%", free), msg.Amount(op.Cost.Total))
	}
	if err := t.Write(w); err != nil {
		return exitFail, err
	}
	best := opts[0]
	fmt.Fprintf(w, "\n%s\n  %s%s", o.lang.F("plan.render.best", report.OfferName(best.Offer), o.view(source).report().BestCard(plan.Option{Offer: best.Offer, CardID: best.CardID})),
		o.lang.T("plan.best.cost"), o.lang.Money(best.Cost.Total))
	for _, l := range best.Cost.Lines {
		if line := report.CostLine(l, report.InstancePrefix(best.Offer), o.lang); line != "" {
			fmt.Fprintf(w, "; %s", line)
		}
	}
	fmt.Fprintln(w)
	if best.Offer.Notes != "" {
		detail(w, o.lang.T("plan.best.note")+best.Offer.Notes)
	}
	return exitOK, nil
}

// renderSize writes a job's size: "1024×1024", or "the reference size".
func renderSize(l msg.Lang, job sizing.RenderJob) string {
	if job.Width == 0 {
		return l.T("plan.render.refsize")
	}
	return fmt.Sprintf("%d×%d", job.Width, job.Height)
}

// describeRender heads a render job's report: the job, its memory and where the
// figure comes from, the rental priced and the offers.
func describeRender(w io.Writer, job sizing.RenderJob, est sizing.RenderEstimate, headroom float64, rental pricing.Usage, source string, lang msg.Lang) {
	need := est.Range.String()
	if est.AtLeast {
		need = lang.F("plan.render.andup", est.Range.Low.Human())
	}
	field(w, lang.T("plan.label.job"), lang.F("plan.render.job", renderName(lang, job.Kind), renderSize(lang, job), need, est.Memory.Human(), headroom*100))
	field(w, lang.T("plan.label.memory"), lang.F("plan.render.source", est.Source))
	var r string
	switch {
	case rental.Days > 0:
		r = lang.F("plan.render.sessions", lang.Dur(rental.PerDay), lang.N(rental.Days, "plan.n.day"))
	case rental.Duration == plan.DefaultDemoHour:
		r = lang.F("plan.render.demo", lang.Dur(rental.Duration))
	default:
		r = lang.F("plan.render.usage", lang.Dur(rental.Duration))
	}
	field(w, lang.T("plan.label.rental"), r)
	field(w, lang.T("plan.label.offers"), source)
	fmt.Fprintln(w)
}

// renderName names a render kind for people.
func renderName(l msg.Lang, k sizing.RenderKind) string {
	switch k {
	case sizing.StableDiffusion15:
		return l.T("plan.render.sd15")
	case sizing.SDXL:
		return l.T("plan.render.sdxl")
	case sizing.FLUX1:
		return l.T("plan.render.flux1")
	case sizing.Cycles:
		return l.T("plan.render.cycles")
	}
	return k.String()
}
