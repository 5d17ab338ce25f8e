package sizing

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestThumbInference(t *testing.T) {
	tests := []struct {
		name    string // the second seed article's examples: FP16 weights
		weights Bytes
		want    ByteRange
	}{
		{"7B: 14 GB weights, keep 28 GB or more", 14 * GB, ByteRange{21 * GB, 28 * GB}},
		{"13B: 26 GB weights, keep 40 GB or more", 26 * GB, ByteRange{39 * GB, 52 * GB}},
		{"70B: 140 GB weights", 140 * GB, ByteRange{210 * GB, 280 * GB}},
		{"odd byte rounds the low end up", 3, ByteRange{5, 6}},
		{"zero", 0, ByteRange{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ThumbInference(tt.weights)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ThumbInference(%v) mismatch (-want +got):\n%s", tt.weights, diff)
			}
		})
	}
	// The 13B example: the article's 40 GB lies in the band's upper part.
	r, _ := ThumbInference(26 * GB)
	if !r.Contains(40 * GB) {
		t.Errorf("ThumbInference(26 GB) = %v, want it to contain the article's 40 GB", r)
	}
}

func TestThumbTraining(t *testing.T) {
	got, err := ThumbTraining(14 * GB)
	if err != nil {
		t.Fatal(err)
	}
	// 2–3× the inference band of 21–28 GB.
	if want := (ByteRange{42 * GB, 84 * GB}); got != want {
		t.Errorf("ThumbTraining(14 GB) = %+v, want %+v", got, want)
	}
	// The article's "40 GB+ is comfortable" for a 7B full fine-tune sits near the low
	// end; ZeRO's 16 bytes per parameter (112 GB) is past the high end.
	if got.Contains(112 * GB) {
		t.Errorf("ThumbTraining(14 GB) = %v contains ZeRO's 112 GB", got)
	}
}

func TestThumbErrors(t *testing.T) {
	for _, f := range []func(Bytes) (ByteRange, error){ThumbInference, ThumbTraining} {
		for _, b := range []Bytes{-1, math.MaxInt64 / 2} {
			if _, err := f(b); !errors.Is(err, ErrInvalid) {
				t.Errorf("thumb(%d) error = %v, want ErrInvalid", b, err)
			}
		}
	}
	for _, c := range []struct {
		params int64
		p      Precision
	}{{0, FP16}, {-7, FP16}, {7e9, 0}, {math.MaxInt64, FP16}, {math.MaxInt64 / 4, FP32}} {
		if _, err := ThumbArticle(c.params, c.p); !errors.Is(err, ErrInvalid) {
			t.Errorf("ThumbArticle(%d, %v) error = %v, want ErrInvalid", c.params, c.p, err)
		}
	}
}

// TestThumbArticle pins the first seed article's worked example: 7B in FP16, base
// 14 GB, Adam another 14 GB, activations 2–8 GB more; "usually 24 GB or more".
func TestThumbArticle(t *testing.T) {
	got, err := ThumbArticle(7e9, FP16)
	if err != nil {
		t.Fatal(err)
	}
	want := ArticleFormula{Weights: 14 * GB, Gradients: 14 * GB, Optimizer: 14 * GB, Activations: ByteRange{2 * GB, 8 * GB}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ThumbArticle(7e9, FP16) mismatch (-want +got):\n%s", diff)
	}
	if w, want := got.WorkedExample(), (ByteRange{30 * GB, 36 * GB}); w != want {
		t.Errorf("WorkedExample() = %+v, want %+v", w, want)
	}
	if f, want := got.Formula(), (ByteRange{44 * GB, 50 * GB}); f != want {
		t.Errorf("Formula() = %+v, want %+v", f, want)
	}
	if got.WorkedExample().Low < 24*GB {
		t.Errorf("worked example %v below the article's 24 GB conclusion", got.WorkedExample())
	}
	// Llama-2-7B's exact count: 13.48 GB of FP16 weights (REFERENCES.md).
	l, _ := ThumbArticle(6_738_415_616, FP16)
	if l.Weights != 13_476_831_232 {
		t.Errorf("Llama-2-7B weights = %d, want 13,476,831,232", l.Weights)
	}
}

func TestThumbProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := Bytes(rapid.Int64Range(0, 1<<50).Draw(t, "weights"))
		inf, err1 := ThumbInference(w)
		tr, err2 := ThumbTraining(w)
		if err1 != nil || err2 != nil {
			t.Fatalf("errors: %v, %v", err1, err2)
		}
		if inf.Low > inf.High || tr.Low > tr.High {
			t.Fatalf("inverted bands %v, %v", inf, tr)
		}
		if inf.Low < w || tr.Low < inf.Low || tr.High < inf.High {
			t.Fatalf("weights %d, inference %v, training %v: want weights ≤ inference ≤ training", w, inf, tr)
		}
		// Training is 2–3× inference: 3× to 6× the weights, exactly.
		if tr.Low != 3*w || tr.High != 6*w || inf.High != 2*w {
			t.Fatalf("weights %d: inference %v, training %v; want 2×, 3×–6×", w, inf, tr)
		}
	})
}

func TestByteRangeString(t *testing.T) {
	if got, want := (ByteRange{21 * GiB, 28 * GiB}).String(), "21.0 GiB–28.0 GiB"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
