package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
)

// A price-list row that names the Ascend 910B, as Chinese listings write it, plans
// a LoRA fine-tune of Llama-2-7B: on one NPU at its 353.9 TFLOPS BF16 cube rate
// (Huawei's CANN docs), so 312/353.9 of the time one A100 SXM4 80GB (312 TFLOPS,
// NVIDIA's datasheet) takes at the same utilization.
func TestPlan910BLoRA(t *testing.T) {
	r := trainingRequest(t)
	one := func(card string) Option {
		t.Helper()
		opts, err := Planner{Offers: []pricing.Offer{planOffer("cn", card, 1, "6.50", "")}}.Plan(r)
		if err != nil {
			t.Fatalf("Plan on %s: %v", card, err)
		}
		for _, o := range opts {
			if o.GPUs == 1 && o.Layout.ZeRO == 0 && !o.Layout.OffloadOptimizer {
				return o
			}
		}
		t.Fatalf("no plain one-GPU option on %s among %d", card, len(opts))
		return Option{}
	}
	for _, name := range []string{"昇腾910B", "Ascend 910B", "910B", "华为 昇腾 910B 64GB"} {
		o := one(name)
		if o.CardID != "ascend-910b2" || o.Capacity != 65536*sizing.MiB {
			t.Errorf("%q: card %s capacity %v, want ascend-910b2 with 65536 MiB", name, o.CardID, o.Capacity)
		}
		if o.Duration <= 0 || o.Duration > 1000*time.Hour || o.Cost.Total.Amount.Sign() <= 0 {
			t.Errorf("%q: duration %v cost %v, want a finite job at a price", name, o.Duration, o.Cost.Total.Amount)
		}
	}
	npu, gpu := one("910B"), one("A100 SXM4 80GB")
	if got, want := float64(npu.Duration)/float64(gpu.Duration), 312/353.9; got < want-1e-6 || got > want+1e-6 {
		t.Errorf("910B takes %v, A100 %v: ratio %.6f, want %.6f", npu.Duration, gpu.Duration, got, want)
	}
}

// Eight 910Bs in one server all-reduce over HCCS (392 GB/s per NPU, both ways), so
// they scale better than the same NPUs would over PCIe Gen4 alone. The planner
// hides the all-reduce behind compute, so the link shows where the all-reduce
// takes longer: a full fine-tune of a 1B model on short sequences, whose 2.5 GB
// of BF16 gradients a step outlast one 512-token micro-batch's compute over
// PCIe but not over HCCS.
func TestPlan910BScalesOverHCCS(t *testing.T) {
	r := Request{Model: mustPreset(t, "llama-3.2-1b"), Workload: sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 512},
		Tokens: 1e8, EveryCount: true, Limit: -1}
	at8 := func(cat *catalog.Catalog) Option {
		t.Helper()
		opts, err := Planner{Catalog: cat, Offers: []pricing.Offer{planOffer("cn", "910B", 8, "6.50", "")}}.Plan(r)
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		for _, o := range opts {
			if o.GPUs == 8 {
				return o
			}
		}
		t.Fatalf("no option on 8 NPUs among %d", len(opts))
		return Option{}
	}
	card, err := catalog.Default().Lookup("910B")
	if err != nil {
		t.Fatal(err)
	}
	card.Link, card.NVLink = catalog.LinkNone, 0
	pcieOnly, err := catalog.New(card)
	if err != nil {
		t.Fatal(err)
	}
	hccs, pcie := at8(catalog.Default()), at8(pcieOnly)
	if hccs.Efficiency != 1 || DescribeLayout(hccs.Layout) != "data parallel ×8" {
		t.Errorf("over HCCS: %s at efficiency %.4f, want plain data parallelism with the all-reduce hidden", DescribeLayout(hccs.Layout), hccs.Efficiency)
	}
	if !(hccs.Duration < pcie.Duration && pcie.Efficiency < 1) {
		t.Errorf("8 NPUs: %v (%s, efficiency %.4f) over HCCS, %v (%s, %.4f) over PCIe; want HCCS ahead",
			hccs.Duration, DescribeLayout(hccs.Layout), hccs.Efficiency, pcie.Duration, DescribeLayout(pcie.Layout), pcie.Efficiency)
	}
}

// Huawei publishes no FP32 rate for the 910B: a job that computes in FP32 gets an
// error that says so, never a zero or infinite time.
func TestPlan910BNoFP32Rate(t *testing.T) {
	r := trainingRequest(t)
	r.Workload.Precision = sizing.FP32
	rep, err := Planner{Offers: []pricing.Offer{planOffer("cn", "910B", 8, "6.50", "")}}.Report(r)
	if err == nil && len(rep.Options) > 0 {
		t.Fatalf("FP32 on a 910B planned: %+v", rep.Options[0])
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	for _, s := range rep.Skipped {
		msg += "|" + s.Reason
	}
	if !strings.Contains(msg, "Ascend 910B2 has no FP32 rate in the catalog (no such unit, or none published)") {
		t.Errorf("FP32 on a 910B: %q, want the missing rate named", msg)
	}
	if err != nil && !errors.Is(err, ErrNoFit) && !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("error %v wraps neither ErrNoFit nor ErrInvalid", err)
	}
}
