package sizing

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func readConfigFile(t testing.TB, name string) Model {
	t.Helper()
	data, err := os.ReadFile("models/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ReadConfig(%s): %v", name, err)
	}
	return m
}

// Parameter counts of stored configs against the checkpoints' published counts:
// the total_size of each BF16 safetensors index, halved, or the exact count
// published where no index was found (models/SOURCES.md says which).
func TestReadConfigParamCounts(t *testing.T) {
	for _, tc := range []struct {
		file   string
		params int64
		kv     int64 // KV cache values per token, all layers
		ctx    int
	}{
		{"qwen2.5-7b", 7_615_616_512, 2 * 28 * 4 * 128, 131072},
		{"qwen2.5-14b", 14_770_033_664, 2 * 48 * 8 * 128, 131072},
		{"qwen2.5-32b", 32_763_876_352, 2 * 64 * 8 * 128, 131072},
		{"qwen2.5-72b", 72_706_203_648, 2 * 80 * 8 * 128, 32768},
		{"qwen3-8b", 8_190_735_360, 2 * 36 * 8 * 128, 40960},
		{"qwen3-32b", 32_762_123_264, 2 * 64 * 8 * 128, 40960},
		{"qwen3-30b-a3b", 30_532_122_624, 2 * 48 * 4 * 128, 40960},
		{"llama-3.1-8b", 8_030_261_248, 2 * 32 * 8 * 128, 131072},
		{"llama-3.2-1b", 1_235_814_400, 2 * 16 * 8 * 64, 131072},
		{"llama-3.2-3b", 3_212_749_824, 2 * 28 * 8 * 128, 131072},
		{"mistral-nemo-12b", 12_247_782_400, 2 * 40 * 8 * 128, 128000},
		{"gemma-2-9b", 9_241_705_984, 2 * 42 * 8 * 256, 8192},
		{"gemma-2-27b", 27_227_128_320, 2 * 46 * 16 * 128, 8192},
		{"phi-3-mini-4k", 3_821_079_552, 2 * 32 * 32 * 96, 4096},
		{"llama-2-7b", 6_738_415_616, 2 * 32 * 32 * 128, 4096},
		{"llama-2-13b", 13_015_864_320, 2 * 40 * 40 * 128, 4096},
		{"llama-2-70b", 68_976_648_192, 2 * 80 * 8 * 128, 4096},
		{"llama-3-8b", 8_030_261_248, 2 * 32 * 8 * 128, 8192},
		{"mistral-7b", 7_241_732_096, 2 * 32 * 8 * 128, 32768},
		// Qwen2 base configs state 131072 positions (the Instruct ones 32768);
		// the index of Qwen2.5 at the same shape gives the same counts.
		{"qwen2-7b", 7_615_616_512, 2 * 28 * 4 * 128, 131072},
		{"qwen2-72b", 72_706_203_648, 2 * 80 * 8 * 128, 131072},
		// Latent attention: 512 + 64 values per token per layer, 61 layers.
		{"deepseek-r1", 0, 61 * (512 + 64), 163840},
		// The families of the third round. ChatGLM2/3's index states total_size
		// 12,487,168,064 bytes of FP16 (a fine-tuning script quoting
		// chatglm2-6b's pytorch_model.bin.index.json; ChatGLM3-6B has the same
		// shapes): the layers plus 32 rotary frequencies. GLM-4-9B-Chat: a
		// transformers log printing 9,399,951,392 parameters of which 32 are not
		// trainable, the same buffer.
		{"chatglm3-6b", 6_243_584_032, 2 * 28 * 2 * 128, 8192},
		{"glm-4-9b", 9_399_951_392, 2 * 40 * 2 * 128, 131072},
		// GLM-4.5-Air: PrimeIntellect/INTELLECT-3, the same architecture stored
		// without the MTP layer, holds 106,852,251,264 (hub safetensors metadata
		// quoted in a model survey; also a calculator's GLM-4.5-Air preset);
		// GLM-4.5-Air's own 110,468,824,832 adds its MTP layer.
		{"glm-4.5-air", 106_852_251_264, 2 * 46 * 8 * 128, 131072},
		// Baichuan 2 and InternLM3: derived from the architecture; no published
		// index or exact count was found.
		{"baichuan2-7b", 7_505_973_248, 2 * 32 * 32 * 128, 4096},
		{"baichuan2-13b", 13_896_668_160, 2 * 40 * 40 * 128, 4096},
		{"internlm3-8b", 8_804_241_408, 2 * 48 * 2 * 128, 32768},
		// InternLM2.5: the hub's safetensors parameter counts quoted in a
		// benchmark's model table (7,737,708,544 and 19,861,149,696; the 7B's
		// also in a local audit of its 227 BF16 tensors).
		{"internlm2.5-7b", 7_737_708_544, 2 * 32 * 8 * 128, 32768},
		{"internlm2.5-20b", 19_861_149_696, 2 * 48 * 8 * 128, 32768},
		// MiniCPM-2B: 2,724,880,896, printed by a RAG demo serving it and in the
		// MTEB metadata of embedders built on it.
		{"minicpm-2b", 2_724_880_896, 2 * 40 * 36 * 64, 2048},
		// Qwen3-235B-A22B: the index's total_size 470,187,269,120 over 2 and the
		// hub metadata's 235,093,634,560, quoted in several files.
		{"qwen3-235b-a22b", 235_093_634_560, 2 * 94 * 4 * 128, 40960},
		// Qwen3-Next-80B-A3B: Qwen3-Coder-Next, its shape without MTP layers,
		// holds 79,674,391,296 (a parameter parser's test citing the hub); the
		// Instruct checkpoint's 81,324,862,720 adds the MTP layer. KV cache in
		// the 12 full-attention layers only.
		{"qwen3-next-80b-a3b", 79_674_391_296, 2 * 12 * 2 * 256, 262144},
		// Kimi K2: 1,026,408,232,448 logical parameters in an audit of its 61
		// shard headers (scales left out), also a provider catalogue's count.
		{"kimi-k2", 1_026_408_232_448, 61 * (512 + 64), 131072},
		// Llama-4-Scout: the hub's 108,641,793,536 less the vision tower and
		// projector, 871,932,416 by its vision_config (patch embedding 588×1408,
		// class and 577 position embeddings, two LayerNorms, 34 layers of
		// biased attention and MLP, the pixel-shuffle MLP 5632→4096→4096, the
		// projector 4096→5120). The 48 layers' KV cache, 36 of them chunked.
		{"llama-4-scout", 107_769_861_120, 2 * 48 * 8 * 128, 10485760},
	} {
		m := readConfigFile(t, tc.file)
		got := m.ParamCount()
		if tc.params != 0 && got != tc.params {
			t.Errorf("%s: ParamCount %d, published %d", tc.file, got, tc.params)
		}
		if kv := m.kvValuesPerToken() * int64(m.Layers-m.LinearLayers); kv != tc.kv {
			t.Errorf("%s: KV values per token %d, want %d", tc.file, kv, tc.kv)
		}
		if m.Context != tc.ctx {
			t.Errorf("%s: Context %d, want %d", tc.file, m.Context, tc.ctx)
		}
	}
	// DeepSeek-V3/R1: 671B total and 37B active per token as published (DeepSeek-V3
	// technical report, §1), rounded; the MTP module is left out, as there.
	m := readConfigFile(t, "deepseek-r1")
	if n := m.ParamCount(); n/1e9 != 671 {
		t.Errorf("DeepSeek-R1 ParamCount %d, published 671B", n)
	}
	if n := m.ActiveParams(); (n+5e8)/1e9 != 38 && (n+5e8)/1e9 != 37 {
		t.Errorf("DeepSeek-R1 ActiveParams %d, published 37B", n)
	}
	// Qwen3-30B-A3B: 3.3B active (the model card).
	if n := readConfigFile(t, "qwen3-30b-a3b").ActiveParams(); (n+5e7)/1e8 != 34 && (n+5e7)/1e8 != 33 {
		t.Errorf("Qwen3-30B-A3B ActiveParams %d, published 3.3B", n)
	}
}

// The structure of each family, as ReadConfig reads it.
func TestReadConfigFamilies(t *testing.T) {
	g := readConfigFile(t, "gemma-2-9b")
	if g.SlidingWindow != 4096 || g.slidingLayers() != 21 || g.NormsPerLayer != 4 || !g.TiedEmbeddings {
		t.Errorf("gemma-2-9b: window %d over %d layers, %d norms, tied %v; want 4096 over 21, 4, true",
			g.SlidingWindow, g.slidingLayers(), g.NormsPerLayer, g.TiedEmbeddings)
	}
	d := readConfigFile(t, "deepseek-r1")
	if d.Experts != 256 || d.ExpertsPerToken != 8 || d.DenseLayers != 3 || d.SharedFFN != 2048 || d.ExpertFFN != 2048 ||
		d.KVLoRARank != 512 || d.QLoRARank != 1536 || d.HeadDim != 192 || d.VHeadDim != 128 {
		t.Errorf("deepseek-r1 read as %+v", d)
	}
	if l := readConfigFile(t, "llama-3.2-1b"); !l.TiedEmbeddings || l.HeadDim != 0 {
		t.Errorf("llama-3.2-1b: tied %v, head_dim %d; want tied, head_dim left to Hidden/Heads", l.TiedEmbeddings, l.HeadDim)
	}
	for _, tc := range []struct {
		name, json string
		want       Model
	}{
		{"gpt2-xl", `{"model_type":"gpt2","n_layer":48,"n_embd":1600,"n_head":25,"n_inner":null,"vocab_size":50257,"n_positions":1024}`,
			Model{Name: "gpt2", Layers: 48, Hidden: 1600, Heads: 25, FFN: 6400, Vocab: 50257, Positions: 1024, Context: 1024, LinearBias: true, TiedEmbeddings: true}},
		{"opt-13b", `{"model_type":"opt","num_hidden_layers":40,"hidden_size":5120,"num_attention_heads":40,"ffn_dim":20480,"vocab_size":50272,"max_position_embeddings":2048}`,
			Model{Name: "opt", Layers: 40, Hidden: 5120, Heads: 40, FFN: 20480, Vocab: 50272, Positions: 2050, Context: 2048, LinearBias: true, TiedEmbeddings: true}},
		{"falcon-7b", `{"model_type":"falcon","num_hidden_layers":32,"hidden_size":4544,"num_attention_heads":71,"multi_query":true,"parallel_attn":true,"bias":false,"vocab_size":65024}`,
			Model{Name: "falcon", Layers: 32, Hidden: 4544, Heads: 71, KVHeads: 1, FFN: 18176, Vocab: 65024, Context: 2048, NormBias: true, TiedEmbeddings: true, NormsPerLayer: 1}},
		{"falcon-40b", `{"model_type":"falcon","num_hidden_layers":60,"hidden_size":8192,"num_attention_heads":128,"num_kv_heads":8,"new_decoder_architecture":true,"parallel_attn":true,"bias":false,"vocab_size":65024}`,
			Model{Name: "falcon", Layers: 60, Hidden: 8192, Heads: 128, KVHeads: 8, FFN: 32768, Vocab: 65024, Context: 2048, NormBias: true, TiedEmbeddings: true}},
		{"gemma-3-4b text_config", `{"model_type":"gemma3","text_config":{"model_type":"gemma3_text","num_hidden_layers":34,"hidden_size":2560,"num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"intermediate_size":10240,"vocab_size":262208,"sliding_window":1024,"max_position_embeddings":131072}}`,
			Model{Name: "gemma3_text", Layers: 34, Hidden: 2560, Heads: 8, KVHeads: 4, HeadDim: 256, FFN: 10240, Vocab: 262208, Context: 131072, GatedFFN: true, TiedEmbeddings: true,
				NormsPerLayer: 4, QKNorm: true, SlidingWindow: 1024, SlidingLayers: 29}},
		{"gpt-oss", `{"model_type":"gpt_oss","num_hidden_layers":24,"hidden_size":2880,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"intermediate_size":2880,"num_local_experts":32,"num_experts_per_tok":4,"vocab_size":201088,"sliding_window":128,"max_position_embeddings":131072,"layer_types":["sliding_attention","full_attention","sliding_attention","full_attention"]}`,
			Model{Name: "gpt_oss", Layers: 24, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64, FFN: 2880, Vocab: 201088, Context: 131072, GatedFFN: true,
				Experts: 32, ExpertsPerToken: 4, QKVBias: true, OutBias: true, Sinks: true, RouterBias: true, ExpertBias: true, SlidingWindow: 128, SlidingLayers: 2}},
	} {
		got, err := ReadConfig(strings.NewReader(tc.json))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	// Checkpoint counts of two of them: Falcon-7B (multi-query attention, one
	// LayerNorm per parallel block) holds 6,921,720,704 parameters, GPT-2 XL
	// 1,557,611,200.
	for json, want := range map[string]int64{
		`{"model_type":"falcon","num_hidden_layers":32,"hidden_size":4544,"num_attention_heads":71,"multi_query":true,"parallel_attn":true,"bias":false,"vocab_size":65024}`: 6_921_720_704,
		`{"model_type":"gpt2","n_layer":48,"n_embd":1600,"n_head":25,"vocab_size":50257,"n_positions":1024}`:                                                                 1_557_611_200,
	} {
		if m, err := ReadConfig(strings.NewReader(json)); err != nil || m.ParamCount() != want {
			t.Errorf("%s: %d parameters (%v), want %d", json, m.ParamCount(), err, want)
		}
	}
}

// The parts of the third round's families a count does not show: ChatGLM's own
// key names, the linear-attention state of Qwen3-Next, Llama 4's chunked layers,
// a family told by architectures alone, and the fixed counts.
func TestReadConfigFamilies2026(t *testing.T) {
	g := readConfigFile(t, "chatglm3-6b")
	if g.Layers != 28 || g.KVHeads != 2 || g.FFN != 13696 || g.Vocab != 65024 || !g.QKVBias || g.Buffers != 32 || g.Context != 8192 {
		t.Errorf("chatglm3-6b read as %+v", g)
	}
	n := readConfigFile(t, "qwen3-next-80b-a3b")
	// Gated DeltaNet state per sequence: the convolution's last 3 inputs of
	// 2·2048 + 4096 channels and a 128×128 matrix per value head, 32 heads.
	if n.LinearLayers != 36 || n.LinearState != 3*8192+32*128*128 || !n.AttnGate || !n.SharedGate {
		t.Errorf("qwen3-next read as %+v", n)
	}
	// Its KV cache: 12 layers of 2×2×256 values per token, plus the 36 fixed
	// states, whatever the context: 1M tokens of BF16 cost 12 GiB, not 48.
	kv, err := KVCacheBytes(n, 1<<20, 1, BF16)
	if want := Bytes(2 * (12*1024*(1<<20) + 36*548864)); err != nil || kv != want {
		t.Errorf("qwen3-next KV cache at 1M tokens: %d (%v), want %d", kv, err, want)
	}
	if short, _ := KVCacheBytes(n, 1, 1, BF16); short != Bytes(2*(12*1024+36*548864)) {
		t.Errorf("qwen3-next KV cache at one token: %d, want the states and one token", short)
	}
	// Estimate's KV term agrees, for a batch at its whole context.
	b, err := Estimate(n, Workload{Task: Inference, Precision: BF16, Batch: 4, SeqLen: 262144})
	if want, _ := KVCacheBytes(n, 262144, 4, BF16); err != nil || b.KVCache < want-1 || b.KVCache > want+1 {
		t.Errorf("qwen3-next Estimate KV cache %d (%v), want %d", b.KVCache, err, want)
	}
	l := readConfigFile(t, "llama-4-scout")
	if l.SlidingWindow != 8192 || l.SlidingLayers != 36 || l.DenseLayers != 0 || l.ExpertFFN != 8192 || l.SharedFFN != 8192 || l.FFN != 16384 {
		t.Errorf("llama-4-scout read as %+v", l)
	}
	k := readConfigFile(t, "kimi-k2")
	if !k.RouterBias || k.Experts != 384 || k.StoredPrecision != FP8 || k.MTPLayers != 0 {
		t.Errorf("kimi-k2 read as %+v", k)
	}
	m := readConfigFile(t, "minicpm-2b")
	if !m.TiedEmbeddings || !strings.Contains(m.Notes, "no model_type: read as minicpm") {
		t.Errorf("minicpm-2b: tied %v, notes %q", m.TiedEmbeddings, m.Notes)
	}
	if a := readConfigFile(t, "glm-4.5-air"); a.MTPLayers != 1 || !strings.Contains(a.Notes, "1 multi-token-prediction layer") {
		t.Errorf("glm-4.5-air: MTP %d, notes %q", a.MTPLayers, a.Notes)
	}
	for _, tc := range []struct {
		name, json string
		want       int64
	}{
		// The three counts that were short. BLOOM-560M's checkpoint holds
		// 559,214,592 (its model card), with the embeddings' LayerNorm.
		{"bloom-560m", `{"model_type":"bloom","n_layer":24,"hidden_size":1024,"n_head":16,"vocab_size":250880}`, 559_214_592},
		// Qwen1.5-MoE-A2.7B: the hub's 14,315,784,192, with the shared expert's
		// gate of 2048 weights in each of the 24 layers.
		{"Qwen1.5-MoE-A2.7B", `{"model_type":"qwen2_moe","hidden_size":2048,"num_hidden_layers":24,"num_attention_heads":16,"num_key_value_heads":16,"intermediate_size":5632,"moe_intermediate_size":1408,"shared_expert_intermediate_size":5632,"num_experts":60,"num_experts_per_tok":4,"decoder_sparse_step":1,"vocab_size":151936,"tie_word_embeddings":false}`, 14_315_784_192},
		// gpt-oss: OpenAI's model card gives 20.91B and 116.83B; the hub's
		// safetensors metadata 20,914,757,184 and 116,829,156,672 exactly, with
		// the attention and expert biases and the sinks.
		{"gpt-oss-20b", `{"model_type":"gpt_oss","num_hidden_layers":24,"hidden_size":2880,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"intermediate_size":2880,"num_local_experts":32,"num_experts_per_tok":4,"vocab_size":201088,"sliding_window":128}`, 20_914_757_184},
		{"gpt-oss-120b", `{"model_type":"gpt_oss","num_hidden_layers":36,"hidden_size":2880,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"intermediate_size":2880,"num_local_experts":128,"num_experts_per_tok":4,"vocab_size":201088,"sliding_window":128}`, 116_829_156_672},
		// ERNIE-4.5-21B-A3B: 21.8B (its model card: 21B total, 3B active):
		// one dense layer, 27 MoE layers of 64 experts and 2 shared.
		{"ERNIE-4.5-21B-A3B", `{"model_type":"ernie4_5_moe","hidden_size":2560,"intermediate_size":12288,"num_attention_heads":20,"num_key_value_heads":4,"head_dim":null,"num_hidden_layers":28,"vocab_size":103424,"use_bias":false,"tie_word_embeddings":true,"moe_num_experts":64,"moe_layer_start_index":1,"moe_intermediate_size":1536,"moe_k":6,"moe_layer_interval":1,"moe_num_shared_experts":2,"moe_layer_end_index":null}`, 21_825_437_888},
		// ERNIE-4.5-0.3B: 0.36B (its model card).
		{"ERNIE-4.5-0.3B", `{"model_type":"ernie4_5","hidden_size":1024,"intermediate_size":3072,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":128,"num_hidden_layers":18,"vocab_size":103424,"use_bias":false,"tie_word_embeddings":true}`, 360_748_032},
		// GLM-4-9B in transformers' format (glm) holds GLM-4-9B-Chat's
		// parameters without the rotary buffer; GLM-4-0414 (glm4) adds two
		// norms per layer.
		{"glm-4-9b-chat-hf", `{"model_type":"glm","num_hidden_layers":40,"hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":2,"head_dim":128,"intermediate_size":13696,"vocab_size":151552,"attention_bias":true}`, 9_399_951_360},
		{"GLM-4-9B-0414", `{"model_type":"glm4","num_hidden_layers":40,"hidden_size":4096,"num_attention_heads":32,"num_key_value_heads":2,"head_dim":128,"intermediate_size":13696,"vocab_size":151552,"attention_bias":true}`, 9_400_279_040},
	} {
		m, err := ReadConfig(strings.NewReader(tc.json))
		if err != nil || m.ParamCount() != tc.want {
			t.Errorf("%s: %d parameters (%v), want %d", tc.name, m.ParamCount(), err, tc.want)
		}
	}
}

// Families without a stored config, from the keys of their published config.json,
// against the rounded counts of their model cards: DeepSeek-V2-Lite 15.7B (latent
// attention without a query rank, 2 shared experts, 1 dense layer) and
// Qwen1.5-MoE-A2.7B 14.3B (a shared expert of 5632, 60 routed experts).
func TestReadConfigMoEFamilies(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		billions   float64
	}{
		{"DeepSeek-V2-Lite", `{"model_type":"deepseek_v2","hidden_size":2048,"num_hidden_layers":27,"num_attention_heads":16,
			"num_key_value_heads":16,"q_lora_rank":null,"kv_lora_rank":512,"qk_rope_head_dim":64,"qk_nope_head_dim":128,
			"v_head_dim":128,"intermediate_size":10944,"moe_intermediate_size":1408,"n_routed_experts":64,"n_shared_experts":2,
			"num_experts_per_tok":6,"first_k_dense_replace":1,"vocab_size":102400,"max_position_embeddings":163840}`, 15.7},
		{"Qwen1.5-MoE-A2.7B", `{"model_type":"qwen2_moe","hidden_size":2048,"num_hidden_layers":24,"num_attention_heads":16,
			"num_key_value_heads":16,"intermediate_size":5632,"moe_intermediate_size":1408,"shared_expert_intermediate_size":5632,
			"num_experts":60,"num_experts_per_tok":4,"decoder_sparse_step":1,"vocab_size":151936,"max_position_embeddings":8192,
			"tie_word_embeddings":false}`, 14.3},
	} {
		m, err := ReadConfig(strings.NewReader(tc.json))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := float64(m.ParamCount()) / 1e9; got < tc.billions-0.05 || got >= tc.billions+0.05 {
			t.Errorf("%s: %.2fB parameters, published %.1fB", tc.name, got, tc.billions)
		}
	}
}

// A config ReadConfig cannot read is an error that names what is wrong.
func TestReadConfigErrors(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"model_type":"mamba","hidden_size":4}`, `model_type "mamba" is not one ReadConfig knows (it reads baichuan, bloom, chatglm, `},
		{`{"model_type":"mamba"}`, "describe the model by hand: its parameter count (-params) or a sizing.Model"},
		{`{"hidden_size":4096}`, "missing keys model_type and architectures: not a model's config.json"},
		{`{}`, "missing keys model_type and architectures"},
		{`{"architectures":["MambaForCausalLM"]}`, `missing key model_type, and architectures "MambaForCausalLM"`},
		{`{"architectures":"LlamaForCausalLM"}`, "architectures is not a list of strings"},
		// A tokenizer_config.json passed where the model's config.json belongs.
		{`{"add_bos_token":false,"model_max_length":4096,"tokenizer_class":"LlamaTokenizer"}`, "missing keys model_type and architectures"},
		{`{"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000}`, "missing key num_hidden_layers"},
		{`{"model_type":"llama","num_hidden_layers":"32"}`, "num_hidden_layers is not a number"},
		{`{"model_type":"llama","num_hidden_layers":-1}`, "num_hidden_layers -1"},
		{`{"model_type":"llama","num_hidden_layers":1.5}`, "num_hidden_layers 1.5"},
		{`[1,2]`, "config.json"},
		{`{"model_type":"gemma3"}`, "missing key text_config"},
		{`{"model_type":"deepseek_v3","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,"qk_rope_head_dim":8,"qk_nope_head_dim":16,"v_head_dim":16}`, "missing key kv_lora_rank"},
	} {
		m, err := ReadConfig(strings.NewReader(tc.json))
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadConfig(%s) = %+v, %v; want an ErrInvalid naming %q", tc.json, m, err, tc.want)
		}
	}
	big := `{"model_type":"llama","x":"` + strings.Repeat("a", MaxConfigBytes) + `"}`
	if _, err := ReadConfig(strings.NewReader(big)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a config over MaxConfigBytes: %v, want ErrInvalid", err)
	}
}

func FuzzReadConfig(f *testing.F) {
	for _, name := range []string{"deepseek-r1", "gemma-2-9b", "qwen3-30b-a3b"} {
		data, err := os.ReadFile("models/" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadConfig(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("ReadConfig returned a model Validate rejects: %v", err)
		}
		if m.ParamCount() <= 0 {
			t.Fatalf("ReadConfig returned a model without a parameter count: %+v", m)
		}
	})
}

// ReadConfig on the largest stored configs (Llama 4 Scout's, with its vision
// config, and DeepSeek-R1's): the issue asks for under 100 µs.
func BenchmarkReadConfig(b *testing.B) {
	for _, name := range []string{"llama-4-scout", "deepseek-r1"} {
		data, err := os.ReadFile("models/" + name + ".json")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := ReadConfig(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ReadConfig reads the stored format from quantization_config, else torch_dtype.
func TestReadConfigStoredPrecision(t *testing.T) {
	if m := readConfigFile(t, "deepseek-r1"); m.StoredPrecision != FP8 || !strings.Contains(m.Notes, "1 multi-token-prediction layer") {
		t.Errorf("DeepSeek-R1's FP8 config: %v, notes %q; want FP8", m.StoredPrecision, m.Notes)
	}
	if m := readConfigFile(t, "qwen2.5-7b"); m.StoredPrecision != BF16 {
		t.Errorf("Qwen2.5-7B (torch_dtype bfloat16): %v, want BF16", m.StoredPrecision)
	}
	if m := readConfigFile(t, "llama-2-7b"); m.StoredPrecision != FP16 {
		t.Errorf("Llama-2-7B (torch_dtype float16): %v, want FP16", m.StoredPrecision)
	}
	gptq3, _ := CustomBits(3 + 19.0/128)
	base := `{"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,"torch_dtype":"float16"`
	for _, tc := range []struct {
		name, quant string
		want        Precision
		note        string
	}{
		{"none", ``, FP16, ""},
		{"gptq 4-bit", `{"quant_method":"gptq","bits":4,"group_size":128,"desc_act":false}`, GPTQ4, ""},
		{"gptq 4-bit g32", `{"quant_method":"gptq","bits":4,"group_size":32}`, GPTQ4, "groups of 32"},
		{"gptq 3-bit", `{"quant_method":"gptq","bits":3,"group_size":128}`, gptq3, ""},
		{"awq", `{"quant_method":"awq","bits":4,"group_size":128,"version":"gemm","zero_point":true}`, AWQ4, ""},
		{"bnb 4-bit", `{"quant_method":"bitsandbytes","load_in_4bit":true,"bnb_4bit_quant_type":"nf4"}`, NF4, ""},
		{"bnb 8-bit", `{"quant_method":"bitsandbytes","load_in_8bit":true}`, INT8, ""},
		{"fp8", `{"quant_method":"fp8","fmt":"e4m3","weight_block_size":[128,128]}`, FP8, ""},
		{"mxfp4", `{"quant_method":"mxfp4","modules_to_not_convert":["model.layers.*.self_attn"]}`, MXFP4, ""},
		{"modelopt nvfp4", `{"quant_method":"modelopt","quant_algo":"NVFP4"}`, NVFP4, ""},
		{"compressed fp8", `{"quant_method":"compressed-tensors","config_groups":{"group_0":{"weights":{"num_bits":8,"type":"float","group_size":null}}}}`, FP8, ""},
		{"compressed nvfp4", `{"quant_method":"compressed-tensors","config_groups":{"group_0":{"weights":{"num_bits":4,"type":"float","group_size":16}}}}`, NVFP4, ""},
		{"compressed w4a16", `{"quant_method":"compressed-tensors","config_groups":{"group_0":{"weights":{"num_bits":4,"type":"int","group_size":128}}}}`, GPTQ4, ""},
		{"hqq", `{"quant_method":"hqq","nbits":4}`, 0, `quant_method "hqq" is not one gpuplan reads`},
	} {
		cfg := base + `}`
		if tc.quant != "" {
			cfg = base + `,"quantization_config":` + tc.quant + `}`
		}
		m, err := ReadConfig(strings.NewReader(cfg))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if m.StoredPrecision != tc.want || !strings.Contains(m.Notes, tc.note) || (tc.note == "") != (m.Notes == "") {
			t.Errorf("%s: %v, notes %q; want %v, a note with %q", tc.name, m.StoredPrecision, m.Notes, tc.want, tc.note)
		}
	}
	if _, err := ReadConfig(strings.NewReader(base + `,"quantization_config":[1]}`)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "quantization_config") {
		t.Errorf("a quantization_config that is no object: %v", err)
	}
}

// gpt-oss's config stores its experts in MXFP4 and the rest in BF16: the stored
// size counts each at its own width. gpt-oss-20b: 19,110,297,600 expert weights
// at 17 bytes per 32 and 1,804,459,584 others at 2 bytes, 13,761,264,768 bytes
// (its repository's weights are 13.8 GB).
func TestReadConfigMXFP4Experts(t *testing.T) {
	m, err := ReadConfig(strings.NewReader(`{"model_type":"gpt_oss","num_hidden_layers":24,"hidden_size":2880,"num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"intermediate_size":2880,"num_local_experts":32,"num_experts_per_tok":4,"vocab_size":201088,"sliding_window":128,"torch_dtype":"bfloat16","quantization_config":{"quant_method":"mxfp4","modules_to_not_convert":["model.layers.*.self_attn","model.layers.*.mlp.router","model.embed_tokens","lm_head"]}}`))
	if err != nil || m.StoredPrecision != MXFP4 || m.StoredBytes != 13_761_264_768 {
		t.Fatalf("gpt-oss-20b: %v, %d bytes (%v); want MXFP4, 13,761,264,768", m.StoredPrecision, int64(m.StoredBytes), err)
	}
	b, err := Estimate(m, Workload{Task: Inference, Precision: MXFP4, Batch: 1, SeqLen: 1024})
	if err != nil || b.Weights != m.StoredBytes {
		t.Errorf("Estimate weights %d (%v), want the stored %d", int64(b.Weights), err, int64(m.StoredBytes))
	}
}
