package sizing

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestPrecisionBits(t *testing.T) {
	tests := []struct {
		name string // with the source of the figure
		p    Precision
		want float64
	}{
		{"FP64 IEEE 754 binary64", FP64, 64},
		{"FP32 IEEE 754 binary32", FP32, 32},
		{"TF32 stored as FP32", TF32, 32},
		{"FP16 IEEE 754 binary16", FP16, 16},
		{"BF16 bfloat16", BF16, 16},
		{"FP8 E4M3/E5M2", FP8, 8},
		{"INT8", INT8, 8},
		{"INT4", INT4, 4},
		{"NF4 QLoRA §3 double quantization 4+8/64+32/(64*256)", NF4, 4.126953125},
		{"GPTQ group 128: 4+20/128", GPTQ4, 4.15625},
		{"AWQ group 128: 4+20/128", AWQ4, 4.15625},
		{"Q4_0 ggml-common.h 18 B per 32", Q4_0, 4.5},
		{"Q8_0 ggml-common.h 34 B per 32", Q8_0, 8.5},
		{"Q2_K llama.cpp quantize README, Llama 2 7B", Q2_K, 3.35},
		{"Q3_K_M llama.cpp quantize README, Llama 2 7B", Q3_K_M, 3.91},
		{"Q4_K_S llama.cpp quantize README, Llama 2 7B", Q4_K_S, 4.58},
		{"Q4_K_M llama.cpp quantize README, Llama 2 7B", Q4_K_M, 4.84},
		{"Q5_K_M llama.cpp quantize README, Llama 2 7B", Q5_K_M, 5.68},
		{"Q6_K llama.cpp quantize README, Llama 2 7B", Q6_K, 6.56},
		{"MXFP4 OCP MX v1.0: 32 E2M1 values and one E8M0 scale, 4+8/32", MXFP4, 4.25},
		{"NVFP4: 16 E2M1 values and one E4M3 scale, 4+8/16", NVFP4, 4.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Bits(); got != tt.want {
				t.Errorf("%v.Bits() = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
	// QLoRA's rounded constant cost: 0.127 bits per parameter.
	if got := NF4.Bits() - 4; math.Abs(got-0.127) > 0.0005 {
		t.Errorf("NF4 constants = %v bits, want about 0.127", got)
	}
	// Every named precision is in the table above.
	if got, want := len(tests), int(numPrecisions)-1; got != want {
		t.Errorf("table pins %d precisions, want all %d", got, want)
	}
}

func TestGGUFBlocks(t *testing.T) {
	// llama.cpp ggml-common.h, as REFERENCES.md lists them.
	tests := []struct {
		name           string
		bytes, weights int
		bits           float64
	}{
		{"Q2_K", 84, 256, 2.625},
		{"Q3_K", 110, 256, 3.4375},
		{"Q4_0", 18, 32, 4.5},
		{"Q4_K", 144, 256, 4.5},
		{"Q5_K", 176, 256, 5.5},
		{"Q6_K", 210, 256, 6.5625},
		{"Q8_0", 34, 32, 8.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := LookupGGUFBlock(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if b.Bytes != tt.bytes || b.Weights != tt.weights {
				t.Errorf("%s = %d B per %d, want %d per %d", tt.name, b.Bytes, b.Weights, tt.bytes, tt.weights)
			}
			if got := b.Bits(); got != tt.bits {
				t.Errorf("%s.Bits() = %v, want %v", tt.name, got, tt.bits)
			}
		})
	}
	if got := GGUFBlocks(); len(got) != len(tests) {
		t.Errorf("GGUFBlocks() has %d entries, want %d", len(got), len(tests))
	}
	// The single-block file types equal their block.
	for _, c := range []struct {
		p   Precision
		typ string
	}{{Q4_0, "Q4_0"}, {Q8_0, "Q8_0"}} {
		b, _ := LookupGGUFBlock(c.typ)
		if c.p.Bits() != b.Bits() {
			t.Errorf("%v.Bits() = %v, block %s = %v", c.p, c.p.Bits(), c.typ, b.Bits())
		}
	}
	// A file mix sits between its smallest and largest blocks: Q4_K_M uses Q4_K with
	// some Q6_K tensors.
	q4k, _ := LookupGGUFBlock("q4_k")
	q6k, _ := LookupGGUFBlock("Q6_K")
	if Q4_K_M.Bits() < q4k.Bits() || Q4_K_M.Bits() > q6k.Bits() {
		t.Errorf("Q4_K_M %v bits outside [Q4_K %v, Q6_K %v]", Q4_K_M.Bits(), q4k.Bits(), q6k.Bits())
	}
	if _, err := LookupGGUFBlock("Q7_K"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LookupGGUFBlock(Q7_K) error = %v, want ErrNotFound", err)
	}
	// GGUFBlocks returns a copy.
	bs := GGUFBlocks()
	bs[0].Bytes = 0
	if b, _ := LookupGGUFBlock(bs[0].Type); b.Bytes == 0 {
		t.Error("GGUFBlocks shares its table with the caller")
	}
}

func TestPrecisionHalves(t *testing.T) {
	if FP16.Bits()*2 != FP32.Bits() || BF16.Bits()*2 != FP32.Bits() || FP32.Bits()*2 != FP64.Bits() {
		t.Errorf("FP16 %v, BF16 %v, FP32 %v, FP64 %v: each half the next", FP16.Bits(), BF16.Bits(), FP32.Bits(), FP64.Bits())
	}
	if INT4.Bits()*2 != INT8.Bits() || FP8.Bits()*2 != FP16.Bits() {
		t.Errorf("INT4 %v, INT8 %v, FP8 %v: want halves", INT4.Bits(), INT8.Bits(), FP8.Bits())
	}
}

func TestParsePrecision(t *testing.T) {
	tests := []struct {
		in   string
		want Precision
	}{
		{"bf16", BF16}, {"BF16", BF16}, {"bfloat16", BF16}, {"float16", FP16}, {"half", FP16},
		{"fp32", FP32}, {"float32", FP32}, {"double", FP64}, {"tf32", TF32}, {"fp8", FP8},
		{"FP8-E4M3", FP8}, {"int8", INT8}, {"int4", INT4}, {"nf4", NF4}, {"bnb-4bit", NF4},
		{"gptq", GPTQ4}, {"AWQ", AWQ4}, {"Q4_K_M", Q4_K_M}, {"q4km", Q4_K_M}, {"q4-k-s", Q4_K_S},
		{"Q2_K", Q2_K}, {"q3_k_m", Q3_K_M}, {"Q5_K_M", Q5_K_M}, {"q6_k", Q6_K}, {"Q8_0", Q8_0}, {"q4_0", Q4_0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePrecision(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ParsePrecision(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "fp7", "q4", "custom(", "0b", "-4b", "65bpw", "NaNb", "infbpw", "0x1p2b", "1e2b", "1.2.3b"} {
		if p, err := ParsePrecision(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParsePrecision(%q) = %v, %v; want ErrInvalid", bad, p, err)
		}
	}
	if got, err := ParsePrecision("4.65bpw"); err != nil || got.Bits() != 4.65 {
		t.Errorf("ParsePrecision(4.65bpw) = %v (%v bits), %v; want 4.65 bits", got, got.Bits(), err)
	}
}

func TestPrecisionStringRoundTrip(t *testing.T) {
	for p := FP64; p < numPrecisions; p++ {
		got, err := ParsePrecision(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePrecision(%q) = %v, %v; want %v", p.String(), got, err, p)
		}
		if !p.Valid() {
			t.Errorf("%v.Valid() = false", p)
		}
	}
	var zero Precision
	if zero.String() != "unset" || zero.Valid() || zero.Bits() != 0 {
		t.Errorf("zero precision: %q, valid %v, %v bits", zero.String(), zero.Valid(), zero.Bits())
	}
	if s := Precision(999).String(); s != "Precision(999)" {
		t.Errorf("Precision(999).String() = %q", s)
	}
}

func TestCustomBitsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		milli := rapid.IntRange(1, 64000).Draw(t, "milli_bits")
		bits := float64(milli) / 1000
		p, err := CustomBits(bits)
		if err != nil {
			t.Fatalf("CustomBits(%v) error: %v", bits, err)
		}
		if p.Bits() != bits {
			t.Fatalf("CustomBits(%v).Bits() = %v", bits, p.Bits())
		}
		if !p.Valid() {
			t.Fatalf("CustomBits(%v) not valid", bits)
		}
		back, err := ParsePrecision(p.String())
		if err != nil || back != p {
			t.Fatalf("ParsePrecision(%q) = %v, %v; want %v", p.String(), back, err, p)
		}
	})
	// 0.0004 bits rounds to 0 thousandths; it used to become 0.001 silently.
	for _, bad := range []float64{0, -1, 64.001, math.NaN(), math.Inf(1), math.Inf(-1), 0.0004, 1e-300, math.SmallestNonzeroFloat64} {
		if _, err := CustomBits(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("CustomBits(%v) error = %v, want ErrInvalid", bad, err)
		}
	}
}

func TestCustomBitsSmallest(t *testing.T) {
	p, err := CustomBits(0.0005) // rounds half away from zero, to 1 thousandth
	if err != nil || p.Bits() != 0.001 {
		t.Errorf("CustomBits(0.0005) = %v, %v; want 0.001 bits", p.Bits(), err)
	}
	if p, err := ParsePrecision("0.0001b"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParsePrecision(\"0.0001b\") = %v, %v; want an error wrapping ErrInvalid", p, err)
	}
}

func FuzzParsePrecision(f *testing.F) {
	for _, s := range []string{"bf16", "Q4_K_M", "custom(4.650b)", "4.65bpw", "1e400b", "NaNb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePrecision(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("ParsePrecision(%q) error %v does not wrap ErrInvalid", s, err)
			}
			return
		}
		if b := p.Bits(); !(b > 0 && b <= 64) {
			t.Fatalf("ParsePrecision(%q) = %v with %v bits", s, p, b)
		}
		if back, err := ParsePrecision(p.String()); err != nil || back != p {
			t.Fatalf("ParsePrecision(%q) = %v; ParsePrecision(%q) = %v, %v", s, p, p.String(), back, err)
		}
	})
}

func TestKVDefaultAndComputeBits(t *testing.T) {
	custom, _ := CustomBits(4.65)
	wide, _ := CustomBits(24)
	tests := []struct {
		p       Precision
		kv      Precision
		compute float64
	}{
		{FP64, FP64, 64}, {FP32, FP32, 32}, {BF16, BF16, 16}, {FP16, FP16, 16},
		{FP8, FP16, 16}, {INT8, FP16, 16}, {AWQ4, FP16, 16}, {NF4, FP16, 16}, {Q4_K_M, FP16, 16},
		{custom, FP16, 16}, {wide, wide, 24}, {0, 0, 0},
	}
	for _, tt := range tests {
		if got := tt.p.KVDefault(); got != tt.kv {
			t.Errorf("%v.KVDefault() = %v, want %v", tt.p, got, tt.kv)
		}
		if got := tt.p.ComputeBits(); got != tt.compute {
			t.Errorf("%v.ComputeBits() = %v, want %v", tt.p, got, tt.compute)
		}
	}
}

// Precisions lists each named precision once, each reads back by its name, and
// ParsePrecision's error for an unknown name lists every one of them.
func TestPrecisions(t *testing.T) {
	all := Precisions()
	if len(all) != int(numPrecisions-FP64) || all[0] != FP64 || all[len(all)-1] != NVFP4 {
		t.Fatalf("Precisions() = %v: want FP64 to NVFP4, %d names", all, numPrecisions-FP64)
	}
	_, err := ParsePrecision("fp7")
	for _, p := range all {
		if got, perr := ParsePrecision(p.String()); perr != nil || got != p {
			t.Errorf("ParsePrecision(%q) = %v, %v", p.String(), got, perr)
		}
		if name := strings.ToLower(p.String()); !strings.Contains(err.Error(), name) {
			t.Errorf("ParsePrecision(fp7) error %q does not list %q", err, name)
		}
	}
	if strings.Contains(err.Error(), "Precisions") {
		t.Errorf("ParsePrecision(fp7) error %q names a Go identifier", err)
	}
	all[0] = Q8_0
	if Precisions()[0] != FP64 {
		t.Error("Precisions shares its slice between calls")
	}
}
