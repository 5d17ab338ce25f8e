package sizing

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// family reads one family's keys of a config.json into m, whose Name is set; a
// problem is recorded in c.
type family func(c *hfConfig, m *Model)

// families are the model_type values ReadConfig reads, each with its reader.
var families = map[string]family{
	"gpt2":            readGPT2,
	"opt":             readOPT,
	"bloom":           readBLOOM,
	"gpt_neox":        readGPTNeoX,
	"falcon":          readFalcon,
	"RefinedWeb":      readFalcon, // Falcon's older names
	"RefinedWebModel": readFalcon,
	"llama":           readLlama,
	"mistral":         readLlama,
	"phi3":            readLlama,
	"mixtral":         readMixtral,
	"qwen2":           readQwen,
	"qwen3":           readQwen,
	"qwen2_moe":       readQwen,
	"qwen3_moe":       readQwen,
	"gemma":           readGemma,
	"gemma2":          readGemma,
	"gemma3":          readGemma,
	"gemma3_text":     readGemma,
	"deepseek_v2":     readDeepSeek,
	"deepseek_v3":     readDeepSeek,
	"gpt_oss":         readGPTOSS,
}

// familyNames lists the model_type values of families, sorted, for a message.
func familyNames() string {
	names := make([]string, 0, len(families))
	for n := range families {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func (c *hfConfig) model() (Model, error) {
	c.typ = c.str("model_type")
	if c.err != nil {
		return Model{}, c.err
	}
	if c.typ == "" {
		return Model{}, fmt.Errorf("sizing: config.json: missing key model_type: %w", ErrInvalid)
	}
	read, ok := families[c.typ]
	if !ok {
		return Model{}, fmt.Errorf("sizing: config.json: model_type %s is not one ReadConfig knows (%s): %w",
			quote(c.typ), familyNames(), ErrInvalid)
	}
	m := Model{Name: c.str("_name_or_path")}
	if m.Name == "" {
		m.Name = c.typ
	}
	read(c, &m)
	if m.SlidingWindow > 0 && m.Context > 0 && m.SlidingWindow >= m.Context {
		m.SlidingWindow, m.SlidingLayers = 0, 0 // a window as long as the context changes nothing
	}
	return m, c.err
}

func readGPT2(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("n_layer"), c.int("n_embd"), c.int("n_head")
	m.FFN = c.intOr(4*m.Hidden, "n_inner")
	m.Vocab, m.Positions = c.int("vocab_size"), c.int("n_positions")
	m.Context, m.LinearBias, m.TiedEmbeddings = m.Positions, true, c.boolOr(true, "tie_word_embeddings")
}

func readOPT(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers"), c.int("hidden_size"), c.int("num_attention_heads")
	m.FFN, m.Vocab = c.int("ffn_dim"), c.int("vocab_size")
	m.Context = c.int("max_position_embeddings")
	m.Positions = m.Context + 2 // OPT's learned positions are offset by 2
	m.LinearBias, m.TiedEmbeddings = true, c.boolOr(true, "tie_word_embeddings")
}

// readBLOOM: ALiBi positions, so no position table and no fixed window.
func readBLOOM(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("n_layer", "num_hidden_layers"), c.int("hidden_size", "n_embed"), c.int("n_head", "num_attention_heads")
	m.FFN, m.Vocab = 4*m.Hidden, c.int("vocab_size")
	m.LinearBias, m.TiedEmbeddings = true, c.boolOr(true, "tie_word_embeddings")
}

func readGPTNeoX(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers"), c.int("hidden_size"), c.int("num_attention_heads")
	m.FFN, m.Vocab = c.int("intermediate_size"), c.int("vocab_size")
	m.Context = c.intOr(0, "max_position_embeddings")
	m.LinearBias, m.TiedEmbeddings = true, c.boolOr(false, "tie_word_embeddings")
}

func readFalcon(c *hfConfig, m *Model) {
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
}

// llamaShape reads what the Llama-shaped families share: RMSNorm, rotary
// positions, a gated FFN, and Llama's key names.
func llamaShape(c *hfConfig, m *Model) {
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
}

// readLlama reads Llama, Mistral and Phi-3.
func readLlama(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.FFN = c.int("intermediate_size")
	m.SlidingWindow = c.intOr(0, "sliding_window")
}

func readMixtral(c *hfConfig, m *Model) {
	readLlama(c, m)
	m.Experts, m.ExpertsPerToken = c.int("num_local_experts"), c.int("num_experts_per_tok")
}

// readQwen reads Qwen2 and Qwen3, dense and MoE.
func readQwen(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.FFN = c.int("intermediate_size")
	if c.typ == "qwen2" || c.typ == "qwen2_moe" {
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
	if c.typ == "qwen2_moe" || c.typ == "qwen3_moe" {
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
}

// readGemma reads Gemma 1, 2 and 3; gemma3 is the multimodal wrapper, read for
// its text_config.
func readGemma(c *hfConfig, m *Model) {
	if c.typ == "gemma3" && c.outer == nil {
		c.fail("missing key text_config")
		return
	}
	llamaShape(c, m)
	m.FFN = c.int("intermediate_size")
	m.HeadDim = c.int("head_dim") // Gemma's head_dim is not Hidden/Heads
	m.TiedEmbeddings = c.boolOr(true, "tie_word_embeddings")
	if c.typ != "gemma" {
		m.NormsPerLayer = 4 // before and after attention and the FFN
		m.SlidingWindow = c.intOr(0, "sliding_window")
		switch n, ok := c.count("layer_types", "sliding_attention"); {
		case ok:
			m.SlidingLayers = n
		case c.typ == "gemma2":
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
	if c.typ == "gemma3" || c.typ == "gemma3_text" {
		m.QKNorm = true
	}
}

// readDeepSeek reads DeepSeek-V2 and V3: latent attention, shared experts and
// dense first layers.
func readDeepSeek(c *hfConfig, m *Model) {
	llamaShape(c, m)
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
}

func readGPTOSS(c *hfConfig, m *Model) {
	llamaShape(c, m)
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
