package pricing

import (
	"cmp"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/gpuplan/gpuplan/internal/checked"
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
	cmp(a, b C) int
	exact(a C) exact
	of(x exact) (C, bool) // x as a C; false when it does not fit
	// cmpMul compares a·x with b·y (x, y ≥ 0) exactly.
	cmpMul(a C, x int64, b C, y int64) int
}

// int64Arith is arith on int64. It does not check for overflow: the search runs
// on it only after smallEnough has bounded every value it can compute.
type int64Arith struct{}

func (int64Arith) zero() int64              { return 0 }
func (int64Arith) add(a, b int64) int64     { return a + b }
func (int64Arith) mul(a, k int64) int64     { return a * k }
func (int64Arith) cmp(a, b int64) int       { return cmp.Compare(a, b) }
func (int64Arith) exact(a int64) exact      { return exact{v: a} }
func (int64Arith) of(x exact) (int64, bool) { return x.v, x.b == nil }
func (int64Arith) cmpMul(a, x, b, y int64) int {
	h1, l1 := bits.Mul64(uint64(a), uint64(x))
	h2, l2 := bits.Mul64(uint64(b), uint64(y))
	if h1 != h2 {
		return cmp.Compare(h1, h2)
	}
	return cmp.Compare(l1, l2)
}

// mulQuo returns ⌊a·k/d⌋ when d > 0 and the result fits an int64.
func (int64Arith) mulQuo(a, k, d int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(k))
	if d <= 0 || hi >= uint64(d) {
		return 0, false
	}
	q, _ := bits.Div64(hi, lo, uint64(d))
	return int64(q), q <= math.MaxInt64
}

// bigArith is arith on *big.Int, for prices or needs too large for int64.
type bigArith struct{}

func (bigArith) zero() *big.Int             { return new(big.Int) }
func (bigArith) add(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func (bigArith) mul(a *big.Int, k int64) *big.Int {
	return new(big.Int).Mul(a, big.NewInt(k))
}
func (bigArith) cmp(a, b *big.Int) int       { return a.Cmp(b) }
func (bigArith) exact(a *big.Int) exact      { return exact{b: a} }
func (bigArith) of(x exact) (*big.Int, bool) { return x.big(), true }
func (bigArith) cmpMul(a *big.Int, x int64, b *big.Int, y int64) int {
	return new(big.Int).Mul(a, big.NewInt(x)).Cmp(new(big.Int).Mul(b, big.NewInt(y)))
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
	return ceilDiv(max(x, p.minUnits), p.step) * p.step
}

// kept is a package the search keeps, with its place in the problem's items.
type kept[C any] struct {
	length int64
	price  C
	orig   int
}

// prepared is a problem made ready for any need: the packages kept, in the
// search's order, with their exchange caps. None of it depends on the
// need, so a tariff prepares a run problem once and searches it many times.
type prepared[C any] struct {
	problem[C]
	ks   []kept[C] // in ksBuf
	caps [maxItems]int64
	// rateCap bounds the length of the packages other than the first in a
	// cheapest cover by their rates (see solveCover); MaxInt64 when none does.
	rateCap int64
	ksBuf   [maxItems]kept[C]
}

// solution is a cover: a count per item (in the problem's item order), the
// remainder left to the tail, and the cost.
type solution[C any] struct {
	counts [maxItems]int64
	rest   int64
	cost   C
}

// prepare drops the packages the tail dominates, orders the rest and computes
// the exchange caps (see solve for why).
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
	// A strict order: price per unit ascending (cross-multiplied), then longer
	// first, then original place.
	ks := pr.ks
	slices.SortFunc(ks, func(x, y kept[C]) int {
		return cmp.Or(a.cmpMul(x.price, y.length, y.price, x.length), cmp.Compare(y.length, x.length), cmp.Compare(x.orig, y.orig))
	})
	// rateCap: s·(price_2·length_b − price_b·length_2) < price_b·length_2·length_b.
	pr.rateCap = math.MaxInt64
	if len(ks) > 1 {
		p2, l2, pb, lb := a.exact(ks[1].price).big(), big.NewInt(ks[1].length), a.exact(ks[0].price).big(), big.NewInt(ks[0].length)
		d := new(big.Int).Sub(new(big.Int).Mul(p2, lb), new(big.Int).Mul(pb, l2))
		if d.Sign() > 0 {
			q := new(big.Int).Mul(pb, l2)
			q.Quo(q.Mul(q, lb), d)
			if q.IsInt64() {
				pr.rateCap = q.Int64()
			}
		}
	}
	// caps[i]: the most of package i a cheapest cover holds. k copies of i can
	// be swapped for ⌈k·length_i/length_j⌉ of an earlier package j, covering at
	// least as much, when that costs no more; the cover that breaks ties keeps
	// the larger count of j, so it holds fewer than the least such k. At
	// k = length_j/gcd the lengths meet exactly and j is no dearer per unit, so
	// the search ends by then.
	for i := range ks {
		pr.caps[i] = math.MaxInt64
		for j := 0; j < i; j++ {
			limit := min(ks[j].length/gcd(ks[i].length, ks[j].length), satAdd(pr.caps[i], 1))
			if k := leastSwap(a, ks[i].length, ks[j].length, ks[i].price, ks[j].price, limit); k > 0 {
				pr.caps[i] = k - 1
			}
		}
	}
}

// leastSwap returns the least k in 1..limit for which ⌈k·li/lj⌉ copies of a
// package j (length lj, price pj) cost no more than k copies of a package i, or
// 0 when none does. When li < lj it steps over m = ⌈k·li/lj⌉ rather than over k:
// the ks of one m are (m−1)·lj/li < k ≤ m·lj/li, and among them the condition,
// m·pj ≤ k·pi, holds from some k on, found by bisection.
func leastSwap[C any, A arith[C]](a A, li, lj int64, pi, pj C, limit int64) int64 {
	if li >= lj {
		for k := int64(1); k <= limit; k++ {
			if a.cmpMul(pj, (k*li+lj-1)/lj, pi, k) <= 0 {
				return k
			}
		}
		return 0
	}
	for m := int64(1); ; m++ {
		lo, hi := (m-1)*lj/li+1, min(m*lj/li, limit)
		if lo > limit {
			return 0
		}
		if lo > hi || a.cmpMul(pj, m, pi, hi) > 0 {
			continue
		}
		for lo < hi {
			if mid := lo + (hi-lo)/2; a.cmpMul(pj, m, pi, mid) <= 0 {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return lo
	}
}

// solve returns the cheapest cover of need. The problem must have a tail or at
// least one item.
//
// The rule that breaks ties, the only one: hourly time alone (the tail alone)
// when it is among the cheapest; otherwise, of the cheapest covers, the one whose
// package counts, read in the order below, are lexicographically largest. The
// order sorts the packages by price per unit of length, then longer first, then
// their place in the tariff; packages the tail dominates (when mixing is allowed
// and tail(length_i) ≤ price_i, replacing one by tail time never costs more) are
// never bought.
//
// Two facts about that cover bound the work (prepare computes them):
//
//  1. No overshoot: for every package i it uses, the total package length is less
//     than need + length_i; otherwise dropping one i would still cover need at a
//     lower cost (prices are positive).
//  2. Exchange: for j before i in the order, k copies of i can be swapped for
//     ⌈k·length_i/length_j⌉ copies of j, covering at least as much; when that
//     costs no more the swap gives a cover at most as dear with larger counts
//     earlier in the order, so the cover holds fewer than the least such k
//     (caps[i]; at k = length_j/gcd the lengths meet and j is no dearer per unit).
//
// solveCover then finds the cover with two tables, one per family of package
// lengths, each no longer than need plus its longest package and shorter where
// these facts bound it.
func solve[C any, A arith[C]](a A, pr *prepared[C], need int64) solution[C] {
	if need <= 0 {
		return solution[C]{cost: a.zero()}
	}
	return solveCover(a, pr, need)
}

// smallEnough reports whether solve on pr, for needs up to need, stays inside
// int64: it bounds every cost solve can compute. Every fill and cover it prices
// is shorter than need plus twice the longest package (a cover of the rest in
// whole cells of G, then b past it), so with L that length,
// A_i = ⌈L/length_i⌉·price_i (at least any count of i in it times its price) and
// T = tail(L) (at least any tail), every cost is at most Σ A_i + max A_i + T,
// which must fit an int64 (MaxInt64 itself fits).
// Cross products of prices and lengths are taken in *big.Int.
func smallEnough(pr *problem[int64], need int64) bool {
	var maxL int64
	for _, l := range pr.lengths {
		maxL = max(maxL, l)
	}
	need = satAdd(max(need, 1), 2*maxL)
	ok := true // no sum or product below overflowed
	add := func(x, y int64) int64 { v, fits := checked.Add(x, y); ok = ok && fits; return v }
	mul := func(x, y int64) int64 { v, fits := checked.Mul(x, y); ok = ok && fits; return v }
	var sum, maxA int64
	for i, l := range pr.lengths {
		ai := mul(ceilDiv(need, l), pr.prices[i])
		sum, maxA = add(sum, ai), max(maxA, ai)
	}
	if pr.hasTail {
		sum = add(sum, mul(pr.rate, pr.units(need)))
	}
	add(sum, maxA) // the bound, Σ A_i + T + max A_i
	return ok
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
