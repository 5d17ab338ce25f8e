package compute

import "github.com/gpuplan/gpuplan/sizing"

// Architectures from the models' papers and config.json files.
var (
	// GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, d_model 12288, 96 heads,
	// FFN 4·d_model, 2048 learned positions, GPT-2's 50257-token vocabulary, tied
	// embeddings, biases and LayerNorm throughout.
	gpt3 = sizing.Model{Name: "gpt-3-175b", Layers: 96, Hidden: 12288, Heads: 96, FFN: 4 * 12288,
		Vocab: 50257, TiedEmbeddings: true, LinearBias: true, Positions: 2048}
	// GPT-3 as Narayanan et al. 2021 configure it (Table 1): vocabulary padded to 51200.
	gpt3Megatron = sizing.Model{Name: "gpt-3-175b-megatron", Layers: 96, Hidden: 12288, Heads: 96,
		FFN: 4 * 12288, Vocab: 51200, TiedEmbeddings: true, LinearBias: true, Positions: 2048}
	// Llama 3.1 405B config.json: 126 layers, hidden 16384, 128 heads, 8 KV heads,
	// intermediate 53248, vocabulary 128256, SwiGLU, untied.
	llama3405B = sizing.Model{Name: "llama-3-405b", Layers: 126, Hidden: 16384, Heads: 128, KVHeads: 8,
		FFN: 53248, Vocab: 128256, GatedFFN: true}
	// Llama-2-7B config.json: 32 layers, hidden 4096, 32 heads, intermediate 11008,
	// vocabulary 32000, SwiGLU, untied; 6,738,415,616 parameters.
	llama27B = sizing.Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008,
		Vocab: 32000, GatedFFN: true}
	// TinyLlama-1.1B config.json: 22 layers, hidden 2048, 32 heads, 4 KV heads,
	// intermediate 5632, vocabulary 32000, SwiGLU, untied.
	tinyLlama = sizing.Model{Name: "tinyllama-1.1b", Layers: 22, Hidden: 2048, Heads: 32, KVHeads: 4,
		FFN: 5632, Vocab: 32000, GatedFFN: true}
)

// Card figures from datasheets, as literals: package compute may not import catalog.
const (
	// NVIDIA A100 SXM4 80GB datasheet: 312 TFLOPS BF16 dense, 2039 GB/s HBM2e,
	// NVLink 600 GB/s (both directions).
	a100Peak   = 312 * TFLOPS
	a100HBM    = 2039 * GBps
	a100NVLink = 600 * GBps
	// NVIDIA Ada Lovelace architecture whitepaper (RTX 4090): 165.2 TFLOPS BF16 dense
	// with FP32 accumulation, 1008 GB/s GDDR6X, no NVLink, PCIe Gen4 x16.
	rtx4090Peak = 165.2 * TFLOPS
	rtx4090HBM  = 1008 * GBps
	// NVIDIA H100 SXM datasheet: 989.5 TFLOPS BF16 dense (1979 with sparsity), 3350
	// GB/s HBM3, NVLink 900 GB/s. H800 SXM: the same compute, NVLink cut to 400 GB/s.
	h100Peak   = 989.5 * TFLOPS
	h100NVLink = 900 * GBps
	h800NVLink = 400 * GBps
)
