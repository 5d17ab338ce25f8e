package pricing

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/shopspring/decimal"
)

// pricer is a validated tariff made ready to price many usages: its packages,
// the cost scale, its prices as integers and the run problem, prepared for the
// search when a cover is first asked for. None of it depends on the usage or the
// GPU count, so one pricer can price any number of them (the planner's quote
// prices both of its quotes with one). Apart from that preparation, done once
// under a sync.Once, it is read-only once built, and safe for concurrent use.
//
// Costs are integers in units of 10^-scale / 3600 of the currency (hourly time
// is billed by the second), held as exact values: an int64 where it fits. The
// one cover algorithm (solve) runs on int64 when every cost it can reach fits
// (smallEnough), on *big.Int otherwise.
type pricer struct {
	t      Tariff
	minor  int32 // MinorUnit(t.Currency)
	pk     []pkg
	scale  int32
	hourly exact           // Hourly·10^scale
	prices [maxItems]exact // each package's price·10^scale·3600
	// run64 is the run problem in int64 when hasRun64, its lengths and prices
	// in secs and price64, prepared for the search (prepared) when a cover is
	// first asked for: a floor needs only the problem.
	hasRun64  bool
	run64     problem[int64]
	secs      [maxItems]int64
	price64   [maxItems]int64
	prepare64 sync.Once
	prepared  *prepared[int64]
}

// exact is a non-negative integer cost: v, or b when b is not nil (a value past
// int64, or one that came from the *big.Int search). add and mul move to b when
// v would overflow; neither changes its operands.
type exact struct {
	v int64
	b *big.Int
}

// big returns x as a *big.Int the caller must not change.
func (x exact) big() *big.Int {
	if x.b != nil {
		return x.b
	}
	return big.NewInt(x.v)
}

func (x exact) add(y exact) exact {
	if x.b == nil && y.b == nil {
		if v, ok := checked.Add(x.v, y.v); ok {
			return exact{v: v}
		}
	}
	return exact{b: new(big.Int).Add(x.big(), y.big())}
}

func (x exact) mul(k int64) exact {
	if x.b == nil {
		if v, ok := checked.Mul(x.v, k); ok {
			return exact{v: v}
		}
	}
	return exact{b: new(big.Int).Mul(x.big(), big.NewInt(k))}
}

// scaled returns d·10^scale; scale must be at least places(d).
func scaled(d decimal.Decimal, scale int32) exact {
	if t := splitDec(d); t.ok && int64(t.e)+int64(scale) <= 18 {
		return exact{v: t.c}.mul(pow10(int64(t.e) + int64(scale)))
	}
	d = trim(d)
	b := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Exponent())+int64(scale)), nil)
	return exact{b: b.Mul(b, d.Coefficient())}
}

// newPricer prepares t, which must be valid.
func newPricer(t Tariff) *pricer {
	p := &pricer{t: t, minor: MinorUnit(t.Currency)}
	p.pk = t.appendPackages(make([]pkg, 0, len(t.Terms)+3))
	p.scale = t.costScale(p.pk)
	p.hourly = scaled(t.Hourly, p.scale)
	for i, k := range p.pk {
		p.prices[i] = scaled(k.price, p.scale).mul(3600)
	}
	n := len(p.pk)
	if prob, ok := problemOf(int64Arith{}, p, 0, p.secs[:n], p.price64[:n]); ok && smallEnough(&prob, 1) {
		p.run64, p.hasRun64 = prob, true
	}
	return p
}

// problemOf is the run problem (session 0: lengths in seconds, the tail billed
// at the tariff's granularity and minimum) or the sessions problem (lengths in
// days, a day of tail one session billed for session seconds) in a's costs,
// written to lengths and prices (one per package); false when a cost does not
// fit.
func problemOf[C any, A arith[C]](a A, p *pricer, session int64, lengths []int64, prices []C) (problem[C], bool) {
	prob := problem[C]{lengths: lengths, prices: prices, mix: p.t.AfterPackage == BillHourly, step: 1}
	ok := true
	for i, k := range p.pk {
		lengths[i] = k.hours * 3600
		if session > 0 {
			lengths[i] = k.hours / 24
		}
		var fits bool
		prices[i], fits = a.of(p.prices[i])
		ok = ok && fits
	}
	if !p.t.Hourly.IsZero() {
		rate := p.hourly
		if session > 0 {
			rate = rate.mul(session)
		} else {
			prob.minUnits, prob.step = int64(p.t.Minimum/time.Second), int64(p.t.granularity()/time.Second)
		}
		var fits bool
		prob.hasTail = true
		prob.rate, fits = a.of(rate)
		ok = ok && fits
	}
	return prob, ok
}

// cover is a priced cover for one GPU: package counts (in p.pk order), billed
// hourly seconds after the packages, and the exact cost in the pricer's unit.
type cover struct {
	counts     [maxItems]int64
	hourlySecs int64
	cost       exact
}

// run returns the cheapest cover of a run of d (see priceRun); with packages
// false, the run paid by the hour alone (the tariff must have an hourly price).
func (p *pricer) run(d time.Duration, packages bool) cover {
	secs := ceilDiv(int64(d), int64(time.Second))
	if !packages {
		var billed int64
		if secs > 0 {
			billed = p.t.billedSecs(time.Duration(secs) * time.Second)
		}
		return p.hourlyCover(billed)
	}
	return p.search(secs, 0)
}

// hourlyCover is the cover of secs billed hourly seconds alone.
func (p *pricer) hourlyCover(secs int64) cover {
	return cover{hourlySecs: secs, cost: p.hourly.mul(secs)}
}

// packagesCover is the cover of counts packages (in p.pk order) and no hourly
// time, with its cost.
func (p *pricer) packagesCover(counts [maxItems]int64) cover {
	c := cover{counts: counts}
	for i, n := range counts[:len(p.pk)] {
		c.cost = c.cost.add(p.prices[i].mul(n))
	}
	return c
}

// sessions returns the cheapest cover of u.Days days of u.PerDay sessions: a
// package covers whole days, and each day's session is billed hourly on its own.
func (p *pricer) sessions(u Usage, packages bool) cover {
	session := p.t.billedSecs(u.PerDay)
	need := int64(u.Days)
	if !packages {
		return p.hourlyCover(need * session)
	}
	return p.search(need, session)
}

// search returns the cheapest cover of need on the run problem (session 0) or
// the sessions problem (see problemOf): on int64 when every cost fits, else on
// *big.Int.
func (p *pricer) search(need, session int64) cover {
	if session == 0 {
		if p.hasRun64 && smallEnough(&p.run64, need) {
			p.prepare64.Do(func() { p.prepared = prepare(int64Arith{}, p.run64) })
			return cheapest(int64Arith{}, p.prepared, need, 1)
		}
	} else {
		var lengths, prices [maxItems]int64
		if prob, ok := problemOf(int64Arith{}, p, session, lengths[:len(p.pk)], prices[:len(p.pk)]); ok && smallEnough(&prob, need) {
			var pr prepared[int64]
			prepareInto(int64Arith{}, &pr, prob)
			return cheapest(int64Arith{}, &pr, need, session)
		}
	}
	prob, _ := problemOf(bigArith{}, p, session, make([]int64, len(p.pk)), make([]*big.Int, len(p.pk)))
	return cheapest(bigArith{}, prepare(bigArith{}, prob), need, max(session, 1))
}

// cheapest returns the cheapest cover of need on pr, each unit of its tail
// billed for unitSecs seconds.
func cheapest[C any, A arith[C]](a A, pr *prepared[C], need, unitSecs int64) cover {
	sol := solve(a, pr, need)
	c := cover{counts: sol.counts, cost: a.exact(sol.cost)}
	if sol.rest > 0 {
		c.hourlySecs = pr.units(sol.rest) * unitSecs
	}
	return c
}

// price is Tariff.price; with packages false, the usage paid by the hour alone.
func (p *pricer) price(u Usage, gpus int, packages bool) (Quote, error) {
	c, trial, err := p.cover(u, packages)
	if err != nil {
		return Quote{}, err
	}
	return p.quote(c, trial, gpus), nil
}

// cover returns the cheapest cover of u (with packages false, by the hour alone)
// and the billed seconds of a trial before it.
func (p *pricer) cover(u Usage, packages bool) (cover, int64, error) {
	switch u.Pattern {
	case Sessions:
		return p.sessions(u, packages), 0, nil
	case TrialThenCommit:
		if p.t.Hourly.IsZero() {
			return cover{}, 0, &FieldError{Err: fmt.Errorf("a trial needs an hourly price: %w", ErrUnavailable)}
		}
		return p.run(u.Duration, packages), p.t.billedSecs(u.Trial), nil
	default:
		return p.run(u.Duration, packages), 0, nil
	}
}

// rawLines appends to lines the per-GPU lines of a cover, in a quote's order: a
// trial of trialSecs billed seconds first when positive, the packages, then
// hourly time.
func (p *pricer) rawLines(lines []rawLine, c cover, trialSecs int64) []rawLine {
	if trialSecs > 0 {
		lines = append(lines, rawLine{item: "trial", unit: "hour", secs: trialSecs, price: p.t.Hourly})
	}
	for i, k := range p.pk {
		if c.counts[i] > 0 {
			lines = append(lines, rawLine{item: k.name(), unit: k.unit, count: c.counts[i], price: k.price})
		}
	}
	if c.hourlySecs > 0 {
		lines = append(lines, rawLine{item: "hourly", unit: "hour", secs: c.hourlySecs, price: p.t.Hourly})
	}
	return lines
}

// quote turns a cover, and a trial of trialSecs before it, into a Quote for gpus
// GPUs: its lines, the total as total rounds it, and a rounding line for any
// difference between them.
func (p *pricer) quote(c cover, trialSecs int64, gpus int) Quote {
	var buf [maxItems + 2]rawLine
	q := Quote{Total: p.total(c, trialSecs, gpus), Lines: []Line{}}
	sum := decimal.Decimal{}
	for _, l := range p.rawLines(buf[:0], c, trialSecs) {
		ln := l.line(p.t.Currency, gpus)
		sum = sum.Add(ln.Amount.Amount)
		q.Lines = append(q.Lines, ln)
	}
	if diff := q.Total.Amount.Sub(sum); !diff.IsZero() {
		m := Money{Amount: diff, Currency: p.t.Currency}
		q.Lines = append(q.Lines, Line{Item: "rounding", Quantity: decimal.NewFromInt(1), Price: m, Amount: m})
	}
	return q
}

// floor is Pricer.Floor for a run of secs seconds, in minor units. A cover is
// hourly time alone, costing tail(secs) (problem), or holds some package i and
// costs at least its price; either way it costs at least secs at the lowest rate
// per second, as every package covers its length for its price and the tail
// costs at least the hourly rate per second. A value past int64 is above every
// one that fits, so it is left out of a minimum.
func (p *pricer) floor(secs int64, gpus int) (int64, bool) {
	if !p.hasRun64 {
		return 0, false
	}
	if secs == 0 {
		return 0, true // nothing to cover
	}
	pr := &p.run64
	// atRate: secs at the lowest rate; lo: the least of the covers' floors.
	atRate, lo := int64(math.MaxInt64), int64(math.MaxInt64)
	if pr.hasTail {
		atRate, lo = satMul(pr.rate, secs), satMul(pr.rate, pr.units(secs))
	}
	for i, l := range pr.lengths {
		if v, ok := (int64Arith{}).mulQuo(pr.prices[i], secs, l); ok {
			atRate = min(atRate, v)
		}
	}
	for _, c := range pr.prices {
		lo = min(lo, max(c, atRate))
	}
	return totalMinor(lo, p.scale, gpus, p.minor, p.t.Rounding)
}

// roundedLine is the one line of a cover of one kind of package, or of hourly
// time alone, for gpus GPUs, as quote writes it, with its Amount rounded once to
// the minor unit as total rounds the cover (an invoice's line).
func (p *pricer) roundedLine(c cover, gpus int) Line {
	var buf [maxItems + 2]rawLine
	lines := p.rawLines(buf[:0], c, 0)
	l := lines[0].head(p.t.Currency, gpus)
	l.Amount = p.total(c, 0, gpus)
	return l
}

// total is the Total of quote(c, trialSecs, gpus): the exact cost for gpus GPUs
// rounded once to the minor unit, from integers when they fit.
func (p *pricer) total(c cover, trialSecs int64, gpus int) Money {
	cost, minor := p.hourly.mul(trialSecs).add(c.cost), p.minor
	if cost.b == nil {
		if tot, ok := totalMinor(cost.v, p.scale, gpus, minor, p.t.Rounding); ok {
			return Money{Amount: decimal.New(tot, -minor), Currency: p.t.Currency}
		}
	}
	amt := decimal.NewFromBigInt(cost.mul(int64(gpus)).big(), -p.scale)
	return Money{Amount: roundQuo(amt, decimal.NewFromInt(3600), minor, p.t.Rounding), Currency: p.t.Currency}
}

// totalMinor is the total of a quote in minor units from integers: an exact
// cost exact/(3600·10^scale) per GPU, times gpus, rounded once; false when a
// value does not fit an int64. exact ≥ 0.
func totalMinor(exact int64, scale int32, gpus int, minor int32, mode RoundingMode) (int64, bool) {
	// total = exact·gpus·10^minor / (3600·10^scale), rounded once.
	g := int64(gpus)
	b, den := g, int64(3600)
	var ok bool
	if minor >= scale {
		b, ok = checked.Mul(g, pow10(int64(minor-scale)))
	} else {
		den, ok = checked.Mul(den, pow10(int64(scale-minor)))
	}
	if !ok {
		return 0, false
	}
	tot, _, ok := mulDivRound(uint64(exact), uint64(b), uint64(den), mode)
	return tot, ok
}

// mulDivRound returns a·b/d rounded to an integer with mode (the remainder
// decides: above half rounds up, a half goes up or to even), whether the division
// was exact, and false when the result does not fit an int64. d > 0.
func mulDivRound(a, b, d uint64, mode RoundingMode) (int64, bool, bool) {
	hi, lo := bits.Mul64(a, b)
	if hi >= d {
		return 0, false, false
	}
	q, r := bits.Div64(hi, lo, d)
	if r != 0 {
		if r > d-r || (r == d-r && (mode == RoundHalfUp || q&1 == 1)) {
			q++
		}
	}
	if q > math.MaxInt64 {
		return 0, false, false
	}
	return int64(q), r == 0, true
}

// pow10 returns 10^n for 0 <= n <= 18, without a table to keep in memory.
func pow10(n int64) int64 {
	v := int64(1)
	for ; n > 0; n-- {
		v *= 10
	}
	return v
}
