package chart

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/sizing"
)

func TestNext(t *testing.T) {
	k, got := 1, []int{}
	for ; k <= 48; k = next(k) {
		got = append(got, k)
	}
	if want := []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48}; !slices.Equal(got, want) {
		t.Errorf("sampled %v, want %v", got, want)
	}
}

// TestSweep holds a sweep to what compute.Serving says of the same replica:
// the last point at MaxConcurrency, the ring at Best's concurrency, and a
// replica too big for the card reported on the curve, not as an error.
func TestSweep(t *testing.T) {
	m, err := sizing.Preset("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.Default()
	h100, err := cat.Lookup("H100 SXM5 80GB")
	if err != nil {
		t.Fatal(err)
	}
	r := Replica{Model: m, Weights: sizing.BF16, Prompt: 1000, Output: 300}
	c, err := r.Sweep(h100, 1, 50*time.Millisecond)
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	peak, _ := h100.Peak(sizing.BF16)
	s := compute.Serving{Model: m, Weights: sizing.BF16, Devices: 1, Memory: h100.Memory, Bandwidth: h100.MemoryBandwidth,
		Peak: peak, PromptTokens: 1000, OutputTokens: 300}
	n, err := s.MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	best, err := s.Best(0, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if last := c.Points[len(c.Points)-1]; last.Concurrency != n || c.Best.Concurrency != best.Concurrency || c.Miss {
		t.Errorf("last point at %d, best at %d; want %d and %d", last.Concurrency, c.Best.Concurrency, n, best.Concurrency)
	}
	for i := 1; i < len(c.Points); i++ {
		if c.Points[i].Concurrency <= c.Points[i-1].Concurrency {
			t.Fatalf("concurrencies not increasing: %d after %d", c.Points[i].Concurrency, c.Points[i-1].Concurrency)
		}
	}
	t4, err := cat.Lookup("T4")
	if err != nil {
		t.Fatal(err)
	}
	big, err := sizing.Preset("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	c, err = Replica{Model: big, Weights: sizing.BF16, Prompt: 1000, Output: 300}.Sweep(t4, 1, 0)
	if err != nil || !errors.Is(c.Err, compute.ErrNoFit) || len(c.Points) != 0 {
		t.Errorf("70B on one T4: %v, curve error %v, %d points; want ErrNoFit on the curve", err, c.Err, len(c.Points))
	}
	c, err = r.Sweep(h100, 3, 0) // 32 heads do not divide over 3
	if err != nil || !errors.Is(c.Err, compute.ErrInvalid) {
		t.Errorf("-tp 3: %v, curve error %v; want ErrInvalid on the curve", err, c.Err)
	}
}

func TestServingChart(t *testing.T) {
	m, err := sizing.Preset("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	r := Replica{Model: m, Weights: sizing.BF16, Prompt: 1000, Output: 300}
	var cs []Curve
	for _, name := range []string{"RTX 4090", "H100 SXM5 80GB", "T4", "A100 SXM4 80GB"} {
		card, err := catalog.Default().Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := r.Sweep(card, 1, 50*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	for _, l := range []msg.Lang{msg.EN, msg.ZH} {
		doc := Serving(l, "llama-3.1-8b <BF16>", cs, 50*time.Millisecond)
		if err := svg.Check([]byte(doc)); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(doc, "<polyline"); n != 2*3-2 { // T4 holds no sequence; the fourth curve is past MaxCurves
			t.Errorf("%v: %d polylines, want 4", l, n)
		}
		for _, want := range []string{l.T("serve.svg.title"), "llama-3.1-8b &lt;BF16&gt;", "T4" + l.T("serve.svg.nofit"), l.F("serve.svg.target", "50 ms")} {
			if !strings.Contains(doc, want) {
				t.Errorf("%v: the chart lacks %q", l, want)
			}
		}
		if strings.Contains(doc, "A100") {
			t.Errorf("%v: a curve past MaxCurves is drawn", l)
		}
		if Serving(l, "llama-3.1-8b <BF16>", cs, 50*time.Millisecond) != doc {
			t.Errorf("%v: the same curves drew different bytes", l)
		}
	}
}
