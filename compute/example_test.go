package compute_test

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

// The first seed article: 1e8 samples at 1e9 FLOPs each, in one day. The article
// writes the product as 1e18 and asks for 11.6 TFLOPS; 1e8 × 1e9 is 1e17, which
// needs 1.16.
func ExampleRateFor() {
	work, _ := compute.SampleFLOPs(1e8, 1e9)
	need, _ := compute.RateFor(work, 24*time.Hour)
	slip, _ := compute.RateFor(1e18, 24*time.Hour)
	peak, _ := compute.PeakFor(work, 24*time.Hour, compute.SeedUtilization().Low)
	fmt.Println(work, "in a day needs", need, "sustained,", peak, "of peak at 60%")
	fmt.Println("the article's 1e18 needs", slip)
	// Output:
	// 1e+17 FLOP in a day needs 1.157 TFLOPS sustained, 1.929 TFLOPS of peak at 60%
	// the article's 1e18 needs 11.57 TFLOPS
}

func ExampleTrainingFLOPs() {
	gpt3, _ := compute.TrainingFLOPs(sizing.Model{Params: 175e9}, 300e9, 0)
	llama, _ := compute.TrainingFLOPs(sizing.Model{Params: 405e9}, 15.6e12, 0)
	fmt.Println("GPT-3 175B, 300B tokens:", gpt3)
	fmt.Println("Llama 3 405B, 15.6T tokens:", llama)
	// Output:
	// GPT-3 175B, 300B tokens: 3.15e+23 FLOP
	// Llama 3 405B, 15.6T tokens: 3.791e+25 FLOP
}

// A 7B model on 1B tokens on one A100 (312 TFLOPS BF16 dense), at the default
// utilization and across the published MFU band.
func ExampleTimeFor() {
	work, _ := compute.TrainingFLOPs(sizing.Model{Params: 7e9}, 1e9, 0)
	d, _ := compute.TimeFor(work, 312*compute.TFLOPS*compute.DefaultUtilization)
	band, _ := compute.TimeBand(work, 312*compute.TFLOPS, compute.PublishedMFU())
	fmt.Println(work, "takes", d.Round(time.Minute))
	fmt.Println("between", band.Low.Round(time.Minute), "and", band.High.Round(time.Minute))
	// Output:
	// 4.2e+19 FLOP takes 83h6m0s
	// between 71h55m0s and 98h24m0s
}

// How many H100s (989.5 TFLOPS BF16 dense) train a 7B model on 2T tokens in 30 days
// at the published MFU's midpoint, before any communication loss.
func ExampleDevicesFor() {
	work, _ := compute.TrainingFLOPs(sizing.Model{Params: 7e9}, 2e12, 0)
	n, _ := compute.DevicesFor(work, 30*24*time.Hour, 989.5*compute.TFLOPS, compute.DefaultUtilization, 1)
	fmt.Println(n, "GPUs")
	// Output:
	// 73 GPUs
}

func ExampleParseFLOPRate() {
	for _, s := range []string{"312TFLOPS", "312 TFLOP/s", "1.5 PFLOPS", "312 TOPS"} {
		r, err := compute.ParseFLOPRate(s)
		fmt.Println(r, err)
	}
	b, _ := compute.ParseBandwidth("2039GBps")
	fmt.Println(b)
	// Output:
	// 312 TFLOPS <nil>
	// 312 TFLOPS <nil>
	// 1.5 PFLOPS <nil>
	// 0 FLOPS compute: ParseFLOPRate "312 TOPS": unknown unit "TOPS": invalid input
	// 2.039 TB/s
}

// Llama-2-7B's BF16 gradients (13.48 GB) all-reduced over 8 GPUs: A100 NVLink
// (600 GB/s both ways, 300 each) against PCIe Gen4 x16.
func ExampleAllReduceTime() {
	grads, _ := sizing.WeightBytes(sizing.Model{Params: 6738415616}, sizing.BF16)
	pcie, _ := compute.PCIe(4)
	nv, _ := compute.AllReduceTime(grads, 8, compute.NVLink(600*compute.GBps).Bandwidth)
	pc, _ := compute.AllReduceTime(grads, 8, pcie)
	fmt.Println("NVLink:", nv.Round(time.Millisecond), "PCIe Gen4:", pc.Round(time.Millisecond))
	// Output:
	// NVLink: 79ms PCIe Gen4: 749ms
}

// The second seed article's multi-GPU claims as the model sees them, at the
// published MFU band so that only the links differ. Card figures are datasheet
// literals: A100 SXM4 312 TFLOPS BF16 and NVLink 600 GB/s; RTX 4090 165.2 TFLOPS
// BF16 (FP32 accumulate) on PCIe Gen4; H100 SXM 989.5 TFLOPS and NVLink 900 GB/s;
// H800 SXM the same compute with NVLink 400 GB/s.
func ExampleJob_Time() {
	llama7B := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}
	tiny := sizing.Model{Layers: 22, Hidden: 2048, Heads: 32, KVHeads: 4, FFN: 5632, Vocab: 32000, GatedFFN: true}
	pcie4, _ := compute.PCIeLink(4)
	show := func(name string, j compute.Job) {
		j.Utilization = compute.PublishedMFU()
		tm, err := j.Time()
		if err != nil {
			fmt.Println(name, err)
			return
		}
		fmt.Printf("%-22s efficiency %.2f, %v (%v–%v)\n", name, tm.Efficiency,
			tm.Duration.Round(time.Minute), tm.Low.Round(time.Minute), tm.High.Round(time.Minute))
	}

	// 8× RTX 4090 over PCIe against 8× A100 over NVLink, data parallel, TinyLlama.
	work, _ := compute.TrainingFLOPs(tiny, 1e9, 2048)
	j := compute.Job{Model: tiny, Work: work, Batch: 1, SeqLen: 2048, Devices: 8,
		PeakPerDevice: 165.2 * compute.TFLOPS, Link: pcie4}
	show("8× RTX 4090, PCIe", j)
	j.PeakPerDevice, j.Link = 312*compute.TFLOPS, compute.NVLink(600*compute.GBps)
	show("8× A100, NVLink", j)

	// H800 against H100, Llama-2-7B tensor parallel over all the GPUs.
	work, _ = compute.TrainingFLOPs(llama7B, 1e9, 4096)
	for _, n := range []int{2, 8} {
		j = compute.Job{Model: llama7B, Work: work, Batch: 1, SeqLen: 4096, Devices: n, Tensor: n,
			PeakPerDevice: 989.5 * compute.TFLOPS, Link: compute.NVLink(900 * compute.GBps)}
		show(fmt.Sprintf("%d× H100, 900 GB/s", n), j)
		j.Link = compute.NVLink(400 * compute.GBps)
		show(fmt.Sprintf("%d× H800, 400 GB/s", n), j)
	}

	// Two 80 GB cards data parallel against four 24 GB cards tensor parallel.
	show("2× A100 80GB, DP", compute.Job{Model: llama7B, Work: work, Batch: 1, SeqLen: 4096, Devices: 2,
		PeakPerDevice: 312 * compute.TFLOPS, Link: compute.NVLink(600 * compute.GBps)})
	show("4× RTX 4090, TP 4", compute.Job{Model: llama7B, Work: work, Batch: 1, SeqLen: 4096, Devices: 4, Tensor: 4,
		PeakPerDevice: 165.2 * compute.TFLOPS, Link: pcie4})
	// Output:
	// 8× RTX 4090, PCIe      efficiency 0.60, 5h14m0s (4h48m0s–5h49m0s)
	// 8× A100, NVLink        efficiency 0.88, 1h53m0s (1h40m0s–2h12m0s)
	// 2× H100, 900 GB/s      efficiency 0.95, 14h1m0s (12h13m0s–16h29m0s)
	// 2× H800, 400 GB/s      efficiency 0.90, 14h50m0s (13h2m0s–17h17m0s)
	// 8× H100, 900 GB/s      efficiency 0.75, 4h29m0s (4h2m0s–5h5m0s)
	// 8× H800, 400 GB/s      efficiency 0.57, 5h53m0s (5h26m0s–6h30m0s)
	// 2× A100 80GB, DP       efficiency 0.97, 43h56m0s (38h13m0s–51h44m0s)
	// 4× RTX 4090, TP 4      efficiency 0.74, 53h55m0s (48h31m0s–61h17m0s)
}

// gpt-fast measured Llama-2-7B in BF16 at 104.9 tokens/s on an A100 (2039 GB/s
// HBM). At 70% of the bandwidth:
func ExampleDecode_Speed() {
	d := compute.Decode{
		Model:     sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true},
		Weights:   sizing.BF16,
		Context:   200,
		Bandwidth: 2039 * compute.GBps,
		Peak:      312 * compute.TFLOPS,
	}
	s, _ := d.Speed()
	p, _ := d.Prefill(2000)
	fmt.Printf("%.1f tokens/s, memory-bound %v; a 2000-token prompt in %v\n", float64(s.PerSequence), s.MemoryBound, p.Round(time.Millisecond))
	// Output:
	// 107.2 tokens/s, memory-bound true; a 2000-token prompt in 148ms
}

// LoRA on a frozen base skips the weight gradients: 4·N·D against full training's
// 6·N·D, here for Qwen2-7B's 7.62B parameters on 1B tokens.
func ExampleAdapterTrainingFLOPs() {
	m := sizing.Model{Params: 7_615_616_512}
	full, _ := compute.TrainingFLOPs(m, 1e9, 0)
	lora, _ := compute.AdapterTrainingFLOPs(m, 1e9, 0)
	fmt.Println("full:", full, "LoRA:", lora)
	// Output:
	// full: 4.569e+19 FLOP LoRA: 3.046e+19 FLOP
}

// Decoding quantized weights streams fewer bytes but reaches less of the memory
// bandwidth, by how the card's kernels unpack them.
func ExampleMemoryEfficiencyFor() {
	for _, p := range []sizing.Precision{sizing.BF16, sizing.INT8, sizing.AWQ4} {
		fmt.Printf("%v: A100 %.2f, T4 %.2f\n", p, compute.MemoryEfficiencyFor(p, "Ampere"), compute.MemoryEfficiencyFor(p, "Turing"))
	}
	// Output:
	// BF16: A100 0.70, T4 0.70
	// INT8: A100 0.59, T4 0.59
	// AWQ4: A100 0.45, T4 0.32
}

// Llama-2-7B in BF16 behind an API on one A100-80GB: requests of 1000 prompt tokens
// and 300 generated. How many users it holds, how fast each is served at a few
// loads, the most it serves with each user's tokens under 30 ms apart and the first
// within a second, and how many such replicas 20 requests a second need.
func ExampleServing() {
	s := compute.Serving{
		Model: sizing.Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
			Vocab: 32000, GatedFFN: true},
		Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: 2039 * compute.GBps, Peak: 312 * compute.TFLOPS,
		PromptTokens: 1000, OutputTokens: 300,
	}
	max, _ := s.MaxConcurrency()
	fmt.Println("sequences held:", max)
	for _, c := range []int{1, 16, max} {
		p, _ := s.At(c)
		fmt.Printf("%3d users: TTFT %v, TPOT %v, %v each, %v in all\n", c,
			p.TTFT.Round(time.Millisecond), p.TPOT.Round(100*time.Microsecond), p.PerUser, p.Throughput)
	}
	p, _ := s.Best(time.Second, 30*time.Millisecond)
	fmt.Printf("within 1s and 30ms: %d users, %.4f requests/s\n", p.Concurrency, p.Requests)
	n, _ := p.Replicas(20)
	fmt.Println("replicas for 20 requests/s:", n)
	// Output:
	// sequences held: 84
	//   1 users: TTFT 78ms, TPOT 11.2ms, 89.63 tok/s each, 87.88 tok/s in all
	//  16 users: TTFT 102ms, TPOT 19.1ms, 52.42 tok/s each, 826.7 tok/s in all
	//  84 users: TTFT 179ms, TPOT 63.6ms, 15.72 tok/s each, 1313 tok/s in all
	// within 1s and 30ms: 33 users, 3.6809 requests/s
	// replicas for 20 requests/s: 6
}

// A sweep over concurrency validates and sizes the replica once.
func ExampleServing_Prepare() {
	s := compute.Serving{
		Model: sizing.Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
			Vocab: 32000, GatedFFN: true},
		Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: 2039 * compute.GBps, Peak: 312 * compute.TFLOPS,
		PromptTokens: 1000, OutputTokens: 300,
	}
	r, err := s.Prepare()
	if err != nil {
		fmt.Println(err)
		return
	}
	max, _ := r.MaxConcurrency()
	for c := 1; c <= max; c *= 4 {
		p, _ := r.At(c)
		fmt.Printf("%2d users: TPOT %v, %v in all\n", c, p.TPOT.Round(100*time.Microsecond), p.Throughput)
	}
	// Output:
	// 1 users: TPOT 11.2ms, 87.88 tok/s in all
	//  4 users: TPOT 12.5ms, 312.9 tok/s in all
	// 16 users: TPOT 19.1ms, 826.7 tok/s in all
	// 64 users: TPOT 50ms, 1270 tok/s in all
}

// The two calls most callers want: how long a fine-tune takes, and what a serving
// replica does at a load. Card figures are the A100 SXM4 80GB datasheet's: 312
// TFLOPS BF16 dense, 2039 GB/s, NVLink 600 GB/s.
func Example() {
	llama := sizing.Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
		Vocab: 32000, GatedFFN: true}

	// Full training on 1B tokens on 8 A100s, data parallel, 8 sequences of 4096
	// tokens a step on each: the step built from its parts, with its band.
	work, _ := compute.TrainingFLOPs(llama, 1e9, 4096)
	tm, _ := compute.Job{Model: llama, Work: work, Batch: 1, SeqLen: 4096, Accumulation: 8, Devices: 8,
		PeakPerDevice: 312 * compute.TFLOPS, Bandwidth: 2039 * compute.GBps, Arch: "Ampere",
		Link: compute.NVLink(600 * compute.GBps), Overlap: 1}.Time()
	fmt.Printf("training: %v (%v–%v), MFU %.0f%%\n", tm.Duration.Round(time.Minute),
		tm.Low.Round(time.Minute), tm.High.Round(time.Minute), 100*tm.MFU)

	// Serving requests of 1000 prompt and 300 output tokens on one A100: 16 users
	// in a closed loop, then requests arriving at random, 2 a second.
	s := compute.Serving{Model: llama, Weights: sizing.BF16, Memory: 80 * sizing.GB,
		Bandwidth: 2039 * compute.GBps, Peak: 312 * compute.TFLOPS, Arch: "Ampere",
		PromptTokens: 1000, OutputTokens: 300}
	p, _ := s.At(16)
	fmt.Printf("serving 16 users: TTFT %v, TPOT %v, %v\n", p.TTFT.Round(time.Millisecond),
		p.TPOT.Round(100*time.Microsecond), p.Throughput)
	lp, _ := s.Under(2)
	fmt.Printf("serving 2 requests/s: TTFT p50 %v p99 %v, TPOT p50 %v\n", lp.TTFT.P50.Round(time.Millisecond),
		lp.TTFT.P99.Round(time.Millisecond), lp.TPOT.P50.Round(100*time.Microsecond))
	// Output:
	// training: 8h7m0s (4h52m0s–11h22m0s), MFU 63%
	// serving 16 users: TTFT 92ms, TPOT 18.7ms, 845.8 tok/s
	// serving 2 requests/s: TTFT p50 81ms p99 183ms, TPOT p50 17.4ms
}

// Llama 3 405B's training compute in H100-hours at 400 TFLOP/s sustained a GPU:
// more device time than time.Duration holds.
func ExampleDeviceHours() {
	h, _ := compute.DeviceHours(3.8e25, 400*compute.TFLOPS)
	fmt.Printf("%.1f million GPU-hours\n", h/1e6)
	// Output:
	// 26.4 million GPU-hours
}

// One measured step calibrates the card: a Llama-2-7B fine-tune's step took 9 s on
// 8 A100s, and the factor it gives carries over to a 13B job on the same cards.
func ExampleJob_Fit() {
	l7 := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}
	l13 := sizing.Model{Layers: 40, Hidden: 5120, Heads: 40, FFN: 13824, Vocab: 32000, GatedFFN: true}
	job := func(m sizing.Model) compute.Job {
		work, _ := compute.TrainingFLOPs(m, 1e9, 4096)
		return compute.Job{Model: m, Work: work, Batch: 1, SeqLen: 4096, Accumulation: 8, Devices: 8,
			PeakPerDevice: 312 * compute.TFLOPS, Bandwidth: 2039 * compute.GBps, Arch: "Ampere",
			Link: compute.NVLink(600 * compute.GBps), Overlap: 1}
	}
	c, err := job(l7).Fit(9 * time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	j := job(l13)
	modelled, _ := j.Time()
	j.Calibration = &c
	calibrated, _ := j.Time()
	fmt.Printf("factor %.2f; 13B on 1B tokens: %v modelled, %v calibrated\n", c.Train,
		modelled.Duration.Round(time.Minute), calibrated.Duration.Round(time.Minute))
	// Output:
	// factor 0.85; 13B on 1B tokens: 15h8m0s modelled, 17h46m0s calibrated
}

// Requests arriving at random: the latency percentiles as the rate rises, until
// the replica no longer keeps up.
func ExampleServing_Under() {
	s := compute.Serving{
		Model: sizing.Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
			Vocab: 32000, GatedFFN: true},
		Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: 2039 * compute.GBps, Peak: 312 * compute.TFLOPS,
		Arch: "Ampere", PromptTokens: 1000, OutputTokens: 300,
	}
	for _, rate := range []float64{1, 3, 10} {
		lp, _ := s.Under(rate)
		if !lp.Stable {
			fmt.Printf("%2g/s: does not keep up (at most %v)\n", rate, lp.Throughput)
			continue
		}
		fmt.Printf("%2g/s: TTFT p50 %v p99 %v, TPOT p50 %v, %.1f running\n", rate, lp.TTFT.P50.Round(time.Millisecond),
			lp.TTFT.P99.Round(time.Millisecond), lp.TPOT.P50.Round(100*time.Microsecond), lp.Concurrency)
	}
	// Output:
	// 1/s: TTFT p50 76ms p99 139ms, TPOT p50 13.6ms, 4.2 running
	//  3/s: TTFT p50 91ms p99 234ms, TPOT p50 24.7ms, 23.1 running
	// 10/s: does not keep up (at most 1387 tok/s)
}
