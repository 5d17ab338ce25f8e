package pricing

import (
	"math"
	"slices"

	"github.com/gpuplan/gpuplan/internal/checked"
)

// solveCover returns the cheapest cover of need > 0, picked among equals by
// solve's rule, in time that does not grow with need once the tables below
// stop at their bounds.
//
// Let b be the first package of the order (the cheapest per unit of length) and
// G a length that divides length_b. The packages split in two families: F,
// those whose lengths are multiples of G (b among them), and S, the rest. A
// cover is then an exact fill of S packages of length a, the packages of F
// other than b filling s, n_b packages b, and the tail t. For the cover solve
// returns:
//
//   - a and s are bounded by the exchange caps (Σ caps_i·length_i over the
//     family; b alone is uncapped), by the rates (a, s ≤ rateCap: see prepare),
//     and by need: a cover is shorter than need plus each of its packages, or
//     one could be dropped;
//   - t is below tMax: a tail as long as a package no dearer than its time
//     billed hourly, plus the minimum, would buy that package instead at no
//     extra cost and one more package (larger counts); with no such package, a
//     tail past the minimum would replace any package more cheaply. Package
//     lengths are multiples of the tail's step, so a stretch of tail past the
//     minimum costs exactly its length times the rate.
//
// Two tables hold the cheapest fills, each keeping the lexicographically
// largest counts among equals (an unbounded knapsack, last package first,
// preferring one more of a package on a tie): S's fills in cells of the
// greatest common divisor of S's lengths, up to a's bound, and F's fills
// without b in cells of G, up to s's bound. For each a, the rest y = need − a is
// covered either by F alone, whose cheapest cover depends on y only through
// k = ⌈y/G⌉ (F's lengths are multiples of G), or by an exact fill of F of
// length j·G < y and the tail y − j·G below tMax. Both are computed once per k
// and per j (cover, exact) from the F table and b repeated, so the work is the
// two tables plus, per cell of S, one cover and a few exact fills.
//
// G is chosen among the common divisors of length_b and the lengths of any other
// packages, to make that work least (plan).
// With a tariff's packages (days and weeks; months and terms), when a month or
// a term is the cheapest per hour, G is a month and S the days and weeks, so
// the tables count days and months, not hours: a tariff of eight terms at
// nearly one price per hour costs as little at a hundred years as at one.
func solveCover[C any, A arith[C]](a A, pr *prepared[C], need int64) solution[C] {
	c := &coverSearch[C, A]{a: a, pr: pr, need: need}
	if pr.hasTail {
		c.best = candidate[C]{cost: a.mul(pr.rate, pr.units(need)), rest: need, tailOnly: true}
		c.found = true
	}
	if len(pr.ks) > 0 {
		c.search()
	}
	sol := solution[C]{cost: c.best.cost, rest: c.best.rest}
	if !c.best.tailOnly {
		sol.counts = c.counts(c.best.a, c.best.s, c.best.nb)
	}
	return sol
}

// coverSearch is one run of solveCover.
type coverSearch[C any, A arith[C]] struct {
	a    A
	pr   *prepared[C]
	need int64

	b      kept[C]
	g      int64    // G: the F table's cell
	p      int64    // length_b in cells of G
	tMax   int64    // a cover with packages has a tail below tMax
	tail   bool     // the tail may follow packages
	sf, ff table[C] // S's fills; F's fills without b
	// cf[k] is F's cheapest cover of k cells of G, ex[j] its cheapest fill of
	// exactly j cells, for k and j below the F table's end (coverOf, exactOf).
	cf, ex []part[C]

	best  candidate[C]
	found bool

	fsBuf, ssBuf [maxItems]kept[C] // the families
}

// candidate is a cover: S's fill of cell a, F's fill (without b) of cell s, nb
// packages b and rest of tail; or the tail alone.
type candidate[C any] struct {
	cost     C
	a, s, nb int64
	rest     int64
	tailOnly bool
}

// table holds the cheapest fills of each length, in cells of unit, by ks.
type table[C any] struct {
	ks   []kept[C]
	unit int64
	cost []C
	// took[c] has bit i set when the fill of c takes one more ks[i], and the bit
	// reached when c can be filled at all.
	took []uint16
}

// reached marks a cell of a table that can be filled; packages use bits 0 to
// maxItems−1 of a cell.
const reached uint16 = 1 << 15

// fill returns the table of ks's cheapest fills of cells 0..len(cost)−1, in
// cost and took, which are zero: one pass per package, last first; a tie takes
// one more of the package, so each cell holds the lexicographically largest
// counts among its cheapest fills.
func fill[C any, A arith[C]](a A, ks []kept[C], unit int64, cost []C, took []uint16) table[C] {
	t, cells := table[C]{ks: ks, unit: unit, cost: cost, took: took}, int64(len(cost))
	t.cost[0], t.took[0] = a.zero(), reached
	for i := len(ks) - 1; i >= 0; i-- {
		step, price, bit := ks[i].length/unit, ks[i].price, uint16(1)<<i
		for s := step; s < cells; s++ {
			if t.took[s-step]&reached == 0 {
				continue
			}
			c := a.add(t.cost[s-step], price)
			if t.took[s]&reached == 0 || a.cmp(c, t.cost[s]) <= 0 {
				t.cost[s] = c
				t.took[s] |= bit | reached
			}
		}
	}
	return t
}

func (t *table[C]) ok(cell int64) bool { return t.took[cell]&reached != 0 }

// add adds the counts of cell's fill to n, which is indexed by the packages'
// places in the problem. A cell's first set bit in the order is the last pass
// that changed it; the cell it leads to is read as that pass left it.
func (t *table[C]) add(cell int64, n *[maxItems]int64) {
	for i, k := range t.ks {
		for t.took[cell]&(1<<i) != 0 {
			n[k.orig]++
			cell -= k.length / t.unit
		}
	}
}

// part is F's part of a cover: its fill without b (a cell of the F table) and
// nb packages b.
type part[C any] struct {
	cost  C
	s, nb int64
	ok    bool
}

// search chooses G, fills the tables and joins them.
func (c *coverSearch[C, A]) search() {
	pr, a := c.pr, c.a
	c.b = pr.ks[0]
	c.tail = pr.hasTail && pr.mix
	if c.tail {
		var shortest int64
		for _, k := range pr.ks {
			if k.length%pr.step != 0 {
				// The bound needs package lengths in whole steps; without it,
				// the tail is bounded by need alone.
				shortest = c.need
				break
			}
			if a.cmp(k.price, a.mul(pr.rate, k.length)) <= 0 && (shortest == 0 || k.length < shortest) {
				shortest = k.length
			}
		}
		c.tMax = min(satAdd(pr.minUnits, shortest), c.need) // a tail is at most need
	}
	g, gs, sMax, aMax := c.plan()
	c.g, c.p = g, c.b.length/g
	fs, ss := c.fsBuf[:0], c.ssBuf[:0]
	for _, k := range pr.ks[1:] {
		if k.length%g == 0 {
			fs = append(fs, k)
		} else {
			ss = append(ss, k)
		}
	}
	// One allocation of each kind for both tables.
	nf, ns := sMax/g+1, aMax/gs+1
	cost, took := make([]C, nf+ns), make([]uint16, nf+ns)
	c.ff = fill(a, fs, g, cost[:nf:nf], took[:nf:nf])
	c.sf = fill(a, ss, gs, cost[nf:], took[nf:])
	c.parts()
	c.join()
}

// plan returns the G that makes the search's work least (ties: the larger G),
// the S table's cell (the greatest common divisor of S's lengths, 1 when S is
// empty), and the bounds on s and a, rounded down to their tables' cells.
func (c *coverSearch[C, A]) plan() (g, gs, sMax, aMax int64) {
	ks := c.pr.ks
	// The candidates: the greatest common divisors of b's length with those of
	// any other packages, so that each family of lengths (days and weeks;
	// months and terms) can be F.
	cands := append(make([]int64, 0, 16), c.b.length)
	for _, k := range ks[1:] {
		for _, x := range cands {
			if v := gcd(x, k.length); !slices.Contains(cands, v) {
				cands = append(cands, v)
			}
		}
	}
	var bestW int64 = -1
	for _, cand := range cands {
		var sCap, aCap, maxF, maxS, cgs, nf, ns int64
		for i, o := range ks[1:] {
			v := satMul(c.pr.caps[i+1], o.length)
			if o.length%cand == 0 {
				sCap, maxF, nf = satAdd(sCap, v), max(maxF, o.length), nf+1
			} else {
				aCap, maxS, ns, cgs = satAdd(aCap, v), max(maxS, o.length), ns+1, gcd(o.length, cgs)
			}
		}
		cgs = max(cgs, 1)
		s := min(sCap, c.pr.rateCap, satAdd(c.need-1, maxF))  // 0 when F is b alone
		aa := min(aCap, c.pr.rateCap, satAdd(c.need-1, maxS)) // 0 when S is empty
		s, aa = s-s%cand, aa-aa%cgs
		fCells, sCells := s/cand+1, aa/cgs+1
		// The tables, F's covers and exact fills, and the join.
		w := satAdd(satMul(nf+2, fCells), satMul(ns+1, sCells))
		if c.tail {
			w = satAdd(w, satMul(sCells, c.tMax/cand+1))
		}
		if bestW < 0 || w < bestW || (w == bestW && cand > g) {
			bestW, g, gs, sMax, aMax = w, cand, cgs, s, aa
		}
	}
	return g, gs, sMax, aMax
}

// join considers, for each S fill, the covers of the rest by F alone and by an
// exact fill of F and the tail.
func (c *coverSearch[C, A]) join() {
	a, pr := c.a, c.pr
	for ai := range int64(len(c.sf.cost)) {
		if !c.sf.ok(ai) {
			continue
		}
		sc := c.sf.cost[ai]
		y := c.need - ai*c.sf.unit
		if y <= 0 {
			c.consider(candidate[C]{cost: sc, a: ai})
			continue
		}
		k := ceilDiv(y, c.g)
		if f := c.coverOf(k); f.ok {
			c.consider(candidate[C]{cost: a.add(sc, f.cost), a: ai, s: f.s, nb: f.nb})
		}
		if !c.tail {
			continue
		}
		for j := max(0, ceilDiv(y-c.tMax+1, c.g)); j < k; j++ {
			if ai == 0 && j == 0 {
				continue // the tail alone, already the first candidate
			}
			if f := c.exactOf(j); f.ok {
				rest := y - j*c.g
				cost := a.add(a.add(sc, f.cost), a.mul(pr.rate, pr.units(rest)))
				c.consider(candidate[C]{cost: cost, a: ai, s: f.s, nb: f.nb, rest: rest})
			}
		}
	}
}

// parts fills cf and ex. F's cheapest cover of k cells is its cheapest fill
// without b of k cells or more, or one b more than its cheapest cover of k − p
// cells (p is b's length in cells), and its cheapest exact fill of j cells is
// its fill without b of j cells, or one b more than its exact fill of j − p; on
// a tie, the one with b, which comes first in the order.
func (c *coverSearch[C, A]) parts() {
	a, n := c.a, int64(len(c.ff.cost))
	parts := make([]part[C], 2*n)
	c.cf = parts[:n:n]
	best := int64(-1) // the cheapest fill of k cells or more
	for k := n - 1; k >= 0; k-- {
		if c.ff.ok(k) {
			if best < 0 {
				best = k
			} else if x := a.cmp(c.ff.cost[k], c.ff.cost[best]); x < 0 ||
				(x == 0 && c.larger(c.counts(-1, k, 0), c.counts(-1, best, 0))) {
				best = k
			}
		}
		if best >= 0 {
			c.cf[k] = part[C]{cost: c.ff.cost[best], s: best, ok: true}
		}
	}
	for k := int64(1); k < n; k++ {
		c.cf[k] = c.orB(c.cf[k], c.coverOf(k-c.p))
	}
	if !c.tail {
		return
	}
	c.ex = parts[n:]
	for j := range n {
		if c.ff.ok(j) {
			c.ex[j] = part[C]{cost: c.ff.cost[j], s: j, ok: true}
		}
		if j >= c.p {
			c.ex[j] = c.orB(c.ex[j], c.ex[j-c.p])
		}
	}
}

// orB returns x, or prev with one more b when that is no dearer.
func (c *coverSearch[C, A]) orB(x, prev part[C]) part[C] {
	if !prev.ok {
		return x
	}
	y := part[C]{cost: c.a.add(prev.cost, c.b.price), s: prev.s, nb: prev.nb + 1, ok: true}
	if !x.ok || c.a.cmp(y.cost, x.cost) <= 0 {
		return y
	}
	return x
}

// coverOf returns F's cheapest cover of k cells of G. Past the F table's end no
// fill without b reaches k, so each p cells more cost one b more.
func (c *coverSearch[C, A]) coverOf(k int64) part[C] {
	n := int64(len(c.cf))
	switch {
	case k <= 0:
		return part[C]{cost: c.a.zero(), ok: true}
	case k < n:
		return c.cf[k]
	}
	m := (k-n)/c.p + 1
	return c.plusB(c.coverOf(k-m*c.p), m)
}

// exactOf returns F's cheapest fill of exactly j ≥ 0 cells of G, if any.
func (c *coverSearch[C, A]) exactOf(j int64) part[C] {
	n := int64(len(c.ex))
	if j < n {
		return c.ex[j]
	}
	m := (j-n)/c.p + 1
	if j < m*c.p {
		return part[C]{} // no fill without b is as long as j modulo b
	}
	return c.plusB(c.ex[j-m*c.p], m)
}

// plusB returns x with m more b.
func (c *coverSearch[C, A]) plusB(x part[C], m int64) part[C] {
	if x.ok {
		x.cost, x.nb = c.a.add(x.cost, c.a.mul(c.b.price, m)), x.nb+m
	}
	return x
}

// consider keeps x when it is cheaper than the best cover so far, or as cheap
// with larger counts; the tail alone is kept among equals.
func (c *coverSearch[C, A]) consider(x candidate[C]) {
	if c.found {
		switch d := c.a.cmp(x.cost, c.best.cost); {
		case d > 0:
			return
		case d == 0:
			if c.best.tailOnly || !c.larger(c.counts(x.a, x.s, x.nb), c.counts(c.best.a, c.best.s, c.best.nb)) {
				return
			}
		}
	}
	c.best, c.found = x, true
}

// counts returns the package counts of a cover (S cell a, none when negative;
// F cell s; nb packages b), indexed by the packages' places in the problem.
func (c *coverSearch[C, A]) counts(a, s, nb int64) [maxItems]int64 {
	var n [maxItems]int64
	if a >= 0 {
		c.sf.add(a, &n)
	}
	c.ff.add(s, &n)
	n[c.b.orig] += nb
	return n
}

// larger reports whether counts x are lexicographically larger than y, read in
// the search's order.
func (c *coverSearch[C, A]) larger(x, y [maxItems]int64) bool {
	for _, k := range c.pr.ks {
		if x[k.orig] != y[k.orig] {
			return x[k.orig] > y[k.orig]
		}
	}
	return false
}

// ceilDiv returns ⌈x/d⌉ for d > 0 (x / d truncates toward zero).
func ceilDiv(x, d int64) int64 {
	q := x / d
	if x%d > 0 {
		q++
	}
	return q
}

// satAdd and satMul are x+y and x·y for x, y ≥ 0, saturating at MaxInt64: the
// search's bounds and work estimates may be unbounded.
func satAdd(x, y int64) int64 {
	if v, ok := checked.Add(x, y); ok {
		return v
	}
	return math.MaxInt64
}

func satMul(x, y int64) int64 {
	if v, ok := checked.Mul(x, y); ok {
		return v
	}
	return math.MaxInt64
}
