package sizing

import (
	"fmt"
	"github.com/gpuplan/gpuplan/internal/text"
	"sort"
	"strings"
)

// preset is one built-in model: its canonical name, the other names it answers to,
// and its architecture.
type preset struct {
	aliases []string // normalised by presetKey, besides the canonical name
	model   Model
}

// presetTable returns the built-in models, built fresh on every call so that no
// caller can change another's. Architecture numbers come from each model's
// config.json on the Hugging Face hub (the repository is named in the comment);
// Params is left zero so that ParamCount derives the count, and presets_test.go pins
// each count against the published one.
func presetTable() []preset {
	// Llama family: gated SwiGLU FFN, RMSNorm, rotary positions, untied output head.
	llama := func(name string, layers, hidden, heads, kv, ffn, vocab int, aliases ...string) preset {
		return preset{aliases, Model{Name: name, Layers: layers, Hidden: hidden, Heads: heads, KVHeads: kv,
			FFN: ffn, Vocab: vocab, GatedFFN: true}}
	}
	return []preset{
		// meta-llama/Llama-2-7b-hf config.json
		llama("llama-2-7b", 32, 4096, 32, 32, 11008, 32000, "llama2-7b", "llama-7b-v2"),
		// meta-llama/Llama-2-13b-hf config.json
		llama("llama-2-13b", 40, 5120, 40, 40, 13824, 32000, "llama2-13b"),
		// meta-llama/Llama-2-70b-hf config.json: GQA with 8 KV heads
		llama("llama-2-70b", 80, 8192, 64, 8, 28672, 32000, "llama2-70b"),
		// meta-llama/Meta-Llama-3-8B config.json
		llama("llama-3-8b", 32, 4096, 32, 8, 14336, 128256, "llama3-8b"),
		// meta-llama/Meta-Llama-3-70B config.json
		llama("llama-3-70b", 80, 8192, 64, 8, 28672, 128256, "llama3-70b"),
		// meta-llama/Llama-3.1-8B config.json (same shape as Llama 3 8B; longer context)
		llama("llama-3.1-8b", 32, 4096, 32, 8, 14336, 128256, "llama3.1-8b", "llama-31-8b"),
		// meta-llama/Llama-3.1-70B config.json
		llama("llama-3.1-70b", 80, 8192, 64, 8, 28672, 128256, "llama3.1-70b", "llama-31-70b"),
		// meta-llama/Llama-3.1-405B config.json
		llama("llama-3.1-405b", 126, 16384, 128, 8, 53248, 128256, "llama3.1-405b", "llama-31-405b"),
		// mistralai/Mistral-7B-v0.1 config.json
		llama("mistral-7b", 32, 4096, 32, 8, 14336, 32000, "mistral-7b-v0.1", "mistral-7b-v0.2"), // v0.2 keeps v0.1's shape
		// mistralai/Mixtral-8x7B-v0.1 config.json: 8 local experts, 2 per token
		func() preset {
			p := llama("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, "mixtral-8x7b-v0.1", "mixtral")
			p.model.Experts, p.model.ExpertsPerToken = 8, 2
			return p
		}(),
		// Qwen/Qwen2-7B config.json: biases on q, k, v; untied head
		func() preset {
			p := llama("qwen2-7b", 28, 3584, 28, 4, 18944, 152064, "qwen-2-7b")
			p.model.QKVBias = true
			return p
		}(),
		// Qwen/Qwen2-72B config.json
		func() preset {
			p := llama("qwen2-72b", 80, 8192, 64, 8, 29568, 152064, "qwen-2-72b")
			p.model.QKVBias = true
			return p
		}(),
		// GPT-3 175B (Brown et al. 2020, Table 2.1: 96 layers, d_model 12288, 96 heads,
		// context 2048), with GPT-2's layout: learned positions, biases everywhere,
		// LayerNorm, FFN 4·d_model, the GPT-2 vocabulary of 50257, tied embeddings.
		{[]string{"gpt3", "gpt-3", "davinci"}, Model{Name: "gpt-3-175b", Layers: 96, Hidden: 12288, Heads: 96,
			FFN: 4 * 12288, Vocab: 50257, TiedEmbeddings: true, LinearBias: true, Positions: 2048}},
		// openai-community/gpt2-xl config.json: the 1.5B model of the ZeRO paper's
		// example (n_layer 48, n_embd 1600, n_head 25, n_positions 1024).
		{[]string{"gpt2-xl", "gpt-2-xl", "gpt2-1.5b"}, Model{Name: "gpt2-xl", Layers: 48, Hidden: 1600, Heads: 25,
			FFN: 4 * 1600, Vocab: 50257, TiedEmbeddings: true, LinearBias: true, Positions: 1024}},
		// facebook/opt-13b config.json: the vLLM paper's KV-cache example. OPT offsets
		// its learned positions by 2, so the table has 2048+2 rows.
		{[]string{"opt13b"}, Model{Name: "opt-13b", Layers: 40, Hidden: 5120, Heads: 40,
			FFN: 20480, Vocab: 50272, TiedEmbeddings: true, LinearBias: true, Positions: 2050}},
	}
}

// Presets returns the canonical names of the built-in models, sorted.
func Presets() []string {
	t := presetTable()
	names := make([]string, len(t))
	for i, p := range t {
		names[i] = p.model.Name
	}
	sort.Strings(names)
	return names
}

// Preset returns a built-in model by name. Matching ignores case, spaces and
// punctuation, an organisation prefix ("meta-llama/"), a leading "Meta-", and the
// words "hf", "chat", "instruct" and "it", whose checkpoints share the base model's
// architecture: "llama2-7b", "Llama-2-7b-hf" and "meta-llama/Llama-2-7b-chat-hf" are
// all "llama-2-7b". The model has its architecture and a zero Params, so ParamCount
// derives the count. An unknown name is an error wrapping ErrNotFound that lists the
// closest known names.
func Preset(name string) (Model, error) {
	key := presetKey(name)
	t := presetTable()
	for _, p := range t {
		if key == presetKey(p.model.Name) {
			return p.model, nil
		}
		for _, a := range p.aliases {
			if key == presetKey(a) {
				return p.model, nil
			}
		}
	}
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	var rows [2][]int
	limit := max(2, len(key)/3)
	for _, p := range t {
		d := text.EditDistance(key, presetKey(p.model.Name), limit, &rows)
		if d <= limit {
			cands = append(cands, cand{p.model.Name, d})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].name < cands[j].name
	})
	if len(cands) > 3 {
		cands = cands[:3]
	}
	if len(cands) == 0 {
		return Model{}, fmt.Errorf("sizing: no preset model %q (Presets lists them): %w", name, ErrNotFound)
	}
	close := make([]string, len(cands))
	for i, c := range cands {
		close[i] = c.name
	}
	return Model{}, fmt.Errorf("sizing: no preset model %q (did you mean %s?): %w", name, strings.Join(close, ", "), ErrNotFound)
}

// presetKey normalises a model name: lower case, the organisation prefix dropped,
// split into words at anything that is not a letter or digit, the variant words
// dropped, and the rest joined without separators.
func presetKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	words := strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	var b strings.Builder
	for i, w := range words {
		switch w {
		case "hf", "chat", "instruct", "it":
			continue
		case "meta":
			if i == 0 {
				continue
			}
		}
		b.WriteString(w)
	}
	return b.String()
}
