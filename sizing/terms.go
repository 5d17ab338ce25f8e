package sizing

import (
	"fmt"
	"math"

	"github.com/gpuplan/gpuplan/internal/checked"
)

// bitsToBytes returns ceil(n·bits/8) as Bytes, or an error on overflow or a
// precision that is not valid.
func bitsToBytes(n int64, p Precision, what string) (Bytes, error) {
	bits := p.Bits()
	if bits <= 0 {
		return 0, fmt.Errorf("%w: %s precision %v is not a precision", ErrInvalid, what, p)
	}
	if n < 0 {
		return 0, fmt.Errorf("%w: negative %s count %d", ErrInvalid, what, n)
	}
	v := math.Ceil(float64(n) * bits / 8)
	b, ok := checked.FromFloat(v)
	if !ok {
		return 0, fmt.Errorf("%w: %s memory overflows int64 bytes", ErrInvalid, what)
	}
	return Bytes(b), nil
}

// WeightBytes returns the memory of the model's weights stored at precision p:
// ParamCount × p.Bits() / 8, rounded up to a whole byte. Every expert of a mixture of
// experts is counted, since all must be resident. A model Validate rejects is an
// error wrapping ErrInvalid.
func WeightBytes(m Model, p Precision) (Bytes, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	return bitsToBytes(m.ParamCount(), p, "weight")
}

// KVCacheBytes returns the key/value cache for batch sequences of tokens tokens at
// precision p: 2 (K and V) × layers × KV heads × head dimension × tokens × batch ×
// bytes per value (Kwon et al. 2023, vLLM §2; GQA and MQA keep fewer KV heads than
// query heads). OPT-13B keeps 819,200 bytes per token in FP16; Llama-2-70B, with 8 KV
// heads of 128, keeps 327,680.
//
// It needs the architecture (layers, heads, hidden) of a model Validate accepts
// (heads that divide the hidden size, KV heads that divide the heads), or it
// returns an error wrapping ErrInvalid; see Estimate for the approximation used
// when only Params is known.
func KVCacheBytes(m Model, tokens, batch int, p Precision) (Bytes, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if !m.HasArchitecture() {
		return 0, fmt.Errorf("%w: KV cache needs layers, hidden and heads", ErrInvalid)
	}
	if tokens < 0 || batch < 0 {
		return 0, fmt.Errorf("%w: negative tokens (%d) or batch (%d)", ErrInvalid, tokens, batch)
	}
	n, ok := checked.MulAll(2, int64(m.Layers), int64(m.kvHeads()), int64(m.headDim()), int64(tokens), int64(batch))
	if !ok {
		return 0, fmt.Errorf("%w: KV cache size overflows int64", ErrInvalid)
	}
	return bitsToBytes(n, p, "KV cache")
}
