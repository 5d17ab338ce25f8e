package compute

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
	"pgregory.net/rapid"
)

func TestDeviceHours(t *testing.T) {
	// Llama 3 405B's 3.8e25 FLOPs at 400 TFLOP/s sustained a device: 26.4 million
	// device-hours (Dubey et al. 2024 report 30.84M H100-hours for the whole run,
	// downtime included), past time.Duration's 292 years.
	h, err := DeviceHours(3.8e25, 400*TFLOPS)
	if err != nil || !within(h, 3.8e25/400e12/3600, 1e-12) {
		t.Errorf("DeviceHours = %v, %v; want %v", h, err, 3.8e25/400e12/3600)
	}
	if _, err := TimeFor(3.8e25, 400*TFLOPS); !errors.Is(err, ErrRange) {
		t.Errorf("TimeFor of the same: %v, want ErrRange", err)
	}
	if h, err := DeviceHours(0, 1); h != 0 || err != nil {
		t.Errorf("DeviceHours(0) = %v, %v", h, err)
	}
	for _, bad := range [][2]float64{{-1, 1}, {1, 0}, {math.NaN(), 1}, {1, math.Inf(1)}} {
		if _, err := DeviceHours(FLOPs(bad[0]), FLOPRate(bad[1])); !errors.Is(err, ErrInvalid) {
			t.Errorf("DeviceHours(%v, %v) = %v, want ErrInvalid", bad[0], bad[1], err)
		}
	}
	if _, err := DeviceHours(1e300, 1e-300); !errors.Is(err, ErrRange) {
		t.Errorf("DeviceHours past float64: %v, want ErrRange", err)
	}
}

// modelJob is Llama-2-7B on 8 A100s, the step built from its parts.
func modelJob() Job {
	return Job{Model: llama27B, Work: 1e19, Batch: 2, SeqLen: 4096, Devices: 8, PeakPerDevice: a100Peak,
		Bandwidth: a100HBM, Link: NVLink(a100NVLink), Arch: "Ampere", Overlap: 0.5}
}

func TestJobModelled(t *testing.T) {
	j := modelJob()
	j.Devices, j.Link = 1, Link{}
	tm := mustTime(t, j)
	if tm.Efficiency != 1 || tm.Bubble != 0 || tm.Comm != 0 || tm.Pipeline != 1 {
		t.Errorf("one device: %+v, want efficiency 1, no bubble or communication", tm)
	}
	// The band is the model's measured error.
	d := tm.Duration.Seconds()
	if !within(tm.Low.Seconds(), d*(1-TrainingError), 1e-9) || !within(tm.High.Seconds(), d*(1+TrainingError), 1e-9) {
		t.Errorf("band %v–%v around %v, want ±%v", tm.Low, tm.High, tm.Duration, TrainingError)
	}
	// MFU counts 6N + 12·l·s·d_attn a token over the time at the peak.
	n, _ := MatmulParams(llama27B)
	perToken := 6*float64(n) + 12*32*4096*4096
	tokens := float64(j.Work) / (6*float64(n) + 6*32*4096*4096)
	if want := tokens * perToken / (d * float64(a100Peak)); !within(tm.MFU, want, 1e-9) || tm.MFU <= 0.3 || tm.MFU >= 0.7 {
		t.Errorf("MFU %v, want %v, between 0.3 and 0.7", tm.MFU, want)
	}
	// A smaller model of the same FLOPs runs narrower multiplies and more of its
	// step in memory-bound work: a lower MFU.
	tiny := j
	tiny.Model = tinyLlama
	tiny.Work, _ = TrainingFLOPs(tinyLlama, tokens*float64(j.Work)/float64(j.Work), 4096)
	if ts := mustTime(t, tiny); ts.MFU >= tm.MFU {
		t.Errorf("TinyLlama MFU %v, Llama-2-7B %v: want the smaller model lower", ts.MFU, tm.MFU)
	}
	// The modelled step falls with more bandwidth and more peak.
	fast := j
	fast.Bandwidth, fast.PeakPerDevice = 2*a100HBM, 2*a100Peak
	if f := mustTime(t, fast); f.Duration >= tm.Duration {
		t.Errorf("twice the card: %v, the card: %v", f.Duration, tm.Duration)
	}
	// A zero Bandwidth is PeakPerDevice × DefaultBytesPerFLOP.
	def := j
	def.Bandwidth = 0
	want := j
	want.Bandwidth = Bandwidth(float64(a100Peak) * DefaultBytesPerFLOP)
	if a, b := mustTime(t, def), mustTime(t, want); a != b {
		t.Errorf("zero bandwidth %+v, want %+v", a, b)
	}
}

// Gradients are all-reduced once an optimizer step: accumulating micro-batches
// spreads the all-reduce over more tokens.
func TestJobAccumulation(t *testing.T) {
	j := modelJob()
	j.Overlap = 0
	one := mustTime(t, j)
	j.Accumulation = 8
	eight := mustTime(t, j)
	if !within(eight.Steps, one.Steps/8, 1e-12) {
		t.Errorf("steps %v with 8 micro-batches, want %v", eight.Steps, one.Steps/8)
	}
	if !(eight.Comm < one.Comm/4) || !(eight.Duration < one.Duration) || !(eight.Efficiency > one.Efficiency) {
		t.Errorf("accumulation 8: comm %v against %v, duration %v against %v", eight.Comm, one.Comm, eight.Duration, one.Duration)
	}
}

// The 1F1B bubble: Pipeline − 1 micro-batches' worth of a stage per step.
func TestJobPipeline(t *testing.T) {
	j := modelJob()
	j.Devices, j.Pipeline, j.Accumulation, j.Overlap = 8, 4, 8, 1
	tm := mustTime(t, j)
	// Four stages and eight micro-batches: the bubble is 3/8 of the compute
	// (before the optimizer's update, which runs once a step).
	r := tm.Bubble.Seconds() / tm.Compute.Seconds()
	if r < 0.3 || r > 0.375 || tm.Pipeline != 4 || tm.Data != 2 {
		t.Errorf("bubble %v, compute %v (%.3f), want just under 3/8; %+v", tm.Bubble, tm.Compute, r, tm)
	}
	j.Accumulation = 32
	if tm32 := mustTime(t, j); tm32.Bubble.Seconds()/tm32.Compute.Seconds() >= r/3 {
		t.Errorf("32 micro-batches: bubble share %v, want under a third of %v", tm32.Bubble.Seconds()/tm32.Compute.Seconds(), r)
	}
	for _, bad := range []Job{
		{Model: llama27B, Work: 1, Batch: 1, SeqLen: 1, Devices: 8, Pipeline: 3, PeakPerDevice: a100Peak, Link: NVLink(a100NVLink)},
		{Model: llama27B, Work: 1, Batch: 1, SeqLen: 1, Devices: 64, Pipeline: 64, PeakPerDevice: a100Peak, Link: NVLink(a100NVLink)},
		{Model: sizing.Model{Params: 7e9}, Work: 1, Batch: 1, SeqLen: 1, Devices: 2, Pipeline: 2, PeakPerDevice: a100Peak, Link: NVLink(a100NVLink)},
		{Model: llama27B, Work: 1, Batch: 1, SeqLen: 1, Devices: 1, Accumulation: -1, PeakPerDevice: a100Peak},
	} {
		if _, err := bad.Time(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Time(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
}

// An explicit utilization comes first, a calibration second, the model last.
func TestJobPrecedence(t *testing.T) {
	j := modelJob()
	model := mustTime(t, j)
	j.Calibration = &Calibration{Train: 0.5}
	cal := mustTime(t, j)
	if !(cal.Duration > model.Duration*3/2) || cal.Comm < model.Comm {
		t.Errorf("half the modelled speed: %v against %v", cal.Duration, model.Duration)
	}
	j.Utilization = Point(0.45)
	util := mustTime(t, j)
	j.Calibration = nil
	if u := mustTime(t, j); u != util {
		t.Errorf("with a utilization the calibration counts: %+v against %+v", util, u)
	}
	// A zero factor is not measured: the model.
	j.Utilization, j.Calibration = Band{}, &Calibration{}
	if z := mustTime(t, j); z != model {
		t.Errorf("zero calibration %+v, want the model's %+v", z, model)
	}
	for _, bad := range []Calibration{{Train: -1}, {Train: math.NaN()}, {Decode: math.Inf(1)}, {Train: 1001}} {
		j.Calibration = &bad
		if _, err := j.Time(); !errors.Is(err, ErrInvalid) {
			t.Errorf("calibration %+v: %v, want ErrInvalid", bad, err)
		}
		if err := bad.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
}

// Fit inverts a calibration: the factor under which the model takes a step back,
// and the model with it reproduces the step.
func TestPropJobFit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		j.Bandwidth = Bandwidth(rapid.Float64Range(1e11, 8e12).Draw(t, "memory_bandwidth"))
		j.Accumulation = rapid.IntRange(0, 16).Draw(t, "accumulation")
		j.Arch = rapid.SampledFrom([]string{"", "Ampere", "Hopper"}).Draw(t, "arch")
		f := rapid.Float64Range(0.2, 1.2).Draw(t, "factor")
		j.Calibration = &Calibration{Train: f}
		tm, err := j.Time()
		if err != nil {
			t.Fatal(err)
		}
		c, err := j.Fit(tm.Step)
		if err != nil {
			t.Fatalf("Fit(%v): %v", tm.Step, err)
		}
		j.Calibration = &c
		back, err := j.Time()
		if err != nil {
			t.Fatal(err)
		}
		if d := back.Step - tm.Step; d < -1 || d > 1 {
			t.Fatalf("factor %v: step %v, fitted %v gives %v", f, tm.Step, c.Train, back.Step)
		}
	})
}

func TestJobFitErrors(t *testing.T) {
	j := modelJob()
	tm := mustTime(t, j)
	c, err := j.Fit(tm.Step)
	if err != nil || !within(c.Train, 1, 1e-6) || c.Decode != 0 {
		t.Errorf("Fit of the model's own step = %+v, %v; want a factor of 1", c, err)
	}
	for _, step := range []time.Duration{0, -time.Second, time.Millisecond} {
		if _, err := j.Fit(step); !errors.Is(err, ErrInvalid) {
			t.Errorf("Fit(%v) = %v, want ErrInvalid", step, err)
		}
	}
	j.Batch = 0
	if _, err := j.Fit(time.Second); !errors.Is(err, ErrInvalid) {
		t.Errorf("Fit of an invalid job: %v", err)
	}
}

// Serving.Fit inverts a decode calibration at a concurrency.
func TestPropServingFit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genServing(t)
		max, err := s.MaxConcurrency()
		if errors.Is(err, ErrNoFit) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		c := rapid.IntRange(1, max).Draw(t, "concurrency")
		f := rapid.Float64Range(0.2, 1.2).Draw(t, "factor")
		s.Calibration = &Calibration{Decode: f}
		p, err := s.At(c)
		if err != nil {
			t.Fatal(err)
		}
		fit, err := s.Fit(c, p.TPOT)
		if err != nil {
			t.Fatalf("Fit(%d, %v): %v", c, p.TPOT, err)
		}
		s.Calibration = &fit
		q, err := s.At(c)
		if err != nil {
			t.Fatal(err)
		}
		if d := q.TPOT - p.TPOT; d < -1 || d > 1 {
			t.Fatalf("factor %v: TPOT %v, fitted %v gives %v", f, p.TPOT, fit.Decode, q.TPOT)
		}
	})
}

func TestServingFitErrors(t *testing.T) {
	s := llama7BServing()
	p, err := s.At(16)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.Fit(16, p.TPOT); err != nil || !within(c.Decode, 1, 1e-6) || c.Train != 0 {
		t.Errorf("Fit of the model's own TPOT = %+v, %v; want a factor of 1", c, err)
	}
	// 16 sequences read 13.2 GB of weights and their KV caches a step: no A100
	// reads that in 2 ms.
	if _, err := s.Fit(16, 2*time.Millisecond); !errors.Is(err, ErrInvalid) {
		t.Errorf("Fit(16, 2ms) = %v, want ErrInvalid", err)
	}
	if _, err := s.Fit(0, p.TPOT); !errors.Is(err, ErrInvalid) {
		t.Errorf("Fit(0) = %v, want ErrInvalid", err)
	}
	if _, err := s.Fit(1<<20, p.TPOT); !errors.Is(err, ErrNoFit) {
		t.Errorf("Fit past MaxConcurrency = %v, want ErrNoFit", err)
	}
	if _, err := s.Fit(16, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Fit(16, 0) = %v, want ErrInvalid", err)
	}
}

func TestUnder(t *testing.T) {
	s := llama7BServing()
	one, err := s.At(1)
	if err != nil {
		t.Fatal(err)
	}
	max, _ := s.MaxConcurrency()
	sat, _ := s.At(max)
	low, err := s.Under(0.2)
	if err != nil {
		t.Fatal(err)
	}
	// At a trickle a request meets an idle replica: its TTFT and TPOT are near a
	// lone user's, and about rate × (TTFT + 299 TPOT) sequences run.
	if !low.Stable || !within(low.TTFT.P50.Seconds(), one.TTFT.Seconds(), 0.1) || !within(low.TPOT.P50.Seconds(), one.TPOT.Seconds(), 0.1) {
		t.Errorf("Under(0.2) = %+v, At(1) = %+v", low, one)
	}
	if little := 0.2 * (one.TTFT.Seconds() + 299*one.TPOT.Seconds()); !within(low.Concurrency, little, 0.15) {
		t.Errorf("Under(0.2) runs %v sequences, Little's law %v", low.Concurrency, little)
	}
	if want := TokenRate(0.2 * 300); low.Throughput != want {
		t.Errorf("throughput %v, want %v", low.Throughput, want)
	}
	// Deterministic.
	if again, _ := s.Under(0.2); again != low {
		t.Errorf("Under(0.2) twice: %+v and %+v", low, again)
	}
	// Load queues: higher percentiles, more sequences, slower steps.
	high, err := s.Under(0.8 * sat.Requests)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Percentiles{low.TTFT, low.TPOT, high.TTFT, high.TPOT} {
		if !(p.P50 <= p.P90 && p.P90 <= p.P99 && p.Mean > 0) {
			t.Errorf("percentiles out of order: %+v", p)
		}
	}
	if !high.Stable || high.TTFT.P99 <= low.TTFT.P99 || high.TPOT.Mean <= low.TPOT.Mean || high.Concurrency <= low.Concurrency {
		t.Errorf("Under(%v) = %+v against Under(0.2) = %+v", 0.8*sat.Requests, high, low)
	}
	// Past capacity: not stable, the saturated replica, no TTFT and no error.
	over, err := s.Under(2 * sat.Requests)
	if err != nil || over.Stable || over.TTFT != (Percentiles{}) || over.TPOT.P50 != sat.TPOT || over.Throughput != sat.Throughput {
		t.Errorf("Under(%v) = %+v, %v; want the saturated point %+v, unstable", 2*sat.Requests, over, err, sat)
	}
	for _, r := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := s.Under(r); !errors.Is(err, ErrInvalid) {
			t.Errorf("Under(%v) = %v, want ErrInvalid", r, err)
		}
	}
	var zero PreparedServing
	if _, err := zero.Under(1); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero PreparedServing Under: %v, want ErrInvalid", err)
	}
}

// At a rate far below one request a day every request meets an idle replica, so
// the latencies are a lone request's whatever the rate: the simulation's clock
// must not lose the milliseconds of a step to the years between requests, nor
// spin on a gap too long for a float64 (a subnormal rate).
func TestUnderLowRates(t *testing.T) {
	s := llama7BServing()
	ref, err := s.Under(1e-6)
	if err != nil {
		t.Fatal(err)
	}
	d := Disaggregated{Prefill: s, Decode: s, PrefillReplicas: 1, DecodeReplicas: 1, Link: Link{Bandwidth: 50 * GBps}}
	dref, err := d.Under(1e-6)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []float64{1e-9, 1e-12, 1e-15, 1e-100, 5e-324} {
		lp, err := s.Under(r)
		if err != nil || !lp.Stable || lp.TTFT.P50 != ref.TTFT.P50 || lp.TTFT.P99 != ref.TTFT.P99 || lp.TPOT.P50 != ref.TPOT.P50 || lp.TPOT.P99 != ref.TPOT.P99 {
			t.Errorf("Under(%v) = %+v, %v; want the latencies of Under(1e-6) %+v", r, lp, err, ref)
		}
		if !(lp.Concurrency >= 0 && lp.Concurrency <= ref.Concurrency) {
			t.Errorf("Under(%v) runs %v sequences, Under(1e-6) %v", r, lp.Concurrency, ref.Concurrency)
		}
		dp, err := d.Under(r)
		if err != nil || dp.TTFT.P50 != dref.TTFT.P50 || dp.TPOT.P50 != dref.TPOT.P50 {
			t.Errorf("Disaggregated Under(%v) = %+v, %v; want the latencies of Under(1e-6) %+v", r, dp, err, dref)
		}
	}
}

// A queue that keeps growing below the closed loop's capacity is overload, not an
// error: one-token prefill chunks of 512-token prompts and one output token each
// complete far less than At's steady state does, and at 60% of that capacity
// Under (and a disaggregated pair of such replicas) report the saturated replica.
func TestUnderQueueGrowing(t *testing.T) {
	s := llama7BServing()
	s.PromptTokens, s.OutputTokens, s.PrefillChunk = 512, 1, 1
	p, err := s.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	n, err := p.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	sat, err := p.At(n)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := p.Under(0.6 * sat.Requests)
	if err != nil || lp.Stable || lp.TTFT != (Percentiles{}) || lp.Throughput != sat.Throughput {
		t.Errorf("Under(0.6 × capacity) = %+v, %v; want the saturated point, Stable false", lp, err)
	}
	d := Disaggregated{Prefill: s, Decode: s, PrefillReplicas: 1, DecodeReplicas: 1, Link: Link{Bandwidth: 50 * GBps}}
	if dp, err := d.Under(0.6 * sat.Requests); err != nil || dp.Stable {
		t.Errorf("Disaggregated Under(0.6 × capacity) = %+v, %v; want Stable false", dp, err)
	}
}

func BenchmarkUnder(b *testing.B) {
	s := llama7BServing()
	p, err := s.Prepare()
	if err != nil {
		b.Fatal(err)
	}
	sat, _ := p.At(p.max)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Under(0.8 * sat.Requests); err != nil {
			b.Fatal(err)
		}
	}
}

// Prompts in steps of their own: a lone user sees no difference; under load the
// decoding sequences wait for the other users' prompts (a slower TPOT) while a
// prompt runs without them (a quicker TTFT), in a closed loop and under arrivals.
func TestServingSeparatePrefill(t *testing.T) {
	mixed := llama7BServing()
	mixed.PromptTokens, mixed.OutputTokens = 1000, 200
	separate := mixed
	separate.SeparatePrefill = true
	for _, c := range []int{1, 32} {
		m, err := mixed.At(c)
		if err != nil {
			t.Fatal(err)
		}
		s, err := separate.At(c)
		if err != nil {
			t.Fatal(err)
		}
		if c == 1 && s != m {
			t.Errorf("one user: separate %+v, mixed %+v, want the same", s, m)
		}
		if c > 1 && !(s.TPOT > m.TPOT && s.TTFT < m.TTFT) {
			t.Errorf("%d users: separate TTFT %v TPOT %v, mixed %v and %v: want a slower TPOT and a quicker TTFT", c, s.TTFT, s.TPOT, m.TTFT, m.TPOT)
		}
	}
	m, err := mixed.Under(4)
	if err != nil {
		t.Fatal(err)
	}
	s, err := separate.Under(4)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Stable || !s.Stable || !(s.TPOT.P50 > m.TPOT.P50 && s.TTFT.P50 < m.TTFT.P50) {
		t.Errorf("4 requests/s: separate %+v, mixed %+v: want a slower TPOT and a quicker TTFT", s, m)
	}
}

func BenchmarkUnderSeparatePrefill(b *testing.B) {
	s := llama7BServing()
	s.SeparatePrefill = true
	p, err := s.Prepare()
	if err != nil {
		b.Fatal(err)
	}
	sat, _ := p.At(p.max)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Under(0.8 * sat.Requests); err != nil {
			b.Fatal(err)
		}
	}
}
