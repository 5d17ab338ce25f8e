package plan_test

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// Which card, how many, and at what price, for a LoRA fine-tune of Llama-2-7B on
// 100 million tokens that must finish within 12 hours (sample prices in CNY).
func ExamplePlanner_Plan() {
	offer := func(provider, card string, hourly, monthly int64) pricing.Offer {
		return pricing.Offer{Provider: provider, Card: card, MaxGPUs: 8, Tariff: pricing.Tariff{
			Currency: "CNY", Hourly: decimal.New(hourly, -2), Monthly: decimal.New(monthly, 0)}}
	}
	planner := plan.Planner{Offers: []pricing.Offer{
		offer("sample-a", "RTX 4090", 160, 900),
		offer("sample-b", "A100 SXM4 80GB", 990, 6500),
		offer("sample-c", "H100 SXM5 80GB", 2200, 13500),
	}}
	m, _ := sizing.Preset("llama-2-7b")
	opts, err := planner.Plan(plan.Request{
		Model: m,
		Workload: sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048, ChunkedLoss: true,
			Recompute: sizing.FullRecompute},
		Tokens:   1e8,
		Deadline: 12 * time.Hour,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(opts), "options meet the deadline; the cheapest on each card:")
	seen := map[string]bool{}
	for _, o := range opts {
		if seen[o.CardID] {
			continue
		}
		seen[o.CardID] = true
		fmt.Printf("%s %d× %s (%s): %.1f GiB/GPU, %v, %s\n", o.Offer.Provider, o.GPUs, o.CardID,
			plan.DescribeLayout(o.Layout), o.PerGPU.Total().GiB(), o.Duration.Round(time.Minute), o.Cost.Total)
	}
	// Output:
	// 3 options meet the deadline; the cheapest on each card:
	// sample-a 7× rtx-4090 (data parallel ×7): 18.1 GiB/GPU, 1h41m0s, CNY 18.83
	// sample-c 8× h100-sxm5-80gb (data parallel ×8): 18.1 GiB/GPU, 16m0s, CNY 45.76
	// sample-b 3× a100-sxm4-80gb (data parallel ×3): 18.1 GiB/GPU, 2h3m0s, CNY 61.07
}
