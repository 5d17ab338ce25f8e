package pricing

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// genProblem draws a small cover problem: up to five packages with lengths in
// hours (so their gcd varies), prices in cents, and an optional hourly tail with
// a minimum and a granularity.
func genProblem(t *rapid.T) problem[int64] {
	n := rapid.IntRange(1, 5).Draw(t, "packages")
	p := problem[int64]{}
	for i := 0; i < n; i++ {
		p.lengths = append(p.lengths, 3600*rapid.Int64Range(1, 60).Draw(t, "hours"))
		p.prices = append(p.prices, rapid.Int64Range(1, 5000).Draw(t, "price"))
	}
	if rapid.Bool().Draw(t, "tail") {
		p.hasTail, p.mix = true, rapid.Bool().Draw(t, "mix")
		p.rate = rapid.Int64Range(1, 200).Draw(t, "rate")
		p.step = rapid.SampledFrom([]int64{1, 60, 3600}).Draw(t, "step")
		p.minUnits = rapid.SampledFrom([]int64{0, 3600, 7200}).Draw(t, "min")
	}
	return p
}

// coverCost prices a solution's counts and rest on p, and the package time.
func coverCost(p problem[int64], sol solution[int64]) (cost, length int64) {
	for i, c := range sol.counts[:len(p.lengths)] {
		cost += c * p.prices[i]
		length += c * p.lengths[i]
	}
	if sol.rest > 0 {
		cost += p.rate * p.units(sol.rest)
	}
	return cost, length
}

// pathological is a tariff an audit found: daily, weekly and monthly packages and
// eight terms, all within a hundredth of a yuan a month of one another.
func pathological() Tariff {
	tr := Tariff{Currency: "CNY", Daily: decimal.RequireFromString("241.9661"), Weekly: decimal.RequireFromString("1693.7607"),
		Monthly: decimal.RequireFromString("6966.6024"), HoursPerMonth: 691}
	for _, term := range []struct {
		months  int
		monthly string
	}{{17, "6966.5881"}, {79, "6966.5885"}, {5, "6966.5938"}, {109, "6966.6009"}, {23, "6966.5856"},
		{89, "6966.5946"}, {59, "6966.6024"}, {67, "6966.5838"}} {
		tr.Terms = append(tr.Terms, Term{Months: term.months, Monthly: decimal.RequireFromString(term.monthly)})
	}
	return tr
}

// The pathological tariff prices at any length, with lines that add up.
func TestCostPathologicalTerms(t *testing.T) {
	tr := pathological()
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{10*8760*time.Hour + time.Second, 46*8760*time.Hour + 20*time.Minute, MaxDuration} {
		q, err := tr.CostGPUs(d, 8)
		if err != nil {
			t.Fatalf("Cost(%v): %v", d, err)
		}
		if len(q.Lines) == 0 || !q.Total.Amount.IsPositive() {
			t.Fatalf("Cost(%v) = %+v", d, q)
		}
		checkConservation(t, q)
	}
}

// solve finds a cheapest cover, and of the cheapest the one its rule picks: the
// tail alone when it is among them, else the largest counts in the search's
// order. Checked against every cover whose counts each stay under need plus one
// package (a superset of the covers that do not overshoot).
func TestSolveMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		need := rapid.Int64Range(1, 30*3600).Draw(t, "need")
		checkSolve(t, p, need)
	})
}

// The same, with packages whose prices lie within a few cents of one rate per
// hour, so that the exchange caps are loose, ties are common and the tables run
// to the need.
func TestSolveNearOneRateMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 5).Draw(t, "packages")
		rate := rapid.Int64Range(1, 50).Draw(t, "rate")
		p := problem[int64]{step: 1}
		for i := range n {
			h := rapid.Int64Range(1, 40).Draw(t, "hours")
			if i == 0 { // often the cheapest per hour, and short, so the table is long
				h = rapid.Int64Range(1, 6).Draw(t, "first_hours")
			}
			p.lengths = append(p.lengths, 3600*h)
			p.prices = append(p.prices, h*rate+rapid.Int64Range(0, 3).Draw(t, "over"))
		}
		if rapid.Bool().Draw(t, "tail") {
			p.hasTail, p.mix = true, rapid.Bool().Draw(t, "mix")
			p.rate = rapid.Int64Range(1, 3).Draw(t, "tail_rate")
			p.step = rapid.SampledFrom([]int64{1, 3600}).Draw(t, "step")
		}
		checkSolve(t, p, rapid.Int64Range(1, 60*3600).Draw(t, "need"))
	})
}

// The same, with a tariff's shape: days and weeks beside months and terms of
// several months, at prices within a few cents of one rate, so that the search
// splits the packages into two families with cells of a day and of a month.
func TestSolveTariffShapeMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rate := rapid.Int64Range(5, 40).Draw(t, "rate")
		day := rapid.Int64Range(2, 4).Draw(t, "day_hours")
		month := rapid.Int64Range(9, 23).Draw(t, "month_hours")
		hours := []int64{day, 7 * day, month}
		for range rapid.IntRange(0, 3).Draw(t, "terms") {
			hours = append(hours, month*rapid.Int64Range(2, 6).Draw(t, "term_months"))
		}
		p := problem[int64]{step: 1}
		for _, h := range hours {
			p.lengths = append(p.lengths, 3600*h)
			p.prices = append(p.prices, h*rate+rapid.Int64Range(-2, 2).Draw(t, "off"))
		}
		if rapid.Bool().Draw(t, "tail") {
			p.hasTail, p.mix = true, rapid.Bool().Draw(t, "mix")
			p.rate = rate + rapid.Int64Range(-1, 2).Draw(t, "tail_rate_off") // per second
			p.step = rapid.SampledFrom([]int64{1, 60, 3600}).Draw(t, "step")
			p.minUnits = rapid.SampledFrom([]int64{0, 3600, 4 * 3600}).Draw(t, "min")
			for i := range p.prices {
				p.prices[i] *= 3600 // the tail's rate is per second
			}
		}
		checkSolve(t, p, rapid.Int64Range(1, 150*3600).Draw(t, "need"))
	})
}

// checkSolve fails t unless solve's cover of need on p is valid and is the one
// brute force picks by the rule.
func checkSolve(t *rapid.T, p problem[int64], need int64) {
	pr := prepare(int64Arith{}, p)
	got := solve(int64Arith{}, pr, need)
	gotCost, gotLen := coverCost(p, got)
	if gotCost != got.cost || gotLen+got.rest < need || (got.rest > 0 && (!p.hasTail || (!p.mix && gotLen > 0))) {
		t.Fatalf("solve gave %+v: cost %d, length %d; not a valid cover of %d", got, gotCost, gotLen, need)
	}
	// Brute force over the kept packages, in the search's order.
	bestCost, bestTail := int64(-1), false
	var bestCounts []int64
	if p.hasTail {
		bestCost, bestTail = p.rate*p.units(need), true
	}
	counts := make([]int64, len(pr.ks))
	var walk func(i int, length, cost int64)
	walk = func(i int, length, cost int64) {
		if i == len(pr.ks) {
			if length == 0 {
				return
			}
			if rest := need - length; rest > 0 {
				if !p.hasTail || !p.mix {
					return
				}
				cost += p.rate * p.units(rest)
			}
			better := bestCost < 0 || cost < bestCost
			if cost == bestCost && !bestTail {
				for j := range counts {
					if counts[j] != bestCounts[j] {
						better = counts[j] > bestCounts[j]
						break
					}
				}
			}
			if better {
				bestCost, bestTail, bestCounts = cost, false, append([]int64(nil), counts...)
			}
			return
		}
		for c := int64(0); c*pr.ks[i].length < need+pr.ks[i].length; c++ {
			counts[i] = c
			walk(i+1, length+c*pr.ks[i].length, cost+c*pr.ks[i].price)
		}
		counts[i] = 0
	}
	walk(0, 0, 0)
	if got.cost != bestCost {
		t.Fatalf("need %d: solve cost %d, brute force %d", need, got.cost, bestCost)
	}
	if bestTail {
		if got.rest != need || gotLen != 0 {
			t.Fatalf("need %d: solve %+v, want the tail alone", need, got)
		}
		return
	}
	for j, k := range pr.ks {
		if got.counts[k.orig] != bestCounts[j] {
			t.Fatalf("need %d: solve counts %v, brute force %v (search order)", need, got.counts, bestCounts)
		}
	}
}

// leastSwap finds the least k of its definition, scanned here one k at a time.
func TestLeastSwap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		li := rapid.Int64Range(1, 2000).Draw(t, "li")
		lj := rapid.Int64Range(1, 2000).Draw(t, "lj")
		pi := rapid.Int64Range(1, 1_000_000).Draw(t, "pi")
		pj := rapid.Int64Range(1, 1_000_000).Draw(t, "pj")
		limit := rapid.Int64Range(1, 3000).Draw(t, "limit")
		want := int64(0)
		for k := int64(1); k <= limit; k++ {
			if (k*li+lj-1)/lj*pj <= k*pi {
				want = k
				break
			}
		}
		if got := leastSwap(int64Arith{}, li, lj, pi, pj, limit); got != want {
			t.Fatalf("leastSwap(%d, %d, %d, %d, %d) = %d, want %d", li, lj, pi, pj, limit, got, want)
		}
	})
}

// A package that reaches a length's remainder modulo the best package cheaply
// only past the run does not make the cover that reaches it within the run
// unreachable: with b (10 for 20), x (33 for 68) and y (3 for 9), x is the
// cheaper way to a remainder of 3 per unit of length, but the cheapest cover of
// 12 is y and b (29), not x (68) nor two b (40). A search over remainders alone,
// without the run's length, answers 40.
func TestSolveRemainderPastRun(t *testing.T) {
	p := problem[int64]{lengths: []int64{10, 33, 3}, prices: []int64{20, 68, 9}, step: 1}
	got := solve(int64Arith{}, prepare(int64Arith{}, p), 12)
	if want := [maxItems]int64{1, 0, 1}; got.counts != want || got.cost != 29 || got.rest != 0 {
		t.Fatalf("solve = %+v, want counts %v at 29", got, want)
	}
}

// BenchmarkCostRandomTerms prices tariffs drawn at random (a fixed seed) with
// daily, weekly and monthly packages and eight terms whose monthly prices lie
// within a few per cent of the monthly price, at MaxDuration less a second,
// beside the pathological tariff at the same length.
func BenchmarkCostRandomTerms(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 8))
	for n := range 4 {
		tr := Tariff{Currency: "CNY", HoursPerMonth: 672 + r.IntN(73)}
		monthly := 5000 + r.IntN(5000)
		tr.Monthly = decimal.New(int64(monthly)*100, -2)
		tr.Daily = decimal.New(int64(monthly)*100*24/int64(tr.HoursPerMonth)+int64(r.IntN(50)), -2)
		tr.Weekly = decimal.New(int64(monthly)*100*168/int64(tr.HoursPerMonth)+int64(r.IntN(200)), -2)
		for _, m := range r.Perm(119)[:8] {
			tr.Terms = append(tr.Terms, Term{Months: m + 2, Monthly: decimal.New(int64(monthly)*10000-int64(r.IntN(monthly*400)), -4)})
		}
		if err := tr.Validate(); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("random-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := tr.Cost(MaxDuration - time.Second); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The slowest of 3,000 random tariffs priced at random lengths: the weekly
	// package within a millionth of the best term's rate, so that the days'
	// table spans the whole run.
	b.Run("days-span-100y", func(b *testing.B) {
		d := decimal.RequireFromString
		tr := Tariff{Currency: "CNY", Daily: d("216.5396"), Weekly: d("1515.7732"), Monthly: d("6072.1286"), HoursPerMonth: 673}
		for _, t := range []struct {
			months  int
			monthly string
		}{{39, "6072.1149"}, {17, "6072.1437"}, {67, "6072.176"}, {83, "6072.1533"}, {107, "6072.1424"}} {
			tr.Terms = append(tr.Terms, Term{Months: t.months, Monthly: d(t.monthly)})
		}
		b.ReportAllocs()
		for range b.N {
			if _, err := tr.Cost(MaxDuration - time.Second); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pathological-100y-1s", func(b *testing.B) {
		tr := pathological()
		b.ReportAllocs()
		for range b.N {
			if _, err := tr.Cost(MaxDuration - time.Second); err != nil {
				b.Fatal(err)
			}
		}
	})
}
