package compute

import (
	"errors"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// An offloaded optimizer sends its gradient shard out and as many bytes of
// weights back each step, not overlapped.
func TestWithOffload(t *testing.T) {
	base := Timing{Duration: 10 * time.Hour, Low: 8 * time.Hour, High: 12 * time.Hour, Comm: 2 * time.Hour, Steps: 1000, Efficiency: 0.8}
	for _, tc := range []struct {
		name    string
		offload sizing.Bytes
		host    Bandwidth
		extra   time.Duration
	}{
		{"no offload", 0, 0, 0},
		// 2 × 16 GB / 32 GB/s = 1 s a step, 1000 steps.
		{"offload", 16e9, 32 * GBps, 1000 * time.Second},
	} {
		got, err := base.WithOffload(tc.offload, tc.host)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.Duration != base.Duration+tc.extra || got.Low != base.Low+tc.extra || got.High != base.High+tc.extra {
			t.Errorf("%s: %v/%v/%v, want each %v longer", tc.name, got.Duration, got.Low, got.High, tc.extra)
		}
		if want := base.Efficiency * float64(base.Duration) / float64(got.Duration); got.Efficiency != want {
			t.Errorf("%s: efficiency %v, want %v", tc.name, got.Efficiency, want)
		}
	}
	for _, bad := range []struct {
		offload sizing.Bytes
		host    Bandwidth
	}{{-1, 0}, {1, 0}, {1, -1}} {
		if _, err := base.WithOffload(bad.offload, bad.host); !errors.Is(err, ErrInvalid) {
			t.Errorf("WithOffload(%d, %v) = %v, want ErrInvalid", bad.offload, bad.host, err)
		}
	}
}
