package sizing

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestPresetParamCounts(t *testing.T) {
	tests := []struct {
		name   string // with the source of the published count
		preset string
		want   int64
		active int64 // zero: same as want
	}{
		{"Llama-2-7B, checkpoint (REFERENCES.md)", "llama-2-7b", 6_738_415_616, 0},
		{"Llama-2-13B, checkpoint", "llama-2-13b", 13_015_864_320, 0},
		{"Llama-2-70B, checkpoint", "llama-2-70b", 68_976_648_192, 0},
		{"Llama-3-8B, checkpoint (REFERENCES.md)", "llama-3-8b", 8_030_261_248, 0},
		{"Llama-3-70B, checkpoint", "llama-3-70b", 70_553_706_496, 0},
		{"Llama-3.1-8B, same shape as Llama 3", "llama-3.1-8b", 8_030_261_248, 0},
		{"Llama-3.1-70B, same shape as Llama 3", "llama-3.1-70b", 70_553_706_496, 0},
		{"Llama-3.1-405B, checkpoint", "llama-3.1-405b", 405_853_388_800, 0},
		{"Mistral-7B-v0.1, checkpoint", "mistral-7b", 7_241_732_096, 0},
		// Mixtral: 46.7B total, 12.9B active (Mistral AI's announcement).
		{"Mixtral-8x7B, checkpoint", "mixtral-8x7b", 46_702_792_704, 12_879_925_248},
		{"Qwen2-7B, checkpoint (7.6B)", "qwen2-7b", 7_615_616_512, 0},
		{"Qwen2-72B, checkpoint (72.7B)", "qwen2-72b", 72_706_203_648, 0},
		// GPT-3 paper: 175.0B; the exact layout gives 174.6e9.
		{"GPT-3 175B, Brown et al. 2020 Table 2.1", "gpt-3-175b", 174_604_259_328, 0},
		{"GPT-2 XL 1.5B, checkpoint", "gpt2-xl", 1_557_611_200, 0},
		{"OPT-13B (12.85B), derived from config.json", "opt-13b", 12_853_473_280, 0},
		// The presets added from stored configs: each checkpoint's BF16
		// safetensors total_size, halved, or the exact count published where
		// no index was found (models/SOURCES.md says which).
		{"Llama-3.2-1B, checkpoint (tied embeddings)", "llama-3.2-1b", 1_235_814_400, 0},
		{"Llama-3.2-3B, checkpoint (tied embeddings)", "llama-3.2-3b", 3_212_749_824, 0},
		{"Mistral-Nemo-12B, checkpoint", "mistral-nemo-12b", 12_247_782_400, 0},
		{"Qwen2.5-7B, checkpoint", "qwen2.5-7b", 7_615_616_512, 0},
		{"Qwen2.5-14B, checkpoint", "qwen2.5-14b", 14_770_033_664, 0},
		{"Qwen2.5-32B, checkpoint", "qwen2.5-32b", 32_763_876_352, 0},
		{"Qwen2.5-72B, checkpoint", "qwen2.5-72b", 72_706_203_648, 0},
		{"Qwen3-8B, checkpoint", "qwen3-8b", 8_190_735_360, 0},
		{"Qwen3-32B, checkpoint", "qwen3-32b", 32_762_123_264, 0},
		// Qwen3-30B-A3B: 3.3B active (the model card).
		{"Qwen3-30B-A3B, checkpoint", "qwen3-30b-a3b", 30_532_122_624, 3_353_032_704},
		// DeepSeek-V3: 671B total, 37B active, without the 14B MTP module (its
		// README_WEIGHTS); the exact count includes the 256 score-correction
		// biases of each of the 58 MoE layers (14,848 in all).
		{"DeepSeek-V3, 671B published", "deepseek-v3", 671_026_419_200, 37_552_297_472},
		// DeepSeek-R1: V3's architecture (its config.json is model_type
		// deepseek_v3, trained from DeepSeek-V3-Base), so V3's counts: 671B
		// total, 37B activated (the R1 model card).
		{"DeepSeek-R1, 671B published", "deepseek-r1", 671_026_419_200, 37_552_297_472},
		{"Gemma-2-9B, checkpoint", "gemma-2-9b", 9_241_705_984, 0},
		{"Gemma-2-27B, checkpoint", "gemma-2-27b", 27_227_128_320, 0},
		{"Phi-3-mini, checkpoint", "phi-3-mini", 3_821_079_552, 0},
		// The 2026 presets; config_test.go says where each count was found.
		{"ChatGLM3-6B, checkpoint with its rotary buffer", "chatglm3-6b", 6_243_584_032, 0},
		{"GLM-4-9B-Chat, checkpoint with its rotary buffer", "glm-4-9b", 9_399_951_392, 0},
		{"GLM-4.5-Air, checkpoint without its MTP layer (106B, 12B active without embeddings)", "glm-4.5-air", 106_852_251_264, 13_424_129_664},
		{"Baichuan2-7B, derived", "baichuan2-7b", 7_505_973_248, 0},
		{"Baichuan2-13B, derived", "baichuan2-13b", 13_896_668_160, 0},
		{"InternLM2.5-7B, checkpoint", "internlm2.5-7b", 7_737_708_544, 0},
		{"InternLM2.5-20B, checkpoint", "internlm2.5-20b", 19_861_149_696, 0},
		{"InternLM3-8B, derived", "internlm3-8b", 8_804_241_408, 0},
		{"MiniCPM-2B, checkpoint (tied embeddings)", "minicpm-2b", 2_724_880_896, 0},
		{"Qwen3-235B-A22B, checkpoint (22B active)", "qwen3-235b-a22b", 235_093_634_560, 22_190_763_520},
		{"Qwen3-Next-80B-A3B, checkpoint without its MTP layer (3B active)", "qwen3-next-80b-a3b", 79_674_391_296, 3_874_929_408},
		{"Kimi K2, checkpoint's logical parameters (1T, 32B active)", "kimi-k2", 1_026_408_232_448, 32_861_500_928},
		{"Llama-4-Scout, language model without the vision tower (109B, 17B active)", "llama-4-scout", 107_769_861_120, 17_172_894_720},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Preset(tt.preset)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Errorf("Validate() = %v", err)
			}
			if m.Params != 0 {
				t.Errorf("Params = %d, want 0 so that ParamCount derives", m.Params)
			}
			if got := m.ParamCount(); got != tt.want {
				t.Errorf("ParamCount() = %d, want %d", got, tt.want)
			}
			active := tt.active
			if active == 0 {
				active = tt.want
			}
			if got := m.ActiveParams(); got != active {
				t.Errorf("ActiveParams() = %d, want %d", got, active)
			}
		})
	}
	if got, want := len(tests), len(Presets()); got != want {
		t.Errorf("table pins %d presets, Presets() lists %d", got, want)
	}
}

// TestPresetKVBytesPerToken pins the vLLM paper's figures (Kwon et al. 2023, §2):
// OPT-13B keeps 800 KiB per token in FP16, Llama-2-70B (GQA) 320 KiB.
func TestPresetKVBytesPerToken(t *testing.T) {
	for _, tt := range []struct {
		preset string
		want   Bytes
	}{{"opt-13b", 819_200}, {"llama-2-70b", 327_680}} {
		t.Run(tt.preset, func(t *testing.T) {
			m, _ := Preset(tt.preset)
			got := Bytes(2 * m.Layers * m.kvHeads() * m.headDim() * 2)
			if got != tt.want {
				t.Errorf("KV bytes per token = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestPresetNames(t *testing.T) {
	tests := []struct{ in, want string }{
		{"llama-2-7b", "llama-2-7b"},
		{"Llama-2-7b-hf", "llama-2-7b"},
		{"meta-llama/Llama-2-7b-hf", "llama-2-7b"},
		{"meta-llama/Llama-2-7b-chat-hf", "llama-2-7b"},
		{"llama2-7b", "llama-2-7b"},
		{"LLAMA 2 7B", "llama-2-7b"},
		{"meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"},
		{"meta-llama/Llama-3.1-405B", "llama-3.1-405b"},
		{"Qwen/Qwen2-72B-Instruct", "qwen2-72b"},
		{"mistralai/Mistral-7B-v0.1", "mistral-7b"},
		// v0.2 is not an alias: it drops v0.1's 4096-token sliding window, which
		// sets the KV cache past 4096 tokens.
		{"mistralai/Mistral-7B-Instruct-v0.1", "mistral-7b"},
		{"Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"},
		// R1 is a model of its own that shares V3's architecture: it keeps its
		// name, as do their dated revisions.
		{"deepseek-ai/DeepSeek-R1", "deepseek-r1"},
		{"deepseek-r1", "deepseek-r1"},
		{"deepseek-ai/DeepSeek-R1-0528", "deepseek-r1"},
		{"deepseek-ai/DeepSeek-V3", "deepseek-v3"},
		{"deepseek-ai/DeepSeek-V3-0324", "deepseek-v3"},
		{"google/gemma-2-9b-it", "gemma-2-9b"},
		{"microsoft/Phi-3-mini-4k-instruct", "phi-3-mini"},
		{"mistralai/Mistral-Nemo-Instruct-2407", "mistral-nemo-12b"},
		{"mistralai/Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"},
		{"facebook/opt-13b", "opt-13b"},
		{"openai-community/gpt2-xl", "gpt2-xl"},
		{"GPT-3", "gpt-3-175b"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := Preset(tt.in)
			if err != nil || m.Name != tt.want {
				t.Errorf("Preset(%q) = %q, %v; want %q", tt.in, m.Name, err, tt.want)
			}
		})
	}
}

func TestPresetNotFound(t *testing.T) {
	tests := []struct {
		in      string
		suggest []string
	}{
		{"llama-2-8b", []string{"llama-2-7b"}},
		{"qwen2-70b", []string{"qwen2-72b"}},
		{"falcon-180b", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Preset(tt.in)
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("Preset(%q) error = %v, want ErrNotFound", tt.in, err)
			}
			for _, s := range tt.suggest {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Preset(%q) error %q, want it to suggest %q", tt.in, err, s)
				}
			}
			if len(tt.suggest) == 0 && strings.Contains(err.Error(), "did you mean") {
				t.Errorf("Preset(%q) error %q suggests names", tt.in, err)
			}
		})
	}
}

func TestPresetsList(t *testing.T) {
	names := Presets()
	if !slices.IsSorted(names) {
		t.Errorf("Presets() = %v, not sorted", names)
	}
	for _, want := range []string{"llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b",
		"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "qwen2-7b", "qwen2-72b", "mistral-7b",
		"mixtral-8x7b", "gpt-3-175b"} {
		if !slices.Contains(names, want) {
			t.Errorf("Presets() lacks %q", want)
		}
	}
	// Every canonical name and alias resolves to one preset only.
	seen := map[string]string{}
	for _, p := range presetList {
		for _, n := range append([]string{p.name}, p.aliases...) {
			k := presetKey(n)
			if other, ok := seen[k]; ok && other != p.name {
				t.Errorf("key %q of %q also names %q", k, p.name, other)
			}
			seen[k] = p.name
		}
	}
	// A caller's change to a returned model does not reach the next caller.
	names[0] = "changed"
	if Presets()[0] == "changed" {
		t.Error("Presets shares its slice")
	}
}

func BenchmarkPreset(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Preset("meta-llama/Llama-2-70b-hf"); err != nil {
			b.Fatal(err)
		}
	}
}
