package plan

import (
	"fmt"
	"github.com/gpuplan/gpuplan/compute"
	"math"
	"testing"
	"time"

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
	benchPlanner(b, Planner{Offers: syntheticOffers(n)}, trainingRequest(b))
}

// benchPlanner times p.Plan(r), planned once first to fail early on an error.
func benchPlanner(b *testing.B, p Planner, r Request) {
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

func BenchmarkPlan1000(b *testing.B) { benchmarkPlan(b, 1000) }

// BenchmarkPlanGlobalBatch1000 plans the same job with a global batch of 48
// sequences a step, so that each layout's data-parallel degree sets its
// replicas' sequences and the micro-batch is searched among their divisors.
func BenchmarkPlanGlobalBatch1000(b *testing.B) {
	r := trainingRequest(b)
	r.GlobalBatch = 48
	benchPlanner(b, Planner{Offers: syntheticOffers(1000)}, r)
}
func BenchmarkPlan10000(b *testing.B)  { benchmarkPlan(b, 10000) }
func BenchmarkPlan100000(b *testing.B) { benchmarkPlan(b, 100000) }

// BenchmarkPlanModeled1000 and BenchmarkPlanModeled10000 plan the same job
// timed by compute's model of the step (no utilization given), as a request
// is by default.
func BenchmarkPlanModeled1000(b *testing.B)  { benchmarkModeled(b, 1000) }
func BenchmarkPlanModeled10000(b *testing.B) { benchmarkModeled(b, 10000) }

func benchmarkModeled(b *testing.B, n int) {
	r := trainingRequest(b)
	r.Band = compute.Band{}
	benchPlanner(b, Planner{Offers: syntheticOffers(n)}, r)
}

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

// An offer with interruptions whose smallest count cannot be priced (its expected
// time passes the pricing limit) but whose larger counts can is not left out,
// though those counts are dearer than the plan's options and skipped on their
// floor: what is left out does not depend on the limit.
func TestSkippedDoesNotDependOnLimit(t *testing.T) {
	r := trainingRequest(t)
	r.EveryCount, r.Limit = true, -1
	// The time lost at 1 and 2 GPUs to one interruption a day, which grows with
	// the rate.
	probe := planOffer("probe", "RTX 4090", 2, "1.00", "")
	probe.InterruptionsPerDay = 1
	opts, err := Planner{Offers: []pricing.Offer{probe}}.Plan(r)
	if err != nil || len(opts) != 2 || opts[0].GPUs == opts[1].GPUs {
		t.Fatalf("probe: %d options, %v", len(opts), err)
	}
	lost := map[int]time.Duration{}
	for _, o := range opts {
		lost[o.GPUs] = o.TimeLost
	}
	// A rate that loses 1.5 times the pricing limit on 1 GPU, under it on 2.
	rate := 1.5 * float64(pricing.MaxDuration) / float64(lost[1])
	if float64(lost[2])*rate >= 0.9*float64(pricing.MaxDuration) {
		t.Fatalf("lost %v on 1 GPU, %v on 2: the rate does not split them", lost[1], lost[2])
	}
	// Offer a costs what the wild offer's floor on 1 GPU is, so that count is
	// priced (and fails); 2 GPUs cost more (their scaling is below 1) and are
	// skipped on their floor.
	wild := planOffer("wild", "RTX 4090", 2, "1.00", "")
	wild.Interruptible, wild.InterruptionsPerDay, wild.Line = true, rate, 7
	offers := []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.00", ""), wild}
	all, err := Planner{Offers: offers}.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all.Options {
		if o.Offer.Provider == "wild" && o.GPUs == 1 {
			t.Fatalf("the wild offer priced on 1 GPU: %v lost", o.TimeLost)
		}
	}
	if len(all.Skipped) != 0 {
		t.Fatalf("without a limit, skipped %+v; want none (the wild offer runs on 2 GPUs)", all.Skipped)
	}
	for _, every := range []bool{false, true} {
		r.EveryCount, r.Limit = every, 1
		rep, err := Planner{Offers: offers}.Report(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "a" || len(rep.Skipped) != 0 {
			t.Errorf("every %v, limit 1: options %d (first %s), skipped %+v; want offer a and nothing skipped",
				every, len(rep.Options), rep.Options[0].Offer.Provider, rep.Skipped)
		}
	}
}

// The same without interruptions: an offer whose one GPU runs past the pricing
// limit and whose two GPUs cannot beat a cheaper offer's is not left out at
// limit 1, as it is not without a limit, where its two GPUs are an option.
func TestSkippedDoesNotDependOnLimitUninterrupted(t *testing.T) {
	r := trainingRequest(t)
	r.EveryCount, r.Limit = true, -1
	probe := planOffer("probe", "RTX 4090", 2, "1.00", "")
	opts, err := Planner{Offers: []pricing.Offer{probe}}.Plan(r)
	if err != nil || len(opts) != 2 {
		t.Fatalf("probe: %d options, %v", len(opts), err)
	}
	took := map[int]time.Duration{}
	for _, o := range opts {
		took[o.GPUs] = o.Duration
	}
	// Tokens that take 1.5 times the pricing limit on 1 GPU, under it on 2.
	scale := 1.5 * float64(pricing.MaxDuration) / float64(took[1])
	if float64(took[2])*scale >= 0.9*float64(pricing.MaxDuration) {
		t.Fatalf("%v on 1 GPU, %v on 2: the scale does not split them", took[1], took[2])
	}
	r.Tokens *= scale
	offers := []pricing.Offer{planOffer("a", "RTX 4090", 2, "0.50", ""), planOffer("b", "RTX 4090", 2, "1.00", "")}
	all, err := Planner{Offers: offers}.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Options) != 2 || len(all.Skipped) != 0 {
		t.Fatalf("without a limit: %d options, skipped %+v; want both offers on 2 GPUs and nothing skipped", len(all.Options), all.Skipped)
	}
	for _, every := range []bool{false, true} {
		r.EveryCount, r.Limit = every, 1
		rep, err := Planner{Offers: offers}.Report(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "a" || len(rep.Skipped) != 0 {
			t.Errorf("every %v, limit 1: %d options, skipped %+v; want offer a and nothing skipped", every, len(rep.Options), rep.Skipped)
		}
	}
}

// A Limit far past the candidates returns them all, as a negative one does,
// without allocating for the Limit (math.MaxInt overflowed a capacity and
// panicked; 2^31 ran out of memory).
func TestHugeLimit(t *testing.T) {
	r := trainingRequest(t)
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.80", ""), planOffer("b", "A100 SXM4 80GB", 8, "12.00", "")}}
	r.EveryCount, r.Limit = true, -1
	all, err := p.Plan(r)
	if err != nil || len(all) < 2 {
		t.Fatalf("Limit -1: %d options, %v", len(all), err)
	}
	for _, limit := range []int{math.MaxInt, 1 << 31} {
		r.Limit = limit
		got, err := p.Plan(r)
		if err != nil || len(got) != len(all) || !got[0].Cost.Total.Amount.Equal(all[0].Cost.Total.Amount) {
			t.Errorf("Limit %d: %d options, %v; want the %d of Limit -1", limit, len(got), err, len(all))
		}
	}
}
