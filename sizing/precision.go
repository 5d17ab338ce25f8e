package sizing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Precision is a number format for weights, gradients, the KV cache or compute. Each
// named value has an exact storage cost in bits per parameter (Bits), including the
// scales and constants that quantized formats store beside the values. The zero value
// is unset, which Estimate reports as an error where a precision is required.
//
// Custom formats (a GGUF mix measured on a particular file, say) are made with
// CustomBits; they compare equal when their bits per parameter agree to 1/1000 bit.
type Precision uint32

// Named precisions. Bits gives each one's storage cost with its source.
const (
	FP64 Precision = iota + 1
	FP32
	TF32 // a compute mode of FP32 tensor cores; stored as FP32
	FP16
	BF16
	FP8
	INT8
	INT4
	NF4   // QLoRA 4-bit NormalFloat with double-quantized constants
	GPTQ4 // GPTQ 4-bit, group size 128
	AWQ4  // AWQ 4-bit, group size 128
	Q2_K  // GGUF file types, as llama.cpp's quantize names them
	Q3_K_M
	Q4_0
	Q4_K_S
	Q4_K_M
	Q5_K_M
	Q6_K
	Q8_0
	MXFP4 // OCP microscaling FP4: 32 E2M1 values sharing an 8-bit power-of-two scale
	NVFP4 // NVIDIA FP4: 16 E2M1 values sharing an FP8 (E4M3) scale
	numPrecisions
)

// customBase marks precisions made by CustomBits: the value minus customBase is the
// bits per parameter in thousandths.
const customBase Precision = 1 << 20

// maxCustomBits bounds CustomBits; nothing stores a parameter in more than FP64.
const maxCustomBits = 64.0

var precisionInfo = [numPrecisions]struct {
	name string
	bits float64
}{
	FP64: {"FP64", 64},
	FP32: {"FP32", 32},
	TF32: {"TF32", 32},
	FP16: {"FP16", 16},
	BF16: {"BF16", 16},
	FP8:  {"FP8", 8},
	INT8: {"INT8", 8},
	INT4: {"INT4", 4},
	// QLoRA (Dettmers et al. 2023, §3): 4-bit values, one FP8 constant per 64 weights
	// and one FP32 constant per 256 of those: 4 + 8/64 + 32/(64·256) = 4.127 bits.
	NF4: {"NF4", 4 + 8.0/64 + 32.0/(64*256)},
	// GPTQ and AWQ with group size 128: 4-bit values plus an FP16 scale and a 4-bit
	// zero point per group of 128 weights: 4 + 20/128 = 4.156 bits. GPTQ's act-order
	// index (32 bits per input row) adds under 0.01 bit for hidden sizes over 4096.
	GPTQ4: {"GPTQ4", 4 + 20.0/128},
	AWQ4:  {"AWQ4", 4 + 20.0/128},
	// GGUF file types mix block formats across tensors; the figures are the bits per
	// weight llama.cpp's quantize tool reports for Llama-2-7B (tools/quantize README).
	// Q4_0 and Q8_0 are single block formats: 18 bytes per 32 weights and 34 bytes per
	// 32 (ggml-common.h), 4.5 and 8.5 bits.
	Q2_K:   {"Q2_K", 3.35},
	Q3_K_M: {"Q3_K_M", 3.91},
	Q4_0:   {"Q4_0", 18.0 * 8 / 32},
	Q4_K_S: {"Q4_K_S", 4.58},
	Q4_K_M: {"Q4_K_M", 4.84},
	Q5_K_M: {"Q5_K_M", 5.68},
	Q6_K:   {"Q6_K", 6.56},
	Q8_0:   {"Q8_0", 34.0 * 8 / 32},
	// MXFP4 (OCP Microscaling Formats specification v1.0, §5 and §6.3): blocks of
	// 32 FP4 (E2M1) elements with one shared 8-bit E8M0 scale, 4 + 8/32 = 4.25
	// bits. NVFP4 (NVIDIA's Blackwell NVFP4 introduction, 2025): blocks of 16 E2M1
	// elements with one FP8 E4M3 scale, 4 + 8/16 = 4.5 bits; its one FP32 scale
	// per tensor adds under a millionth of a bit and is left out.
	MXFP4: {"MXFP4", 4 + 8.0/32},
	NVFP4: {"NVFP4", 4 + 8.0/16},
}

// CustomBits returns a precision that stores bits bits per parameter, rounded to the
// nearest 1/1000 bit. bits must be finite, at most 64, and at least 0.0005, the
// smallest value that rounds to a thousandth of a bit; a smaller positive value is
// an error rather than a silent 0.001.
func CustomBits(bits float64) (Precision, error) {
	if math.IsNaN(bits) || bits <= 0 || bits > maxCustomBits {
		return 0, fmt.Errorf("sizing: custom precision of %v bits per parameter (want 0 < bits <= 64): %w", bits, ErrInvalid)
	}
	milli := math.Round(bits * 1000)
	if milli < 1 {
		return 0, fmt.Errorf("sizing: custom precision of %v bits per parameter rounds to 0 thousandths of a bit: %w", bits, ErrInvalid)
	}
	return customBase + Precision(milli), nil
}

// Bits returns the storage cost in bits per parameter, scales and constants included.
// It returns 0 for the zero value and for values that are not precisions.
func (p Precision) Bits() float64 {
	if p > 0 && p < numPrecisions {
		return precisionInfo[p].bits
	}
	if p > customBase && p <= customBase+Precision(maxCustomBits*1000) {
		return float64(p-customBase) / 1000
	}
	return 0
}

// ComputeBits returns the width, in bits, that values computed from weights stored
// at p have: p's own width for FP16 and wider formats, and 16 for narrower ones,
// since FP8 and quantized weights are dequantized into 16-bit kernels (LLM.int8,
// GPTQ, AWQ, llama.cpp and bitsandbytes all compute in FP16 or BF16). Activations,
// LoRA adapters and the default KV cache have this width. It returns 0 for a
// precision that is not valid.
func (p Precision) ComputeBits() float64 {
	// Bits is finite, so plain comparisons do what max would, without its care
	// for NaNs and signed zeros.
	switch b := p.Bits(); {
	case b <= 0:
		return 0
	case b < 16:
		return 16
	default:
		return b
	}
}

// KVDefault returns the KV cache precision used when none is given for weights at
// p: p itself for FP16 and wider formats, FP16 for narrower ones (the cache holds
// keys and values computed at ComputeBits; vLLM's "auto" KV cache dtype likewise
// follows the 16-bit model dtype, not the quantized storage). Estimate and
// compute's Decode both use it. A precision that is not valid is returned as is.
func (p Precision) KVDefault() Precision {
	if b := p.Bits(); b > 0 && b < 16 {
		return FP16
	}
	return p
}

// Valid reports whether p is a named precision or one made by CustomBits.
func (p Precision) Valid() bool { return p.Bits() > 0 }

// String returns the precision's name ("BF16", "Q4_K_M"), "custom(4.650b)" for custom
// formats, and "unset" for the zero value.
func (p Precision) String() string {
	switch {
	case p == 0:
		return "unset"
	case p > 0 && p < numPrecisions:
		return precisionInfo[p].name
	case p.Valid():
		return "custom(" + strconv.FormatFloat(p.Bits(), 'f', 3, 64) + "b)"
	}
	return "Precision(" + strconv.FormatUint(uint64(p), 10) + ")"
}

// ParsePrecision reads a precision name, case-insensitively and ignoring '-' and '_'
// ("bf16", "Q4_K_M", "q4km", "fp8"). It also accepts "float32", "float16",
// "bfloat16", "half", "int4-gptq" style aliases and a custom "4.65b", "4.65bpw" or
// "custom(4.650b)" (String's form), which it passes to CustomBits. Names it does not
// know are a *ParseError wrapping ErrInvalid.
func ParsePrecision(s string) (Precision, error) {
	key := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
	for p := FP64; p < numPrecisions; p++ {
		if key == strings.ToLower(strings.ReplaceAll(precisionInfo[p].name, "_", "")) {
			return p, nil
		}
	}
	switch key {
	case "float64", "double":
		return FP64, nil
	case "float32", "float", "single":
		return FP32, nil
	case "float16", "half":
		return FP16, nil
	case "bfloat16":
		return BF16, nil
	case "fp8e4m3", "fp8e5m2", "float8":
		return FP8, nil
	case "gptq", "int4gptq":
		return GPTQ4, nil
	case "awq", "int4awq":
		return AWQ4, nil
	case "nf4dq", "bnb4bit":
		return NF4, nil
	}
	// String's form for custom precisions, "custom(4.650b)", reads back.
	if inner, ok := strings.CutPrefix(key, "custom("); ok {
		if inner, ok = strings.CutSuffix(inner, ")"); ok {
			key = inner
		}
	}
	for _, suf := range []string{"bpw", "bits", "bit", "b"} {
		if num, ok := strings.CutSuffix(key, suf); ok && num != "" && isPlainDecimal(num) && !strings.HasPrefix(strings.TrimSpace(s), "-") {
			f, err := strconv.ParseFloat(num, 64)
			if err != nil {
				break
			}
			return CustomBits(f)
		}
	}
	return 0, &ParseError{Func: "ParsePrecision", Input: s, Err: newInvalidReason("not a known precision (" + precisionNames() + ") nor a bit count such as 4.5bpw")}
}

// Precisions returns every named precision, as ParsePrecision reads them by name:
// FP64, FP32, TF32, FP16, BF16, FP8, INT8, INT4, NF4, GPTQ4, AWQ4, the GGUF file
// types Q2_K to Q8_0, then the FP4 formats MXFP4 and NVFP4. The slice is new on
// every call.
func Precisions() []Precision {
	out := make([]Precision, 0, numPrecisions-FP64)
	for p := FP64; p < numPrecisions; p++ {
		out = append(out, p)
	}
	return out
}

// precisionNames lists the named precisions in lower case for a message:
// "fp64, fp32, ..., q8_0".
func precisionNames() string {
	var b strings.Builder
	for _, p := range Precisions() {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strings.ToLower(p.String()))
	}
	return b.String()
}

// isPlainDecimal reports whether s is digits with at most one point: no sign,
// exponent, hexadecimal, "inf" or "nan".
func isPlainDecimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// GGUFBlock is one of llama.cpp's GGUF block formats: a fixed number of bytes that
// store a block of weights with their scales. A GGUF file type such as Q4_K_M mixes
// several block formats across tensors, which is why its Precision has a measured
// bits-per-weight figure rather than a block's exact one.
type GGUFBlock struct {
	Type    string `json:"type"`          // the ggml type name: "Q4_K"
	Bytes   int    `json:"block_bytes"`   // bytes per block
	Weights int    `json:"block_weights"` // weights per block
}

// Bits returns the block's exact storage cost in bits per weight, 8·Bytes/Weights.
func (b GGUFBlock) Bits() float64 { return float64(8*b.Bytes) / float64(b.Weights) }

// ggufBlocks are the block layouts of llama.cpp's ggml-common.h, counted field by
// field (FP16 scales are 2 bytes):
//   - Q4_0: one FP16 scale and 16 bytes of 4-bit values per 32 weights, 18 bytes;
//   - Q8_0: one FP16 scale and 32 one-byte values per 32 weights, 34 bytes;
//   - Q2_K: 16 bytes of 4-bit scales and mins, 64 bytes of 2-bit values, FP16 d and
//     dmin per 256 weights, 84 bytes;
//   - Q3_K: 32 bytes of high bits, 64 bytes of low 2 bits, 12 bytes of 6-bit scales
//     and an FP16 d, 110 bytes;
//   - Q4_K: FP16 d and dmin, 12 bytes of 6-bit scales and mins, 128 bytes of 4-bit
//     values, 144 bytes;
//   - Q5_K: Q4_K plus 32 bytes of fifth bits, 176 bytes;
//   - Q6_K: 128 bytes of low 4 bits, 64 of high 2 bits, 16 one-byte scales and an FP16
//     d, 210 bytes.
//
// It is never written.
var ggufBlocks = [...]GGUFBlock{
	{"Q2_K", 2*2 + 16 + 64, 256},
	{"Q3_K", 32 + 64 + 12 + 2, 256},
	{"Q4_0", 2 + 16, 32},
	{"Q4_K", 2*2 + 12 + 128, 256},
	{"Q5_K", 2*2 + 12 + 32 + 128, 256},
	{"Q6_K", 128 + 64 + 16 + 2, 256},
	{"Q8_0", 2 + 32, 32},
}

// GGUFBlocks returns the GGUF block formats this package knows, sorted by type name.
// The slice is new on every call.
func GGUFBlocks() []GGUFBlock {
	out := make([]GGUFBlock, len(ggufBlocks))
	copy(out[:], ggufBlocks[:])
	return out
}

// LookupGGUFBlock returns the block format named typ ("Q4_K", case-insensitive), or
// an error wrapping ErrNotFound.
func LookupGGUFBlock(typ string) (GGUFBlock, error) {
	for _, b := range ggufBlocks {
		if strings.EqualFold(strings.TrimSpace(typ), b.Type) {
			return b, nil
		}
	}
	return GGUFBlock{}, fmt.Errorf("sizing: GGUF block type %s (known: Q2_K, Q3_K, Q4_0, Q4_K, Q5_K, Q6_K, Q8_0): %w", quote(typ), ErrNotFound)
}
