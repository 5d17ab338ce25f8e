package pricing

import (
	"math"
	"math/big"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/shopspring/decimal"
)

// maxItems is the most packages a tariff can have: eight terms (Validate) and the
// monthly, weekly and daily packages.
const maxItems = 11

// arith is the integer arithmetic the search needs, written once for two cost
// types: int64, when every magnitude the search can reach is known to fit (see
// smallEnough), and *big.Int otherwise. Operands are never negative. The big.Int
// methods return fresh values and never change their operands, so costs can be
// shared like int64s.
type arith[C any] interface {
	zero() C
	add(a, b C) C
	mul(a C, k int64) C // a·k, k ≥ 0
	quo(a C, d int64) C // ⌊a/d⌋, d > 0
	cmp(a, b C) int
}

// int64Arith is arith on int64. It does not check for overflow: the search runs
// on it only after smallEnough has bounded every value it can compute.
type int64Arith struct{}

func (int64Arith) zero() int64          { return 0 }
func (int64Arith) add(a, b int64) int64 { return a + b }
func (int64Arith) mul(a, k int64) int64 { return a * k }
func (int64Arith) quo(a, d int64) int64 { return a / d }
func (int64Arith) cmp(a, b int64) int   { return cmpInt64(a, b) }

// bigArith is arith on *big.Int, for prices or needs too large for int64.
type bigArith struct{}

func (bigArith) zero() *big.Int             { return new(big.Int) }
func (bigArith) add(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func (bigArith) mul(a *big.Int, k int64) *big.Int {
	return new(big.Int).Mul(a, big.NewInt(k))
}
func (bigArith) quo(a *big.Int, d int64) *big.Int {
	return new(big.Int).Quo(a, big.NewInt(d)) // truncation is the floor: a ≥ 0
}
func (bigArith) cmp(a, b *big.Int) int { return a.Cmp(b) }

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// problem is a cover problem: choose counts n_i ≥ 0 so that Σ n_i·length_i plus a
// tail of remaining units covers need, at least cost Σ n_i·price_i + tail(rest).
// Costs are non-negative integers in a unit the caller chooses (a fraction of the
// currency), so the search is exact.
//
// The tail, when hasTail, is hourly time: tail(x) = rate·units(x), where
// units(x) = x, or minUnits when larger, rounded up to a multiple of step (a
// billing granularity and minimum; step 1 and minUnits 0 make it x). It is
// monotone non-decreasing and subadditive (tail(a+b) ≤ tail(a)+tail(b)), and
// tail(x) ≥ x·rate, which is all the proof below needs.
type problem[C any] struct {
	lengths  []int64 // per item, in problem units; positive
	prices   []C     // per item, in the cost unit
	hasTail  bool
	rate     C
	minUnits int64
	step     int64
	mix      bool // tail may be combined with packages
}

// units is the billed tail length of a remainder x > 0.
func (p *problem[C]) units(x int64) int64 {
	if x < p.minUnits {
		x = p.minUnits
	}
	n := x / p.step
	if x%p.step != 0 {
		n++
	}
	return n * p.step
}

// kept is a package the search keeps, with its place in the problem's items.
type kept[C any] struct {
	length int64
	price  C
	orig   int
}

// prepared is a problem made ready for any need: the packages kept, in the
// search's order, with their exchange caps and reach. None of it depends on the
// need, so a tariff prepares a run problem once and searches it many times.
type prepared[C any] struct {
	problem[C]
	ks    []kept[C] // in ksBuf
	caps  [maxItems]int64
	reach [maxItems + 1]int64 // len(ks)+1 used
	ksBuf [maxItems]kept[C]
}

// solution is a cover: a count per item (in the problem's item order), the
// remainder left to the tail, and the cost.
type solution[C any] struct {
	counts [maxItems]int64
	rest   int64
	cost   C
}

// prepare drops the packages the tail dominates, orders the rest and computes
// the exchange caps and reach (see solve for why).
func prepare[C any, A arith[C]](a A, p problem[C]) *prepared[C] {
	pr := new(prepared[C])
	prepareInto(a, pr, p)
	return pr
}

// prepareInto is prepare into pr, which the caller allocates.
func prepareInto[C any, A arith[C]](a A, pr *prepared[C], p problem[C]) {
	pr.problem, pr.ks = p, pr.ksBuf[:0]
	for i, l := range p.lengths {
		if p.hasTail && p.mix && a.cmp(a.mul(p.rate, p.units(l)), p.prices[i]) <= 0 {
			continue
		}
		pr.ks = append(pr.ks, kept[C]{l, p.prices[i], i})
	}
	// Strict order: price per unit ascending (cross-multiplied), then longer
	// first, then original place. An insertion sort: at most maxItems packages.
	ks := pr.ks
	before := func(x, y kept[C]) bool {
		if c := a.cmp(a.mul(x.price, y.length), a.mul(y.price, x.length)); c != 0 {
			return c < 0
		}
		if x.length != y.length {
			return x.length > y.length
		}
		return x.orig < y.orig
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && before(ks[j], ks[j-1]); j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	n := len(ks)
	for i := range ks {
		pr.caps[i] = math.MaxInt64
		for j := 0; j < i; j++ {
			if c := ks[j].length/gcd(ks[i].length, ks[j].length) - 1; c < pr.caps[i] {
				pr.caps[i] = c
			}
		}
	}
	// reach[i]: the most length packages i.. can add under the exchange caps,
	// saturating at MaxInt64 (the first package is uncapped).
	pr.reach[n] = 0
	for i := n - 1; i >= 0; i-- {
		v, ok := checked.Mul(pr.caps[i], ks[i].length)
		if ok {
			v, ok = checked.Add(v, pr.reach[i+1])
		}
		if !ok {
			v = math.MaxInt64
		}
		pr.reach[i] = v
	}
}

// solve returns the cheapest cover of need. The problem must have a tail or at
// least one item.
//
// Why it is the cheapest. Sort the packages by price per unit of length (then
// longer first), giving a strict order. Among the cheapest covers, take those of
// least package length, and among them the one whose counts are largest in that
// order (lexicographically). That cover has two properties the search relies on:
//
//  1. No overshoot: for every package i it uses, the total package length is less
//     than need + length_i; otherwise dropping one i would still cover need with
//     no tail, at no greater cost and less length. So at the level of i, with x
//     left to cover, n_i ≤ ceil(x/length_i), and n_i = 0 once x ≤ 0.
//  2. Exchange: for j before i in the order, n_i < length_j/gcd(length_i,
//     length_j); otherwise length_j/g copies of i could be swapped for
//     length_i/g copies of j, the same length at no greater cost (j is no dearer
//     per unit), giving a lexicographically larger cover.
//
// Packages the tail dominates are dropped first (prepare): when mixing is allowed
// and tail(length_i) ≤ price_i, replacing a package i by tail time never costs
// more, because the tail is monotone and subadditive. The depth-first search then
// visits every count vector allowed by 1 and 2, largest counts first, and prunes
// a branch only when a lower bound on everything below it is no better than a
// cover already found. The bound prices each remaining unit at the lowest
// per-unit rate of the remaining packages, for at most the length they can reach
// under 2, and the rest at the tail's rate (or the whole at the tail's rate,
// whichever is lower); divisions are floored, so a pruned branch cannot hold a
// strictly cheaper cover. Ties keep the cover found first: hourly only, then the
// largest counts of the cheapest-per-unit packages. Under Renew (no mixing) the
// packages-only search is compared with the tail-only cover.
//
// The search is the same code for int64 and *big.Int costs; only arith differs.
//
// Packages of nearly equal price per hour and coprime lengths (terms of 5, 17, 23
// and 59 months at almost one price) leave the bound little to prune, and the
// search can grow without limit in the number of terms. After searchBudget
// visits it stops and solveTable answers instead, in time linear in the need.
func solve[C any, A arith[C]](a A, pr *prepared[C], need int64) solution[C] {
	return solveWithin(a, pr, need, searchBudget)
}

// searchBudget is the most nodes solve's search visits before it hands the
// problem to solveTable: milliseconds with int64 costs, a few tenths of a second
// with *big.Int ones, and sixteen times what any tariff of common packages needs
// (TestSearchBudgetCommonTariffs counts their nodes).
const searchBudget = 1 << 18

// solveWithin is solve with the search's node budget given.
func solveWithin[C any, A arith[C]](a A, pr *prepared[C], need int64, budget int) solution[C] {
	s := searcher[C, A]{a: a, pr: pr, useTail: pr.hasTail && pr.mix, budget: budget}
	s.best.cost = a.zero()
	if need <= 0 {
		return s.best
	}
	if pr.hasTail {
		s.best.rest = need
		s.best.cost = a.mul(pr.rate, pr.units(need))
		s.found = true
	}
	if len(pr.ks) == 0 {
		return s.best
	}
	s.costs[0] = a.zero()
	s.dfs(0, need)
	if s.budget < 0 {
		return solveTable(a, pr, need)
	}
	return s.best // found: the first package is uncapped
}

// searcher is the state of one depth-first search.
type searcher[C any, A arith[C]] struct {
	a       A
	pr      *prepared[C]
	useTail bool
	found   bool
	budget  int // nodes left to visit; negative: the search gave up
	best    solution[C]
	counts  [maxItems]int64 // in the search's order
	costs   [maxItems + 1]C // cost so far at each level
}

// lower returns a lower bound on covering x with packages from i on (and the
// tail when mixing); false when packages alone cannot reach x.
func (s *searcher[C, A]) lower(i int, x int64) (C, bool) {
	a, pr := s.a, s.pr
	if x <= 0 {
		return a.zero(), true
	}
	pk := x
	if i == len(pr.ks) {
		pk = 0
	} else if pr.reach[i] < pk {
		pk = pr.reach[i]
	}
	lbPk := a.zero()
	if pk > 0 {
		// ⌊pk·price/length⌋ as q·price + ⌊r·price/length⌋ with pk = q·length + r:
		// the same floor, with smaller intermediate products.
		k := pr.ks[i]
		q, r := pk/k.length, pk%k.length
		lbPk = a.add(a.mul(k.price, q), a.quo(a.mul(k.price, r), k.length))
	}
	if !s.useTail {
		return lbPk, pk >= x
	}
	rest := a.add(a.mul(pr.rate, x-pk), lbPk)
	all := a.mul(pr.rate, x)
	if a.cmp(all, rest) < 0 {
		return all, true
	}
	return rest, true
}

func (s *searcher[C, A]) dfs(i int, x int64) {
	if s.budget--; s.budget < 0 {
		return
	}
	a, pr := s.a, s.pr
	n := len(pr.ks)
	if i == n {
		leaf := s.costs[n]
		rest := int64(0)
		if x > 0 {
			if !s.useTail {
				return
			}
			leaf = a.add(leaf, a.mul(pr.rate, pr.units(x)))
			rest = x
		}
		if !s.found || a.cmp(leaf, s.best.cost) < 0 {
			s.best = solution[C]{rest: rest, cost: leaf}
			for j, k := range pr.ks {
				s.best.counts[k.orig] = s.counts[j]
			}
			s.found = true
		}
		return
	}
	k := pr.ks[i]
	maxN := int64(0)
	if x > 0 {
		maxN = x / k.length
		if x%k.length != 0 {
			maxN++
		}
	}
	if maxN > pr.caps[i] {
		maxN = pr.caps[i]
	}
	for c := maxN; c >= 0; c-- {
		nx := x - c*k.length // c·length < x + length: no overflow
		s.costs[i+1] = a.add(s.costs[i], a.mul(k.price, c))
		if s.found {
			lb, ok := s.lower(i+1, nx)
			if !ok {
				break // fewer of i leaves even more for packages alone
			}
			if a.cmp(a.add(lb, s.costs[i+1]), s.best.cost) >= 0 {
				continue
			}
		}
		s.counts[i] = c
		s.dfs(i+1, nx)
		if s.budget < 0 {
			return
		}
	}
	s.counts[i] = 0
}

// solveTable returns the cheapest cover of need > 0 by dynamic programming over
// package lengths, for the problems solve's search gives up on. Every package
// length is a multiple of g, their greatest common divisor (a whole hour or day
// for any tariff), so the package time of a cover is k·g for some k, and the
// table holds, for every k up to ⌈(need + longest)/g⌉, the cheapest way to fill
// exactly k·g with packages (a cheapest cover never overshoots by a whole
// package; see solve). The answer is the cheapest of table[k] plus the tail for
// need − k·g when mixing (or nothing once k·g covers need), against hourly time
// alone. Ties keep hourly time alone, then less package time, then the package
// earlier in the search's order (cheaper per hour). The table has about a million
// entries at MaxDuration in seconds, a few megabytes for int64 costs.
func solveTable[C any, A arith[C]](a A, pr *prepared[C], need int64) solution[C] {
	best := solution[C]{cost: a.zero()}
	found := false
	if pr.hasTail {
		best.rest = need
		best.cost = a.mul(pr.rate, pr.units(need))
		found = true
	}
	g, longest := int64(0), int64(0)
	for _, k := range pr.ks {
		g, longest = gcd(k.length, g), max(longest, k.length)
	}
	size := (need+longest)/g + 1
	cost := make([]C, size)
	last := make([]int8, size) // the package that ends table[k]; -1: k·g cannot be filled
	cost[0], last[0] = a.zero(), int8(len(pr.ks))
	for k := int64(1); k < size; k++ {
		last[k] = -1
		for j, p := range pr.ks {
			step := p.length / g
			if step > k || last[k-step] < 0 {
				continue
			}
			c := a.add(cost[k-step], p.price)
			if last[k] < 0 || a.cmp(c, cost[k]) < 0 {
				cost[k], last[k] = c, int8(j)
			}
		}
	}
	useTail := pr.hasTail && pr.mix
	bestK := int64(-1)
	for k := int64(1); k < size; k++ {
		if last[k] < 0 {
			continue
		}
		c, rest := cost[k], need-k*g
		if rest > 0 {
			if !useTail {
				continue
			}
			c = a.add(c, a.mul(pr.rate, pr.units(rest)))
		}
		if !found || a.cmp(c, best.cost) < 0 {
			best.cost, best.rest, bestK, found = c, max(rest, 0), k, true
		}
	}
	if bestK > 0 {
		for k := bestK; k > 0; {
			j := last[k]
			best.counts[pr.ks[j].orig]++
			k -= pr.ks[j].length / g
		}
	}
	return best
}

// smallEnough reports whether the search on pr, for needs up to need, stays
// inside int64: it bounds every value solve and lower can compute. With A_i =
// ceil(need/length_i)·price_i (at least any count of i times its price, and the
// q·price of the bound), T = tail(max(need, longest)) (at least any tail and any
// x·rate), and X = the largest price times the longest length (the order's
// cross products and the bound's r·price), every cost is at most
// Σ A_i + max A_i + T + X.
func smallEnough(pr *problem[int64], need int64) bool {
	if need < 1 {
		need = 1
	}
	var sum, maxA, maxP, maxL int64
	for i, l := range pr.lengths {
		q := need / l
		if need%l != 0 {
			q++
		}
		ai, ok := checked.Mul(q, pr.prices[i])
		if !ok {
			return false
		}
		if sum, ok = checked.Add(sum, ai); !ok {
			return false
		}
		maxA, maxP, maxL = max(maxA, ai), max(maxP, pr.prices[i]), max(maxL, l)
	}
	var tail int64
	if pr.hasTail {
		var ok bool
		if tail, ok = checked.Mul(pr.rate, pr.units(max(need, maxL))); !ok {
			return false
		}
	}
	x, ok := checked.Mul(maxP, maxL)
	for _, v := range []int64{maxA, tail, x} {
		if !ok {
			return false
		}
		sum, ok = checked.Add(sum, v)
	}
	return ok
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// places returns the number of decimal places d needs (zero for an integer).
func places(d decimal.Decimal) int32 {
	if e := trim(d).Exponent(); e < 0 {
		return -e
	}
	return 0
}

// toInt returns d·10^p as an integer; p must be at least places(d).
func toInt(d decimal.Decimal, p int32) *big.Int {
	d = trim(d)
	c := d.Coefficient()
	shift := int64(d.Exponent()) + int64(p)
	switch {
	case shift > 0 && shift < 19:
		c.Mul(c, big.NewInt(pow10(shift)))
	case shift > 0:
		c.Mul(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(shift), nil))
	}
	return c
}

// pow10 returns 10^n for 0 <= n <= 18, without a table to keep in memory.
func pow10(n int64) int64 {
	v := int64(1)
	for ; n > 0; n-- {
		v *= 10
	}
	return v
}
