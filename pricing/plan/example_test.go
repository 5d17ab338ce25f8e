package plan_test

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// The planner's everyday use: offers in, a request, the best option out. Here,
// a LoRA fine-tune of Llama-2-7B on 100 million tokens within 12 hours, over two
// sample offers priced by the hour in CNY.
func Example() {
	hourly := func(card string, cents int64) pricing.Offer {
		return pricing.Offer{Provider: "sample", Card: card, MaxGPUs: 8,
			Tariff: pricing.Tariff{Currency: "CNY", Hourly: decimal.New(cents, -2)}}
	}
	p := plan.Planner{Offers: []pricing.Offer{hourly("RTX 4090", 160), hourly("H100 SXM5 80GB", 2200)}}
	m, _ := sizing.Preset("llama-2-7b")
	w := sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048, Recompute: sizing.FullRecompute}
	opts, err := p.Plan(plan.Request{Model: m, Workload: w, Tokens: 1e8, Deadline: 12 * time.Hour})
	if err != nil {
		fmt.Println(err)
		return
	}
	best := opts[0]
	fmt.Printf("%d × %s, %s, %v, %s\n", best.GPUs, best.Offer.Card, plan.DescribeLayout(best.Layout),
		best.Duration.Round(time.Minute), best.Cost.Total)
	// Output:
	// 7 × RTX 4090, data parallel ×7, 1h41m0s, CNY 18.83
}
