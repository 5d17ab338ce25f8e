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
// is billed by the second). The one cover algorithm (solve) runs on int64 when
// every cost it can reach fits (smallEnough), on *big.Int otherwise; quotes are
// built once, from the exact cost, in decimal (buildQuote), and a total alone
// from integers when they fit (totalMinor).
type pricer struct {
	t     Tariff
	pk    []pkg
	scale int32
	// small: hourly64 and price64 hold Hourly·10^scale and each package's
	// price·10^scale·3600; run64 is the run problem in int64 when hasRun64,
	// prepared for the search (prepared) when a cover is first asked for: a
	// floor needs only the problem.
	small     bool
	hasRun64  bool
	hourly64  int64
	price64   [maxItems]int64
	runLen    [maxItems]int64 // package lengths in seconds
	run64     problem[int64]
	prepare64 sync.Once
	prepared  *prepared[int64]
	hourlyC   decParts // Hourly, trimmed
	forceBig  bool     // tests: take the *big.Int and decimal path
}

// decParts is a decimal c·10^e whose coefficient fits an int64.
type decParts struct {
	c  int64
	e  int32
	ok bool
}

// splitDec returns d's coefficient and exponent as written, and with trailing
// zeros after the point dropped (as trim does), when the coefficient fits an
// int64. NumDigits is exact (it checks its estimate), and at most 18 digits fit,
// so CoefficientInt64 is then exact too; neither copies the coefficient.
func splitDec(d decimal.Decimal) (raw, trimmed decParts) {
	if d.IsZero() {
		return decParts{0, d.Exponent(), true}, decParts{0, 0, true}
	}
	if d.NumDigits() > 18 {
		return decParts{}, decParts{}
	}
	v, e := d.CoefficientInt64(), d.Exponent()
	raw = decParts{v, e, true}
	if v == 0 {
		return raw, decParts{0, 0, true}
	}
	for e < 0 && v%10 == 0 {
		v /= 10
		e++
	}
	return raw, decParts{v, e, true}
}

// newPricer prepares t, which must be valid.
func newPricer(t Tariff) *pricer {
	p := &pricer{t: t}
	p.pk = t.appendPackages(make([]pkg, 0, len(t.Terms)+3))
	var trimmed [maxItems]decParts
	_, p.hourlyC = splitDec(t.Hourly)
	p.small = p.hourlyC.ok
	p.scale = max(0, -p.hourlyC.e)
	for i, k := range p.pk {
		_, trimmed[i] = splitDec(k.price)
		p.small = p.small && trimmed[i].ok
		p.scale = max(p.scale, -trimmed[i].e)
		p.runLen[i] = k.hours * 3600
	}
	if !p.small {
		p.scale = t.costScale(p.pk)
		return p
	}
	p.hourly64, p.small = int64Of(p.hourlyC, p.scale)
	for i := range p.pk {
		v, ok := int64Of(trimmed[i], p.scale)
		if ok {
			v, ok = checked.Mul(v, 3600)
		}
		p.price64[i], p.small = v, p.small && ok
	}
	if p.small {
		if prob := p.runProblem64(); smallEnough(&prob, 1) {
			p.run64, p.hasRun64 = prob, true
		}
	}
	return p
}

// int64Of returns c·10^(e+p) as an int64; e+p ≥ 0.
func int64Of(c decParts, p int32) (int64, bool) {
	shift := int64(c.e) + int64(p)
	if !c.ok || shift < 0 || shift > 18 {
		return 0, false
	}
	return checked.Mul(c.c, pow10(shift))
}

func (p *pricer) granularitySecs() int64 { return int64(p.t.granularity() / time.Second) }

// runProblem64 is the run problem in seconds with int64 costs; p.small.
func (p *pricer) runProblem64() problem[int64] {
	n := len(p.pk)
	prob := problem[int64]{lengths: p.runLen[:n], prices: p.price64[:n],
		mix: p.t.AfterPackage == BillHourly, step: 1}
	if !p.t.Hourly.IsZero() {
		prob.hasTail, prob.rate = true, p.hourly64
		prob.minUnits, prob.step = int64(p.t.Minimum/time.Second), p.granularitySecs()
	}
	return prob
}

// problemBig is the run (days false, in seconds) or sessions (days true, a
// session billed for sessionSecs) problem with *big.Int costs.
func (p *pricer) problemBig(days bool, sessionSecs int64) problem[*big.Int] {
	prob := problem[*big.Int]{lengths: make([]int64, len(p.pk)), prices: make([]*big.Int, len(p.pk)),
		mix: p.t.AfterPackage == BillHourly, step: 1}
	for i, k := range p.pk {
		prob.lengths[i] = k.hours * 3600
		if days {
			prob.lengths[i] = k.hours / 24
		}
		prob.prices[i] = new(big.Int).Mul(toInt(k.price, p.scale), big.NewInt(3600))
	}
	if !p.t.Hourly.IsZero() {
		prob.hasTail, prob.rate = true, toInt(p.t.Hourly, p.scale)
		if days {
			prob.rate.Mul(prob.rate, big.NewInt(sessionSecs))
		} else {
			prob.minUnits, prob.step = int64(p.t.Minimum/time.Second), p.granularitySecs()
		}
	}
	return prob
}

// cover is a priced cover for one GPU: package counts (in p.pk order), billed
// hourly seconds after the packages, and the exact cost in the pricer's unit,
// as an int64 when small and as a *big.Int otherwise.
type cover struct {
	counts     [maxItems]int64
	hourlySecs int64
	small      bool
	cost64     int64
	costBig    *big.Int
}

func (c cover) costInt() *big.Int {
	if c.small {
		return big.NewInt(c.cost64)
	}
	return c.costBig
}

// run returns the cheapest cover of a run of d (see priceRun); with packages
// false, the run paid by the hour alone (the tariff must have an hourly price).
func (p *pricer) run(d time.Duration, packages bool) cover {
	secs := int64(d / time.Second)
	if d%time.Second != 0 {
		secs++
	}
	if !packages {
		var c cover
		if secs > 0 {
			c.hourlySecs = p.t.billedSecs(time.Duration(secs) * time.Second)
		}
		return p.hourlyCover(c, c.hourlySecs)
	}
	if p.hasRun64 && !p.forceBig && smallEnough(&p.run64, secs) {
		p.prepare64.Do(func() { p.prepared = prepare(int64Arith{}, p.run64) })
		sol := solve(int64Arith{}, p.prepared, secs)
		c := cover{counts: sol.counts, small: true, cost64: sol.cost}
		if sol.rest > 0 {
			c.hourlySecs = p.run64.units(sol.rest)
		}
		return c
	}
	prob := p.problemBig(false, 0)
	sol := solve(bigArith{}, prepare(bigArith{}, prob), secs)
	c := cover{counts: sol.counts, costBig: sol.cost}
	if sol.rest > 0 {
		c.hourlySecs = prob.units(sol.rest)
	}
	return c
}

// hourlyCover sets c's cost to secs billed hourly seconds.
func (p *pricer) hourlyCover(c cover, secs int64) cover {
	if p.small && !p.forceBig {
		if v, ok := checked.Mul(p.hourly64, secs); ok {
			c.small, c.cost64 = true, v
			return c
		}
	}
	c.costBig = new(big.Int).Mul(toInt(p.t.Hourly, p.scale), big.NewInt(secs))
	return c
}

// packagesCover is the cover of counts packages (in p.pk order) and no hourly
// time, with its cost.
func (p *pricer) packagesCover(counts [maxItems]int64) cover {
	c := cover{counts: counts}
	if p.small && !p.forceBig {
		var sum int64
		ok := true
		for i := 0; ok && i < len(p.pk); i++ {
			var v int64
			if v, ok = checked.Mul(p.price64[i], counts[i]); ok {
				sum, ok = checked.Add(sum, v)
			}
		}
		if ok {
			c.small, c.cost64 = true, sum
			return c
		}
	}
	c.costBig = new(big.Int)
	for i, n := range counts[:len(p.pk)] {
		v := new(big.Int).Mul(toInt(p.pk[i].price, p.scale), big.NewInt(3600))
		c.costBig.Add(c.costBig, v.Mul(v, big.NewInt(n)))
	}
	return c
}

// sessions returns the cheapest cover of u.Days days of u.PerDay sessions: a
// package covers whole days, and each day's session is billed hourly on its own.
func (p *pricer) sessions(u Usage, packages bool) cover {
	session := p.t.billedSecs(u.PerDay)
	need := int64(u.Days)
	if !packages {
		return p.hourlyCover(cover{hourlySecs: need * session}, need*session)
	}
	if p.small && !p.forceBig {
		var days [maxItems]int64
		for i, k := range p.pk {
			days[i] = k.hours / 24
		}
		prob := problem[int64]{lengths: days[:len(p.pk)], prices: p.price64[:len(p.pk)],
			mix: p.t.AfterPackage == BillHourly, step: 1}
		ok := true
		if !p.t.Hourly.IsZero() {
			prob.hasTail = true
			prob.rate, ok = checked.Mul(p.hourly64, session)
		}
		if ok && smallEnough(&prob, need) {
			var pr prepared[int64]
			prepareInto(int64Arith{}, &pr, prob)
			sol := solve(int64Arith{}, &pr, need)
			return cover{counts: sol.counts, hourlySecs: sol.rest * session, small: true, cost64: sol.cost}
		}
	}
	sol := solve(bigArith{}, prepare(bigArith{}, p.problemBig(true, session)), need)
	return cover{counts: sol.counts, hourlySecs: sol.rest * session, costBig: sol.cost}
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
			return cover{}, 0, fmt.Errorf("pricing: a trial needs an hourly price: %w", ErrUnavailable)
		}
		return p.run(u.Duration, packages), p.t.billedSecs(u.Trial), nil
	default:
		return p.run(u.Duration, packages), 0, nil
	}
}

// quotes prices u on gpus GPUs as price does, and the same usage paid by the
// hour alone, for comparison with the best packages: the zero Quote when the
// tariff has no hourly price. When the cheapest cover uses no package, it is the
// hourly cover itself, so the second quote is the first with its own lines.
func (p *pricer) quotes(u Usage, gpus int) (Quote, Quote, error) {
	c, trial, err := p.cover(u, true)
	if err != nil {
		return Quote{}, Quote{}, err
	}
	cost := p.quote(c, trial, gpus)
	if !p.t.Hourly.IsPositive() {
		return cost, Quote{}, nil
	}
	if c.counts == ([maxItems]int64{}) {
		hourly := cost
		hourly.Lines = append(make([]Line, 0, len(cost.Lines)), cost.Lines...)
		return cost, hourly, nil
	}
	h, trial, err := p.cover(u, false)
	if err != nil {
		return Quote{}, Quote{}, err
	}
	return cost, p.quote(h, trial, gpus), nil
}

// rawLines appends to lines the per-GPU lines of a cover, in rank order, with a
// trial of trialSecs billed seconds first when positive.
func (p *pricer) rawLines(lines []rawLine, c cover, trialSecs int64) []rawLine {
	if trialSecs > 0 {
		lines = append(lines, rawLine{item: "trial", unit: "hour", secs: trialSecs, price: p.t.Hourly, rank: -1})
	}
	for i, k := range p.pk {
		if c.counts[i] > 0 {
			lines = append(lines, rawLine{item: k.name(), unit: k.unit, count: c.counts[i], price: k.price, rank: i})
		}
	}
	if c.hourlySecs > 0 {
		lines = append(lines, rawLine{item: "hourly", unit: "hour", secs: c.hourlySecs, price: p.t.Hourly, rank: 100})
	}
	return lines
}

// quote turns a cover, and a trial of trialSecs before it, into a Quote for gpus
// GPUs: from integers when they fit, else with decimal arithmetic.
func (p *pricer) quote(c cover, trialSecs int64, gpus int) Quote {
	var buf [maxItems + 2]rawLine
	lines := p.rawLines(buf[:0], c, trialSecs)
	exact := new(big.Int).Mul(toInt(p.t.Hourly, p.scale), big.NewInt(trialSecs))
	exact.Add(exact, c.costInt())
	return buildQuote(p.t.Currency, p.t.Rounding, lines, decimal.NewFromBigInt(exact, -p.scale), decimal.NewFromInt(3600), gpus)
}

// floor is Pricer.Floor for a run of secs seconds, in minor units. A cover is
// hourly time alone, costing tail(secs) (problem), or holds some package i and
// costs at least its price; either way it costs at least secs at the lowest rate
// per second, as every package covers its length for its price and the tail
// costs at least the hourly rate per second. A value past int64 is above every
// one that fits, so it is left out of a minimum.
func (p *pricer) floor(secs int64, gpus int) (int64, bool) {
	if !p.hasRun64 || p.forceBig {
		return 0, false
	}
	if secs == 0 {
		return 0, true // nothing to cover
	}
	pr := &p.run64
	atRate := int64(math.MaxInt64) // secs at the lowest rate
	if v, ok := checked.Mul(pr.rate, secs); ok && pr.hasTail {
		atRate = v
	}
	for i, l := range pr.lengths {
		if v, ok := (int64Arith{}).mulQuo(pr.prices[i], secs, l); ok {
			atRate = min(atRate, v)
		}
	}
	lo := int64(math.MaxInt64)
	if v, ok := checked.Mul(pr.rate, pr.units(secs)); ok && pr.hasTail {
		lo = v
	}
	for _, c := range pr.prices {
		lo = min(lo, max(c, atRate))
	}
	return totalMinor(lo, p.scale, gpus, MinorUnit(p.t.Currency), p.t.Rounding)
}

// roundedLine is the one line of a cover of one kind of package, or of hourly
// time alone, for gpus GPUs, as quote writes it, with its Amount rounded once to
// the minor unit as total rounds the cover (an invoice's line).
func (p *pricer) roundedLine(c cover, gpus int) Line {
	var buf [maxItems + 2]rawLine
	lines := p.rawLines(buf[:0], c, 0)
	l := lines[0].line(p.t.Currency, decimal.NewFromInt(int64(gpus)))
	l.Amount = p.total(c, 0, gpus)
	return l
}

// total is the Total of quote(c, trialSecs, gpus): the exact cost for gpus GPUs
// rounded once, as buildQuote rounds it.
func (p *pricer) total(c cover, trialSecs int64, gpus int) Money {
	if c.small && !p.forceBig {
		exact, ok := checked.Mul(p.hourly64, trialSecs)
		if ok {
			exact, ok = checked.Add(exact, c.cost64)
		}
		minor := MinorUnit(p.t.Currency)
		if tot, ok2 := totalMinor(exact, p.scale, gpus, minor, p.t.Rounding); ok && ok2 {
			return Money{Amount: decimal.New(tot, -minor), Currency: p.t.Currency}
		}
	}
	exact := new(big.Int).Mul(toInt(p.t.Hourly, p.scale), big.NewInt(trialSecs))
	exact.Add(exact, c.costInt())
	exact.Mul(exact, big.NewInt(int64(gpus)))
	amt := roundQuo(decimal.NewFromBigInt(exact, -p.scale), decimal.NewFromInt(3600), MinorUnit(p.t.Currency), p.t.Rounding)
	return Money{Amount: amt, Currency: p.t.Currency}
}

// totalMinor is the total of a quote in minor units from integers: an exact
// cost exact/(3600·10^scale) per GPU, times gpus, rounded once; false when a
// value does not fit an int64.
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
	if !ok || exact < 0 {
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
