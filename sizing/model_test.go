package sizing

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestModelValidate(t *testing.T) {
	llama7b := Model{Name: "l", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}
	tests := []struct {
		name string
		m    Model
		want []string // one fragment per expected problem; none: valid
	}{
		{"architecture only", llama7b, nil},
		{"params only", Model{Params: 7e9}, nil},
		{"params and disagreeing architecture is fine", func() Model { m := llama7b; m.Params = 7e9; return m }(), nil},
		{"MoE", Model{Params: 1, Experts: 8, ExpertsPerToken: 2}, nil},
		{"GQA", func() Model { m := llama7b; m.KVHeads = 8; return m }(), nil},
		{"MQA", func() Model { m := llama7b; m.KVHeads = 1; return m }(), nil},
		{"HeadDim lets heads not divide hidden", func() Model { m := llama7b; m.Heads, m.HeadDim = 24, 128; return m }(), nil},
		{"empty", Model{}, []string{"no parameter count"}},
		{"no FFN and no Params", func() Model { m := llama7b; m.FFN = 0; return m }(), []string{"no parameter count"}},
		{"negative fields", Model{Params: -1, Layers: -2, Vocab: -3}, []string{"negative Params", "negative Layers", "negative Vocab"}},
		{"heads do not divide hidden", func() Model { m := llama7b; m.Heads = 30; return m }(), []string{"30 heads do not divide hidden size 4096"}},
		{"KV heads over heads", func() Model { m := llama7b; m.KVHeads = 64; return m }(), []string{"64 KV heads do not divide 32 heads"}},
		{"KV heads not dividing", func() Model { m := llama7b; m.KVHeads = 5; return m }(), []string{"5 KV heads"}},
		{"KV heads without heads", Model{Params: 1, KVHeads: 8}, []string{"without Heads"}},
		{"experts per token without experts", Model{Params: 1, ExpertsPerToken: 2}, []string{"without Experts"}},
		{"experts per token over experts", Model{Params: 1, Experts: 2, ExpertsPerToken: 3}, []string{"3 experts per token of 2"}},
		// Unset, every expert would count as active: Mixtral's work 3.6 times over.
		{"experts without experts per token", Model{Params: 1, Experts: 8}, []string{"8 experts without ExpertsPerToken"}},
		{"one expert is dense", Model{Params: 1, Experts: 1}, nil},
		{"overflow", Model{Layers: math.MaxInt32, Hidden: math.MaxInt32, Heads: 1, FFN: math.MaxInt32, Vocab: 1}, []string{"overflows"}},
		{"several problems at once", func() Model { m := llama7b; m.Heads, m.ExpertsPerToken = 30, 1; return m }(),
			[]string{"do not divide hidden", "without Experts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.m.Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate() = %v, want an error wrapping ErrInvalid", err)
			}
			if n := len(strings.Split(err.Error(), "\n")); n != len(tt.want) {
				t.Errorf("Validate() gave %d problems (%v), want %d", n, err, len(tt.want))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate() = %q, want it to mention %q", err, w)
				}
			}
		})
	}
}

func TestParamCountFallbacks(t *testing.T) {
	if got := (Model{Params: 123}).ParamCount(); got != 123 {
		t.Errorf("Params-only ParamCount = %d, want 123", got)
	}
	m, _ := Preset("llama-2-7b")
	m.Params = 7e9
	if got := m.ParamCount(); got != 7e9 {
		t.Errorf("Params with architecture: ParamCount = %d, want Params 7e9", got)
	}
	if got := (Model{Layers: 1, Hidden: 8, Heads: 2, Vocab: 10}).ParamCount(); got != 0 {
		t.Errorf("no FFN: ParamCount = %d, want 0", got)
	}
	huge := Model{Layers: math.MaxInt32, Hidden: math.MaxInt32, Heads: 1, FFN: math.MaxInt32, Vocab: 1}
	if got := huge.ParamCount(); got != 0 {
		t.Errorf("overflowing architecture: ParamCount = %d, want 0", got)
	}
	// A model Validate refuses counts 0, never a negative sum: more linear-attention
	// layers than layers, a negative buffer count, more dense layers than layers.
	m, _ = Preset("llama-3-8b")
	for name, bad := range map[string]func(*Model){
		"linear layers": func(m *Model) { m.LinearLayers, m.LinearParams = m.Layers+1, 1 },
		"huge linear":   func(m *Model) { m.LinearLayers = math.MaxInt32 },
		"buffers":       func(m *Model) { m.Buffers = math.MinInt },
		"dense layers": func(m *Model) {
			m.Experts, m.ExpertsPerToken, m.DenseLayers = 8, 2, math.MaxInt32
		},
	} {
		b := m
		b.Params = 0
		bad(&b)
		if got, act := b.ParamCount(), b.ActiveParams(); got != 0 || act != 0 {
			t.Errorf("%s: ParamCount, ActiveParams = %d, %d, want 0, 0 (Validate: %v)", name, got, act, b.Validate())
		}
	}
	// MoE with only Params: scale by the routed share.
	moe := Model{Params: 800, Experts: 8, ExpertsPerToken: 2}
	if got := moe.ActiveParams(); got != 200 {
		t.Errorf("Params-only MoE ActiveParams = %d, want 200", got)
	}
}

// TestParamCountComponents checks the derivation term by term on a small model whose
// count is easy to do by hand.
func TestParamCountComponents(t *testing.T) {
	// h 8, 2 heads of 4, 1 KV head, f 16, V 10, 1 layer.
	base := Model{Layers: 1, Hidden: 8, Heads: 2, KVHeads: 1, FFN: 16, Vocab: 10}
	// attention 8·8 + 2·8·4 + 8·8 = 192; FFN 2·8·16 = 256; norms 2·8 + 8 = 24;
	// embeddings 2·10·8 = 160.
	tests := []struct {
		name string
		edit func(*Model)
		want int64
	}{
		{"plain", func(*Model) {}, 192 + 256 + 24 + 160},
		{"gated adds a third FFN matrix", func(m *Model) { m.GatedFFN = true }, 192 + 384 + 24 + 160},
		{"tied drops the head", func(m *Model) { m.TiedEmbeddings = true }, 192 + 256 + 24 + 80},
		{"QKV bias", func(m *Model) { m.QKVBias = true }, 192 + 256 + 24 + 160 + 16},
		// LayerNorm bias doubles the norms; biases q,k,v 16, out 8, FFN up 16, down 8.
		{"linear bias", func(m *Model) { m.LinearBias = true }, 192 + 256 + 48 + 160 + 16 + 8 + 16 + 8},
		{"learned positions", func(m *Model) { m.Positions = 4 }, 192 + 256 + 24 + 160 + 32},
		// Two experts: two FFNs and a router of 8·2.
		{"experts", func(m *Model) { m.Experts, m.ExpertsPerToken = 2, 1 }, 192 + 512 + 16 + 24 + 160},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base
			tt.edit(&m)
			if got := m.ParamCount(); got != tt.want {
				t.Errorf("ParamCount() = %d, want %d", got, tt.want)
			}
		})
	}
	m := base
	m.Experts, m.ExpertsPerToken = 2, 1
	if got, want := m.ActiveParams(), int64(192+256+16+24+160); got != want {
		t.Errorf("ActiveParams() = %d, want %d", got, want)
	}
}

func TestParamCountMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		heads := rapid.IntRange(1, 64).Draw(t, "heads")
		m := Model{
			Layers: rapid.IntRange(1, 128).Draw(t, "layers"),
			Hidden: heads * rapid.IntRange(1, 256).Draw(t, "head_dim"),
			Heads:  heads,
			FFN:    rapid.IntRange(1, 60000).Draw(t, "ffn"),
			Vocab:  rapid.IntRange(1, 300000).Draw(t, "vocab"),
		}
		m.GatedFFN = rapid.Bool().Draw(t, "gated")
		n := m.ParamCount()
		if n <= 0 || m.Validate() != nil {
			t.Fatalf("ParamCount() = %d, Validate() = %v", n, m.Validate())
		}
		more := m
		more.Layers++
		if more.ParamCount() <= n {
			t.Fatalf("one more layer: %d <= %d", more.ParamCount(), n)
		}
		more = m
		more.FFN++
		if more.ParamCount() <= n {
			t.Fatalf("wider FFN: %d <= %d", more.ParamCount(), n)
		}
		if m.ActiveParams() != n {
			t.Fatalf("dense ActiveParams() = %d, want ParamCount %d", m.ActiveParams(), n)
		}
	})
}

// TestValidateFastPath checks that the allocation-free test Validate runs first
// agrees with the full list of problems on any model, valid or not, and that a
// valid model costs no allocation.
func TestValidateFastPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := Model{
			Params:          rapid.Int64Range(-1, 1e12).Draw(t, "params"),
			Layers:          rapid.IntRange(-1, 200).Draw(t, "layers"),
			Hidden:          rapid.IntRange(-1, 20000).Draw(t, "hidden"),
			Heads:           rapid.IntRange(-1, 130).Draw(t, "heads"),
			KVHeads:         rapid.IntRange(-1, 130).Draw(t, "kv_heads"),
			HeadDim:         rapid.SampledFrom([]int{-1, 0, 0, 64, 128}).Draw(t, "head_dim"),
			FFN:             rapid.IntRange(-1, 60000).Draw(t, "ffn"),
			Vocab:           rapid.IntRange(-1, 300000).Draw(t, "vocab"),
			Experts:         rapid.IntRange(-1, 16).Draw(t, "experts"),
			ExpertsPerToken: rapid.IntRange(-1, 16).Draw(t, "experts_per_token"),
			Positions:       rapid.IntRange(-1, 4096).Draw(t, "positions"),
			ExpertFFN:       rapid.IntRange(-1, 4096).Draw(t, "expert_ffn"),
			SharedFFN:       rapid.IntRange(-1, 4096).Draw(t, "shared_ffn"),
			DenseLayers:     rapid.IntRange(-1, 210).Draw(t, "dense_layers"),
			NormsPerLayer:   rapid.IntRange(-1, 4).Draw(t, "norms"),
			KVLoRARank:      rapid.SampledFrom([]int{-1, 0, 0, 512}).Draw(t, "kv_lora_rank"),
			QLoRARank:       rapid.SampledFrom([]int{-1, 0, 1536}).Draw(t, "q_lora_rank"),
			RopeHeadDim:     rapid.SampledFrom([]int{-1, 0, 64, 128}).Draw(t, "rope_head_dim"),
			VHeadDim:        rapid.SampledFrom([]int{-1, 0, 128}).Draw(t, "v_head_dim"),
			Context:         rapid.IntRange(-1, 8192).Draw(t, "context"),
			SlidingWindow:   rapid.IntRange(-1, 4096).Draw(t, "sliding_window"),
			SlidingLayers:   rapid.IntRange(-1, 210).Draw(t, "sliding_layers"),
			StoredBytes:     Bytes(rapid.Int64Range(-1, 1e12).Draw(t, "stored_bytes")),
		}
		if rapid.Bool().Draw(t, "huge") {
			m.Layers, m.Hidden, m.FFN = math.MaxInt32, math.MaxInt32, math.MaxInt32
		}
		var p problems
		m.check(&p)
		if got, want := p.n == 0, m.Validate() == nil; got != want {
			t.Fatalf("check counted %d problems, Validate() = %v for %+v", p.n, m.Validate(), m)
		}
	})
	m := Model{Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256, GatedFFN: true}
	if n := testing.AllocsPerRun(100, func() { _ = m.Validate() }); n != 0 {
		t.Errorf("Validate() of a valid model: %v allocs, want 0", n)
	}
}

// TestTermsRejectInvalidModels checks that WeightBytes and KVCacheBytes refuse the
// models Validate refuses instead of answering with a truncated head dimension.
func TestTermsRejectInvalidModels(t *testing.T) {
	tests := []struct {
		name string
		m    Model
	}{
		// Hidden 100 over 3 heads used to give a head dimension of 33 and 396 bytes.
		{"heads do not divide hidden", Model{Layers: 1, Hidden: 100, Heads: 3, FFN: 400, Vocab: 10}},
		{"KV heads above heads", Model{Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 64, FFN: 11008, Vocab: 32000}},
		{"negative layers with Params", Model{Params: 7e9, Layers: -5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := WeightBytes(tt.m, FP16); !errors.Is(err, ErrInvalid) {
				t.Errorf("WeightBytes = %d, %v; want an error wrapping ErrInvalid", got, err)
			}
			if got, err := KVCacheBytes(tt.m, 1, 1, FP16); !errors.Is(err, ErrInvalid) {
				t.Errorf("KVCacheBytes = %d, %v; want an error wrapping ErrInvalid", got, err)
			}
		})
	}
}

// TestArchFitsQuickTest checks the sizes under which archFits skips archBound: at
// the largest of them the bound is below 2^59, and with any one group of fields
// past its limit, by 1 to 20 bits, the answer is archBound's.
func TestArchFitsQuickTest(t *testing.T) {
	groups := []struct {
		bits   int
		fields func(m *Model) []*int
	}{
		{10, func(m *Model) []*int { return []*int{&m.Layers, &m.Heads, &m.KVHeads, &m.Experts, &m.NormsPerLayer} }},
		{16, func(m *Model) []*int {
			return []*int{&m.Hidden, &m.HeadDim, &m.VHeadDim, &m.QLoRARank, &m.KVLoRARank, &m.RopeHeadDim}
		}},
		{20, func(m *Model) []*int { return []*int{&m.FFN, &m.ExpertFFN, &m.SharedFFN} }},
		{30, func(m *Model) []*int { return []*int{&m.Vocab, &m.Positions} }},
	}
	var corner Model
	for _, g := range groups {
		for _, f := range g.fields(&corner) {
			*f = 1<<g.bits - 1
		}
	}
	if b := archBound(&corner, corner.HeadDim); !(b < 1<<59) {
		t.Errorf("archBound at the quick test's limits = %g, want below 2^59", b)
	}
	if !archFits(&corner, corner.HeadDim) {
		t.Error("archFits at the quick test's limits = false, want true")
	}
	for _, g := range groups {
		for past := 1; past <= 20; past++ {
			m := corner
			for _, f := range g.fields(&m) {
				*f = 1<<(g.bits+past) - 1
			}
			if got, want := archFits(&m, m.HeadDim), archBound(&m, m.HeadDim) < 1<<62; got != want {
				t.Errorf("fields of %d bits raised to %d bits: archFits = %v, archBound says %v", g.bits, g.bits+past, got, want)
			}
		}
	}
}

// TestPropertyArchFitsIsArchBound draws fields around the quick test's limits, and
// at times far past them or negative (ParamCount meets negative fields on models
// Validate refuses), and checks that the quick test never changes archBound's
// verdict.
func TestPropertyArchFitsIsArchBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		field := func(name string, limitBits int) int {
			maxBits := limitBits + 1 // past the limit about half the time it draws the top bit
			if rapid.IntRange(0, 10).Draw(t, name+"_huge") == 0 {
				maxBits = 60
			}
			v := rapid.IntRange(0, 1<<rapid.IntRange(0, maxBits).Draw(t, name+"_bits")).Draw(t, name)
			if rapid.IntRange(0, 30).Draw(t, name+"_negative") == 0 {
				v = -v
			}
			return v
		}
		m := Model{Layers: field("layers", 10), Heads: field("heads", 10), KVHeads: field("kv_heads", 10),
			Experts: field("experts", 10), NormsPerLayer: field("norms", 10),
			Hidden: field("hidden", 16), HeadDim: field("head_dim", 16), VHeadDim: field("v_head_dim", 16),
			QLoRARank: field("q_lora_rank", 16), KVLoRARank: field("kv_lora_rank", 16), RopeHeadDim: field("rope_head_dim", 16),
			FFN: field("ffn", 20), ExpertFFN: field("expert_ffn", 20), SharedFFN: field("shared_ffn", 20),
			Vocab: field("vocab", 30), Positions: field("positions", 30)}
		d := m.headDim()
		if got, want := archFits(&m, d), archBound(&m, d) < 1<<62; got != want {
			t.Fatalf("archFits(%+v) = %v, archBound says %v", m, got, want)
		}
	})
}

// TestPropertySmallModel draws models inside small's limits, with at most one
// size pushed past its limit (up to 2^62) or made negative, and checks small's
// promise to Model.check: a small model has no negative field and an
// architecture whose bound is under 2^59, so that check may skip the sign test
// and archBound.
func TestPropertySmallModel(t *testing.T) {
	var m Model
	fields := []struct {
		name string
		bits int
		p    *int
	}{
		{"Layers", 10, &m.Layers}, {"DenseLayers", 10, &m.DenseLayers}, {"SlidingLayers", 10, &m.SlidingLayers},
		{"Heads", 10, &m.Heads}, {"KVHeads", 10, &m.KVHeads}, {"Experts", 10, &m.Experts},
		{"ExpertsPerToken", 10, &m.ExpertsPerToken}, {"NormsPerLayer", 10, &m.NormsPerLayer},
		{"Hidden", 16, &m.Hidden}, {"HeadDim", 16, &m.HeadDim}, {"VHeadDim", 16, &m.VHeadDim},
		{"QLoRARank", 16, &m.QLoRARank}, {"KVLoRARank", 16, &m.KVLoRARank}, {"RopeHeadDim", 16, &m.RopeHeadDim},
		{"FFN", 20, &m.FFN}, {"ExpertFFN", 20, &m.ExpertFFN}, {"SharedFFN", 20, &m.SharedFFN},
		{"Vocab", 30, &m.Vocab}, {"Positions", 30, &m.Positions}, {"Context", 30, &m.Context},
		{"SlidingWindow", 30, &m.SlidingWindow},
	}
	rapid.Check(t, func(t *rapid.T) {
		for _, f := range fields {
			*f.p = rapid.IntRange(1, 1<<f.bits-1).Draw(t, f.name)
		}
		m.Params = rapid.Int64Range(0, 1<<62).Draw(t, "Params")
		m.StoredBytes = Bytes(rapid.Int64Range(0, 1<<62).Draw(t, "StoredBytes"))
		switch k := rapid.IntRange(0, len(fields)+2).Draw(t, "spoiled"); {
		case k < len(fields):
			f := fields[k]
			if rapid.Bool().Draw(t, "negative") {
				*f.p = -rapid.IntRange(1, 1<<62).Draw(t, "by")
			} else {
				*f.p = rapid.IntRange(1<<f.bits, 1<<62).Draw(t, "past")
			}
		case k == len(fields):
			m.Params = -rapid.Int64Range(1, 1<<62).Draw(t, "negative_params")
		case k == len(fields)+1:
			m.StoredBytes = Bytes(-rapid.Int64Range(1, 1<<62).Draw(t, "negative_stored"))
		}
		if !m.small() {
			return
		}
		negative := m.Params < 0 || m.StoredBytes < 0
		for _, f := range fields {
			negative = negative || *f.p < 0
		}
		if negative {
			t.Fatalf("small() for %+v, which has a negative field", m)
		}
		if b := archBound(&m, m.headDim()); !(b < 1<<59) {
			t.Fatalf("small() for %+v, whose archBound is %g", m, b)
		}
	})
}
