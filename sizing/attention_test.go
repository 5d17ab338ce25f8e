package sizing

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Latent attention, sliding windows and the context window in the KV cache.
func TestKVCacheArchitectures(t *testing.T) {
	// DeepSeek-V3/R1: (512 + 64) values per token per layer, 61 layers, BF16:
	// 70,272 bytes per token (DeepSeek-V2 §2.1.2's d_c + d_h^R per layer).
	ds := readConfigFile(t, "deepseek-r1")
	if kv, err := KVCacheBytes(ds, 1, 1, BF16); err != nil || kv != 70_272 {
		t.Errorf("DeepSeek-R1 KV per token = %d, %v; want 70272", kv, err)
	}
	// Gemma-2-9B at 8192 tokens: 21 global layers keep 8192 tokens, 21 sliding
	// layers 4096; 2 × 8 heads × 256 × 2 bytes = 8 KiB per token per layer.
	g := readConfigFile(t, "gemma-2-9b")
	want := Bytes(8192 * (21*8192 + 21*4096))
	if kv, err := KVCacheBytes(g, 8192, 1, BF16); err != nil || kv != want {
		t.Errorf("Gemma-2-9B KV at 8192 = %d, %v; want %d", kv, err, want)
	}
	// Below the window, the window changes nothing.
	if kv, _ := KVCacheBytes(g, 1000, 1, BF16); kv != Bytes(8192*42*1000) {
		t.Errorf("Gemma-2-9B KV at 1000 = %d, want %d", kv, 8192*42*1000)
	}
	// Estimate agrees with KVCacheBytes for both.
	for _, m := range []Model{ds, g} {
		w := Workload{Task: Inference, Precision: BF16, Batch: 2, SeqLen: 8192}
		b, err := Estimate(m, w)
		kv, _ := KVCacheBytes(m, 8192, 2, BF16)
		if err != nil || b.KVCache != kv {
			t.Errorf("%s: Estimate KV %d (%v), KVCacheBytes %d", m.Name, b.KVCache, err, kv)
		}
	}
	// Inference past the window is an error naming it; at the window it is not.
	w := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 8192}
	if _, err := Estimate(g, w); err != nil {
		t.Errorf("Gemma-2-9B at its 8192-token window: %v", err)
	}
	w.SeqLen = 8193
	if _, err := Estimate(g, w); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "8192 tokens") {
		t.Errorf("Gemma-2-9B past its window: %v, want an error naming 8192 tokens", err)
	}
	// MaxContext stops at the window.
	if n, err := MaxContext(g, w, 1<<50); err != nil || n != 8192 {
		t.Errorf("MaxContext of Gemma-2-9B on a huge card = %d, %v; want 8192", n, err)
	}
}

// Without the architecture the KV cache assumes 8 KV heads of 128 (GQA): for
// Llama-3-70B's parameter count at 32k tokens, close to the 10.0 GiB its
// architecture gives, not 8 times it.
func TestApproxKVAssumesGQA(t *testing.T) {
	w := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 32768}
	exact, err := Estimate(Model{Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 128256, GatedFFN: true}, w)
	if err != nil {
		t.Fatal(err)
	}
	approx, err := Estimate(Model{Params: 70_553_706_496}, w)
	if err != nil {
		t.Fatal(err)
	}
	if !approx.Approx.Has(TermKVCache) {
		t.Errorf("Approx %v lacks kv_cache", approx.Approx)
	}
	if r := approx.KVCache.GiB() / exact.KVCache.GiB(); r < 0.8 || r > 1.25 {
		t.Errorf("approximate KV %.1f GiB against %.1f GiB exact", approx.KVCache.GiB(), exact.KVCache.GiB())
	}
}

// A prefill chunk bounds inference activations to one chunk of tokens.
func TestPrefillChunk(t *testing.T) {
	m := readConfigFile(t, "llama-3.1-8b")
	w := Workload{Task: Inference, Precision: BF16, Batch: 16, SeqLen: 4096}
	whole, err := Estimate(m, w)
	if err != nil {
		t.Fatal(err)
	}
	w.PrefillChunk = DefaultPrefillChunk
	chunk, err := Estimate(m, w)
	if err != nil {
		t.Fatal(err)
	}
	// 65,536 prompt tokens against 2048: the per-token sets shrink 32-fold; the
	// logits (16 × 128,256 × 4 bytes) stay.
	logits := Bytes(16 * 128256 * 4)
	if got, want := (whole.Activations-logits)/32, chunk.Activations-logits; got-want > 1 || want-got > 1 {
		t.Errorf("chunked activations %d, want %d", want+logits, got+logits)
	}
	if chunk.KVCache != whole.KVCache || chunk.Weights != whole.Weights {
		t.Errorf("the chunk changed more than activations")
	}
	w.PrefillChunk = -1
	if _, err := Estimate(m, w); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative chunk: %v", err)
	}
}

// ZeRO-Offload against DeepSpeed's published estimate for bigscience/T0_3B
// (2783M parameters, one GPU, ZeRO-3, offload_optimizer=cpu: 62.23 GB of host
// memory, 5.43 GB on the GPU of which 0.25 GB is the largest layer's working
// copy; Hugging Face's DeepSpeed integration guide, "Memory Requirements").
func TestOffloadMatchesDeepSpeed(t *testing.T) {
	m := Model{Params: 2_783_000_000}
	w := Workload{Task: Training, Precision: BF16, Batch: 1, SeqLen: 1, Parallel: Parallel{ZeRO: 3, OffloadOptimizer: true}}
	b, err := Estimate(m, w)
	if err != nil {
		t.Fatal(err)
	}
	if host := b.Host.GiB(); host < 62.1 || host > 62.3 {
		t.Errorf("host %.2f GiB, DeepSpeed 62.23", host)
	}
	if gpu := (b.Weights + b.Gradients + b.Optimizer).GiB(); gpu < 5.43-0.25-0.05 || gpu > 5.43 {
		t.Errorf("GPU model states %.2f GiB, DeepSpeed 5.43 with 0.25 of working buffers", gpu)
	}
}

// GPT-2 1.5B trained with full activation checkpointing at 1024 tokens × 32
// sequences: the ZeRO paper (Rajbhandari et al. 2020, §3.2) puts its activations at
// "about 8 GB". gpuplan keeps 48 layer inputs (5.03 GB), one layer's set while it
// is recomputed (1.78 GB) and the loss's four copies of the logits (23.1 GB: FP16,
// the FP32 upcast, the log-softmax and its gradient), which the paper leaves out.
func TestFullRecomputeGPT2(t *testing.T) {
	m, err := Preset("gpt2-xl")
	if err != nil {
		t.Fatal(err)
	}
	w := Workload{Task: Training, Precision: FP16, Batch: 32, SeqLen: 1024, Recompute: FullRecompute}
	b, err := Estimate(m, w)
	if err != nil {
		t.Fatal(err)
	}
	tokens := 1024.0 * 32
	inputs := tokens * 48 * 2 * 1600
	logits := tokens * 50257 * 14
	layer := tokens * 1600 * 34
	if got := float64(b.Activations); math.Abs(got-(inputs+layer+logits)) > 1 {
		t.Errorf("activations %.4g, want %.4g", got, inputs+layer+logits)
	}
	// Without the logits, the transformer's part is within the paper's figure.
	if tr := (inputs + layer) / 1e9; tr < 6 || tr > 8.5 {
		t.Errorf("transformer activations %.1f GB, the ZeRO paper about 8", tr)
	}
}
