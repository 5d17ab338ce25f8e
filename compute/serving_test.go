package compute

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
	"pgregory.net/rapid"
)

// H100 SXM datasheet: 3.35 TB/s HBM3, 1979 TFLOPS FP8 dense, 80 GB.
const (
	h100HBM = 3350 * GBps
	h100FP8 = 1979 * TFLOPS
)

// Llama 3.1 and 3.3 config.json (meta-llama on Hugging Face): 8B has 32 layers of
// hidden 4096, 32 heads, 8 KV heads, intermediate 14336; 70B 80 layers of 8192, 64
// heads, 8 KV heads, 28672; 405B 126 layers of 16384, 128 heads, 8 KV heads, 53248;
// all SwiGLU, vocabulary 128256, untied.
var (
	llama318B = sizing.Model{Name: "llama-3.1-8b", Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, Vocab: 128256, GatedFFN: true}
	llama3370B = sizing.Model{Name: "llama-3.3-70b", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8,
		FFN: 28672, Vocab: 128256, GatedFFN: true}
	llama31405B = sizing.Model{Name: "llama-3.1-405b", Layers: 126, Hidden: 16384, Heads: 128, KVHeads: 8,
		FFN: 53248, Vocab: 128256, GatedFFN: true}
)

// TestServingCalibration holds Serving to TensorRT-LLM's published throughput
// (docs/source/performance/perf-overview.md at commit 00f37686aa854010d68bcbd0f4ab000221541ca6,
// the v1.0 tables, https://github.com/NVIDIA/TensorRT-LLM, read 2026-12-01):
// in-flight batching under maximum load, FP8 weights (NVIDIA's ModelOpt FP8
// checkpoints, which keep an FP8 KV cache), total output tokens per second, on H100
// SXM (80 GB, 3.35 TB/s, 1979 TFLOPS FP8, NVLink 900 GB/s) and H200 SXM (141 GB,
// 4.8 TB/s). The model's figure is At at MaxConcurrency, capped at 2048 sequences
// (TensorRT-LLM's default max_batch_size), with the package defaults: no case is
// tuned on its own. The batch-1 side is held to gpt-fast in the Decode tests.
//
// Achieved: every case within 0.71–1.17 of the measurement, mean |error| 11.0%
// (12.8% and 0.74–1.29 before the third round's step model). The model is low by
// up to 29% for 4096-token outputs, where these engines read the KV cache faster
// than KVEfficiency, fitted to vLLM at batch 1, allows.
func TestServingCalibration(t *testing.T) {
	h100 := Serving{Weights: sizing.FP8, KV: sizing.FP8, Memory: 80 * sizing.GB, Bandwidth: h100HBM,
		Peak: h100FP8, Link: NVLink(h100NVLink)}
	h200 := h100
	h200.Memory, h200.Bandwidth = 141*sizing.GB, 4800*GBps
	lengths := [...][2]int{{128, 128}, {128, 2048}, {128, 4096}, {500, 2000}, {1000, 1000},
		{1000, 2000}, {2048, 128}, {2048, 2048}, {5000, 500}, {20000, 2000}}
	tests := []struct {
		name     string
		card     Serving
		m        sizing.Model
		devices  int
		measured [len(lengths)]float64 // tokens/s, in the order of lengths
	}{
		{"Llama-3.1-8B H100", h100, llama318B, 1, [...]float64{28312, 22714, 14325, 17660, 15220, 13899, 3450, 9305, 3459, 1351}},
		{"Llama-3.3-70B H100 TP2", h100, llama3370B, 2, [...]float64{6378, 6651, 4199, 5222, 4205, 4146, 762, 3082, 898, 437}},
		{"Llama-3.3-70B H200", h200, llama3370B, 1, [...]float64{3803, 4336, 2872, 3666, 2909, 2994, 442, 2003, 566, 283}},
		{"Llama-3.1-405B H100 TP8", h100, llama31405B, 8, [...]float64{3627, 4340, 3116, 3994, 2919, 2895, 453, 2296, 610, 345}},
	}
	var sum, lo, hi float64 = 0, 1, 1
	n := 0
	for _, tt := range tests {
		for i, l := range lengths {
			s := tt.card
			s.Model, s.Devices, s.PromptTokens, s.OutputTokens = tt.m, tt.devices, l[0], l[1]
			c, err := s.MaxConcurrency()
			if err != nil {
				t.Fatalf("%s %d/%d: %v", tt.name, l[0], l[1], err)
			}
			p, err := s.At(min(c, 2048))
			if err != nil {
				t.Fatal(err)
			}
			ratio := float64(p.Throughput) / tt.measured[i]
			t.Logf("%-24s %5d/%-5d measured %6.0f  model %6.0f  ratio %.2f  (concurrency %d, TPOT %v)",
				tt.name, l[0], l[1], tt.measured[i], float64(p.Throughput), ratio, p.Concurrency, p.TPOT.Round(time.Millisecond))
			sum += math.Abs(ratio - 1)
			lo, hi = math.Min(lo, ratio), math.Max(hi, ratio)
			n++
			if ratio < 0.71 || ratio > 1.2 {
				t.Errorf("%s %d/%d: model %.0f tokens/s against the measured %.0f: ratio %.3f outside [0.71, 1.2]",
					tt.name, l[0], l[1], float64(p.Throughput), tt.measured[i], ratio)
			}
		}
	}
	mean := sum / float64(n)
	t.Logf("%d cases: ratios %.2f–%.2f, mean |error| %.1f%%", n, lo, hi, 100*mean)
	if mean > 0.115 {
		t.Errorf("mean |error| %.1f%%, want at most 11.5%%", 100*mean)
	}
}

// staticThroughput is the output tokens per second of a static batch run with the
// replica's step model: one prefill of batch prompts, then OutputTokens decode steps
// of the whole batch at the mean context.
func staticThroughput(t *testing.T, s Serving, batch int) float64 {
	t.Helper()
	sv, err := s.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	b := float64(batch)
	pre := sv.r.step(0, b*sv.prompt, sv.prompt/2).total()
	dec := sv.r.step(b, 0, 0).total()
	return b * sv.output / (pre + sv.output*dec)
}

// TestServingStaticTRT05 sets the step model beside an older, static-batching
// release: TensorRT-LLM 0.5.0's performance page
// (https://raw.githubusercontent.com/NVIDIA/TensorRT-LLM/release/0.5.0/docs/source/performance.md,
// read 2026-12-01), H100 SXM in FP8, fixed batches, output tokens per second. It is
// not in the calibration set: LLaMA-7B comes within 0.92–1.00, but LLaMA-70B on 4
// GPUs decodes long outputs far slower than its reads explain (from 16.8 ms a step
// at 128 output tokens to 24.5 ms at 1152 tokens of mean context, 2.6 GB more KV
// cache per GPU: 0.33 TB/s), and the model is 1.49× and 1.95× its figure there. The
// bounds are those achieved, so a change that moves a case shows.
func TestServingStaticTRT05(t *testing.T) {
	h100 := Serving{Model: llama27B, Weights: sizing.FP8, KV: sizing.FP8, Memory: 80 * sizing.GB,
		Bandwidth: h100HBM, Peak: h100FP8}
	tp4 := h100
	tp4.Model, tp4.Devices, tp4.Link = llama270B, 4, NVLink(h100NVLink)
	tests := []struct {
		name           string
		s              Serving
		batch, in, out int
		measured       float64
		lo, hi         float64 // ratio model/measured achieved
	}{
		{"LLaMA-7B 128/128", h100, 64, 128, 128, 9193, 0.95, 1.01},
		{"LLaMA-7B 128/2048", h100, 64, 128, 2048, 5367, 0.90, 0.96},
		{"LLaMA-7B 2048/128", h100, 64, 2048, 128, 2058, 0.97, 1.03},
		{"LLaMA-7B 2048/2048", h100, 32, 2048, 2048, 2230, 0.89, 0.95},
		{"LLaMA-70B TP4 128/128", tp4, 64, 128, 128, 3317, 1.06, 1.12},
		{"LLaMA-70B TP4 128/2048", tp4, 64, 128, 2048, 2616, 1.46, 1.52},
		{"LLaMA-70B TP4 2048/128", tp4, 64, 2048, 128, 843, 1.31, 1.37},
		{"LLaMA-70B TP4 2048/2048", tp4, 64, 2048, 2048, 1583, 1.92, 1.98},
	}
	for _, tt := range tests {
		s := tt.s
		s.PromptTokens, s.OutputTokens = tt.in, tt.out
		got := staticThroughput(t, s, tt.batch)
		ratio := got / tt.measured
		t.Logf("%-24s measured %6.0f  model %6.0f  ratio %.3f", tt.name, tt.measured, got, ratio)
		if ratio < tt.lo || ratio > tt.hi {
			t.Errorf("%s: model %.0f tokens/s against the measured %.0f, ratio %.3f outside [%.2f, %.2f]", tt.name, got, tt.measured, ratio, tt.lo, tt.hi)
		}
	}
}

// llama7BServing: Llama-2-7B in BF16 on one A100-80GB, 1000 prompt and 300 output
// tokens per request.
func llama7BServing() Serving {
	return Serving{Model: llama27B, Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: a100HBM,
		Peak: a100Peak, PromptTokens: 1000, OutputTokens: 300}
}

func TestServingMaxConcurrency(t *testing.T) {
	s := llama7BServing()
	got, err := s.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	// 80 GB less the 10% reserve, the 13.48 GB of weights and a 2048-token chunk's
	// activations, over 1312 tokens (82 blocks of 16) of 512 KiB each.
	w, _ := sizing.WeightBytes(llama27B, sizing.BF16)
	est, _ := sizing.Estimate(llama27B, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 2048})
	kv := 1312 * 524288.0
	want := int((72e9 - float64(w) - float64(est.Activations)) / kv)
	if got != want || got < 80 || got > 90 {
		t.Errorf("MaxConcurrency = %d, want %d (about 85)", got, want)
	}
	// An FP8 KV cache holds twice the sequences, near enough.
	s.KV = sizing.FP8
	if fp8, _ := s.MaxConcurrency(); fp8 < 2*want || fp8 > 2*want+2 {
		t.Errorf("FP8 KV: MaxConcurrency = %d, want about %d", fp8, 2*want)
	}
	// Two devices hold the weights once between them: more than twice the room.
	s.KV, s.Devices, s.Link = 0, 2, NVLink(a100NVLink)
	if two, _ := s.MaxConcurrency(); two <= 2*want {
		t.Errorf("2 devices: MaxConcurrency = %d, want over %d", two, 2*want)
	}
}

func TestServingAt(t *testing.T) {
	s := llama7BServing()
	p1, err := s.At(1)
	if err != nil {
		t.Fatal(err)
	}
	// One user: its step reads the weights but the embedding table at 0.7 of 2039
	// GB/s, joined to its multiply at PrefillEfficiency's 0.6 of 312 TFLOPS by the
	// smooth roofline, reads 1150 tokens of KV at KVEfficiency, and pays
	// StepOverhead.
	n, _ := MatmulParams(llama27B)
	read := float64(13476831232-32000*4096*2) / (0.7 * 2039e9)
	rate := 0.6 * 312e12
	tpot := linear(read, 2*float64(n)/rate) + 1150*524288/(0.75*2039e9) + StepOverhead.Seconds()
	if got := p1.TPOT.Seconds(); !within(got, tpot, 1e-6) {
		t.Errorf("TPOT at 1 = %v, want %.6g s (memory-bound)", p1.TPOT, tpot)
	}
	// TTFT at 1: RequestOverhead, then the 1000-token prompt in one chunk with no
	// one else decoding, its linear layers compute-bound, its tokens attending to
	// 500 earlier ones on average (4·layers·d_attn FLOPs each).
	ttft := RequestOverhead.Seconds() + linear(read, 1000*2*float64(n)/rate) + 4*32*4096*1000*500/rate + StepOverhead.Seconds()
	if got := p1.TTFT.Seconds(); !within(got, ttft, 1e-6) {
		t.Errorf("TTFT at 1 = %v, want %.6g s", p1.TTFT, ttft)
	}
	if !within(p1.Requests, 1/(ttft+299*tpot), 1e-6) || !within(float64(p1.Throughput), 300*p1.Requests, 1e-12) {
		t.Errorf("At(1) = %+v", p1)
	}
	max, _ := s.MaxConcurrency()
	pm, err := s.At(max)
	if err != nil {
		t.Fatal(err)
	}
	if !(pm.Throughput > 10*p1.Throughput) || !(pm.TPOT > p1.TPOT) || !(pm.TTFT > p1.TTFT) {
		t.Errorf("At(%d) = %+v against At(1) = %+v: want far more throughput, slower steps", max, pm, p1)
	}
	if _, err := s.At(max + 1); !errors.Is(err, ErrNoFit) {
		t.Errorf("At(max+1): %v, want ErrNoFit", err)
	}
}

func TestServingBest(t *testing.T) {
	s := llama7BServing()
	max, _ := s.MaxConcurrency()
	all, err := s.Best(0, 0)
	if err != nil || all.Concurrency != max {
		t.Errorf("Best(0, 0) = %+v, %v; want concurrency %d", all, err, max)
	}
	p, err := s.Best(time.Second, 25*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	next, _ := s.At(p.Concurrency + 1)
	if p.TPOT > 25*time.Millisecond || p.Concurrency >= max || next.TPOT <= 25*time.Millisecond {
		t.Errorf("Best(1s, 25ms) = %+v, next %+v: want the last concurrency within 25 ms", p, next)
	}
	one, err := s.Best(0, time.Millisecond)
	if !errors.Is(err, ErrUnreachable) || one.Concurrency != 1 || !strings.Contains(err.Error(), "TPOT") {
		t.Errorf("Best(0, 1ms) = %+v, %v; want the point at 1 and ErrUnreachable", one, err)
	}
	if _, err := s.Best(-1, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Best(-1, 0): %v, want ErrInvalid", err)
	}
}

func TestServingNoFit(t *testing.T) {
	// Llama-2-70B in BF16 (138 GB) on one 80 GB card.
	s := Serving{Model: llama270B, Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: a100HBM, Peak: a100Peak,
		PromptTokens: 1000, OutputTokens: 300}
	for name, f := range map[string]func() error{
		"MaxConcurrency": func() error { _, err := s.MaxConcurrency(); return err },
		"At":             func() error { _, err := s.At(1); return err },
		"Best":           func() error { _, err := s.Best(0, 0); return err },
	} {
		err := f()
		if !errors.Is(err, ErrNoFit) || !strings.Contains(err.Error(), "llama-2-70b on 1 × 80.0 GB") || !strings.Contains(err.Error(), "per sequence") {
			t.Errorf("%s: %v, want ErrNoFit saying what is needed and what is left", name, err)
		}
	}
	// Two of them fit.
	s.Devices, s.Link = 2, NVLink(a100NVLink)
	if n, err := s.MaxConcurrency(); err != nil || n < 1 {
		t.Errorf("two devices: %d, %v", n, err)
	}
}

func TestServingErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Serving)
	}{
		{"zero bandwidth", func(s *Serving) { s.Bandwidth = 0 }},
		{"NaN bandwidth", func(s *Serving) { s.Bandwidth = Bandwidth(math.NaN()) }},
		{"zero peak", func(s *Serving) { s.Peak = 0 }},
		{"infinite peak", func(s *Serving) { s.Peak = FLOPRate(math.Inf(1)) }},
		{"zero memory", func(s *Serving) { s.Memory = 0 }},
		{"negative memory", func(s *Serving) { s.Memory = -1 }},
		{"no weights precision", func(s *Serving) { s.Weights = 0 }},
		{"bad KV precision", func(s *Serving) { s.KV = 200 }},
		{"no model", func(s *Serving) { s.Model = sizing.Model{} }},
		{"zero prompt", func(s *Serving) { s.PromptTokens = 0 }},
		{"negative output", func(s *Serving) { s.OutputTokens = -5 }},
		{"huge output", func(s *Serving) { s.OutputTokens = math.MaxInt }},
		{"negative devices", func(s *Serving) { s.Devices = -2 }},
		{"devices without link", func(s *Serving) { s.Devices = 2 }},
		{"heads do not divide", func(s *Serving) { s.Devices, s.Link = 3, NVLink(a100NVLink) }},
		{"negative link latency", func(s *Serving) { s.Link.Latency = -1 }},
		{"reserve 1", func(s *Serving) { s.Reserve = 1 }},
		{"negative reserve", func(s *Serving) { s.Reserve = -0.1 }},
		{"negative chunk", func(s *Serving) { s.PrefillChunk = -1 }},
		// 1,025 chunks a prompt: one past MaxPromptChunks.
		{"prompt in too many chunks", func(s *Serving) { s.PromptTokens, s.PrefillChunk = 1025*16, 16 }},
		{"efficiency above 1", func(s *Serving) { s.MemoryEfficiency = 1.2 }},
		{"NaN utilization", func(s *Serving) { s.Utilization = math.NaN() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llama7BServing()
			tt.edit(&s)
			if n, err := s.MaxConcurrency(); !errors.Is(err, ErrInvalid) {
				t.Errorf("MaxConcurrency() = %d, %v; want ErrInvalid", n, err)
			}
			if p, err := s.At(1); !errors.Is(err, ErrInvalid) {
				t.Errorf("At(1) = %+v, %v; want ErrInvalid", p, err)
			}
			if p, err := s.Best(0, 0); !errors.Is(err, ErrInvalid) {
				t.Errorf("Best = %+v, %v; want ErrInvalid", p, err)
			}
		})
	}
	// A chunk that splits the prompt into exactly MaxPromptChunks is taken, and
	// the error for one fewer token a chunk says what chunk would do.
	s := llama7BServing()
	s.PromptTokens, s.PrefillChunk = MaxPromptChunks*16, 16
	if _, err := s.Prepare(); err != nil {
		t.Errorf("a %d-token prompt in chunks of 16: %v", s.PromptTokens, err)
	}
	s.PrefillChunk = 15
	if _, err := s.Prepare(); err == nil || !strings.Contains(err.Error(), "a chunk of 16 tokens or more") {
		t.Errorf("a %d-token prompt in chunks of 15: %v, want the chunk that would do", s.PromptTokens, err)
	}
	s = llama7BServing()
	for _, c := range []int{0, -1, math.MinInt} {
		if p, err := s.At(c); !errors.Is(err, ErrInvalid) {
			t.Errorf("At(%d) = %+v, %v; want ErrInvalid", c, p, err)
		}
	}
}

// A model known by Params alone serves on one device, with Estimate's KV cache.
func TestServingParamsOnly(t *testing.T) {
	s := Serving{Model: sizing.Model{Params: 7e9}, Weights: sizing.BF16, Memory: 80 * sizing.GB,
		Bandwidth: a100HBM, Peak: a100Peak, PromptTokens: 1000, OutputTokens: 300}
	n, err := s.MaxConcurrency()
	if err != nil || n < 10 {
		t.Fatalf("MaxConcurrency = %d, %v", n, err)
	}
	p, err := s.At(n)
	if err != nil || !(p.TPOT > 0) || !(p.TTFT > 0) {
		t.Errorf("At(%d) = %+v, %v", n, p, err)
	}
}

// A model known by Params alone splits over devices with the shape sizing assumes
// for it (sizing.Model.Shape): Llama-3.1-8B's 8.03e9 parameters become 35 whole
// layers of hidden 4408 with 8 KV heads (true: 32 of 4096), so on two H100s the
// replica holds about a tenth fewer sequences than the real model and steps within a
// few percent of it, and says it approximated.
func TestServingParamsOnlyTensorParallel(t *testing.T) {
	exact := Serving{Model: llama318B, Weights: sizing.BF16, Devices: 2, Link: NVLink(900 * GBps),
		Memory: 80 * sizing.GB, Bandwidth: h100HBM, Peak: 989 * TFLOPS, PromptTokens: 1000, OutputTokens: 300}
	approx := exact
	approx.Model = sizing.Model{Params: llama318B.ParamCount()}
	sh, err := approx.Model.Shape()
	if err != nil || math.Ceil(sh.Layers) != 35 || math.Round(sh.Hidden) != 4408 || sh.KVHeads != 8 || !sh.Assumed {
		t.Fatalf("Shape = %+v, %v; want 35 whole layers of hidden 4408, 8 KV heads, assumed", sh, err)
	}
	ne, err := exact.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	na, err := approx.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	// The assumed KV cache is 35/32 of the true one.
	if r := float64(na) / float64(ne); r < 0.88 || r > 0.94 {
		t.Errorf("MaxConcurrency params-only %d, exact %d: ratio %.3f, want 32/35 ≈ 0.914 within 3%%", na, ne, r)
	}
	for _, c := range []int{1, 64, na} {
		pe, err := exact.At(min(c, ne))
		if err != nil {
			t.Fatal(err)
		}
		pa, err := approx.At(c)
		if err != nil {
			t.Fatal(err)
		}
		if !pa.Approx || pe.Approx {
			t.Errorf("At(%d): Approx %v params-only, %v exact; want true, false", c, pa.Approx, pe.Approx)
		}
		if r := pa.TPOT.Seconds() / pe.TPOT.Seconds(); r < 0.95 || r > 1.15 {
			t.Errorf("At(%d): TPOT params-only %v, exact %v: ratio %.3f, want 0.95–1.15", c, pa.TPOT, pe.TPOT, r)
		}
	}
	// Decode splits the same way, and says so.
	d := Decode{Model: approx.Model, Weights: sizing.BF16, Devices: 2, Link: NVLink(900 * GBps), Bandwidth: h100HBM, Peak: 989 * TFLOPS}
	sp, err := d.Speed()
	if err != nil || !sp.Approx || !(sp.Comm > 0) {
		t.Errorf("Decode params-only on 2 devices = %+v, %v; want Approx and a positive Comm", sp, err)
	}
	// 70 all-reduces of 35 layers, where the exact model has 64.
	d.Model = llama318B
	spe, err := d.Speed()
	if err != nil {
		t.Fatal(err)
	}
	if r := sp.Comm.Seconds() / spe.Comm.Seconds(); math.Abs(r-70.0/64) > 0.01 {
		t.Errorf("Comm params-only %v, exact %v: ratio %.4f, want 70/64", sp.Comm, spe.Comm, r)
	}
}

// Mixtral reads more experts as the batch grows: its TPOT rises faster from 1 to 8
// sequences than a dense model's of the same active size would.
func TestServingMixtureOfExperts(t *testing.T) {
	mixtral := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336,
		Vocab: 32000, GatedFFN: true, Experts: 8, ExpertsPerToken: 2}
	s := Serving{Model: mixtral, Weights: sizing.FP8, KV: sizing.FP8, Memory: 80 * sizing.GB, Bandwidth: h100HBM,
		Peak: h100FP8, PromptTokens: 10, OutputTokens: 1000}
	p1, err := s.At(1)
	if err != nil {
		t.Fatal(err)
	}
	p8, _ := s.At(8)
	all, _ := sizing.WeightBytes(mixtral, sizing.FP8)
	active := float64(mixtral.ActiveParams()) // bytes at FP8
	if r := p8.TPOT.Seconds() / p1.TPOT.Seconds(); r < 2 || r > float64(all)/active*1.05 {
		t.Errorf("TPOT grows %.2f× from 1 to 8 sequences, want between 2 and all/active = %.2f", r, float64(all)/active)
	}
}

func TestTokenRateString(t *testing.T) {
	for _, tt := range []struct {
		r    TokenRate
		want string
	}{
		{52.5, "52.5 tok/s"}, {105.0937, "105.1 tok/s"}, {1 / 24.0, "0.04167 tok/s"},
		{12345.4, "12345 tok/s"}, {0, "0 tok/s"}, {TokenRate(math.Inf(1)), "+Inf tok/s"},
	} {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("TokenRate(%v).String() = %q, want %q", float64(tt.r), got, tt.want)
		}
	}
}

func genServing(t *rapid.T) Serving {
	m := rapid.SampledFrom([]sizing.Model{llama27B, tinyLlama, llama270B, {}}).Draw(t, "model")
	if !m.HasArchitecture() { // known by Params alone, with the shape sizing assumes
		m.Params = rapid.Int64Range(1e8, 2e11).Draw(t, "params")
	}
	devices := rapid.SampledFrom([]int{1, 2, 4, 8}).Draw(t, "devices")
	return Serving{
		Model:           m,
		Weights:         rapid.SampledFrom([]sizing.Precision{sizing.BF16, sizing.FP8, sizing.INT4}).Draw(t, "weights"),
		KV:              rapid.SampledFrom([]sizing.Precision{0, sizing.FP8}).Draw(t, "kv"),
		Devices:         devices,
		Memory:          sizing.Bytes(rapid.Int64Range(16, 192).Draw(t, "memory_gb")) * sizing.GB,
		Bandwidth:       Bandwidth(rapid.Float64Range(300e9, 8e12).Draw(t, "bandwidth")),
		Peak:            FLOPRate(rapid.Float64Range(50e12, 2e15).Draw(t, "peak")),
		Link:            Link{Bandwidth: Bandwidth(rapid.Float64Range(10e9, 900e9).Draw(t, "link")), Latency: time.Duration(rapid.Int64Range(0, 10000).Draw(t, "latency_ns"))},
		PromptTokens:    rapid.IntRange(1, 32000).Draw(t, "prompt"),
		OutputTokens:    rapid.IntRange(1, 4000).Draw(t, "output"),
		SeparatePrefill: rapid.Bool().Draw(t, "separate_prefill"),
	}
}

// Invariants of the serving model over random replicas.
func TestPropServing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genServing(t)
		max, err := s.MaxConcurrency()
		if errors.Is(err, ErrNoFit) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		c := rapid.IntRange(1, max).Draw(t, "concurrency")
		p, err := s.At(c)
		if err != nil {
			t.Fatal(err)
		}
		if p.TPOT <= 0 || p.TTFT <= 0 || !(p.PerUser > 0) || math.IsInf(float64(p.Throughput), 0) {
			t.Fatalf("At(%d) = %+v: want positive latencies and finite rates", c, p)
		}
		if p.Approx == s.Model.HasArchitecture() {
			t.Fatalf("At(%d).Approx = %v for a model with architecture %v", c, p.Approx, s.Model.HasArchitecture())
		}
		if r, err := s.Prepare(); err != nil {
			t.Fatal(err)
		} else if q, err := r.At(c); err != nil || q != p {
			t.Fatalf("prepared At(%d) = %+v, %v; Serving.At %+v", c, q, err, p)
		}
		// Each of c users completes a request per cycle: its TTFT and OutputTokens − 1
		// steps (durations rounded to the nanosecond).
		cycle := p.TTFT.Seconds() + float64(s.OutputTokens-1)*p.TPOT.Seconds()
		if p.Concurrency != c || !within(p.Requests, float64(c)/cycle, 1e-6) ||
			!within(float64(p.Throughput), p.Requests*float64(s.OutputTokens), 1e-12) {
			t.Fatalf("At(%d) = %+v: throughput is not users × output per cycle", c, p)
		}
		if c < max {
			q, err := s.At(c + 1)
			if err != nil {
				t.Fatal(err)
			}
			if q.TPOT < p.TPOT || q.TTFT < p.TTFT || q.PerUser > p.PerUser {
				t.Fatalf("At(%d) = %+v faster than At(%d) = %+v", c+1, q, c, p)
			}
		}
		// More bandwidth, peak or link is never slower.
		f := s
		f.Bandwidth *= 2
		f.Peak *= 1.5
		f.Link.Bandwidth *= 2
		q, err := f.At(c)
		if err != nil {
			t.Fatal(err)
		}
		if q.TPOT > p.TPOT || q.TTFT > p.TTFT {
			t.Fatalf("faster card: %+v against %+v", q, p)
		}
		// More memory never holds fewer sequences.
		f = s
		f.Memory += 8 * sizing.GB
		if m2, err := f.MaxConcurrency(); err != nil || m2 < max {
			t.Fatalf("8 GB more memory: %d, %v against %d", m2, err, max)
		}
		// Best meets its targets, and the next concurrency does not.
		b, err := s.Best(p.TTFT, p.TPOT)
		if err != nil || b.Concurrency < c || b.TTFT > p.TTFT || b.TPOT > p.TPOT {
			t.Fatalf("Best(%v, %v) = %+v, %v; want concurrency %d or more within the targets", p.TTFT, p.TPOT, b, err, c)
		}
	})
}

func BenchmarkServingAt(b *testing.B) {
	s := Serving{Model: llama270B, Weights: sizing.FP8, KV: sizing.FP8, Devices: 4, Memory: 80 * sizing.GB,
		Bandwidth: h100HBM, Peak: h100FP8, Link: NVLink(h100NVLink), PromptTokens: 1000, OutputTokens: 300}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := s.At(64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkServingBest(b *testing.B) {
	s := Serving{Model: llama270B, Weights: sizing.FP8, KV: sizing.FP8, Devices: 4, Memory: 80 * sizing.GB,
		Bandwidth: h100HBM, Peak: h100FP8, Link: NVLink(h100NVLink), PromptTokens: 1000, OutputTokens: 300}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := s.Best(time.Second, 50*time.Millisecond); err != nil {
			b.Fatal(err)
		}
	}
}

// Past one device per KV head the KV heads are replicated: TinyLlama's 4 KV heads
// over 8 devices are held twice, so a sequence takes twice its KV cache.
func TestServingKVReplicated(t *testing.T) {
	s := Serving{Model: tinyLlama, Weights: sizing.BF16, Devices: 8, Link: NVLink(a100NVLink), Memory: 24 * sizing.GB,
		Bandwidth: a100HBM, Peak: a100Peak, PromptTokens: 1000, OutputTokens: 1000}
	got, err := s.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	est, _ := sizing.Estimate(tinyLlama, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 2048})
	kv, _ := sizing.KVCacheBytes(tinyLlama, 2000, 1, sizing.BF16)
	free := 8 * (24e9*0.9 - float64(est.Weights)/8 - float64(est.Activations))
	if want := int(free / (2 * float64(kv))); got != want {
		t.Errorf("MaxConcurrency = %d, want %d (each KV head on two devices)", got, want)
	}
}

func TestServingPointReplicas(t *testing.T) {
	p := ServingPoint{Requests: 4}
	for _, tt := range []struct {
		rate float64
		want int
	}{{20, 5}, {20.5, 6}, {0.1, 1}, {4, 1}, {5e-324, 1}} { // the smallest rate: rate/4 underflows to 0, still one replica
		if got, err := p.Replicas(tt.rate); got != tt.want || err != nil {
			t.Errorf("Replicas(%v) = %d, %v; want %d", tt.rate, got, err, tt.want)
		}
	}
	for _, rate := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := p.Replicas(rate); !errors.Is(err, ErrInvalid) {
			t.Errorf("Replicas(%v): %v, want ErrInvalid", rate, err)
		}
	}
	if _, err := (ServingPoint{}).Replicas(1); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero point: %v, want ErrInvalid", err)
	}
	if _, err := (ServingPoint{Requests: 1e-9}).Replicas(1e9); !errors.Is(err, ErrRange) {
		t.Errorf("1e18 replicas: %v, want ErrRange", err)
	}
}

// The prepared replica skips validation and sizing: a sweep over concurrency pays
// for them once.
func BenchmarkPreparedServingAt(b *testing.B) {
	s := Serving{Model: llama270B, Weights: sizing.FP8, KV: sizing.FP8, Devices: 4, Memory: 80 * sizing.GB,
		Bandwidth: h100HBM, Peak: h100FP8, Link: NVLink(h100NVLink), PromptTokens: 1000, OutputTokens: 300}
	p, err := s.Prepare()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.At(64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreparedServingBest(b *testing.B) {
	s := Serving{Model: llama270B, Weights: sizing.FP8, KV: sizing.FP8, Devices: 4, Memory: 80 * sizing.GB,
		Bandwidth: h100HBM, Peak: h100FP8, Link: NVLink(h100NVLink), PromptTokens: 1000, OutputTokens: 300}
	p, err := s.Prepare()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Best(time.Second, 50*time.Millisecond); err != nil {
			b.Fatal(err)
		}
	}
}

// A prepared replica answers as Serving does, and its zero value is refused.
func TestPreparedServing(t *testing.T) {
	s := Serving{Model: llama318B, Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: h100HBM, Peak: 989 * TFLOPS,
		PromptTokens: 1000, OutputTokens: 300}
	p, err := s.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.MaxConcurrency()
	if m, err2 := p.MaxConcurrency(); err != nil || err2 != nil || m != n {
		t.Fatalf("MaxConcurrency %d, %v; prepared %d, %v", n, err, m, err2)
	}
	for _, c := range []int{0, 1, 7, n, n + 1} {
		want, werr := s.At(c)
		got, gerr := p.At(c)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("At(%d): prepared %+v, %v; Serving %+v, %v", c, got, gerr, want, werr)
		}
	}
	for _, tg := range [][2]time.Duration{{0, 0}, {time.Second, 30 * time.Millisecond}, {0, time.Millisecond}, {-1, 0}} {
		want, werr := s.Best(tg[0], tg[1])
		got, gerr := p.Best(tg[0], tg[1])
		if got != want || (werr == nil) != (gerr == nil) || errors.Is(gerr, ErrUnreachable) != errors.Is(werr, ErrUnreachable) {
			t.Errorf("Best(%v): prepared %+v, %v; Serving %+v, %v", tg, got, gerr, want, werr)
		}
	}
	bad := s
	bad.PromptTokens = 0
	if _, err := bad.Prepare(); !errors.Is(err, ErrInvalid) {
		t.Errorf("Prepare with no prompt: %v, want ErrInvalid", err)
	}
	var zero PreparedServing
	if _, err := zero.At(1); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero PreparedServing At: %v, want ErrInvalid", err)
	}
	if _, err := zero.Best(0, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero PreparedServing Best: %v, want ErrInvalid", err)
	}
	if _, err := zero.MaxConcurrency(); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero PreparedServing MaxConcurrency: %v, want ErrInvalid", err)
	}
}

// Latent attention (DeepSeek-V2/V3's MLA) caches one latent per token and layer,
// shared by all the heads, so tensor parallelism cannot split it: every device of
// the replica holds the whole cache of every sequence (Tang et al. 2025, "TPLA:
// Tensor Parallel Latent Attention", arXiv 2508.15881, abstract: under TP "each
// device must load the full cache"). DeepSeek-R1 in FP8 on 8 H200s (141 GB, 4.8
// TB/s): a sequence of 1000 + 300 tokens holds 1312 (82 blocks of 16) tokens ×
// 61 layers × (512 + 64) latent values × 2 bytes (FP16 cache) = 92,196,864 bytes
// on each device; each device has 42.43 GB left after the 10% reserve, its eighth
// of the weights and one chunk's activations, so 460 sequences, not 8 × 460.
func TestServingLatentAttentionReplicatedCache(t *testing.T) {
	m, err := sizing.Preset("deepseek-r1")
	if err != nil {
		t.Fatal(err)
	}
	s := Serving{Model: m, Weights: sizing.FP8, Devices: 8, Memory: 141e9, Bandwidth: 4800 * GBps, Peak: h100FP8,
		Link: Link{Bandwidth: 450 * GBps}, PromptTokens: 1000, OutputTokens: 300}
	sv, err := s.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if perDevice := sv.free / 8; math.Abs(perDevice-42.43e9) > 0.01e9 {
		t.Fatalf("room per device %.4g bytes, want 42.43 GB", perDevice)
	}
	if want := 8 * 92196864.0; sv.kvSeq != want {
		t.Errorf("KV cache of a sequence over the replica %.0f bytes, want %.0f (the latent on each of 8 devices)", sv.kvSeq, want)
	}
	n, err := s.MaxConcurrency()
	if err != nil || n != 460 {
		t.Errorf("MaxConcurrency %d, %v; want 460", n, err)
	}
}
