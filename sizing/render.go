package sizing

import (
	"fmt"
	"strings"
)

// RenderKind is a rendering or image-generation job whose memory comes from a table
// of published figures rather than from a model of its parts. The zero value is
// unset.
type RenderKind uint8

// Render kinds.
const (
	Cycles            RenderKind = iota + 1 // Blender Cycles path tracing on the GPU
	StableDiffusion15                       // Stable Diffusion 1.5 text-to-image, FP16
	SDXL                                    // Stable Diffusion XL 1.0 base, FP16
	FLUX1                                   // FLUX.1 [dev] or [schnell] text-to-image, BF16
	numRenderKinds
)

var renderKindNames = [numRenderKinds]string{Cycles: "cycles", StableDiffusion15: "sd15", SDXL: "sdxl", FLUX1: "flux1"}

// String returns "cycles", "sd15", "sdxl" or "flux1", and "unset" for the zero value.
func (k RenderKind) String() string { return enumString(renderKindNames[:], int(k), "RenderKind") }

// ParseRenderKind reads a render kind, case-insensitively, ignoring '-', '_', '.'
// and spaces: "cycles" or "blender"; "sd15", "sd1.5" or "stable-diffusion-1.5"; "sdxl"
// or "stable-diffusion-xl"; "flux1", "flux", "flux.1-dev" or "flux.1-schnell".
func ParseRenderKind(s string) (RenderKind, error) {
	switch strings.ReplaceAll(normKey(s), ".", "") {
	case "cycles", "blender", "blendercycles":
		return Cycles, nil
	case "sd15", "stablediffusion15", "sdv15":
		return StableDiffusion15, nil
	case "sdxl", "stablediffusionxl", "sdxl10", "sdxlbase":
		return SDXL, nil
	case "flux1", "flux", "flux1dev", "flux1schnell", "fluxdev", "fluxschnell":
		return FLUX1, nil
	}
	return 0, &ParseError{Func: "ParseRenderKind", Input: s, Err: newInvalidReason("want cycles, sd15, sdxl or flux1")}
}

// RenderJob is a rendering or image-generation job.
type RenderJob struct {
	Kind RenderKind `json:"kind"`
	// Width and Height in pixels; both zero means the kind's reference size: 3840×2160
	// (4K UHD) for Cycles, 512×512 for SD 1.5, 1024×1024 for SDXL and FLUX.1.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Complex marks a heavy Cycles scene (many high-resolution textures, dense
	// geometry, volumes). Ignored for image generation.
	Complex bool `json:"complex"`
}

// RenderEstimate is the GPU memory a render job needs, from a table of published
// figures. It is always approximate: the memory of a render depends on the scene or
// pipeline far more than on resolution, so measure a real job (nvidia-smi) where it
// matters.
type RenderEstimate struct {
	// Memory is the figure to size a card by: the high end of Range.
	Memory Bytes     `json:"memory_bytes"`
	Range  ByteRange `json:"range"`
	// AtLeast means the source gives a floor ("24 GB and up"): bigger scenes need
	// more, with no upper figure.
	AtLeast     bool   `json:"at_least"`
	Approximate bool   `json:"approximate"` // always true
	Source      string `json:"source"`
}

// renderRow is one line of the render table: jobs of kind whose longer side is at
// most maxSide pixels (and, for complex, complex scenes) need mem.
type renderRow struct {
	kind    RenderKind
	maxSide int
	complex bool
	mem     ByteRange
	atLeast bool
	source  string
}

// renderTable returns the render table, built on every call. Its figures are in
// decimal GB as the sources print them: a "24 GB" card such as the RTX 4090 holds
// 24564 MiB (25.8e9 bytes), so a 24e9-byte need fits it, as the seed articles say it
// does. The SD 1.5 768×768 and SDXL 2048×2048 rows are the scaling rule (scaleRender)
// applied to the reference rows: no measured figure for them is published.
func renderTable() []renderRow {
	const seed1 = "seed article 1 (idctop 559806): Blender Cycles 4K渲染建议8GB起步, 8K渲染需24GB+, 复杂场景需24GB以上"
	sd15 := renderRow{StableDiffusion15, 512, false, ByteRange{4 * GB, 7 * GB}, false,
		"SD 1.5 FP16 at 512x512: ~4 GB with memory-efficient attention, ~6900 MiB without (huggingface.co/CompVis/stable-diffusion/discussions/6)"}
	sdxl := renderRow{SDXL, 1024, false, ByteRange{8 * GB, 12 * GB}, false,
		"SDXL 1.0 FP16 at 1024x1024: 3.5e9 parameters (Podell et al. 2023), ~8 GB base, ~12 GB with refiner or ControlNet; seed article 2: fits 24 GB"}
	return []renderRow{
		{Cycles, 4096, false, ByteRange{8 * GB, 8 * GB}, true, seed1},
		{Cycles, 8192, false, ByteRange{24 * GB, 24 * GB}, true, seed1},
		{Cycles, 8192, true, ByteRange{24 * GB, 24 * GB}, true, seed1},
		// SD 1.5: about 1.07e9 parameters (UNet 860M, CLIP ViT-L/14 text encoder
		// 123M, VAE 84M; Rombach et al. 2022 and the model card), 2.1 GB in FP16. At
		// 512×512 one image needs about 4 GB with memory-efficient attention and about
		// 6900 MiB with the original attention (CompVis/stable-diffusion, Hugging Face
		// discussion #6, fp16 branch).
		sd15,
		scaleRender(sd15, 768),
		// SDXL: UNet 2.6B and text encoders 817M (Podell et al. 2023, §2.1) plus the
		// VAE, 3.5e9 parameters, 7 GB in FP16. One 1024×1024 image peaks near 8 GB
		// (the commonly stated 8 GB minimum); LoRAs, a ControlNet or the refiner take it to
		// about 12 GB. The second seed article: a 24 GB RTX 4090 runs SDXL with room
		// to spare (显存24GB跑SDXL无压力).
		sdxl,
		scaleRender(sdxl, 2048),
		// FLUX.1 [dev] and [schnell]: a 12e9-parameter transformer (Black Forest Labs'
		// model cards) and the T5-XXL text encoder's 4.7e9, about 33 GB in BF16 with
		// everything on the GPU; with diffusers' model CPU offload the text encoders
		// run and leave, and the transformer's 24 GB is what stays (Hugging Face,
		// black-forest-labs/FLUX.1-schnell discussion #5, and FLUX.1-dev #52: 21.5 GB
		// in use at 896×1152).
		{FLUX1, 1024, false, ByteRange{24 * GB, 33 * GB}, false,
			"FLUX.1 BF16 at 1024x1024: 12e9-parameter transformer + 4.7e9 T5-XXL, ~33 GB all on the GPU, ~24 GB with model CPU offload (huggingface.co/black-forest-labs/FLUX.1-schnell/discussions/5)"},
	}
}

// renderWeights is the FP16 weights of the image-generation pipelines the scaling
// rule applies to: the part of their memory that does not grow with the image.
func renderWeights(k RenderKind) (Bytes, bool) {
	switch k {
	case StableDiffusion15:
		return 2140 * MB, true // 1.07e9 parameters × 2 bytes
	case SDXL:
		return 7 * GB, true // 3.5e9 parameters × 2 bytes
	}
	return 0, false
}

// scaleRender applies the scaling rule to reference row ref for images whose longer
// side is side (square, the worst case for that side): the weights W stay, the rest
// grows in proportion to the pixels,
//
//	M = W + (M_ref − W) · side² / ref_side²
//
// for each end of the range. The rest is activations of the UNet and the VAE
// decoder, which are linear in the latent's pixels (one per 8×8 image pixels) once
// attention is memory-efficient: attention computed in blocks needs memory linear in
// the sequence, not quadratic (Rabe and Staats 2021, "Self-attention does not need
// O(n²) memory"; Dao et al. 2022, FlashAttention), which PyTorch 2's
// scaled_dot_product_attention does and diffusers uses by default. With the original
// attention the high end grows faster; the rule does not cover it.
func scaleRender(ref renderRow, side int) renderRow {
	w, _ := renderWeights(ref.kind)
	num, den := int64(side)*int64(side), int64(ref.maxSide)*int64(ref.maxSide)
	grow := func(m Bytes) Bytes { return w + Bytes(int64(m-w)*num/den) }
	return renderRow{ref.kind, side, false, ByteRange{grow(ref.mem.Low), grow(ref.mem.High)}, false,
		fmt.Sprintf("%v at %dx%d by the scaling rule from %dx%d: weights %s stay, the rest grows with the pixels (memory-efficient attention: Rabe and Staats 2021, Dao et al. 2022); %s",
			ref.kind, side, side, ref.maxSide, ref.maxSide, w.HumanSI(), ref.source)}
}

// maxRenderScale bounds the scaling rule: the longer side may reach this many times
// the reference row's, past which the rule is too far from any measurement.
const maxRenderScale = 4

// RenderMemory returns the memory a render job needs, from a table of published
// figures (see RenderEstimate; the table and its sources are in renderTable):
//
//	Blender Cycles, up to 4K (longer side ≤ 4096 px)   8 GB and up     (seed article 1)
//	Blender Cycles, up to 8K (longer side ≤ 8192 px)   24 GB and up    (seed article 1)
//	Blender Cycles, complex scene up to 8K             24 GB and up    (seed article 1)
//	Stable Diffusion 1.5 FP16, up to 512×512           4 to 7 GB
//	Stable Diffusion 1.5 FP16, up to 768×768           6.3 to 13.1 GB  (scaling rule)
//	SDXL 1.0 FP16, up to 1024×1024                     8 to 12 GB      (fits 24 GB, seed article 2)
//	SDXL 1.0 FP16, up to 2048×2048                     11 to 27 GB     (scaling rule)
//	FLUX.1 BF16, up to 1024×1024                       24 to 33 GB     (24 with model CPU offload)
//
// A size smaller than a row's limit gets that row's figure; the sources give
// nothing smaller. Past the table, SD 1.5 and SDXL images follow the scaling rule
// from the reference row (512×512, 1024×1024): the FP16 weights (2.14 and 7 GB)
// stay and the rest grows in proportion to the pixels of a square of the longer
// side, up to 4 times the reference side (2048 and 4096 px); see scaleRender for its
// sources. An unset kind, a negative or half-given size, a size past that, and
// Cycles or FLUX.1 past the table (no figure to scale from) are errors wrapping
// ErrInvalid.
func RenderMemory(job RenderJob) (RenderEstimate, error) {
	if job.Kind == 0 || job.Kind >= numRenderKinds {
		return RenderEstimate{}, fmt.Errorf("sizing: render kind %v: %w", job.Kind, ErrInvalid)
	}
	w, h := job.Width, job.Height
	if w < 0 || h < 0 || (w == 0) != (h == 0) {
		return RenderEstimate{}, fmt.Errorf("sizing: render size %d×%d (give both, or neither for the reference size): %w", w, h, ErrInvalid)
	}
	if w == 0 {
		switch job.Kind {
		case Cycles:
			w, h = 3840, 2160
		case StableDiffusion15:
			w, h = 512, 512
		case SDXL, FLUX1:
			w, h = 1024, 1024
		}
	}
	side := max(w, h)
	table := renderTable()
	var ref *renderRow // the kind's first (reference) row
	for i, r := range table {
		if r.kind != job.Kind {
			continue
		}
		if ref == nil {
			ref = &table[i]
		}
		if side > r.maxSide || (job.Kind == Cycles && job.Complex && !r.complex) {
			continue
		}
		return r.estimate(), nil
	}
	if _, ok := renderWeights(job.Kind); ok && side <= maxRenderScale*ref.maxSide {
		return scaleRender(*ref, side).estimate(), nil
	}
	return RenderEstimate{}, fmt.Errorf("sizing: %v at %d×%d is past the render table and its scaling rule (largest %s); measure a real job: %w", job.Kind, w, h, largestRender(job.Kind), ErrInvalid)
}

func (r renderRow) estimate() RenderEstimate {
	return RenderEstimate{Memory: r.mem.High, Range: r.mem, AtLeast: r.atLeast, Approximate: true, Source: r.source}
}

func largestRender(k RenderKind) string {
	switch k {
	case Cycles:
		return "8K, longer side 8192 px"
	case StableDiffusion15:
		return "longer side 2048 px by the scaling rule"
	case SDXL:
		return "longer side 4096 px by the scaling rule"
	}
	return "1024×1024"
}
