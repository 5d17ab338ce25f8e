package plan

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// Past one server a job keeps NVLink inside each server, for its tensor
// parallelism and for its share of the data-parallel rings, and crosses the
// assumed network only where the rings leave a server: the tensor-parallel
// all-reduces of TP 8 × DP 2 on two H100 servers run as they do on one, so the
// 16 GPUs finish sooner than the 8 of one server, and the warning names both
// links and the assumption.
func TestPlanAcrossServersKeepsNVLink(t *testing.T) {
	offer := pricing.Offer{Provider: "hgx", Card: "H100 SXM5 80GB", GPUsPerInstance: 8, MaxGPUs: 16,
		Tariff: pricing.Tariff{Currency: "USD", Hourly: decimal.RequireFromString("24")}}
	full := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 4096,
		Recompute: sizing.SelectiveRecompute, ChunkedLoss: true}
	at := func(gpus int, p sizing.Parallel) Option {
		t.Helper()
		opts, err := Planner{Offers: []pricing.Offer{offer}}.Plan(Request{Model: mustPreset(t, "llama-2-13b"), Workload: full,
			Tokens: 1e9, GPUs: gpus, Parallel: &p})
		if err != nil {
			t.Fatalf("%d GPUs, %+v: %v", gpus, p, err)
		}
		return opts[0]
	}
	for _, tc := range []struct {
		name     string
		one, two sizing.Parallel
	}{
		{"tensor parallel 8", sizing.Parallel{Tensor: 8, SequenceParallel: true}, sizing.Parallel{Data: 2, Tensor: 8, SequenceParallel: true}},
		{"data parallel, ZeRO-3", sizing.Parallel{Data: 8, ZeRO: 3}, sizing.Parallel{Data: 16, ZeRO: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			one, two := at(8, tc.one), at(16, tc.two)
			if two.Duration >= one.Duration {
				t.Errorf("16 GPUs on two servers take %v, 8 on one %v: want the two servers faster", two.Duration, one.Duration)
			}
			const want = "16 GPUs span 2 servers: NVLink inside each, the network between servers (200 Gb/s per GPU assumed)"
			if w := strings.Join(two.Warnings, "\n"); !strings.Contains(w, want) {
				t.Errorf("warnings %q, want %q", two.Warnings, want)
			}
		})
	}
}
