// Command breakeven works out what one GPU costs in a month against the hours it
// is used that month, for three ways of renting it: by the hour, by the day and by
// the month, and where they cross, which is the question the second seed article
// leaves to the reader: rent short first, and commit to a package only when the
// usage is known to be high enough. It prints the break-even points and a table
// of costs; -o FILE draws them as an SVG chart, -json prints them as JSON.
//
//	go run ./examples/breakeven
//	go run ./examples/breakeven -o breakeven.svg
//	go run ./examples/breakeven -hourly 2.49 -daily 50 -monthly 1300 -currency USD -hours-per-month 720
//
// The default prices are a sample (¥18 an hour, ¥300 a day, ¥9000 a month, a
// 730-hour month), not a provider's quote; the chart says which prices are
// samples, and so does -h.
//
// Every cost on the chart comes from pricing.Tariff.Cost, and the crossings from
// Tariff.BreakEven and Tariff.BreakEvenFor. The daily line assumes the hours of
// the month are used as whole days of 24 hours, one after another, so that u
// hours need ⌈u/24⌉ daily packages (a day partly used is paid in full). A fourth,
// dashed line is the cheapest mix of all three for a continuous run of u hours,
// as Tariff.Cost chooses it.
//
// The SVG is written by hand with the standard library, and is deterministic: the
// same flags give the same bytes.
//
// Exit status: 0 when the figures are printed (or with -h), 1 when the chart file
// cannot be written, 2 for a usage error (a bad flag or price). Run with -h for
// every flag.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

func main() {
	os.Exit(cli.Main("breakeven", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// run is the command: it writes the chart (or the -h text) to w.
func run(w io.Writer, args []string, lang msg.Lang) error {
	l := cli.LangOf(args, lang) // the words of the flags and the output
	fs := cli.FlagSet("breakeven")
	hourly := fs.String("hourly", "18", l.T("breakeven.flag.hourly"))
	daily := fs.String("daily", "300", l.T("breakeven.flag.daily"))
	monthly := fs.String("monthly", "9000", l.T("breakeven.flag.monthly"))
	currency := fs.String("currency", "CNY", l.T("breakeven.flag.currency"))
	hoursPerMonth := fs.Int("hours-per-month", pricing.DefaultHoursPerMonth, l.T("breakeven.flag.hours-per-month"))
	out := fs.String("o", "", l.T("breakeven.flag.o"))
	asJSON := fs.Bool("json", false, l.T("breakeven.flag.json"))
	cli.LangFlag(fs, &l)
	// The sample prices are the defaults: a price whose flag is not given is
	// still a sample, whatever the currency or the month.
	given, err := cli.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		cli.Usage(w, fs, l.T("breakeven.usage"), l)
	}
	if err != nil {
		return err
	}
	var samples []string
	for _, name := range []string{"hourly", "daily", "monthly"} {
		if !given[name] {
			samples = append(samples, name)
		}
	}

	// Each flag is checked on its own, so that an error names the flag at fault.
	if err := pricing.ValidCurrency(*currency); err != nil {
		return cli.Usagef("-currency %s: want a three-letter ISO 4217 code such as USD or CNY", text.Quote(*currency, 80))
	}
	if h := *hoursPerMonth; h < 672 || h > 744 {
		return cli.Usagef("-hours-per-month %d: want 672 to 744 (a month of 28 to 31 days)", h)
	}
	t := pricing.Tariff{Currency: *currency, HoursPerMonth: *hoursPerMonth}
	for _, p := range []struct {
		name string
		text string
		dst  *decimal.Decimal
	}{{"hourly", *hourly, &t.Hourly}, {"daily", *daily, &t.Daily}, {"monthly", *monthly, &t.Monthly}} {
		if p.name == "daily" && p.text == "none" {
			continue // no daily package: the tariff leaves it zero
		}
		amount, err := pricelist.ParsePrice(p.name, p.text, *currency)
		if err == nil {
			_, err = pricing.NewMoney(amount.String(), *currency) // bounds the exponent
		}
		if err != nil || amount.Sign() <= 0 {
			want := "want a positive price such as 2.49, or as a price list writes it: ¥1.98, 1.98元/小时"
			if p.name == "daily" {
				want += ", or none"
			}
			return cli.Usagef("-%s %s: %s", p.name, text.Cut(p.text, 40), want)
		}
		*p.dst = amount
	}
	if err := t.Validate(); err != nil {
		return cli.Usagef("%v", err) // each flag passed its own check: a combination the tariff refuses
	}

	c, err := newChart(t, samples, l)
	if err != nil {
		return err
	}
	if *asJSON {
		err = cli.WriteJSON(w, c.json())
	} else {
		err = c.text(w, *out)
	}
	if err == nil && *out != "" {
		err = cli.WriteFile(*out, []byte(c.svg()))
	}
	return err
}

// tableHours are the hours of use a month the text's table prices, and then the
// whole month.
var tableHours = []int{50, 100, 200, 300, 400, 500, 600}

// rows are the hours the table prices: tableHours within the month, and the month.
func (c *chart) rows() []int {
	var hs []int
	for _, h := range tableHours {
		if h < c.hours {
			hs = append(hs, h)
		}
	}
	return append(hs, c.hours)
}

// text writes the prices, the break-even points in words and a table of what
// each way of renting costs at a few hours of use a month; chart is the -o file,
// named at the end (empty: the flag that draws it).
func (c *chart) text(w io.Writer, chart string) error {
	l := c.lang
	fmt.Fprintln(w, text.Wrap(c.prices(), 0, 100, "  "))
	fmt.Fprintln(w, text.Wrap(l.F("breakeven.source", c.source()), 0, 100, "  "))
	for _, warn := range c.warnings {
		fmt.Fprintln(w, text.Wrap(l.F("breakeven.warning", warn), 0, 100, "  "))
	}
	fmt.Fprintln(w)
	if len(c.marks) > 0 || len(c.nevers) > 0 {
		fmt.Fprintln(w, l.T("breakeven.marks"))
		for _, m := range c.marks {
			fmt.Fprintf(w, "  %s\n", text.Wrap(m.long, 2, 100, "    "))
		}
		for _, n := range c.nevers {
			fmt.Fprintf(w, "  %s\n", text.Wrap(n, 2, 100, "    "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s\n\n", l.F("breakeven.table", l.Currency(c.t.Currency)))
	t := text.Table{Indent: "  ", Align: []text.Align{text.Right, text.Right, text.Right, text.Right, text.Right}}
	header := []string{l.T("breakeven.col.hours")}
	for _, s := range c.lines {
		header = append(header, l.T("breakeven.col."+s.key))
	}
	t.Row(header...)
	for _, h := range c.rows() {
		row := []string{strconv.Itoa(h)}
		for _, s := range c.lines {
			row = append(row, s.cost[h].StringFixed(pricing.MinorUnit(c.t.Currency)))
		}
		t.Row(row...)
	}
	if err := t.Write(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, n := range c.assumptions(true) {
		fmt.Fprintln(w, text.Wrap(n, 0, 100, "  "))
	}
	var err error
	if chart == "" {
		_, err = fmt.Fprintln(w, l.T("breakeven.drawchart"))
	} else {
		_, err = fmt.Fprintln(w, l.F("breakeven.chart", chart))
	}
	return err
}

// jsonChart is what -json prints: the prices, the break-even points and the
// cost of each way of renting at the table's hours.
type jsonChart struct {
	Currency      string          `json:"currency"`
	Hourly        decimal.Decimal `json:"hourly"`
	Daily         decimal.Decimal `json:"daily"` // zero: no day package
	Monthly       decimal.Decimal `json:"monthly"`
	HoursPerMonth int             `json:"hours_per_month"`
	Samples       []string        `json:"sample_prices"` // the prices left at their SAMPLE defaults
	Warnings      []string        `json:"warnings"`      // packages priced below a shorter one
	BreakEven     []jsonMark      `json:"break_even"`
	Costs         []jsonCosts     `json:"costs"`
}

// jsonMark is a break-even point.
type jsonMark struct {
	Hours float64         `json:"hours"` // of use in the month
	Cost  decimal.Decimal `json:"cost"`
	Text  string          `json:"text"`
}

// jsonCosts is what each way of renting costs for Hours of use in the month, by
// the line's name.
type jsonCosts struct {
	Hours int                        `json:"hours"`
	Cost  map[string]decimal.Decimal `json:"cost"`
}

func (c *chart) json() jsonChart {
	j := jsonChart{Currency: c.t.Currency, Hourly: c.t.Hourly, Daily: c.t.Daily, Monthly: c.t.Monthly,
		HoursPerMonth: c.hours, Samples: append([]string{}, c.samples...), Warnings: append([]string{}, c.warnings...), BreakEven: []jsonMark{}}
	for _, m := range c.marks {
		j.BreakEven = append(j.BreakEven, jsonMark{Hours: m.hours, Cost: m.cost, Text: m.long})
	}
	for _, h := range c.rows() {
		row := jsonCosts{Hours: h, Cost: map[string]decimal.Decimal{}}
		for _, s := range c.lines {
			row.Cost[s.key] = s.cost[h]
		}
		j.Costs = append(j.Costs, row)
	}
	return j
}

// series is one line of the chart: the monthly cost at each whole hour of use.
type series struct {
	key    string // in -json: hourly, daily, monthly, cheapest
	name   string
	color  string
	dashed bool
	cost   []decimal.Decimal // cost[u]: u hours of use in the month
}

// mark is a break-even point: two ways of renting cost the same at Hours.
type mark struct {
	hours float64
	cost  decimal.Decimal
	short string // on the chart, beside the point
	long  string // in the list under the chart
}

type chart struct {
	lang     msg.Lang
	warnings []string // packages priced below a shorter one
	t        pricing.Tariff
	samples  []string // the prices left at their sample defaults: "hourly", "daily", "monthly"
	hours    int      // the month, in hours: the x axis runs from 0 to hours
	lines    []series
	marks    []mark
	nevers   []string // the break-even points outside the chart: a package that never pays against hourly use
}

// newChart prices every whole hour of the month under each way of renting and
// finds the break-even points.
func newChart(t pricing.Tariff, samples []string, lang msg.Lang) (*chart, error) {
	hours := t.HoursPerMonth
	if hours == 0 {
		hours = pricing.DefaultHoursPerMonth
	}
	c := &chart{t: t, samples: samples, hours: hours, lang: lang}
	l := lang
	c.warnings = c.inverted()

	// One tariff per way of renting: the same prices with the others left out, so
	// that Cost can only use that package (and hourly time for the hourly line).
	only := func(hourly, daily, monthly bool) pricing.Tariff {
		u := pricing.Tariff{Currency: t.Currency, HoursPerMonth: t.HoursPerMonth}
		if hourly {
			u.Hourly = t.Hourly
		}
		if daily {
			u.Daily = t.Daily
		}
		if monthly {
			u.Monthly = t.Monthly
		}
		return u
	}
	type way struct {
		key    string
		name   string
		color  string
		dashed bool
		tariff pricing.Tariff
	}
	ways := []way{{"hourly", l.T("breakeven.line.hourly"), "#1f77b4", false, only(true, false, false)}}
	if t.Daily.Sign() > 0 {
		ways = append(ways, way{"daily", l.T("breakeven.line.daily"), "#ff7f0e", false, only(false, true, false)})
	}
	ways = append(ways, way{"monthly", l.T("breakeven.line.monthly"), "#2ca02c", false, only(false, false, true)},
		way{"cheapest", l.T("breakeven.line.cheapest"), "#555555", true, t})
	for _, s := range ways {
		line := series{key: s.key, name: s.name, color: s.color, dashed: s.dashed, cost: make([]decimal.Decimal, hours+1)}
		for u := 0; u <= hours; u++ {
			q, err := s.tariff.Cost(time.Duration(u) * time.Hour)
			if err != nil {
				return nil, err
			}
			line.cost[u] = q.Total.Amount
		}
		if s.key == "monthly" {
			// A monthly package is paid whatever the use, even none.
			line.cost[0] = line.cost[1]
		}
		c.lines = append(c.lines, line)
	}

	// Hourly against the daily package, within one day: BreakEvenFor(Daily).
	if t.Daily.Sign() > 0 {
		day, err := t.BreakEvenFor(pricing.Daily)
		if err != nil {
			return nil, err
		}
		if day <= 24*time.Hour {
			c.marks = append(c.marks, mark{day.Hours(), t.Daily, l.F("breakeven.mark.day", hoursText(l, day)),
				l.F("breakeven.long.day", hoursText(l, day), c.money(t.Daily))})
		} else {
			c.nevers = append(c.nevers, l.F("breakeven.never.day", c.money(t.Daily), c.cost(c.lines[0].cost[24])))
		}
	}
	// Hourly against the monthly package: BreakEven.
	month, err := t.BreakEven()
	if err != nil {
		return nil, err
	}
	if month.Hours() <= float64(hours) {
		c.marks = append(c.marks, mark{month.Hours(), t.Monthly, hoursText(l, month),
			l.F("breakeven.long.month", hoursText(l, month), c.money(t.Monthly))})
	} else {
		c.nevers = append(c.nevers, l.F("breakeven.never.month", c.money(t.Monthly), hours, c.cost(c.lines[0].cost[hours])))
	}
	// Whole days against the monthly package: the month wins once the days bought
	// cost more than it, after ⌊monthly/daily⌋ days.
	var days int64
	if t.Daily.Sign() > 0 {
		q, _ := t.Monthly.QuoRem(t.Daily, 0) // whole days, exact, whatever decimal's DivisionPrecision
		days = q.IntPart()
	}
	if h := 24 * days; days >= 1 && h < int64(hours) {
		c.marks = append(c.marks, mark{float64(h), t.Daily.Mul(decimal.NewFromInt(days)), l.F("breakeven.hours.whole", float64(h)),
			l.F("breakeven.long.days", h, days, c.money(t.Monthly), c.money(t.Daily))})
	}
	return c, nil
}

// Layout of the drawing, in SVG user units.
const (
	width, height     = 900.0, 640.0
	left, right       = 90.0, 30.0
	top, bottom       = 60.0, 200.0
	plotW, plotH      = width - left - right, height - top - bottom
	xTickHours        = 100
	yTicksWanted      = 7
	gridColor         = "#dddddd"
	markColor         = "#d62728"
	legendX, legendY  = left + 16, top + 14
	legendRowHeight   = 18.0
	legendSwatchWidth = 26.0
)

func (c *chart) svg() string {
	yStep := svg.NiceStep(c.maxCost() / yTicksWanted)
	yTicks := int(math.Ceil(c.maxCost() / yStep))
	yMax := float64(yTicks) * yStep
	x := func(h float64) float64 { return left + h/float64(c.hours)*plotW }
	y := func(v float64) float64 { return top + plotH - v/yMax*plotH }

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	svg.Start(&b, width, height)
	l := c.lang
	title := l.T("breakeven.svg.title")
	switch len(c.samples) {
	case 0:
	case 3:
		title += l.T("breakeven.svg.sample")
	default:
		title += l.T("breakeven.svg.partly")
	}
	p(`<text x="%g" y="28" font-size="18" font-weight="bold">%s</text>`, left, svg.Esc(title))
	p(`<text x="%g" y="46" fill="#444444">%s</text>`, left, svg.Esc(c.prices()))

	// Grid, ticks and tick labels.
	p(`<g stroke="%s" stroke-width="1">`, gridColor)
	for i := 0; i <= yTicks; i++ {
		v := float64(i) * yStep
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, left, y(v), left+plotW, y(v))
	}
	for h := 0; h <= c.hours; h += xTickHours {
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(float64(h)), top, x(float64(h)), top+plotH)
	}
	p(`</g>`)
	p(`<g stroke="black" stroke-width="1">`)
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, left, top+plotH, left+plotW, top+plotH)
	p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, left, top, left, top+plotH)
	for i := 0; i <= yTicks; i++ {
		v := float64(i) * yStep
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, left-5, y(v), left, y(v))
	}
	for h := 0; h <= c.hours; h += xTickHours {
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, x(float64(h)), top+plotH, x(float64(h)), top+plotH+5)
	}
	p(`</g>`)
	p(`<g text-anchor="end">`)
	for i := 0; i <= yTicks; i++ {
		v := float64(i) * yStep
		p(`<text x="%.1f" y="%.1f">%s</text>`, left-8, y(v)+4, svg.Esc(c.moneyText(strconv.FormatFloat(v, 'f', -1, 64))))
	}
	p(`</g>`)
	p(`<g text-anchor="middle">`)
	for h := 0; h <= c.hours; h += xTickHours {
		p(`<text x="%.1f" y="%.1f">%d</text>`, x(float64(h)), top+plotH+20, h)
	}
	p(`</g>`)
	p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, left+plotW/2, top+plotH+42, svg.Esc(l.F("breakeven.svg.x", c.hours)))
	p(`<text transform="translate(22 %.1f) rotate(-90)" text-anchor="middle">%s</text>`, top+plotH/2, svg.Esc(l.F("breakeven.svg.y", c.t.Currency)))

	// The lines, clipped to the plot.
	p(`<clipPath id="plot"><rect x="%g" y="%g" width="%g" height="%g"/></clipPath>`, left, top, plotW, plotH)
	p(`<g fill="none" stroke-width="2" stroke-linejoin="round" clip-path="url(#plot)">`)
	for _, s := range c.lines {
		var pts []string
		for _, u := range corners(s.cost) {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(float64(u)), y(s.cost[u].InexactFloat64())))
		}
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="6 4" stroke-width="1.5"`
		}
		p(`<polyline stroke="%s"%s points="%s"/>`, s.color, dash, strings.Join(pts, " "))
	}
	p(`</g>`)

	// Break-even points, each with a dotted drop line to the hours axis and a label.
	for i, m := range c.marks {
		mx, my := x(m.hours), y(m.cost.InexactFloat64())
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-dasharray="2 3"/>`, mx, my, mx, top+plotH, markColor)
		p(`<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"/>`, mx, my, markColor)
		// Short labels sit above the point: right of it on the left half of the
		// plot, left of it otherwise. The first mark, near the origin where the
		// lines crowd, goes a row higher.
		anchor, dx := "start", 8.0
		if mx > left+plotW/2 {
			anchor, dx = "end", -8.0
		}
		ly := my - 10
		if i == 0 {
			ly -= 34
		}
		p(`<text x="%.1f" y="%.1f" text-anchor="%s" fill="%s">%s</text>`, mx+dx, ly, anchor, markColor, svg.Esc(m.short))
	}

	// Legend.
	n := float64(len(c.lines) + 1)
	p(`<rect x="%g" y="%g" width="250" height="%g" fill="white" fill-opacity="0.9" stroke="#999999"/>`,
		legendX-8, legendY-12, n*legendRowHeight+6)
	for i, s := range c.lines {
		ly := legendY + float64(i)*legendRowHeight
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s" stroke-width="2"%s/>`, legendX, ly, legendX+legendSwatchWidth, ly, s.color, dash)
		p(`<text x="%g" y="%.1f">%s</text>`, legendX+legendSwatchWidth+8, ly+4, svg.Esc(s.name))
	}
	ly := legendY + float64(len(c.lines))*legendRowHeight
	p(`<circle cx="%g" cy="%.1f" r="4.5" fill="%s"/>`, legendX+legendSwatchWidth/2, ly, markColor)
	p(`<text x="%g" y="%.1f">%s</text>`, legendX+legendSwatchWidth+8, ly+4, svg.Esc(l.T("breakeven.svg.point")))

	// Under the chart: the break-even points in words, then where the prices come
	// from and what each line assumes.
	var notes []string
	if len(c.marks) > 0 || len(c.nevers) > 0 {
		notes = append(notes, l.T("breakeven.marks"))
		for _, m := range c.marks {
			notes = append(notes, "• "+m.long)
		}
		for _, n := range c.nevers {
			notes = append(notes, "• "+n)
		}
	}
	notes = append(notes, l.F("breakeven.source", c.source()))
	notes = append(notes, c.assumptions(false)...)
	for i, line := range notes {
		p(`<text x="%g" y="%.1f" font-size="12" fill="#333333">%s</text>`, left, top+plotH+66+float64(i)*16, svg.Esc(line))
	}
	p(`</svg>`)
	return b.String()
}

// inverted warns of each package that costs less than a shorter one: a day for
// less than an hour, a month for less than a day. Such prices are most often a
// slip (a daily price typed as hourly); the chart is drawn as they are.
func (c *chart) inverted() []string {
	type pkg struct {
		name  string
		price decimal.Decimal
	}
	l := c.lang
	pkgs := []pkg{{l.T("breakeven.pkg.hour"), c.t.Hourly}}
	if c.t.Daily.Sign() > 0 {
		pkgs = append(pkgs, pkg{l.T("breakeven.pkg.day"), c.t.Daily})
	}
	pkgs = append(pkgs, pkg{l.T("breakeven.pkg.month"), c.t.Monthly})
	var out []string
	for i, longer := range pkgs {
		for _, shorter := range pkgs[:i] {
			if longer.price.LessThan(shorter.price) {
				out = append(out, l.F("breakeven.inverted", longer.name, c.money(longer.price), shorter.name, c.money(shorter.price)))
			}
		}
	}
	return out
}

// assumptions say how each line is priced, a paragraph each; unless wrapped
// (the chart, which cannot wrap text, draws them) the daily paragraph comes in
// two lines.
func (c *chart) assumptions(wrapped bool) []string {
	l := c.lang
	notes := []string{l.T("breakeven.note.costs")}
	if c.t.Daily.Sign() > 0 {
		if wrapped {
			return append(notes, l.T("breakeven.note.daily1")+l.T("breakeven.note.join")+l.T("breakeven.note.daily2"))
		}
		return append(notes, l.T("breakeven.note.daily1"), l.T("breakeven.note.daily2"))
	}
	return append(notes, l.T("breakeven.note.nodaily"))
}

// prices says what one GPU costs by the hour, the day and the month.
func (c *chart) prices() string {
	l := c.lang
	day := l.F("breakeven.perday", c.money(c.t.Daily))
	if c.t.Daily.Sign() == 0 {
		day = l.T("breakeven.noday")
	}
	return l.F("breakeven.prices", c.money(c.t.Hourly), day, c.money(c.t.Monthly), c.hours)
}

// source says where the prices come from: "SAMPLE prices ...", "as given on
// the command line.", or, when only some were given, which are samples.
func (c *chart) source() string {
	l := c.lang
	switch len(c.samples) {
	case 0:
		return l.T("breakeven.source.given")
	case 3:
		return l.T("breakeven.source.sample")
	}
	var given, samples []string
	for _, name := range []string{"hourly", "daily", "monthly"} {
		if !slices.Contains(c.samples, name) {
			given = append(given, l.T("breakeven.price."+name))
		} else {
			samples = append(samples, l.T("breakeven.price."+name))
		}
	}
	g, sm := strings.Join(given, l.T("breakeven.and")), strings.Join(samples, l.T("breakeven.and"))
	if len(samples) > 1 {
		return l.F("breakeven.source.partlymany", g, sm)
	}
	return l.F("breakeven.source.partly", g, sm)
}

// maxCost is the highest cost on any line.
func (c *chart) maxCost() float64 {
	m := 0.0
	for _, s := range c.lines {
		for _, v := range s.cost {
			m = max(m, v.InexactFloat64())
		}
	}
	return m
}

// money formats an amount for a label: "¥9000", "$2.49", "CHF 12".
func (c *chart) money(d decimal.Decimal) string { return c.moneyText(d.String()) }

// cost formats a computed amount to the currency's minor unit: "¥5825.40".
func (c *chart) cost(d decimal.Decimal) string {
	return c.moneyText(d.StringFixed(pricing.MinorUnit(c.t.Currency)))
}

// moneyText puts the currency's sign before an amount written as text.
func (c *chart) moneyText(amount string) string {
	switch c.t.Currency {
	case "CNY", "JPY":
		return "¥" + amount
	case "USD":
		return "$" + amount
	case "EUR":
		return "€" + amount
	case "GBP":
		return "£" + amount
	}
	return c.t.Currency + " " + amount
}

// corners returns the hours at which a line changes slope, with both ends, so
// that straight runs are drawn as one segment. The test is exact: the costs are
// decimals.
func corners(cost []decimal.Decimal) []int {
	out := []int{0}
	for u := 1; u < len(cost)-1; u++ {
		before := cost[u].Sub(cost[u-1])
		after := cost[u+1].Sub(cost[u])
		if !before.Equal(after) {
			out = append(out, u)
		}
	}
	return append(out, len(cost)-1)
}

// hoursText prints a duration in hours with one decimal where it has a fraction:
// "500 h", "16.7 h".
func hoursText(l msg.Lang, d time.Duration) string {
	h := d.Hours()
	if d%time.Hour == 0 {
		return l.F("breakeven.hours.whole", h)
	}
	return l.F("breakeven.hours.frac", h)
}
