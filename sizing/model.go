package sizing

import (
	"fmt"
	"strings"
)

// Model describes a transformer by its architecture. Only Params is needed for a rough
// answer; the architecture fields make every term exact. The JSON keys are this
// package's own (snake_case, with the unit where there is one), not those of a
// Hugging Face config.json: read a config.json with ReadConfig, and a GGUF or
// safetensors file with ReadGGUF or ReadSafetensors. Unknown keys are rejected
// when a Model is decoded from JSON.
type Model struct {
	Name    string `json:"name"`
	Params  int64  `json:"params"` // total parameters; derived from the architecture when zero
	Layers  int    `json:"layers"`
	Hidden  int    `json:"hidden"`
	Heads   int    `json:"heads"`
	KVHeads int    `json:"kv_heads"` // KVHeads < Heads: GQA; 1: MQA; zero: same as Heads
	HeadDim int    `json:"head_dim"` // zero: Hidden/Heads; with latent attention, the query/key head dimension
	FFN     int    `json:"ffn"`      // intermediate size of one dense FFN (of one expert for MoE without ExpertFFN)
	Vocab   int    `json:"vocab"`

	GatedFFN       bool `json:"gated_ffn"` // SwiGLU-style: gate, up and down matrices
	TiedEmbeddings bool `json:"tied_embeddings"`

	Experts         int `json:"experts"`           // MoE routed experts per layer; zero: dense
	ExpertsPerToken int `json:"experts_per_token"` // experts routed per token
	// ExpertFFN is the intermediate size of one routed expert (moe_intermediate_size);
	// zero: FFN. SharedFFN is the intermediate size of the experts every token
	// passes through, all together (DeepSeek's n_shared_experts ×
	// moe_intermediate_size, Qwen2-MoE's shared_expert_intermediate_size); zero: none.
	// DenseLayers of the Layers have a dense FFN of width FFN instead of experts
	// (DeepSeek's first_k_dense_replace; the layers off Qwen-MoE's decoder_sparse_step).
	ExpertFFN   int `json:"expert_ffn"`
	SharedFFN   int `json:"shared_expert_ffn"`
	DenseLayers int `json:"dense_layers"`

	// LinearBias: every linear layer has a bias and the norms are LayerNorm with a
	// bias (GPT-2, GPT-3, OPT). QKVBias: only the query, key and value projections
	// have biases (Qwen2). NormBias: the norms are LayerNorm with a bias while the
	// linear layers have none (Falcon). Positions: size of a learned absolute
	// position table (GPT-3: 2048); zero for rotary embeddings, which have no
	// parameters.
	LinearBias bool `json:"linear_bias"`
	QKVBias    bool `json:"qkv_bias"`
	NormBias   bool `json:"norm_bias"`
	Positions  int  `json:"positions"`
	// NormsPerLayer is the norms in each layer; zero: 2 (before attention and
	// before the FFN). Gemma 2 and 3 have 4, Falcon-7B's parallel block 1. QKNorm:
	// a norm of HeadDim weights on the queries and one on the keys in each layer
	// (Qwen3, Gemma 3).
	NormsPerLayer int  `json:"norms_per_layer"`
	QKNorm        bool `json:"qk_norm"`

	// Multi-head latent attention (DeepSeek-V2 and V3), set when KVLoRARank is
	// positive: keys and values are rebuilt from a cached latent of KVLoRARank
	// values plus RopeHeadDim rotary values per token per layer, shared by every
	// head. HeadDim is then the query/key head dimension (qk_nope_head_dim +
	// qk_rope_head_dim) and VHeadDim the value head dimension (zero: HeadDim −
	// RopeHeadDim); QLoRARank is the rank of the query projection (zero: a full
	// Hidden × Heads·HeadDim projection).
	KVLoRARank  int `json:"kv_lora_rank"`
	QLoRARank   int `json:"q_lora_rank"`
	RopeHeadDim int `json:"rope_head_dim"`
	VHeadDim    int `json:"v_head_dim"`

	// Context is the model's context window in tokens (max_position_embeddings);
	// zero: unknown. Inference past it is an error. SlidingWindow is the window, in
	// tokens, of sliding-window attention layers, which keep at most that many
	// tokens of KV cache; SlidingLayers of the Layers use it (zero with a window:
	// all of them, as Mistral-7B; Gemma 2 alternates, half of them).
	Context       int `json:"context_tokens"`
	SlidingWindow int `json:"sliding_window_tokens"`
	SlidingLayers int `json:"sliding_layers"`

	// Linear attention (Qwen3-Next's Gated DeltaNet layers): LinearLayers of the
	// Layers mix tokens through a recurrent state of LinearState values per
	// sequence, which does not grow with the context, in place of attention and
	// its KV cache; LinearParams is the parameters of one such layer's token
	// mixer, in place of the attention projections.
	LinearLayers int `json:"linear_layers"`
	LinearState  int `json:"linear_state_values"`
	LinearParams int `json:"linear_params"`

	// Parameters some families hold beside the layout above, each counted by
	// ParamCount: OutBias, a bias on the attention output projection (Llama's
	// attention_bias, gpt-oss); AttnGate, a sigmoid gate on the attention output
	// computed by the query projection, which doubles it (Qwen3-Next); Sinks, one
	// learned attention sink per head in each layer (gpt-oss); RouterBias, a bias
	// per expert on the router of each MoE layer (gpt-oss's router, the score
	// correction of DeepSeek-V3, Kimi K2, GLM-4.5 and ERNIE 4.5); ExpertBias,
	// biases on every routed expert's FFN matrices (gpt-oss); SharedGate, a gate of
	// Hidden weights on the shared expert of each MoE layer (Qwen2-MoE,
	// Qwen3-Next); EmbedNorm, a norm on the embeddings (BLOOM); Buffers, elements
	// of buffers a checkpoint stores beside its parameters (ChatGLM's rotary
	// frequencies).
	OutBias    bool `json:"out_bias"`
	AttnGate   bool `json:"attention_gate"`
	Sinks      bool `json:"attention_sinks"`
	RouterBias bool `json:"router_bias"`
	ExpertBias bool `json:"expert_bias"`
	SharedGate bool `json:"shared_expert_gate"`
	EmbedNorm  bool `json:"embedding_norm"`
	Buffers    int  `json:"buffers"`
	// MTPLayers is the multi-token-prediction layers a checkpoint holds beside
	// its Layers (DeepSeek-V3, GLM-4.5, Qwen3-Next), for speculative decoding;
	// ParamCount leaves them out, as the published counts do.
	MTPLayers int `json:"mtp_layers"`

	// StoredBytes is the exact size of the weights as a file stores them (ReadGGUF,
	// ReadSafetensors; ReadConfig for a config whose MXFP4 experts it can size
	// exactly, gpt-oss's); zero: unknown. When set, Estimate's Weights term for
	// Inference and LoRA (whose frozen base is the file as stored) is this figure,
	// in place of the parameter count × the Precision's bits per weight; Precision
	// still sets the compute width. Training and QLoRA, which store the weights
	// anew, ignore it.
	StoredBytes Bytes `json:"stored_bytes"`
	// StoredPrecision is the format the weights are stored in, as the model's own
	// files state it: a config.json's quantization_config, or its torch_dtype for
	// an unquantized checkpoint (ReadConfig); a GGUF file type or the safetensors
	// dtype holding most of the bytes (ReadGGUF, ReadSafetensors). Zero: unknown.
	// Estimate does not read it (Workload.Precision is what is planned); it is what
	// a caller offers as the default inference precision.
	StoredPrecision Precision `json:"stored_precision"`
	// Notes says what reading the model assumed or could not tell, in sentences
	// joined by "; " (a shape taken from the architectures list, a quantization
	// method gpuplan does not read, a GGUF file type without a precision of its
	// own); empty: nothing was assumed. Callers show it beside their estimates.
	Notes string `json:"notes"`
}

// addNote appends a sentence to a Notes string, once.
func addNote(notes *string, s string) {
	switch {
	case s == "" || strings.Contains(*notes, s):
	case *notes == "":
		*notes = s
	default:
		*notes += "; " + s
	}
}

// HasArchitecture reports whether the fields every architecture-dependent term needs
// (layers, hidden size, heads, vocabulary) are set. Without them an estimate falls
// back to approximations from Params alone.
func (m Model) HasArchitecture() bool { return m.hasArch() }

// hasArch is HasArchitecture for the package's own use: a pointer receiver, so
// that asking does not copy the Model.
func (m *Model) hasArch() bool {
	return m.Layers > 0 && m.Hidden > 0 && m.Heads > 0 && m.Vocab > 0
}

// Validate reports every problem with m's fields, joined with errors.Join; each
// problem wraps ErrInvalid. It checks that:
//   - no size is negative;
//   - there is a parameter count: Params, or an architecture complete enough to
//     derive one (layers, hidden size, heads, vocabulary and FFN size);
//   - heads divide the hidden size when HeadDim is zero;
//   - KV heads do not exceed the heads and divide them (GQA groups are equal);
//   - ExpertsPerToken is set only with Experts, does not exceed it, and is set
//     whenever there is more than one expert (a mixture of experts routes each
//     token to a few of them, and leaving it unset would silently count them all
//     as active: Mixtral-8x7B's work and activations 3.6 times over);
//   - the derived parameter count fits int64.
//
// Params and the architecture may both be set and disagree (a checkpoint with extra
// buffers, a count rounded in a model card): that is not an error; Params wins for
// the parameter count and the architecture serves the terms that need it.
//
// A valid model costs no allocation: Validate builds its list only when something
// is wrong, so hot paths (Estimate, compute's Job.Time) call it on every use.
func (m Model) Validate() error {
	p := problems{collect: true, prefix: "sizing: model: "}
	if m.Name != "" {
		p.prefix, p.name = "sizing: model %s: ", m.Name
	}
	m.check(&p)
	return p.err()
}

// check records each problem Validate reports in p and returns the head dimension
// (headDim), which it computes for its own checks, so that Estimate divides for it
// once.
func (m *Model) check(p *problems) int {
	// A model of ordinary sizes (small) has no negative field and a parameter
	// count far from overflow; past them, one sign test covers all the sizes: the
	// OR of them is negative when one is.
	small := m.small()
	if !small && m.Params|int64(m.StoredBytes)|int64(m.Layers|m.Hidden|m.Heads|m.KVHeads|m.HeadDim|m.FFN|m.Vocab|m.Experts|
		m.ExpertsPerToken|m.Positions|m.ExpertFFN|m.SharedFFN|m.DenseLayers|m.NormsPerLayer|m.KVLoRARank|
		m.QLoRARank|m.RopeHeadDim|m.VHeadDim|m.Context|m.SlidingWindow|m.SlidingLayers|m.LinearLayers|m.LinearState|
		m.LinearParams|m.Buffers|m.MTPLayers) < 0 {
		if m.Params < 0 {
			p.add("negative Params %d", m.Params)
		}
		if m.StoredBytes < 0 {
			p.add("negative StoredBytes %d", int64(m.StoredBytes))
		}
		for _, f := range []struct {
			name string
			v    int
		}{
			{"Layers", m.Layers}, {"Hidden", m.Hidden}, {"Heads", m.Heads}, {"KVHeads", m.KVHeads},
			{"HeadDim", m.HeadDim}, {"FFN", m.FFN}, {"Vocab", m.Vocab}, {"Experts", m.Experts},
			{"ExpertsPerToken", m.ExpertsPerToken}, {"Positions", m.Positions}, {"ExpertFFN", m.ExpertFFN},
			{"SharedFFN", m.SharedFFN}, {"DenseLayers", m.DenseLayers}, {"NormsPerLayer", m.NormsPerLayer},
			{"KVLoRARank", m.KVLoRARank}, {"QLoRARank", m.QLoRARank}, {"RopeHeadDim", m.RopeHeadDim},
			{"VHeadDim", m.VHeadDim}, {"Context", m.Context}, {"SlidingWindow", m.SlidingWindow},
			{"SlidingLayers", m.SlidingLayers}, {"LinearLayers", m.LinearLayers}, {"LinearState", m.LinearState},
			{"LinearParams", m.LinearParams}, {"Buffers", m.Buffers}, {"MTPLayers", m.MTPLayers},
		} {
			if f.v < 0 {
				p.add("negative %s %d", f.name, f.v)
			}
		}
		return 0 // the checks below assume non-negative fields
	}
	if m.StoredPrecision != 0 && !m.StoredPrecision.Valid() {
		p.add("StoredPrecision %v is not a precision", m.StoredPrecision)
	}
	if m.Params == 0 && (!m.hasArch() || m.FFN == 0) {
		p.add("no parameter count: set Params, or Layers, Hidden, Heads, Vocab and FFN")
	}
	d := m.headDim() // Hidden/Heads by default: heads divide Hidden when d·Heads is Hidden
	if m.Heads > 0 && m.HeadDim == 0 && d*m.Heads != m.Hidden {
		p.add("%d heads do not divide hidden size %d (set HeadDim)", m.Heads, m.Hidden)
	}
	if m.KVHeads > 0 {
		if m.Heads == 0 {
			p.add("KVHeads %d set without Heads", m.KVHeads)
		} else if m.KVHeads > m.Heads || m.Heads%m.KVHeads != 0 {
			p.add("%d KV heads do not divide %d heads", m.KVHeads, m.Heads)
		}
	}
	if m.ExpertsPerToken > 0 && m.Experts == 0 {
		p.add("ExpertsPerToken %d set without Experts", m.ExpertsPerToken)
	} else if m.ExpertsPerToken > m.Experts {
		p.add("%d experts per token of %d experts", m.ExpertsPerToken, m.Experts)
	} else if m.Experts > 1 && m.ExpertsPerToken == 0 {
		p.add("%d experts without ExpertsPerToken (the experts each token is routed to: 2 for Mixtral-8x7B)", m.Experts)
	}
	if m.DenseLayers > m.Layers || m.SlidingLayers > m.Layers {
		p.add("%d dense and %d sliding-window layers of %d layers", m.DenseLayers, m.SlidingLayers, m.Layers)
	}
	if m.LinearLayers > m.Layers || m.LinearLayers+m.SlidingLayers > m.Layers {
		p.add("%d linear-attention and %d sliding-window layers of %d layers", m.LinearLayers, m.SlidingLayers, m.Layers)
	}
	if m.LinearLayers == 0 && (m.LinearState > 0 || m.LinearParams > 0) {
		p.add("LinearState %d and LinearParams %d set without LinearLayers", m.LinearState, m.LinearParams)
	}
	if m.SlidingLayers > 0 && m.SlidingWindow == 0 {
		p.add("SlidingLayers %d set without SlidingWindow", m.SlidingLayers)
	}
	if m.KVLoRARank > 0 && (m.HeadDim == 0 || m.RopeHeadDim >= m.HeadDim) {
		p.add("latent attention needs HeadDim %d above RopeHeadDim %d", m.HeadDim, m.RopeHeadDim)
	}
	// archSum is bounded exactly when archFits holds, which a small model
	// always does.
	if !small && m.hasArch() && m.FFN > 0 && !archFits(m, d) {
		p.add("parameter count overflows int64")
	}
	return d
}

// kvHeads returns the number of key/value heads, defaulting to Heads.
func (m *Model) kvHeads() int {
	if m.KVHeads == 0 {
		return m.Heads
	}
	return m.KVHeads
}

// headDim returns the per-head dimension, defaulting to Hidden/Heads.
func (m *Model) headDim() int {
	if m.HeadDim == 0 && m.Heads > 0 {
		return m.Hidden / m.Heads
	}
	return m.HeadDim
}

// ParamCount returns Params when set, and otherwise the count derived from the
// architecture. It returns 0 when neither is usable (Validate says why).
//
// The derivation counts, for a decoder-only transformer:
//   - embeddings V·h, plus V·h for an untied output head, plus Positions·h for
//     learned position embeddings;
//   - per layer, attention: h·(a·d) for the query, 2·h·(k·d) for keys and values
//     (k key/value heads of dimension d, so GQA and MQA shrink them) and (a·d)·h for
//     the output projection;
//   - per layer, FFN: 3·h·f when gated (SwiGLU: gate, up, down), 2·h·f otherwise;
//     for MoE, each of E experts holds one FFN and the router adds h·E;
//   - norms: two per layer and one final, h each (RMSNorm), 2h with LayerNorm biases;
//   - biases when LinearBias (all linear layers) or QKVBias (query, key, value only).
//
// For Llama-2-7B this gives 6,738,415,616, the count its checkpoint holds; presets_test.go
// pins the count of every preset. Params, when set, wins even if the architecture
// disagrees. Without Params, and with an architecture that is incomplete, has no FFN
// size, overflows int64 or is otherwise refused by Validate (a negative size, more
// linear-attention layers than layers), it returns 0, never a negative count.
func (m Model) ParamCount() int64 {
	if m.Params > 0 {
		return m.Params
	}
	n, err := m.archParams(false)
	if err != nil {
		return 0
	}
	return n
}

// ActiveParams returns the parameters used per token: for a mixture of experts only
// ExpertsPerToken of the Experts FFNs (the router and everything else in full). For
// a dense model it equals ParamCount. With only Params known for an MoE model it
// scales the total by ExpertsPerToken/Experts, which understates the active count
// (attention and embeddings are shared); give the architecture for an exact count.
func (m Model) ActiveParams() int64 {
	if m.Experts <= 1 || m.ExpertsPerToken <= 0 || m.ExpertsPerToken >= m.Experts {
		return m.ParamCount()
	}
	if m.hasArch() && m.FFN > 0 {
		if n, err := m.archParams(true); err == nil {
			return n
		}
	}
	total := m.ParamCount()
	return total / int64(m.Experts) * int64(m.ExpertsPerToken)
}

// archParams derives the parameter count from the architecture; active counts only
// the routed experts of an MoE layer. A model Validate refuses gets an error:
// among its checks, archBound bounds every partial sum of the formula, and an
// architecture whose bound reaches 2^62 (over four quintillion parameters, far
// past any model) is refused, so the sum below, in plain int64, can never wrap
// around.
func (m Model) archParams(active bool) (int64, error) {
	if !m.hasArch() || m.FFN <= 0 {
		return 0, fmt.Errorf("sizing: architecture incomplete (layers, hidden, heads, ffn and vocab are needed): %w", ErrInvalid)
	}
	// check refuses what archSum cannot sum: a negative size, more linear or
	// dense layers than layers, a bound at or past 2^62 (each of which would give
	// a negative or wrapped count).
	var p problems
	if m.check(&p); p.n > 0 {
		return 0, fmt.Errorf("sizing: model invalid (see Validate): %w", ErrInvalid)
	}
	return m.archSum(active), nil
}

// archSum is ParamCount's sum over the architecture, for a model whose archBound
// is under 2^62 (archParams and Validate check it), in plain int64.
func (m *Model) archSum(active bool) int64 {
	h, V := int64(m.Hidden), int64(m.Vocab)
	a, k, d := int64(m.Heads), int64(m.kvHeads()), int64(m.headDim())
	norm := int64(1)
	if m.LinearBias || m.NormBias {
		norm = 2 // LayerNorm weight and bias
	}

	var attn int64 // the token mixer of an attention layer
	if m.KVLoRARank > 0 {
		// Latent attention (DeepSeek-V2 §2.1): query down/up projections with a
		// norm on the rank (or one full projection), the joint KV down projection
		// with its rotary part and a norm on the latent, the KV up projection to
		// the heads' non-rotary keys and values, and the output projection.
		r, c, vd := int64(m.RopeHeadDim), int64(m.KVLoRARank), int64(m.vHeadDim())
		if qr := int64(m.QLoRARank); qr > 0 {
			attn += h*qr + qr + qr*a*d
		} else {
			attn += h * a * d
		}
		attn += h*(c+r) + c + c*a*(d-r+vd) + a*vd*h
	} else {
		q, kv := a*d, 2*k*d // query width; key and value widths together
		attn = h*q + h*kv + q*h
		switch {
		case m.LinearBias:
			attn += q + kv + h
		case m.QKVBias:
			attn += q + kv
		}
		if m.OutBias && !m.LinearBias {
			attn += h
		}
		if m.AttnGate {
			attn += h * q // the query projection's second half: the gate
		}
	}
	if m.QKNorm {
		attn += 2 * d
	}
	if m.Sinks {
		attn += a
	}
	norms := int64(m.normsPerLayer()) * norm * h
	linear := int64(m.LinearLayers)

	mats := int64(2) // up, down
	if m.GatedFFN {
		mats = 3 // and gate
	}
	ffn := func(width, n int64, bias bool) int64 {
		v := n * mats * h * width
		if bias {
			v += n * ((mats-1)*width + h) // up (and gate), down biases
		}
		return v
	}
	dense := ffn(int64(m.FFN), 1, m.LinearBias)
	nDense, nMoE := int64(m.Layers), int64(0)
	var moe int64
	if m.Experts > 1 {
		nDense = int64(m.DenseLayers)
		nMoE = int64(m.Layers) - nDense
		experts := int64(m.Experts)
		if active && m.ExpertsPerToken > 0 && m.ExpertsPerToken < m.Experts {
			experts = int64(m.ExpertsPerToken)
		}
		moe = h*int64(m.Experts) + ffn(int64(m.expertFFN()), experts, m.LinearBias || m.ExpertBias) // router and experts
		if m.RouterBias {
			moe += int64(m.Experts)
		}
		if m.SharedFFN > 0 {
			moe += ffn(int64(m.SharedFFN), 1, m.LinearBias)
			if m.SharedGate {
				moe += h
			}
		}
	}

	// Layers (their token mixers, norms and FFNs), the final norm, embeddings.
	total := attn*(int64(m.Layers)-linear) + int64(m.LinearParams)*linear + norms*int64(m.Layers) +
		dense*nDense + moe*nMoE + norm*h + V*h
	if !m.TiedEmbeddings {
		total += V * h // output head
	}
	if m.EmbedNorm {
		total += norm * h
	}
	return total + int64(m.Positions)*h + int64(m.Buffers)
}

// normsPerLayer returns NormsPerLayer, defaulting to 2.
func (m *Model) normsPerLayer() int {
	if m.NormsPerLayer == 0 {
		return 2
	}
	return m.NormsPerLayer
}

// expertFFN returns the intermediate size of one routed expert: ExpertFFN, or FFN.
func (m *Model) expertFFN() int {
	if m.ExpertFFN == 0 {
		return m.FFN
	}
	return m.ExpertFFN
}

// vHeadDim returns the value head dimension of latent attention, defaulting to
// HeadDim − RopeHeadDim.
func (m *Model) vHeadDim() int {
	if m.VHeadDim == 0 {
		return m.HeadDim - m.RopeHeadDim
	}
	return m.VHeadDim
}

// kvValuesPerToken returns the KV cache values one layer keeps per token: the
// latent and its rotary part under latent attention, keys and values of every KV
// head otherwise.
func (m *Model) kvValuesPerToken() int64 {
	if m.KVLoRARank > 0 {
		return int64(m.KVLoRARank) + int64(m.RopeHeadDim)
	}
	return 2 * int64(m.kvHeads()) * int64(m.headDim())
}

// slidingLayers returns the layers that keep at most SlidingWindow tokens: all
// the attention layers when SlidingLayers is zero.
func (m *Model) slidingLayers() int {
	if m.SlidingWindow == 0 {
		return 0
	}
	if m.SlidingLayers == 0 {
		return m.Layers - m.LinearLayers
	}
	return m.SlidingLayers
}
