package sizing

import (
	"fmt"
	"math"
)

// DefaultOverhead is the per-device memory Estimate adds for the CUDA context, the
// kernels' workspaces and the framework when Workload.Overhead is zero: 1343 MiB,
// what Hugging Face's "model memory anatomy" guide measured for loading the CUDA
// kernels alone (torch.ones on a V100, before any model weight). Calculators
// assume from 457 MiB to about 1.3 GB; the measured figure is the one cited.
// Calibrate replaces it with a figure measured on the user's own stack.
const DefaultOverhead = 1343 * MiB

// Assumptions for a model known only by its parameter count (see Estimate).
const (
	approxAspect  = 128   // hidden size per layer, h/L: Llama-2-7B has 4096/32
	approxHeadDim = 128   // head dimension of Llama, Mistral and Qwen2 models
	approxVocab   = 32000 // Llama-2's and Mistral's vocabulary
	approxKVHeads = 8     // grouped-query attention as Llama 3, Mistral, Qwen2.5 and Qwen3 have it
)

// arch is the model's architecture as float64 numbers, with MoE and defaults
// resolved: L layers, h hidden, a query heads, k KV heads, d head dimension, f FFN
// width, V vocabulary, experts (1 when dense) and ept experts per token.
type arch struct {
	L, h, a, k, d, f, V float64
	experts, ept        float64
	gated               bool
	// latent: the KV cache values per token per layer under latent attention
	// (zero otherwise); sliding of the L layers keep at most window tokens;
	// linear of them keep a fixed state as large as state tokens of KV cache.
	latent, sliding, window float64
	linear, state           float64
}

// resolveArch writes the architecture of m, a valid model with one, to ar, which
// must be zero, and reports whether it had to approximate terms: a model without
// its FFN width is assumed to have one of 4·Hidden.
func resolveArch(m *Model, ar *arch) bool {
	// ar is written field by field: a composite literal would be built aside and
	// copied.
	ar.L, ar.h, ar.a = float64(m.Layers), float64(m.Hidden), float64(m.Heads)
	ar.k, ar.d, ar.f = float64(m.kvHeads()), float64(m.headDim()), float64(m.FFN)
	ar.V, ar.gated = float64(m.Vocab), m.GatedFFN
	ar.experts, ar.ept = 1, 1
	if m.SlidingWindow > 0 {
		ar.sliding, ar.window = float64(m.slidingLayers()), float64(m.SlidingWindow)
	}
	if m.KVLoRARank > 0 {
		ar.latent = float64(m.kvValuesPerToken())
	}
	if m.LinearLayers > 0 {
		ar.linear = float64(m.LinearLayers)
		ar.state = float64(m.LinearState) / float64(m.kvValuesPerToken())
	}
	approx := false
	if m.FFN == 0 {
		ar.f, approx = 4*ar.h, true
	}
	if m.Experts > 1 {
		ar.experts = float64(m.Experts)
		ar.ept = ar.experts
		if m.ExpertsPerToken > 0 {
			ar.ept = float64(m.ExpertsPerToken)
		}
		// Activations pass through the routed experts' width, and the shared
		// experts count as that many more routed ones.
		ar.f = float64(m.expertFFN())
		if ar.f > 0 {
			ar.ept += float64(m.SharedFFN) / ar.f
		}
	}
	return approx
}

// assumeArch writes to ar, which must be zero, the architecture Estimate assumes
// for a model known by its parameter count N alone.
//
// It is the shape of a dense Llama-style model without
// GQA: N ≈ 12·L·h² (Kaplan et al. 2020, §2.1: 12·n_layer·d_model² non-embedding
// parameters, FFN four times the hidden size) with h = 128·L as in Llama-2-7B, so
// L = ∛(N / (12·128²)) and h = 128·L; below one layer (N < 196,608) L = 1 and
// h = √(N/12). L is kept fractional here, so the per-layer terms grow smoothly with
// N; the terms that count whole layers on a device (the KV cache and training
// activations, ⌈L/p⌉ layers per pipeline stage of p) round it up, and Estimate
// refuses a pipeline degree above ⌈L⌉, as it refuses one above Layers for a model
// with its architecture. Heads have dimension 128, every head is its own KV head,
// the FFN is 4h and not gated, the vocabulary 32000, and attention is grouped-query
// with 8 KV heads (fewer when there are fewer heads), the shape of Llama 3,
// Mistral, Qwen2.5 and Qwen3 (Llama-2-7B, with a KV head per head, keeps 4 times
// the KV cache this assumes). Llama-2-7B's 6.74e9 parameters
// give 32.5 layers of hidden 4157 (true: 32 of 4096), counted as 33 whole layers. The terms that depend on this shape (activations,
// KV cache, LoRA adapters, Adafactor's state) are then flagged in Breakdown.Approx.
func assumeArch(N float64, ar *arch) {
	L := math.Cbrt(N / (12 * approxAspect * approxAspect))
	h := approxAspect * L
	if L < 1 {
		L, h = 1, math.Sqrt(N/12)
	}
	a := h / approxHeadDim
	ar.L, ar.h, ar.a, ar.k, ar.d, ar.f, ar.V = L, h, a, min(a, approxKVHeads), approxHeadDim, 4*h, approxVocab
	ar.experts, ar.ept = 1, 1
}

// checkModel checks m as Model.Validate does, counting its problems without
// building errors, and reports whether m is valid. For a valid m it returns the
// parameter count and writes to ar, which must be zero, the architecture the
// terms use (resolveArch, or assumeArch for a model without one), reporting
// whether terms are approximated. It sets m's HeadDim and KVHeads to their
// defaults when zero, which changes no figure: m is the caller's copy.
func checkModel(m *Model, ar *arch) (n int64, approx, ok bool) {
	full := m.hasArch()
	if !full {
		// The assumed shape needs a cube root (math.Cbrt, a chain of five
		// divisions, some 40 ns), begun first so that the checks run while it
		// does; for a model check refuses it is never read.
		assumeArch(float64(m.Params), ar)
	}
	var p problems
	d := m.check(&p)
	if p.n > 0 {
		return 0, false, false
	}
	if !full {
		return m.Params, true, true
	}
	// The defaults are resolved once, in the caller's copy, for the terms that
	// read them; check has divided for the head dimension.
	m.HeadDim, m.KVHeads = d, m.kvHeads()
	approx = resolveArch(m, ar)
	if m.Params > 0 {
		return m.Params, approx, true
	}
	return m.archSum(false), approx, true // check bounded the architecture's sum
}

// archBound is an upper bound, in float64, of every partial sum ParamCount forms
// from the architecture, so that below 2^62 the count cannot overflow; headDim is
// m.headDim(), which the caller has at hand.
func archBound(m *Model, headDim int) float64 {
	h, f, V := float64(m.Hidden), float64(max(m.FFN, m.ExpertFFN, m.SharedFFN)), float64(m.Vocab)
	d := float64(headDim)
	// The widest projection; every value is finite and non-negative, so plain
	// comparisons pick the largest (max would also order NaNs and signed zeros).
	x := h
	for _, v := range [...]float64{float64(m.Heads) * d, float64(m.kvHeads()) * d, float64(m.Heads) * (d + float64(m.VHeadDim))} {
		if v > x {
			x = v
		}
	}
	E := 1.0
	if m.Experts > 1 {
		E = float64(m.Experts)
	}
	rank := float64(m.QLoRARank) + float64(m.KVLoRARank) + float64(m.RopeHeadDim) + 1
	perLayer := 5*h*x + 4*(E+1)*(h+1)*(f+1) + 8*(h+x) + 4*(h+x+1)*rank + float64(m.NormsPerLayer)*2*h + 2*d + float64(m.LinearParams)
	return (float64(m.Layers)+1)*perLayer + 2*V*h + float64(m.Positions)*h + 4*h + float64(m.Buffers)
}

// archFits reports whether archBound(m, headDim) is under 2^62, the condition
// under which ParamCount sums the architecture. The bound is computed only for a
// model that is not small.
func archFits(m *Model, headDim int) bool {
	return m.small() || archBound(m, headDim) < 1<<62
}

// small reports whether m's sizes are all non-negative and ordinary: fewer than
// 2^10 layers (dense and sliding-window ones too), heads, KV heads, experts,
// experts per token and norms per layer, hidden sizes, head dimensions and ranks
// under 2^16, FFN widths under 2^20, and vocabularies, position tables, context
// windows and sliding windows under 2^30 (Llama 3.1 405B and DeepSeek-V3 are well
// inside these sizes). archBound is monotone in every field and stays below 2^59
// at these limits (a head dimension defaulted from Hidden is no larger), so a
// small model's parameter count cannot overflow. Each group of fields, ORed,
// has no bit at or past its limit; a negative field fails the test (as uint it
// has its top bit set).
func (m *Model) small() bool {
	return uint(m.Layers|m.DenseLayers|m.SlidingLayers|m.LinearLayers|m.MTPLayers|m.Heads|m.KVHeads|m.Experts|m.ExpertsPerToken|m.NormsPerLayer)>>10|
		uint(m.Hidden|m.HeadDim|m.VHeadDim|m.QLoRARank|m.KVLoRARank|m.RopeHeadDim)>>16|
		uint(m.FFN|m.ExpertFFN|m.SharedFFN)>>20|
		uint(m.Vocab|m.Positions|m.Context|m.SlidingWindow|m.LinearState|m.LinearParams|m.Buffers)>>30 == 0 && m.Params|int64(m.StoredBytes) >= 0
}

// checkParallel validates the layout against the model. Tensor parallelism splits
// attention by heads (Shoeybi et al. 2019, Megatron-LM §3), so its degree must
// divide the query heads; KV heads are split when the degree divides them and
// replicated when they divide the degree (as vLLM does for GQA models with fewer KV
// heads than devices), and any other combination is an error. Pipeline stages need
// at least one layer each. Without the architecture, Estimate checks the pipeline
// degree against the ⌈L⌉ layers assumeArch assumes.
func checkParallel(m *Model, p *Parallel) error {
	if p.Tensor <= 1 && p.Pipeline <= 1 || !m.hasArch() {
		return nil
	}
	t := one(p.Tensor)
	if m.Heads%t != 0 {
		return fmt.Errorf("sizing: tensor-parallel degree %d does not divide %d heads: %w", t, m.Heads, ErrInvalid)
	}
	if k := m.kvHeads(); k%t != 0 && t%k != 0 {
		return fmt.Errorf("sizing: tensor-parallel degree %d neither divides nor is a multiple of %d KV heads: %w", t, k, ErrInvalid)
	}
	if one(p.Pipeline) > m.Layers {
		return fmt.Errorf("sizing: pipeline degree %d exceeds %d layers: %w", one(p.Pipeline), m.Layers, ErrInvalid)
	}
	return nil
}

// computeBytes returns the width of activations and of the default KV cache for a
// weight precision: the precision's own width for FP16 and wider, and 2 bytes
// (FP16/BF16) for anything narrower, since FP8 and quantized weights are
// dequantized into 16-bit kernels (LLM.int8, GPTQ, AWQ, llama.cpp, bitsandbytes,
// and vLLM's "auto" KV cache dtype, which follows the 16-bit model dtype).
func computeBytes(p Precision) float64 { return p.ComputeBits() / 8 }

// Estimate returns the GPU memory per device for running w on m, split into its
// parts, or an error wrapping ErrInvalid for a workload or model Validate or the
// checks below reject, or whose sizes overflow int64. It never panics; every term
// is non-negative and Total does not overflow.
//
// Terms, per device, with P the parameter count (every expert of a mixture of
// experts, all of which are resident) and T the trainable parameters (P for
// Training, the adapters for LoRA and QLoRA, none for Inference):
//
//   - Weights: Model.StoredBytes when set (a file's exact bytes; Inference and
//     LoRA), else P × Precision.Bits()/8, the base in NF4 for QLoRA, plus the adapters
//     at the compute width for LoRA and QLoRA. With the architecture known, the
//     embedding tables and the output head of an FP8, INT8, INT4, NF4, GPTQ4 or
//     AWQ4 model count at 16 bits, as their checkpoints keep them (WeightBytes
//     gives the sources); WeightBytes answers the same figure.
//   - Gradients: T × GradPrecision bits/8, GradPrecision following Precision
//     (the compute width for adapters) when unset: the ZeRO paper's 2 bytes under
//     mixed precision (Rajbhandari et al. 2020, §3.1); FP32 gives Megatron's FP32
//     accumulation and the Hugging Face guide's 18 bytes per parameter.
//   - Optimizer, per trainable parameter, w the width of a moment
//     (Workload.StatePrecision; zero: 4 bytes, 8 for FP64 training): SGD 0,
//     Momentum w, Adam and AdamW 2w (two moments; Kingma & Ba 2015), Adam8bit 2
//     (two 8-bit moments; Dettmers et al. 2022), Lion w (one momentum; Chen et al.
//     2023), Adafactor w per value of its factored second moment, r+c values for an
//     r×c matrix and no first moment (Shazeer & Stern 2018, the β1 = 0 default);
//     full training counts every parameter as part of an h×h matrix, 2P/h values.
//     Plus the master copy (Workload.Master): by default, below FP32, the 4-byte
//     FP32 copy of mixed precision (Micikevicius et al. 2018), so mixed-precision
//     AdamW is 2 + 2 + 12 = 16 bytes per parameter; a master as wide as the
//     trained weights is no copy, so pure BF16 AdamW (StatePrecision and Master
//     BF16) is 2 + 2 + 4 = 8.
//   - Activations, training: per layer and token, the tensors the backward pass
//     needs in Korthikanti et al. 2022's accounting, h·(34 + 5·a·s/h) bytes for
//     GPT's shape, generalised to any FFN width, gated FFNs, GQA and mixtures of
//     experts (each token's routed experts); the attention scores are dropped under
//     FlashAttention and selective recomputation, full recomputation keeps only
//     each layer's input plus one layer's set, tensor parallelism splits them and
//     sequence parallelism splits the rest. Times the layers on the device (the
//     whole model's worth on the first stage of a 1F1B pipeline), plus the loss's
//     copies of the logits (trainingActivations). LoRA and QLoRA count the same
//     (an upper bound). Inference: the largest set alive while one layer runs over
//     the prefill, plus the last token's FP32 logits; with FullLogits, the larger
//     of that set and every prompt token's logits in two copies
//     (inferenceActivations).
//   - KV cache, Inference only: 2 × layers × KV heads × head dimension × SeqLen ×
//     Batch × KVPrecision bits/8 (Kwon et al. 2023); under latent attention
//     (KVLoRARank) KVLoRARank + RopeHeadDim values per token per layer in place
//     of 2 × KV heads × head dimension (DeepSeek-V2 §2.1.2); sliding-window layers
//     keep at most SlidingWindow tokens. Past the model's Context is an error. Unset KVPrecision follows
//     Precision for FP16 and wider and is FP16 for narrower formats (FP8 and
//     quantized weights): Precision.KVDefault.
//   - Overhead: Workload.Overhead, or DefaultOverhead when zero.
//
// A mixture of experts keeps every expert resident, so P counts them all
// (Model.ParamCount); the KV cache does not depend on experts, and activations grow
// with the experts each token is routed to, not with their number. FP8 Precision for training counts 1-byte weights and
// gradients; recipes that keep BF16 weights beside FP8 copies (Transformer Engine)
// are closer to BF16 Precision.
//
// Parallel layouts (per device): data parallelism replicates everything, so it saves
// nothing. ZeRO over the data-parallel degree N divides the optimizer state (stage
// 1), also the gradients (2), also the weights (3) by N (Rajbhandari et al. 2020,
// §5: 7.5B parameters on 64 devices need 120, 31.4, 16.6 and 1.9 GB of model
// state). Tensor degree t and pipeline degree p divide weights, gradients and
// optimizer state by t·p (norms and biases, a fraction of a percent, are divided
// too); pipeline stages hold ⌈L/p⌉ layers of KV cache. OffloadOptimizer moves the
// optimizer term, master copy included, and the gradients, kept in FP32, to Host
// (Ren et al. 2021, ZeRO-Offload), times DeepSpeed's 1.5 buffer factor; Host is
// this device's share.
//
// A model given by Params alone is answered with an assumed dense Llama-like shape:
// N ≈ 12·L·h² with h = 128·L, heads of 128, 8 KV heads (GQA), an FFN of 4h and
// a 32000-word vocabulary (a pipeline degree above its ⌈L⌉ layers is an error
// wrapping ErrInvalid), and
// the terms that depend on it are listed in Breakdown.Approx; a model with the
// architecture but no FFN width assumes 4·Hidden and flags the same terms. A model
// with both Params and the architecture takes the weights from Params and every
// other term from the architecture.
//
// Estimate does not allocate when it succeeds and is safe for concurrent use
// (BenchmarkEstimate measures it).
func Estimate(m Model, w Workload) (br Breakdown, err error) {
	// The model is resolved before the workload is checked, so that the checks
	// overlap the cube root an assumed shape needs (see checkModel); a workload's
	// problems are still reported first.
	var sm sizedModel
	n, approx, ok := checkModel(&m, &sm.ar)
	var p problems
	if w.check(&p); p.n > 0 {
		return Breakdown{}, w.Validate()
	}
	if !ok {
		return Breakdown{}, m.Validate()
	}
	if w.Task == Inference && m.Context > 0 && w.SeqLen > m.Context {
		return Breakdown{}, fmt.Errorf("sizing: sequence length %d is past the model's context window of %d tokens: %w",
			w.SeqLen, m.Context, ErrInvalid)
	}
	if err := checkParallel(&m, &w.Parallel); err != nil {
		return Breakdown{}, err
	}
	if approx && float64(one(w.Parallel.Pipeline)) > math.Ceil(sm.ar.L) {
		// checkParallel does this for a model with its architecture.
		return Breakdown{}, fmt.Errorf("sizing: pipeline degree %d exceeds the %.0f layers assumed for %d parameters: %w",
			one(w.Parallel.Pipeline), math.Ceil(sm.ar.L), n, ErrInvalid)
	}
	sm.approx, sm.n, sm.emb, sm.stored = approx, float64(n), embeddingParams(&m), float64(m.StoredBytes)
	if !sm.breakdown(&w, &br) {
		return Breakdown{}, fmt.Errorf("sizing: memory estimate overflows int64 bytes: %w", ErrInvalid)
	}
	return br, nil
}

// sizedModel is a validated model as the memory terms read it.
type sizedModel struct {
	ar     arch    // the architecture, given or assumed
	approx bool    // the architecture is assumed or incomplete (see checkModel)
	n      float64 // parameters, every expert counted
	emb    float64 // of them, in embedding tables and the output head (embeddingParams)
	stored float64 // Model.StoredBytes: a file's exact bytes; zero when unknown
}

// breakdown writes the breakdown of a validated workload on the model to br,
// which must be zero, and returns false when a size does not fit int64 bytes.
func (sm *sizedModel) breakdown(w *Workload, br *Breakdown) bool {
	ar, approx, N, emb, stored := &sm.ar, sm.approx, sm.n, sm.emb, sm.stored
	p := &w.Parallel
	t, pp, dp := float64(one(p.Tensor)), float64(one(p.Pipeline)), float64(one(p.Data))
	wShard, gShard, oShard := t*pp, t*pp, t*pp
	if p.ZeRO >= 1 {
		oShard *= dp
	}
	if p.ZeRO >= 2 {
		gShard *= dp
	}
	if p.ZeRO >= 3 {
		wShard *= dp
	}
	s, b := float64(w.SeqLen), float64(w.Batch)
	e := computeBytes(w.Precision)

	var weights, grads, opt, act, kv float64
	var terms Terms
	if w.Task == Inference {
		weights = storedWeights(N, emb, w.Precision)
		if stored > 0 {
			weights = stored
		}
		kvBits := w.Precision.KVDefault().Bits()
		if w.KVPrecision != 0 {
			kvBits = w.KVPrecision.Bits()
		}
		var perToken float64 // KV values per token per layer on this device
		if ar.latent > 0 {
			perToken = ar.latent // one latent shared by every head, replicated across the group
		} else {
			kdev := ar.k / t
			if kdev < 1 && ar.k >= 1 {
				kdev = 1 // KV heads replicated across the tensor-parallel group
			}
			perToken = 2 * kdev * ar.d
		}
		tokens := s // tokens each layer keeps, on average over the layers
		if ar.sliding > 0 && ar.window < s || ar.linear > 0 {
			tokens = ((ar.L-ar.sliding-ar.linear)*s + ar.sliding*min(ar.window, s) + ar.linear*ar.state) / ar.L
		}
		kv = math.Ceil(ar.L/pp) * perToken * tokens * b * kvBits / 8
		act = inferenceActivations(ar, w)
		terms = TermActivations | TermKVCache
	} else {
		optimizer := w.Optimizer
		if optimizer == 0 {
			optimizer = AdamW
		}
		var trainable, factored, trainBits float64
		if w.Task == Training {
			weights = storedWeights(N, emb, w.Precision)
			trainable, trainBits = N, w.Precision.Bits()
			if optimizer == Adafactor {
				factored = 2 * N / ar.h
				terms = TermOptimizer
			}
		} else {
			rank := float64(w.LoRARank)
			if rank == 0 {
				rank = DefaultLoRARank
			}
			trainable, factored = adapterShape(ar, w.LoRATargets.resolve(w.Task), rank)
			trainBits = 8 * e // adapters at the compute width, at least 16 bits
			base := w.Precision
			if w.Task == QLoRA {
				base = NF4
			}
			weights = storedWeights(N, emb, base)
			if stored > 0 && w.Task == LoRA {
				weights = stored
			}
			weights += trainable * trainBits / 8
			terms = TermWeights | TermGradients | TermOptimizer
		}
		gradBits := trainBits
		if w.GradPrecision != 0 {
			gradBits = w.GradPrecision.Bits()
		}
		grads = trainable * gradBits / 8
		opt = optimizerBytes(optimizer, trainable, factored, trainBits, w.StatePrecision.Bits(), w.Master.Bits())
		act = trainingActivations(ar, w)
		terms |= TermActivations
	}

	// Every term must be a number from 0 up (a NaN fails) and fit int64 bytes;
	// the total below is a sum of non-negative terms, so its bound bounds each
	// term it includes.
	wt, gr, op := weights/wShard, grads/gShard, opt/oShard
	if !(wt >= 0 && gr >= 0 && op >= 0 && act >= 0 && kv >= 0) {
		return false
	}
	if p.OffloadOptimizer {
		// ZeRO-Offload keeps the FP32 gradients on the host with the optimizer
		// state (Ren et al. 2021, §4.1), and DeepSpeed's estimator
		// (estimate_zero3_model_states_mem_needs) sizes the host side at 16 bytes
		// per parameter times an additional_buffer_factor of 1.5 for its pinned
		// buffers: T0_3B's 2,783M parameters need 62.2 GiB of host memory and
		// 2 bytes per parameter on the GPU.
		host := 1.5 * (op + gr*4/max(1, gradBitsOf(w)/8))
		// The offloaded terms leave the total, so they are bounded here.
		if !(gr < 9e18 && op < 9e18 && host < 9e18) {
			return false
		}
		br.Host = Bytes(math.Ceil(host))
		gr, op = 0, 0
	}
	overhead := w.Overhead
	if overhead == 0 {
		overhead = DefaultOverhead
	}
	wt, gr, op, act, kv = math.Ceil(wt), math.Ceil(gr), math.Ceil(op), math.Ceil(act), math.Ceil(kv)
	// The total must fit with margin, so that Total never wraps.
	if !(wt+gr+op+act+kv+float64(overhead) < 9e18) {
		return false
	}
	br.Weights, br.Gradients, br.Optimizer = Bytes(wt), Bytes(gr), Bytes(op)
	br.Activations, br.KVCache, br.Overhead = Bytes(act), Bytes(kv), overhead
	if approx {
		br.Approx = terms
	}
	return true
}

// gradBitsOf returns the width of the gradients Estimate counts for w.
func gradBitsOf(w *Workload) float64 {
	if w.GradPrecision != 0 {
		return w.GradPrecision.Bits()
	}
	if w.Task == Training {
		return w.Precision.Bits()
	}
	return 8 * computeBytes(w.Precision)
}

// optimizerBytes returns the optimizer state for params trainable parameters kept
// at paramBits, factored being the values of Adafactor's factored second moment,
// with moments of stateBits and a master copy of masterBits (zero: the defaults
// Workload.StatePrecision and Workload.Master document); see Estimate for the
// sources.
func optimizerBytes(o Optimizer, params, factored, paramBits, stateBits, masterBits float64) float64 {
	state := stateBits / 8
	if state == 0 {
		state = max(paramBits/8, 4) // at least FP32: a plain max, as paramBits is finite
	}
	var v float64
	switch o {
	case Momentum, Lion:
		v = params * state
	case Adam, AdamW:
		v = 2 * params * state
	case Adam8bit:
		v = 2 * params
	case Adafactor:
		v = factored * state
	}
	switch {
	case masterBits == 0 && paramBits < 32:
		v += 4 * params // FP32 master copy of mixed precision
	case masterBits > paramBits:
		v += params * masterBits / 8
	}
	return v
}
