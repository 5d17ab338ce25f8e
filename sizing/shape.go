package sizing

// Shape is the part of a model that the cost of a forward step over tensor-parallel
// devices depends on: its parameters (all of them, and those one token uses, as
// ParamCount and ActiveParams count them), layers, hidden size, attention heads, KV
// heads and head dimension. For a model with its architecture these are its own fields
// (KVHeads and HeadDim with their defaults resolved); for a model known by Params
// alone they are the dense Llama-style shape Estimate assumes (see Estimate), in
// which Layers and Heads are fractional, so that the terms built on them grow
// smoothly with Params, and Assumed is true.
type Shape struct {
	Params  int64   `json:"params"`
	Active  int64   `json:"active_params"`
	Layers  float64 `json:"layers"`
	Hidden  float64 `json:"hidden"`
	Heads   float64 `json:"heads"`
	KVHeads float64 `json:"kv_heads"`
	HeadDim float64 `json:"head_dim"`
	// Assumed reports a shape assumed from Params alone, the same assumption whose
	// terms Estimate lists in Breakdown.Approx.
	Assumed bool `json:"assumed"`
}

// Shape returns m's shape, its own or the one Estimate assumes for a model known by
// Params alone. An invalid model is an error wrapping ErrInvalid, as in Validate.
func (m Model) Shape() (Shape, error) {
	var ar arch
	n, _, ok := checkModel(&m, &ar)
	if !ok {
		return Shape{}, m.Validate()
	}
	active := n
	if m.Experts > 1 {
		active = m.ActiveParams()
	}
	return Shape{Params: n, Active: active, Layers: ar.L, Hidden: ar.h, Heads: ar.a, KVHeads: ar.k, HeadDim: ar.d, Assumed: !m.hasArch()}, nil
}
