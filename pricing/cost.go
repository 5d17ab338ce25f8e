package pricing

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/shopspring/decimal"
)

// Quote is the price of a usage: the Total, rounded once to the currency's minor
// unit with the tariff's rounding mode, and the Lines it is made of.
//
// The lines add up exactly to the total. A line's Amount is exactly its Price
// times its Quantity, except where hourly time does not come to a terminating
// decimal: the hourly line's Quantity (billed hours) and Amount (hourly price ×
// billed seconds / 3600) are each exact when they terminate and otherwise rounded
// half up to nine places (7 s at ¥1.3/h is 0.001944444 h for ¥0.002527778;
// 7 s at ¥18/h is ¥0.035 exactly). The difference between
// the exact cost rounded once and the sum of the other lines, when not zero, is a
// visible line with Item "rounding" (Quantity 1, Price equal to Amount).
type Quote struct {
	Total Money  `json:"total"`
	Lines []Line `json:"lines"`
}

// Line is one item of a Quote: Quantity units of Item at Price each (per GPU), for
// Amount. Item is "term_12m" (and the like), "monthly", "weekly", "daily",
// "hourly", "trial" (hourly time before packages) or "rounding"; Unit says what
// Quantity counts: "term", "month", "week", "day", "hour" or "" for rounding. For
// several GPUs, Quantity counts GPU-units (8 GPUs for a month: 8 months).
type Line struct {
	Item     string          `json:"item"`
	Unit     string          `json:"unit"`
	Quantity decimal.Decimal `json:"quantity"`
	Price    Money           `json:"price"`
	Amount   Money           `json:"amount"`
}

type lineWire struct {
	Item     string `json:"item"`
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
	Price    Money  `json:"price"`
	Amount   Money  `json:"amount"`
}

// MarshalJSON writes the quantity as an exact decimal string, whatever decimal's
// package settings are.
func (l Line) MarshalJSON() ([]byte, error) {
	return jsonMarshal(lineWire{l.Item, l.Unit, exactString(l.Quantity, 0), l.Price, l.Amount})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Line) UnmarshalJSON(b []byte) error {
	var w lineWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	q, err := parseDecimal(w.Quantity, true)
	if err != nil {
		return err
	}
	*l = Line{Item: w.Item, Unit: w.Unit, Quantity: q, Price: w.Price, Amount: w.Amount}
	return nil
}

// Cost returns the cheapest way to cover a continuous run of d on one GPU: a
// combination of packages (terms, monthly, weekly, daily) and hourly time billed at
// the tariff's granularity and minimum, that covers at least d. A package may
// cover more than needed (a daily package for 20 hours) when that is cheaper.
// Cost(0) is a zero quote. A negative d, a d beyond MaxDuration or an invalid
// tariff is an error wrapping ErrInvalid; a d the tariff cannot cover (no hourly
// price, packages only under Renew) always can be covered by repeating a package,
// so Cost never fails on a valid tariff and duration.
//
// The search is exact: see the comments in cover for why it is the cheapest.
func (t Tariff) Cost(d time.Duration) (Quote, error) { return t.CostGPUs(d, 1) }

// CostGPUs is Cost for gpus GPUs rented together for the same run: each line's
// quantity is multiplied by gpus and the total is rounded once, so it is exact
// for the whole set, not a sum of rounded per-GPU totals.
func (t Tariff) CostGPUs(d time.Duration, gpus int) (Quote, error) {
	return t.Price(Continuous(d), gpus)
}

// item is one kind of package for the search, in the units of the problem
// (nanoseconds for a continuous run, days for daily sessions).
type item struct {
	name, unit string
	length     int64           // in problem units; positive
	price      decimal.Decimal // per package, scaled as the problem's costs
	each       decimal.Decimal // per package, in money
	rank       int             // display order
}

// problem is a cover problem: choose counts n_i ≥ 0 so that Σ n_i·length_i plus a
// tail of remaining units covers need, at least cost Σ n_i·price_i + tail(rest).
type problem struct {
	items []item
	need  int64
	// tail prices the remainder x > 0 covered without packages (hourly time);
	// nil when there is no hourly price. It must be monotone non-decreasing and
	// subadditive (tail(a+b) ≤ tail(a)+tail(b)), and tail(x) ≥ x·tailRate.
	tail     func(x int64) decimal.Decimal
	tailRate decimal.Decimal // per unit, exact
	mix      bool            // tail may be combined with packages
}

// solution is a cover: a count per item (same order as problem.items) and the
// remainder left to the tail.
type solution struct {
	counts []int64
	rest   int64
	cost   decimal.Decimal
	ok     bool
}

// solve returns the cheapest cover of p.need.
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
// only when a lower bound on everything below it (each remaining unit at the
// lowest per-unit rate any remaining package or the tail offers, with at most the
// length the remaining packages can reach by 2, the rest at the tail's rate) is
// no better than a cover already found. Bounds are truncated downwards, so a
// pruned branch cannot hold a strictly cheaper cover. Under Renew (no mixing) the
// packages-only search and the tail-only cover are compared.
func solve(p problem) solution {
	if p.need <= 0 {
		return solution{counts: make([]int64, len(p.items)), cost: decimal.Decimal{}, ok: true}
	}
	best := solution{}
	if p.tail != nil {
		best = solution{counts: make([]int64, len(p.items)), rest: p.need, cost: p.tail(p.need), ok: true}
	}
	// Keep the packages the tail does not dominate, remembering their places.
	var ks []kept
	for i, it := range p.items {
		if p.tail != nil && p.mix && p.tail(it.length).Cmp(it.price) <= 0 {
			continue
		}
		ks = append(ks, kept{it, i})
	}
	if len(ks) == 0 {
		return best
	}
	// Strict order: price per unit ascending (compared by cross-multiplying),
	// then longer first, then original place.
	sort.SliceStable(ks, func(a, b int) bool {
		l := ks[a].price.Mul(decimal.NewFromInt(ks[b].length))
		r := ks[b].price.Mul(decimal.NewFromInt(ks[a].length))
		if c := l.Cmp(r); c != 0 {
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
			c := ks[j].length/gcd(ks[i].length, ks[j].length) - 1
			if c < caps[i] {
				caps[i] = c
			}
		}
	}
	// reach[i]: the most length packages i.. can add under the exchange caps,
	// saturating at MaxInt64 (only the first package is uncapped).
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
	// rate[i]: the lowest price per unit among packages i.., as a fraction.
	lengths := make([]decimal.Decimal, n)
	for i := range ks {
		lengths[i] = decimal.NewFromInt(ks[i].length)
	}
	useTail := p.tail != nil && p.mix
	// lower bound on covering x > 0 with packages from i on (and the tail).
	lower := func(i int, x int64) (decimal.Decimal, bool) {
		if x <= 0 {
			return decimal.Decimal{}, true
		}
		pk := x
		if reach[i] < pk {
			pk = reach[i]
		}
		if i == n {
			pk = 0
		}
		var pkCost decimal.Decimal
		if pk > 0 {
			// pk·price_i/length_i, truncated down.
			pkCost, _ = decimal.NewFromInt(pk).Mul(ks[i].price).QuoRem(lengths[i], 9)
		}
		if !useTail {
			if pk < x {
				return decimal.Decimal{}, false // cannot be covered
			}
			return pkCost, true
		}
		rest := decimal.NewFromInt(x - pk).Mul(p.tailRate)
		all := decimal.NewFromInt(x).Mul(p.tailRate)
		lb := pkCost.Add(rest)
		if all.Cmp(lb) < 0 {
			lb = all
		}
		return lb, true
	}
	counts := make([]int64, n)
	var dfs func(i int, x int64, cost decimal.Decimal)
	dfs = func(i int, x int64, cost decimal.Decimal) {
		if i == n {
			c := cost
			rest := int64(0)
			if x > 0 {
				if !useTail {
					return
				}
				c = c.Add(p.tail(x))
				rest = x
			}
			if !best.ok || c.Cmp(best.cost) < 0 {
				best = solution{counts: mapBack(counts, ks, len(p.items)), rest: rest, cost: c, ok: true}
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
		price := ks[i].price
		for k := maxN; k >= 0; k-- {
			nx := x - k*ks[i].length // k·length < x + length: no overflow
			nc := cost.Add(price.Mul(decimal.NewFromInt(k)))
			if best.ok {
				lb, feasible := lower(i+1, nx)
				if !feasible {
					if !useTail {
						break // fewer of i leaves even more to cover
					}
					continue
				}
				if nc.Add(lb).Cmp(best.cost) >= 0 {
					continue
				}
			}
			counts[i] = k
			dfs(i+1, nx, nc)
		}
		counts[i] = 0
	}
	dfs(0, p.need, decimal.Decimal{})
	return best
}

// kept is a package the search keeps, with its place in problem.items.
type kept struct {
	item
	orig int
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

// rawLine is a line before scaling by the number of GPUs.
type rawLine struct {
	item, unit string
	qty        decimal.Decimal // per GPU (packages)
	secs       int64           // per GPU billed seconds (hourly time); qty unused
	price      decimal.Decimal
	rank       int
}

// buildQuote turns per-GPU lines and the exact per-GPU cost into a Quote for gpus
// GPUs. exact is the cost times scale (an exact decimal); the total is
// exact·gpus/scale rounded once.
func buildQuote(cur string, mode RoundingMode, lines []rawLine, exact, scale decimal.Decimal, gpus int) Quote {
	g := decimal.NewFromInt(int64(gpus))
	total := roundQuo(exact.Mul(g), scale, MinorUnit(cur), mode)
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].rank < lines[b].rank })
	q := Quote{Total: Money{Amount: total, Currency: cur}, Lines: []Line{}}
	sum := decimal.Decimal{}
	for _, l := range lines {
		var qty, amt decimal.Decimal
		if l.secs > 0 {
			// Hourly time: quantity and amount exact when they terminate, else
			// rounded half up to nine places (the rounding line takes the rest).
			secs := decimal.NewFromInt(l.secs).Mul(g)
			qty = quo9(secs, decimal.NewFromInt(3600))
			amt = quo9(secs.Mul(l.price), decimal.NewFromInt(3600))
		} else {
			if l.qty.IsZero() {
				continue
			}
			qty = trim(l.qty.Mul(g))
			amt = l.price.Mul(qty)
		}
		sum = sum.Add(amt)
		q.Lines = append(q.Lines, Line{Item: l.item, Unit: l.unit, Quantity: qty,
			Price: Money{Amount: l.price, Currency: cur}, Amount: Money{Amount: amt, Currency: cur}})
	}
	if diff := total.Sub(sum); !diff.IsZero() {
		m := Money{Amount: diff, Currency: cur}
		q.Lines = append(q.Lines, Line{Item: "rounding", Quantity: decimal.NewFromInt(1), Price: m, Amount: m})
	}
	return q
}

// quo9 returns x/y, exact when that terminates within nine places, else rounded
// half up to nine places.
func quo9(x, y decimal.Decimal) decimal.Decimal {
	q, r := x.QuoRem(y, 9)
	if r.IsZero() {
		return trim(q)
	}
	return trim(roundQuo(x, y, 9, RoundHalfUp))
}

func checkGPUs(gpus int) error {
	if gpus < 1 || gpus > 1_000_000 {
		return fmt.Errorf("pricing: %d GPUs: want 1 to 1000000: %w", gpus, ErrInvalid)
	}
	return nil
}
