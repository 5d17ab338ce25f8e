package sizing

import (
	"errors"
	"testing"
)

func TestCalibrate(t *testing.T) {
	w := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 4096}
	b, err := Estimate(estLlama2_7B, w)
	if err != nil {
		t.Fatal(err)
	}
	modelled := b.Total() - b.Overhead
	// A measured peak as nvidia-smi might report it: 1.5 GiB above the modelled terms.
	measured := modelled + 1536*MiB
	c, err := Calibrate(estLlama2_7B, w, measured)
	if err != nil {
		t.Fatal(err)
	}
	want := Calibration{Measured: measured, Modelled: modelled, Overhead: 1536 * MiB}
	if c != want {
		t.Fatalf("Calibrate() = %+v, want %+v", c, want)
	}
	// The measured configuration reproduces the measurement.
	got, err := c.Estimate(estLlama2_7B, w)
	if err != nil || got.Total() != measured {
		t.Errorf("calibrated Total() = %d, %v; want the measurement %d", got.Total(), err, measured)
	}
	// Another configuration carries the same overhead.
	w8 := w
	w8.Batch = 8
	got, err = c.Estimate(estLlama2_7B, w8)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Estimate(estLlama2_7B, w8)
	if got.Overhead != 1536*MiB || got.Total() != plain.Total()-plain.Overhead+1536*MiB {
		t.Errorf("calibrated batch-8 estimate = %+v, want %+v with overhead 1.5 GiB", got, plain)
	}
	// Apply feeds the inverse searches.
	n, err := MaxBatch(estLlama2_7B, c.Apply(w), 80*GiB)
	if err != nil {
		t.Fatal(err)
	}
	w.Batch = n
	if b, _ := c.Estimate(estLlama2_7B, w); b.Total() > 80*GiB {
		t.Errorf("MaxBatch with calibration = %d needs %d bytes, over 80 GiB", n, b.Total())
	}
}

func TestCalibrateEdges(t *testing.T) {
	w := Workload{Task: Training, Precision: BF16, Batch: 1, SeqLen: 2048}
	b, err := Estimate(estLlama2_7B, w)
	if err != nil {
		t.Fatal(err)
	}
	modelled := b.Total() - b.Overhead
	tests := []struct {
		name     string
		measured Bytes
		want     error
	}{
		{"below the modelled terms", modelled - 1, ErrInvalid},
		{"zero", 0, ErrInvalid},
		{"negative", -GiB, ErrInvalid},
		{"exactly the modelled terms", modelled, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Calibrate(estLlama2_7B, w, tc.measured)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Calibrate(%d) = %+v, %v; want error %v", tc.measured, c, err, tc.want)
			}
			if err == nil {
				if c.Overhead != 0 {
					t.Errorf("overhead = %d, want 0", c.Overhead)
				}
				if got := c.Apply(w).Overhead; got != 1 {
					t.Errorf("Apply of a zero overhead = %d, want 1 byte (zero means the default)", got)
				}
				if b, _ := c.Estimate(estLlama2_7B, w); b.Total() != tc.measured {
					t.Errorf("calibrated Total() = %d, want %d", b.Total(), tc.measured)
				}
			}
		})
	}
	if _, err := (Calibration{Overhead: -1}).Estimate(estLlama2_7B, w); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative calibration overhead: err = %v, want ErrInvalid", err)
	}
	if _, err := Calibrate(Model{}, w, GiB); !errors.Is(err, ErrInvalid) {
		t.Errorf("calibrating an empty model: err = %v, want ErrInvalid", err)
	}
}
