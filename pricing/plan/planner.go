package plan

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// ErrNoFit reports that no offer can run the job: it does not fit in memory, misses
// the deadline, exceeds the budget, or no offer can serve the usage. The error is a
// *NoFitError that says why and what would fit.
var ErrNoFit = errors.New("no option fits")

// Planner ranks rental options for a job over a list of offers. Catalog resolves the
// offers' card names; nil means catalog.Default(). A Planner is a value: Plan
// neither changes it nor keeps state between calls, so one Planner may serve many
// goroutines.
type Planner struct {
	Catalog *catalog.Catalog // nil: catalog.Default()
	Offers  []pricing.Offer
	// Rates ranks offers priced in several currencies in Rates.Base; the zero
	// value allows one currency only.
	Rates pricing.Rates
}

// Report is a plan with what went into it.
type Report struct {
	Options    []Option  `json:"options"`
	Considered int       `json:"considered"` // candidates (offer, GPU count, layout; serving: offer, GPUs per replica) evaluated
	Skipped    []Skipped `json:"skipped"`    // offers left out before ranking, each with its reason
}

// Skipped is an offer left out of a plan, and why: a card the catalog does not
// know, a currency without a rate, a tariff that cannot serve the usage.
type Skipped struct {
	Offer  pricing.Offer `json:"offer"`
	Reason string        `json:"reason"`
	// Err is the error behind Reason, for errors.Is: catalog.ErrNotFound for an
	// offer of a card the catalog does not know.
	Err error `json:"-"`
}

// Option is one way to run the job: an offer at a GPU count and parallel layout,
// with the memory, the time, the money and the warnings that explain it.
type Option struct {
	Offer  pricing.Offer `json:"offer"`
	CardID string        `json:"card_id"` // the catalog card the offer resolved to
	// GPUs counts the GPUs rented and paid for: on an offer sold in instances
	// (pricing.Offer.GPUsPerInstance) whole instances, which may hold more GPUs
	// than the job uses; Layout says how many it uses, and a warning names the
	// idle ones.
	GPUs   int             `json:"gpus"`
	Layout sizing.Parallel `json:"layout"`
	// PerGPU is the memory each GPU needs; Capacity what each has; Headroom the
	// fraction of Capacity left free, 1 − PerGPU.Total()/Capacity.
	PerGPU   sizing.Breakdown `json:"per_gpu"`
	Capacity sizing.Bytes     `json:"capacity_bytes"`
	Headroom float64          `json:"headroom"`
	// Duration is the job's time at the request's utilization; DurationLow and
	// DurationHigh are the times at the high and low ends of the utilization band.
	// All are zero for a request without Tokens. Inference decode is memory-bound
	// at small batches, so its band is narrow or empty: the utilization of peak
	// FLOP/s barely changes it (compute.Decode).
	Duration     time.Duration `json:"duration"`
	DurationLow  time.Duration `json:"duration_low"`
	DurationHigh time.Duration `json:"duration_high"`
	// Efficiency is the multi-GPU scaling efficiency (1 for one GPU).
	Efficiency float64 `json:"efficiency"`
	// Rental is the usage priced: the request's, or a run as long as the job.
	Rental pricing.Usage `json:"rental"`
	// Cost is the cheapest cover of Rental for all GPUs, with line items.
	Cost pricing.Quote `json:"cost"`
	// HourlyOnly is the same rental paid by the hour (zero when the offer has no
	// hourly price), to set beside the best packages in Cost.
	HourlyOnly pricing.Quote `json:"hourly_only"`
	// Waste is ExpectedCost minus that of the first (cheapest) option: what this
	// choice costs beyond the cheapest one that fits. When the option has more
	// GPUs or a bigger card than that one, it is the seeds' over-provisioning
	// cost; between offers of the same card it is the price difference.
	Waste pricing.Money `json:"waste"`
	// Interruptions is the expected number of interruptions during the job (from
	// the offer's InterruptionsPerDay), TimeLost the expected time they cost
	// (half a checkpoint interval of work plus a restart each), and ExpectedCost
	// Cost plus the rental of TimeLost. Options are ranked on ExpectedCost.
	Interruptions float64       `json:"interruptions"`
	TimeLost      time.Duration `json:"time_lost"`
	ExpectedCost  pricing.Money `json:"expected_cost"`
	// RankedCost is ExpectedCost in the currency options are ranked in
	// (Planner.Rates.Base, or the offers' own currency without rates), and Rate the
	// exchange rate that converted it, as an exact decimal ("" when none did).
	// Waste is in that currency too.
	RankedCost pricing.Money `json:"ranked_cost"`
	Rate       string        `json:"rate"`
	Warnings   []string      `json:"warnings"`

	// A serving request's figures (zero otherwise). Replicas is the tensor-parallel
	// groups the rate needs (GPUs = Replicas × Layout.Tensor), Serving each
	// replica's operating point: the highest concurrency within the targets.
	// PerHour is Cost over the rental's hours and PerMillion Cost over the million
	// tokens the traffic generates in them (Rate × OutputTokens), each rounded
	// once to the currency's minor unit with the tariff's rounding, in the
	// offer's currency.
	Replicas   int                   `json:"replicas,omitempty"`
	Serving    *compute.ServingPoint `json:"serving,omitempty"`
	PerHour    pricing.Money         `json:"per_hour"`
	PerMillion pricing.Money         `json:"per_million"`
}

// NoFitError explains an empty plan: why each offer was left out, and what would
// fit.
type NoFitError struct {
	Reasons     []string // why options were left out, one sentence per cause
	Suggestions []string // what would fit: a quantization, a context, a GPU count
	causes      []error  // errors behind the offers left out (catalog.ErrNotFound, ...)
}

// Error describes the failure, quoting the input where there is one.
func (e *NoFitError) Error() string {
	msg := "plan: no option fits"
	if len(e.Reasons) > 0 {
		msg += ": " + strings.Join(e.Reasons, "; ")
	}
	if len(e.Suggestions) > 0 {
		msg += "; what would fit: " + strings.Join(e.Suggestions, "; ")
	}
	return msg
}

// Unwrap returns ErrNoFit and the errors that left offers out, so that
// errors.Is(err, catalog.ErrNotFound) holds when an unknown card was one reason.
func (e *NoFitError) Unwrap() []error { return append([]error{ErrNoFit}, e.causes...) }

// addSkipped gives the reason of each offer left out.
func (e *NoFitError) addSkipped(skipped []Skipped) {
	for _, sk := range skipped {
		e.Reasons = append(e.Reasons, offerName(sk.Offer)+": "+sk.Reason)
	}
}

// Plan returns Report's options: the best rental options for the job, ranked.
func (p Planner) Plan(r Request) ([]Option, error) {
	rep, err := p.Report(r)
	return rep.Options, err
}

// Report tries each offer at each GPU count from 1 to its limit (the offer's
// MaxGPUs, DefaultPlanGPUs when it states none, capped by Request.MaxGPUs) and,
// for each count, every parallel layout that fits, keeping the fastest:
//
//   - training (full, LoRA, QLoRA): data parallel; ZeRO stages 1, 2 and 3 over the
//     data-parallel GPUs; tensor parallel of 2, 4 or 8 (dividing the heads and KV
//     heads) with sequence parallelism, the rest data parallel, with and without
//     ZeRO-3; and ZeRO-3 (or one GPU) with the optimizer offloaded to host memory;
//   - inference: one replica per GPU; tensor parallel over all the GPUs of one
//     server (heads and KV heads divisible); pipeline parallel over all of them.
//
// A layout fits when sizing.Estimate's Total is at most the card's memory less the
// headroom; among the layouts that fit, the fastest wins, then the one listed
// first. The duration comes from compute: for training, compute.Job on the card's
// dense peak at the workload's precision with the scaling efficiency of its links
// (NVLink where the card has it, a bridge for pairs only, PCIe otherwise); for
// inference, compute.Decode's memory-bound decode speed across the replicas. The
// rental is priced with the offer's tariff for all GPUs, or, for an offer sold in
// instances of m GPUs (pricing.Offer.GPUsPerInstance), for the ⌈n/m⌉ whole
// instances that hold n GPUs, the tariff pricing one instance: Option.GPUs then
// counts the instances' GPUs, each instance is one server (more than one talk
// over InterServerLink), and the offer's MaxGPUs of zero sets no cap but
// MaxPlanGPUs. Request.MaxGPUs caps the GPUs rented.
//
// A serving request (Request.Serving) tries tensor-parallel replicas of 1, 2, 4
// and 8 GPUs instead, as many as the rate needs; the package documentation says
// how.
//
// Options whose expected duration (at the request's utilization, with the time
// interruptions are expected to lose) misses the deadline, or whose expected cost
// is over the budget, are left out. Of the rest, Rank orders the options; without
// EveryCount each offer keeps only its best GPU count, and Limit cuts the list.
// Ties fall to expected cost, duration, fewer GPUs, provider, region, catalog card,
// card name as written, and last the offer's place in the list, so the order is
// stable. Only the options returned are explained (quotes, warnings, waste).
//
// Offers of a card the catalog does not know, offers in a currency Rates cannot
// convert, and offers that cannot serve the usage at any GPU count (no price for
// the pattern, an expected time past time.Duration's range) are left out and
// listed in Report.Skipped with the reason. An offer whose card name covers
// several boards ("A100 80GB") is planned on the slowest of them, with a warning.
//
// Errors: a *NoFitError (ErrNoFit) when no option is left; pricing.ErrInvalid for
// a request or offer that makes no sense (an empty offer list, an invalid tariff);
// pricing.ErrCurrencyMismatch for offers (or a budget) in more than one currency
// without Rates, naming the currencies and the offers' lines.
func (p Planner) Report(r Request) (Report, error) {
	s, err := r.settle()
	if err != nil {
		return Report{}, err
	}
	if len(p.Offers) == 0 {
		return Report{}, fmt.Errorf("plan: no offers: %w", pricing.ErrInvalid)
	}
	cat := p.Catalog
	if cat == nil {
		cat = catalog.Default()
	}
	rs, err := p.resolve(cat, s)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Skipped: rs.skipped}
	work, err := s.work()
	if err != nil {
		return Report{}, err
	}

	fits := make(map[fitKey]*fit)
	w := newSweep(&s, &p, &rs, &rep)
	var run *serveRun
	if s.Serving != nil { // a service: serving.go plans it, the ranking is shared
		run = &serveRun{}
		err = s.serveOffers(w, run)
	} else {
		err = s.trainOffers(w, fits, work)
	}
	if err != nil {
		return Report{}, err
	}
	cands := w.cands
	if len(cands) == 0 && run != nil {
		return rep, s.noFit(run, rs, rep.Skipped, w.causes)
	}
	if len(cands) == 0 {
		e := &NoFitError{Reasons: w.diag.reasons(s), Suggestions: s.suggest(rs.cards, rs.kept, &w.diag), causes: w.causes}
		e.addSkipped(rep.Skipped)
		return rep, e
	}

	order := s.choose(cands, p.Offers, rs.cards)
	checks, err := p.marketChecks(rs, s, cands, order)
	if err != nil {
		return Report{}, err
	}
	cheapest := &cands[order[0]]
	for _, k := range order {
		if cands[k].key.Amount.LessThan(cheapest.key.Amount) {
			cheapest = &cands[k]
		}
	}
	rep.Options = make([]Option, len(order))
	for j, k := range order {
		c := &cands[k]
		pr := rs.totals.byID[rs.tariff[c.offer]] // prepared when the candidate was priced
		if err := s.explain(&rep.Options[j], c, p.Offers[c.offer], pr, *rs.cards[c.offer], rs.boards[c.offer], checks[c.offer], cheapest, fits, work); err != nil {
			return Report{}, err
		}
		if c.serve != nil {
			if err := s.explainServing(&rep.Options[j], c, p.Offers[c.offer], rs.boards[c.offer], run); err != nil {
				return Report{}, err
			}
		}
	}
	return rep, nil
}

// trainOffers plans a job (training or inference) on every offer kept, at each
// GPU count up to the offer's limit, as Report says.
func (s settings) trainOffers(w *sweep, fits map[fitKey]*fit, work compute.FLOPs) error {
	for _, i := range w.rs.kept {
		if err := w.start(i); err != nil {
			return err
		}
		o, card := w.o, w.rs.cards[i]
		limit, server := s.gpuLimit(*o), serverOf(*o)
		for w.next() {
			for n := 1; n <= limit; n = nextCount(n, limit) {
				at := w.cl.slot(w.class, n)
				f := at.fit
				if f == nil {
					// Within one server the server's size changes nothing (the layouts
					// and the link are those of n GPUs), so such fits are shared by all
					// sizes.
					srv := min(server, n)
					k := fitKey{card.ID, n, srv}
					if f = fits[k]; f == nil {
						f = s.fitCard(*card, n, srv, work)
						fits[k] = f
					}
					at.fit = f
				}
				w.rep.Considered += max(f.tried, 1)
				if !f.ok {
					w.diag.miss(*card, n, f)
					continue
				}
				if s.Deadline > 0 && f.duration > s.Deadline {
					w.diag.late(*card, n, limit, f.duration)
					continue
				}
				c, ok, err := w.price(at, n, f)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				if s.Deadline > 0 && f.duration+c.lost > s.Deadline {
					w.diag.late(*card, n, limit, f.duration+c.lost)
					continue
				}
				if !s.Budget.Amount.IsZero() && c.key.Amount.GreaterThan(s.Budget.Amount) {
					w.diag.over(*card, n, c.key)
					continue
				}
				w.add(c)
			}
		}
	}
	return nil
}

// marketChecks runs the market check for the options returned (cands[order]):
// each over the offers kept in its market, that of the catalog card it resolved to
// and its currency ("A100 80GB" and "NVIDIA A100-SXM4-80GB" are one market;
// interruptible capacity is a market of its own, since spot prices are meant to
// be lower). It returns the checks of the returned options' offers, by offer
// index.
func (p Planner) marketChecks(rs resolved, s settings, cands []candidate, order []int) (map[int]pricing.PriceCheck, error) {
	type marketKey struct {
		card, currency string
		spot           bool
	}
	key := func(i int) marketKey {
		return marketKey{rs.cards[i].ID, p.Offers[i].Tariff.Currency, p.Offers[i].Interruptible}
	}
	shown := make(map[marketKey]string, len(order)) // each market shown, named
	out := make(map[int]pricing.PriceCheck, len(order))
	var cards []string // the cards of the markets shown
	for _, k := range order {
		m := key(cands[k].offer)
		name := m.card + " " + m.currency
		if m.spot {
			name += " (interruptible)"
		}
		shown[m] = name
		out[cands[k].offer] = pricing.PriceCheck{}
		if !slices.Contains(cards, m.card) {
			cards = append(cards, m.card)
		}
	}
	var markets []string
	var index []int
	for _, i := range rs.kept {
		if !slices.Contains(cards, rs.cards[i].ID) {
			continue // most offers: another card, without building the key
		}
		if m, ok := shown[key(i)]; ok {
			markets, index = append(markets, m), append(index, i)
		}
	}
	offers := make([]pricing.Offer, len(index)) // copied once, at their number
	for j, i := range index {
		offers[j] = p.Offers[i]
	}
	got, err := pricing.MarketCheckIn(offers, markets, s.threshold)
	if err != nil {
		return nil, err
	}
	for j, i := range index {
		if _, ok := out[i]; ok {
			out[i] = got[j]
		}
	}
	return out, nil
}

// gpuLimit is the most GPUs tried on an offer: its MaxGPUs (DefaultPlanGPUs when
// it states none), capped by the request's MaxGPUs and by MaxPlanGPUs. For an
// offer sold in instances a MaxGPUs of zero is no cap, and the limit is a whole
// number of instances, zero when the caps leave not even one.
func (s settings) gpuLimit(o pricing.Offer) int {
	limit := o.MaxGPUs
	if limit == 0 {
		limit = DefaultPlanGPUs
		if o.GPUsPerInstance > 0 {
			limit = MaxPlanGPUs
		}
	}
	limit = min(limit, cmp.Or(s.MaxGPUs, MaxPlanGPUs), MaxPlanGPUs) // settle checked MaxGPUs >= 0
	if per := o.GPUsPerInstance; per > 0 {
		limit -= limit % per
	}
	return limit
}

// rent is what a job on n GPUs rents on offer o: the GPUs paid for and the units
// the tariff prices. An offer sold in instances of m GPUs rents whole instances,
// ⌈n/m⌉ of them, priced as that many units; any other offer rents n GPUs, priced
// per GPU. This is the one place where an offer's shape meets a GPU count.
func rent(o pricing.Offer, n int) (gpus, units int) {
	if m := o.GPUsPerInstance; m > 0 {
		k := (n + m - 1) / m
		return k * m, k
	}
	return n, n
}

// serverOf is the GPUs one server of offer o holds: its instance when it is sold
// in instances (more than one instance talks over the network between servers),
// GPUsPerServer otherwise.
func serverOf(o pricing.Offer) int {
	if o.GPUsPerInstance > 0 {
		return o.GPUsPerInstance
	}
	return GPUsPerServer
}

// nextCount is the GPU count tried after n: every count up to one server
// (GPUsPerServer), then doubling, and the limit itself last.
func nextCount(n, limit int) int {
	switch {
	case n < GPUsPerServer:
		return n + 1
	case n == limit:
		return limit + 1
	case 2*n > limit:
		return limit
	}
	return 2 * n
}

// resolved is what Report knows of the offers before it plans: the catalog card
// of each (by offer index), the faster board when the name left the board open,
// the offers kept (indices, in list order) and those left out.
type resolved struct {
	cards   []*catalog.Card // shared by the offers of one card name
	boards  []*catalog.Card // the fastest board the name allows, when it was assumed
	kept    []int
	skipped []Skipped
	causes  []error // the errors behind skipped, for NoFitError's Unwrap
	totals  *totals // the offers' tariffs, each distinct one numbered
	tariff  []int   // the number of each offer's tariff in totals
}

// resolve validates every offer, looks its card up once per distinct name, applies
// the request's card filter and checks the currencies: one for all offers (and
// the budget) without rates; each convertible with them.
func (p Planner) resolve(cat *catalog.Catalog, s settings) (resolved, error) {
	n := len(p.Offers)
	rs := resolved{cards: make([]*catalog.Card, n), boards: make([]*catalog.Card, n), kept: make([]int, 0, n),
		totals: newTotals(n), tariff: make([]int, n)}
	var want map[string]bool
	if len(s.Cards) > 0 {
		want = make(map[string]bool)
		for _, name := range s.Cards {
			c, err := cat.Lookup(name)
			var amb *catalog.AmbiguousError
			switch {
			case errors.As(err, &amb):
				for _, id := range amb.Candidates {
					want[id] = true
				}
			case err != nil:
				return resolved{}, &text.ContextError{Pkg: "plan", Context: "request: cards", Err: err, Also: pricing.ErrInvalid}
			default:
				want[c.ID] = true
			}
		}
	}
	if !isZeroRates(p.Rates) {
		if err := p.Rates.Validate(); err != nil {
			return resolved{}, &text.ContextError{Pkg: "plan", Context: "rates", Err: err}
		}
	}
	type looked struct {
		card   catalog.Card
		faster *catalog.Card
		err    error
	}
	byName := make(map[string]*looked)
	var all []catalog.Card // the catalog's cards, read once when a name needs them
	mixed := false         // kept offers in more than one currency
	for i := range p.Offers {
		o := &p.Offers[i]
		id, seen := rs.totals.id(&o.Tariff)
		l, known := byName[o.Card]
		if !known {
			l = new(looked)
			l.card, l.faster, l.err = lookupBoard(cat, &all, o.Card)
			byName[o.Card] = l
		}
		// An offer left out is listed here, though it is validated below: an
		// invalid one fails the whole call.
		keep := false
		_, rated := p.Rates.Per[o.Tariff.Currency]
		switch {
		case l.err != nil:
			rs.skipped = append(rs.skipped, Skipped{Offer: *o, Reason: text.Reason(l.err), Err: l.err})
			rs.causes = append(rs.causes, l.err)
		case want != nil && !want[l.card.ID] && (l.faster == nil || !want[l.faster.ID]):
			// not a card asked for: filtered, not skipped
		case !isZeroRates(p.Rates) && o.Tariff.Currency != p.Rates.Base && !rated:
			reason := fmt.Sprintf("no exchange rate for %s into %s", o.Tariff.Currency, p.Rates.Base)
			err := fmt.Errorf("plan: %s: %w", reason, pricing.ErrCurrencyMismatch)
			rs.skipped = append(rs.skipped, Skipped{Offer: *o, Reason: reason, Err: err})
			rs.causes = append(rs.causes, err)
		default:
			keep = true
		}
		// A tariff and a card name are validated with the first offer that has
		// them; the offers after it (a provider's regions often share a tariff,
		// many offers a card) without the tariff and with a stand-in name. An
		// offer kept has its tariff validated as it is prepared (NewPricer),
		// which pricing it needs; any error is Validate's, whole.
		v := *o
		if known {
			v.Card = "gpu" // a valid name, and its own key
		}
		err := v.ValidateFields()
		if !seen && err == nil && keep {
			_, err = rs.totals.pricer(id)
		}
		if !seen && (err != nil || !keep) {
			err = v.Validate()
		}
		if err != nil {
			return resolved{}, &text.ContextError{Pkg: "plan", Context: "offer " + offerName(*o), Drop: "offer: ", Err: err}
		}
		rs.tariff[i] = id
		if !keep {
			continue
		}
		rs.cards[i], rs.boards[i] = &l.card, l.faster
		rs.kept = append(rs.kept, i)
		mixed = mixed || o.Tariff.Currency != p.Offers[rs.kept[0]].Tariff.Currency
	}
	if len(rs.kept) == 0 {
		e := &NoFitError{causes: rs.causes}
		e.addSkipped(rs.skipped)
		if len(e.Reasons) == 0 {
			e.Reasons = []string{"no offer is of the cards asked for (" + strings.Join(s.Cards, ", ") + ")"}
		}
		return resolved{}, e
	}
	if isZeroRates(p.Rates) && mixed {
		return resolved{}, fmt.Errorf("plan: offers in %s: give exchange rates to rank them together: %w",
			describeCurrencies(p.Offers, rs.kept), pricing.ErrCurrencyMismatch)
	}
	if !s.Budget.Amount.IsZero() {
		// Without rates, the offers' one currency (valid rates have a base).
		base := cmp.Or(p.Rates.Base, p.Offers[rs.kept[0]].Tariff.Currency)
		if s.Budget.Currency != base {
			return resolved{}, fmt.Errorf("plan: budget in %s, offers ranked in %s: %w", s.Budget.Currency, base, pricing.ErrCurrencyMismatch)
		}
	}
	return rs, nil
}

// lookupBoard resolves a card name. A name that does not say its board covers
// every board of its size: a family name the catalog calls ambiguous ("A100"), or
// a name that resolves to one board but names none of SXM, PCIe or NVL while the
// catalog holds a sibling of the same family and memory on another board ("A100
// 80GB", "H800": price lists write them for either). It resolves to the slowest
// of those boards (lower memory bandwidth, then lower dense BF16 peak, then no
// NVLink), the conservative time, and returns the fastest beside it so the
// option can say what it would change. *all holds cat.Cards(), read on first
// need.
func lookupBoard(cat *catalog.Catalog, all *[]catalog.Card, name string) (catalog.Card, *catalog.Card, error) {
	c, err := cat.Lookup(name)
	var boards []catalog.Card
	var amb *catalog.AmbiguousError
	switch {
	case errors.As(err, &amb):
		for _, id := range amb.Candidates {
			b, err := cat.Lookup(id)
			if err != nil {
				return catalog.Card{}, nil, err
			}
			boards = append(boards, b)
		}
	case err != nil:
		return c, nil, err
	case namesBoard(name):
		return c, nil, nil
	default:
		if *all == nil {
			*all = cat.Cards()
		}
		boards = append(siblings(*all, c), c)
	}
	slow, fast := slices.MinFunc(boards, bySpeed), slices.MaxFunc(boards, bySpeed)
	if fast.ID == slow.ID {
		return slow, nil, nil
	}
	return slow, &fast, nil
}

// namesBoard reports whether a card name says its board: SXM, PCIe, NVL or HGX
// in any case and spacing.
func namesBoard(name string) bool {
	n := strings.ToLower(name)
	return slices.ContainsFunc([]string{"sxm", "pcie", "nvl", "hgx"}, func(b string) bool {
		return strings.Contains(n, b)
	})
}

// siblings returns the cards of all that share a family and the marketed memory with c
// but sit on another board.
func siblings(all []catalog.Card, c catalog.Card) []catalog.Card {
	var out []catalog.Card
	for _, o := range all {
		if o.ID == c.ID || o.Form == c.Form || o.MemoryNominal != c.MemoryNominal || o.Vendor != c.Vendor {
			continue
		}
		if slices.ContainsFunc(o.Families, func(f string) bool { return slices.Contains(c.Families, f) }) {
			out = append(out, o)
		}
	}
	return out
}

// bySpeed orders cards slowest first: by memory bandwidth, then dense BF16 peak,
// then NVLink.
func bySpeed(a, b catalog.Card) int {
	pa, _ := a.Peak(sizing.BF16)
	pb, _ := b.Peak(sizing.BF16)
	return cmp.Or(cmp.Compare(a.MemoryBandwidth, b.MemoryBandwidth), cmp.Compare(pa, pb),
		cmp.Compare(a.NVLink, b.NVLink))
}

func isZeroRates(r pricing.Rates) bool { return r.Base == "" && len(r.Per) == 0 }

// describeCurrencies names the currencies of offers[kept], each with the lines of
// its offers (or their places in the list, for offers not read from a file): "CNY
// (lines 2, 3) and USD (line 4)", or "EUR (offer 1)".
func describeCurrencies(offers []pricing.Offer, kept []int) string {
	m := make(map[string][]int) // currency → its offers
	for _, i := range kept {
		c := offers[i].Tariff.Currency
		m[c] = append(m[c], i)
	}
	codes := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(codes))
	for k, c := range codes {
		lines, places := []string{}, []string{}
		for _, i := range m[c] {
			if len(lines)+len(places) == 5 {
				if len(lines) > 0 {
					lines = append(lines, "…")
				} else {
					places = append(places, "…")
				}
				break
			}
			if l := offers[i].Line; l > 0 {
				lines = append(lines, strconv.Itoa(l))
			} else {
				places = append(places, strconv.Itoa(i+1))
			}
		}
		where := []string{}
		if len(lines) > 0 {
			where = append(where, text.Noun(len(lines), "line", "lines")+" "+strings.Join(lines, ", "))
		}
		if len(places) > 0 {
			where = append(where, text.Noun(len(places), "offer", "offers")+" "+strings.Join(places, ", "))
		}
		parts[k] = c + " (" + strings.Join(where, "; ") + ")"
	}
	return strings.Join(parts, " and ")
}

// work returns the job's training work in FLOPs (zero for inference, whose time
// comes from decode speed, and for a memory-only request): compute.TrainingFLOPs
// (6·N·D plus attention) for full training, compute.AdapterTrainingFLOPs (4·N·D
// plus attention: a frozen base needs no weight gradients) for LoRA and QLoRA.
//
// The work is model FLOPs and the utilization is model FLOPs utilization, as
// compute.Job reads them: published MFU figures come from runs that recompute
// activations (PaLM reports 46.2% MFU against 57.8% hardware utilization with
// rematerialization, Chowdhery et al. 2022), so the band already absorbs that
// cost. A job without recomputation may run faster than the band says; give a
// higher Utilization for it.
func (s settings) work() (compute.FLOPs, error) {
	if s.Tokens == 0 || s.Workload.Task == sizing.Inference {
		return 0, nil
	}
	count := compute.TrainingFLOPs
	if s.Workload.Task == sizing.LoRA || s.Workload.Task == sizing.QLoRA {
		count = compute.AdapterTrainingFLOPs
	}
	// The attention term needs the architecture; a model known by its parameter
	// count alone gets the plain 6·N·D (4·N·D), which leaves that term out.
	seq := s.Workload.SeqLen
	if !s.Model.HasArchitecture() {
		seq = 0
	}
	f, err := count(s.Model, s.Tokens, seq)
	if err != nil {
		return 0, &text.ContextError{Pkg: "plan", Context: "training work", Err: err, Also: pricing.ErrInvalid}
	}
	return f, nil
}

// bound is, for a ranking by cost with a limit, the Limit smallest ranking
// costs known (offers' best ones, without EveryCount): a candidate dearer than
// the last of them, or than its offer's best so far, cannot be returned, and
// price skips it on its floor.
type bound struct {
	top   []int64 // in whole minor units, ascending; nil: no bound
	limit int
}

func (s *settings) bound() bound {
	if s.Rank != RankCost || s.limit <= 0 {
		return bound{}
	}
	return bound{make([]int64, 0, s.limit+1), s.limit}
}

// keep counts candidate c among the costs known.
func (b *bound) keep(c *candidate) {
	if b.top == nil || !c.exact {
		return
	}
	j, _ := slices.BinarySearch(b.top, c.minor)
	b.top = slices.Insert(b.top, j, c.minor)[:min(len(b.top)+1, b.limit)]
}

// sweep is the frame the training and serving paths share around each offer's
// sizes (GPU counts; serving: GPUs per replica): the candidates kept, the bound
// on the costs that can still be returned, and the offers left out. For each
// offer kept, start it, then while next says so try its sizes, pricing each
// through price and keeping it with add.
type sweep struct {
	s      *settings
	p      *Planner
	rs     *resolved
	rep    *Report
	cl     *classes
	best   bool        // one candidate per offer is kept
	top    bound       // the costs known
	cands  []candidate // grown as candidates survive: most offers are priced out by the floor
	causes []error     // the errors behind rep.Skipped, for NoFitError's Unwrap
	diag   diagnosis

	// The offer being planned.
	i          int
	o          *pricing.Offer
	pr         *pricing.Pricer
	class      int32
	first      int   // where its candidates start in cands
	considered int   // rep.Considered before it
	pass       int   // 1 the first time its sizes are tried, 2 the second, in full
	floored    bool  // a size was skipped on its floor
	why        error // why the offer cannot serve the usage, when no size prices
}

func newSweep(s *settings, p *Planner, rs *resolved, rep *Report) *sweep {
	return &sweep{s: s, p: p, rs: rs, rep: rep, cl: newClasses(len(rs.totals.tariffs)),
		best: !s.EveryCount && s.Rank != RankFrontier, top: s.bound(), causes: rs.causes}
}

// start begins offer i.
func (w *sweep) start(i int) error {
	pr, err := w.rs.totals.pricer(w.rs.tariff[i]) // resolve validated the offer
	if err != nil {
		return err
	}
	w.i, w.o, w.pr = i, &w.p.Offers[i], pr
	w.class = w.cl.class(w.rs.tariff[i], w.rs.cards[i], w.o)
	w.first, w.considered, w.pass = len(w.cands), w.rep.Considered, 0
	return nil
}

// next reports whether to try the offer's sizes (again). A size skipped on its
// floor is not known to be priceable (with interruptions its run is longer than
// the rental floored; a usage may need what the tariff lacks): when no size of
// the offer is kept and one cannot be priced, the sizes are tried once more in
// full, so that the offer is left out (Skipped) exactly when none of its sizes
// would be kept, whatever the Limit. When next reports false the offer is done:
// its best counts among the costs known, or it is listed in Skipped with why.
func (w *sweep) next() bool {
	kept := len(w.cands) > w.first
	switch {
	case w.pass == 0:
	case w.pass == 1 && w.floored && w.why != nil && !kept:
		w.rep.Considered = w.considered
	default:
		if w.best && kept {
			w.top.keep(&w.cands[w.first])
		}
		if w.why != nil && !kept {
			w.rep.Skipped = append(w.rep.Skipped, Skipped{Offer: *w.o, Reason: text.Reason(w.why), Err: w.why})
			w.causes = append(w.causes, w.why)
		}
		return false
	}
	w.pass++
	w.why, w.floored = nil, false
	if w.s.gpuLimit(*w.o) == 0 { // instances larger than the request allows
		w.why = fmt.Errorf("sold in instances of %d GPUs, more than the %d allowed: %w", w.o.GPUsPerInstance, w.s.MaxGPUs, pricing.ErrUnavailable)
	}
	return true
}

// add keeps candidate c of the offer: with best, in place of the offer's
// candidate when better, counted among the costs known once the offer is done;
// otherwise as one more, counted now.
func (w *sweep) add(c candidate) {
	switch {
	case !w.best:
		w.cands = append(w.cands, c)
		w.top.keep(&c)
	case len(w.cands) == w.first:
		w.cands = append(w.cands, c)
	case w.s.less(&c, &w.cands[w.first], w.p.Offers, w.rs.cards):
		w.cands[w.first] = c
	}
}

// classes numbers, for one Report, the offers that price alike: the same tariff,
// catalog card, instance size and interruption rate (a provider's regions often
// share all four). For each class and GPU count (serving: GPUs per replica) a
// slot holds what pricing found, the fit, the floor once asked and the figures
// once priced, so that each is worked out once per class rather than once per
// offer. It lives for one call; nothing is kept between calls.
type classes struct {
	byTariff []int32                // by tariff number: 1 + its last class; 0: none yet
	list     []classKey             // by class number
	rows     []*[GPUsPerServer]slot // by class number, the counts 1 to GPUsPerServer
	spare    [][GPUsPerServer]slot  // rows made ahead, handed out in order
	more     map[classCount]*slot   // the counts past GPUsPerServer
}

type classKey struct {
	card          *catalog.Card
	perInstance   int
	interruptions float64
	next          int32 // the class before it of the same tariff, or −1
}

type classCount struct{ class, n int32 }

// slot is what one class found at one count.
type slot struct {
	fit     *fit
	done    *priced // nil: not priced yet
	floor   int64   // Pricer.Floor, once floored
	floored bool
	floorOK bool
}

// newClasses returns classes for offers of the given number of tariffs.
func newClasses(tariffs int) *classes {
	return &classes{byTariff: make([]int32, tariffs), more: make(map[classCount]*slot)}
}

// class returns the number of the class of offer o, whose tariff is number
// tariff and card card. A tariff has few classes (mostly one: a price list
// prices a card), so they are found by walking its list.
func (cl *classes) class(tariff int, card *catalog.Card, o *pricing.Offer) int32 {
	head := cl.byTariff[tariff] - 1
	for id := head; id >= 0; id = cl.list[id].next {
		if k := &cl.list[id]; k.card == card && k.perInstance == o.GPUsPerInstance && k.interruptions == o.InterruptionsPerDay {
			return id
		}
	}
	id := int32(len(cl.list))
	cl.list = append(cl.list, classKey{card, o.GPUsPerInstance, o.InterruptionsPerDay, head})
	cl.byTariff[tariff] = id + 1
	if len(cl.spare) == 0 {
		cl.spare = make([][GPUsPerServer]slot, min(64, 1+len(cl.rows)))
	}
	cl.rows, cl.spare = append(cl.rows, &cl.spare[0]), cl.spare[1:]
	return id
}

// slot returns the slot of class at count n.
func (cl *classes) slot(class int32, n int) *slot {
	if n <= GPUsPerServer {
		return &cl.rows[class][n-1]
	}
	k := classCount{class, int32(n)}
	e := cl.more[k]
	if e == nil {
		e = new(slot)
		cl.more[k] = e
	}
	return e
}

// totals numbers the distinct tariffs of one Report's offers and prepares each
// (pricing.NewPricer) once, on first use: a provider's regions often share a
// tariff. It lives for one call; nothing is kept between calls.
type totals struct {
	ids     map[uint64]int32  // tariffHash → the last tariff numbered with it
	next    []int32           // by number: the one before it with the same hash, or −1
	tariffs []*pricing.Tariff // by number: the first offer's with it
	byID    []*pricing.Pricer // by number, made on first use
	last    int32             // the number id gave last
}

// newTotals returns totals for about n offers.
func newTotals(n int) *totals {
	return &totals{ids: make(map[uint64]int32, n/4)}
}

// id returns the number of tr, the same for equal tariffs (sameTariff), and
// whether an earlier call gave it. The first tr of each number is kept (the
// offers' own, which a Planner does not change).
func (t *totals) id(tr *pricing.Tariff) (int, bool) {
	// A price list often gives the same tariff to offers in a row (a provider's
	// regions): the last tariff numbered, or found, is tried first.
	if len(t.tariffs) > 0 && sameTariff(t.tariffs[t.last], tr) {
		return int(t.last), true
	}
	h := tariffHash(tr)
	head, ok := t.ids[h]
	if !ok {
		head = -1
	}
	for k := head; k >= 0; k = t.next[k] {
		if sameTariff(t.tariffs[k], tr) {
			t.last = k
			return int(k), true
		}
	}
	id := len(t.tariffs)
	t.last = int32(id)
	t.ids[h] = int32(id)
	t.next = append(t.next, head)
	t.tariffs, t.byID = append(t.tariffs, tr), append(t.byID, nil)
	return id, false
}

// pricer returns tariff number id prepared.
func (t *totals) pricer(id int) (*pricing.Pricer, error) {
	if t.byID[id] == nil {
		p, err := pricing.NewPricer(*t.tariffs[id])
		if err != nil {
			return nil, err
		}
		t.byID[id] = &p
	}
	return t.byID[id], nil
}

// sameTariff reports whether a and b agree on every field pricing reads, each
// decimal as written (coefficient and exponent), so that they price alike.
func sameTariff(a, b *pricing.Tariff) bool {
	sameTerm := func(x, y pricing.Term) bool {
		return x.Months == y.Months && sameDecimal(x.Monthly, y.Monthly) && sameDecimal(x.Discount, y.Discount)
	}
	return a.Currency == b.Currency && a.HoursPerMonth == b.HoursPerMonth && a.Granularity == b.Granularity &&
		a.Minimum == b.Minimum && a.AfterPackage == b.AfterPackage && a.Rounding == b.Rounding &&
		sameDecimal(a.Hourly, b.Hourly) && sameDecimal(a.Daily, b.Daily) && sameDecimal(a.Weekly, b.Weekly) &&
		sameDecimal(a.Monthly, b.Monthly) && slices.EqualFunc(a.Terms, b.Terms, sameTerm)
}

// sameDecimal reports whether a and b are written alike: the same exponent and
// coefficient. Copies share their coefficient, so equal values (==) are; Cmp of
// equal exponents compares the coefficients without rescaling; a zero is
// compared by its sign, without reading its coefficient, which the zero value
// lacks.
func sameDecimal(a, b decimal.Decimal) bool {
	return a == b || (a.Exponent() == b.Exponent() && a.Sign() == b.Sign() && (a.Sign() == 0 || a.Cmp(b) == 0))
}

// tariffHash mixes the fields sameTariff compares (FNV-1a over 64-bit words), a
// decimal by its exponent and coefficient's low 64 bits: equal tariffs
// hash alike, and sameTariff tells apart the few unequal ones that collide.
func tariffHash(t *pricing.Tariff) uint64 {
	h := uint64(14695981039346656037)
	add := func(v uint64) { h = (h ^ v) * 1099511628211 }
	dec := func(d decimal.Decimal) {
		add(uint64(d.Exponent()))
		if !d.IsZero() { // the zero value has no coefficient to read
			add(uint64(d.CoefficientInt64())) // with its sign
		}
	}
	for i := 0; i < len(t.Currency); i++ {
		add(uint64(t.Currency[i]))
	}
	dec(t.Hourly)
	dec(t.Daily)
	dec(t.Weekly)
	dec(t.Monthly)
	for _, v := range [...]int64{int64(t.HoursPerMonth), int64(t.Granularity), int64(t.Minimum), int64(t.AfterPackage), int64(t.Rounding)} {
		add(uint64(v))
	}
	for _, term := range t.Terms {
		add(uint64(term.Months))
		dec(term.Monthly)
		dec(term.Discount)
	}
	return h
}
