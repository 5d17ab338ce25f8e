package plan_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// Will a LoRA fine-tune of Qwen2.5-7B fit one RTX 4090, and how long will 50
// million tokens take? No price list is needed. With 10% of memory kept free
// it fits at micro-batch 1, accumulating the workload's 4 sequences a step.
func ExamplePlanner_Fit() {
	m, _ := sizing.Preset("qwen2.5-7b")
	opts, err := plan.Planner{}.Fit(plan.Request{
		Model: m,
		Workload: sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048,
			Recompute: sizing.FullRecompute},
		Tokens: 5e7, Cards: []string{"RTX 4090"}, GPUs: 1, Headroom: 0.1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	o := opts[0]
	fmt.Printf("%d × %s: micro-batch %d × %d, %.1f GiB per GPU, %v\n", o.GPUs, o.CardID, o.MicroBatch, o.Accumulation,
		o.PerGPU.Total().GiB(), o.Duration.Round(time.Minute))
	// Output:
	// 1 × rtx-4090: micro-batch 1 × 4, 20.4 GiB per GPU, 6h17m0s
}

// A full fine-tune of Llama-3.1-70B with ZeRO-3 on 8 × H100: does it fit, and
// how long do 100 million tokens take? Sixteen bytes of model state a
// parameter over 8 GPUs do not fit; with the optimizer offloaded to host RAM
// they do, and the option says how much RAM each GPU needs.
func ExamplePlanner_Fit_zero3() {
	m, _ := sizing.Preset("llama-3.1-70b")
	r := plan.Request{
		Model: m,
		Workload: sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 4096,
			Recompute: sizing.FullRecompute},
		Tokens: 1e8, Cards: []string{"H100 SXM"}, GPUs: 8, Parallel: &sizing.Parallel{Data: 8, ZeRO: 3},
	}
	_, err := plan.Planner{}.Fit(r)
	fmt.Println("ZeRO-3 fits:", err == nil, errors.Is(err, plan.ErrNoFit))
	r.Parallel.OffloadOptimizer = true
	opts, err := plan.Planner{}.Fit(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := opts[0]
	fmt.Printf("offloaded: %s, %.1f GiB per GPU and %.1f GiB of host RAM each, %v\n", plan.DescribeLayout(o.Layout),
		o.PerGPU.Total().GiB(), o.HostMemory.GiB(), o.Duration.Round(time.Minute))
	// Output:
	// ZeRO-3 fits: false true
	// offloaded: data parallel ×8, ZeRO-3, optimizer offloaded, 30.9 GiB per GPU and 197.1 GiB of host RAM each, 3h59m0s
}

// Offloading needs host RAM: an offer that says it has too little for the
// offloaded optimizer is left out with the figure, one with enough is planned.
func ExamplePlanner_Report_hostMemory() {
	h100 := func(provider string, hostGiB int64) pricing.Offer {
		return pricing.Offer{Provider: provider, Card: "H100 SXM5 80GB", MaxGPUs: 8, HostMemory: hostGiB << 30,
			Tariff: pricing.Tariff{Currency: "USD", Hourly: decimal.New(250, -2)}}
	}
	m, _ := sizing.Preset("llama-3.1-70b")
	rep, err := plan.Planner{Offers: []pricing.Offer{h100("lean", 128), h100("roomy", 256)}}.Report(plan.Request{
		Model: m,
		Workload: sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 4096,
			Recompute: sizing.FullRecompute},
		Tokens: 1e8, GPUs: 8,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range rep.Options {
		fmt.Printf("%s: %s, %.0f GiB of host RAM per GPU, %s\n", o.Offer.Provider, plan.DescribeLayout(o.Layout), o.HostMemory.GiB(), o.Cost.Total)
	}
	for _, s := range rep.Skipped {
		fmt.Printf("left out %s: %s\n", s.Offer.Provider, s.Reason)
	}
	// Output:
	// roomy: data parallel ×8, ZeRO-3, optimizer offloaded, 197 GiB of host RAM per GPU, USD 79.55
	// left out lean: H100 SXM5 80GB at 8 GPUs: offloading the optimizer needs 197.1 GiB of host RAM per GPU, over the 128.0 GiB the offer has: offer cannot serve this usage
}

// A GGUF file quantized to Q4_K_M (ReadGGUF sets Model.StoredPrecision from its
// file type) is planned at its own precision, not as BF16: Llama-3.1-8B
// generating 10 million tokens one sequence at a time on an RTX 4090 reads
// about a third of the bytes a token, and decodes more than twice as fast.
func ExamplePlanner_Fit_storedPrecision() {
	m, _ := sizing.Preset("llama-3.1-8b")
	m.StoredPrecision = sizing.Q4_K_M // as sizing.ReadGGUF reads it from a Q4_K_M file
	for _, p := range []sizing.Precision{m.StoredPrecision, sizing.BF16} {
		opts, err := plan.Planner{}.Fit(plan.Request{Model: m,
			Workload: sizing.Workload{Task: sizing.Inference, Precision: p, Batch: 1, SeqLen: 4096},
			Tokens:   1e7, Cards: []string{"RTX 4090"}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: %.1f GiB, %v\n", p, opts[0].PerGPU.Total().GiB(), opts[0].Duration.Round(time.Minute))
	}
	// Output:
	// Q4_K_M: 6.7 GiB, 22h38m0s
	// BF16: 17.2 GiB, 53h42m0s
}

// DeepSeek-V3's config.json states FP8 weights (its quantization_config), and
// the preset carries it as StoredPrecision: planned in FP8, 671 billion
// parameters fit 6 × H200 (in pipeline stages: its 128 heads do not split six
// ways); asked for in BF16 nothing does, and the first suggestion is the
// model's own format.
func ExamplePlanner_Fit_fp8() {
	m, _ := sizing.Preset("deepseek-v3")
	r := plan.Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: m.StoredPrecision, Batch: 1, SeqLen: 8192},
		Cards: []string{"H200"}, MaxGPUs: 8}
	opts, err := plan.Planner{}.Fit(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: %d × %s, %s\n", m.StoredPrecision, opts[0].GPUs, opts[0].CardID, plan.DescribeLayout(opts[0].Layout))
	r.Workload.Precision = sizing.BF16
	_, err = plan.Planner{}.Fit(r)
	var nf *plan.NoFitError
	if errors.As(err, &nf) {
		fmt.Println("BF16:", nf.Suggestions[0])
	}
	// Output:
	// FP8: 6 × h200-sxm5-141gb, pipeline ×6
	// BF16: the model's own format, FP8 (as its files store it), fits 8 × H200 SXM 141GB (tensor parallel ×8)
}
