package sizing

import (
	"encoding/json"
	"errors"
	"testing"
)

// Parallel and RenderJob reject unknown keys too, also nested in a Workload.
func TestStrictJSONNested(t *testing.T) {
	var m Model
	if err := json.Unmarshal([]byte(`{"name":"x","layers":32,"hidden":4096,"heads":32,"vocab":32000}`), &m); err != nil || m.Layers != 32 || m.Vocab != 32000 {
		t.Errorf("Unmarshal(model) = %+v, %v; want 32 layers, vocabulary 32000", m, err)
	}
	var w Workload
	if err := json.Unmarshal([]byte(`{"precision":"bf16","parallel":{"data":2,"tensor":4}}`), &w); err != nil || w.Parallel.Tensor != 4 || w.Precision != BF16 {
		t.Errorf("Unmarshal(workload) = %+v, %v; want BF16 on tensor 4", w, err)
	}
	for _, bad := range []struct {
		in string
		v  any
	}{
		{`{"name":"x","layer":32}`, new(Model)},
		{`{"precision":"bf16","parallel":{"data":2,"tp":4}}`, new(Workload)},
		{`{"precision":"bf17"}`, new(Workload)},
		{`{"data":1,"zero_stage":3}`, new(Parallel)},
		{`{"kind":"cycles","width":1,"depth":2}`, new(RenderJob)},
	} {
		if err := json.Unmarshal([]byte(bad.in), bad.v); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) error = %v; want ErrInvalid", bad.in, err)
		}
	}
}
