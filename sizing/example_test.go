package sizing_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"testing/fstest"

	"github.com/gpuplan/gpuplan/sizing"
)

// exampleLlama2_7B is Llama-2-7B's architecture from its config.json.
var exampleLlama2_7B = sizing.Model{Name: "llama-2-7b", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}

func printBreakdown(b sizing.Breakdown) {
	fmt.Printf("weights     %6.2f GiB\n", b.Weights.GiB())
	fmt.Printf("gradients   %6.2f GiB\n", b.Gradients.GiB())
	fmt.Printf("optimizer   %6.2f GiB\n", b.Optimizer.GiB())
	fmt.Printf("activations %6.2f GiB\n", b.Activations.GiB())
	fmt.Printf("kv cache    %6.2f GiB\n", b.KVCache.GiB())
	fmt.Printf("overhead    %6.2f GiB\n", b.Overhead.GiB())
	fmt.Printf("total       %6.2f GiB\n", b.Total().GiB())
}

// The package documentation's three-line use: Llama-2-7B serving one 4096-token
// sequence in BF16.
func Example() {
	m := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}
	b, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 4096})
	fmt.Printf("%.1f GiB %v\n", b.Total().GiB(), err)
	// Output:
	// 16.2 GiB <nil>
}

// Full fine-tuning of a 7B model in BF16 with AdamW: 16 bytes per parameter of
// model state before activations, far beyond one 80 GB card.
func ExampleEstimate() {
	w := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Optimizer: sizing.AdamW,
		Batch: 1, SeqLen: 4096}
	b, err := sizing.Estimate(exampleLlama2_7B, w)
	if err != nil {
		fmt.Println(err)
		return
	}
	printBreakdown(b)
	// Output:
	// weights      12.55 GiB
	// gradients    12.55 GiB
	// optimizer    75.31 GiB
	// activations  21.46 GiB
	// kv cache      0.00 GiB
	// overhead      1.31 GiB
	// total       123.18 GiB
}

// Serving a 7B model in BF16 with 8 concurrent sequences of 4096 tokens.
func ExampleEstimate_inference() {
	w := sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 8, SeqLen: 4096}
	b, err := sizing.Estimate(exampleLlama2_7B, w)
	if err != nil {
		fmt.Println(err)
		return
	}
	printBreakdown(b)
	// Output:
	// weights      12.55 GiB
	// gradients     0.00 GiB
	// optimizer     0.00 GiB
	// activations   2.52 GiB
	// kv cache     16.00 GiB
	// overhead      1.31 GiB
	// total        32.38 GiB
}

// QLoRA on a 24 GB card, and ZeRO-3 over 8 devices, for the same model.
func ExampleEstimate_qloraAndZeRO() {
	q := sizing.Workload{Task: sizing.QLoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048,
		Recompute: sizing.FullRecompute}
	b, _ := sizing.Estimate(exampleLlama2_7B, q)
	fmt.Printf("QLoRA: %.1f GiB\n", b.Total().GiB())
	z := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 4096,
		Recompute: sizing.SelectiveRecompute, Parallel: sizing.Parallel{Data: 8, ZeRO: 3}}
	b, _ = sizing.Estimate(exampleLlama2_7B, z)
	fmt.Printf("ZeRO-3 on 8: %.1f GiB per device\n", b.Total().GiB())
	// A model known only by its size: the architecture terms are approximated.
	b, _ = sizing.Estimate(sizing.Model{Params: 7e9}, sizing.Workload{Task: sizing.Inference, Precision: sizing.FP16, Batch: 1, SeqLen: 4096})
	fmt.Printf("7e9 params, FP16: %.1f GiB, approximated: %v\n", b.Total().GiB(), b.Approx)
	// Output:
	// QLoRA: 12.2 GiB
	// ZeRO-3 on 8: 35.3 GiB per device
	// 7e9 params, FP16: 15.2 GiB, approximated: activations+kv_cache
}

// Memory modes of fine-tuning: mixed precision keeps an FP32 master copy and FP32
// Adam moments (16 bytes a parameter); pure BF16 keeps neither (8 bytes), as
// torchtune and LitGPT's bf16-true train. A chunked loss holds the FP32 copies of
// the logits for one chunk at a time.
func ExampleEstimate_pureBF16() {
	mixed := sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 2, SeqLen: 4096,
		Recompute: sizing.FullRecompute}
	pure := mixed
	pure.StatePrecision, pure.Master = sizing.BF16, sizing.BF16
	chunked := pure
	chunked.ChunkedLoss = true
	for _, c := range []struct {
		name string
		w    sizing.Workload
	}{{"mixed precision", mixed}, {"pure BF16", pure}, {"chunked loss", chunked}} {
		b, _ := sizing.Estimate(exampleLlama2_7B, c.w)
		states := float64(b.Weights+b.Gradients+b.Optimizer) / float64(exampleLlama2_7B.ParamCount())
		fmt.Printf("%-15s %4.1f bytes/param, activations %5.2f GiB\n", c.name, states, b.Activations.GiB())
	}
	// Output:
	// mixed precision 16.0 bytes/param, activations  6.65 GiB
	// pure BF16        8.0 bytes/param, activations  6.65 GiB
	// chunked loss     8.0 bytes/param, activations  4.09 GiB
}

// The longest context a 7B model serves on a 24 GB card (24564 MiB as nvidia-smi
// reports an RTX 4090), and the most concurrent 4096-token sequences on an 80 GB one.
func ExampleMaxContext() {
	w := sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1}
	n, err := sizing.MaxContext(exampleLlama2_7B, w, 24564*sizing.MiB)
	fmt.Println(n, err)
	w.SeqLen = 4096
	n, err = sizing.MaxBatch(exampleLlama2_7B, w, 81920*sizing.MiB)
	fmt.Println(n, err)
	_, err = sizing.MaxContext(exampleLlama2_7B, w, 8*sizing.GiB)
	fmt.Println(errors.Is(err, sizing.ErrDoesNotFit))
	// Output:
	// 17919 <nil>
	// 28 <nil>
	// true
}

// The widest precision in which Llama-3-8B serves a 4096-token context on cards of
// 24, 16, 8 and 4 GiB.
func ExampleFitPrecision() {
	m, _ := sizing.Preset("llama-3-8b")
	w := sizing.Workload{Task: sizing.Inference, Batch: 1, SeqLen: 4096}
	for _, c := range []sizing.Bytes{24 * sizing.GiB, 16 * sizing.GiB, 8 * sizing.GiB, 4 * sizing.GiB} {
		p, b, err := sizing.FitPrecision(m, w, c)
		if errors.Is(err, sizing.ErrDoesNotFit) {
			fmt.Printf("%v: nothing fits\n", c)
			continue
		}
		fmt.Printf("%v: %v, %.1f GiB\n", c, p, b.Total().GiB())
	}
	// Output:
	// 24GiB: BF16, 17.2 GiB
	// 16GiB: FP8, 10.7 GiB
	// 8GiB: Q5_K_M, 7.5 GiB
	// 4GiB: nothing fits
}

// Does Llama-2-7B serving an 8192-token context in BF16 fit an RTX 4090 (24564
// MiB as nvidia-smi reports it) with 20% of its memory kept free?
func ExampleBreakdown_Fits() {
	b, _ := sizing.Estimate(exampleLlama2_7B, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 8192})
	usable, _ := sizing.Usable(24564*sizing.MiB, 0.2)
	fmt.Printf("needs %.1f GiB of %.1f GiB usable: fits %v\n", b.Total().GiB(), usable.GiB(), b.Fits(24564*sizing.MiB, 0.2))
	// Output:
	// needs 18.5 GiB of 19.2 GiB usable: fits true
}

// Reading a Hugging Face config.json: Qwen2.5-72B's parameter count and its memory
// for one 32768-token sequence in BF16, within its 32768-token window.
func ExampleReadConfig() {
	f, err := os.Open("models/qwen2.5-72b.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	m, err := sizing.ReadConfig(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	kv, _ := sizing.KVCacheBytes(m, 1, 1, sizing.BF16)
	b, _ := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 32768})
	_, err = sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 65536})
	fmt.Printf("%s: %d parameters, %d KV bytes per token\n", m.Name, m.ParamCount(), kv)
	fmt.Printf("32768 tokens: %s\n", b.Total().Human())
	fmt.Println(err)
	// Output:
	// qwen2: 72706203648 parameters, 327680 KV bytes per token
	// 32768 tokens: 153.2 GiB
	// sizing: sequence length 65536 is past the model's context window of 32768 tokens: invalid input
}

// Reading a safetensors header: the exact parameters and bytes of the tensors,
// which Estimate then uses for the weights.
func ExampleReadSafetensors() {
	header := `{"embed":{"dtype":"BF16","shape":[32000,4096],"data_offsets":[0,262144000]}}`
	file := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	file = append(file, header...)
	f, err := sizing.ReadSafetensors(bytes.NewReader(file))
	fmt.Println(f.Params, f.Weights.Human(), f.Tensors, err)
	// Output:
	// 131072000 250.0 MiB 1 <nil>
}

// Reading a downloaded model's folder: the config's architecture with the
// shards' exact count, bytes and stored format, from their headers alone (here
// a tiny Llama and one shard holding its 6,269,440 BF16 parameters).
func ExampleReadModelDir() {
	header := `{"w":{"dtype":"BF16","shape":[6269440],"data_offsets":[0,12538880]}}`
	shard := append(binary.LittleEndian.AppendUint64(nil, uint64(len(header))), header...)
	dir := fstest.MapFS{
		"config.json": {Data: []byte(`{"model_type":"llama","num_hidden_layers":2,"hidden_size":512,"num_attention_heads":8,` +
			`"intermediate_size":1024,"vocab_size":1000,"torch_dtype":"bfloat16"}`)},
		"model.safetensors": {Data: shard},
	}
	f, err := sizing.ReadModelDir(dir)
	fmt.Println(f.Model.Layers, f.Params, f.Weights.Human(), f.Precision, err)
	// Output:
	// 2 6269440 12.0 MiB BF16 <nil>
}
