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
// first token within a second and each next within 50 ms for 90% of requests,
// queueing included (sample prices in CNY; a month of continuous service is
// priced), and the line that starts each replica.
func ExamplePlanner_Plan_serving() {
	offer := func(provider, card string, hourly int64) pricing.Offer {
		return pricing.Offer{Provider: provider, Card: card, MaxGPUs: 16, Tariff: pricing.Tariff{
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
			TTFT: time.Second, TPOT: 50 * time.Millisecond, Percentile: 0.9},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range opts {
		l := o.Load
		fmt.Printf("%s %s: %d × %d-GPU replicas, %.1f requests/s each: p90 TTFT %v, p90 TPOT %v; %s an hour, %s per million tokens\n",
			o.Offer.Provider, o.CardID, o.Replicas, o.Layout.Tensor, l.Rate, l.TTFT.P90.Round(time.Millisecond),
			l.TPOT.P90.Round(100*time.Microsecond), o.PerHour, o.PerMillion)
	}
	fmt.Println(opts[0].Launch[0])
	// Output:
	// sample-a rtx-4090: 9 × 1-GPU replicas, 2.2 requests/s each: p90 TTFT 718ms, p90 TPOT 47.9ms; CNY 14.40 an hour, CNY 0.67 per million tokens
	// sample-b a100-sxm4-80gb: 1 × 4-GPU replicas, 20.0 requests/s each: p90 TTFT 77ms, p90 TPOT 17.1ms; CNY 39.60 an hour, CNY 1.83 per million tokens
	// sample-c h100-sxm5-80gb: 1 × 2-GPU replicas, 20.0 requests/s each: p90 TTFT 48ms, p90 TPOT 12.5ms; CNY 44.00 an hour, CNY 2.04 per million tokens
	// vllm serve llama-3.1-8b --tensor-parallel-size 1 --max-num-seqs 40 --gpu-memory-utilization 0.9 --max-model-len 1300
}
