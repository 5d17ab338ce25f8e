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
		return 0, fmt.Errorf("sizing: %s precision %v is not a precision: %w", what, p, ErrInvalid)
	}
	if n < 0 {
		return 0, fmt.Errorf("sizing: negative %s count %d: %w", what, n, ErrInvalid)
	}
	v := math.Ceil(float64(n) * bits / 8)
	b, ok := checked.FromFloat(v)
	if !ok {
		return 0, fmt.Errorf("sizing: %s memory overflows int64 bytes: %w", what, ErrInvalid)
	}
	return Bytes(b), nil
}

// WeightBytes returns the memory of the model's weights stored at precision p, rounded
// up to a whole byte; Estimate's Weights term, on one device and without adapters,
// is the same figure. Every expert of a mixture of experts is counted, since all
// must be resident. A model Validate rejects is an error wrapping ErrInvalid.
//
// Most formats store every parameter alike: ParamCount × p.Bits() / 8. GGUF file
// types (Q4_K_M and the others) do too, since their bits per weight are measured
// over the whole file, embeddings included; so do custom precisions and the
// floating-point formats from FP16 up.
//
// The formats that quantize only the linear layers of the transformer blocks keep
// the token embedding table, the output head (lm_head) when it is not tied, and
// any learned position table in 16 bits: bitsandbytes (NF4, and INT8 for LLM.int8)
// replaces only linear layers, and transformers' loader leaves the output head out
// of the conversion by default (the modules named by llm_int8_skip_modules, or the
// head it finds itself when that is unset); AutoGPTQ and AutoAWQ (GPTQ4, AWQ4,
// INT4) quantize the linear layers inside the decoder blocks and save the
// embeddings and lm_head unquantized; FP8 checkpoints (vLLM's FP8 and
// llm-compressor's) likewise leave lm_head and the embeddings in BF16. For FP8,
// INT8, INT4, NF4, GPTQ4 and AWQ4, with the architecture known, those V·h tables
// (two when untied) and Positions·h count at p.ComputeBits() (16 bits) and the rest
// at p.Bits(). Norms and biases, under 0.1% of a model, stay at p.Bits(). For
// Llama-3-8B in AWQ4 this is 5.7 GB, against 4.2 GB at 4.156 bits throughout: its
// 128,256-token vocabulary puts 1.05 billion of its 8.03 billion parameters in
// the embedding and the head. Without the architecture every parameter counts at
// p.Bits().
func WeightBytes(m Model, p Precision) (Bytes, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if p.Bits() <= 0 {
		return 0, fmt.Errorf("sizing: weight precision %v is not a precision: %w", p, ErrInvalid)
	}
	v := math.Ceil(storedWeights(float64(m.ParamCount()), embeddingParams(&m), p))
	b, ok := checked.FromFloat(v)
	if !ok {
		return 0, fmt.Errorf("sizing: weight memory overflows int64 bytes: %w", ErrInvalid)
	}
	return Bytes(b), nil
}

// InputEmbeddingBytes returns the bytes of m's token embedding table stored at p:
// Vocab × Hidden values at the width WeightBytes stores them (16 bits in the
// formats that keep embeddings in 16 bits), rounded up. A decoding step looks up
// one row of it, so it reads the weights less this table. Zero when the table is
// tied to the output head, which every step reads whole, and without the
// architecture. Errors as WeightBytes.
func InputEmbeddingBytes(m Model, p Precision) (Bytes, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if p.Bits() <= 0 {
		return 0, fmt.Errorf("sizing: weight precision %v is not a precision: %w", p, ErrInvalid)
	}
	if !m.hasArch() || m.TiedEmbeddings {
		return 0, nil
	}
	bits := p.Bits()
	if p.keepsEmbeddings16() {
		bits = p.ComputeBits()
	}
	v := math.Ceil(float64(m.Vocab) * float64(m.Hidden) * bits / 8)
	b, ok := checked.FromFloat(v)
	if !ok {
		return 0, fmt.Errorf("sizing: embedding memory overflows int64 bytes: %w", ErrInvalid)
	}
	return Bytes(b), nil
}

// keepsEmbeddings16 reports whether checkpoints in p keep the embedding tables and
// the output head in 16 bits (see WeightBytes).
func (p Precision) keepsEmbeddings16() bool {
	switch p {
	case FP8, INT8, INT4, NF4, GPTQ4, AWQ4:
		return true
	}
	return false
}

// embeddingParams returns the parameters of m's embedding tables and output head:
// V·h for the token embeddings, V·h more for an untied head, and Positions·h for a
// learned position table; 0 without the architecture. It is a float64 so that no
// product can wrap.
func embeddingParams(m *Model) float64 {
	if !m.hasArch() {
		return 0
	}
	vh := float64(m.Vocab) * float64(m.Hidden)
	e := vh + float64(m.Positions)*float64(m.Hidden)
	if !m.TiedEmbeddings {
		e += vh
	}
	return e
}

// storedWeights returns the bytes, before rounding, of n parameters stored at p, emb
// of them in the embedding tables and output head (see WeightBytes for the rule).
func storedWeights(n, emb float64, p Precision) float64 {
	if emb > 0 && p.keepsEmbeddings16() {
		emb = min(emb, n)
		return ((n-emb)*p.Bits() + emb*p.ComputeBits()) / 8
	}
	return n * p.Bits() / 8
}

// KVCacheBytes returns the key/value cache for batch sequences of tokens tokens at
// precision p: 2 (K and V) × layers × KV heads × head dimension × tokens × batch ×
// bytes per value (Kwon et al. 2023, vLLM §2; GQA and MQA keep fewer KV heads than
// query heads). OPT-13B keeps 819,200 bytes per token in FP16; Llama-2-70B, with 8 KV
// heads of 128, keeps 327,680. Under latent attention each layer keeps
// KVLoRARank + RopeHeadDim values per token (DeepSeek-V3: 576 × 61 layers × 2 bytes,
// 70,272 bytes per token in BF16), sliding-window layers keep at most
// SlidingWindow tokens, and linear-attention layers keep LinearState values per
// sequence whatever its length.
//
// It needs the architecture (layers, heads, hidden) of a model Validate accepts
// (heads that divide the hidden size, KV heads that divide the heads), or it
// returns an error wrapping ErrInvalid; see Estimate for the approximation used
// when only Params is known.
func KVCacheBytes(m Model, tokens, batch int, p Precision) (Bytes, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if !m.hasArch() {
		return 0, fmt.Errorf("sizing: KV cache needs layers, hidden and heads: %w", ErrInvalid)
	}
	if tokens < 0 || batch < 0 {
		return 0, fmt.Errorf("sizing: negative tokens (%d) or batch (%d): %w", tokens, batch, ErrInvalid)
	}
	sl := int64(m.slidingLayers())
	full, fok := checked.Mul(int64(m.Layers-m.LinearLayers)-sl, int64(tokens))
	win, wok := checked.Mul(sl, int64(min(tokens, m.SlidingWindow)))
	layerTokens, sok := checked.Add(full, win)
	n, ok := checked.MulAll(m.kvValuesPerToken(), layerTokens, int64(batch))
	state, lok := checked.MulAll(int64(m.LinearLayers), int64(m.LinearState), int64(batch))
	n, nok := checked.Add(n, state)
	if !ok || !fok || !wok || !sok || !lok || !nok {
		return 0, fmt.Errorf("sizing: KV cache size overflows int64: %w", ErrInvalid)
	}
	return bitsToBytes(n, p, "KV cache")
}
