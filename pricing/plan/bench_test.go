package plan

import (
	"fmt"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// syntheticOffers builds n offers as a large price list holds them: a dozen
// providers over several regions, about twenty cards, limits of 1 to 8 GPUs, and
// each provider's tariff for a card shared by its regions. Prices scale with the
// card's class so that the ranking has real work to do.
func syntheticOffers(n int) []pricing.Offer {
	cards := []struct {
		name  string
		cents int64
	}{
		{"RTX 3090", 110}, {"RTX 4090", 180}, {"RTX 4090D", 170}, {"RTX A6000", 260}, {"L40S", 520},
		{"L40", 450}, {"A10", 160}, {"T4", 90}, {"V100 32GB", 220}, {"A100 PCIe 40GB", 600},
		{"A100 SXM4 80GB", 900}, {"A800 SXM4 80GB", 950}, {"H100 SXM5 80GB", 2200}, {"H100 PCIe 80GB", 1900},
		{"H800 SXM5 80GB", 2300}, {"H20", 1200}, {"H200", 2800}, {"L4", 140}, {"RTX 5090", 260}, {"MI300X", 2600},
	}
	regions := []string{"cn-beijing", "cn-shanghai", "cn-hangzhou", "cn-shenzhen", "us-east", "eu-west"}
	offers := make([]pricing.Offer, 0, n)
	for i := 0; len(offers) < n; i++ {
		c := cards[i%len(cards)]
		provider := fmt.Sprintf("provider-%02d", (i/len(cards))%12)
		cents := c.cents + int64((i/len(cards))%12)*7 // providers differ
		t := pricing.Tariff{Currency: "CNY", Hourly: decimal.New(cents, -2)}
		if i%3 != 0 {
			t.Daily = decimal.New(cents*20, -2)
			t.Weekly = decimal.New(cents*120, -2)
			t.Monthly = decimal.New(cents*450, -2)
		}
		if i%7 == 0 {
			t.Terms = []pricing.Term{{Months: 3, Discount: decimal.New(1, -1)}, {Months: 12, Discount: decimal.New(2, -1)}}
			if t.Monthly.IsZero() {
				t.Monthly = decimal.New(cents*450, -2)
			}
		}
		for _, r := range regions[:1+i%len(regions)] {
			if len(offers) == n {
				break
			}
			o := pricing.Offer{Provider: provider, Region: r, Card: c.name, MaxGPUs: 1 + (i+len(offers))%8, Tariff: t}
			if i%11 == 0 {
				o.Interruptible, o.InterruptionsPerDay = true, 2
			}
			offers = append(offers, o)
		}
	}
	return offers
}

func benchmarkPlan(b *testing.B, n int) {
	offers := syntheticOffers(n)
	p := Planner{Offers: offers}
	r := trainingRequest(b)
	if _, err := p.Plan(r); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := p.Plan(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlan1000(b *testing.B)   { benchmarkPlan(b, 1000) }
func BenchmarkPlan10000(b *testing.B)  { benchmarkPlan(b, 10000) }
func BenchmarkPlan100000(b *testing.B) { benchmarkPlan(b, 100000) }

// Skipping the candidates whose floor cannot make the plan changes nothing: the
// options of a limited plan are the first of the plan with no limit, where no
// candidate is skipped.
func TestPlanSkipsOnlyLosers(t *testing.T) {
	offers := syntheticOffers(600)
	for _, every := range []bool{false, true} {
		for _, limit := range []int{1, 3, 10} {
			r := trainingRequest(t)
			r.EveryCount = every
			r.Limit = limit
			p := Planner{Offers: offers}
			got, err := p.Plan(r)
			if err != nil {
				t.Fatal(err)
			}
			r.Limit = -1
			all, err := p.Plan(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != limit || len(all) < limit {
				t.Fatalf("every %v limit %d: %d options, %d without a limit", every, limit, len(got), len(all))
			}
			for j := range got {
				a, b := got[j], all[j]
				if a.Offer.Line != b.Offer.Line || a.Offer.Provider != b.Offer.Provider || a.Offer.Region != b.Offer.Region ||
					a.Offer.Card != b.Offer.Card || a.GPUs != b.GPUs || !a.ExpectedCost.Amount.Equal(b.ExpectedCost.Amount) || a.Duration != b.Duration {
					t.Errorf("every %v limit %d, option %d: %s %s %d GPUs %v, want %s %s %d GPUs %v", every, limit, j,
						a.Offer.Provider, a.Offer.Region, a.GPUs, a.ExpectedCost, b.Offer.Provider, b.Offer.Region, b.GPUs, b.ExpectedCost)
				}
			}
		}
	}
}
