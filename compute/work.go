package compute

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// SampleFLOPs returns the training work of samples samples that each cost perSample
// FLOPs in the forward and backward passes together: samples × perSample. This is
// the first seed article's method (total work = training data × FLOPs per sample,
// forward and backward); its example, 1e8 samples of 1e9 FLOPs, is 1e17 FLOPs.
// Both inputs must be finite and non-negative.
func SampleFLOPs(samples float64, perSample FLOPs) (FLOPs, error) {
	if err := nonNegative("samples", samples); err != nil {
		return 0, err
	}
	if err := nonNegative("FLOPs per sample", float64(perSample)); err != nil {
		return 0, err
	}
	w := FLOPs(samples * float64(perSample))
	if !finite(float64(w)) {
		return 0, fmt.Errorf("compute: %g samples × %g FLOPs overflows: %w", samples, float64(perSample), ErrInvalid)
	}
	return w, nil
}

// ForwardBackward returns the forward and backward work of one step from its forward
// work alone: 3 × forward, since the backward pass computes gradients with respect to
// both activations and weights and so costs about twice the forward (Kaplan et al.
// 2020, §2.1). Use it to feed SampleFLOPs from a forward-only FLOP count, such as a
// profiler's or a paper's.
func ForwardBackward(forward FLOPs) (FLOPs, error) {
	if err := nonNegative("forward FLOPs", float64(forward)); err != nil {
		return 0, err
	}
	w := 3 * forward
	if !finite(float64(w)) {
		return 0, fmt.Errorf("compute: 3 × %g FLOPs overflows: %w", float64(forward), ErrInvalid)
	}
	return w, nil
}

// MatmulParams returns N, the parameters that cost a multiply and an add per token in
// the forward pass, as the work formulas count them:
//
//   - the active parameters (sizing.Model.ActiveParams), so a mixture of experts
//     counts only the experts each token is routed to;
//   - less the input embedding table and any learned position table when the
//     architecture is given, since those are looked up, not multiplied. An untied
//     output head is counted: it is a V×h matrix multiply on every token. With tied
//     embeddings the one table is that head and stays counted.
//
// Kaplan et al. 2020 (§2.1) drop all embedding parameters, the output head included,
// from N; counting the head follows Narayanan et al. 2021, whose FLOP count keeps the
// logit layer (their V/(16·l·h) term). The difference is under 1% for large models.
// With only Params known nothing can be subtracted and N = Params (slightly high).
//
// A model sizing.Model.Validate rejects (negative sizes, heads that do not divide
// the hidden size, more KV heads than heads, no parameter count) is an error
// wrapping ErrInvalid, as it is for every function here that takes a model.
func MatmulParams(m sizing.Model) (int64, error) {
	if err := checkModel(m); err != nil {
		return 0, err
	}
	return matmulParams(m), nil
}

// checkModel validates m with sizing.Model.Validate, which allocates nothing for a
// valid model, and wraps its complaint in ErrInvalid.
func checkModel(m sizing.Model) error {
	if err := m.Validate(); err != nil {
		return &sizingError{err}
	}
	return nil
}

// matmulParams is MatmulParams for a model checkModel accepts.
func matmulParams(m sizing.Model) int64 { return matmulOf(m, m.ActiveParams()) }

// matmulOf is matmulParams of m given its ActiveParams, n.
func matmulOf(m sizing.Model, n int64) int64 {
	if m.HasArchitecture() {
		h := int64(m.Hidden)
		lookup := int64(m.Positions) * h
		if !m.TiedEmbeddings {
			lookup += int64(m.Vocab) * h
		}
		if lookup < n {
			n -= lookup
		}
	}
	return n
}

// attnDim returns d_attn, the width of the attention output: heads × head dimension.
func attnDim(m sizing.Model) int64 {
	d := m.HeadDim
	if d == 0 && m.Heads > 0 {
		d = m.Hidden / m.Heads
	}
	return int64(m.Heads) * int64(d)
}

// perToken returns the forward work per token: 2·N plus, when seqLen > 0, Kaplan's
// attention term 2·n_layer·n_ctx·d_attn (the query-key scores and the weighted sum of
// values over a context of seqLen tokens).
func perToken(fn string, m sizing.Model, tokens float64, seqLen int) (fwdParams, fwdAttn float64, err error) {
	if err := nonNegative("tokens", tokens); err != nil {
		return 0, 0, err
	}
	if seqLen < 0 {
		return 0, 0, fmt.Errorf("compute: %s sequence length %d is negative: %w", fn, seqLen, ErrInvalid)
	}
	n, err := MatmulParams(m)
	if err != nil {
		return 0, 0, err
	}
	if seqLen > 0 {
		if !m.HasArchitecture() {
			return 0, 0, fmt.Errorf("compute: %s attention term needs layers, hidden and heads (or pass seqLen 0): %w", fn, ErrInvalid)
		}
		fwdAttn = 2 * float64(m.Layers) * float64(seqLen) * float64(attnDim(m))
	}
	return 2 * float64(n), fwdAttn, nil
}

// TrainingFLOPs returns the model FLOPs of training on tokens tokens: 6·N per token
// (forward 2·N, backward 4·N; Kaplan et al. 2020, §2.1, the 6·N·D of Hoffmann et al.
// 2022), N from MatmulParams (active parameters for a mixture of experts). When
// seqLen > 0 it adds Kaplan's attention term 6·n_layer·n_ctx·d_attn per token, with
// n_ctx = seqLen; seqLen 0 gives the plain 6·N·D.
//
// GPT-3 175B on 300B tokens gives 3.14e23 FLOPs; Llama 3 405B on 15.6T tokens 3.8e25.
// These are model FLOPs, the ones model FLOPs utilization (MFU) is measured against;
// recomputation adds work on top (TrainingFLOPsRecompute).
func TrainingFLOPs(m sizing.Model, tokens float64, seqLen int) (FLOPs, error) {
	return TrainingFLOPsRecompute(m, tokens, seqLen, sizing.NoRecompute)
}

// AdapterTrainingFLOPs returns the model FLOPs of training adapters (LoRA, QLoRA)
// on a frozen base on tokens tokens: 4·N per token plus the attention term of
// TrainingFLOPs. A backward pass is two products per weight matrix, one for the
// activations' gradients and one for the weights' (each about the forward's 2·N;
// Kaplan et al. 2020, §2.1); a frozen base needs only the first, so the 6·N of full
// training drops to 4·N. The adapters' own work, under 1% at common ranks, is left
// out. Attention has no weights, so its term is the same as in full training; with
// seqLen 0 the work is two thirds of TrainingFLOPs'.
func AdapterTrainingFLOPs(m sizing.Model, tokens float64, seqLen int) (FLOPs, error) {
	p, a, err := perToken("AdapterTrainingFLOPs", m, tokens, seqLen)
	if err != nil {
		return 0, err
	}
	return total(2*p+3*a, tokens)
}

// TrainingFLOPsRecompute returns the work the hardware does when activations are
// recomputed (hardware FLOPs, as Chowdhery et al. 2022 call them):
//
//   - NoRecompute: 6·N + 6·l·s·d_attn per token, as TrainingFLOPs;
//   - SelectiveRecompute: the attention core runs forward twice,
//     6·N + 8·l·s·d_attn (Korthikanti et al. 2022, selective activation recomputation);
//   - FullRecompute: the whole forward runs twice, 8·N + 8·l·s·d_attn, the 8·N·D of
//     Narayanan et al. 2021 (§5.1).
//
// Use it with a hardware FLOPs utilization; published MFU figures already include the
// cost of recomputation, so pair MFU with TrainingFLOPs instead.
func TrainingFLOPsRecompute(m sizing.Model, tokens float64, seqLen int, r sizing.Recompute) (FLOPs, error) {
	p, a, err := perToken("TrainingFLOPs", m, tokens, seqLen)
	if err != nil {
		return 0, err
	}
	var perTok float64
	switch r {
	case sizing.NoRecompute:
		perTok = 3*p + 3*a
	case sizing.SelectiveRecompute:
		perTok = 3*p + 4*a
	case sizing.FullRecompute:
		perTok = 4*p + 4*a
	default:
		return 0, fmt.Errorf("compute: recompute strategy %v is not a known strategy: %w", r, ErrInvalid)
	}
	return total(perTok, tokens)
}

// InferenceFLOPs returns the work of running tokens tokens through the model forward
// only: 2·N per token (N from MatmulParams, active parameters for a mixture of
// experts), plus Kaplan's attention term 2·n_layer·n_ctx·d_attn per token when
// seqLen > 0, n_ctx = seqLen (Kaplan et al. 2020, Table 1).
func InferenceFLOPs(m sizing.Model, tokens float64, seqLen int) (FLOPs, error) {
	p, a, err := perToken("InferenceFLOPs", m, tokens, seqLen)
	if err != nil {
		return 0, err
	}
	return total(p+a, tokens)
}

func total(perTok, tokens float64) (FLOPs, error) {
	w := perTok * tokens
	if !finite(w) {
		return 0, fmt.Errorf("compute: work overflows float64: %w", ErrInvalid)
	}
	return FLOPs(w), nil
}

// MegatronFLOPs returns the work of one training iteration of a GPT-style model in
// Narayanan et al. 2021's count (§5.1): with full recomputation
// 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), and without it the model FLOPs
// 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)), for global batch B sequences of s tokens,
// l layers, hidden size h and vocabulary V. It assumes a plain 4h FFN and full
// multi-head attention, as the paper's models have; MatmulParams-based TrainingFLOPs
// covers other shapes.
func MegatronFLOPs(m sizing.Model, batch, seqLen int, fullRecompute bool) (FLOPs, error) {
	if err := checkModel(m); err != nil {
		return 0, err
	}
	if !m.HasArchitecture() {
		return 0, fmt.Errorf("compute: MegatronFLOPs needs layers, hidden and vocabulary: %w", ErrInvalid)
	}
	if batch <= 0 || seqLen <= 0 {
		return 0, fmt.Errorf("compute: MegatronFLOPs batch %d and sequence length %d must be positive: %w", batch, seqLen, ErrInvalid)
	}
	B, s, l, h, V := float64(batch), float64(seqLen), float64(m.Layers), float64(m.Hidden), float64(m.Vocab)
	var w float64
	if fullRecompute {
		w = 96 * B * s * l * h * h * (1 + s/(6*h) + V/(16*l*h))
	} else {
		w = 72 * B * s * l * h * h * (1 + s/(6*h) + V/(12*l*h))
	}
	return total(w, 1)
}

// MegatronTime returns Narayanan et al. 2021's estimate of end-to-end training time
// with full recomputation (§5.1, eq. 4): 8·T·P / (n·X) for T tokens, P parameters
// (ParamCount), n devices each sustaining X. The paper's GPT-3 case, 175B parameters
// on 300B tokens on 1024 A100s at 140 TFLOP/s each, gives about 34 days.
func MegatronTime(m sizing.Model, tokens float64, devices int, perDevice FLOPRate) (time.Duration, error) {
	if err := nonNegative("tokens", tokens); err != nil {
		return 0, err
	}
	if devices <= 0 {
		return 0, fmt.Errorf("compute: %d devices, want at least 1: %w", devices, ErrInvalid)
	}
	if err := positive("per-device rate", float64(perDevice)); err != nil {
		return 0, err
	}
	if err := checkModel(m); err != nil {
		return 0, err
	}
	p := m.ParamCount()
	return seconds(8 * tokens * float64(p) / (float64(devices) * float64(perDevice)))
}
