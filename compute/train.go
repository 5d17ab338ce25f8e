package compute

import (
	"github.com/gpuplan/gpuplan/sizing"
)

// TrainingError is the error the modelled training step carries: Job.Time's band
// around a step built from its parts is Duration × (1 ± TrainingError). It is the
// 90th percentile of |published / modelled − 1| over the training-time figures
// the model was not fitted to (ACCURACY.md, which the accuracy test keeps in step
// with it).
const TrainingError = 0.40

// DefaultBytesPerFLOP is the memory bandwidth a Job assumes per FLOP/s of its
// peak when Bandwidth is zero: 1/200 byte, between the H100 SXM's 3.35 TB/s for
// 989.5 TFLOPS (1/295) and the A100's 2.04 TB/s for 312 (1/153), as their
// datasheets give them. Give Bandwidth for the card at hand.
const DefaultBytesPerFLOP = 1.0 / 200

// archEfficiency is what one architecture's cards reach of their peaks in a
// training step: the figures the modelled step is built on.
type archEfficiency struct {
	// matmul is the fraction of the dense 16-bit peak large matrix multiplies
	// sustain inside a training step; width is the hidden size per device at
	// which they reach half of it: a multiply of width w runs at
	// matmul × w / (w + width), since narrow ones fill fewer of the card's
	// multiprocessors and spend more of their time loading and storing tiles
	// (Anthony et al. 2024, "The Case for Co-Designing Model Architectures with
	// Hardware", §IV: throughput grows with the hidden size and saturates).
	matmul, width float64
	// attention is the fraction of the 16-bit peak FlashAttention reaches over its
	// forward and backward passes.
	attention float64
}

// fp8Matmul is the share of the matmul efficiency FP8 multiplies keep against
// the FP8 peak: torchtitan's Llama 3.1 8B on 8 H100s (benchmarks of 2025-01,
// docs/performance.md) ran 1.28 times faster with Float8 linear layers than in
// BF16 (8,532 against 6,667 tokens/s a GPU, torch.compile on both), which with
// three quarters of the step in the multiplies makes them 1.44 times faster, not
// twice: 0.72 of the BF16 fraction of the doubled peak.
const fp8Matmul = 0.72

// trainEfficiency returns the efficiencies of arch; an empty or unknown one is the
// generic card's. The matmul figures (0.70 on Ampere and Hopper, the width of 300)
// are fitted to the calibration sources: Megatron-Core's H100 table (MEGA24),
// torchtitan's A100 runs (TITAN) and Llama 3's Table 4 (ACCURACY.md).
func trainEfficiency(arch string) archEfficiency {
	switch arch {
	case "Ampere":
		// FlashAttention-2 (Dao 2023, §4.1): forward and backward together 50–70%
		// of the A100's peak at head dimension 128.
		return archEfficiency{matmul: 0.70, width: 300, attention: 0.55}
	case "Hopper":
		// FlashAttention-2 reaches 35–40% of the H100's peak, FlashAttention-3
		// (Shah et al. 2024) 60–75% in the forward pass; frameworks of 2024 run
		// either.
		return archEfficiency{matmul: 0.70, width: 300, attention: 0.45}
	}
	// A card with no figures of its own takes the fitted ones.
	return archEfficiency{matmul: 0.70, width: 300, attention: 0.45}
}

// trainMemoryEfficiency returns the fraction of the memory bandwidth the
// memory-bound kernels of a training step (norms, activation functions, residual
// adds, the loss, the optimizer update) stream at on a card of architecture arch:
// what a decoder reaches streaming 16-bit weights on it (MemoryEfficiencyFor), a
// property of the card's memory, not of the kernel that reads it.
func trainMemoryEfficiency(arch string) float64 { return MemoryEfficiencyFor(sizing.BF16, arch) }

// Bytes a training step's memory-bound work moves, at compute width e (bytes).
const (
	// updateBytes is what an Adam update reads and writes per parameter under
	// mixed precision: the FP32 master copy, both FP32 moments and the gradient
	// read, the three FP32 tensors and the 16-bit weights written (PyTorch's
	// AdamW; Micikevicius et al. 2018 for the copies).
	updateBytes = 4 + 4 + 4 + 2 + 4 + 4 + 4 + 2
)

// lossBytes returns the bytes per vocabulary entry and token the loss moves at
// compute width e, forward and backward. Unfused: the head writes the logits, the
// upcast reads them and writes FP32, the log-softmax reads and writes FP32 in its
// passes, and the backward pass reads and writes each again (PyTorch's unfused
// cross-entropy, as Hugging Face's models call it). Fused: the head writes the
// logits, one kernel reads them for the loss, and one reads them again and writes
// their gradient, with no FP32 copy in memory (flash-attn's cross-entropy kernel,
// which llm-foundry's MPT uses by default; llm.c's fused classifier).
func lossBytes(e float64, fused bool) float64 {
	if fused {
		return 4 * e
	}
	return 3*e + 40
}

// layerBytes returns the bytes one layer's memory-bound kernels move per token in
// the forward pass at compute width e: two norms (read and write h each), two
// residual adds (read 2h, write h), the rotary embedding of the queries and keys
// (read and write them), and the FFN's activation (a gated FFN reads gate and up
// and writes their product, 3f; a plain one reads and writes f, 2f). The backward
// pass moves about twice as much.
func layerBytes(e, h, q, kv, f float64, gated bool) float64 {
	ffn := 2 * f
	if gated {
		ffn = 3 * f
	}
	return e * (4*h + 6*h + 2*(q+kv) + ffn)
}

// jobParts is a validated job's step model: what one micro-batch and one
// optimizer step cost, before utilization or calibration scale them.
type jobParts struct {
	steps float64 // optimizer steps the work takes
	// full is one micro-batch's model FLOPs on one device at the full peak,
	// seconds: divided by a utilization it is the device's time.
	full float64
	// device is the modelled on-device seconds of one micro-batch: matrix
	// multiplies, attention and memory-bound work; update the modelled seconds of
	// one optimizer update.
	device, update float64
	tp             float64 // tensor-parallel all-reduces of one micro-batch on one device, seconds
	dp             float64 // the data-parallel collectives of one step (of each micro-batch under ZeRO-3), seconds
	dpEach         bool    // ZeRO-3: dp runs for every micro-batch
	peakFloor      float64 // one micro-batch's multiplies and attention at the full peak, seconds
	mfuWork        float64 // the job's FLOPs in PaLM's count (Timing.MFU)
}

// stepTime is one optimizer step's time in seconds, split as Timing reports it.
type stepTime struct{ total, compute, comm, bubble float64 }

// at returns the step whose micro-batches take device seconds on a device and
// whose update takes update seconds: m micro-batches, each followed by its
// tensor-parallel all-reduces, the 1F1B bubble of p − 1 more, the update, and the
// gradient all-reduce less what overlap hides behind one micro-batch (under
// ZeRO-3, each micro-batch's gathers and reduce-scatter less what overlap hides
// behind it).
func (jp *jobParts) at(device, update, m, p, overlap float64) stepTime {
	exp := exposed(jp.dp, device, overlap)
	if jp.dpEach {
		exp *= m
	}
	st := stepTime{
		compute: m*device + update,
		comm:    m*jp.tp + exp,
		bubble:  (p - 1) * (device + jp.tp),
	}
	st.total = st.compute + st.comm + st.bubble
	return st
}

// parts works out the step model of a job Validate accepts.
func (j *Job) parts(l jobLayout) (jobParts, error) {
	m := j.Model
	sh, err := m.Shape()
	if err != nil {
		return jobParts{}, &sizingError{err}
	}
	t, p, d, acc := float64(l.t), float64(l.p), float64(l.d), float64(l.m)
	s := float64(j.SeqLen)
	tokens := float64(j.Batch) * s
	n := float64(matmulOf(m, sh.Active)) // matmulParams, from the counts Shape found
	dAttn := sh.Heads * sh.HeadDim
	kv := sh.KVHeads * sh.HeadDim
	layers := sh.Layers

	// Model FLOPs, as TrainingFLOPs counts them (AdapterTrainingFLOPs for
	// adapters, whose frozen weights take no weight gradients), for the step
	// count. passes is the matrix multiplies' passes over the weights: forward
	// 2·N a token, backward 4·N (the inputs' gradients and the weights'), or 2·N
	// for adapters (the inputs' only), and the forward again under full
	// recomputation.
	passes := 3.0
	if j.Adapters {
		passes = 2
	}
	perToken := 2 * passes * n
	if m.HasArchitecture() {
		perToken += 6 * layers * s * float64(attnDim(m))
	}
	replicaWork := perToken * tokens
	var jp jobParts
	jp.steps = float64(j.Work) / (replicaWork * acc * d)
	jp.full = replicaWork / (t * p) / float64(j.PeakPerDevice)
	jp.mfuWork = jp.steps * acc * d * tokens * (2*passes*n + 12*layers*s*dAttn)
	if j.Recompute == sizing.FullRecompute {
		passes++
	}
	eff := trainEfficiency(j.Arch)
	w := sh.Hidden / t
	mmRate := float64(j.PeakPerDevice) * eff.matmul * w / (w + eff.width)
	if l.prec.Bits() <= 8 {
		mmRate *= fp8Matmul
	}
	mm := 2 * n * tokens * passes / (t * p)
	// Attention under FlashAttention with a causal mask: 2·l·s·d_attn FLOPs a token
	// forward (half of the 4·l·s·d_attn of a full score matrix), 2.5 times that
	// backward (its backward pass computes five products to the forward's two; Dao
	// 2023, §3.1), and the forward again under any recomputation.
	attnPeak := float64(j.PeakPerDevice)
	if l.prec.Bits() <= 8 {
		attnPeak /= 2 // attention runs at the 16-bit rate beside FP8 multiplies
	}
	attnPasses := 3.5
	if j.Recompute != sizing.NoRecompute {
		attnPasses = 4.5
	}
	attn := 2 * layers * s * dAttn * tokens * attnPasses / (t * p)
	// Memory-bound work: the layers' kernels three times over (forward, and twice
	// as much backward), four under full recomputation, and the loss.
	e := l.prec.ComputeBits() / 8
	bw := float64(j.Bandwidth)
	if bw == 0 {
		bw = float64(j.PeakPerDevice) * DefaultBytesPerFLOP
	}
	memRate := bw * trainMemoryEfficiency(j.Arch)
	f := ffnWidth(m, sh, n, dAttn, kv)
	vocab := float64(m.Vocab)
	if vocab == 0 {
		vocab = assumedVocab
	}
	mem := tokens * (layers*layerBytes(e, sh.Hidden, dAttn, kv, f, m.GatedFFN || !m.HasArchitecture())*(passes) +
		vocab*lossBytes(e, j.FusedLoss)) / (t * p)
	jp.device = mm/mmRate + attn/(attnPeak*eff.attention) + mem/memRate
	jp.peakFloor = mm/float64(j.PeakPerDevice) + attn/attnPeak
	if !j.Adapters {
		jp.update = float64(sh.Params) / (t * p) * updateBytes / memRate
	}

	if j.Devices > 1 {
		tpRing, dpRing := j.rings(l)
		gp := j.GradientPrecision
		if gp == 0 {
			gp = l.prec
		}
		shard := float64(sh.Params) / (t * p) / 8 // this device's bytes a bit of precision
		var grad float64                          // adapters': a fraction of a percent of the base, left out
		if !j.Adapters {
			grad = shard * gp.Bits()
		}
		if j.ZeRO == 3 {
			// A reduce-scatter of the gradients and two all-gathers of the
			// weights, each half an all-reduce of its bytes, for every
			// micro-batch: stage 3 frees the gathered weights after each use
			// and keeps only its shard of the gradients.
			wp := j.WeightPrecision
			if wp == 0 {
				wp = l.prec
			}
			jp.dp = dpRing.allReduce(grad, l.d)/2 + dpRing.allReduce(shard*wp.Bits(), l.d)
			jp.dpEach = true
		} else {
			jp.dp = dpRing.allReduce(grad, l.d)
		}
		tp, err := tpComm(m, j.Batch, j.SeqLen, l.t, l.prec, j.Recompute, tpRing)
		if err != nil {
			return jobParts{}, err
		}
		jp.tp = tp / p
	}
	return jp, nil
}

// rings returns the links the job's tensor-parallel and data-parallel rings run
// at (see Time): Link for a ring inside one machine; for one across machines,
// min(Link, k × Network) a device, k the fewest of its devices a machine holds,
// at the slower latency. Ranks are laid out tensor-parallel first, then
// data-parallel, then pipeline stages (Megatron-LM's parallel_state.py, whose
// default order puts adjacent ranks on one machine).
func (j *Job) rings(l jobLayout) (tensor, data Link) {
	g := j.DevicesPerMachine
	if g == 0 {
		g = DefaultDevicesPerMachine
	}
	if j.Network == (Link{}) || j.Devices <= g {
		return j.Link, j.Link
	}
	return j.ring(l.t, 1, g), j.ring(l.d, l.t, g)
}

// ring returns the link of the rings of n devices stride ranks apart, one ring
// starting every n·stride ranks, on machines of g devices. With stride dividing
// g a machine holds g/stride consecutive members: a ring falls inside one when
// that is a multiple of n, and a ring that crosses machines keeps at least
// gcd(g/stride, n) of its members in each it touches. Otherwise as few as one.
func (j *Job) ring(n, stride, g int) Link {
	k := 1
	if g%stride == 0 {
		per := g / stride
		if per%n == 0 {
			return j.Link
		}
		k = gcd(per, n)
	}
	return Link{
		Bandwidth: min(j.Link.Bandwidth, Bandwidth(k)*j.Network.Bandwidth),
		Latency:   max(j.Link.Latency, j.Network.Latency),
	}
}

// gcd returns the greatest common divisor of positive a and b.
func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// assumedVocab is the vocabulary of a model known by Params alone, as
// sizing.Estimate assumes it (Llama-2's 32000).
const assumedVocab = 32000

// ffnWidth returns the FFN width a token passes through: the model's own (every
// routed and shared expert a token uses, for a mixture of experts), or for a
// model known by Params alone what the parameters left by attention and the
// output head give a gated FFN (three h×f matrices a layer).
func ffnWidth(m sizing.Model, sh sizing.Shape, n, dAttn, kv float64) float64 {
	if m.HasArchitecture() {
		if m.Experts > 1 {
			per := float64(m.ExpertFFN)
			if per == 0 {
				per = float64(m.FFN)
			}
			return per*float64(max(m.ExpertsPerToken, 1)) + float64(m.SharedFFN)
		}
		if m.FFN > 0 {
			return float64(m.FFN)
		}
		return 4 * sh.Hidden
	}
	left := n/sh.Layers - (2*dAttn+2*kv)*sh.Hidden
	return max(left/(3*sh.Hidden), 0)
}
