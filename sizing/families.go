package sizing

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
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
	"minicpm":         readMiniCPM,
	"internlm3":       readInternLM3,
	"internlm2":       readInternLM2,
	"baichuan":        readBaichuan,
	"mixtral":         readMixtral,
	"qwen2":           readQwen,
	"qwen3":           readQwen,
	"qwen2_moe":       readQwen,
	"qwen3_moe":       readQwen,
	"qwen3_next":      readQwen3Next,
	"gemma":           readGemma,
	"gemma2":          readGemma,
	"gemma3":          readGemma,
	"gemma3_text":     readGemma,
	"deepseek_v2":     readDeepSeek,
	"deepseek_v3":     readDeepSeek,
	"kimi_k2":         readDeepSeek,
	"gpt_oss":         readGPTOSS,
	"chatglm":         readChatGLM,
	"glm":             readGLM,
	"glm4":            readGLM,
	"glm4_moe":        readGLM4MoE,
	"ernie4_5":        readERNIE,
	"ernie4_5_moe":    readERNIE,
	"llama4":          readLlama4,
	"llama4_text":     readLlama4,
}

// architectureTypes gives the model_type of the architectures class names a
// config.json without model_type may list (MiniCPM-2B's names only
// MiniCPMForCausalLM).
var architectureTypes = map[string]string{
	"MiniCPMForCausalLM":              "minicpm",
	"LlamaForCausalLM":                "llama",
	"MistralForCausalLM":              "mistral",
	"MixtralForCausalLM":              "mixtral",
	"Qwen2ForCausalLM":                "qwen2",
	"Qwen3ForCausalLM":                "qwen3",
	"BaichuanForCausalLM":             "baichuan",
	"ChatGLMModel":                    "chatglm",
	"ChatGLMForConditionalGeneration": "chatglm",
	"InternLM2ForCausalLM":            "internlm2",
	"InternLM3ForCausalLM":            "internlm3",
	"GPT2LMHeadModel":                 "gpt2",
	"OPTForCausalLM":                  "opt",
	"BloomForCausalLM":                "bloom",
	"GPTNeoXForCausalLM":              "gpt_neox",
	"FalconForCausalLM":               "falcon",
	"DeepseekV2ForCausalLM":           "deepseek_v2",
	"DeepseekV3ForCausalLM":           "deepseek_v3",
}

// familyNames lists the model_type values of families, sorted, for a message;
// Falcon's older names (RefinedWeb...) and the language models of multimodal
// wrappers (gemma3_text, llama4_text) are left out.
func familyNames() string {
	names := make([]string, 0, len(families))
	for n := range families {
		if strings.ToLower(n) == n && !strings.HasSuffix(n, "_text") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func (c *hfConfig) model() (Model, error) {
	c.typ = c.str("model_type")
	if c.err != nil {
		return Model{}, c.err
	}
	var notes string
	if c.typ == "" {
		arch := ""
		if list, _ := c.strings("architectures"); len(list) > 0 {
			arch = list[0]
		}
		if c.err != nil {
			return Model{}, c.err
		}
		if c.typ = architectureTypes[arch]; c.typ == "" {
			if arch != "" {
				return Model{}, fmt.Errorf("sizing: config.json: missing key model_type, and architectures %s is not one ReadConfig knows: %w", quote(arch), ErrInvalid)
			}
			return Model{}, fmt.Errorf("sizing: config.json: missing keys model_type and architectures: not a model's config.json (a tokenizer's or generation config?): %w", ErrInvalid)
		}
		notes = "config.json has no model_type: read as " + c.typ + ", the family of its architectures " + arch
	}
	read, ok := families[c.typ]
	if !ok {
		return Model{}, fmt.Errorf("sizing: config.json: model_type %s is not one ReadConfig knows (it reads %s); "+
			"describe the model by hand: its parameter count (-params) or a sizing.Model: %w",
			text.Quote(c.typ, 24), familyNames(), ErrInvalid)
	}
	m := Model{Name: c.str("_name_or_path"), Notes: notes}
	if m.Name == "" {
		m.Name = c.typ
	}
	read(c, &m)
	if m.SlidingWindow > 0 && m.Context > 0 && m.SlidingWindow >= m.Context {
		m.SlidingWindow, m.SlidingLayers = 0, 0 // a window as long as the context changes nothing
	}
	if c.err == nil && !m.hasArch() {
		c.fail("missing the layers, hidden size, heads or vocabulary of a model") // a zero in a key read
	}
	if m.MTPLayers > 0 {
		addNote(&m.Notes, fmt.Sprintf("the checkpoint also holds %d multi-token-prediction layer(s) for speculative decoding, left out of the parameter count as published counts do", m.MTPLayers))
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

// readBLOOM: ALiBi positions, so no position table and no fixed window; a
// LayerNorm on the embeddings (word_embeddings_layernorm).
func readBLOOM(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("n_layer", "num_hidden_layers"), c.int("hidden_size", "n_embed"), c.int("n_head", "num_attention_heads")
	m.FFN, m.Vocab = 4*m.Hidden, c.int("vocab_size")
	m.LinearBias, m.TiedEmbeddings, m.EmbedNorm = true, c.boolOr(true, "tie_word_embeddings"), true
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
// positions, a gated FFN of intermediate_size, and Llama's key names. It leaves
// biases to each family.
func llamaShape(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("num_hidden_layers"), c.int("hidden_size"), c.int("num_attention_heads")
	m.KVHeads = c.intOr(m.Heads, "num_key_value_heads")
	m.HeadDim = c.intOr(0, "head_dim")
	m.Vocab = c.int("vocab_size")
	m.Context = c.intOr(0, "max_position_embeddings")
	m.FFN = c.int("intermediate_size")
	m.GatedFFN = true
	m.TiedEmbeddings = c.boolOr(false, "tie_word_embeddings")
	if m.HeadDim > 0 && m.Heads > 0 && m.HeadDim*m.Heads == m.Hidden {
		m.HeadDim = 0 // the default; keep the model minimal
	}
}

// readLlama reads Llama, Mistral and Phi-3. attention_bias puts biases on all
// four attention projections (LlamaAttention).
func readLlama(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKVBias = c.boolOr(false, "attention_bias")
	m.OutBias = m.QKVBias
	m.SlidingWindow = c.intOr(0, "sliding_window")
}

// readMiniCPM reads MiniCPM: Llama's layout with tied embeddings unless the
// config says otherwise (MiniCPMConfig's default); scale_emb, dim_model_base and
// scale_depth scale activations, not weights.
func readMiniCPM(c *hfConfig, m *Model) {
	readLlama(c, m)
	m.TiedEmbeddings = c.boolOr(true, "tie_word_embeddings")
}

func readMixtral(c *hfConfig, m *Model) {
	readLlama(c, m)
	m.Experts, m.ExpertsPerToken = c.int("num_local_experts"), c.int("num_experts_per_tok")
}

// readInternLM2 reads InternLM2 and 2.5: Llama's shape with the query, key and
// value in one wqkv matrix; bias puts biases on wqkv and wo.
func readInternLM2(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKVBias = c.boolOr(false, "bias")
	m.OutBias = m.QKVBias
}

// readInternLM3: Llama's shape; qkv_bias for the query, key and value
// projections, bias for the output projection.
func readInternLM3(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKVBias, m.OutBias = c.boolOr(false, "qkv_bias"), c.boolOr(false, "bias")
}

// readBaichuan reads Baichuan and Baichuan 2: Llama's layout with the query, key
// and value in one W_pack matrix, no biases. The 7B models use rotary positions
// up to max_position_embeddings; the 13B ones ALiBi, their context given by
// model_max_length.
func readBaichuan(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.Context = c.intOr(0, "max_position_embeddings", "model_max_length")
}

// readQwen reads Qwen2 and Qwen3, dense and MoE.
func readQwen(c *hfConfig, m *Model) {
	llamaShape(c, m)
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
		qwenMoE(c, m)
	}
}

// qwenMoE reads the experts of Qwen's MoE models. A layer is sparse when (i+1)
// is a multiple of decoder_sparse_step and it is not among mlp_only_layers; a
// shared expert has a gate of Hidden weights (Qwen2MoeSparseMoeBlock).
func qwenMoE(c *hfConfig, m *Model) {
	m.Experts, m.ExpertsPerToken = c.int("num_experts"), c.int("num_experts_per_tok")
	m.ExpertFFN = c.int("moe_intermediate_size")
	m.SharedFFN = c.intOr(0, "shared_expert_intermediate_size")
	m.SharedGate = m.SharedFFN > 0
	step := max(1, c.intOr(1, "decoder_sparse_step"))
	list, _ := c.ints("mlp_only_layers")
	only := map[int]bool{}
	for _, i := range list {
		only[i] = true
	}
	if c.err == nil && m.Layers <= 1<<20 {
		for i := 0; i < m.Layers; i++ {
			if only[i] || (i+1)%step != 0 {
				m.DenseLayers++
			}
		}
	}
}

// readQwen3Next reads Qwen3-Next: of every full_attention_interval layers the
// last is gated full attention (a query projection twice as wide, whose second
// half gates the output; norms on queries and keys), the others Gated DeltaNet
// linear attention, and every layer a Qwen MoE block with a gated shared expert.
// A linear-attention layer (Qwen3NextGatedDeltaNet) holds an input projection to
// queries, keys, values and output gates (2·K + 2·V, with K and V the key and
// value widths: heads × head dimension), one to the per-head decay and mixing
// rates (2 × value heads), a causal convolution over queries, keys and values
// ((2·K + V) × the kernel), a decay bias and log-rate per value head, a gated
// norm of one value head and the output projection (V × Hidden). Its state per
// sequence is the convolution's last kernel − 1 inputs and one key × value matrix
// per value head. The multi-token-prediction layers (mtp_num_hidden_layers) are
// left out of the count.
func readQwen3Next(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKNorm, m.AttnGate = true, true
	qwenMoE(c, m)
	every := c.intOr(4, "full_attention_interval")
	if n, ok := c.count("layer_types", "linear_attention"); ok {
		m.LinearLayers = n
	} else if every > 0 {
		m.LinearLayers = m.Layers - m.Layers/every
	}
	kh, vh := c.int("linear_num_key_heads"), c.int("linear_num_value_heads")
	kd, vd := c.int("linear_key_head_dim"), c.int("linear_value_head_dim")
	kernel := c.int("linear_conv_kernel_dim")
	if c.err != nil || kh > 1<<16 || vh > 1<<16 || kd > 1<<16 || vd > 1<<16 || kernel > 1<<10 || m.Hidden > 1<<20 {
		c.fail("linear attention of %d key and %d value heads of %d and %d, kernel %d, is past what ReadConfig reads", kh, vh, kd, vd, kernel)
		return
	}
	k, v := kh*kd, vh*vd
	m.LinearParams = m.Hidden*(2*k+2*v) + m.Hidden*2*vh + (2*k+v)*kernel + 2*vh + vd + v*m.Hidden
	m.LinearState = (2*k+v)*(kernel-1) + vh*kd*vd
	m.MTPLayers = c.intOr(0, "mtp_num_hidden_layers", "num_nextn_predict_layers")
}

// readGemma reads Gemma 1, 2 and 3; gemma3 is the multimodal wrapper, read for
// its text_config.
func readGemma(c *hfConfig, m *Model) {
	if c.typ == "gemma3" && c.outer == nil {
		c.fail("missing key text_config")
		return
	}
	llamaShape(c, m)
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

// readDeepSeek reads DeepSeek-V2 and V3 and Kimi K2 (V3's shape): latent
// attention, shared experts and dense first layers. V3's router (topk_method
// noaux_tc) adds a score-correction bias per expert; its
// num_nextn_predict_layers multi-token-prediction layers are left out of the
// count, as the published 671B does.
func readDeepSeek(c *hfConfig, m *Model) {
	llamaShape(c, m)
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
		m.RouterBias = c.str("topk_method") == "noaux_tc"
	}
	m.MTPLayers = c.intOr(0, "num_nextn_predict_layers")
}

// readGPTOSS reads gpt-oss: biases on the attention projections, the router
// and every expert's matrices, and a learned sink per attention head
// (GptOssAttention, GptOssExperts).
func readGPTOSS(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.Experts, m.ExpertsPerToken = c.int("num_local_experts"), c.int("num_experts_per_tok", "experts_per_token")
	m.QKVBias, m.OutBias, m.Sinks, m.RouterBias, m.ExpertBias = true, true, true, true, true
	m.SlidingWindow = c.intOr(0, "sliding_window")
	if n, ok := c.count("layer_types", "sliding_attention"); ok {
		m.SlidingLayers = n
	} else {
		m.SlidingLayers = (m.Layers + 1) / 2 // alternating, sliding first
	}
	if m.SlidingLayers == 0 || m.SlidingWindow == 0 {
		m.SlidingWindow, m.SlidingLayers = 0, 0
	}
}

// readChatGLM reads ChatGLM2, ChatGLM3 and GLM-4 as THUDM first published them
// (model_type chatglm), in their own key names: num_layers, padded_vocab_size,
// ffn_hidden_size, kv_channels (the head dimension), multi_query_group_num (the
// KV heads under multi_query_attention), add_qkv_bias, add_bias_linear, and
// seq_length, the context window. The query, key and value share one matrix,
// the FFN is SwiGLU, the output layer is untied, and the checkpoint stores the
// rotary embedding's inverse frequencies, kv_channels/4 values
// (RotaryEmbedding(kv_channels/2) in modeling_chatglm.py).
func readChatGLM(c *hfConfig, m *Model) {
	m.Layers, m.Hidden, m.Heads = c.int("num_layers"), c.int("hidden_size"), c.int("num_attention_heads")
	m.HeadDim = c.intOr(0, "kv_channels")
	if c.boolOr(false, "multi_query_attention") {
		m.KVHeads = c.int("multi_query_group_num")
	}
	m.FFN, m.Vocab = c.int("ffn_hidden_size"), c.int("padded_vocab_size", "vocab_size")
	m.Context = c.intOr(0, "seq_length")
	m.GatedFFN, m.TiedEmbeddings = true, c.boolOr(false, "tie_word_embeddings")
	m.QKVBias = c.boolOr(false, "add_qkv_bias")
	if c.boolOr(false, "add_bias_linear") {
		c.fail("add_bias_linear true (biases on the output and FFN matrices) is not a layout ReadConfig reads")
	}
	if !c.boolOr(true, "rmsnorm") {
		m.NormBias = true // LayerNorm
	}
	d := m.HeadDim
	if d == 0 && m.Heads > 0 {
		d = m.Hidden / m.Heads
	}
	m.Buffers = d / 4
	if m.HeadDim > 0 && m.HeadDim*m.Heads == m.Hidden {
		m.HeadDim = 0
	}
}

// readGLM reads GLM-4 in transformers' own format (glm: GlmForCausalLM) and
// GLM-4-0414 (glm4: Glm4ForCausalLM, with norms after attention and the FFN as
// well as before): attention_bias puts biases on the query, key and value
// projections only.
func readGLM(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKVBias = c.boolOr(false, "attention_bias")
	if c.typ == "glm4" {
		m.NormsPerLayer = 4
	}
}

// readGLM4MoE reads GLM-4.5 and GLM-4.5-Air (Glm4MoeForCausalLM): DeepSeek-V3's
// experts (shared experts, dense first layers, a score-correction bias on the
// router) under grouped-query attention with biases on the query, key and value
// projections and, with use_qk_norm, norms on queries and keys. Its
// num_nextn_predict_layers multi-token-prediction layers are left out of the
// count.
func readGLM4MoE(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKVBias, m.QKNorm = c.boolOr(false, "attention_bias"), c.boolOr(false, "use_qk_norm")
	m.Experts, m.ExpertsPerToken = c.int("n_routed_experts"), c.int("num_experts_per_tok")
	m.ExpertFFN = c.int("moe_intermediate_size")
	m.SharedFFN = c.intOr(0, "n_shared_experts") * m.ExpertFFN
	m.DenseLayers = min(m.Layers, c.intOr(0, "first_k_dense_replace"))
	m.RouterBias = true
	m.MTPLayers = c.intOr(0, "num_nextn_predict_layers")
}

// readERNIE reads ERNIE 4.5, dense (ernie4_5) and MoE (ernie4_5_moe): Llama's
// layout, use_bias on the attention projections. The MoE layers run from
// moe_layer_start_index to moe_layer_end_index (the last layer when unset or
// -1) every moe_layer_interval layers, each with moe_num_experts routed experts
// of moe_intermediate_size (the first figure where the multimodal configs list
// the text experts' and the vision experts'), moe_num_shared_experts shared
// ones of the same width, and a score-correction bias on the router
// (moe_statics); the other layers are dense of intermediate_size.
func readERNIE(c *hfConfig, m *Model) {
	llamaShape(c, m)
	m.QKVBias = c.boolOr(false, "use_bias")
	m.OutBias = m.QKVBias
	if m.QKVBias {
		addNote(&m.Notes, "use_bias: the FFN's biases are left out of the count")
	}
	if c.typ != "ernie4_5_moe" {
		return
	}
	m.Experts, m.ExpertsPerToken = c.firstInt(0, "moe_num_experts"), c.int("moe_k")
	m.ExpertFFN = c.firstInt(0, "moe_intermediate_size")
	m.SharedFFN = c.intOr(0, "moe_num_shared_experts") * m.ExpertFFN
	m.RouterBias = true
	start, step := c.intOr(0, "moe_layer_start_index"), max(1, c.intOr(1, "moe_layer_interval"))
	end := m.Layers - 1
	if v, _ := c.raw("moe_layer_end_index"); v != nil && string(v) != "-1" {
		end = min(end, c.intOr(end, "moe_layer_end_index"))
	}
	if c.err == nil && m.Layers <= 1<<20 {
		for i := 0; i < m.Layers; i++ {
			if i < start || i > end || (i-start)%step != 0 {
				m.DenseLayers++
			}
		}
	}
	m.MTPLayers = c.intOr(0, "num_nextn_predict_layers")
}

// readLlama4 reads Llama 4's language model (llama4_text, the text_config of a
// llama4 config): MoE layers (moe_layers, or every interleave_moe_layer_step-th)
// of num_local_experts routed experts and one shared expert, each of
// intermediate_size, between dense layers of intermediate_size_mlp. Layers with
// rotary positions (no_rope_layers marks them 1; without it or when it is empty,
// all but every no_rope_layer_interval-th, 4 by default) attend within chunks of attention_chunk_size tokens, so they keep at
// most that many tokens of KV cache; the others attend globally. The query and
// key norms are weightless L2 norms.
func readLlama4(c *hfConfig, m *Model) {
	if c.typ == "llama4" && c.outer == nil {
		c.fail("missing key text_config")
		return
	}
	llamaShape(c, m)
	m.QKVBias = c.boolOr(false, "attention_bias")
	m.OutBias = m.QKVBias
	m.FFN = c.int("intermediate_size_mlp")
	m.Experts, m.ExpertsPerToken = c.int("num_local_experts"), c.int("num_experts_per_tok")
	m.ExpertFFN = c.int("intermediate_size")
	m.SharedFFN = m.ExpertFFN
	moe := 0
	if list, ok := c.ints("moe_layers"); ok {
		moe = len(list)
	} else if step := c.intOr(1, "interleave_moe_layer_step"); step > 0 {
		moe = m.Layers / step
	}
	m.DenseLayers = max(0, m.Layers-moe)
	if chunk := c.intOr(0, "attention_chunk_size"); chunk > 0 {
		m.SlidingWindow = chunk
		if list, _ := c.ints("no_rope_layers"); len(list) > 0 {
			for _, r := range list {
				m.SlidingLayers += min(max(r, 0), 1)
			}
		} else if every := c.intOr(4, "no_rope_layer_interval"); every > 0 {
			m.SlidingLayers = m.Layers - m.Layers/every // Llama4TextConfig's default
		}
		if m.SlidingLayers == 0 {
			m.SlidingWindow = 0
		}
	}
}
