package sizing

import (
	"fmt"
	"math"

	"github.com/gpuplan/gpuplan/internal/checked"
)

// ByteRange is a band of memory, Low to High inclusive, for figures that are known
// only roughly: the seed articles' rules of thumb and the rendering table.
type ByteRange struct {
	Low  Bytes `json:"low_bytes"`
	High Bytes `json:"high_bytes"`
}

// Contains reports whether b lies in the band.
func (r ByteRange) Contains(b Bytes) bool { return r.Low <= b && b <= r.High }

// String returns the band in Human form, "21.0 GiB–28.0 GiB" (an en dash between).
func (r ByteRange) String() string { return r.Low.Human() + "–" + r.High.Human() }

// The rules of thumb below are the seed articles' own, kept for comparison with
// Estimate, which counts each term. They are not estimates: they ignore context
// length, batch, optimizer and parallel layout. Use Estimate for sizing.

// ThumbInference returns the second seed article's rule of thumb for inference: 1.5
// to 2 times the weights (行业共识: 推理显存约为模型权重的1.5到2倍), meant to cover the KV
// cache, activations and runtime overhead at short context. For 7B in FP16 (14 GB of
// weights) it gives 21 to 28 GB; the article recommends keeping 28 GB or more. The
// low end is rounded up to a whole byte. weights must not be negative.
func ThumbInference(weights Bytes) (ByteRange, error) {
	return scaleRange(weights, 3, 2, 2, 1, "ThumbInference")
}

// ThumbTraining returns the second seed article's rule of thumb for full
// fine-tuning: 2 to 3 times the inference figure (训练需求约为推理的2到3倍), so 3 to 6
// times the weights. For 7B in FP16 that is 42 to 84 GB. Plain mixed-precision AdamW
// needs 16 bytes per parameter of model state alone (ZeRO, Rajbhandari et al. 2020),
// 112 GB for 7B, so the rule undercounts unless the optimizer state is 8-bit, sharded
// or offloaded.
func ThumbTraining(weights Bytes) (ByteRange, error) {
	return scaleRange(weights, 3, 1, 6, 1, "ThumbTraining")
}

// scaleRange returns [ceil(b·ln/ld), ceil(b·hn/hd)] with overflow checks.
func scaleRange(b Bytes, ln, ld, hn, hd int64, fn string) (ByteRange, error) {
	if b < 0 {
		return ByteRange{}, fmt.Errorf("sizing: %s of negative weights %d: %w", fn, b, ErrInvalid)
	}
	scale := func(n, d int64) (Bytes, bool) {
		p, ok := checked.Mul(int64(b), n)
		if !ok {
			return 0, false
		}
		return Bytes(p/d + min(1, p%d)), true // ceil for non-negative p
	}
	lo, ok1 := scale(ln, ld)
	hi, ok2 := scale(hn, hd)
	if !ok1 || !ok2 {
		return ByteRange{}, fmt.Errorf("sizing: %s of %d bytes overflows int64: %w", fn, b, ErrInvalid)
	}
	return ByteRange{lo, hi}, nil
}

// ArticleFormula is the first seed article's training formula, term by term:
// 显存 ≈ 参数量 × 精度字节 × 2（模型参数+梯度）+ 优化器状态（Adam约2倍参数）+ 激活值. It is
// kept to compare with Estimate, not to size a job.
type ArticleFormula struct {
	Weights     Bytes     `json:"weights_bytes"`     // parameters × bytes per parameter
	Gradients   Bytes     `json:"gradients_bytes"`   // the formula's "× 2": one more copy for gradients
	Optimizer   Bytes     `json:"optimizer_bytes"`   // "Adam about 2× parameters": 2 bytes per parameter
	Activations ByteRange `json:"activations_bytes"` // the article's 2–8 GB for its 7B example
}

// Formula returns the formula as written: weights, gradients, optimizer and the
// activation band. For 7B in FP16: 14 + 14 + 14 + (2 to 8) = 44 to 50 GB.
func (a ArticleFormula) Formula() ByteRange {
	base := a.Weights + a.Gradients + a.Optimizer
	return ByteRange{base + a.Activations.Low, base + a.Activations.High}
}

// WorkedExample returns the total as the article's worked example adds it up: a
// 14 GB base for 7B in FP16, plus 14 GB for Adam, plus 2 to 8 GB of activations, 30 to
// 36 GB. The example leaves out the gradient copy its own formula counts; the article
// concludes that 24 GB or more is needed.
func (a ArticleFormula) WorkedExample() ByteRange {
	base := a.Weights + a.Optimizer
	return ByteRange{base + a.Activations.Low, base + a.Activations.High}
}

// ThumbArticle evaluates the first seed article's formula for params parameters
// trained at precision p. The optimizer term is its "Adam ≈ 2× parameters" read as 2
// bytes per parameter, which reproduces its worked example (14 GB for 7B); real Adam
// keeps two FP32 moments, 8 bytes per parameter, plus a 4-byte FP32 master copy under
// mixed precision. The activation band is the article's fixed 2–8 GB, quoted for its
// 7B example and not scaled with the model, batch or sequence.
func ThumbArticle(params int64, p Precision) (ArticleFormula, error) {
	if params <= 0 {
		return ArticleFormula{}, fmt.Errorf("sizing: ThumbArticle of %d parameters: %w", params, ErrInvalid)
	}
	if !p.Valid() {
		return ArticleFormula{}, fmt.Errorf("sizing: ThumbArticle precision %v: %w", p, ErrInvalid)
	}
	w, ok := checked.FromFloat(math.Ceil(float64(params) * p.Bits() / 8))
	opt, ok2 := checked.Mul(params, 2)
	// Formula adds 2·weights + optimizer + 8 GB; all of it must fit.
	if !ok || !ok2 || w > (math.MaxInt64-opt-int64(8*GB))/2 {
		return ArticleFormula{}, fmt.Errorf("sizing: ThumbArticle of %d parameters overflows int64: %w", params, ErrInvalid)
	}
	return ArticleFormula{
		Weights:     Bytes(w),
		Gradients:   Bytes(w),
		Optimizer:   Bytes(opt),
		Activations: ByteRange{2 * GB, 8 * GB},
	}, nil
}
