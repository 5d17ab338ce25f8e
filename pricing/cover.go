package pricing

import "math"

// solveCover returns the cheapest cover of need > 0 (see solve for the rule that
// breaks ties), in time at most proportional to the number of packages times
// the smallest of need plus the longest package and the bounds below, over the
// greatest common divisor of the package lengths.
//
// Let b be the first package of the order (the cheapest per unit of length). A
// cover is b bought n_b times, the other packages (length s, cost c) and the
// tail. Two facts bound the other packages of the cover solve returns:
//
//   - exchange: n_i < length_j/gcd(length_i, length_j) for every j before i in
//     the order (solve's proof), so s is at most reach[1];
//   - price: c < ⌈s/length_b⌉·price_b, since buying b instead for their length
//     covers at least as much and costs no more; every unit of them costs at
//     least the second package's rate r2, so s·(r2 − r_b) < price_b, bounding s
//     when r2 > r_b;
//   - known: c is less than the cost of a cover known beforehand (b alone, the
//     tail alone), both of which win a tie, so s·r2 < that cost.
//
// Every package length is a multiple of g, their greatest common divisor, so a
// table over s/g up to the smaller bound (and need plus the longest package)
// holds, for each s, the cheapest packages other than b filling exactly s, the
// lexicographically largest counts among equals (an unbounded knapsack per
// package, last package first, preferring one more of a package on a tie). For
// each s, the rest r = need − s is covered by ⌈r/length_b⌉ b packages, or, when
// the tail may be mixed in, by n_b packages and the tail for r − n_b·length_b.
// Past the tail's minimum each b swaps length_b of tail (a multiple of its
// step) for price_b, a constant difference, so only the ends of that range, the
// first n_b below the minimum and the largest n_b are candidates.
func solveCover[C any, A arith[C]](a A, pr *prepared[C], need int64) solution[C] {
	best := solution[C]{cost: a.zero()}
	found, tailOnly := false, false
	if pr.hasTail {
		best.rest, best.cost, found, tailOnly = need, a.mul(pr.rate, pr.units(need)), true, true
	}
	ks := pr.ks
	if len(ks) == 0 {
		return best
	}
	b := ks[0]
	g, longest := int64(0), int64(0)
	for _, k := range ks {
		g, longest = gcd(k.length, g), max(longest, k.length)
	}
	limit := need + longest // no cheapest cover overshoots by a whole package
	if len(ks) > 1 {
		limit = min(limit, pr.reach[1], pr.rateCap)
		// The other packages cost less than a cover already known (b alone, or the
		// tail alone), which wins ties: s·price_2/length_2 < known.
		known := a.mul(b.price, (need+b.length-1)/b.length)
		if pr.hasTail {
			if t := a.mul(pr.rate, pr.units(need)); a.cmp(t, known) < 0 {
				known = t
			}
		}
		if q, ok := a.mulQuo(known, ks[1].length, ks[1].price); ok {
			limit = min(limit, q)
		}
	} else {
		limit = 0
	}
	reach := &pr.reach
	if m := b.length / g; len(ks) > 2 && limit/g > 4*m {
		// A table over four times as long as b is worth the exact
		// swaps' tighter caps, which take time in proportion to b's length.
		r := sumReach(ks, &pr.caps, g)
		reach, limit = &r, min(limit, r[1])
	}
	size := limit/g + 1
	// took[s] has bit i set when the table's cover of s takes one more package i
	// (at most maxItems bits), and the bit reached when s can be filled at all.
	// Small tables, the common case of short rentals, stay on the stack.
	var costBuf [64]C
	var tookBuf [64]uint16
	cost, took := costBuf[:0], tookBuf[:0]
	if size > int64(len(costBuf)) {
		cost, took = make([]C, 0, size), make([]uint16, 0, size)
	}
	cost, took = cost[:size], took[:size]
	cost[0], took[0] = a.zero(), reached
	// The pass of package i fills only lengths up to reach[i]: the packages i..
	// of the cover solve returns hold at most that much (the exchange caps), and
	// a fill of s with one more i is within the caps only if the fill of s −
	// length_i is, so the table is exact on the fills within the caps, which
	// hold that cover, and every other cell is still a real fill.
	for i := len(ks) - 1; i >= 1; i-- {
		step, price, bit := ks[i].length/g, ks[i].price, uint16(1)<<i
		end := size
		if r := reach[i] / g; r < end-1 {
			end = r + 1
		}
		for s := step; s < end; s++ {
			if took[s-step]&reached == 0 {
				continue
			}
			c := a.add(cost[s-step], price)
			if took[s]&reached == 0 || a.cmp(c, cost[s]) <= 0 { // a tie takes one more of i
				cost[s] = c
				took[s] |= bit | reached
			}
		}
	}
	counts := func(s int64) [maxItems]int64 {
		var n [maxItems]int64
		for i := 1; i < len(ks); i++ {
			for took[s]&(1<<i) != 0 {
				n[ks[i].orig]++
				s -= ks[i].length / g
			}
		}
		return n
	}
	useTail := pr.hasTail && pr.mix
	bestS := int64(-1)
	var bestNb int64
	consider := func(s, nb, rest int64, c C) {
		if found {
			switch x := a.cmp(c, best.cost); {
			case x > 0:
				return
			case x == 0:
				if tailOnly || nb < bestNb {
					return
				}
				if nb == bestNb {
					// The larger counts of the other packages, in the order.
					cur, old := counts(s), counts(bestS)
					larger := false
					for _, k := range ks[1:] {
						if cur[k.orig] != old[k.orig] {
							larger = cur[k.orig] > old[k.orig]
							break
						}
					}
					if !larger {
						return
					}
				}
			}
		}
		best.cost, best.rest, bestS, bestNb, found, tailOnly = c, rest, s, nb, true, false
	}
	lastFull, fullCost := int64(-1), a.zero() // b bought full times, which changes once in b's length
	for s := int64(0); s < size; s++ {
		if took[s]&reached == 0 {
			continue
		}
		r := need - s*g
		if r <= 0 {
			if s > 0 {
				consider(s, 0, 0, cost[s])
			}
			continue
		}
		if full := (r + b.length - 1) / b.length; full != lastFull {
			lastFull, fullCost = full, a.mul(b.price, full)
		}
		if c := a.add(cost[s], fullCost); !found || a.cmp(c, best.cost) <= 0 {
			consider(s, lastFull, 0, c)
		}
		if !useTail {
			continue
		}
		nMax := (r - 1) / b.length // the largest n_b leaving some tail
		nLo := int64(-1)           // the largest n_b leaving at least the minimum
		if r >= pr.minUnits {
			nLo = (r - pr.minUnits) / b.length
			if pr.minUnits == 0 {
				nLo = nMax
			}
		}
		for _, nb := range [...]int64{0, nLo, nLo + 1, nMax} {
			if nb < 0 || nb > nMax || (nb == 0 && s == 0) {
				continue
			}
			rest := r - nb*b.length
			consider(s, nb, rest, a.add(a.add(cost[s], a.mul(b.price, nb)), a.mul(pr.rate, pr.units(rest))))
		}
	}
	if !tailOnly && bestS >= 0 {
		best.counts = counts(bestS)
		best.counts[b.orig] = bestNb
	}
	return best
}

// reached marks a cell of solveCover's table that can be filled; packages use
// bits 0 to maxItems−1 of a cell.
const reached uint16 = 1 << 15

// sumReach returns the reach (reachOf) under caps tightened by exact swaps: when
// k copies of package i ≥ 1 are exactly as long as some packages before i, they
// can be swapped for those, covering the same length at no greater cost (each is
// no dearer per unit) with a larger count earlier in the order, so the cover
// solve returns holds fewer than the least such k. Whether k·length_i is such a
// sum is read from least[k·length_i mod length_0], the least sum of the earlier
// lengths in each residue class modulo length_0, in units of g (the residue
// classes that make the unbounded knapsack periodic, after Gilmore and Gomory).
// A package is added to least by going twice round each cycle of adding its
// length modulo length_0 (the round-robin algorithm of Böcker and Lipták), so
// the work is len(ks) times length_0/g.
func sumReach[C any](ks []kept[C], caps *[maxItems]int64, g int64) [maxItems + 1]int64 {
	m := ks[0].length / g
	least := make([]int64, m)
	for r := range least {
		least[r] = math.MaxInt64
	}
	least[0] = 0
	c := *caps
	for i := 1; i < len(ks); i++ {
		l := ks[i].length / g
		for k := int64(1); k <= min(c[i], m); k++ { // c[i] < m (prepare)
			if v := k * l; least[v%m] <= v {
				c[i] = k - 1
				break
			}
		}
		step := l % m
		if step == 0 {
			continue // a multiple of length_0 lowers no least sum
		}
		cycles := gcd(step, m)
		for r0 := int64(0); r0 < cycles; r0++ {
			r := r0
			for range 2 * (m / cycles) {
				next := (r + step) % m
				if least[r] != math.MaxInt64 && least[r]+l < least[next] {
					least[next] = least[r] + l
				}
				r = next
			}
		}
	}
	return reachOf(ks, &c)
}
