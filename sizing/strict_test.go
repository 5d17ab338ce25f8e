package sizing

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// Model and Workload JSON reject unknown keys: a Hugging Face config.json decoded
// into a Model is an error, not a zero model.
func TestStrictJSON(t *testing.T) {
	data, err := os.ReadFile("models/qwen2.5-32b.json")
	if err != nil {
		t.Fatal(err)
	}
	var m Model
	if err := json.Unmarshal(data, &m); !errors.Is(err, ErrInvalid) {
		t.Errorf("config.json into Model: %v, want ErrInvalid", err)
	}
	var w Workload
	if err := json.Unmarshal([]byte(`{"task":"inference","seqlen":4096}`), &w); !errors.Is(err, ErrInvalid) {
		t.Errorf("misspelt key: %v, want ErrInvalid", err)
	}
	if err := json.Unmarshal([]byte(`{"task":"inference","parallel":{"tensr":2}}`), &w); !errors.Is(err, ErrInvalid) {
		t.Errorf("misspelt nested key: %v, want ErrInvalid", err)
	}
	// What Marshal writes reads back.
	in := Workload{Task: Inference, Precision: BF16, Batch: 2, SeqLen: 10, PrefillChunk: DefaultPrefillChunk, Parallel: Parallel{Tensor: 2}}
	out, _ := json.Marshal(in)
	var back Workload
	if err := json.Unmarshal(out, &back); err != nil || back != in {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	mm := readConfigFile(t, "deepseek-r1")
	out, _ = json.Marshal(mm)
	var mback Model
	if err := json.Unmarshal(out, &mback); err != nil || mback != mm {
		t.Errorf("model round trip: %+v, %v", mback, err)
	}
}

// Total never wraps; a breakdown with a negative term or a saturated total fits
// nothing.
func TestBreakdownTotalSaturates(t *testing.T) {
	var b Breakdown
	if err := json.Unmarshal([]byte(`{"weights_bytes":9223372036854775807,"overhead_bytes":9223372036854775807}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.Total() != math.MaxInt64 || b.Fits(1, 0) || b.Fits(math.MaxInt64, 0) {
		t.Errorf("Total %d, fits %v", b.Total(), b.Fits(1, 0))
	}
	neg := Breakdown{Weights: 10, Activations: -20}
	if neg.Fits(1<<40, 0) {
		t.Errorf("a breakdown with a negative term fits")
	}
	if (Breakdown{Weights: math.MinInt64, Overhead: -1}).Total() != math.MinInt64 {
		t.Errorf("negative sum wraps")
	}
	// The boundary: a total equal to the usable capacity fits, one byte more does not.
	exact := Breakdown{Weights: 1000}
	if !exact.Fits(1000, 0) || exact.Fits(999, 0) {
		t.Errorf("Fits at the boundary: %v %v", exact.Fits(1000, 0), exact.Fits(999, 0))
	}
}

// MaxContext and MaxBatch: the answer's estimate fits exactly at a capacity equal
// to its total, and one more does not (the <= boundary).
func TestMaxBoundary(t *testing.T) {
	m := readConfigFile(t, "llama-3.1-8b")
	w := Workload{Task: Inference, Precision: BF16, Batch: 1, SeqLen: 1}
	for _, context := range []bool{true, false} {
		w.SeqLen, w.Batch = 1000, 1
		if context {
			w.SeqLen = 1000
		} else {
			w.Batch = 7
		}
		b, err := Estimate(m, w)
		if err != nil {
			t.Fatal(err)
		}
		capacity := b.Total()
		var n int
		if context {
			n, err = MaxContext(m, w, capacity)
		} else {
			n, err = MaxBatch(m, w, capacity)
		}
		want := 1000
		if !context {
			want = 7
		}
		if err != nil || n != want {
			t.Errorf("context %v: capacity exactly the total of %d gives %d, %v", context, want, n, err)
		}
		if context {
			n, _ = MaxContext(m, w, capacity-1)
		} else {
			n, _ = MaxBatch(m, w, capacity-1)
		}
		if n >= want {
			t.Errorf("context %v: one byte less still gives %d", context, n)
		}
	}
}

// Messages quote at most a short excerpt of their input, however long the input:
// a megabyte name comes back cut, not whole.
func TestShortMessages(t *testing.T) {
	big := strings.Repeat("é", 1<<19) // a megabyte, cut on a rune boundary
	st := func(h string) error {
		_, err := ReadSafetensors(bytes.NewReader(safetensorsFile(h)))
		return err
	}
	cfg := func(s string) (Model, error) { return ReadConfig(strings.NewReader(s)) }
	var m Model
	for name, err := range map[string]error{
		"Preset":          func() error { _, err := Preset(big); return err }(),
		"ParsePrecision":  func() error { _, err := ParsePrecision(big); return err }(),
		"LookupGGUFBlock": func() error { _, err := LookupGGUFBlock(big); return err }(),
		"model_type":      func() error { _, err := cfg(`{"model_type":"` + big + `"}`); return err }(),
		"config syntax":   func() error { _, err := cfg(`{"model_type":"llama","` + big); return err }(),
		"Model JSON key":  json.Unmarshal([]byte(`{"`+big+`":1}`), &m),
		"Model name":      Model{Name: big, Layers: -1}.Validate(),
		"tensor name":     st(`{"` + big + `":{"dtype":"F7","shape":[1],"data_offsets":[0,4]}}`),
		"dtype":           st(`{"a":{"dtype":"` + big + `","shape":[1],"data_offsets":[0,4]}}`),
		"tensor key":      st(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"` + big + `":1}}`),
		"offsets":         st(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0` + strings.Repeat(",0", 1<<18) + `]}}`),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if n := len(err.Error()); n > 1000 || !utf8.ValidString(err.Error()) {
			t.Errorf("%s: a message of %d bytes (valid UTF-8: %v)", name, n, utf8.ValidString(err.Error()))
		}
	}
	for _, c := range []string{`"quantization_config":{"quant_method":"` + big + `"}`, `"torch_dtype":"` + big + `"`} {
		m, err := cfg(`{"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,` + c + `}`)
		if err != nil || m.Notes == "" || len(m.Notes) > 1000 {
			t.Errorf("a long name in the config: notes of %d bytes, %v", len(m.Notes), err)
		}
	}
}
