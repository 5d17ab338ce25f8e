package compute

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// mustTime runs Job.Time and fails the test on error.
func mustTime(t *testing.T, j Job) Timing {
	t.Helper()
	tm, err := j.Time()
	if err != nil {
		t.Fatalf("Job.Time: %v", err)
	}
	return tm
}

func pcie4(t *testing.T) Link {
	t.Helper()
	l, err := PCIeLink(4)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestJobSingleDevice(t *testing.T) {
	// One A100 at 45%: 4.2e19 FLOPs (7B parameters, 1B tokens) take
	// 4.2e19 / 140.4e12 = 299,145 s; the band is 0.38–0.52.
	j := Job{Model: sizing.Model{Params: 7e9}, Work: 4.2e19, Batch: 1, SeqLen: 4096, Devices: 1, PeakPerDevice: a100Peak,
		Utilization: PublishedMFU()}
	tm := mustTime(t, j)
	want := Timing{
		Duration:   seconds2(4.2e19 / (312e12 * 0.45)),
		Low:        seconds2(4.2e19 / (312e12 * 0.52)),
		High:       seconds2(4.2e19 / (312e12 * 0.38)),
		Step:       seconds2(6 * 7e9 * 4096 / (312e12 * 0.45)),
		Steps:      4.2e19 / (6 * 7e9 * 4096),
		Compute:    seconds2(4.2e19 / (312e12 * 0.45)),
		Efficiency: 1, Data: 1, Tensor: 1, Pipeline: 1,
	}
	if !closeTiming(tm, want) {
		t.Errorf("Time() = %+v, want %+v", tm, want)
	}
}

func seconds2(s float64) time.Duration { d, _ := seconds(s); return d }

// closeTiming compares timings to within a microsecond (the sums are done in float
// seconds) and efficiencies to 1e-9.
func closeTiming(a, b Timing) bool {
	near := func(x, y time.Duration) bool { return (x - y).Abs() <= time.Microsecond }
	return near(a.Duration, b.Duration) && near(a.Low, b.Low) && near(a.High, b.High) &&
		near(a.Step, b.Step) && near(a.Compute, b.Compute) && near(a.Comm, b.Comm) &&
		math.Abs(a.Steps-b.Steps) < 1e-6 && math.Abs(a.Efficiency-b.Efficiency) < 1e-9 &&
		a.Data == b.Data && a.Tensor == b.Tensor
}

// TestSecondArticle checks the second seed article's multi-GPU claims as this
// package's model sees them: ring all-reduce over raw link bandwidth, no overlap,
// utilization 0.45 (the published MFU band's, given explicitly).
func TestSecondArticle(t *testing.T) {
	t.Run("8× RTX 4090 over PCIe against 8× A100 over NVLink", func(t *testing.T) {
		// TinyLlama 1.1B, data parallel, one 2048-token sequence per GPU per step:
		// its 2.2 GB of BF16 gradients cross PCIe Gen4 (31.5 GB/s) in 122 ms against
		// 183 ms of compute on a 4090, and NVLink (300 GB/s) in 13 ms against 96 ms
		// on an A100.
		work, _ := TrainingFLOPs(tinyLlama, 1e9, 2048)
		j := Job{Model: tinyLlama, Work: work, Batch: 1, SeqLen: 2048, Devices: 8,
			PeakPerDevice: rtx4090Peak, Link: pcie4(t), Utilization: PublishedMFU()}
		g := mustTime(t, j)
		j.PeakPerDevice, j.Link = a100Peak, NVLink(a100NVLink)
		a := mustTime(t, j)
		if !within(g.Efficiency, 0.604, 0.005) || !within(a.Efficiency, 0.885, 0.005) {
			t.Errorf("efficiency 4090 %.3f, A100 %.3f; want 0.604 and 0.885", g.Efficiency, a.Efficiency)
		}
		// Larger micro-batches amortize the all-reduce: at 4 sequences the 4090s
		// reach 0.86, still under the A100s' 0.97. The gap is the article's point.
		j.Batch = 4
		a4 := mustTime(t, j)
		j.PeakPerDevice, j.Link = rtx4090Peak, pcie4(t)
		g4 := mustTime(t, j)
		if !(g4.Efficiency < a4.Efficiency-0.1) || !within(g4.Efficiency, 0.859, 0.005) {
			t.Errorf("batch 4: efficiency 4090 %.3f, A100 %.3f; want 0.859 and over 0.1 higher", g4.Efficiency, a4.Efficiency)
		}
	})

	t.Run("H800 (400 GB/s) against H100 (900 GB/s)", func(t *testing.T) {
		// Llama-2-7B, one 4096-token sequence per step, tensor parallel across all
		// devices, the layout a model too large for one card needs. The two cards
		// compute alike; only NVLink differs.
		work, _ := TrainingFLOPs(llama27B, 1e9, 4096)
		eff := map[int][2]float64{}
		for _, n := range []int{1, 2, 8} {
			j := Job{Model: llama27B, Work: work, Batch: 1, SeqLen: 4096, Devices: n, Tensor: n,
				PeakPerDevice: h100Peak, Link: NVLink(h100NVLink), Utilization: PublishedMFU()}
			h100 := mustTime(t, j)
			j.Link = NVLink(h800NVLink)
			h800 := mustTime(t, j)
			eff[n] = [2]float64{h800.Efficiency, h100.Efficiency}
		}
		if eff[1][0] != 1 || eff[1][1] != 1 {
			t.Errorf("one GPU: efficiency %v, want 1 for both", eff[1])
		}
		// Close at two GPUs (0.902 against 0.954), far apart at eight (0.567
		// against 0.747): the cut NVLink costs little until the ring is long.
		if gap := eff[2][1] - eff[2][0]; gap > 0.06 {
			t.Errorf("two GPUs: H800 %.3f, H100 %.3f; want within 0.06", eff[2][0], eff[2][1])
		}
		if gap := eff[8][1] - eff[8][0]; gap < 0.15 {
			t.Errorf("eight GPUs: H800 %.3f, H100 %.3f; want the H800 at least 0.15 lower", eff[8][0], eff[8][1])
		}

		// The article also says eight H800s train worse than eight A100s. The model
		// agrees on efficiency (0.567 against 0.862) but not on time: the H800's
		// 3.2× compute outweighs its slower link, so it still finishes in under half
		// the A100s' time. Asserted as the model sees it.
		j := Job{Model: llama27B, Work: work, Batch: 1, SeqLen: 4096, Devices: 8, Tensor: 8,
			PeakPerDevice: h100Peak, Link: NVLink(h800NVLink), Utilization: PublishedMFU()}
		h800 := mustTime(t, j)
		j.PeakPerDevice, j.Link = a100Peak, NVLink(a100NVLink)
		a100 := mustTime(t, j)
		if !(h800.Efficiency < a100.Efficiency-0.2) || !(h800.Duration < a100.Duration/2) {
			t.Errorf("8× H800 %.3f in %v, 8× A100 %.3f in %v", h800.Efficiency, h800.Duration, a100.Efficiency, a100.Duration)
		}
	})

	t.Run("2× 80 GB data parallel against 4× 24 GB model parallel", func(t *testing.T) {
		// A 7B job. Two A100 80GB hold a full replica each (with ZeRO or LoRA for the
		// optimizer state; memory is package sizing's question) and all-reduce
		// gradients once a step over NVLink. Four RTX 4090s must split the model
		// 4-way tensor parallel and all-reduce activations four times a layer over
		// PCIe. The pair is more efficient (0.965 against 0.743) and, despite half
		// the cards, finishes sooner.
		work, _ := TrainingFLOPs(llama27B, 1e9, 4096)
		dp := mustTime(t, Job{Model: llama27B, Work: work, Batch: 1, SeqLen: 4096, Devices: 2,
			PeakPerDevice: a100Peak, Link: NVLink(a100NVLink), Utilization: PublishedMFU()})
		mp := mustTime(t, Job{Model: llama27B, Work: work, Batch: 1, SeqLen: 4096, Devices: 4, Tensor: 4,
			PeakPerDevice: rtx4090Peak, Link: pcie4(t), Utilization: PublishedMFU()})
		if !within(dp.Efficiency, 0.965, 0.005) || !within(mp.Efficiency, 0.743, 0.005) || !(dp.Duration < mp.Duration) {
			t.Errorf("2× A100 DP %.3f in %v; 4× 4090 TP %.3f in %v", dp.Efficiency, dp.Duration, mp.Efficiency, mp.Duration)
		}
	})
}

func TestJobOverlap(t *testing.T) {
	work, _ := TrainingFLOPs(llama27B, 1e9, 4096)
	j := Job{Model: llama27B, Work: work, Batch: 1, SeqLen: 4096, Devices: 8, PeakPerDevice: h100Peak,
		Link: NVLink(h800NVLink), Utilization: PublishedMFU()}
	none := mustTime(t, j)
	j.Overlap = 1
	all := mustTime(t, j)
	// Data parallel only: full overlap hides the 118 ms all-reduce behind 372 ms of
	// compute.
	if all.Efficiency != 1 || !(none.Efficiency < 0.8) {
		t.Errorf("overlap 0: %.3f, overlap 1: %.3f; want under 0.8 and 1", none.Efficiency, all.Efficiency)
	}
}

func TestJobValidate(t *testing.T) {
	ok := Job{Model: llama27B, Work: 1e18, Batch: 1, SeqLen: 4096, Devices: 8, Tensor: 2,
		PeakPerDevice: a100Peak, Link: NVLink(a100NVLink)}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid job: %v", err)
	}
	nan := math.NaN()
	tests := []struct {
		name string
		edit func(*Job)
	}{
		{"no model", func(j *Job) { j.Model = sizing.Model{} }},
		{"negative work", func(j *Job) { j.Work = -1 }},
		{"NaN work", func(j *Job) { j.Work = FLOPs(nan) }},
		{"zero batch", func(j *Job) { j.Batch = 0 }},
		{"zero seqLen", func(j *Job) { j.SeqLen = 0 }},
		{"zero devices", func(j *Job) { j.Devices = 0 }},
		// Past sizing.MaxDevices a job would finish in less than one step.
		{"devices past MaxDevices", func(j *Job) { j.Devices = sizing.MaxDevices + 1 }},
		{"MaxInt devices", func(j *Job) { j.Devices = math.MaxInt }},
		{"tensor does not divide", func(j *Job) { j.Tensor = 3 }},
		{"negative tensor", func(j *Job) { j.Tensor = -2 }},
		{"tensor without architecture", func(j *Job) { j.Model = sizing.Model{Params: 7e9} }},
		{"tensor does not divide heads", func(j *Job) { j.Devices, j.Tensor = 12, 3 }},
		{"zero peak", func(j *Job) { j.PeakPerDevice = 0 }},
		{"Inf peak", func(j *Job) { j.PeakPerDevice = FLOPRate(math.Inf(1)) }},
		{"no link", func(j *Job) { j.Link = Link{} }},
		{"utilization above one", func(j *Job) { j.Utilization = Band{Low: 0.5, High: 1.1} }},
		{"overlap NaN", func(j *Job) { j.Overlap = nan }},
		{"bad precision", func(j *Job) { j.Precision = 999 }},
		{"bad recompute", func(j *Job) { j.Recompute = 7 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := ok
			tt.edit(&j)
			if _, err := j.Time(); !errors.Is(err, ErrInvalid) {
				t.Errorf("Time() error %v, want one wrapping ErrInvalid", err)
			}
		})
	}
	// One device needs no link.
	one := ok
	one.Devices, one.Tensor, one.Link = 1, 0, Link{}
	if _, err := one.Time(); err != nil {
		t.Errorf("one device without a link: %v", err)
	}
	// Past time.Duration's range.
	far := one
	far.Work = 1e30
	if _, err := far.Time(); !errors.Is(err, ErrRange) {
		t.Errorf("1e30 FLOPs on one A100: %v, want ErrRange", err)
	}
}

func TestJobTimeAllocs(t *testing.T) {
	j := Job{Model: llama27B, Work: 1e20, Batch: 2, SeqLen: 4096, Devices: 8, Tensor: 2,
		PeakPerDevice: h100Peak, Link: NVLink(h100NVLink), Overlap: 0.5}
	if n := testing.AllocsPerRun(100, func() { _, _ = j.Time() }); n != 0 {
		t.Errorf("Job.Time allocates %v times per call, want 0", n)
	}
}

// TestJobTimeBandOrdered pins the case rapid found: with the all-reduce fully
// overlapped but longer than compute, the step is the same at every utilization, and
// rounding each end to the nanosecond separately put High 1 ns below Duration.
func TestJobTimeBandOrdered(t *testing.T) {
	j := Job{Model: tinyLlama, Work: 1.4411518807585594e17, Batch: 1, SeqLen: 65, Devices: 2, Tensor: 1,
		PeakPerDevice: 1.099511627776e12, Link: Link{Bandwidth: 1.10767667175e9, Latency: 19}, Overlap: 1,
		Utilization: PublishedMFU()}
	tm := mustTime(t, j)
	if tm.Low > tm.Duration || tm.Duration > tm.High {
		t.Errorf("Time() = Low %v, Duration %v, High %v; want Low <= Duration <= High", tm.Low, tm.Duration, tm.High)
	}
}

// TestZeroLink checks what the package doc says of a zero Link: one device needs
// none, several are refused.
func TestZeroLink(t *testing.T) {
	j := Job{Model: sizing.Model{Params: 7e9}, Work: 4.2e19, Batch: 1, SeqLen: 4096, Devices: 1, PeakPerDevice: a100Peak}
	if _, err := j.Time(); err != nil {
		t.Errorf("one device, zero Link: error %v, want none", err)
	}
	j.Devices = 2
	if _, err := j.Time(); !errors.Is(err, ErrInvalid) {
		t.Errorf("two devices, zero Link: error %v, want ErrInvalid", err)
	}
}

// TestSizingErrorWrapped checks that an error carried over from sizing reads as
// sizing wrote it after compute's name, with one sentinel's text, and reaches both
// packages' sentinels.
func TestSizingErrorWrapped(t *testing.T) {
	_, err := MegatronFLOPs(sizing.Model{Name: "bad", Params: -1}, 1, 1, false)
	if err == nil {
		t.Fatal("MegatronFLOPs of a negative model: no error")
	}
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, sizing.ErrInvalid) {
		t.Errorf("error %v: want both compute.ErrInvalid and sizing.ErrInvalid", err)
	}
	got := err.Error()
	if want := `compute: sizing: model "bad": negative Params -1: invalid input`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// A LoRA job's steps are its work over what one step of adapter training does
// (AdapterTrainingFLOPs' 4·N + 6·l·s·d_attn a token), and its step multiplies
// the frozen weights twice (forward, and the inputs' gradients) where full
// training multiplies them three times.
func TestJobAdapters(t *testing.T) {
	const tokens = 2 * 4096 * 1000
	work, err := AdapterTrainingFLOPs(llama27B, tokens, 4096)
	if err != nil {
		t.Fatal(err)
	}
	j := Job{Model: llama27B, Work: work, Adapters: true, Batch: 2, SeqLen: 4096, Devices: 1,
		PeakPerDevice: a100Peak, Bandwidth: a100HBM, Arch: "Ampere"}
	lora := mustTime(t, j)
	if !within(lora.Steps, 1000, 1e-12) {
		t.Errorf("LoRA over %d tokens in steps of 2 × 4096: %v steps, want 1000", tokens, lora.Steps)
	}
	full := j
	full.Adapters = false
	if full.Work, err = TrainingFLOPs(llama27B, tokens, 4096); err != nil {
		t.Fatal(err)
	}
	ft := mustTime(t, full)
	if !within(ft.Steps, 1000, 1e-12) {
		t.Errorf("full training: %v steps, want 1000", ft.Steps)
	}
	// The adapters' step leaves out a third of the multiplies and the optimizer's
	// update but keeps attention and the memory-bound work: here (a 7B model at
	// 4096 tokens) between half and 90% of full training's.
	if r := lora.Step.Seconds() / ft.Step.Seconds(); !(r > 0.5 && r < 0.9) {
		t.Errorf("LoRA step %v against full training's %v: ratio %.3f, want in (0.5, 0.9)", lora.Step, ft.Step, r)
	}
}

// Gradients reduced at FP32 move twice the bytes of BF16 ones.
func TestJobGradientPrecision(t *testing.T) {
	j := modelJob()
	j.Overlap = 0
	bf16 := mustTime(t, j)
	j.GradientPrecision = sizing.FP32
	fp32 := mustTime(t, j)
	if !within(fp32.Comm.Seconds(), 2*bf16.Comm.Seconds(), 1e-6) || fp32.Compute != bf16.Compute {
		t.Errorf("FP32 gradients: comm %v and compute %v, want twice %v and %v", fp32.Comm, fp32.Compute, bf16.Comm, bf16.Compute)
	}
	j.GradientPrecision = sizing.Precision(99)
	if _, err := j.Time(); !errors.Is(err, ErrInvalid) {
		t.Errorf("gradient precision 99: %v, want ErrInvalid", err)
	}
}

// A fused loss saves what PyTorch's FP32 upcast and log-softmax move over the
// vocabulary: 46 − 8 bytes a vocabulary entry and token at BF16, streamed at
// the training step's memory efficiency, and nothing else.
func TestJobFusedLoss(t *testing.T) {
	j := modelJob()
	j.Devices, j.Link = 1, Link{}
	plain := mustTime(t, j)
	j.FusedLoss = true
	fused := mustTime(t, j)
	saved := float64(j.Batch*j.SeqLen) * float64(j.Model.Vocab) * (46 - 8) / (float64(a100HBM) * trainMemoryEfficiency("Ampere"))
	if got := plain.Step.Seconds() - fused.Step.Seconds(); !within(got, saved, 1e-6) {
		t.Errorf("a fused loss saves %v s a step, want %v", got, saved)
	}
}
