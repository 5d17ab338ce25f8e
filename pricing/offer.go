package pricing

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/shopspring/decimal"
)

// Offer is one provider's rental of one card, with its Tariff and the descriptive
// fields the second article weighs beside the price: the datacenter tier (power,
// cooling and network redundancy), the support level, and whether the machine may
// be taken back (interruptible or spot capacity).
type Offer struct {
	Provider string `json:"provider"` // empty: not named (a price list without a provider column); messages name the offer by its line
	Region   string `json:"region"`
	Card     string `json:"card"`     // card name as the provider writes it ("RTX 4090")
	MaxGPUs  int    `json:"max_gpus"` // GPUs one rental can have; zero: no stated limit
	Tariff   Tariff `json:"tariff"`

	Tier          string `json:"tier"`          // datacenter tier as advertised ("T3"); empty: unknown
	Support       string `json:"support"`       // support level as advertised ("24x7"); empty: unknown
	Interruptible bool   `json:"interruptible"` // the provider may reclaim the GPUs
	// InterruptionsPerDay is the expected number of interruptions per day of
	// running, as the provider states or the user estimates: reclaims of
	// interruptible capacity, or the outages of a lesser datacenter (a Tier I or
	// II site; see SiteAvailability), which need not be interruptible. The planner
	// weighs it in the expected cost. Zero: none expected.
	InterruptionsPerDay float64 `json:"interruptions_per_day"`
	Notes               string  `json:"notes"`

	// GPUsPerInstance is the number of GPUs sold together as one instance (a cloud's
	// instance shape, such as eight A100 in Lambda's gpu_8x_a100, or one marketplace
	// machine). When set, Tariff prices one whole instance, a rental is a whole
	// number of instances (more than one means several servers over the network),
	// and MaxGPUs, when set, is a multiple of it. Zero: any count from 1 to MaxGPUs,
	// with Tariff priced per GPU.
	GPUsPerInstance int `json:"gpus_per_instance"`

	// HostMemory is the host RAM, in bytes, that comes with each GPU rented (an
	// instance's RAM over its GPUs), for a job that offloads its optimizer state or
	// weights to the host. Zero: unknown. At most MaxHostMemory.
	HostMemory int64 `json:"host_memory_bytes"`

	// Line is the 1-based line of the price list the offer was loaded from (the
	// line of its row in CSV, of its opening brace in JSON), set by the readers so
	// that messages can point at it; zero otherwise.
	Line int `json:"line"`
}

// MaxHostMemory bounds Offer.HostMemory: 64 TiB of host RAM a GPU, far past what
// a whole server holds (an eight-GPU DGX H100 has 2 TiB), so that a figure past it
// is a typo or a unit mistaken.
const MaxHostMemory = 64 << 40

// Validate reports every problem with o, joined, each a *FieldError naming the
// field by its JSON key ("card", "tariff.hourly") and wrapping ErrInvalid: a card
// name without letters or digits, a negative GPU limit, GPUs per instance that are negative or do
// not divide MaxGPUs, a negative line, an invalid tariff, an interruption rate
// that is negative, NaN or infinite, or host memory that is negative or past
// MaxHostMemory.
func (o Offer) Validate() error {
	return errors.Join(o.ValidateFields(), nest("tariff", o.Tariff.Validate()))
}

// ValidateFields is Validate without the tariff: what Validate reports of the
// offer's own fields, for a caller that validates each distinct tariff once
// (Tariff.Validate) however many offers share it.
func (o Offer) ValidateFields() error {
	var errs []error
	add := func(field, format string, args ...any) { errs = append(errs, invalid(field, format, args...)) }
	if CardKey(o.Card) == "" {
		add("card", "%s names no card", quote(o.Card))
	}
	if o.MaxGPUs < 0 {
		add("max_gpus", "%d is negative", o.MaxGPUs)
	}
	switch n := o.GPUsPerInstance; {
	case n < 0:
		add("gpus_per_instance", "%d is negative", n)
	case n > 0 && o.MaxGPUs%n != 0:
		add("max_gpus", "%d is not a whole number of instances of %d GPUs", o.MaxGPUs, n)
	}
	if o.Line < 0 {
		add("line", "%d is negative", o.Line)
	}
	if r := o.InterruptionsPerDay; math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		add("interruptions_per_day", "%v: want a finite number ≥ 0", r)
	}
	if m := o.HostMemory; m < 0 || m > MaxHostMemory {
		add("host_memory_bytes", "%d: want 0 (unknown) to %d (64 TiB a GPU)", m, int64(MaxHostMemory))
	}
	return errors.Join(errs...)
}

// name is "provider/region card" for messages.
func (o Offer) name() string {
	return text.OfferName(o.Provider, o.Region, o.Card, "without provider or card", o.Line)
}

// Comparison is one offer priced for a usage. Err is nil when the offer was
// priced, and wraps ErrUnavailable when it cannot serve the usage (too few GPUs, no
// hourly price for a trial); Quote is then zero.
type Comparison struct {
	Offer Offer `json:"offer"`
	Quote Quote `json:"quote"`
	Err   error `json:"-"`
}

// MarshalJSON writes {"offer": ..., "quote": ..., "error": null} for an offer that
// was priced, and {"offer": ..., "quote": null, "error": "why"} for one that cannot
// serve the usage, so that a reader of the JSON never takes an unavailable offer
// for a free one.
func (c Comparison) MarshalJSON() ([]byte, error) {
	w := struct {
		Offer Offer   `json:"offer"`
		Quote *Quote  `json:"quote"`
		Error *string `json:"error"`
	}{Offer: c.Offer}
	if c.Err != nil {
		msg := c.Err.Error()
		w.Error = &msg
	} else {
		w.Quote = &c.Quote
	}
	return jsonMarshal(w)
}

// Compare prices usage u on gpus GPUs under every offer and returns them cheapest
// first. An offer sold in instances (GPUsPerInstance) is priced for the whole
// instances the GPUs need: 6 GPUs on 8-GPU instances pay for one instance, 9 for
// two; its quote's quantities count instances. The order is total ascending, then
// provider, region and card, then input order (the sort is stable); offers that
// cannot serve the usage come last, each with its Err. Every offer must be valid
// (else ErrInvalid) and all must share one currency: Compare converts nothing, so
// mixed currencies are refused with ErrCurrencyMismatch; convert the price lists
// first.
func Compare(offers []Offer, u Usage, gpus int) ([]Comparison, error) {
	if err := errors.Join(u.Validate(), checkGPUs(gpus)); err != nil {
		return nil, err
	}
	for i, o := range offers {
		if err := o.Validate(); err != nil {
			return nil, &contextError{fmt.Sprintf("offer %d (%s)", i, o.name()), err}
		}
		if o.Tariff.Currency != offers[0].Tariff.Currency {
			return nil, fmt.Errorf("pricing: offer %d (%s) is in %s, offer 0 in %s: %w", i, o.name(),
				o.Tariff.Currency, offers[0].Tariff.Currency, ErrCurrencyMismatch)
		}
	}
	out := make([]Comparison, len(offers))
	for i, o := range offers {
		out[i].Offer = o
		// An offer sold in instances is priced for the whole instances that hold
		// the GPUs asked for.
		units, rented := gpus, gpus
		if n := o.GPUsPerInstance; n > 0 {
			units = (gpus + n - 1) / n
			rented = units * n
		}
		if o.MaxGPUs > 0 && rented > o.MaxGPUs {
			out[i].Err = fmt.Errorf("pricing: %s: %d GPUs asked, at most %d: %w", o.name(), gpus, o.MaxGPUs, ErrUnavailable)
			continue
		}
		q, err := o.Tariff.price(u, units) // tariff, usage and count valid
		if err != nil {
			out[i].Err = &contextError{o.name(), err}
			continue
		}
		out[i].Quote = q
	}
	slices.SortStableFunc(out, func(x, y Comparison) int {
		c := 0 // priced offers first, by total
		switch {
		case x.Err == nil && y.Err == nil:
			c = x.Quote.Total.Amount.Cmp(y.Quote.Total.Amount)
		case x.Err == nil:
			return -1
		case y.Err == nil:
			return 1
		}
		return cmp.Or(c, cmp.Compare(x.Offer.Provider, y.Offer.Provider),
			cmp.Compare(x.Offer.Region, y.Offer.Region), cmp.Compare(x.Offer.Card, y.Offer.Card))
	})
	return out, nil
}

// CardKey normalises a card name for grouping offers of the same card: fullwidth
// letters and digits read as ASCII (as Chinese input methods type them:
// "ＲＴＸ４０９０"), lower case, the vendor words "nvidia" and "geforce" dropped,
// and everything but letters and digits removed, so "NVIDIA GeForce RTX 4090",
// "RTX 4090", "ＲＴＸ４０９０" and "rtx-4090" share the key "rtx4090". It does not
// resolve aliases or variants ("A100 80GB" and "A100-SXM4-80GB" stay apart); the
// catalog does that.
func CardKey(name string) string {
	s := strings.ToLower(text.FoldWidth(name))
	s = strings.ReplaceAll(s, "nvidia", "")
	s = strings.ReplaceAll(s, "geforce", "")
	return strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			return r
		}
		return -1 // dropped
	}, s)
}

// PriceFlag is the outcome of a market check for one offer.
type PriceFlag int

const (
	// PriceNormal: within the threshold of the median.
	PriceNormal PriceFlag = iota
	// PriceBelow: below median × (1 − threshold).
	PriceBelow
	// PriceAbove: above median × (1 + threshold).
	PriceAbove
	// PriceUnchecked: no hourly price, or the only offer of its card.
	PriceUnchecked
)

// String returns "normal", "below", "above" or "unchecked".
func (f PriceFlag) String() string {
	return enumName("PriceFlag", int(f), "normal", "below", "above", "unchecked")
}

// MarshalText writes the flag's String, so JSON holds "below" rather than 1.
func (f PriceFlag) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// PriceCheck is the market check of one offer's hourly price against the median
// hourly price of the offers of the same card.
type PriceCheck struct {
	Offer   Offer     `json:"offer"`
	Card    string    `json:"card"`    // the market: CardKey of the offer's card, " (interruptible)" added for such offers
	Hourly  Money     `json:"hourly"`  // the offer's hourly price per GPU (an instance's over its GPUs)
	Median  Money     `json:"median"`  // the exact median of the hourly prices of that card
	Offers  int       `json:"offers"`  // offers of that card with an hourly price
	Flag    PriceFlag `json:"flag"`    // how the price stands against the median
	Message string    `json:"message"` // a sentence for a person; empty when normal
}

// MarketCheck compares each offer's hourly price with the median hourly price of
// the offers of the same card (by CardKey; interruptible offers, whose prices are
// meant to be lower, form a market of their own, "rtx4090 (interruptible)") and
// flags prices below median × (1 − threshold) or above median × (1 + threshold).
// The second article warns that a price far under the going rate often hides a
// lesser card or missing service; a price far above it is worth a second quote.
// The median is exact (the mean of the two middle prices for an even count).
// Offers without an hourly price, and cards with a single priced offer, are
// PriceUnchecked. Results are in input order.
//
// threshold is a fraction from 0 to 1 exclusive (0.3 flags prices 30% or more
// away from the median). Errors: ErrInvalid for a bad threshold or offer,
// ErrCurrencyMismatch for one card priced in two currencies.
func MarketCheck(offers []Offer, threshold decimal.Decimal) ([]PriceCheck, error) {
	markets := make([]string, len(offers))
	for i, o := range offers {
		markets[i] = CardKey(o.Card)
		if o.Interruptible {
			markets[i] += " (interruptible)"
		}
	}
	return MarketCheckIn(offers, markets, threshold)
}

// MarketCheckIn is MarketCheck with the markets given: markets[i] names offer i's
// market, and offers with equal names are compared with each other (a planner that
// resolved card names to catalog cards passes the card, so "A100 80GB" and "NVIDIA
// A100-SXM4-80GB" are one market). Messages name each offer's card as written.
// markets must have one entry per offer.
func MarketCheckIn(offers []Offer, markets []string, threshold decimal.Decimal) ([]PriceCheck, error) {
	if len(markets) != len(offers) {
		return nil, fmt.Errorf("pricing: market check: %d markets for %d offers: %w", len(markets), len(offers), ErrInvalid)
	}
	one := decimal.NewFromInt(1)
	// checkPrice bounds the exponent before any comparison: 1e-2000000000 would
	// take for ever to compare with 1.
	if checkPrice("threshold", threshold) != nil || threshold.Cmp(one) >= 0 {
		return nil, invalid("threshold", "%s: want a fraction from 0 to below 1", excerpt(threshold))
	}
	// A market: its currency, its hourly prices, and from them the median and the
	// prices below and above which an offer is flagged.
	type market struct {
		currency       string
		first          string // the first offer's name, for messages
		prices         []decimal.Decimal
		median, lo, hi decimal.Decimal
	}
	byName := map[string]*market{}
	for i, o := range offers {
		if err := o.Validate(); err != nil {
			return nil, &contextError{fmt.Sprintf("offer %d (%s)", i, o.name()), err}
		}
		if o.Tariff.Hourly.IsZero() {
			continue
		}
		m := byName[markets[i]]
		if m == nil {
			m = &market{currency: o.Tariff.Currency, first: o.name()}
			byName[markets[i]] = m
		} else if m.currency != o.Tariff.Currency {
			return nil, fmt.Errorf("pricing: market check: card %s priced in %s (%s) and %s (%s): %w",
				markets[i], m.currency, m.first, o.Tariff.Currency, o.name(), ErrCurrencyMismatch)
		}
		m.prices = append(m.prices, gpuHourly(o))
	}
	lo, hi := one.Sub(threshold), one.Add(threshold)
	for _, m := range byName {
		ps := m.prices
		slices.SortFunc(ps, decimal.Decimal.Cmp)
		n := len(ps)
		if n%2 == 1 {
			m.median = ps[n/2]
		} else {
			m.median = ps[n/2-1].Add(ps[n/2]).Mul(decimal.New(5, -1)) // exact half
		}
		m.lo, m.hi = m.median.Mul(lo), m.median.Mul(hi)
	}
	out := make([]PriceCheck, len(offers))
	for i, o := range offers {
		cur := o.Tariff.Currency
		pc := &out[i]
		*pc = PriceCheck{Offer: o, Card: markets[i], Hourly: Money{gpuHourly(o), cur}, Flag: PriceUnchecked}
		if o.Tariff.Hourly.IsZero() {
			pc.Message = o.name() + " has no hourly price to check"
			continue
		}
		m := byName[markets[i]]
		pc.Median = Money{m.median, cur}
		pc.Offers = len(m.prices)
		if pc.Offers < 2 {
			pc.Message = o.name() + " is the only offer of " + o.Card + " with an hourly price; nothing to compare"
			continue
		}
		p := pc.Hourly.Amount
		var side, advice string
		switch {
		case p.Cmp(m.lo) < 0:
			pc.Flag, side = PriceBelow, "below"
			advice = "a price far under the going rate often hides a lesser card or missing service; " +
				"check the delivered card with nvidia-smi and what support is included"
		case p.Cmp(m.hi) > 0:
			pc.Flag, side = PriceAbove, "above"
			advice = "ask what the premium buys (datacenter tier, support) or get another quote"
		default:
			pc.Flag = PriceNormal
			continue
		}
		// The distance from the median, for the message: |p/median − 1|·100 %.
		pct := roundQuo(p.Sub(m.median).Abs().Mul(decimal.NewFromInt(100)), m.median, 1, RoundHalfUp).StringFixed(1)
		pc.Message = fmt.Sprintf("%s at %s/h is %s%% %s the median %s/h of %d offers of %s: %s",
			o.name(), pc.Hourly.Exact(), pct, side, pc.Median.Exact(), pc.Offers, o.Card, advice)
	}
	return out, nil
}

// gpuHourly is an offer's hourly price per GPU: the tariff's, or for an offer
// sold in instances the instance's price over its GPUs, to 12 decimal places
// (half up) where the quotient does not end sooner.
func gpuHourly(o Offer) decimal.Decimal {
	if o.GPUsPerInstance <= 1 {
		return o.Tariff.Hourly
	}
	return trim(o.Tariff.Hourly.DivRound(decimal.NewFromInt(int64(o.GPUsPerInstance)), maxPricePlaces))
}

// SiteAvailability returns the design availability of a datacenter tier as the
// Uptime Institute's tier classification states it (Turner, Seader and Brill,
// "Tier Classifications Define Site Infrastructure Performance"): Tier I 99.671%,
// Tier II 99.741%, Tier III 99.982%, Tier IV 99.995%, or about 28.8, 22.7, 1.6 and
// 0.4 hours of site downtime in a year of 8760 hours (the paper rounds Tier II's
// to 22). The tier is read from the forms providers write: "T2", "Tier 2", "Tier
// II", "II", "2", any case. false for anything else, including an empty tier.
// These are the site's power and cooling, not the provider's network or hardware.
func SiteAvailability(tier string) (float64, bool) {
	level := tierLevel(tier)
	return [...]float64{0, 0.99671, 0.99741, 0.99982, 0.99995}[level], level != 0
}

// tierLevel reads a tier label as 1 to 4; 0 when it is not one. Fullwidth forms
// read as ASCII ("Ｔ３").
func tierLevel(tier string) int {
	s := strings.ToLower(strings.Join(strings.Fields(text.FoldWidth(tier)), ""))
	if rest, ok := strings.CutPrefix(s, "tier"); ok {
		s = rest
	} else {
		s = strings.TrimPrefix(s, "t")
	}
	for i, roman := range [...]string{"i", "ii", "iii", "iv"} {
		if s == roman || s == strconv.Itoa(i+1) {
			return i + 1
		}
	}
	return 0
}
