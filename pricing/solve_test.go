package pricing

import (
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

// The table solve falls back on finds covers exactly as cheap as the search's,
// and what it returns is a cover of that cost.
func TestSolveTableMatchesSearch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		need := rapid.Int64Range(1, 400*3600).Draw(t, "need")
		pr := prepare(int64Arith{}, p)
		search := solveWithin(int64Arith{}, pr, need, 1<<40)
		table := solveWithin(int64Arith{}, pr, need, 0)
		if search.cost != table.cost {
			t.Fatalf("search %d, table %d", search.cost, table.cost)
		}
		got, length := coverCost(p, table)
		if got != table.cost {
			t.Fatalf("table counts %v rest %d cost %d, reported %d", table.counts, table.rest, got, table.cost)
		}
		if length+table.rest < need || (table.rest > 0 && !(p.hasTail && p.mix) && length > 0) {
			t.Fatalf("table cover %v rest %d leaves need %d uncovered or mixes under Renew", table.counts, table.rest, need)
		}
	})
}

// A package-only tariff with eight terms of coprime lengths at nearly one price
// per hour leaves the search little to prune: before the budget, thirty years
// and a second took it 17 s, and forty-six years did not finish. The table
// answers, and agrees with the search where the search can finish.
func TestCostPathologicalTerms(t *testing.T) {
	// Daily, weekly and monthly packages and eight terms, all within a hundredth
	// of a yuan a month of one another (the tariff an audit found).
	tr := Tariff{Currency: "CNY", Daily: decimal.RequireFromString("241.9661"), Weekly: decimal.RequireFromString("1693.7607"),
		Monthly: decimal.RequireFromString("6966.6024"), HoursPerMonth: 691}
	for _, term := range []struct {
		months  int
		monthly string
	}{{17, "6966.5881"}, {79, "6966.5885"}, {5, "6966.5938"}, {109, "6966.6009"}, {23, "6966.5856"},
		{89, "6966.5946"}, {59, "6966.6024"}, {67, "6966.5838"}} {
		tr.Terms = append(tr.Terms, Term{Months: term.months, Monthly: decimal.RequireFromString(term.monthly)})
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{10*8760*time.Hour + time.Second, 46*8760*time.Hour + 20*time.Minute} {
		q, err := tr.CostGPUs(d, 8)
		if err != nil {
			t.Fatalf("Cost(%v): %v", d, err)
		}
		if len(q.Lines) == 0 || !q.Total.Amount.IsPositive() {
			t.Fatalf("Cost(%v) = %+v", d, q)
		}
	}
	// Its cross products (price times length) pass int64, so the pricer runs the
	// *big.Int search, which alone gives up on thirty years and a second.
	p := newPricer(tr)
	if p.hasRun64 {
		t.Fatal("the tariff now prices in int64; move the test to the int64 search")
	}
	pr := prepare(bigArith{}, p.problemBig(false, 0))
	if n := searchNodes(bigArith{}, pr, 30*8760*3600+1, searchBudget); n <= searchBudget {
		t.Errorf("the search finished in %d nodes; the test no longer reaches the table", n)
	}
	// Where the search finishes within a generous budget, the table agrees.
	need := int64(5*8760*3600 + 1)
	if n := searchNodes(bigArith{}, pr, need, 1<<24); n > 1<<24 {
		t.Fatalf("five years and a second: the search took over %d nodes", 1<<24)
	}
	search := solveWithin(bigArith{}, pr, need, 1<<24)
	table := solveWithin(bigArith{}, pr, need, 0)
	if search.cost.Cmp(table.cost) != 0 {
		t.Errorf("five years and a second: search %v, table %v", search.cost, table.cost)
	}
}

// searchNodes runs solve's search alone on need and returns the nodes it visited,
// up to limit+1.
func searchNodes[C any, A arith[C]](a A, pr *prepared[C], need int64, limit int) int {
	s := searcher[C, A]{a: a, pr: pr, useTail: pr.hasTail && pr.mix, budget: limit}
	s.best.cost = a.zero()
	if pr.hasTail {
		s.best.rest, s.best.cost, s.found = need, a.mul(pr.rate, pr.units(need)), true
	}
	if len(pr.ks) > 0 {
		s.costs[0] = a.zero()
		s.dfs(0, need)
	}
	return limit - s.budget
}

// Tariffs of the common packages (hourly, daily, weekly, monthly, a term of two
// or three months) never come near the search's budget, so their covers come
// from the search and keep its order among equal covers.
func TestSearchBudgetCommonTariffs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		d := genDuration(t, "run", MaxDuration)
		p := newPricer(tr)
		if !p.hasRun64 || !smallEnough(&p.run64.problem, int64(d/time.Second)) {
			return
		}
		if n := searchNodes(int64Arith{}, &p.run64, int64(d/time.Second), searchBudget); n > searchBudget/16 {
			t.Fatalf("%d nodes for %v on %+v, want at most %d", n, d, tr, searchBudget/16)
		}
	})
}
