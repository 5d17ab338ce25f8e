package sizing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
)

// MaxConfigBytes bounds the config.json ReadConfig reads: 4 MiB, hundreds of times
// the largest published config (DeepSeek-V3's is under 2 KB; Phi-3's, with its
// rope-scaling tables, under 10 KB). A longer input is refused without being
// decoded.
const MaxConfigBytes = 4 << 20

// ReadConfig reads a Hugging Face config.json and returns the model it describes,
// with the architecture fields set and Params left zero, so that ParamCount derives
// the count from the architecture (presets_test.go and config_test.go pin it
// against the checkpoints' published counts).
//
// It reads these model_type values: llama (Llama 1, 2, 3, 3.1, 3.2), mistral,
// mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, phi3, gemma, gemma2, gemma3 and
// gemma3_text, deepseek_v2, deepseek_v3 (DeepSeek-R1 too), gpt2, gpt_neox, falcon
// (and its older RefinedWeb names), opt, bloom and gpt_oss. A config with a
// text_config object (a multimodal wrapper such as Gemma 3's) is read for its
// language model: the keys of text_config, with those of the outer object as a
// fallback. An unknown model_type, a missing required key, a value of the wrong
// type, or an input over MaxConfigBytes is an error wrapping ErrInvalid that names
// it; ReadConfig never returns a zero Model without an error.
//
// Parameters a config does not spell out, and that ParamCount therefore leaves out:
// DeepSeek-V3's multi-token-prediction module (its published 671B excludes it too)
// and the 256 score-correction biases of each of its MoE layers; Qwen2-MoE's
// shared-expert gate (Hidden per layer); attention output biases (Llama's
// attention_bias, gpt-oss); gpt-oss's attention sinks and expert biases; BLOOM's
// embedding LayerNorm. Each is under 0.01% of the model.
func ReadConfig(r io.Reader) (Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxConfigBytes+1))
	if err != nil {
		return Model{}, fmt.Errorf("sizing: config.json: %w", err)
	}
	if len(data) > MaxConfigBytes {
		return Model{}, fmt.Errorf("sizing: config.json is over %d bytes: %w", MaxConfigBytes, ErrInvalid)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return Model{}, fmt.Errorf("sizing: config.json: %v: %w", err, ErrInvalid)
	}
	c := &hfConfig{keys: top}
	if raw, ok := top["text_config"]; ok && !isNull(raw) {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(raw, &inner); err != nil {
			return Model{}, fmt.Errorf("sizing: config.json: text_config: %v: %w", err, ErrInvalid)
		}
		c = &hfConfig{keys: inner, outer: top}
	}
	m, err := c.model()
	if err != nil {
		return Model{}, err
	}
	if err := m.Validate(); err != nil {
		return Model{}, fmt.Errorf("sizing: config.json (%s): %w", c.typ, err)
	}
	return m, nil
}

// hfConfig looks keys up in a config.json object, then in its outer object.
type hfConfig struct {
	keys, outer map[string]json.RawMessage
	typ         string
	err         error // the first problem; later lookups are skipped
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// raw returns the first of names present and not null, and its name.
func (c *hfConfig) raw(names ...string) (json.RawMessage, string) {
	for _, src := range []map[string]json.RawMessage{c.keys, c.outer} {
		for _, n := range names {
			if v, ok := src[n]; ok && !isNull(v) {
				return v, n
			}
		}
	}
	return nil, ""
}

func (c *hfConfig) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("sizing: config.json (%s): "+format+": %w", append(append([]any{c.typ}, args...), ErrInvalid)...)
	}
}

// maxConfigInt bounds every integer read from a config: 2^40, far above any
// dimension or count a model has, and small enough that no product ParamCount
// forms before its own overflow check can wrap.
const maxConfigInt = 1 << 40

// intOr returns the integer under the first present name, or def when none is.
func (c *hfConfig) intOr(def int, names ...string) int {
	v, name := c.raw(names...)
	if v == nil || c.err != nil {
		return def
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		c.fail("%s is not a number", name)
		return def
	}
	if f != math.Trunc(f) || f < 0 || f > maxConfigInt {
		c.fail("%s %v is not a whole number from 0 to 2^40", name, f)
		return def
	}
	return int(f)
}

// int returns the integer under the first present name; none is an error naming
// the first.
func (c *hfConfig) int(names ...string) int {
	if v, _ := c.raw(names...); v == nil {
		c.fail("missing key %s", names[0])
		return 0
	}
	return c.intOr(0, names...)
}

func (c *hfConfig) boolOr(def bool, name string) bool {
	v, _ := c.raw(name)
	if v == nil || c.err != nil {
		return def
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		c.fail("%s is not true or false", name)
		return def
	}
	return b
}

func (c *hfConfig) str(name string) string {
	v, _ := c.raw(name)
	var s string
	if v != nil && json.Unmarshal(v, &s) != nil {
		c.fail("%s is not a string", name)
	}
	return s
}

// count returns how many entries of the string list under name equal want, and
// whether the list is there.
func (c *hfConfig) count(name, want string) (int, bool) {
	v, _ := c.raw(name)
	if v == nil || c.err != nil {
		return 0, false
	}
	var list []string
	if err := json.Unmarshal(v, &list); err != nil {
		c.fail("%s is not a list of strings", name)
		return 0, false
	}
	n := 0
	for _, s := range list {
		if s == want {
			n++
		}
	}
	return n, true
}

// configTypes lists the model_type values ReadConfig reads, for its error message.
var configTypes = []string{"bloom", "deepseek_v2", "deepseek_v3", "falcon", "gemma", "gemma2", "gemma3",
	"gemma3_text", "gpt2", "gpt_neox", "gpt_oss", "llama", "mistral", "mixtral", "opt", "phi3", "qwen2",
	"qwen2_moe", "qwen3", "qwen3_moe"}

func (c *hfConfig) model() (Model, error) {
	c.typ = c.str("model_type")
	if c.err != nil {
		return Model{}, c.err
	}
	if c.typ == "" {
		return Model{}, fmt.Errorf("sizing: config.json: missing key model_type: %w", ErrInvalid)
	}
	typ := c.typ
	switch typ {
	case "RefinedWeb", "RefinedWebModel":
		typ = "falcon"
	case "gemma3":
		if c.outer == nil {
			return Model{}, fmt.Errorf("sizing: config.json (gemma3): missing key text_config: %w", ErrInvalid)
		}
	}
	if i := sort.SearchStrings(configTypes, typ); i == len(configTypes) || configTypes[i] != typ {
		return Model{}, fmt.Errorf("sizing: config.json: model_type %s is not one ReadConfig knows (%s): %w",
			text.Quote(c.typ, 64), strings.Join(configTypes, ", "), ErrInvalid)
	}
	m := Model{Name: c.str("_name_or_path")}
	if m.Name == "" {
		m.Name = c.typ
	}
	switch typ {
	case "gpt2":
		m.Layers, m.Hidden, m.Heads = c.int("n_layer"), c.int("n_embd"), c.int("n_head")
		m.FFN = c.intOr(4*m.Hidden, "n_inner")
		m.Vocab, m.Positions = c.int("vocab_size"), c.int("n_positions")
		m.Context, m.LinearBias, m.TiedEmbeddings = m.Positions, true, c.boolOr(true, "tie_word_embeddings")
		return m, c.err
	case "opt":
		m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers"), c.int("hidden_size"), c.int("num_attention_heads")
		m.FFN, m.Vocab = c.int("ffn_dim"), c.int("vocab_size")
		m.Context = c.int("max_position_embeddings")
		m.Positions = m.Context + 2 // OPT's learned positions are offset by 2
		m.LinearBias, m.TiedEmbeddings = true, c.boolOr(true, "tie_word_embeddings")
		return m, c.err
	case "bloom":
		m.Layers, m.Hidden, m.Heads = c.int("n_layer", "num_hidden_layers"), c.int("hidden_size", "n_embed"), c.int("n_head", "num_attention_heads")
		m.FFN, m.Vocab = 4*m.Hidden, c.int("vocab_size")
		m.LinearBias, m.TiedEmbeddings = true, c.boolOr(true, "tie_word_embeddings")
		return m, c.err // ALiBi positions: no table and no fixed window
	case "gpt_neox":
		m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers"), c.int("hidden_size"), c.int("num_attention_heads")
		m.FFN, m.Vocab = c.int("intermediate_size"), c.int("vocab_size")
		m.Context = c.intOr(0, "max_position_embeddings")
		m.LinearBias, m.TiedEmbeddings = true, c.boolOr(false, "tie_word_embeddings")
		return m, c.err
	case "falcon":
		m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers", "n_layer"), c.int("hidden_size"), c.int("num_attention_heads", "n_head")
		m.FFN, m.Vocab = c.intOr(4*m.Hidden, "ffn_hidden_size"), c.int("vocab_size")
		m.Context = c.intOr(2048, "max_position_embeddings")
		m.NormBias, m.TiedEmbeddings = true, c.boolOr(true, "tie_word_embeddings")
		if c.boolOr(false, "bias") {
			m.LinearBias = true
		}
		switch {
		case c.boolOr(false, "new_decoder_architecture"):
			m.KVHeads = c.intOr(m.Heads, "num_kv_heads", "n_head_kv") // two norms: ln_attn, ln_mlp
		case c.boolOr(true, "multi_query"):
			m.KVHeads = 1
		}
		if !c.boolOr(false, "new_decoder_architecture") && c.boolOr(true, "parallel_attn") {
			m.NormsPerLayer = 1 // one input norm feeds attention and the FFN
		}
		return m, c.err
	}

	// The Llama-shaped families: RMSNorm, rotary positions, gated FFN.
	m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers"), c.int("hidden_size"), c.int("num_attention_heads")
	m.KVHeads = c.intOr(m.Heads, "num_key_value_heads")
	m.HeadDim = c.intOr(0, "head_dim")
	m.Vocab = c.int("vocab_size")
	m.Context = c.intOr(0, "max_position_embeddings")
	m.GatedFFN = true
	m.TiedEmbeddings = c.boolOr(false, "tie_word_embeddings")
	m.QKVBias = c.boolOr(false, "attention_bias")
	if m.HeadDim > 0 && m.Heads > 0 && m.HeadDim*m.Heads == m.Hidden {
		m.HeadDim = 0 // the default; keep the model minimal
	}
	switch typ {
	case "llama", "mistral", "phi3":
		m.FFN = c.int("intermediate_size")
		m.SlidingWindow = c.intOr(0, "sliding_window")
	case "mixtral":
		m.FFN = c.int("intermediate_size")
		m.Experts, m.ExpertsPerToken = c.int("num_local_experts"), c.int("num_experts_per_tok")
		m.SlidingWindow = c.intOr(0, "sliding_window")
	case "qwen2", "qwen3", "qwen2_moe", "qwen3_moe":
		m.FFN = c.int("intermediate_size")
		if typ == "qwen2" || typ == "qwen2_moe" {
			m.QKVBias = true // Qwen2's query, key and value projections have biases
		} else {
			m.QKNorm = true
		}
		if c.boolOr(false, "use_sliding_window") {
			// Layers from max_window_layers on use the window (Qwen2's modelling code).
			m.SlidingWindow = c.intOr(0, "sliding_window")
			m.SlidingLayers = max(0, m.Layers-c.intOr(m.Layers, "max_window_layers"))
			if m.SlidingLayers == 0 {
				m.SlidingWindow = 0
			}
		}
		if typ == "qwen2_moe" || typ == "qwen3_moe" {
			m.Experts, m.ExpertsPerToken = c.int("num_experts"), c.int("num_experts_per_tok")
			m.ExpertFFN = c.int("moe_intermediate_size")
			m.SharedFFN = c.intOr(0, "shared_expert_intermediate_size")
			// A layer is sparse when (i+1) is a multiple of decoder_sparse_step and
			// it is not among mlp_only_layers.
			step := max(1, c.intOr(1, "decoder_sparse_step"))
			only := map[int]bool{}
			if v, _ := c.raw("mlp_only_layers"); v != nil {
				var list []int
				if err := json.Unmarshal(v, &list); err != nil {
					c.fail("mlp_only_layers is not a list of layer numbers")
				}
				for _, i := range list {
					only[i] = true
				}
			}
			if c.err == nil && m.Layers <= 1<<20 {
				for i := 0; i < m.Layers; i++ {
					if only[i] || (i+1)%step != 0 {
						m.DenseLayers++
					}
				}
			}
		}
	case "gemma", "gemma2", "gemma3", "gemma3_text":
		m.FFN = c.int("intermediate_size")
		m.HeadDim = c.int("head_dim") // Gemma's head_dim is not Hidden/Heads
		m.TiedEmbeddings = c.boolOr(true, "tie_word_embeddings")
		if typ != "gemma" {
			m.NormsPerLayer = 4 // before and after attention and the FFN
			m.SlidingWindow = c.intOr(0, "sliding_window")
			switch n, ok := c.count("layer_types", "sliding_attention"); {
			case ok:
				m.SlidingLayers = n
			case typ == "gemma2":
				m.SlidingLayers = (m.Layers + 1) / 2 // even layers slide
			default:
				// Gemma 3: every sliding_window_pattern-th layer is global.
				p := max(1, c.intOr(6, "sliding_window_pattern"))
				m.SlidingLayers = m.Layers - m.Layers/p
			}
			if m.SlidingLayers == 0 {
				m.SlidingWindow = 0
			}
		}
		if typ == "gemma3" || typ == "gemma3_text" {
			m.QKNorm = true
		}
	case "deepseek_v2", "deepseek_v3":
		m.FFN = c.int("intermediate_size")
		m.KVLoRARank, m.QLoRARank = c.int("kv_lora_rank"), c.intOr(0, "q_lora_rank")
		m.RopeHeadDim = c.int("qk_rope_head_dim")
		m.HeadDim = c.int("qk_nope_head_dim") + m.RopeHeadDim
		m.VHeadDim = c.int("v_head_dim")
		m.KVHeads = 0 // latent attention has no separate KV heads
		if e := c.intOr(0, "n_routed_experts"); e > 1 {
			m.Experts, m.ExpertsPerToken = e, c.int("num_experts_per_tok")
			m.ExpertFFN = c.int("moe_intermediate_size")
			m.SharedFFN = c.intOr(0, "n_shared_experts") * m.ExpertFFN
			m.DenseLayers = min(m.Layers, c.intOr(0, "first_k_dense_replace"))
		}
	case "gpt_oss":
		m.FFN = c.int("intermediate_size")
		m.Experts, m.ExpertsPerToken = c.int("num_local_experts"), c.int("num_experts_per_tok", "experts_per_token")
		m.QKVBias = true
		m.SlidingWindow = c.intOr(0, "sliding_window")
		if n, ok := c.count("layer_types", "sliding_attention"); ok {
			m.SlidingLayers = n
		} else {
			m.SlidingLayers = (m.Layers + 1) / 2 // alternating, sliding first
		}
		if m.SlidingLayers == 0 {
			m.SlidingWindow = 0
		}
	}
	if m.SlidingWindow > 0 && m.Context > 0 && m.SlidingWindow >= m.Context {
		m.SlidingWindow, m.SlidingLayers = 0, 0 // a window as long as the context changes nothing
	}
	return m, c.err
}
