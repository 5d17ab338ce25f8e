// Package sizing estimates how much GPU memory a transformer needs for a job, per
// device, split into weights, gradients, optimizer state, activations, KV cache and
// overhead, with the published source of every formula in its doc comment.
//
// The main types:
//   - Bytes, an amount of memory, with decimal (GB) and binary (GiB) constants;
//   - Model, a transformer's architecture or just its parameter count;
//   - Precision, a number format with its exact bits per parameter;
//   - Workload, the job: Task (Inference, Training, LoRA, QLoRA), precisions,
//     Optimizer, batch, sequence length, Recompute, and the Parallel layout;
//   - Breakdown, the answer of Estimate, whose Total is the GPU memory per device;
//   - Calibration, a measured peak carried into other estimates as overhead;
//   - Shape (Model.Shape), the parameters, layers, width and heads a forward step's
//     cost depends on, assumed from Params alone when the architecture is unknown.
//
// A Model comes from what users have: Preset by name (the built-in models are read
// from stored config.json files), ReadConfig from a Hugging Face config.json,
// ReadGGUF and ReadSafetensors from a weights file's header (exact parameters,
// stored bytes and stored Precision; CombineFiles adds up a model split over
// several files), and ReadModelDir from a downloaded model's folder, which most
// callers with files want. Model.StoredPrecision is the format the files store,
// a caller's natural default for inference; Model.Notes says what reading a model
// assumed.
//
// MaxContext, MaxBatch and FitPrecision answer the inverse questions: the largest
// context or batch, and the widest precision, that fit a capacity.
//
// Zero values: an unset Task or Precision is an error; an unset Optimizer means
// AdamW; an unset GradPrecision follows Precision, and an unset KVPrecision
// follows it for FP16 and wider formats and is FP16 for narrower ones
// (Precision.KVDefault); zero parallel degrees
// mean 1; a zero Overhead means DefaultOverhead; zero LoRARank and LoRATargets mean
// DefaultLoRARank and the task's default targets. Batch and SeqLen must be at least 1.
//
// Attention: Workload.EagerAttention's zero value is memory-efficient attention
// (FlashAttention, SDPA, paged attention), what vLLM, TGI, llama.cpp and
// transformers run; set it for eager attention, which materialises the a·s² score
// matrix. Serving engines prefill in chunks: Workload.PrefillChunk, set to
// DefaultPrefillChunk for vLLM, bounds the activations to one chunk of tokens.
//
// Conventions: sizes are per device and in bytes, rounded up. Under mixed precision
// the FP32 master copy counts under Optimizer, so mixed-precision AdamW costs 2 + 2 +
// 12 = 16 bytes per parameter (the ZeRO paper's figure). Bad input returns an error
// wrapping ErrInvalid (or ErrNotFound, ErrDoesNotFit), never a panic, a NaN or a
// wrapped-around number. Messages start with "sizing: ", quote the input once and
// end with the sentinel's text, which carries no package name of its own; sizes for
// people read in GiB with the exact bytes beside them. A model given only by Params is still answered; the terms
// that needed the architecture are listed in Breakdown.Approx.
//
// Every function is a pure calculation on values, safe for concurrent use; the
// package holds no mutable state.
//
// A three-line use:
//
//	m := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, GatedFFN: true}
//	b, err := sizing.Estimate(m, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 4096})
//	fmt.Printf("%.1f GiB %v\n", b.Total().GiB(), err)
package sizing
