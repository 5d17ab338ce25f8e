package pricing

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// Bill and PriceBasket price with Cost's arithmetic: a lone session of g GPUs
// with no purchase is billed what Total charges for the same run paid by the
// hour alone, on the line Cost writes for it; a basket is the quote of its
// packages, the same on the int64 and *big.Int paths. Prices of any allowed size
// and precision take both paths.
func TestBillSharesCostArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genWideTariff(t)
		if tr.Hourly.IsZero() {
			tr.Hourly = genWidePrice(t, "hourly_again")
			if tr.Hourly.IsZero() {
				tr.Hourly = dec("0.000000000001")
			}
		}
		d := time.Duration(rapid.Int64Range(1, int64(48*time.Hour)).Draw(t, "d"))
		g := rapid.IntRange(1, 64).Draw(t, "gpus")
		inv, err := Account{Tariff: tr}.Bill(jan, propTo, []Session{{Start: jan, End: jan.Add(d), GPUs: g}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Each GPU is billed on its own: g GPUs of the same run are g GPU-runs.
		hourly := Tariff{Currency: tr.Currency, Hourly: tr.Hourly, Granularity: tr.Granularity, Minimum: tr.Minimum, Rounding: tr.Rounding}
		q, err := hourly.CostGPUs(d, g)
		if err != nil {
			t.Fatal(err)
		}
		want := q.Lines[0]
		want.Amount = q.Total
		if len(inv.Lines) != 1 || !sameLine(inv.Lines[0], want) {
			t.Fatalf("Bill lines %v, want Cost's hourly line %v with its total", inv.Lines, want)
		}

		var ps []Purchase
		p := newPricer(tr)
		for k := range p.pk {
			n := rapid.IntRange(0, 3).Draw(t, "n")
			for range n {
				pu := Purchase{GPUs: rapid.IntRange(0, 1000).Draw(t, "basket_gpus")}
				if name := p.pk[k].name(); name == "daily" || name == "weekly" || name == "monthly" {
					pu.Package = map[string]Package{"daily": Daily, "weekly": Weekly, "monthly": Monthly}[name]
				} else {
					pu.Months = int(p.pk[k].hours / tr.hoursPerMonth())
				}
				ps = append(ps, pu)
			}
		}
		got, err := tr.PriceBasket(ps)
		if err != nil {
			t.Fatal(err)
		}
		var counts [maxItems]int64
		for i, pu := range ps {
			r, err := resolvePurchase(i, pu, p.pk)
			if err != nil {
				t.Fatal(err)
			}
			counts[r.k] += r.gpus
		}
		bp := bigPricer(tr)
		if slow := bp.quote(bp.packagesCover(counts), 0, 1); exactForm(got) != exactForm(slow) {
			t.Fatalf("PriceBasket %s, the *big.Int path %s", exactForm(got), exactForm(slow))
		}
		sum := decimal.Decimal{}
		for i, n := range counts[:len(p.pk)] {
			sum = sum.Add(p.pk[i].price.Mul(decimal.NewFromInt(n)))
		}
		if want := roundQuo(sum, decimal.NewFromInt(1), MinorUnit(tr.Currency), tr.Rounding); !got.Total.Amount.Equal(want) {
			t.Fatalf("PriceBasket total %s, want Σ price·count %s rounded once, %s", got.Total.Amount, sum, want)
		}
	})
}

func sameLine(x, y Line) bool {
	return cmp.Equal(x, y, cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) }))
}
