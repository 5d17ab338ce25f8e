package compute

import (
	"testing"

	"github.com/gpuplan/gpuplan/sizing"
)

func BenchmarkJobTime(b *testing.B) {
	work, _ := TrainingFLOPs(llama27B, 1e12, 4096)
	j := Job{Model: llama27B, Work: work, Batch: 2, SeqLen: 4096, Devices: 8, Tensor: 2,
		PeakPerDevice: h100Peak, Link: NVLink(h100NVLink), Overlap: 0.5}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := j.Time(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTrainingFLOPs(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := TrainingFLOPs(llama3405B, 15.6e12, 8192); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeSpeed(b *testing.B) {
	d := Decode{Model: llama27B, Weights: sizing.BF16, Context: 4096, Bandwidth: a100HBM, Peak: a100Peak}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := d.Speed(); err != nil {
			b.Fatal(err)
		}
	}
}
