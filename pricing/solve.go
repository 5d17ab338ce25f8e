package pricing

import (
	"math"
	"math/big"
	"sort"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/shopspring/decimal"
)

// item is one kind of package for the search, in the units of the problem
// (seconds for a continuous run, days for daily sessions).
type item struct {
	name, unit string
	length     int64           // in problem units; positive
	price      *big.Int        // per package, in the problem's integer cost unit
	each       decimal.Decimal // per package, in money
	rank       int             // display order
}

// problem is a cover problem: choose counts n_i ≥ 0 so that Σ n_i·length_i plus a
// tail of remaining units covers need, at least cost Σ n_i·price_i + tail(rest).
// Costs are non-negative integers in a unit the caller chooses (a fraction of the
// currency), so the search is exact and allocates little.
type problem struct {
	items []item
	need  int64
	// tail sets dst to the cost of the remainder x > 0 covered without packages
	// (hourly time); nil when there is no hourly price. It must be monotone
	// non-decreasing and subadditive (tail(a+b) ≤ tail(a)+tail(b)), and
	// tail(x) ≥ x·tailRate.
	tail     func(x int64, dst *big.Int)
	tailRate *big.Int
	mix      bool // tail may be combined with packages
}

// solution is a cover: a count per item (same order as problem.items), the
// remainder left to the tail, and the cost.
type solution struct {
	counts []int64
	rest   int64
	cost   *big.Int
}

// kept is a package the search keeps, with its place in problem.items.
type kept struct {
	item
	orig int
}

// solve returns the cheapest cover of p.need. p must have a tail or at least one
// item.
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
// Packages the tail dominates are dropped first: when mixing is allowed and
// tail(length_i) ≤ price_i, replacing a package i by tail time never costs more,
// because the tail is monotone and subadditive. The depth-first search then visits
// every count vector allowed by 1 and 2, largest counts first, and prunes a branch
// only when a lower bound on everything below it is no better than a cover already
// found. The bound prices each remaining unit at the lowest per-unit rate of the
// remaining packages, for at most the length they can reach under 2, and the rest
// at the tail's rate (or the whole at the tail's rate, whichever is lower);
// divisions are floored, so a pruned branch cannot hold a strictly cheaper cover.
// Ties keep the cover found first: hourly only, then the largest counts of the
// cheapest-per-unit packages. Under Renew (no mixing) the packages-only search is
// compared with the tail-only cover.
func solve(p problem) solution {
	zero := solution{counts: make([]int64, len(p.items)), cost: new(big.Int)}
	if p.need <= 0 {
		return zero
	}
	var best solution
	found := false
	if p.tail != nil {
		best = solution{counts: make([]int64, len(p.items)), rest: p.need, cost: new(big.Int)}
		p.tail(p.need, best.cost)
		found = true
	}
	var ks []kept
	scratch := new(big.Int)
	for i, it := range p.items {
		if p.tail != nil && p.mix {
			p.tail(it.length, scratch)
			if scratch.Cmp(it.price) <= 0 {
				continue
			}
		}
		ks = append(ks, kept{it, i})
	}
	if len(ks) == 0 {
		return best
	}
	// Strict order: price per unit ascending (cross-multiplied), then longer
	// first, then original place.
	var l, r big.Int
	sort.SliceStable(ks, func(a, b int) bool {
		l.Mul(ks[a].price, big.NewInt(ks[b].length))
		r.Mul(ks[b].price, big.NewInt(ks[a].length))
		if c := l.Cmp(&r); c != 0 {
			return c < 0
		}
		if ks[a].length != ks[b].length {
			return ks[a].length > ks[b].length
		}
		return ks[a].orig < ks[b].orig
	})
	n := len(ks)
	caps := make([]int64, n)
	for i := range ks {
		caps[i] = math.MaxInt64
		for j := 0; j < i; j++ {
			if c := ks[j].length/gcd(ks[i].length, ks[j].length) - 1; c < caps[i] {
				caps[i] = c
			}
		}
	}
	// reach[i]: the most length packages i.. can add under the exchange caps,
	// saturating at MaxInt64 (the first package is uncapped).
	reach := make([]int64, n+1)
	for i := n - 1; i >= 0; i-- {
		v, ok := checked.Mul(caps[i], ks[i].length)
		if ok {
			v, ok = checked.Add(v, reach[i+1])
		}
		if !ok {
			v = math.MaxInt64
		}
		reach[i] = v
	}
	useTail := p.tail != nil && p.mix
	lengths := make([]*big.Int, n)
	for i := range ks {
		lengths[i] = big.NewInt(ks[i].length)
	}
	// Scratch for the bound.
	var lbPk, lbRest, lbAll, lbX, lbRem big.Int
	// lower sets dst to a lower bound on covering x with packages from i on (and
	// the tail when mixing); false when packages alone cannot reach x.
	lower := func(i int, x int64, dst *big.Int) bool {
		dst.SetInt64(0)
		if x <= 0 {
			return true
		}
		pk := x
		if i == n {
			pk = 0
		} else if reach[i] < pk {
			pk = reach[i]
		}
		lbPk.SetInt64(0)
		if pk > 0 {
			lbX.SetInt64(pk)
			lbPk.Mul(&lbX, ks[i].price)
			lbPk.QuoRem(&lbPk, lengths[i], &lbRem) // floored: both positive
		}
		if !useTail {
			if pk < x {
				return false
			}
			dst.Set(&lbPk)
			return true
		}
		lbX.SetInt64(x - pk)
		lbRest.Mul(&lbX, p.tailRate)
		lbRest.Add(&lbRest, &lbPk)
		lbX.SetInt64(x)
		lbAll.Mul(&lbX, p.tailRate)
		if lbAll.Cmp(&lbRest) < 0 {
			dst.Set(&lbAll)
		} else {
			dst.Set(&lbRest)
		}
		return true
	}
	counts := make([]int64, n)
	costs := make([]big.Int, n+1) // cost so far at each level
	var leaf, lb, k big.Int
	var dfs func(i int, x int64)
	dfs = func(i int, x int64) {
		if i == n {
			leaf.Set(&costs[n])
			rest := int64(0)
			if x > 0 {
				if !useTail {
					return
				}
				p.tail(x, scratch)
				leaf.Add(&leaf, scratch)
				rest = x
			}
			if !found || leaf.Cmp(best.cost) < 0 {
				best = solution{counts: mapBack(counts, ks, len(p.items)), rest: rest, cost: new(big.Int).Set(&leaf)}
				found = true
			}
			return
		}
		maxN := int64(0)
		if x > 0 {
			maxN = x / ks[i].length
			if x%ks[i].length != 0 {
				maxN++
			}
		}
		if maxN > caps[i] {
			maxN = caps[i]
		}
		for c := maxN; c >= 0; c-- {
			nx := x - c*ks[i].length // c·length < x + length: no overflow
			k.SetInt64(c)
			costs[i+1].Mul(&k, ks[i].price)
			costs[i+1].Add(&costs[i+1], &costs[i])
			if found {
				if !lower(i+1, nx, &lb) {
					break // fewer of i leaves even more for packages alone
				}
				lb.Add(&lb, &costs[i+1])
				if lb.Cmp(best.cost) >= 0 {
					continue
				}
			}
			counts[i] = c
			dfs(i+1, nx)
		}
		counts[i] = 0
	}
	dfs(0, p.need)
	if !found {
		return zero // unreachable: the first package is uncapped
	}
	return best
}

// mapBack returns counts in the problem's original item order.
func mapBack(counts []int64, ks []kept, n int) []int64 {
	out := make([]int64, n)
	for i, k := range ks {
		out[k.orig] = counts[i]
	}
	return out
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
