package sizing

import (
	"errors"
	"math"
	"testing"
)

// Shape gives a model's own architecture, and for Params alone the shape Estimate's
// KV cache is built on.
func TestShape(t *testing.T) {
	// Mistral-7B's config.json: 32 layers of 4096, 32 heads, 8 KV heads.
	m := Model{Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 32000, GatedFFN: true}
	sh, err := m.Shape()
	if err != nil || sh != (Shape{Params: m.ParamCount(), Active: m.ParamCount(), Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, HeadDim: 128}) {
		t.Errorf("Shape = %+v, %v", sh, err)
	}
	p := Model{Params: 7e9}
	sh, err = p.Shape()
	if err != nil || !sh.Assumed || sh.KVHeads != 8 || sh.HeadDim != 128 || math.Abs(sh.Hidden-128*sh.Layers) > 1e-9 {
		t.Fatalf("Shape(Params 7e9) = %+v, %v", sh, err)
	}
	// The KV cache Estimate counts is 2 · ⌈L⌉ · KVHeads · HeadDim values a token.
	est, err := Estimate(p, Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * math.Ceil(sh.Layers) * sh.KVHeads * sh.HeadDim * 2 * 1000; math.Abs(float64(est.KVCache)-want) > 1 {
		t.Errorf("KVCache %d, want %.0f from the shape", est.KVCache, want)
	}
	// A mixture of experts: Mixtral-8x7B's 46.7B parameters, 12.9B a token.
	mx, err := Preset("mixtral-8x7b")
	if err != nil {
		t.Fatal(err)
	}
	if sh, err := mx.Shape(); err != nil || sh.Params != mx.ParamCount() || sh.Active != mx.ActiveParams() || sh.Active >= sh.Params {
		t.Errorf("Shape(Mixtral) = %+v, %v; want ParamCount %d and ActiveParams %d", sh, err, mx.ParamCount(), mx.ActiveParams())
	}
	if _, err := (Model{Params: -1}).Shape(); !errors.Is(err, ErrInvalid) {
		t.Errorf("Shape(Params -1) error %v, want ErrInvalid", err)
	}
}
