package sizing

import "fmt"

// Upper bounds of the searches: MaxContext answers at most MaxSearchContext tokens
// (16,777,216, beyond every published context window, the 10M of Llama 4 Scout
// included) and MaxBatch at most MaxSearchBatch sequences (1,048,576). A capacity
// that holds more returns the bound.
const (
	MaxSearchContext = 1 << 24
	MaxSearchBatch   = 1 << 20
)

// MaxContext returns the largest SeqLen (tokens per sequence; for inference the
// context length) at which Estimate(m, w) with that SeqLen has a Total of at most
// capacity, keeping every other field of w. The answer is exact: it fits, and one
// token more does not (or it is MaxSearchContext). w.SeqLen is ignored.
//
// It returns an error wrapping ErrInvalid when capacity is not positive or Estimate
// rejects m or w, and one wrapping ErrDoesNotFit when not even one token fits.
// Every term of the estimate grows with the sequence length, so a binary search
// finds the boundary in about 50 estimates.
func MaxContext(m Model, w Workload, capacity Bytes) (int, error) {
	return maxFit(m, w, capacity, true)
}

// MaxBatch returns the largest Batch (micro-batch per device; for inference
// concurrent sequences) at which Estimate(m, w) with that Batch has a Total of at
// most capacity, exactly as MaxContext does for the sequence length, up to
// MaxSearchBatch. w.Batch is ignored. Errors are those of MaxContext.
func MaxBatch(m Model, w Workload, capacity Bytes) (int, error) {
	return maxFit(m, w, capacity, false)
}

// maxFit searches the largest SeqLen (context) or Batch whose estimate fits.
func maxFit(m Model, w Workload, capacity Bytes, context bool) (int, error) {
	field, limit, what := &w.Batch, MaxSearchBatch, "a batch of 1"
	if context {
		field, limit, what = &w.SeqLen, MaxSearchContext, "a context of 1 token"
	}
	if capacity <= 0 {
		return 0, fmt.Errorf("sizing: capacity %d bytes is not positive: %w", int64(capacity), ErrInvalid)
	}
	*field = 1
	b, err := Estimate(m, w)
	if err != nil {
		return 0, err
	}
	if b.Total() > capacity {
		return 0, fmt.Errorf("sizing: %s needs %s, over the capacity of %s: %w", what, sized(b.Total()), sized(capacity), ErrDoesNotFit)
	}
	fits := func(v int) bool {
		*field = v
		b, err := Estimate(m, w)
		return err == nil && b.Total() <= capacity
	}
	// Double until a value does not fit, then bisect: lo always fits, hi never.
	lo, hi := 1, 2
	for fits(hi) {
		if hi >= limit {
			return limit, nil
		}
		lo, hi = hi, min(2*hi, limit)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// inferenceLadder is FitPrecision's default for Inference: from 16 bits down
// through the formats serving stacks load, GGUF file types among them, in
// decreasing bits per weight (BF16 16, FP8 and INT8 8, Q8_0 8.5, Q6_K 6.56, Q5_K_M
// 5.68, Q4_K_M 4.84, AWQ4 4.16, Q4_0 4.5, Q3_K_M 3.91, Q2_K 3.35; FP8 and INT8
// come before Q8_0 because they are what GPU stacks serve, and AWQ4 before Q4_0
// for the same reason).
var inferenceLadder = [...]Precision{BF16, FP8, INT8, Q8_0, Q6_K, Q5_K_M, Q4_K_M, AWQ4, Q4_0, Q3_K_M, Q2_K}

// trainingLadder is FitPrecision's default for Training, LoRA and QLoRA: the compute
// precision, FP32, then BF16 mixed precision, then FP8.
var trainingLadder = [...]Precision{FP32, BF16, FP8}

// FitPrecision answers the inverse question of precision: the first of candidates,
// tried in order, at which Estimate(m, w) with w.Precision set to it has a Total of
// at most capacity. It returns that precision and its breakdown. Every other field
// of w is kept, KVPrecision and GradPrecision included; w.Precision is ignored.
//
// With no candidates it tries, for Inference, BF16, FP8, INT8, Q8_0, Q6_K, Q5_K_M,
// Q4_K_M, AWQ4, Q4_0, Q3_K_M and Q2_K: widest first, so the answer is the least
// quantization that fits. For Training, LoRA and QLoRA it tries the compute
// precisions FP32, BF16 and FP8. Moving from full training to LoRA or QLoRA is a
// change of Task, not of precision, and is left to the caller (QLoRA's base is NF4
// whatever Precision says; for LoRA, Precision is the frozen base's format, and
// candidates may list quantized ones).
//
// It returns an error wrapping ErrInvalid when capacity is not positive or Estimate
// rejects m, w or a candidate (full training in a quantized format, say), and one
// wrapping ErrDoesNotFit, naming the candidate that needs least and what it needs,
// when none fits.
func FitPrecision(m Model, w Workload, capacity Bytes, candidates ...Precision) (Precision, Breakdown, error) {
	if capacity <= 0 {
		return 0, Breakdown{}, fmt.Errorf("sizing: capacity %d bytes is not positive: %w", int64(capacity), ErrInvalid)
	}
	if len(candidates) == 0 {
		if w.Task == Inference {
			candidates = inferenceLadder[:]
		} else {
			candidates = trainingLadder[:]
		}
	}
	var least Precision
	var need Bytes
	for _, p := range candidates {
		w.Precision = p
		b, err := Estimate(m, w)
		if err != nil {
			return 0, Breakdown{}, err
		}
		if t := b.Total(); t <= capacity {
			return p, b, nil
		} else if least == 0 || t < need {
			least, need = p, t
		}
	}
	return 0, Breakdown{}, fmt.Errorf("sizing: none of the %d precisions tried fits in %s; the smallest, %v, needs %s: %w",
		len(candidates), sized(capacity), least, sized(need), ErrDoesNotFit)
}
