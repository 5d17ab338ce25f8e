package sizing

import "math"

// layerActivations returns the bytes one transformer layer keeps for the backward
// pass per token of the micro-batch, on one device of a tensor-parallel group of t,
// following the per-operation accounting of Korthikanti et al. 2022 ("Reducing
// Activation Recomputation in Large Transformer Models", §4.1), generalised from
// GPT's shape (FFN 4h, one KV head per query head, GeLU) to any FFN width, gated
// FFNs, GQA and MQA and mixtures of experts. e is the width of a stored activation
// (2 bytes in the paper); dropout masks are one byte per element.
//
// Kept whole on every device of the group (Korthikanti's 10 for e = 2):
//   - the inputs of the two layer norms, e·2h;
//   - the input of the QKV projection and of the first FFN matrix, e·2h;
//   - the dropout masks after attention and after the FFN, 2h bytes;
//   - for a mixture of experts, the router's logits, e·E (not in the paper).
//
// Split over the group (24/t for e = 2 and GPT's shape):
//   - Q and K for the score product and V for the attention over values:
//     e·(a·d + 2·k·d), k·d per device no smaller than one head;
//   - the input of the output projection, e·a·d;
//   - the FFN: for a plain FFN the GeLU input and the second matrix's input, e·2f
//     (Korthikanti's 8sbh + 8sbh at f = 4h); for a gated FFN, as PyTorch's autograd
//     saves them, the gate and up outputs, the activated gate and their product,
//     e·4f; each token passes through ExpertsPerToken experts, so an MoE multiplies
//     this by them (memory does not grow with the number of experts).
//
// The attention scores, (2e+1)·a·s per token (Korthikanti's 5·a·s/h term: softmax
// output, dropout mask and dropout output for each of a heads over s keys), are
// dropped by FlashAttention (Dao et al. 2022, which keeps only O(s) statistics) and
// by selective recomputation; they are split over t. With sequence parallelism the
// kept-whole part is split over t as well.
//
// For GPT's shape at e = 2 this is exactly h·(34 + 5·a·s/h) per token without
// parallelism, h·(10 + 24/t + 5·a·s/(h·t)) with tensor parallelism, and
// h·(34/t + 5·a·s/(h·t)) with sequence parallelism too (Korthikanti, Table 2).
// Models trained without dropout (Llama) keep no masks; counting them anyway
// overstates by 2 bytes in about 34.
func layerActivations(ar *arch, s, t, e float64, scores, sp bool) float64 {
	whole := e*4*ar.h + 2*ar.h
	if ar.experts > 1 {
		whole += e * ar.experts
	}
	if sp {
		whole /= t
	}
	kd := ar.k * ar.d / t
	if kd < ar.d && ar.k >= 1 {
		kd = ar.d // KV heads replicated across the group
	}
	ffn := 2 * ar.f
	if ar.gated {
		ffn = 4 * ar.f
	}
	split := e * (2*ar.a*ar.d/t + 2*kd + ffn*ar.ept/t)
	v := whole + split
	if scores {
		v += (2*e + 1) * ar.a / t * s
	}
	return v
}

// lossChunks is the chunks a chunked loss splits the logits into: torchtune's
// CEWithChunkedOutputLoss defaults to 8 (num_output_chunks). Finer chunking
// (LitGPT's chunks of 128 tokens) holds less; a fused linear cross-entropy that
// never holds the 16-bit logits whole holds less again, so for those this is an
// upper bound.
const lossChunks = 8

// trainingActivations returns the activation memory of one device for training,
// LoRA and QLoRA, running w.
//
// Per layer and token it is layerActivations; the scores are dropped under
// memory-efficient attention and SelectiveRecompute. FullRecompute keeps only each
// layer's input, e·h per token (Korthikanti's 2sbh; divided by t under sequence
// parallelism), plus one layer's full set while that layer is recomputed in the
// backward pass. For GPT-2 1.5B at 1024 tokens × 32 the transformer's part is 5.0
// GB of layer inputs and 1.8 GB for the recomputed layer, 6.8 GB against the ZeRO
// paper's "about 8 GB" (§3.2), which leaves out the logits.
//
// Pipeline parallelism with p stages gives each device ⌈L/p⌉ layers, but under the
// 1F1B schedule the first stage keeps the activations of p micro-batches in flight,
// so it holds about the whole model's worth (Narayanan et al. 2021, §2.2.1;
// Korthikanti §4.2.3): ⌈L/p⌉·p layers, independent of p. The interleaved
// schedule's extra factor (1 + (p−1)/(p·m)) is not modelled.
//
// The loss adds its copies of the logits, s·b·V values each, split over t
// (vocabulary-parallel cross-entropy): the output head's logits at the compute
// width e, their FP32 upcast (Hugging Face's causal language models call
// logits.float() before the loss; transformers issue #30860), the log-softmax
// PyTorch's cross-entropy computes and saves for its backward pass, and that
// pass's gradient of it, FP32 both: e + 4 + 4 + 4 bytes per value. At FP32 the
// upcast is the logits themselves, and the count keeps a copy for the shifted
// logits the loss makes contiguous, so that a wider precision never needs less
// memory. For a large
// vocabulary at a long sequence they rival the layers' activations. They are held
// beside the layers' activations, and under full recomputation beside the
// recomputed layer's set too: the caching allocator keeps the loss's blocks as
// the backward pass begins recomputing. Counting them on the device that holds
// the first stage's peak is conservative for pipelines. With Workload.ChunkedLoss
// the FP32 copies are held for one chunk of lossChunks at a time: e + 12/8 bytes
// per value.
//
// For LoRA and QLoRA the same activations are counted: the base is frozen but the
// backward pass still runs through every layer to reach the adapters, through norms,
// nonlinearities and attention that need their saved inputs. Inputs saved only for
// frozen weights' gradients could be skipped, so this is an upper bound.
func trainingActivations(ar *arch, w *Workload) float64 {
	p := &w.Parallel
	s, b, t, pp, e := float64(w.SeqLen), float64(w.Batch), float64(one(p.Tensor)), float64(one(p.Pipeline)), computeBytes(w.Precision)
	flash, rc, sp := !w.EagerAttention, w.Recompute, p.SequenceParallel
	scores := !flash && rc == NoRecompute
	layers := math.Ceil(ar.L/pp) * pp
	perLogit := e + 12
	if w.ChunkedLoss {
		perLogit = e + 12.0/lossChunks
	}
	logits := s * b * ar.V * perLogit / t
	if rc == FullRecompute {
		input := e * ar.h
		if sp {
			input /= t
		}
		return s*b*layers*input + s*b*layerActivations(ar, s, t, e, !flash, sp) + logits
	}
	return s*b*layers*layerActivations(ar, s, t, e, scores, sp) + logits
}

// inferenceActivations returns a working-set estimate for a forward pass of w
// without autograd: the largest set of tensors alive at once while one layer runs, over the
// prefill of Batch sequences of SeqLen tokens at once (as Hugging Face's generate
// prefills a batch; vLLM measures the same peak by profiling a forward pass of its
// largest batch of tokens), plus the last token's logits.
//
// Per token, the attention phase holds the residual stream and its normalised copy
// (e·2h), the projected Q, K and V (e·(a·d + 2·k·d)) and, without FlashAttention,
// the scores and their softmax (e·2·a·s); the FFN phase holds e·2h plus the gate,
// up and product outputs of a gated FFN (e·3f) or the up output and its activation
// (e·2f), times ExpertsPerToken for a mixture of experts. The larger phase counts.
// Tensor parallelism splits heads and FFN width over t.
//
// The logits of the last token of each sequence, b·V values in FP32 (4 bytes), are
// what generation keeps: Hugging Face computes only the last position's logits when
// generating and upcasts them to FP32 for sampling (transformers pull request
// #31292, June 2024). Before that, a causal language model's forward pass built
// the logits of every prompt token and upcast them all to FP32 (logits.float();
// issue #30860), so at the upcast the prefill held s·b·V values at the compute
// width and again at FP32: with FullLogits the activations are the larger of
// those two copies and the layer's working set, which is freed before the head
// runs. (At FP32 the upcast copies nothing; the count keeps the second copy as an
// upper bound, so that a wider precision never needs less memory.)
//
// With a prefill chunk (Workload.PrefillChunk), one forward pass runs at most that
// many tokens, so the per-token sets count for min(s·b, chunk) tokens; each token
// still attends over up to s keys.
func inferenceActivations(ar *arch, w *Workload) float64 {
	s, b, t, e := float64(w.SeqLen), float64(w.Batch), float64(one(w.Parallel.Tensor)), computeBytes(w.Precision)
	flash, chunk, fullLogits := !w.EagerAttention, w.PrefillChunk, w.FullLogits
	kd := ar.k * ar.d / t
	if kd < ar.d && ar.k >= 1 {
		kd = ar.d
	}
	attn := e * (2*ar.h + ar.a*ar.d/t + 2*kd)
	if !flash {
		attn += e * 2 * ar.a / t * s
	}
	ffn := 2 * ar.f
	if ar.gated {
		ffn = 3 * ar.f
	}
	ffnPhase := e * (2*ar.h + ffn*ar.ept/t)
	tokens := s * b
	if chunk > 0 {
		tokens = min(tokens, float64(chunk))
	}
	layer := tokens * max(attn, ffnPhase)
	if fullLogits {
		return max(layer, s*b*ar.V*(e+4)/t)
	}
	return layer + b*ar.V*4/t
}
