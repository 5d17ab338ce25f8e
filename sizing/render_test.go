package sizing

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestRenderMemory(t *testing.T) {
	rtx4090 := 24564 * MiB // a "24GB" card as nvidia-smi reports it
	tests := []struct {
		name    string
		job     RenderJob
		want    ByteRange
		atLeast bool
		source  string // part of the source
	}{
		{"seed 1: Cycles 4K needs 8 GB to start", RenderJob{Kind: Cycles}, ByteRange{8 * GB, 8 * GB}, true, "seed article 1"},
		{"seed 1: Cycles 4K, given", RenderJob{Kind: Cycles, Width: 3840, Height: 2160}, ByteRange{8 * GB, 8 * GB}, true, "4K"},
		{"seed 1: Cycles 1080p gets the 4K floor", RenderJob{Kind: Cycles, Width: 1920, Height: 1080}, ByteRange{8 * GB, 8 * GB}, true, "seed"},
		{"seed 1: Cycles DCI 4K", RenderJob{Kind: Cycles, Width: 4096, Height: 2160}, ByteRange{8 * GB, 8 * GB}, true, "seed"},
		{"seed 1: Cycles 8K needs 24 GB+", RenderJob{Kind: Cycles, Width: 7680, Height: 4320}, ByteRange{24 * GB, 24 * GB}, true, "8K"},
		{"seed 1: Cycles complex scene needs 24 GB+", RenderJob{Kind: Cycles, Complex: true}, ByteRange{24 * GB, 24 * GB}, true, "复杂场景"},
		{"seed 1: portrait 8K", RenderJob{Kind: Cycles, Width: 4320, Height: 7680}, ByteRange{24 * GB, 24 * GB}, true, "8K"},
		{"SD 1.5 at 512", RenderJob{Kind: StableDiffusion15}, ByteRange{4 * GB, 7 * GB}, false, "CompVis"},
		{"SD 1.5 smaller", RenderJob{Kind: StableDiffusion15, Width: 256, Height: 256}, ByteRange{4 * GB, 7 * GB}, false, "512"},
		{"SDXL at 1024", RenderJob{Kind: SDXL}, ByteRange{8 * GB, 12 * GB}, false, "Podell"},
		{"SDXL complex flag ignored", RenderJob{Kind: SDXL, Complex: true}, ByteRange{8 * GB, 12 * GB}, false, "seed article 2"},
		// The scaling rule: weights W stay, the rest grows with the pixels. SD 1.5:
		// W = 2140 MB; at 768² the rest of 4000 and 7000 MB grows by 9/4.
		{"SD 1.5 at 768 by the rule", RenderJob{Kind: StableDiffusion15, Width: 768, Height: 768},
			ByteRange{(2140 + 1860*9/4) * MB, (2140 + 4860*9/4) * MB}, false, "scaling rule from 512x512"},
		{"SD 1.5 at 640x768 gets the 768 row", RenderJob{Kind: StableDiffusion15, Width: 640, Height: 768},
			ByteRange{6325 * MB, 13075 * MB}, false, "Rabe and Staats"},
		// Past the table: 1024² is 4 times 512².
		{"SD 1.5 at 1024 past the table", RenderJob{Kind: StableDiffusion15, Width: 1024, Height: 1024},
			ByteRange{(2140 + 1860*4) * MB, (2140 + 4860*4) * MB}, false, "scaling rule"},
		// SDXL: W = 7 GB; at 2048² the rest (1 and 5 GB) grows 4 times.
		{"SDXL at 2048 by the rule", RenderJob{Kind: SDXL, Width: 2048, Height: 2048}, ByteRange{11 * GB, 27 * GB}, false, "Podell"},
		{"SDXL at 4096 past the table", RenderJob{Kind: SDXL, Width: 4096, Height: 4096}, ByteRange{23 * GB, 87 * GB}, false, "scaling rule"},
		// FLUX.1: 33 GB all on the GPU, 24 with model CPU offload.
		{"FLUX.1 at 1024", RenderJob{Kind: FLUX1}, ByteRange{24 * GB, 33 * GB}, false, "FLUX.1-schnell/discussions/5"},
		{"FLUX.1 at 768x1024", RenderJob{Kind: FLUX1, Width: 768, Height: 1024}, ByteRange{24 * GB, 33 * GB}, false, "T5-XXL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderMemory(tt.job)
			if err != nil {
				t.Fatal(err)
			}
			if got.Range != tt.want || got.Memory != tt.want.High || got.AtLeast != tt.atLeast || !got.Approximate {
				t.Errorf("RenderMemory(%+v) = %+v, want range %+v, at least %v, approximate", tt.job, got, tt.want, tt.atLeast)
			}
			if !strings.Contains(got.Source, tt.source) {
				t.Errorf("Source = %q, want it to mention %q", got.Source, tt.source)
			}
		})
	}
	// Seed 1: the RTX 4090's 24 GB suits most rendering; seed 2: it runs SDXL with no
	// pressure. Both figures fit the card as nvidia-smi reports it.
	for _, job := range []RenderJob{{Kind: Cycles, Width: 7680, Height: 4320}, {Kind: SDXL}} {
		got, _ := RenderMemory(job)
		if got.Memory > rtx4090 {
			t.Errorf("%v needs %v, more than an RTX 4090's %v", job.Kind, got.Memory.HumanSI(), rtx4090.HumanSI())
		}
	}
	// An 8K or complex scene does not fit a 16 GB card, as seed 1 implies.
	if got, _ := RenderMemory(RenderJob{Kind: Cycles, Complex: true}); got.Memory <= 16*GiB {
		t.Errorf("complex Cycles scene %v fits 16 GiB", got.Memory.HumanSI())
	}
}

func TestRenderMemoryErrors(t *testing.T) {
	for _, job := range []RenderJob{
		{},
		{Kind: numRenderKinds},
		{Kind: Cycles, Width: -1, Height: 100},
		{Kind: Cycles, Width: 100},
		{Kind: Cycles, Width: 15360, Height: 8640},
		{Kind: StableDiffusion15, Width: 2049, Height: 512}, // past 4 × 512
		{Kind: SDXL, Width: 4097, Height: 4097},
		{Kind: FLUX1, Width: 1025, Height: 1024}, // no figure to scale from
	} {
		if got, err := RenderMemory(job); !errors.Is(err, ErrInvalid) {
			t.Errorf("RenderMemory(%+v) = %+v, %v; want ErrInvalid", job, got, err)
		}
	}
}

func TestRenderKindNames(t *testing.T) {
	for k := Cycles; k < numRenderKinds; k++ {
		got, err := ParseRenderKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseRenderKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	for in, want := range map[string]RenderKind{"Blender": Cycles, "SD1.5": StableDiffusion15, "stable-diffusion-xl": SDXL, "SDXL": SDXL} {
		if got, err := ParseRenderKind(in); err != nil || got != want {
			t.Errorf("ParseRenderKind(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseRenderKind("maya"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseRenderKind(maya) error = %v, want ErrInvalid", err)
	}
	if s := RenderKind(0).String(); s != "unset" {
		t.Errorf("zero RenderKind = %q", s)
	}
}

// Past its reference size an image never needs less memory for a longer side, and
// the rule meets the table at the rows it made.
func TestRenderScalingMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]RenderKind{StableDiffusion15, SDXL}).Draw(t, "kind")
		limit := map[RenderKind]int{StableDiffusion15: 2048, SDXL: 4096}[kind]
		a := rapid.IntRange(1, limit).Draw(t, "a")
		b := rapid.IntRange(a, limit).Draw(t, "b")
		ea, err := RenderMemory(RenderJob{Kind: kind, Width: a, Height: a})
		if err != nil {
			t.Fatal(err)
		}
		eb, err := RenderMemory(RenderJob{Kind: kind, Width: b, Height: 1})
		if err != nil {
			t.Fatal(err)
		}
		if eb.Range.Low < ea.Range.Low || eb.Range.High < ea.Range.High || ea.Range.Low > ea.Range.High {
			t.Fatalf("%v: side %d needs %v, side %d needs %v", kind, a, ea.Range, b, eb.Range)
		}
	})
}

func TestParseRenderKindFLUX(t *testing.T) {
	for _, s := range []string{"flux1", "FLUX.1-dev", "flux.1 schnell", "Flux"} {
		if k, err := ParseRenderKind(s); err != nil || k != FLUX1 {
			t.Errorf("ParseRenderKind(%q) = %v, %v; want flux1", s, k, err)
		}
	}
}
