package compute

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
	"pgregory.net/rapid"
)

// genJob draws a valid multi-device job on Llama-2-7B or TinyLlama.
func genJob(t *rapid.T) Job {
	m := rapid.SampledFrom([]sizing.Model{llama27B, tinyLlama}).Draw(t, "model")
	tensor := rapid.SampledFrom([]int{1, 2, 4}).Draw(t, "tensor")
	data := rapid.IntRange(1, 64).Draw(t, "data")
	return Job{
		Model:         m,
		Work:          FLOPs(rapid.Float64Range(1e15, 1e20).Draw(t, "work")),
		Batch:         rapid.IntRange(1, 16).Draw(t, "batch"),
		SeqLen:        rapid.IntRange(64, 8192).Draw(t, "seqLen"),
		Devices:       tensor * data,
		Tensor:        tensor,
		PeakPerDevice: FLOPRate(rapid.Float64Range(1e12, 2e15).Draw(t, "peak")),
		Link: Link{
			Bandwidth: Bandwidth(rapid.Float64Range(1e9, 1e12).Draw(t, "bandwidth")),
			Latency:   time.Duration(rapid.Int64Range(0, 20000).Draw(t, "latency_ns")),
		},
		Overlap: rapid.Float64Range(0, 1).Draw(t, "overlap"),
	}
}

func TestPropDoubleRateHalvesTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := FLOPs(rapid.Float64Range(0, 1e24).Draw(t, "work"))
		r := FLOPRate(rapid.Float64Range(1e9, 1e18).Draw(t, "rate"))
		d1, err1 := TimeFor(w, r)
		d2, err2 := TimeFor(w, 2*r)
		if err1 != nil {
			t.Skip("beyond time.Duration")
		}
		if err2 != nil {
			t.Fatalf("TimeFor at twice the rate failed: %v", err2)
		}
		// d1 and d2 are each rounded to the nanosecond.
		if diff := d1 - 2*d2; diff < -1 || diff > 1 {
			t.Fatalf("TimeFor(w, r) = %v, TimeFor(w, 2r) = %v; want half", d1, d2)
		}
	})
}

func TestPropTimeTimesRateIsWork(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := FLOPs(rapid.Float64Range(0, 1e24).Draw(t, "work"))
		r := FLOPRate(rapid.Float64Range(1e9, 1e18).Draw(t, "rate"))
		d, err := TimeFor(w, r)
		if err != nil {
			t.Skip("beyond time.Duration")
		}
		// Rounding to the nanosecond moves the work by at most half a nanosecond's
		// worth of the rate, plus float rounding.
		back := d.Seconds() * float64(r)
		if tol := 0.5e-9*float64(r) + 1e-12*float64(w); math.Abs(back-float64(w)) > tol {
			t.Fatalf("TimeFor(%g, %g) = %v; × rate = %g, off by more than %g", float64(w), float64(r), d, back, tol)
		}
		// RateFor inverts it to the same precision.
		if d > 0 {
			r2, err := RateFor(w, d)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(float64(r2)-float64(r)) > 0.5/float64(d)*float64(r)+1e-12*float64(r) {
				t.Fatalf("RateFor(%g, %v) = %g, want %g", float64(w), d, float64(r2), float64(r))
			}
		}
	})
}

func TestPropMoreDevicesNeverSlowerWhenCommFree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		j.Link = Link{Bandwidth: 1e300} // communication is free
		more := j
		more.Devices = j.Devices * rapid.IntRange(1, 8).Draw(t, "factor")
		a, err := j.Time()
		if err != nil {
			t.Fatal(err)
		}
		b, err := more.Time()
		if err != nil {
			t.Fatal(err)
		}
		if b.Duration > a.Duration || b.Low > a.Low || b.High > a.High {
			t.Fatalf("%d devices take %v, %d take %v", j.Devices, a.Duration, more.Devices, b.Duration)
		}
	})
}

func TestPropSlowerLinkNeverFaster(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		slow := j
		slow.Link.Bandwidth = j.Link.Bandwidth * Bandwidth(rapid.Float64Range(0.01, 1).Draw(t, "slowdown"))
		slow.Link.Latency = j.Link.Latency + time.Duration(rapid.Int64Range(0, 10000).Draw(t, "extra_latency_ns"))
		a, err := j.Time()
		if err != nil {
			t.Fatal(err)
		}
		b, err := slow.Time()
		if errors.Is(err, ErrRange) {
			t.Skip("the slow link's job runs past time.Duration's range")
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Step < a.Step || b.Duration < a.Duration || b.Efficiency > a.Efficiency {
			t.Fatalf("slower link: step %v (eff %.4f), faster link: step %v (eff %.4f)", b.Step, b.Efficiency, a.Step, a.Efficiency)
		}
		if a.Efficiency <= 0 || a.Efficiency > 1 || a.Low > a.Duration || a.Duration > a.High {
			t.Fatalf("timing out of order: %+v", a)
		}
	})
}

func TestPropAllReduceGrows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := Link{
			Bandwidth: Bandwidth(rapid.Float64Range(1e9, 1e12).Draw(t, "bandwidth")),
			Latency:   time.Duration(rapid.Int64Range(0, 20000).Draw(t, "latency_ns")),
		}
		s1 := sizing.Bytes(rapid.Int64Range(0, 1e12).Draw(t, "size"))
		s2 := s1 + sizing.Bytes(rapid.Int64Range(0, 1e12).Draw(t, "more_bytes"))
		n1 := rapid.IntRange(1, 1024).Draw(t, "n")
		n2 := n1 + rapid.IntRange(0, 1024).Draw(t, "more_devices")
		a, err := l.AllReduce(s1, n1)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := l.AllReduce(s2, n1)
		c, _ := l.AllReduce(s1, n2)
		if b < a {
			t.Fatalf("%d bytes take %v, more (%d) take %v", s1, a, s2, b)
		}
		if c < a {
			t.Fatalf("%d devices take %v, more (%d) take %v", n1, a, n2, c)
		}
	})
}

func TestPropWorkLinearInTokens(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.SampledFrom([]sizing.Model{llama27B, tinyLlama, gpt3, llama3405B}).Draw(t, "model")
		tokens := rapid.Float64Range(1, 1e13).Draw(t, "tokens")
		seq := rapid.IntRange(0, 32768).Draw(t, "seqLen")
		a, _ := TrainingFLOPs(m, tokens, seq)
		b, _ := TrainingFLOPs(m, 2*tokens, seq)
		inf, _ := InferenceFLOPs(m, tokens, seq)
		full, _ := TrainingFLOPsRecompute(m, tokens, seq, sizing.FullRecompute)
		if !within(float64(b), 2*float64(a), 1e-12) || !within(float64(a), 3*float64(inf), 1e-12) ||
			!within(float64(full), 4*float64(inf), 1e-12) {
			t.Fatalf("train %g, twice the tokens %g, inference %g, full recompute %g", float64(a), float64(b), float64(inf), float64(full))
		}
	})
}
