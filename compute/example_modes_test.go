package compute_test

import (
	"fmt"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

// Llama 3.1 8B in BF16 on one H100 SXM (80 GB, 3.35 TB/s, 989.5 TFLOPS BF16),
// serving requests of 4000 prompt tokens and 200 output tokens.
func h100Llama8B() compute.Serving {
	m := sizing.Model{Name: "llama-3.1-8b", Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, Vocab: 128256, GatedFFN: true}
	return compute.Serving{Model: m, Weights: sizing.BF16, Memory: 80 * sizing.GB, Bandwidth: 3350 * compute.GBps,
		Peak: 989.5 * compute.TFLOPS, Arch: "Hopper", PromptTokens: 4000, OutputTokens: 200}
}

// Leviathan et al.'s expected tokens a step: four proposals each accepted with
// chance 0.8 give 1 + 0.8 + 0.8² + 0.8³ + 0.8⁴ tokens a step.
func ExampleSpeculation_TokensPerStep() {
	s := compute.Speculation{Tokens: 4, Acceptance: 0.8}
	fmt.Printf("%.4f tokens a step\n", s.TokensPerStep())
	// Output: 3.3616 tokens a step
}

// A prefix cache that holds half of each prompt: the replica holds more
// sequences and the first token comes sooner.
func ExampleServing_MaxConcurrency_prefixCache() {
	s := h100Llama8B()
	for _, share := range []float64{0, 0.5} {
		s.PrefixShare = share
		n, _ := s.MaxConcurrency()
		p, _ := s.At(1)
		fmt.Printf("prefix share %.1f: %d sequences, TTFT %v\n", share, n, p.TTFT.Round(100_000))
	}
	// Output:
	// prefix share 0.0: 101 sequences, TTFT 116.2ms
	// prefix share 0.5: 191 sequences, TTFT 60.9ms
}

// One prefill replica and one decode replica against two colocated replicas at
// 6 requests a second: decoding no longer waits for long prompts (a lower TPOT),
// and the first token waits for the prefill replica's queue and the cache's
// crossing (a higher TTFT).
func ExampleDisaggregated_Under() {
	s := h100Llama8B()
	d := compute.Disaggregated{Prefill: s, Decode: s, PrefillReplicas: 1, DecodeReplicas: 1,
		Link: compute.Link{Bandwidth: 50 * compute.GBps}}
	pair, _ := d.Under(6)
	one, _ := s.Under(3)
	fmt.Printf("disaggregated: TTFT p90 %v, TPOT p90 %v\n", pair.TTFT.P90.Round(1_000_000), pair.TPOT.P90.Round(100_000))
	fmt.Printf("colocated:     TTFT p90 %v, TPOT p90 %v\n", one.TTFT.P90.Round(1_000_000), one.TPOT.P90.Round(100_000))
	// Output:
	// disaggregated: TTFT p90 491ms, TPOT p90 12.1ms
	// colocated:     TTFT p90 241ms, TPOT p90 18.9ms
}
