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
	field, limit, what := &w.Batch, MaxSearchBatch, "batch"
	if context {
		field, limit, what = &w.SeqLen, MaxSearchContext, "context"
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
		return 0, fmt.Errorf("sizing: %s 1 needs %d bytes, over the capacity of %d: %w", what, int64(b.Total()), int64(capacity), ErrDoesNotFit)
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
