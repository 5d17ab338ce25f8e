package compute

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// within reports whether got is within rel (a fraction) of want.
func within(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

func TestPublishedWork(t *testing.T) {
	tests := []struct {
		name   string
		work   func() (FLOPs, error)
		want   float64
		rel    float64
		source string
	}{
		{
			name: "GPT-3 175B, 300B tokens, params only",
			work: func() (FLOPs, error) { return TrainingFLOPs(sizing.Model{Params: 175e9}, 300e9, 0) },
			want: 3.14e23, rel: 0.01,
			source: "Brown et al. 2020, Table D.1: 3.14e23 FLOPs",
		},
		{
			name: "GPT-3 175B, 300B tokens, architecture",
			work: func() (FLOPs, error) { return TrainingFLOPs(gpt3, 300e9, 0) },
			want: 3.14e23, rel: 0.002, // N = 174.58e9 without the position table: 3.142e23
			source: "Brown et al. 2020, Table D.1",
		},
		{
			name: "GPT-3 175B with Kaplan's attention term at n_ctx 2048",
			work: func() (FLOPs, error) { return TrainingFLOPs(gpt3, 300e9, 2048) },
			// 6·96·2048·12288 = 1.45e10 per token on top of 6·N = 1.05e12: +1.4%
			want: 3.142e23 + 6*96*2048*12288*300e9, rel: 0.001,
			source: "Kaplan et al. 2020, Table 1",
		},
		{
			name: "Llama 3 405B, 15.6T tokens, params only",
			work: func() (FLOPs, error) { return TrainingFLOPs(sizing.Model{Params: 405e9}, 15.6e12, 0) },
			want: 3.8e25, rel: 0.01,
			source: "Dubey et al. 2024, §3.4.1: 3.8e25 FLOPs",
		},
		{
			name: "Llama 3 405B, 15.6T tokens, architecture",
			work: func() (FLOPs, error) { return TrainingFLOPs(llama3405B, 15.6e12, 0) },
			want: 3.8e25, rel: 0.01, // 403.75e9 matmul parameters: 3.779e25
			source: "Dubey et al. 2024, §3.4.1",
		},
		{
			name: "first article: 1e8 samples × 1e9 FLOPs",
			work: func() (FLOPs, error) { return SampleFLOPs(1e8, 1e9) },
			want: 1e17, rel: 1e-15,
			source: "seed 000: the article prints 1e18, an arithmetic slip",
		},
		{
			name: "Megatron GPT-3 iteration, batch 1536, full recompute",
			work: func() (FLOPs, error) { return MegatronFLOPs(gpt3Megatron, 1536, 2048, true) },
			// 96·1536·2048·96·12288²·(1 + 2048/73728 + 51200/18874368)
			want: 96 * 1536 * 2048 * 96 * 12288 * 12288 * (1 + 2048.0/73728 + 51200.0/18874368), rel: 1e-12,
			source: "Narayanan et al. 2021, eq. 3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.work()
			if err != nil {
				t.Fatal(err)
			}
			if !within(float64(got), tt.want, tt.rel) {
				t.Errorf("got %g, want %g ± %g%% (%s)", float64(got), tt.want, 100*tt.rel, tt.source)
			}
		})
	}
}

func TestMatmulParams(t *testing.T) {
	tests := []struct {
		name string
		m    sizing.Model
		want int64
	}{
		// Llama-2-7B: 6,738,415,616 less the untied input table 32000 × 4096.
		{"Llama-2-7B", llama27B, 6738415616 - 32000*4096},
		// GPT-3: tied, so the one table is the output head; the 2048 positions go.
		{"GPT-3", gpt3, 174604259328 - 2048*12288},
		{"params only", sizing.Model{Params: 7e9}, 7e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MatmulParams(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("MatmulParams = %d, want %d", got, tt.want)
			}
		})
	}
	// Mixtral 8x7B (config.json: 32 layers, hidden 4096, 32 heads, 8 KV heads, FFN
	// 14336, 32000 vocabulary, 8 experts, 2 per token): Mistral AI gives 12.9B active
	// parameters per token; the input table 32000 × 4096 is not multiplied.
	mixtral := sizing.Model{Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336,
		Vocab: 32000, GatedFFN: true, Experts: 8, ExpertsPerToken: 2}
	got, err := MatmulParams(mixtral)
	if err != nil {
		t.Fatal(err)
	}
	if want := mixtral.ActiveParams() - 32000*4096; got != want || !within(float64(mixtral.ActiveParams()), 12.9e9, 0.005) {
		t.Errorf("Mixtral MatmulParams = %d (active %d), want %d (active about 12.9e9)", got, mixtral.ActiveParams(), want)
	}
}

func TestWorkForms(t *testing.T) {
	m := sizing.Model{Params: 1e9}
	train, _ := TrainingFLOPs(m, 1e6, 0)
	full, _ := TrainingFLOPsRecompute(m, 1e6, 0, sizing.FullRecompute)
	inf, _ := InferenceFLOPs(m, 1e6, 0)
	if train != 6e15 || full != 8e15 || inf != 2e15 {
		t.Errorf("6ND, 8ND, 2ND = %g, %g, %g; want 6e15, 8e15, 2e15", float64(train), float64(full), float64(inf))
	}
	// Attention term: selective recompute runs the attention core forward twice.
	a0, _ := TrainingFLOPsRecompute(llama27B, 1, 4096, sizing.NoRecompute)
	a1, _ := TrainingFLOPsRecompute(llama27B, 1, 4096, sizing.SelectiveRecompute)
	if d, want := float64(a1-a0), 2*32*4096*4096.0; d != want {
		t.Errorf("selective recompute adds %g per token, want %g", d, want)
	}
	fb, _ := ForwardBackward(2e9)
	if fb != 6e9 {
		t.Errorf("ForwardBackward(2e9) = %g, want 6e9", float64(fb))
	}
	// Inference with attention: 2·N + 2·l·s·d per token.
	n, _ := MatmulParams(llama27B)
	got, _ := InferenceFLOPs(llama27B, 10, 1024)
	if want := 10 * (2*float64(n) + 2*32*1024*4096); float64(got) != want {
		t.Errorf("InferenceFLOPs = %g, want %g", float64(got), want)
	}
	// Adapters on a frozen base: 4·N·D, and full training's attention term.
	if lora, _ := AdapterTrainingFLOPs(m, 1e6, 0); lora != 4e15 {
		t.Errorf("AdapterTrainingFLOPs = %g, want 4e15", float64(lora))
	}
	lora, _ := AdapterTrainingFLOPs(llama27B, 10, 1024)
	full2, _ := TrainingFLOPs(llama27B, 10, 1024)
	if want := float64(full2) - 10*2*float64(n); float64(lora) != want {
		t.Errorf("AdapterTrainingFLOPs = %g, want TrainingFLOPs less 2·N·D = %g", float64(lora), want)
	}
}

func TestMegatronDuration(t *testing.T) {
	// Narayanan et al. 2021, §5.1: GPT-3 175B on 300B tokens with 1024 A100s at
	// 140 TFLOP/s each takes about 34 days.
	const day = 24 * time.Hour
	got, err := MegatronTime(sizing.Model{Params: 175e9}, 300e9, 1024, 140*TFLOPS)
	if err != nil {
		t.Fatal(err)
	}
	if got < 33*day || got > 35*day {
		t.Errorf("MegatronTime = %v (%.2f days), want about 34 days", got, got.Hours()/24)
	}
	// The per-iteration count gives the same within 3%: batch 1536 of 2048 tokens.
	iter, _ := MegatronFLOPs(gpt3Megatron, 1536, 2048, true)
	d, err := TimeFor(iter*FLOPs(300e9/(1536*2048)), 1024*140*TFLOPS)
	if err != nil {
		t.Fatal(err)
	}
	if !within(d.Hours(), got.Hours(), 0.03) {
		t.Errorf("iteration form %v, want within 3%% of %v", d, got)
	}
}

func TestWorkErrors(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		fn   func() (FLOPs, error)
	}{
		{"negative samples", func() (FLOPs, error) { return SampleFLOPs(-1, 1e9) }},
		{"NaN per sample", func() (FLOPs, error) { return SampleFLOPs(1, FLOPs(nan)) }},
		{"overflow", func() (FLOPs, error) { return SampleFLOPs(1e300, 1e300) }},
		{"Inf forward", func() (FLOPs, error) { return ForwardBackward(FLOPs(math.Inf(1))) }},
		{"no params", func() (FLOPs, error) { return TrainingFLOPs(sizing.Model{}, 1, 0) }},
		{"negative tokens", func() (FLOPs, error) { return TrainingFLOPs(llama27B, -1, 0) }},
		{"NaN tokens", func() (FLOPs, error) { return InferenceFLOPs(llama27B, nan, 0) }},
		{"negative seqLen", func() (FLOPs, error) { return TrainingFLOPs(llama27B, 1, -1) }},
		{"attention without architecture", func() (FLOPs, error) { return TrainingFLOPs(sizing.Model{Params: 7e9}, 1, 2048) }},
		{"bad recompute", func() (FLOPs, error) { return TrainingFLOPsRecompute(llama27B, 1, 0, 9) }},
		{"adapters, negative tokens", func() (FLOPs, error) { return AdapterTrainingFLOPs(llama27B, -1, 0) }},
		{"adapters, no params", func() (FLOPs, error) { return AdapterTrainingFLOPs(sizing.Model{}, 1, 0) }},
		{"Megatron without architecture", func() (FLOPs, error) { return MegatronFLOPs(sizing.Model{Params: 1}, 1, 1, false) }},
		{"Megatron zero batch", func() (FLOPs, error) { return MegatronFLOPs(gpt3, 0, 2048, false) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.fn()
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("got %g, %v; want an error wrapping ErrInvalid", float64(got), err)
			}
		})
	}
	if _, err := MegatronTime(gpt3, 1, 0, TFLOPS); !errors.Is(err, ErrInvalid) {
		t.Errorf("MegatronTime with 0 devices: %v, want ErrInvalid", err)
	}
}

// TestInvalidModels checks that every entry point taking a model refuses the models
// sizing.Model.Validate refuses, with an error wrapping ErrInvalid (and sizing's).
// Before, 64 KV heads over 32 heads gave TrainingFLOPs 4.07e19 and nil, hidden 100
// over 3 heads used a head dimension of 33, and negative layers beside Params ran.
func TestInvalidModels(t *testing.T) {
	kvOver := llama27B
	kvOver.KVHeads = 64
	models := []struct {
		name string
		m    sizing.Model
	}{
		{"KV heads above heads", kvOver},
		{"heads do not divide hidden", sizing.Model{Layers: 2, Hidden: 100, Heads: 3, FFN: 400, Vocab: 10}},
		{"negative layers beside Params", sizing.Model{Params: 7e9, Layers: -5}},
		{"negative vocabulary beside Params", sizing.Model{Params: 7e9, Vocab: -1}},
	}
	for _, mm := range models {
		m := mm.m
		calls := []struct {
			name string
			fn   func() error
		}{
			{"MatmulParams", func() error { _, err := MatmulParams(m); return err }},
			{"TrainingFLOPs", func() error { _, err := TrainingFLOPs(m, 1e9, 0); return err }},
			{"InferenceFLOPs", func() error { _, err := InferenceFLOPs(m, 1e9, 0); return err }},
			{"MegatronFLOPs", func() error { _, err := MegatronFLOPs(m, 1, 2048, false); return err }},
			{"MegatronTime", func() error { _, err := MegatronTime(m, 1e9, 8, TFLOPS); return err }},
			{"TensorParallelComm", func() error {
				_, err := TensorParallelComm(m, 1, 2048, 1, sizing.BF16, sizing.NoRecompute, NVLink(h100NVLink))
				return err
			}},
			{"Job.Time", func() error {
				_, err := Job{Model: m, Work: 1e18, Batch: 1, SeqLen: 2048, Devices: 1, PeakPerDevice: h100Peak}.Time()
				return err
			}},
			{"Decode.Speed", func() error {
				_, err := Decode{Model: m, Weights: sizing.BF16, Context: 1, Bandwidth: a100HBM, Peak: a100Peak}.Speed()
				return err
			}},
			{"Decode.Prefill", func() error {
				_, err := Decode{Model: m, Weights: sizing.BF16, Bandwidth: a100HBM, Peak: a100Peak}.Prefill(128)
				return err
			}},
		}
		for _, c := range calls {
			t.Run(mm.name+"/"+c.name, func(t *testing.T) {
				if err := c.fn(); !errors.Is(err, ErrInvalid) || !errors.Is(err, sizing.ErrInvalid) {
					t.Errorf("error %v; want one wrapping ErrInvalid and sizing.ErrInvalid", err)
				}
			})
		}
	}
}
