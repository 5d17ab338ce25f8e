package sizing

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// A Workload writes its named values as text and reads them back unchanged, the
// unset ones included.
func TestWorkloadJSONText(t *testing.T) {
	q45, err := CustomBits(4.65)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []Workload{
		{},
		{Task: LoRA, Precision: BF16, Optimizer: AdamW, Recompute: FullRecompute, Batch: 4, SeqLen: 2048},
		{Task: Inference, Precision: Q4_K_M, KVPrecision: FP8, Batch: 1, SeqLen: 4096},
		{Task: QLoRA, Precision: q45, GradPrecision: FP32, Optimizer: Adam8bit, Recompute: SelectiveRecompute},
	} {
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", w, err)
		}
		if w.Task != 0 && !strings.Contains(string(b), `"task":"`+w.Task.String()+`"`) {
			t.Errorf("Marshal: %s, want the task as text", b)
		}
		var back Workload
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if back != w {
			t.Errorf("round trip of %s: got %+v, want %+v", b, back, w)
		}
	}
	var w Workload
	for _, bad := range []string{`{"task":"dance"}`, `{"precision":"fp7"}`, `{"optimizer":"sgdx"}`, `{"recompute":"some"}`} {
		if err := json.Unmarshal([]byte(bad), &w); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) = %v, want ErrInvalid", bad, err)
		}
	}
}

func TestTextOutOfRange(t *testing.T) {
	for _, v := range []interface{ MarshalText() ([]byte, error) }{Task(99), Precision(200), Optimizer(99), Recompute(9), RenderKind(99)} {
		if _, err := v.MarshalText(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%T(%v).MarshalText() = %v, want ErrInvalid", v, v, err)
		}
	}
	var task Task = Training
	if err := task.UnmarshalText([]byte("UNSET")); err != nil || task != 0 {
		t.Errorf(`UnmarshalText("UNSET") = %v, task %v; want the zero value`, err, task)
	}
}

// A RenderJob writes its kind by name and reads it back.
func TestRenderJobJSONText(t *testing.T) {
	for _, job := range []RenderJob{{}, {Kind: SDXL, Width: 1024, Height: 1024}, {Kind: Cycles, Complex: true}, {Kind: FLUX1}, {Kind: StableDiffusion15}} {
		b, err := json.Marshal(job)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", job, err)
		}
		if !strings.Contains(string(b), `"kind":"`+job.Kind.String()+`"`) {
			t.Errorf("Marshal: %s, want the kind as text", b)
		}
		var back RenderJob
		if err := json.Unmarshal(b, &back); err != nil || back != job {
			t.Errorf("round trip of %s: %+v, %v", b, back, err)
		}
	}
	var job RenderJob
	if err := json.Unmarshal([]byte(`{"kind":"dalle"}`), &job); !errors.Is(err, ErrInvalid) {
		t.Errorf("Unmarshal(dalle) = %v, want ErrInvalid", err)
	}
}
