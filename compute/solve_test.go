package compute

import (
	"errors"
	"math"
	"testing"
	"time"
)

const day = 24 * time.Hour

func TestFirstArticle(t *testing.T) {
	// Seed 000: 1e8 samples × 1e9 FLOPs per sample in one day. The product is 1e17,
	// which needs 1.157 TFLOP/s sustained; the article writes 1e18 and 11.6 TFLOPS,
	// which is right for 1e18 but not for 1e8 × 1e9.
	tests := []struct {
		name string
		work FLOPs
		want float64 // TFLOP/s
	}{
		{"1e8 × 1e9 = 1e17 in a day", 1e17, 1.157},
		{"the article's 1e18 in a day", 1e18, 11.57},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RateFor(tt.work, day)
			if err != nil {
				t.Fatal(err)
			}
			if !within(got.TFLOPS(), tt.want, 0.001) {
				t.Errorf("RateFor = %v, want %.4g TFLOPS", got, tt.want)
			}
		})
	}
	// At the article's 60–80% utilization the 1e17 job needs 1.45–1.93 TFLOPS of
	// peak, far under any card in its table.
	lo, _ := PeakFor(1e17, day, SeedUtilization().High)
	hi, _ := PeakFor(1e17, day, SeedUtilization().Low)
	if !within(lo.TFLOPS(), 1.447, 0.001) || !within(hi.TFLOPS(), 1.929, 0.001) {
		t.Errorf("PeakFor = %v .. %v, want 1.447 .. 1.929 TFLOPS", lo, hi)
	}
}

func TestTimeFor(t *testing.T) {
	got, err := TimeFor(1e17, 1e17/FLOPRate(day.Seconds()))
	if err != nil || got != day {
		t.Errorf("TimeFor = %v, %v; want %v", got, err, day)
	}
	if got, err := TimeFor(0, TFLOPS); err != nil || got != 0 {
		t.Errorf("TimeFor(0) = %v, %v; want 0", got, err)
	}
	// Llama 3 405B's 3.8e25 FLOPs on 16,384 H100s at 40% of 989.5 TFLOPS (Dubey et
	// al. 2024 report 38–43% MFU): 5.86e6 s, 67.8 days of uninterrupted compute.
	got, err = TimeFor(3.8e25, 16384*h100Peak*0.4)
	if err != nil || !within(got.Hours()/24, 67.8, 0.002) {
		t.Errorf("Llama 3 405B TimeFor = %v (%.2f days), %v; want 67.8 days", got, got.Hours()/24, err)
	}
}

func TestTimeBand(t *testing.T) {
	s, err := TimeBand(1e17, 1*TFLOPS, Band{Low: 0.5, High: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	want := Span{Low: 125000 * time.Second, High: 200000 * time.Second}
	if s != want {
		t.Errorf("TimeBand = %+v, want %+v", s, want)
	}
}

func TestDevicesFor(t *testing.T) {
	tests := []struct {
		name string
		work FLOPs
		in   time.Duration
		peak FLOPRate
		u    float64
		eff  float64
		want int
	}{
		// 1e18 in a day needs 11.57 TFLOP/s; an A100 at 60% gives 187: one is plenty.
		{"article on one A100", 1e18, day, a100Peak, 0.6, 1, 1},
		// Narayanan et al. 2021: 8·T·P for GPT-3 at 140 TFLOP/s per A100 (45% of 312)
		// takes 33.9 days on 1024 GPUs; a 34-day deadline needs 1021.4, so 1022.
		{"GPT-3 in 34 days", 8 * 300e9 * 175e9, 34 * day, a100Peak, 140.0 / 312, 1, 1022},
		{"exact fit", 3e15, time.Second, TFLOPS, 1, 1, 3000},
		{"scaling efficiency", 3e15, time.Second, TFLOPS, 1, 0.5, 6000},
		{"no work", 0, day, TFLOPS, 0.5, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DevicesFor(tt.work, tt.in, tt.peak, tt.u, tt.eff)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("DevicesFor = %d, want %d", got, tt.want)
			}
		})
	}
	if _, err := DevicesFor(1e30, time.Second, FLOPS, 1, 1); !errors.Is(err, ErrRange) {
		t.Errorf("DevicesFor of 1e30 devices: %v, want ErrRange", err)
	}
}

func TestSolverErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		err  func() error
		want error
	}{
		{"zero rate", func() error { _, err := TimeFor(1, 0); return err }, ErrInvalid},
		{"negative rate", func() error { _, err := TimeFor(1, -TFLOPS); return err }, ErrInvalid},
		{"NaN rate", func() error { _, err := TimeFor(1, FLOPRate(nan)); return err }, ErrInvalid},
		{"Inf rate", func() error { _, err := TimeFor(1, FLOPRate(inf)); return err }, ErrInvalid},
		{"negative work", func() error { _, err := TimeFor(-1, TFLOPS); return err }, ErrInvalid},
		{"NaN work", func() error { _, err := TimeFor(FLOPs(nan), TFLOPS); return err }, ErrInvalid},
		{"Inf work", func() error { _, err := TimeFor(FLOPs(inf), TFLOPS); return err }, ErrInvalid},
		// 3.8e25 FLOPs on one 1 TFLOP/s device: 1.2 million years.
		{"beyond time.Duration", func() error { _, err := TimeFor(3.8e25, TFLOPS); return err }, ErrRange},
		{"just beyond", func() error { _, err := TimeFor(FLOPs(math.MaxInt64)+1e4, 1e9); return err }, ErrRange},
		{"zero deadline", func() error { _, err := RateFor(1, 0); return err }, ErrInvalid},
		{"negative deadline", func() error { _, err := RateFor(1, -time.Second); return err }, ErrInvalid},
		{"utilization zero", func() error { _, err := PeakFor(1, time.Second, 0); return err }, ErrInvalid},
		{"utilization above one", func() error { _, err := PeakFor(1, time.Second, 1.2); return err }, ErrInvalid},
		{"utilization NaN", func() error { _, err := PeakFor(1, time.Second, nan); return err }, ErrInvalid},
		// Rates past float64's range (1e308 FLOPs in a nanosecond is 1e317 FLOP/s).
		{"rate overflows", func() error { _, err := RateFor(1e308, time.Nanosecond); return err }, ErrRange},
		{"peak overflows", func() error { _, err := PeakFor(1e300, time.Nanosecond, 1e-300); return err }, ErrRange},
		{"peak overflows by utilization", func() error { _, err := PeakFor(1e290, time.Nanosecond, 1e-30); return err }, ErrRange},
		{"efficiency zero", func() error { _, err := DevicesFor(1, time.Second, TFLOPS, 1, 0); return err }, ErrInvalid},
		{"device peak zero", func() error { _, err := DevicesFor(1, time.Second, 0, 1, 1); return err }, ErrInvalid},
		{"band inverted", func() error { return Band{Low: 0.8, High: 0.6}.Validate() }, ErrInvalid},
		{"band zero", func() error { return Band{}.Validate() }, ErrInvalid},
		{"band span", func() error { _, err := TimeBand(1, TFLOPS, Band{Low: 0.5, High: 1.5}); return err }, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.err(); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want one wrapping %v", err, tt.want)
			}
		})
	}
}

func TestLargestDuration(t *testing.T) {
	// The largest work that fits: MaxInt64 ns is 292.47 years.
	got, err := TimeFor(9.2e18, 1e9)
	if err != nil || got != time.Duration(9.2e18) {
		t.Errorf("TimeFor(9.2e18 FLOP, 1 GFLOPS) = %v, %v; want %v", got, err, time.Duration(9.2e18))
	}
}

func TestBands(t *testing.T) {
	if got := SeedUtilization(); got != (Band{0.6, 0.8}) {
		t.Errorf("SeedUtilization = %+v", got)
	}
	if got := PublishedMFU(); got != (Band{0.38, 0.52}) || got.Mid() != DefaultUtilization {
		t.Errorf("PublishedMFU = %+v (mid %v), want 0.38–0.52 with mid %v", got, got.Mid(), DefaultUtilization)
	}
	if err := Point(1).Validate(); err != nil {
		t.Errorf("Point(1): %v", err)
	}
}
