package sizing

import "testing"

var benchSink Breakdown

func BenchmarkEstimate(b *testing.B) {
	cases := []struct {
		name string
		m    Model
		w    Workload
	}{
		{"training", estLlama2_7B, Workload{Task: Training, Precision: BF16, Batch: 4, SeqLen: 4096,
			Parallel: Parallel{Data: 8, ZeRO: 2}}},
		{"inference", estLlama2_70B, Workload{Task: Inference, Precision: FP8, Batch: 32, SeqLen: 8192, Parallel: Parallel{Tensor: 4}}},
		{"qlora", estLlama2_7B, Workload{Task: QLoRA, Precision: BF16, Batch: 4, SeqLen: 2048, Recompute: FullRecompute}},
		{"params-only", Model{Params: 7e9}, Workload{Task: Inference, Precision: FP16, Batch: 1, SeqLen: 4096}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				br, err := Estimate(c.m, c.w)
				if err != nil {
					b.Fatal(err)
				}
				benchSink = br
			}
		})
	}
}

func BenchmarkMaxContext(b *testing.B) {
	w := Workload{Task: Inference, Precision: BF16, Batch: 1}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := MaxContext(estLlama2_7B, w, 24*GiB); err != nil {
			b.Fatal(err)
		}
	}
}
