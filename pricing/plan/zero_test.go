package plan

import (
	"testing"

	"github.com/gpuplan/gpuplan/sizing"
)

// Under ZeRO-3 a QLoRA base is gathered as it is stored, in NF4: on eight RTX
// 4090s over PCIe, with sequences short enough that the gathers outlast the
// compute, the QLoRA job (the same adapter FLOPs as LoRA's) finishes in well
// under half the LoRA job's time, its gathers about a quarter of LoRA's BF16
// ones.
func TestQLoRAGathersStoredBase(t *testing.T) {
	at := func(task sizing.Task) Option {
		t.Helper()
		r := Request{Model: mustPreset(t, "llama-3.1-8b"), Workload: sizing.Workload{Task: task, Precision: sizing.BF16, Batch: 1, SeqLen: 256},
			Tokens: 1e7, Cards: []string{"RTX 4090"}, GPUs: 8, Parallel: &sizing.Parallel{Data: 8, ZeRO: 3}}
		opts, err := Planner{}.Fit(r)
		if err != nil {
			t.Fatalf("%v: %v", task, err)
		}
		return opts[0]
	}
	lora, qlora := at(sizing.LoRA), at(sizing.QLoRA)
	if !(qlora.Duration < lora.Duration/2 && lora.Efficiency < 0.5) {
		t.Errorf("ZeRO-3 over PCIe: LoRA %v (efficiency %.2f), QLoRA %v (%.2f); want QLoRA under half LoRA's time",
			lora.Duration, lora.Efficiency, qlora.Duration, qlora.Efficiency)
	}
}
