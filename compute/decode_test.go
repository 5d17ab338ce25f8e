package compute

import (
	"errors"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

func TestDecodeGPTFast(t *testing.T) {
	// gpt-fast (pytorch-labs/gpt-fast README): Llama-2-7B in BF16 decodes at
	// 104.9 tokens/s on an A100-80GB at batch 1 with a short prompt, about 1.4 TB/s
	// of the card's 2.0 TB/s. A step reads the weights but the input embedding
	// table (one row of it) and 200 tokens of KV cache at
	// DefaultMemoryEfficiency of the A100's 2039 GB/s: 107.9 tokens/s, 3% fast.
	d := Decode{Model: llama27B, Weights: sizing.BF16, Context: 200, Bandwidth: a100HBM, Peak: a100Peak, Arch: "Ampere"}
	s, err := d.Speed()
	if err != nil {
		t.Fatal(err)
	}
	if s.PerSequence < 95 || s.PerSequence > 115 || !s.MemoryBound {
		t.Errorf("Speed = %+v, want 95–115 tokens/s, memory-bound (measured 104.9)", s)
	}
	if !within(float64(s.PerSequence), 104.9, 0.03) {
		t.Errorf("PerSequence = %.2f, want within 3%% of 104.9", float64(s.PerSequence))
	}
	// Bytes read: 13.48 GB of weights less the 262 MB embedding table, plus 200
	// tokens × 512 KiB of KV.
	if want := sizing.Bytes(13476831232 - 32000*4096*2 + 200*524288); s.BytesRead != want {
		t.Errorf("BytesRead = %d, want %d", s.BytesRead, want)
	}
}

// Quantized weights stream fewer bytes but not proportionally faster; the default
// efficiency follows the weights' width (MemoryEfficiencyFor).
func TestDecodeGPTFastQuantized(t *testing.T) {
	// gpt-fast README, A100-80GB benchmark table (batch 1, 5-token prompt): tokens/s.
	// gpt-fast's int4 keeps a BF16 scale and zero per 32 weights (5 bits a weight
	// where sizing.INT4 counts 4) and its int8 runs on PyTorch's generated kernels,
	// so the Marlin-class 4-bit figure reads 7B's int4 as 1.34 times as fast and
	// its int8 1.16: the bounds are those achieved.
	tests := []struct {
		name     string
		m        sizing.Model
		p        sizing.Precision
		measured float64
		lo, hi   float64
	}{
		{"Llama-2-7B BF16", llama27B, sizing.BF16, 104.9, 0.97, 1.04},
		{"Llama-2-7B int8", llama27B, sizing.INT8, 155.58, 1.1, 1.2},
		{"Llama-2-7B int4 G=32", llama27B, sizing.INT4, 196.80, 1.3, 1.4},
		{"Llama-2-70B int8", llama270B, sizing.INT8, 19.13, 0.89, 1.1},
		{"Llama-2-70B int4 G=32", llama270B, sizing.INT4, 25.25, 0.89, 1.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode{Model: tt.m, Weights: tt.p, Context: 5, Bandwidth: a100HBM, Peak: a100Peak, Arch: "Ampere"}.Speed()
			if err != nil {
				t.Fatal(err)
			}
			if r := float64(s.PerSequence) / tt.measured; r < tt.lo || r > tt.hi {
				t.Errorf("PerSequence = %.1f tokens/s, %.3f of the measured %.2f, want %.2f–%.2f", float64(s.PerSequence), r, tt.measured, tt.lo, tt.hi)
			}
		})
	}
}

func TestMemoryEfficiencyFor(t *testing.T) {
	custom6, err := sizing.CustomBits(6)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p    sizing.Precision
		arch string
		want float64
	}{
		{sizing.FP32, "", 0.7}, {sizing.BF16, "", 0.7}, {sizing.BF16, "Ampere", 0.7}, {sizing.BF16, "Ada Lovelace", 0.8},
		{sizing.FP8, "Hopper", 0.7}, {sizing.FP8, "Ampere", 0.85 * 0.7}, {sizing.INT8, "Hopper", 0.85 * 0.7},
		{custom6, "", 0.8 * 0.7},
		{sizing.GPTQ4, "Ampere", 0.65 * 0.7}, {sizing.AWQ4, "Turing", 0.45 * 0.7}, {sizing.AWQ4, "Ada Lovelace", 0.8 * 0.8},
		{sizing.NF4, "Ampere", 0.45 * 0.7},
		{sizing.Q4_0, "Ada Lovelace", 0.75 * 0.8}, {sizing.Q8_0, "Ada Lovelace", 0.85 * 0.8},
		{0, "", DefaultMemoryEfficiency},
	}
	for _, tt := range tests {
		if got := MemoryEfficiencyFor(tt.p, tt.arch); !within(got, tt.want, 1e-12) {
			t.Errorf("MemoryEfficiencyFor(%v, %q) = %v, want %v", tt.p, tt.arch, got, tt.want)
		}
	}
	// Every figure is a fraction of the bandwidth, and no quantized format reaches
	// more of it than 16 bits on the same card.
	for _, arch := range []string{"", "Ampere", "Ada Lovelace", "Hopper", "Turing"} {
		wide := MemoryEfficiencyFor(sizing.BF16, arch)
		for b := 1.0; b <= 32; b += 0.25 {
			p, err := sizing.CustomBits(b)
			if err != nil {
				t.Fatal(err)
			}
			if got := MemoryEfficiencyFor(p, arch); got <= 0 || got > wide {
				t.Fatalf("MemoryEfficiencyFor(%v bits, %q) = %v, the 16-bit figure %v", b, arch, got, wide)
			}
		}
	}
}

// A model known by Params alone gets the KV cache Estimate approximates, flagged.
func TestDecodeParamsOnlyKV(t *testing.T) {
	m := sizing.Model{Params: 7e9}
	short, err := Decode{Model: m, Weights: sizing.BF16, Bandwidth: a100HBM, Peak: a100Peak}.Speed()
	if err != nil {
		t.Fatal(err)
	}
	long, err := Decode{Model: m, Weights: sizing.BF16, Context: 200000, Bandwidth: a100HBM, Peak: a100Peak}.Speed()
	if err != nil {
		t.Fatal(err)
	}
	est, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 200000})
	if err != nil {
		t.Fatal(err)
	}
	if short.Approx || !long.Approx {
		t.Errorf("Approx = %v at no context and %v at 200000 tokens, want false and true", short.Approx, long.Approx)
	}
	if got, want := long.BytesRead-short.BytesRead, est.KVCache; got != want {
		t.Errorf("KV read at 200000 tokens = %d bytes, want Estimate's %d", got, want)
	}
	if long.PerSequence >= short.PerSequence/2 {
		t.Errorf("200000 tokens of context decode at %v tokens/s against %v without: want under half", long.PerSequence, short.PerSequence)
	}
}

func TestDecodeRoofline(t *testing.T) {
	base := Decode{Model: llama27B, Weights: sizing.BF16, Bandwidth: a100HBM, Peak: a100Peak}
	// Batching shares the weight read: 64 sequences at short context get most of
	// 64× the total throughput while still memory-bound; the multiply's time,
	// under half the read's, adds to it by the smooth roofline (linear).
	b64 := base
	b64.Batch = 64
	s1, _ := base.Speed()
	s64, err := b64.Speed()
	if err != nil {
		t.Fatal(err)
	}
	if r := float64(s64.Total) / (64 * float64(s1.Total)); !s64.MemoryBound || r < 0.8 || r > 0.95 {
		t.Errorf("batch 64 = %+v, %.3f of 64 × %v; want memory-bound and 0.8–0.95", s64, r, s1.Total)
	}
	// At batch 1024 compute caps it: 2·N·1024 per step at PrefillEfficiency's 60% of
	// 312 TFLOPS, the weights' read adding under a tenth.
	big := base
	big.Batch = 1024
	s, err := big.Speed()
	if err != nil {
		t.Fatal(err)
	}
	n, _ := MatmulParams(llama27B)
	want := 312e12 * 0.6 / (2 * float64(n))
	if r := float64(s.Total) / want; s.MemoryBound || r < 0.9 || r > 1 {
		t.Errorf("batch 1024 = %+v, %.3f of the compute bound %.0f tokens/s", s, r, want)
	}
	// A long context adds KV reads: at 4096 tokens Llama-2-7B keeps 2 GiB of KV.
	long := base
	long.Context = 4096
	sl, _ := long.Speed()
	if !(sl.PerSequence < s1.PerSequence) {
		t.Errorf("context 4096: %v tokens/s, want below %v", sl.PerSequence, s1.PerSequence)
	}
}

func TestPrefill(t *testing.T) {
	// 2000 prompt tokens of Llama-2-7B: 2000 · 2·6.607e9 FLOPs in the linear layers
	// and 2000 · 4·32·4096·1000 in attention (each token's scores and weighted sum
	// over the 1000 earlier ones it sees on average), at PrefillEfficiency's 60% of
	// 312 TFLOPS; the read of the weights (13.2 GB at 0.7 of 2039 GB/s) joins the
	// multiplies' time by the smooth roofline.
	d := Decode{Model: llama27B, Weights: sizing.BF16, Bandwidth: a100HBM, Peak: a100Peak}
	got, err := d.Prefill(2000)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := MatmulParams(llama27B)
	read := float64(13476831232-32000*4096*2) / (0.7 * 2039e9)
	want := seconds2(linear(read, 2000*2*float64(n)/(312e12*0.6)) + 2000*4*32*1000*4096/(312e12*0.6))
	if zero, err := d.Prefill(0); zero != 0 || err != nil {
		t.Errorf("Prefill(0) = %v, %v; want no time", zero, err)
	}
	// Eight tokens are bound by reading the weights.
	short, _ := d.Prefill(8)
	if r := short.Seconds() / read; r < 1 || r > 1.02 {
		t.Errorf("Prefill(8) = %v, %.3f of the weights' read time", short, r)
	}
	if (got - want).Abs() > time.Microsecond {
		t.Errorf("Prefill = %v, want %v", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	ok := Decode{Model: llama27B, Weights: sizing.BF16, Bandwidth: a100HBM, Peak: a100Peak}
	tests := []struct {
		name string
		edit func(*Decode)
	}{
		{"no weights precision", func(d *Decode) { d.Weights = 0 }},
		{"no model", func(d *Decode) { d.Model = sizing.Model{} }},
		{"zero bandwidth", func(d *Decode) { d.Bandwidth = 0 }},
		{"zero peak", func(d *Decode) { d.Peak = 0 }},
		{"negative context", func(d *Decode) { d.Context = -1 }},
		{"negative batch", func(d *Decode) { d.Batch = -1 }},
		{"efficiency above one", func(d *Decode) { d.MemoryEfficiency = 1.5 }},
		{"utilization negative", func(d *Decode) { d.Utilization = -0.5 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ok
			tt.edit(&d)
			if s, err := d.Speed(); !errors.Is(err, ErrInvalid) {
				t.Errorf("Speed() = %+v, %v; want an error wrapping ErrInvalid", s, err)
			}
		})
	}
	if _, err := ok.Prefill(-1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Prefill(-1): %v, want ErrInvalid", err)
	}
}

func TestDecodeMixtureOfExperts(t *testing.T) {
	// Mixtral 8x7B in BF16 on an H100-class 3350 GB/s: at batch 1 a step reads the
	// active 12.9B parameters' weights, not all 46.7B; at batch 64 nearly all of
	// them (1 − (6/8)^64 of each layer's experts).
	mixtral := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336,
		Vocab: 32000, GatedFFN: true, Experts: 8, ExpertsPerToken: 2}
	d := Decode{Model: mixtral, Weights: sizing.BF16, Bandwidth: 3350 * GBps, Peak: h100Peak}
	s1, err := d.Speed()
	if err != nil {
		t.Fatal(err)
	}
	emb := sizing.Bytes(32000 * 4096 * 2) // the input embedding table: one row of it is read
	if want := sizing.Bytes(2*mixtral.ActiveParams()) - emb; (s1.BytesRead-want).GB() > 0.001 || (want-s1.BytesRead).GB() > 0.001 {
		t.Errorf("batch 1 reads %d bytes, want the active weights %d", s1.BytesRead, want)
	}
	d.Batch = 64
	s64, _ := d.Speed()
	all, _ := sizing.WeightBytes(mixtral, sizing.BF16)
	if !within(float64(s64.BytesRead), float64(all-emb), 1e-6) {
		t.Errorf("batch 64 reads %d bytes, want nearly all %d", s64.BytesRead, all)
	}
}

// TestDecodeKVDefault checks that a quantized model's KV cache defaults to FP16, as
// sizing.Estimate's does, not to the weights' 4.16 bits per value.
func TestDecodeKVDefault(t *testing.T) {
	for _, p := range []sizing.Precision{sizing.AWQ4, sizing.NF4, sizing.Q4_K_M, sizing.INT8, sizing.FP8} {
		t.Run(p.String(), func(t *testing.T) {
			d := Decode{Model: llama27B, Weights: p, Context: 4096, Bandwidth: a100HBM, Peak: a100Peak}
			got, err := d.Speed()
			if err != nil {
				t.Fatal(err)
			}
			w, _ := sizing.WeightBytes(llama27B, p)
			emb, _ := sizing.InputEmbeddingBytes(llama27B, p)
			kv, _ := sizing.KVCacheBytes(llama27B, 4096, 1, sizing.FP16)
			if got.BytesRead != w-emb+kv {
				t.Errorf("BytesRead = %d, want weights %d less the embedding table %d + FP16 KV cache %d", got.BytesRead, w, emb, kv)
			}
			d.KV = sizing.FP16
			if explicit, _ := d.Speed(); explicit != got {
				t.Errorf("default KV gives %+v, explicit FP16 %+v", got, explicit)
			}
		})
	}
}

// llama270B is Llama-2-70B's config.json: 80 layers, hidden 8192, 64 heads, 8 KV
// heads, intermediate 28672, vocabulary 32000, SwiGLU, untied.
var llama270B = sizing.Model{Name: "llama-2-70b", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8,
	FFN: 28672, Vocab: 32000, GatedFFN: true}

// TestDecodeGPTFastTensorParallel holds tensor-parallel decode to gpt-fast's tables
// (README at commit 0f925b5, https://github.com/pytorch-labs/gpt-fast, read
// 2026-12-01): 8×A100-80GB SXM on NVLink (600 GB/s), batch 1, a 5-token prompt.
// Summing the GPUs' bandwidth and charging nothing for the all-reduces gave 1.25×,
// 1.66× and 2.57× the measured Llama-2-7B speeds on 2, 4 and 8 GPUs. Now 7B comes
// within 3% on every count of GPUs, 70B within 10%; gpt-fast's int4 (5 bits a
// weight with its scales, where sizing.INT4 counts 4) within 20%.
func TestDecodeGPTFastTensorParallel(t *testing.T) {
	tests := []struct {
		name     string
		m        sizing.Model
		p        sizing.Precision
		devices  int
		measured float64
		tol      float64
	}{
		// "Tensor Parallelism" table.
		{"Llama-2-7B ×1", llama27B, sizing.BF16, 1, 104.9, 0.03},
		{"Llama-2-7B ×2", llama27B, sizing.BF16, 2, 168.84, 0.03},
		{"Llama-2-7B ×4", llama27B, sizing.BF16, 4, 254.02, 0.03},
		{"Llama-2-7B ×8", llama27B, sizing.BF16, 8, 328.43, 0.03},
		{"Llama-2-70B ×2", llama270B, sizing.BF16, 2, 21.32, 0.10},
		{"Llama-2-70B ×4", llama270B, sizing.BF16, 4, 38.01, 0.10},
		{"Llama-2-70B ×8", llama270B, sizing.BF16, 8, 62.50, 0.10},
		// "Tensor Parallelism + Quantization" table, 8 GPUs.
		{"Llama-2-70B int8 ×8", llama270B, sizing.INT8, 8, 80.44, 0.10},
		{"Llama-2-70B int4 ×8", llama270B, sizing.INT4, 8, 90.77, 0.20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decode{Model: tt.m, Weights: tt.p, Context: 5, Bandwidth: a100HBM, Peak: a100Peak,
				Devices: tt.devices, Link: NVLink(a100NVLink), Arch: "Ampere"}
			s, err := d.Speed()
			if err != nil {
				t.Fatal(err)
			}
			got := float64(s.PerSequence)
			t.Logf("%s: measured %.2f, model %.2f tokens/s, ratio %.3f", tt.name, tt.measured, got, got/tt.measured)
			if !within(got, tt.measured, tt.tol) {
				t.Errorf("PerSequence = %.2f tokens/s, want within %.0f%% of the measured %.2f", got, 100*tt.tol, tt.measured)
			}
			if (tt.devices > 1) != (s.Comm > 0) {
				t.Errorf("Comm = %v on %d devices", s.Comm, tt.devices)
			}
		})
	}
}
