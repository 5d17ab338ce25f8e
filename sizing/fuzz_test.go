package sizing

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzEstimate feeds arbitrary models and workloads to Estimate: it must never
// panic, and it returns either an error wrapping a sentinel or a breakdown whose
// terms are non-negative and whose Total does not wrap around.
func FuzzEstimate(f *testing.F) {
	f.Add(int64(0), 32, 4096, 32, 0, 0, 11008, 32000, 0, 0, uint8(2), uint32(5), uint32(0), uint32(0), uint8(0),
		1, 4096, uint8(0), true, 0, 1, 1, 0, false, false, int64(0), 0, uint8(0))
	f.Add(int64(7e9), 0, 0, 0, 0, 0, 0, 0, 0, 0, uint8(1), uint32(9), uint32(0), uint32(0), uint8(0),
		8, 32768, uint8(0), false, 0, 0, 0, 0, false, false, int64(0), 0, uint8(0))
	f.Add(int64(0), 80, 8192, 64, 8, 0, 28672, 32000, 8, 2, uint8(4), uint32(5), uint32(2), uint32(6), uint8(4),
		4, 2048, uint8(2), false, 8, 2, 4, 3, true, true, int64(1<<30), 64, uint8(127))
	f.Add(int64(math.MaxInt64), math.MaxInt, math.MaxInt, 1, 1, 1, math.MaxInt, math.MaxInt, 0, 0, uint8(2), uint32(1),
		uint32(1), uint32(1), uint8(7), math.MaxInt, math.MaxInt, uint8(1), false, math.MaxInt, 1, math.MaxInt, 3, false, true, int64(math.MaxInt64), math.MaxInt, uint8(255))
	f.Add(int64(0), 61, 7168, 128, 0, 192, 18432, 129280, 256, 8, uint8(1), uint32(5), uint32(0), uint32(0), uint8(0),
		1, 4096, uint8(0x80), false, 0, 8, 1, 0, false, false, int64(0), 512, uint8(0x80))
	f.Fuzz(func(t *testing.T, params int64, layers, hidden, heads, kvHeads, headDim, ffn, vocab, experts, ept int,
		task uint8, prec, grad, kv uint32, opt uint8, batch, seq int, rc uint8, flash bool,
		data, tensor, pipe, zero int, sp, offload bool, overhead int64, rank int, targets uint8) {
		m := Model{Params: params, Layers: layers, Hidden: hidden, Heads: heads, KVHeads: kvHeads, HeadDim: headDim,
			FFN: ffn, Vocab: vocab, GatedFFN: flash != sp, Experts: experts, ExpertsPerToken: ept}
		// The high bits of two small arguments switch on the newer architecture
		// fields, so that stored inputs keep their meaning: a sliding window over
		// half the layers, and latent attention.
		if targets&0x80 != 0 {
			m.SlidingWindow, m.SlidingLayers = seq/2, layers/2
			targets &^= 0x80
		}
		if rc&0x80 != 0 {
			m.KVLoRARank, m.QLoRARank, m.RopeHeadDim, m.ExpertFFN, m.SharedFFN, m.DenseLayers = rank, rank/2, headDim/2, ffn/4, ffn/8, layers/4
			rc &^= 0x80
		}
		w := Workload{Task: Task(task), Precision: Precision(prec), GradPrecision: Precision(grad), KVPrecision: Precision(kv),
			Optimizer: Optimizer(opt), Batch: batch, SeqLen: seq, Recompute: Recompute(rc), EagerAttention: flash,
			LoRARank: rank, LoRATargets: LoRATargets(targets),
			Parallel: Parallel{Data: data, Tensor: tensor, Pipeline: pipe, ZeRO: zero, SequenceParallel: sp, OffloadOptimizer: offload},
			Overhead: Bytes(overhead)}
		b, err := Estimate(m, w)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			if b != (Breakdown{}) {
				t.Fatalf("error %v came with a breakdown %+v", err, b)
			}
			if m.Validate() == nil && w.Validate() == nil && !strings.Contains(err.Error(), "parallel") &&
				!strings.Contains(err.Error(), "overflows") && !strings.Contains(err.Error(), "pipeline") {
				t.Fatalf("Estimate rejected a valid model and workload: %v", err)
			}
			return
		}
		if verr := m.Validate(); verr != nil {
			t.Fatalf("Estimate accepted a model Validate rejects: %v", verr)
		}
		if verr := w.Validate(); verr != nil {
			t.Fatalf("Estimate accepted a workload Validate rejects: %v", verr)
		}
		for _, v := range []Bytes{b.Weights, b.Gradients, b.Optimizer, b.Activations, b.KVCache, b.Overhead, b.Host} {
			if v < 0 {
				t.Fatalf("negative term in %+v", b)
			}
		}
		if tot := b.Total(); tot < b.Weights || tot < b.Activations || tot < b.KVCache || tot < b.Overhead || tot < b.Optimizer {
			t.Fatalf("Total %d wrapped around in %+v", tot, b)
		}
		if b.Weights == 0 {
			t.Fatalf("a valid estimate without weights: %+v", b)
		}
	})
}
