package sizing

import (
	"math"

	"pgregory.net/rapid"
)

// Generators draw from ranges that always validate and never overflow, so the
// properties need no filtering.

// genModel draws a dense or MoE model with a full architecture: heads divide the
// hidden size, KV heads divide the heads.
func genModel() *rapid.Generator[Model] {
	return rapid.Custom(func(t *rapid.T) Model {
		headDim := rapid.SampledFrom([]int{32, 64, 128}).Draw(t, "head_dim")
		heads := rapid.SampledFrom([]int{1, 2, 4, 8, 16, 32, 64}).Draw(t, "heads")
		kvDiv := rapid.SampledFrom([]int{1, 2, 4, 8}).Draw(t, "kv_divisor")
		kv := heads
		if heads%kvDiv == 0 {
			kv = heads / kvDiv
		}
		m := Model{
			Name:     "gen",
			Layers:   rapid.IntRange(1, 96).Draw(t, "layers"),
			Hidden:   heads * headDim,
			Heads:    heads,
			KVHeads:  kv,
			FFN:      rapid.IntRange(1, 8*heads*headDim).Draw(t, "ffn"),
			Vocab:    rapid.IntRange(1, 256_000).Draw(t, "vocab"),
			GatedFFN: rapid.Bool().Draw(t, "gated"),
		}
		if rapid.Bool().Draw(t, "moe") {
			m.Experts = rapid.IntRange(2, 16).Draw(t, "experts")
			m.ExpertsPerToken = rapid.IntRange(1, m.Experts).Draw(t, "experts_per_token")
			m.ExpertFFN = rapid.IntRange(0, 4*m.Hidden).Draw(t, "expert_ffn")
			m.SharedFFN = rapid.IntRange(0, 4*m.Hidden).Draw(t, "shared_ffn")
			m.DenseLayers = rapid.IntRange(0, m.Layers).Draw(t, "dense_layers")
		}
		if rapid.Bool().Draw(t, "latent") {
			m.KVHeads = 0
			m.RopeHeadDim = headDim / 2
			m.HeadDim = headDim
			m.KVLoRARank = rapid.IntRange(1, 1024).Draw(t, "kv_lora_rank")
			m.QLoRARank = rapid.IntRange(0, 2048).Draw(t, "q_lora_rank")
		}
		if rapid.Bool().Draw(t, "sliding") {
			m.SlidingWindow = rapid.IntRange(1, 8192).Draw(t, "sliding_window")
			m.SlidingLayers = rapid.IntRange(0, m.Layers).Draw(t, "sliding_layers")
		}
		return m
	})
}

// genParamsModel draws a model known only by its parameter count.
func genParamsModel() *rapid.Generator[Model] {
	return rapid.Custom(func(t *rapid.T) Model {
		return Model{Name: "params-only", Params: rapid.Int64Range(1, 2e12).Draw(t, "params")}
	})
}

// floatPrecisions are the formats every task accepts, in order of bits.
var floatPrecisions = []Precision{FP8, FP16, BF16, FP32, FP64}

// genWorkload draws a workload that validates for m: tensor degree a divisor of the
// heads (and a multiple or divisor of the KV heads), pipeline at most the layers.
func genWorkload(m Model) *rapid.Generator[Workload] {
	return rapid.Custom(func(t *rapid.T) Workload {
		w := Workload{
			Task:           rapid.SampledFrom([]Task{Inference, Training, LoRA, QLoRA}).Draw(t, "task"),
			Precision:      rapid.SampledFrom(floatPrecisions).Draw(t, "precision"),
			Optimizer:      Optimizer(rapid.IntRange(0, int(numOptimizers)-1).Draw(t, "optimizer")),
			Batch:          rapid.IntRange(1, 64).Draw(t, "batch"),
			SeqLen:         rapid.IntRange(1, 32768).Draw(t, "seq_len"),
			Recompute:      Recompute(rapid.IntRange(0, int(numRecomputes)-1).Draw(t, "recompute")),
			EagerAttention: rapid.Bool().Draw(t, "eager"),
			LoRARank:       rapid.IntRange(0, 256).Draw(t, "lora_rank"),
			LoRATargets:    LoRATargets(rapid.IntRange(0, int(TargetAllLinear)).Draw(t, "lora_targets")),
			Overhead:       Bytes(rapid.Int64Range(0, int64(4*GiB)).Draw(t, "overhead")),
		}
		if w.Task == Inference || w.Task == LoRA {
			w.Precision = rapid.SampledFrom([]Precision{FP8, FP16, BF16, FP32, INT8, INT4, NF4, GPTQ4, Q4_K_M}).Draw(t, "weight_precision")
		}
		if rapid.Bool().Draw(t, "grad_fp32") {
			w.GradPrecision = FP32
		}
		if rapid.Bool().Draw(t, "kv_fp8") {
			w.KVPrecision = FP8
		}
		w.StatePrecision = rapid.SampledFrom([]Precision{0, FP16, BF16, FP32}).Draw(t, "state_precision")
		w.FullLogits = rapid.Bool().Draw(t, "full_logits")
		w.ChunkedLoss = rapid.Bool().Draw(t, "chunked_loss")
		w.Parallel = genParallel(m).Draw(t, "parallel")
		return w
	})
}

// genParallel draws a layout valid for m.
func genParallel(m Model) *rapid.Generator[Parallel] {
	return rapid.Custom(func(t *rapid.T) Parallel {
		var tensor []int
		for d := 1; d <= 16; d++ {
			if !m.HasArchitecture() || m.Heads%d == 0 && (m.kvHeads()%d == 0 || d%m.kvHeads() == 0) {
				tensor = append(tensor, d)
			}
		}
		maxPipe := 16
		if m.HasArchitecture() {
			maxPipe = min(maxPipe, m.Layers)
		} else if n := m.ParamCount(); n > 0 {
			ar := archOf(&m) // the layers Estimate assumes
			maxPipe = min(maxPipe, int(math.Ceil(ar.L)))
		}
		return Parallel{
			Data:             rapid.IntRange(0, 256).Draw(t, "data"),
			Tensor:           rapid.SampledFrom(tensor).Draw(t, "tensor"),
			Pipeline:         rapid.IntRange(0, maxPipe).Draw(t, "pipeline"),
			ZeRO:             rapid.IntRange(0, 3).Draw(t, "zero"),
			SequenceParallel: rapid.Bool().Draw(t, "sequence_parallel"),
			OffloadOptimizer: rapid.Bool().Draw(t, "offload"),
		}
	})
}

// genAnyModel draws either kind of model.
func genAnyModel() *rapid.Generator[Model] {
	return rapid.OneOf(genModel(), genParamsModel())
}
