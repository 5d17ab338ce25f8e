package sizing

import (
	"embed"
	"fmt"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
)

// presetFiles holds the config.json of every built-in model (models/SOURCES.md
// names where each comes from).
//
//go:embed models/*.json
var presetFiles embed.FS

// preset is one built-in model: its canonical name, the file its architecture is
// read from, and the other names it answers to. Aliases are other spellings of the
// model and its dated revisions ("deepseek-r1-0528"); a model released under a
// name of its own is a preset of its own, even where it shares another's file, so
// that the model a caller gets carries the name asked for.
type preset struct {
	name, file string
	aliases    []string // normalised by presetKey, besides the canonical name
}

// presetList names the built-in models. Every architecture comes from the stored
// config.json through ReadConfig; Params is left zero so that ParamCount derives
// the count, and presets_test.go pins each count against the published one.
var presetList = []preset{
	{"llama-2-7b", "llama-2-7b", []string{"llama2-7b", "llama-7b-v2"}},
	{"llama-2-13b", "llama-2-13b", []string{"llama2-13b"}},
	{"llama-2-70b", "llama-2-70b", []string{"llama2-70b"}},
	{"llama-3-8b", "llama-3-8b", []string{"llama3-8b"}},
	{"llama-3-70b", "llama-3-70b", []string{"llama3-70b"}},
	{"llama-3.1-8b", "llama-3.1-8b", []string{"llama3.1-8b", "llama-31-8b"}},
	{"llama-3.1-70b", "llama-3.1-70b", []string{"llama3.1-70b", "llama-31-70b"}},
	{"llama-3.1-405b", "llama-3.1-405b", []string{"llama3.1-405b", "llama-31-405b"}},
	{"llama-3.2-1b", "llama-3.2-1b", []string{"llama3.2-1b", "llama-32-1b"}},
	{"llama-3.2-3b", "llama-3.2-3b", []string{"llama3.2-3b", "llama-32-3b"}},
	{"mistral-7b", "mistral-7b", []string{"mistral-7b-v0.1"}},
	{"mistral-nemo-12b", "mistral-nemo-12b", []string{"mistral-nemo", "mistral-nemo-base-2407", "mistral-nemo-instruct-2407"}},
	{"mixtral-8x7b", "mixtral-8x7b", []string{"mixtral-8x7b-v0.1", "mixtral"}},
	{"qwen2-7b", "qwen2-7b", []string{"qwen-2-7b"}},
	{"qwen2-72b", "qwen2-72b", []string{"qwen-2-72b"}},
	{"qwen2.5-7b", "qwen2.5-7b", []string{"qwen-2.5-7b", "qwen25-7b"}},
	{"qwen2.5-14b", "qwen2.5-14b", []string{"qwen-2.5-14b", "qwen25-14b"}},
	{"qwen2.5-32b", "qwen2.5-32b", []string{"qwen-2.5-32b", "qwen25-32b"}},
	{"qwen2.5-72b", "qwen2.5-72b", []string{"qwen-2.5-72b", "qwen25-72b"}},
	{"qwen3-8b", "qwen3-8b", []string{"qwen-3-8b"}},
	{"qwen3-32b", "qwen3-32b", []string{"qwen-3-32b"}},
	{"qwen3-30b-a3b", "qwen3-30b-a3b", []string{"qwen-3-30b-a3b"}},
	// R1 is a model of its own, trained from V3's base with V3's architecture:
	// one stored config serves both, and each keeps its name.
	{"deepseek-v3", "deepseek-r1", []string{"deepseek-v3-0324"}},
	{"deepseek-r1", "deepseek-r1", []string{"deepseek-r1-0528"}},
	{"gemma-2-9b", "gemma-2-9b", []string{"gemma2-9b"}},
	{"gemma-2-27b", "gemma-2-27b", []string{"gemma2-27b"}},
	{"phi-3-mini", "phi-3-mini-4k", []string{"phi-3-mini-4k", "phi3-mini"}},
	{"gpt-3-175b", "gpt-3-175b", []string{"gpt3", "gpt-3", "davinci"}},
	{"gpt2-xl", "gpt2-xl", []string{"gpt-2-xl", "gpt2-1.5b"}},
	{"opt-13b", "opt-13b", []string{"opt13b"}},
	// Models rented in China first, and the 2025 MoE models, named as their
	// repositories are.
	{"chatglm3-6b", "chatglm3-6b", []string{"chatglm3"}},
	{"glm-4-9b", "glm-4-9b", []string{"glm4-9b"}},
	{"glm-4.5-air", "glm-4.5-air", []string{"glm45-air"}},
	{"baichuan2-7b", "baichuan2-7b", []string{"baichuan2-7b-base"}},
	{"baichuan2-13b", "baichuan2-13b", []string{"baichuan2-13b-base"}},
	{"internlm2.5-7b", "internlm2.5-7b", []string{"internlm2_5-7b", "internlm25-7b"}},
	{"internlm2.5-20b", "internlm2.5-20b", []string{"internlm2_5-20b", "internlm25-20b"}},
	{"internlm3-8b", "internlm3-8b", nil},
	{"minicpm-2b", "minicpm-2b", []string{"minicpm-2b-sft-bf16", "minicpm-2b-dpo-bf16"}},
	{"qwen3-235b-a22b", "qwen3-235b-a22b", []string{"qwen-3-235b-a22b"}},
	{"qwen3-next-80b-a3b", "qwen3-next-80b-a3b", []string{"qwen-3-next-80b-a3b"}},
	{"kimi-k2", "kimi-k2", []string{"kimi-k2-instruct-0711"}},
	{"llama-4-scout", "llama-4-scout", []string{"llama-4-scout-17b-16e", "llama4-scout"}},
}

// presetModel reads p's stored config. The files are part of the package and
// presets_test.go reads every one, so an error here is a build defect.
func presetModel(p preset) Model {
	f, err := presetFiles.Open("models/" + p.file + ".json")
	if err != nil {
		panic("sizing: preset " + p.name + ": " + err.Error())
	}
	defer f.Close()
	m, err := ReadConfig(f)
	if err != nil {
		panic("sizing: preset " + p.name + ": " + err.Error())
	}
	m.Name = p.name
	return m
}

// Presets returns the canonical names of the built-in models, sorted.
func Presets() []string {
	names := make([]string, len(presetList))
	for i, p := range presetList {
		names[i] = p.name
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
	for _, p := range presetList {
		if key == presetKey(p.name) {
			return presetModel(p), nil
		}
		for _, a := range p.aliases {
			if key == presetKey(a) {
				return presetModel(p), nil
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
	for _, p := range presetList {
		d := text.EditDistance(key, presetKey(p.name), limit, &rows)
		if d <= limit {
			cands = append(cands, cand{p.name, d})
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
		return Model{}, fmt.Errorf("sizing: no preset model %s (Presets lists them): %w", quote(name), ErrNotFound)
	}
	close := make([]string, len(cands))
	for i, c := range cands {
		close[i] = c.name
	}
	return Model{}, fmt.Errorf("sizing: no preset model %s (did you mean %s?): %w", quote(name), strings.Join(close, ", "), ErrNotFound)
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
