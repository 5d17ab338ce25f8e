// Package report holds what the plan command and the web page say about a
// plan, so that both say it alike: the options table's columns and cells
// (Options), the best option's heading and the lines that explain it (Best),
// and the names of cards, offers, tasks and layouts, each in the reader's
// language (internal/msg). The command writes them as text, the page as HTML.
package report

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/gpuplan/gpuplan/sizing"
)

// View is how a plan is reported: its language, whether the options table has
// every column (Wide) or those that fit a 100-column terminal, and the catalog
// that names the cards.
type View struct {
	Lang msg.Lang
	Wide bool
	Cat  *catalog.Catalog
	// Percentile is the share of requests a service's latency targets hold
	// for (plan.Traffic.Percentile), the statistic of each option's load the
	// report shows; zero: the mean.
	Percentile float64
}

// Pick returns the statistic of p the view shows: the percentile of its
// traffic's targets, or the mean.
func (v View) Pick(p compute.Percentiles) time.Duration {
	switch v.Percentile {
	case 0.5:
		return p.P50
	case 0.9:
		return p.P90
	case 0.99:
		return p.P99
	}
	return p.Mean
}

// pctName names the statistic the view shows: "p99", or in Chinese "P99";
// "mean" (均值) for the mean.
func (v View) pctName() string {
	if v.Percentile > 0 {
		return v.Lang.F("plan.serve.pct", v.Percentile*100)
	}
	return v.Lang.T("plan.serve.mean")
}

// CardName is the catalog's name for a card ID, as users know the card.
func (v View) CardName(id string) string {
	if card, err := v.Cat.Lookup(id); err == nil {
		return card.Name
	}
	return id
}

// BestCard names an option's card for the best option's line: the price list's
// name, and the catalog's card it denotes when that differs ("RTX 4090 (GeForce
// RTX 4090)").
func (v View) BestCard(o plan.Option) string {
	name := v.CardName(o.CardID)
	card := strings.TrimSpace(o.Offer.Card)
	switch {
	case card == "":
		return name
	case strings.EqualFold(card, name):
		return card
	}
	return v.Lang.F("plan.card.both", card, name)
}

// OfferName names an offer in the report: "provider/region" as the price list
// writes them.
func OfferName(o pricing.Offer) string {
	if o.Region == "" {
		return o.Provider
	}
	return o.Provider + "/" + o.Region
}

// TaskName names a task for the report: "lora"; in Chinese "LoRA 微调".
func TaskName(l msg.Lang, t sizing.Task) string { return l.T("plan.task." + t.String()) }

// LayoutName describes a parallel layout for the report: plan.DescribeLayout's
// words, or their Chinese.
func LayoutName(l msg.Lang, p sizing.Parallel) string {
	if l == msg.EN {
		return plan.DescribeLayout(p)
	}
	var parts []string
	switch {
	case p.Tensor > 1:
		parts = append(parts, l.F("plan.layout.tensor", p.Tensor))
		if p.Data > 1 {
			parts = append(parts, l.F("plan.layout.data", p.Data))
		}
	case p.Pipeline > 1:
		parts = append(parts, l.F("plan.layout.pipeline", p.Pipeline))
	case p.Data > 1:
		parts = append(parts, l.F("plan.layout.data", p.Data))
	default:
		parts = append(parts, l.T("plan.layout.one"))
	}
	if p.ZeRO > 0 {
		parts = append(parts, fmt.Sprintf("ZeRO-%d", p.ZeRO))
	}
	if p.OffloadOptimizer {
		parts = append(parts, l.T("plan.layout.offload"))
	}
	return strings.Join(parts, l.T("plan.list.sep"))
}

// Job describes a job for the report's head: the model, its size, the task and
// precision, with where the precision came from (why, a message such as
// "plan.why.default"; "" says nothing), and the sequences per replica
// (inference) or the micro-batch per GPU and the recomputation (training).
func Job(r plan.Request, l msg.Lang, why string) string {
	m, wl := r.Model, r.Workload
	if why != "" {
		why = l.T(why)
	}
	job := l.F("plan.job", m.Name, l.Tokens(float64(m.ParamCount())), TaskName(l, wl.Task), wl.Precision, why)
	if wl.Task == sizing.Inference {
		return job + l.F("plan.job.inference", l.N(wl.Batch, "plan.n.seq"), wl.SeqLen)
	}
	return job + l.F("plan.job.training", wl.Batch, wl.SeqLen, l.T("plan.recompute."+wl.Recompute.String()))
}

// ServeModel describes a service's model for the report's head: its name, its
// size and the weights' precision.
func ServeModel(r plan.Request, l msg.Lang) string {
	return l.F("plan.serve.model", r.Model.Name, l.Tokens(float64(r.Model.ParamCount())), r.Workload.Precision)
}

// Traffic describes a service's traffic: the rate, the tokens of a request,
// the tokens generated a second, the latency targets and the share of
// requests they hold for, the prefix cache, speculative decoding and the
// daily profile.
func Traffic(t plan.Traffic, l msg.Lang) string {
	s := l.F("plan.serve.traffic", t.Rate, t.PromptTokens, t.OutputTokens, t.Rate*float64(t.OutputTokens), target(l, t.TTFT), target(l, t.TPOT))
	if t.Percentile > 0 && (t.TTFT > 0 || t.TPOT > 0) {
		s += l.F("plan.serve.forshare", t.Percentile*100)
	}
	if t.PrefixShare > 0 {
		s += l.F("plan.serve.prefix", t.PrefixShare*100)
	}
	if sp := t.Speculative; sp != nil {
		s += l.F("plan.serve.speculative", sp.Draft.Name, sp.Tokens, sp.Acceptance)
	}
	if len(t.Daily) > 0 {
		peak, low, mean := 0, 0, 0.0
		for h, m := range t.Daily {
			if m > t.Daily[peak] {
				peak = h
			}
			if m < t.Daily[low] {
				low = h
			}
			mean += m / float64(len(t.Daily))
		}
		s += l.F("plan.serve.daily", peak, t.Daily[low]*100, low, mean*100)
	}
	return s
}

// target writes a latency target: the duration, or "none".
func target(l msg.Lang, d time.Duration) string {
	if d == 0 {
		return l.T("plan.serve.none")
	}
	return Latency(d)
}

// Latency writes a TTFT or TPOT to a tenth of a millisecond.
func Latency(d time.Duration) string {
	return d.Round(100 * time.Microsecond).String()
}

// Details are the lines that explain the best option under the options table,
// each as the report writes it ("time: 10h29m ..."); a line that does not
// apply is empty.
type Details struct {
	Memory     string   // memory per GPU, its parts and what is left free
	Host       string   // the host memory per GPU an option that offloads needs
	MicroBatch string   // a job's micro-batch and the micro-batches accumulated a step
	Replica    string   // a service's: each replica's operating point
	Time       string   // a job's time, its band over the utilization range and the scaling efficiency
	Cost       string   // the cost, what its prices are per, and the quote's lines
	CostRange  string   // a job's cost at the fast and slow ends of its time band, when they differ
	Rates      string   // a service's cost an hour and per million generated tokens
	Fleet      []string // a fleet's groups, when it has several or follows the day: each group's replicas, card, offer, hours and cost
	Launch     []string // a service's launch lines, each group's when they differ (after a "# group 2" comment), unwrapped
	Warnings   []string // the option's warnings, each "warning: ..."
	Note       string   // the price list's note on the offer
}

// Best is the best option's heading ("Best: provider/region, 2 × RTX 4090,
// data parallel ×2") and the lines that explain it.
func Best(o plan.Option, v View) (string, Details) {
	l := v.Lang
	var d Details
	var head string
	b := o.PerGPU
	if o.Serving != nil {
		head = l.F("plan.serve.best", OfferName(o.Offer), l.N(o.Replicas, "plan.n.replica"),
			max(o.Layout.Tensor, 1), v.BestCard(o), LayoutName(l, o.Layout))
		if on := fleetOffers(o, v); len(on) > 1 {
			head = l.F("plan.serve.bestfleet", l.N(o.Replicas, "plan.n.replica"), strings.Join(on, l.T("plan.list.sep")))
		}
		if lp := o.Load; lp != nil {
			args := []any{lp.Rate, lp.Concurrency, v.pctName(), Latency(v.Pick(lp.TTFT)), Latency(v.Pick(lp.TPOT))}
			switch {
			case len(o.Fleet) > 0 && o.Fleet[0].Role == plan.RolePrefill:
				d.Replica = l.F("plan.serve.loadpair", args...)
			case len(fleetOffers(o, v)) > 1:
				d.Replica = l.F("plan.serve.loadslow", args...)
			default:
				d.Replica = l.F("plan.serve.load", args...)
			}
			if v.Percentile > 0 {
				d.Replica += l.F("plan.serve.meanof", Latency(lp.TTFT.Mean), Latency(lp.TPOT.Mean))
			}
		} else {
			p := o.Serving
			d.Replica = l.F("plan.serve.replica", l.N(p.Concurrency, "plan.n.seq"), Latency(p.TTFT), Latency(p.TPOT),
				float64(p.Throughput), float64(p.PerUser), p.Requests)
		}
		d.Fleet, d.Launch = fleetLines(o, v), launchLines(o)
		d.Memory = l.F("plan.serve.memory", b.Weights.Human(), b.Activations.Human(), b.KVCache.Human(), b.Overhead.Human(),
			b.Total().Human(), o.Capacity.Human())
		d.Cost = l.T("plan.best.cost") + l.Money(o.Cost.Total) + priceBasis(o, l) + l.T("plan.serve.overrental") + CostLines(o.Cost, unitPrefix(o), l)
		d.Rates = l.F("plan.serve.rates", l.Money(o.PerHour), l.Money(o.PerMillion))
	} else {
		head = l.F("plan.best", OfferName(o.Offer), o.GPUs, v.BestCard(o), LayoutName(l, o.Layout))
		d.Memory = l.F("plan.best.memory", b.Weights.Human(), b.Gradients.Human(), b.Optimizer.Human(), b.Activations.Human(),
			b.KVCache.Human(), b.Overhead.Human(), b.Total().Human(), o.Capacity.Human(), o.Headroom*100)
		if o.HostMemory > 0 {
			d.Host = l.F("plan.best.host", o.HostMemory.Human())
		}
		if o.MicroBatch > 0 {
			acc := max(o.Accumulation, 1)
			d.MicroBatch = l.F("plan.best.microbatch", o.MicroBatch, acc, o.MicroBatch*acc)
		}
		if o.Duration > 0 {
			d.Time = l.F("plan.best.time", l.Dur(o.Duration))
			if low, high := l.Dur(o.DurationLow), l.Dur(o.DurationHigh); low != high {
				d.Time += l.F("plan.best.band", low, high)
			}
			d.Time += l.F("plan.best.scaling", o.Efficiency*100)
		}
		d.Cost = l.T("plan.best.cost") + l.Money(o.Cost.Total) + priceBasis(o, l) + CostLines(o.Cost, unitPrefix(o), l)
		if low, high := l.Money(o.CostLow), l.Money(o.CostHigh); !o.CostLow.IsZero() && !o.CostHigh.IsZero() && low != high {
			d.CostRange = l.F("plan.best.costrange", low, high)
		}
	}
	for _, w := range o.Warnings {
		d.Warnings = append(d.Warnings, l.T("plan.best.warning")+w)
	}
	if o.Offer.Notes != "" {
		d.Note = l.T("plan.best.note") + o.Offer.Notes
	}
	return head, d
}

// fleetLines says each group of a fleet that has several, or that follows the
// day: its role, replicas, card, offer, hours a day and cost; none for one
// group all day.
func fleetLines(o plan.Option, v View) []string {
	l := v.Lang
	if len(o.Fleet) == 0 || len(o.Fleet) == 1 && o.Fleet[0].Hours >= plan.HoursPerDay {
		return nil
	}
	out := make([]string, len(o.Fleet))
	for j, g := range o.Fleet {
		hours := l.T("plan.serve.allday")
		if g.Hours < plan.HoursPerDay {
			hours = l.F("plan.serve.hours", g.Hours)
		}
		out[j] = l.F("plan.serve.group", j+1, l.T("plan.role."+g.Role), l.N(g.Replicas, "plan.n.replica"), max(g.Tensor, 1),
			v.CardName(g.CardID), OfferName(g.Offer), hours, l.Money(g.Cost.Total))
	}
	return out
}

// fleetOffers names the offers of a fleet, each once, with the card each
// runs: "base-cloud/cn-beijing (GeForce RTX 4090)".
func fleetOffers(o plan.Option, v View) []string {
	var out []string
	for _, g := range o.Fleet {
		name := fmt.Sprintf("%s (%s)", OfferName(g.Offer), v.CardName(g.CardID))
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// launchLines writes a service's launch lines, each distinct line once, and
// for a fleet of several groups a comment before each ("# group 2") naming
// the groups it starts.
func launchLines(o plan.Option) []string {
	var out []string
	per := len(o.Launch) / max(len(o.Fleet), 1) // lines per group
	for k, c := range o.Launch {
		if len(o.Fleet) <= 1 {
			out = append(out, c.String())
			continue
		}
		if k%per != 0 || seen(o.Launch[:k], o.Launch[k:k+per]) {
			continue
		}
		out = append(out, fmt.Sprintf("# %s %d", groupWord, k/per+1))
		for _, d := range o.Launch[k : k+per] {
			out = append(out, d.String())
		}
	}
	return out
}

// groupWord names a fleet's group in a launch line's comment: a shell
// comment, the same in both languages.
const groupWord = "group"

// seen reports whether the lines of a group, cs, came before among earlier.
func seen(earlier, cs []plan.Command) bool {
	for k := 0; k+len(cs) <= len(earlier); k += len(cs) {
		same := true
		for j := range cs {
			same = same && earlier[k+j].String() == cs[j].String()
		}
		if same {
			return true
		}
	}
	return false
}

// Fit heads the options table: how many candidates (offer, GPU count, layout;
// for a service, offer and GPUs per replica) were considered and how many
// options are shown, one per offer (or with r.EveryCount per offer and GPU
// count), in the order r.Rank asks for.
func Fit(l msg.Lang, r plan.Request, rep plan.Report) string {
	shown := len(rep.Options)
	if shown > 0 && rep.Options[0].Serving != nil {
		return l.F("plan.serve.fit", rep.Considered, l.N(shown, "plan.n.best"))
	}
	note := l.T("plan.note." + r.Rank.String())
	if shown == 1 {
		return l.F("plan.fit.one", l.N(rep.Considered, "plan.n.candidate"), note)
	}
	per := l.T("plan.per.offer")
	if r.EveryCount {
		per = l.T("plan.per.count")
	}
	return l.F("plan.fit.many", rep.Considered, shown, per, l.T("plan.order."+r.Rank.String()), note)
}

// MaxUnknownNames is how many names of unknown cards Skipped lists before
// "…".
const MaxUnknownNames = 8

// Skipped says which offers the planner left out, a line each: every offer
// with its line in the price list and the reason, then the offers of cards the
// catalog does not know as one line with their count and distinct names ("left
// out 3 offers of unknown cards: Gaudi2, …"), since a cloud's catalog holds
// many, each name with its line in the list (its first, for several offers);
// unknown reports that last line.
func Skipped(skipped []plan.Skipped, lang msg.Lang) (lines []string, unknown bool) {
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
		lines = append(lines, lang.F("plan.skipped", sk.Offer.Provider, sk.Offer.Region, sk.Offer.Card, sk.Offer.Line, sk.Reason))
	}
	if n == 0 {
		return lines, false
	}
	more := len(names) > MaxUnknownNames
	names = names[:min(len(names), MaxUnknownNames)]
	list := make([]string, len(names), len(names)+1)
	for i, name := range names {
		switch c := byName[name]; {
		case c.line == 0:
			list[i] = name
		case c.offers == 1:
			list[i] = lang.F("plan.unknown.line", name, c.line)
		default:
			list[i] = lang.F("plan.unknown.lines", name, c.offers, c.line)
		}
	}
	if more {
		list = append(list, "…")
	}
	return append(lines, lang.F("plan.unknown.skipped", lang.N(n, "plan.n.unknownoffer"), strings.Join(list, lang.T("plan.list.sep")))), true
}

// PriceList names what a price list read from file holds, for the report's
// line on the offers: the file, its format, the offers kept and the rows left
// out, by reason:
//
//	lambda/vms.csv (SkyPilot catalog CSV, provider lambda): 19 offers; 2 rows left out: no GPUs (2, from line 2)
//
// and returns its offers: a SkyPilot catalog's take the cloud its path names
// (skyPilotCloud) as their provider, when it names one; an offer the list
// names no provider for (a CSV without a provider column) takes the file's
// name, so that the report and its messages show where it came from.
func PriceList(file string, l pricelist.List, lang msg.Lang) ([]pricing.Offer, string) {
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
			l.Offers[i].Provider = path.Base(strings.ReplaceAll(file, "\\", "/"))
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
	return l.Offers, b.String()
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

// ErrorJSON is what plan -json prints, and the page's API answers, when a plan
// fails: the message, whether the failure is that no option fits, and then the
// reasons and suggestions of the text report (empty lists otherwise).
type ErrorJSON struct {
	Error       string   `json:"error"`       // the failure's message
	NoFit       bool     `json:"no_fit"`      // whether the failure is that no option fits
	Reasons     []string `json:"reasons"`     // why options were left out (no fit only)
	Suggestions []string `json:"suggestions"` // what would fit (no fit only)
}

// NoFit is the error object for a plan that nothing fits.
func NoFit(nf *plan.NoFitError) ErrorJSON {
	return ErrorJSON{Error: nf.Error(), NoFit: true, Reasons: append([]string{}, nf.Reasons...), Suggestions: append([]string{}, nf.Suggestions...)}
}

// Failure is the error object for any other failure: its message, and empty
// lists.
func Failure(message string) ErrorJSON {
	return ErrorJSON{Error: message, Reasons: []string{}, Suggestions: []string{}}
}
