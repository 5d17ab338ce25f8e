package compute

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

func TestPCIe(t *testing.T) {
	// PCI-SIG base specifications: transfer rate × 16 lanes × encoding / 8 bits.
	tests := []struct {
		gen  int
		want Bandwidth
	}{
		{1, 4 * GBps},
		{2, 8 * GBps},
		{3, 15.754 * GBps}, // "≈ 16 GB/s"
		{4, 31.508 * GBps}, // "≈ 32 GB/s"
		{5, 63.015 * GBps}, // "≈ 64 GB/s"
	}
	for _, tt := range tests {
		t.Run(tt.want.String(), func(t *testing.T) {
			got, err := PCIe(tt.gen)
			if err != nil {
				t.Fatal(err)
			}
			if !within(float64(got), float64(tt.want), 1e-4) {
				t.Errorf("PCIe(%d) = %v, want %v", tt.gen, got, tt.want)
			}
		})
	}
	for _, gen := range []int{0, 6, -4} {
		if _, err := PCIe(gen); !errors.Is(err, ErrInvalid) {
			t.Errorf("PCIe(%d): %v, want ErrInvalid", gen, err)
		}
	}
}

func TestNVLink(t *testing.T) {
	if got := NVLink(a100NVLink); got.Bandwidth != 300*GBps || got.Latency != 0 {
		t.Errorf("NVLink(600 GB/s) = %+v, want 300 GB/s per direction", got)
	}
}

func TestAllReduce(t *testing.T) {
	tests := []struct {
		name string
		size sizing.Bytes
		n    int
		link Link
		want time.Duration
	}{
		// Llama-2-7B's BF16 gradients, 13.48 GB, over 8 A100s at 300 GB/s per
		// direction: 2·7/8 · 13.48e9 / 300e9 = 78.6 ms.
		{"Llama-2-7B grads, 8 A100", 13476831232, 8, NVLink(a100NVLink), 78614849 * time.Nanosecond},
		{"two devices move the whole size once", 1e9, 2, Link{Bandwidth: 1 * GBps}, time.Second},
		{"one device", 1e9, 1, Link{Bandwidth: 1 * GBps, Latency: time.Second}, 0},
		{"zero bytes", 0, 4, Link{Bandwidth: 1 * GBps}, 0},
		{"latency: 2·(n−1) steps", 0, 4, Link{Bandwidth: 1 * GBps, Latency: 5 * time.Microsecond}, 30 * time.Microsecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.link.AllReduce(tt.size, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("AllReduce = %v, want %v", got, tt.want)
			}
		})
	}
	got, err := AllReduceTime(1e9, 2, GBps)
	if err != nil || got != time.Second {
		t.Errorf("AllReduceTime = %v, %v; want 1s", got, err)
	}
	bad := []struct {
		name string
		err  func() error
		want error
	}{
		{"negative size", func() error { _, err := AllReduceTime(-1, 2, GBps); return err }, ErrInvalid},
		{"zero devices", func() error { _, err := AllReduceTime(1, 0, GBps); return err }, ErrInvalid},
		{"zero link", func() error { _, err := AllReduceTime(1, 2, 0); return err }, ErrInvalid},
		{"NaN link", func() error { _, err := AllReduceTime(1, 2, Bandwidth(math.NaN())); return err }, ErrInvalid},
		{"negative latency", func() error { _, err := Link{Bandwidth: GBps, Latency: -1}.AllReduce(1, 2); return err }, ErrInvalid},
		{"beyond time.Duration", func() error { _, err := AllReduceTime(1<<62, 2, Bps); return err }, ErrRange},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.err(); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want one wrapping %v", err, tt.want)
			}
		})
	}
}

func TestExposedAndEfficiency(t *testing.T) {
	tests := []struct {
		name          string
		comm, compute time.Duration
		overlap       float64
		want          time.Duration
		eff           float64
	}{
		{"no overlap", 100 * time.Millisecond, 300 * time.Millisecond, 0, 100 * time.Millisecond, 0.75},
		{"half hidden", 100 * time.Millisecond, 300 * time.Millisecond, 0.5, 50 * time.Millisecond, 300.0 / 350},
		{"all hidden", 100 * time.Millisecond, 300 * time.Millisecond, 1, 0, 1},
		{"compute too short to hide it", 100 * time.Millisecond, 30 * time.Millisecond, 1, 70 * time.Millisecond, 0.3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Exposed(tt.comm, tt.compute, tt.overlap)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Exposed = %v, want %v", got, tt.want)
			}
			if e := Efficiency(tt.compute, got); !within(e, tt.eff, 1e-9) {
				t.Errorf("Efficiency = %v, want %v", e, tt.eff)
			}
		})
	}
	if _, err := Exposed(time.Second, time.Second, 1.5); !errors.Is(err, ErrInvalid) {
		t.Errorf("overlap 1.5: %v, want ErrInvalid", err)
	}
	if _, err := Exposed(-time.Second, time.Second, 0.5); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative comm: %v, want ErrInvalid", err)
	}
	if e := Efficiency(0, time.Second); e != 0 {
		t.Errorf("Efficiency with no compute = %v, want 0", e)
	}
	// Negative inputs read as zero, as documented; the result stays in [0, 1].
	for _, c := range []struct {
		compute, exposed time.Duration
		want             float64
	}{{-time.Second, time.Second, 0}, {time.Second, -time.Second, 1}, {-time.Second, -time.Second, 0}} {
		if e := Efficiency(c.compute, c.exposed); e != c.want {
			t.Errorf("Efficiency(%v, %v) = %v, want %v", c.compute, c.exposed, e, c.want)
		}
	}
}

func TestTensorParallelComm(t *testing.T) {
	// Llama-2-7B, one sequence of 4096 tokens, TP 8 over H100 NVLink (450 GB/s per
	// direction): 32 layers × 4 all-reduces of 4096·4096·2 B = 33.5 MB, each
	// 2·7/8 · 33.5e6 / 450e9 = 130.5 µs: 16.7 ms per step.
	got, err := TensorParallelComm(llama27B, 1, 4096, 8, sizing.BF16, sizing.NoRecompute, NVLink(h100NVLink))
	if err != nil {
		t.Fatal(err)
	}
	want := time.Duration(math.Round(32 * 4 * 2 * 7.0 / 8 * 4096 * 4096 * 2 / 450e9 * 1e9))
	if d := got - want; d < -time.Microsecond || d > time.Microsecond {
		t.Errorf("TensorParallelComm = %v, want %v", got, want)
	}
	full, _ := TensorParallelComm(llama27B, 1, 4096, 8, sizing.BF16, sizing.FullRecompute, NVLink(h100NVLink))
	if !within(float64(full), 1.5*float64(got), 1e-6) {
		t.Errorf("full recompute: %v, want 1.5 × %v", full, got)
	}
	if one, err := TensorParallelComm(llama27B, 1, 4096, 1, sizing.BF16, 0, Link{}); err != nil || one != 0 {
		t.Errorf("TP 1 = %v, %v; want 0", one, err)
	}
	if _, err := TensorParallelComm(sizing.Model{Params: 7e9}, 1, 4096, 2, sizing.BF16, 0, NVLink(h100NVLink)); !errors.Is(err, ErrInvalid) {
		t.Errorf("TP without architecture: %v, want ErrInvalid", err)
	}
}

func TestDataParallelStep(t *testing.T) {
	// 1 GB of gradients over 4 devices at 10 GB/s: 2·3/4 · 0.1 s = 150 ms, half of
	// it hidden behind 400 ms of compute.
	got, err := DataParallelStep(400*time.Millisecond, 1e9, 4, Link{Bandwidth: 10 * GBps}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	want := Step{Compute: 400 * time.Millisecond, Comm: 150 * time.Millisecond, Exposed: 75 * time.Millisecond,
		Total: 475 * time.Millisecond, Efficiency: 400.0 / 475}
	if got != want {
		t.Errorf("DataParallelStep = %+v, want %+v", got, want)
	}
	if _, err := DataParallelStep(-1, 1, 2, Link{Bandwidth: GBps}, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative compute: %v, want ErrInvalid", err)
	}
	if _, err := DataParallelStep(1, 1, 2, Link{Bandwidth: GBps}, 2); !errors.Is(err, ErrInvalid) {
		t.Errorf("overlap 2: %v, want ErrInvalid", err)
	}
}

// TestDataParallelStepRange checks that a step whose compute plus exposed
// communication passes time.Duration's range is ErrRange, not a negative Total.
func TestDataParallelStepRange(t *testing.T) {
	compute := time.Duration(math.MaxInt64 - 1000)
	s, err := DataParallelStep(compute, 1e9, 2, Link{Bandwidth: 1e9}, 0)
	if !errors.Is(err, ErrRange) {
		t.Errorf("DataParallelStep(MaxInt64−1000 ns, 1 GB over 1 GB/s) = %+v, %v; want ErrRange", s, err)
	}
	// Right at the edge it still answers.
	s, err = DataParallelStep(time.Duration(math.MaxInt64-1), 0, 2, Link{Bandwidth: 1e9}, 0)
	if err != nil || s.Total != time.Duration(math.MaxInt64-1) {
		t.Errorf("DataParallelStep(MaxInt64−1 ns, 0 bytes) = %+v, %v; want Total MaxInt64−1 ns", s, err)
	}
}

// TestTensorParallelCommComputeWidth checks that activations of a quantized or FP8
// job travel at 16 bits, not at the storage width.
func TestTensorParallelCommComputeWidth(t *testing.T) {
	link := NVLink(h100NVLink)
	want, err := TensorParallelComm(llama27B, 1, 4096, 4, sizing.BF16, sizing.NoRecompute, link)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []sizing.Precision{sizing.FP8, sizing.INT8, sizing.NF4} {
		got, err := TensorParallelComm(llama27B, 1, 4096, 4, p, sizing.NoRecompute, link)
		if err != nil || got != want {
			t.Errorf("TensorParallelComm at %v = %v, %v; want %v (16-bit activations)", p, got, err, want)
		}
	}
	fp32, _ := TensorParallelComm(llama27B, 1, 4096, 4, sizing.FP32, sizing.NoRecompute, link)
	if fp32 <= want {
		t.Errorf("TensorParallelComm at FP32 = %v, want more than BF16's %v", fp32, want)
	}
}
