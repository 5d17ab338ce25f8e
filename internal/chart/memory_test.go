package chart

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/sizing"
)

// segments returns the widths of the bar's segments, in order, and their
// colours.
func segments(t *testing.T, doc string) ([]float64, []string) {
	t.Helper()
	re := regexp.MustCompile(`<rect x="[0-9.]+" y="34" width="([0-9.]+)" height="30" fill="(#[0-9a-fA-F]+)"><title>`)
	var widths []float64
	var colors []string
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		w, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		widths = append(widths, w)
		colors = append(colors, m[2])
	}
	return widths, colors
}

func TestMemoryBar(t *testing.T) {
	parts := []Part{{"weights", 12 * sizing.GiB}, {"gradients", 0}, {"optimizer", 0}, {"activations", 3 * sizing.GiB},
		{"KV cache", 0}, {"overhead", 1 * sizing.GiB}}
	doc := MemoryBar("Memory per GPU: 16.0 GiB of 24.0 GiB", parts, 24*sizing.GiB, "free")
	if err := svg.Check([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	widths, colors := segments(t, doc)
	// 12, 3, 1 GiB and 8 GiB free of 24 GiB on a 720-unit bar.
	want := []float64{360, 90, 30, 240}
	if len(widths) != len(want) {
		t.Fatalf("segments %v, want %v", widths, want)
	}
	for i := range want {
		if d := widths[i] - want[i]; d > 0.1 || d < -0.1 {
			t.Errorf("segment %d is %.1f wide, want %.1f", i, widths[i], want[i])
		}
	}
	// Each part keeps its own colour when others are empty; free is grey.
	if colors[0] != partColors[0] || colors[1] != partColors[3] || colors[2] != partColors[5] || colors[3] != freeColor {
		t.Errorf("colours %v", colors)
	}
	for _, s := range []string{"weights 12.0 GiB", "activations 3.0 GiB", "overhead 1.0 GiB", "free 8.0 GiB"} {
		if !strings.Contains(doc, ">"+s+"</text>") {
			t.Errorf("the legend lacks %q", s)
		}
	}
	if strings.Contains(doc, "gradients") {
		t.Error("an empty part is in the chart")
	}

	// Past capacity: the bar is the parts' sum, with no free segment.
	over := MemoryBar("over", []Part{{"weights", 30 * sizing.GiB}, {"KV cache", 10 * sizing.GiB}}, 24*sizing.GiB, "free")
	if widths, _ := segments(t, over); len(widths) != 2 || widths[0] != 540 || widths[1] != 180 {
		t.Errorf("over capacity: segments %v, want 540 and 180", widths)
	}
	// Text is escaped; Chinese labels lay out on lines that fit.
	zh := MemoryBar("每张卡的显存 <&>", []Part{{"权重", 14 * sizing.GiB}, {"激活值", sizing.GiB}, {"KV 缓存", 4 * sizing.GiB}, {"预留", 2 * sizing.GiB}}, 24*sizing.GiB, "空闲")
	if err := svg.Check([]byte(zh)); err != nil || !strings.Contains(zh, "每张卡的显存 &lt;&amp;&gt;") {
		t.Errorf("Chinese bar: %v\n%s", err, zh)
	}
	if MemoryBar("Memory per GPU: 16.0 GiB of 24.0 GiB", parts, 24*sizing.GiB, "free") != doc {
		t.Error("the same input drew different bytes")
	}
}
