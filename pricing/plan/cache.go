package plan

import (
	"encoding/binary"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// cache is what one Report works out once and shares among the offers that
// need it: each distinct tariff validated and prepared (keyed on its canonical
// encoding, tariffKey), each class of offers that price alike with what was
// found for it at each GPU count, and each card's fit at each GPU count. Maps
// find them; tariffs sit in a slice, by number, and classes are made a few
// dozen at a time, so that thousands of offers make few allocations. A price
// list often gives the next offer a copy of the last one's tariff (a
// provider's regions): that one is tried before the map. It lives for one
// call; nothing is kept between calls.
type cache struct {
	tariffIDs map[string]int32 // by tariffKey
	tariffs   []tariff
	classes   map[classKey]*class
	spare     []class // classes made ahead, handed out in order
	fits      map[fitKey]*fit
	key       []byte // scratch for tariffKey

	last      *pricing.Tariff // the tariff numbered last, and its number
	lastID    int32
	lastClass classKey // the class found last
	lastCl    *class
}

// newCache returns an empty cache for n offers. A price list has fewer
// tariffs and classes than offers, and far fewer when it is long (a thousand
// synthetic offers, twenty cards from twelve providers, hold 240 tariffs in
// 260 classes; ten thousand, 446 in 720): the maps start at a quarter of the
// offers, at most 1024, and grow past that.
func newCache(n int) *cache {
	hint := min(n/4, 1024)
	return &cache{tariffIDs: make(map[string]int32, hint), tariffs: make([]tariff, 0, hint),
		classes: make(map[classKey]*class, hint), fits: make(map[fitKey]*fit, 64)}
}

// fitKey is what a fit depends on: the card, keyed on its place as the offers
// resolved it (a pointer hashes faster than an ID; names that resolve to one
// card, "A100 80GB" and "NVIDIA A100-SXM4-80GB", are two places and fit the
// card once each), the GPUs, the GPUs per server (serverOf) and the host RAM
// per GPU the offer has (zero: unknown, no limit).
type fitKey struct {
	card   *catalog.Card
	gpus   int
	server int
	host   sizing.Bytes
}

// tariff is one distinct tariff of the offers: the first offer's (a Planner
// does not change its offers), whether it is valid, and once an offer kept
// needs it, prepared.
type tariff struct {
	t        *pricing.Tariff
	err      error // Tariff.Validate's, once checked
	checked  bool
	prepared bool
	pr       pricing.Pricer
}

// tariff returns the number of t, the same for every tariff written alike
// (tariffKey).
func (c *cache) tariff(t *pricing.Tariff) int32 {
	if c.last != nil && sameCopy(c.last, t) {
		return c.lastID
	}
	c.key = tariffKey(c.key[:0], t)
	id, ok := c.tariffIDs[string(c.key)] // no allocation for the lookup
	if !ok {
		id = int32(len(c.tariffs))
		c.tariffs = append(c.tariffs, tariff{t: t})
		c.tariffIDs[string(c.key)] = id
	}
	c.last, c.lastID = t, id
	return id
}

// sameCopy reports whether b is a copy of a: each field equal, each decimal
// sharing a's coefficient and the terms a's array. Copies write alike, so they
// have one key; other tariffs are left to the key.
func sameCopy(a, b *pricing.Tariff) bool {
	return a.Currency == b.Currency && a.Hourly == b.Hourly && a.Daily == b.Daily && a.Weekly == b.Weekly &&
		a.Monthly == b.Monthly && a.HoursPerMonth == b.HoursPerMonth && a.Granularity == b.Granularity &&
		a.Minimum == b.Minimum && a.AfterPackage == b.AfterPackage && a.Rounding == b.Rounding &&
		len(a.Terms) == len(b.Terms) && (len(a.Terms) == 0 || &a.Terms[0] == &b.Terms[0])
}

// check validates the tariff once.
func (e *tariff) check() error {
	if !e.checked {
		e.err, e.checked = e.t.Validate(), true
	}
	return e.err
}

// pricer returns the tariff prepared (pricing.NewPricer, which validates it),
// once.
func (e *tariff) pricer() (*pricing.Pricer, error) {
	if !e.prepared {
		if e.checked && e.err != nil {
			return nil, e.err
		}
		e.pr, e.err = pricing.NewPricer(*e.t)
		e.checked = true
		if e.err != nil {
			return nil, e.err
		}
		e.prepared = true
	}
	return &e.pr, nil
}

// tariffKey appends the canonical encoding of t to b: every field pricing
// reads, in a fixed order, each self-delimiting (varints, a length before
// each string and list), each decimal as written (its coefficient and
// exponent: 1.80 and 1.8 stay apart, so that each option's quote shows its
// offer's prices as the price list wrote them). Two tariffs have the same key
// exactly when they agree on all of it.
func tariffKey(b []byte, t *pricing.Tariff) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.Currency)))
	b = append(b, t.Currency...)
	for _, d := range [...]decimal.Decimal{t.Hourly, t.Daily, t.Weekly, t.Monthly} {
		b = appendDecimal(b, d)
	}
	for _, v := range [...]int64{int64(t.HoursPerMonth), int64(t.Granularity), int64(t.Minimum), int64(t.AfterPackage), int64(t.Rounding)} {
		b = binary.AppendVarint(b, v)
	}
	b = binary.AppendUvarint(b, uint64(len(t.Terms)))
	for _, term := range t.Terms {
		b = binary.AppendVarint(b, int64(term.Months))
		b = appendDecimal(b, term.Monthly)
		b = appendDecimal(b, term.Discount)
	}
	return b
}

// appendDecimal appends d as written: its exponent, then a tag and its
// coefficient (0: zero, which the zero value holds without a coefficient to
// read; 1: a varint; 2 and 3: the magnitude's bytes of a positive or negative
// coefficient past 18 digits, after their length).
func appendDecimal(b []byte, d decimal.Decimal) []byte {
	b = binary.AppendVarint(b, int64(d.Exponent()))
	switch {
	case d.IsZero():
		return append(b, 0)
	case d.NumDigits() <= 18:
		return binary.AppendVarint(append(b, 1), d.CoefficientInt64())
	}
	c := d.Coefficient()
	tag := byte(2)
	if c.Sign() < 0 {
		tag = 3
	}
	mag := c.Bytes()
	b = binary.AppendUvarint(append(b, tag), uint64(len(mag)))
	return append(b, mag...)
}

// class is the offers that price alike: the same tariff, catalog card, instance
// size, interruptions and host RAM (a provider's regions often share them). For
// each GPU count (serving: GPUs per replica) a slot holds what pricing found,
// so that it is worked out once per class rather than once per offer.
type class struct {
	tariff int32
	slots  [GPUsPerServer]slot // the counts 1 to GPUsPerServer
	more   map[int]*slot       // the counts past it, made on first use
}

// classKey is what makes offers price alike: the tariff, the catalog card, the
// instance size, the interruptions and the host RAM.
type classKey struct {
	tariff        int32
	card          *catalog.Card
	perInstance   int
	interruptions float64
	interruptible bool
	host          int64 // host RAM per GPU: it sets which layouts fit
}

// class returns the class of offer o, whose tariff is number t and card card.
func (c *cache) class(t int32, card *catalog.Card, o *pricing.Offer) *class {
	k := classKey{t, card, o.GPUsPerInstance, o.InterruptionsPerDay, o.Interruptible, o.HostMemory}
	if c.lastCl != nil && k == c.lastClass {
		return c.lastCl
	}
	cl := c.classes[k]
	if cl == nil {
		if len(c.spare) == 0 {
			c.spare = make([]class, min(64, 1+len(c.classes)))
		}
		cl, c.spare = &c.spare[0], c.spare[1:]
		cl.tariff = t
		c.classes[k] = cl
	}
	c.lastClass, c.lastCl = k, cl
	return cl
}

// slot is what one class found at one count.
type slot struct {
	fit *fit

	done *priced // nil: not priced yet
	// above: the rental's floor was found above every bar below it, in whole
	// minor units (zero: none; a lower bar is lower still).
	above int64
}

// slot returns the class's slot at count n.
func (cl *class) slot(n int) *slot {
	if n <= GPUsPerServer {
		return &cl.slots[n-1]
	}
	if cl.more == nil {
		cl.more = make(map[int]*slot)
	}
	s := cl.more[n]
	if s == nil {
		s = new(slot)
		cl.more[n] = s
	}
	return s
}
