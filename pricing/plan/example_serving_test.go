package plan_test

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// How many GPUs, and what a million generated tokens costs, to serve Llama-3.1-8B
// in BF16 at 20 requests a second of 1000 prompt and 300 output tokens, with the
// first token within a second and each next within 50 ms (sample prices in CNY;
// a month of continuous service is priced).
func ExamplePlanner_Plan_serving() {
	offer := func(provider, card string, hourly int64) pricing.Offer {
		return pricing.Offer{Provider: provider, Card: card, MaxGPUs: 8, Tariff: pricing.Tariff{
			Currency: "CNY", Hourly: decimal.New(hourly, -2)}}
	}
	planner := plan.Planner{Offers: []pricing.Offer{
		offer("sample-a", "RTX 4090", 160),
		offer("sample-b", "A100 SXM4 80GB", 990),
		offer("sample-c", "H100 SXM5 80GB", 2200),
	}}
	m, _ := sizing.Preset("llama-3.1-8b")
	opts, err := planner.Plan(plan.Request{
		Model:    m,
		Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16},
		Serving: &plan.Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300,
			TTFT: time.Second, TPOT: 50 * time.Millisecond},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range opts {
		s := o.Serving
		fmt.Printf("%s %s: %d × %d-GPU replicas, %d sequences each, TTFT %v, TPOT %v, %.0f tokens/s each; %s an hour, %s per million tokens\n",
			o.Offer.Provider, o.CardID, o.Replicas, o.Layout.Tensor, s.Concurrency, s.TTFT.Round(time.Millisecond),
			s.TPOT.Round(100*time.Microsecond), float64(s.Throughput), o.PerHour, o.PerMillion)
	}
	// Output:
	// sample-a rtx-4090: 7 × 1-GPU replicas, 40 sequences each, TTFT 219ms, TPOT 44.8ms, 881 tokens/s each; CNY 11.20 an hour, CNY 0.52 per million tokens
	// sample-b a100-sxm4-80gb: 3 × 1-GPU replicas, 112 sequences each, TTFT 144ms, TPOT 49.6ms, 2243 tokens/s each; CNY 29.70 an hour, CNY 1.38 per million tokens
	// sample-c h100-sxm5-80gb: 1 × 2-GPU replicas, 517 sequences each, TTFT 92ms, TPOT 50ms, 10316 tokens/s each; CNY 44.00 an hour, CNY 2.04 per million tokens
}
