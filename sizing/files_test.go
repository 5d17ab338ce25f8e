package sizing

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// gguf builds a GGUF v3 header: metadata, then tensors of the given type and shape
// at aligned, consecutive offsets.
type ggufTensor struct {
	typ  uint32
	dims []uint64
}

func ggufHeader(arch string, meta map[string]uint32, tensors []ggufTensor) []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(len(tensors)))
	w(uint64(len(meta) + 1))
	str("general.architecture")
	w(uint32(8))
	str(arch)
	for k, v := range meta {
		if !strings.HasPrefix(k, "general.") {
			k = arch + "." + k
		}
		str(k)
		w(uint32(4))
		w(v)
	}
	off := uint64(0)
	for i, t := range tensors {
		str(fmt.Sprintf("t%d", i))
		w(uint32(len(t.dims)))
		n := uint64(1)
		for _, d := range t.dims {
			w(d)
			n *= d
		}
		w(t.typ)
		w(off)
		if ty, ok := ggmlTypes[t.typ]; ok {
			off += (n/uint64(ty.block)*uint64(ty.size) + 31) / 32 * 32
		}
	}
	return b.Bytes()
}

func TestReadGGUF(t *testing.T) {
	meta := map[string]uint32{"block_count": 2, "embedding_length": 256, "attention.head_count": 4,
		"attention.head_count_kv": 2, "feed_forward_length": 512, "context_length": 4096, "vocab_size": 1000,
		"general.file_type": 15} // Q4_K_M in llama.h's enum llama_ftype
	// A Q4_K matrix of 256×512 (131,072 weights in 512 blocks of 144 bytes), an
	// F32 norm of 256, a Q6_K table of 1000×256 (1000 blocks of 210 bytes).
	f, err := ReadGGUF(bytes.NewReader(ggufHeader("llama", meta, []ggufTensor{{12, []uint64{256, 512}}, {0, []uint64{256}}, {14, []uint64{256, 1000}}})))
	if err != nil {
		t.Fatal(err)
	}
	if f.Params != 131072+256+256000 || f.Weights != 512*144+256*4+1000*210 || f.Tensors != 3 {
		t.Errorf("params %d, weights %d, tensors %d", f.Params, f.Weights, f.Tensors)
	}
	want := Model{Name: "llama", Params: f.Params, StoredBytes: f.Weights, Layers: 2, Hidden: 256, Heads: 4, KVHeads: 2,
		FFN: 512, Vocab: 1000, Context: 4096, GatedFFN: true, StoredPrecision: Q4_K_M}
	if f.Model != want || f.Precision != Q4_K_M {
		t.Errorf("model %+v\nwant  %+v", f.Model, want)
	}
	// Estimate takes the weights from the file.
	b, err := Estimate(f.Model, Workload{Task: Inference, Precision: Q4_K_M, Batch: 1, SeqLen: 100})
	if err != nil || b.Weights != f.Weights {
		t.Errorf("Estimate weights %d (%v), want the file's %d", b.Weights, err, f.Weights)
	}
}

// A GGUF file's precision is its file type where that has a Precision; a type
// without one, or a file without general.file_type whose most bytes are in a
// block type that is no file type of its own, gets the file's exact bits per
// weight and a note naming it.
func TestReadGGUFPrecision(t *testing.T) {
	// 2048 Q4_K weights (8 blocks of 144 bytes) and 256 F16 ones: 1152 + 512
	// bytes for 2304 weights, 5.777... bits per weight.
	q4k := []ggufTensor{{12, []uint64{2048}}, {1, []uint64{256}}}
	custom, _ := CustomBits(1664 * 8 / 2304.0)
	for _, tc := range []struct {
		name    string
		ftype   int64 // -1: none
		tensors []ggufTensor
		want    Precision
		note    string
	}{
		{"Q4_K_M", 15, q4k, Q4_K_M, ""},
		{"F16", 1, q4k, FP16, ""},
		{"BF16", 32, q4k, BF16, ""},
		{"MXFP4_MOE", 38, q4k, MXFP4, ""},
		{"Q5_K_S has no Precision", 16, q4k, custom, "GGUF file type Q5_K_S has no precision of its own here: its exact 5.78 bits per weight"},
		{"unknown file type", 77, q4k, custom, "most bytes in Q4_K tensors"},
		{"no file type, mostly F16", -1, []ggufTensor{{12, []uint64{256}}, {1, []uint64{1024}}}, FP16, ""},
		{"no file type, mostly Q4_K", -1, q4k, custom, "without a known general.file_type (most bytes in Q4_K tensors)"},
	} {
		meta := map[string]uint32{}
		if tc.ftype >= 0 {
			meta["general.file_type"] = uint32(tc.ftype)
		}
		f, err := ReadGGUF(bytes.NewReader(ggufHeader("llama", meta, tc.tensors)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.Precision != tc.want || f.Model.StoredPrecision != tc.want || !strings.Contains(f.Model.Notes, tc.note) || (tc.note == "") != (f.Model.Notes == "") {
			t.Errorf("%s: precision %v (model %v), notes %q; want %v, a note with %q", tc.name, f.Precision, f.Model.StoredPrecision, f.Model.Notes, tc.want, tc.note)
		}
	}
}

func TestReadGGUFBad(t *testing.T) {
	good := ggufHeader("llama", nil, []ggufTensor{{0, []uint64{4}}})
	u64 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	head := func(nt, nkv uint64) []byte { return cat([]byte("GGUF\x03\x00\x00\x00"), u64(nt), u64(nkv)) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"magic", append([]byte("GGML"), good[4:]...), "magic"},
		{"version", cat([]byte("GGUF\x01\x00\x00\x00"), good[8:]), "version 1"},
		{"2^60 tensors", head(1<<60, 0), "tensors"},
		{"2^60 keys", head(0, 1<<60), "metadata keys"},
		{"2^62-byte string", cat(head(0, 1), u64(1<<62)), "header"},
		{"truncated", good[:len(good)-3], "ends early"},
		{"100 dims", cat(head(1, 0), u64(1), []byte("t"), []byte{100, 0, 0, 0}), "100 dimensions"},
		{"unknown type", ggufHeader("llama", nil, []ggufTensor{{77, []uint64{4}}}), "unknown ggml type 77"},
		{"block", ggufHeader("llama", nil, []ggufTensor{{12, []uint64{100}}}), "block of 256"},
		// A header without tensors (a vocabulary-only file) or with empty ones
		// holds no model: FuzzReadGGUF found both returned as a zero model.
		{"no tensors", ggufHeader("llama", map[string]uint32{"block_count": 2}, nil), "no tensors"},
		{"empty tensors", ggufHeader("llama", nil, []ggufTensor{{0, []uint64{0}}, {0, []uint64{4, 0}}}), "2 tensors holding no parameters"},
	} {
		_, err := ReadGGUF(bytes.NewReader(tc.data))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrInvalid naming %q", tc.name, err, tc.want)
		}
	}
}

func safetensorsFile(header string) []byte {
	return append(binary.LittleEndian.AppendUint64(nil, uint64(len(header))), header...)
}

func TestReadSafetensors(t *testing.T) {
	h := `{"__metadata__":{"format":"pt"},"b":{"dtype":"F32","shape":[4],"data_offsets":[8192,8208]},` +
		`"a":{"dtype":"BF16","shape":[64,64],"data_offsets":[0,8192]}}`
	f, err := ReadSafetensors(bytes.NewReader(safetensorsFile(h)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Params != 4096+4 || f.Weights != 8208 || f.Tensors != 2 || f.Model.Params != 4100 || f.Model.StoredBytes != 8208 {
		t.Errorf("got %+v", f)
	}
	two, err := CombineFiles(f, f)
	if err != nil || two.Params != 8200 || two.Weights != 16416 || two.Tensors != 4 || two.Model.StoredBytes != 16416 {
		t.Errorf("CombineFiles: %+v, %v", two, err)
	}
	// A hand-built file with a negative figure is refused, not summed into a smaller
	// (or negative) model, and a negative tensor count does not slip past the
	// overflow test.
	for _, bad := range []ModelFile{{Params: -5}, {Weights: -1}, {Tensors: math.MinInt}} {
		if got, err := CombineFiles(f, bad); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "model file 2: negative") {
			t.Errorf("CombineFiles(f, %+v) = %+v, %v; want ErrInvalid naming file 2", bad, got, err)
		}
	}
	for _, tc := range []struct{ name, header, want string }{
		{"gap", `{"a":{"dtype":"F32","shape":[4],"data_offsets":[16,32]}}`, "not at 0"},
		{"size", `{"a":{"dtype":"F32","shape":[5],"data_offsets":[0,16]}}`, "do not fill"},
		{"dtype", `{"a":{"dtype":"F7","shape":[4],"data_offsets":[0,16]}}`, "unknown dtype"},
		{"dims", `{"a":{"dtype":"F32","shape":[` + strings.Repeat("1,", 99) + `1],"data_offsets":[0,4]}}`, "100 dimensions"},
		{"overflow", `{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}`, "int64"},
		{"field", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}}`, "unknown field"},
		{"offsets", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}}`, "data_offsets has 3 values"},
		{"{}", `{}`, "no tensors"},
		{"metadata only", `{"__metadata__":{"format":"pt"}}`, "no tensors"},
		{"empty tensor", `{"a":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}`, "1 tensor holding no parameters"},
	} {
		_, err := ReadSafetensors(bytes.NewReader(safetensorsFile(tc.header)))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrInvalid naming %q", tc.name, err, tc.want)
		}
	}
	huge := binary.LittleEndian.AppendUint64(nil, 1<<62)
	if _, err := ReadSafetensors(bytes.NewReader(huge)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a 2^62-byte header: %v", err)
	}
	short := binary.LittleEndian.AppendUint64(nil, 1000)
	if _, err := ReadSafetensors(bytes.NewReader(append(short, "{}"...))); !errors.Is(err, ErrInvalid) {
		t.Errorf("a header longer than the file: %v", err)
	}
}

// A safetensors file's precision is the format holding most of its bytes.
func TestReadSafetensorsPrecision(t *testing.T) {
	for _, tc := range []struct {
		name, header string
		want         Precision
		note         string
	}{
		{"BF16 matrix, F32 norm", `{"w":{"dtype":"BF16","shape":[64,64],"data_offsets":[0,8192]},"n":{"dtype":"F32","shape":[64],"data_offsets":[8192,8448]}}`, BF16, ""},
		{"F32 only", `{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, FP32, ""},
		{"F16", `{"w":{"dtype":"F16","shape":[4],"data_offsets":[0,8]}}`, FP16, ""},
		// DeepSeek-V3's layout: E4M3 matrices, an F32 inverse scale per 128×128 block, BF16 norms.
		{"FP8 with block scales", `{"w":{"dtype":"F8_E4M3","shape":[256,256],"data_offsets":[0,65536]},"w_scale_inv":{"dtype":"F32","shape":[2,2],"data_offsets":[65536,65552]},"n":{"dtype":"BF16","shape":[256],"data_offsets":[65552,66064]}}`, FP8, ""},
		{"I8", `{"w":{"dtype":"I8","shape":[64],"data_offsets":[0,64]},"s":{"dtype":"F32","shape":[4],"data_offsets":[64,80]}}`, INT8, ""},
		{"mostly U8", `{"w":{"dtype":"U8","shape":[64],"data_offsets":[0,64]},"s":{"dtype":"F32","shape":[4],"data_offsets":[64,80]}}`, 0, "U8 tensors"},
	} {
		f, err := ReadSafetensors(bytes.NewReader(safetensorsFile(tc.header)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.Precision != tc.want || f.Model.StoredPrecision != tc.want || !strings.Contains(f.Model.Notes, tc.note) || (tc.note == "") != (f.Model.Notes == "") {
			t.Errorf("%s: precision %v, notes %q; want %v, a note with %q", tc.name, f.Precision, f.Model.Notes, tc.want, tc.note)
		}
	}
	// Shards combine to the precision of most bytes.
	bf := ModelFile{Params: 10, Weights: 20, Precision: BF16}
	fp := ModelFile{Params: 5, Weights: 20, Precision: FP32}
	u := ModelFile{Params: 1, Weights: 2, Model: Model{Notes: "why"}}
	all, err := CombineFiles(fp, bf, bf, u)
	if err != nil || all.Precision != BF16 || all.Model.StoredPrecision != BF16 || all.Model.Notes != "why" {
		t.Errorf("CombineFiles: %v (model %v), notes %q, %v; want BF16", all.Precision, all.Model.StoredPrecision, all.Model.Notes, err)
	}
}

func FuzzReadGGUF(f *testing.F) {
	f.Add(ggufHeader("llama", map[string]uint32{"block_count": 2, "embedding_length": 64}, []ggufTensor{{12, []uint64{256, 2}}, {0, []uint64{3}}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadGGUF(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if m.Params < 0 || m.Weights < 0 || m.Model.Validate() != nil {
			t.Fatalf("bad result %+v", m)
		}
	})
}

func FuzzReadSafetensors(f *testing.F) {
	f.Add(safetensorsFile(`{"a":{"dtype":"BF16","shape":[2,2],"data_offsets":[0,8]},"b":{"dtype":"F4","shape":[2],"data_offsets":[8,9]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadSafetensors(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if m.Params < 0 || m.Weights < 0 || m.Model.Validate() != nil {
			t.Fatalf("bad result %+v", m)
		}
	})
}

// A header of 700 tensors, about a 70B model's count.
func BenchmarkReadGGUF(b *testing.B) {
	tensors := make([]ggufTensor, 700)
	for i := range tensors {
		tensors[i] = ggufTensor{12, []uint64{8192, 1024}}
	}
	data := ggufHeader("llama", map[string]uint32{"block_count": 80, "embedding_length": 8192, "attention.head_count": 64}, tensors)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ReadGGUF(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// Metadata of every value type is read or skipped: a string array for the
// vocabulary, a float, a nested array, and general.alignment.
func TestReadGGUFMetadata(t *testing.T) {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(1)) // tensors
	w(uint64(6)) // keys
	str("general.architecture")
	w(uint32(8))
	str("qwen2")
	str("general.name")
	w(uint32(8))
	str("Tiny")
	str("general.alignment")
	w(uint32(4))
	w(uint32(64))
	str("qwen2.rope.freq_base")
	w(uint32(6))
	w(float32(1e6))
	str("tokenizer.ggml.tokens")
	w(uint32(9))
	w(uint32(8))
	w(uint64(3))
	str("a")
	str("bb")
	str("ccc")
	str("x.nested")
	w(uint32(9))
	w(uint32(9))
	w(uint64(1))
	w(uint32(5))
	w(uint64(2))
	w(int32(1))
	w(int32(2))
	str("t0")
	w(uint32(2))
	w(uint64(32))
	w(uint64(3))
	w(uint32(8)) // Q8_0: 3 blocks of 34 bytes
	w(uint64(0))
	f, err := ReadGGUF(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Model.Name != "Tiny" || f.Params != 96 || f.Weights != 3*34 || f.Tensors != 1 {
		t.Errorf("got %+v", f)
	}
	// An offset off the 64-byte alignment is refused.
	data := b.Bytes()
	binary.LittleEndian.PutUint64(data[len(data)-8:], 32)
	if _, err := ReadGGUF(bytes.NewReader(data)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "aligned to 64") {
		t.Errorf("misaligned offset: %v", err)
	}
}

// GPTQ and AWQ checkpoints pack several low-bit weights into each I32 element of
// a layer's qweight, beside its per-group scales and qzeros (and GPTQ's g_idx):
// the parameters are the unpacked weights, qweight's elements × out / qzeros'
// packed columns, not the elements stored. A 64 × 128 linear layer in groups of
// 32: AWQ 4-bit stores qweight [64, 16], qzeros [2, 16], scales [2, 128]; GPTQ
// 4-bit qweight [8, 128], qzeros [2, 16], scales [2, 128], g_idx [64]; GPTQ 3-bit
// qweight [6, 128], qzeros [2, 12]. Each is 8192 parameters, plus a 128-value bias.
func TestReadSafetensorsPackedQuantized(t *testing.T) {
	layer := func(tensors ...[3]any) string { // name, dtype, shape
		var b strings.Builder
		b.WriteString("{")
		off := uint64(0)
		for i, x := range tensors {
			shape := x[2].([]uint64)
			n := uint64(1)
			for _, d := range shape {
				n *= d
			}
			n *= map[string]uint64{"I32": 4, "F16": 2}[x[1].(string)]
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"%s":{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}`, x[0], x[1], strings.ReplaceAll(fmt.Sprint(shape), " ", ","), off, off+n)
			off += n
		}
		b.WriteString("}")
		return b.String()
	}
	bias := [3]any{"l.bias", "F16", []uint64{128}}
	// The 3-bit layer stores 3072 + 96 + 512 + 256 bytes for 8192 weights.
	gptq3, _ := CustomBits(3936 * 8 / 8192.0)
	for _, tc := range []struct {
		name   string
		want   Precision
		header string
	}{
		{"awq 4-bit", AWQ4, layer([3]any{"l.qweight", "I32", []uint64{64, 16}}, [3]any{"l.qzeros", "I32", []uint64{2, 16}}, [3]any{"l.scales", "F16", []uint64{2, 128}}, bias)},
		{"gptq 4-bit", GPTQ4, layer([3]any{"l.qweight", "I32", []uint64{8, 128}}, [3]any{"l.qzeros", "I32", []uint64{2, 16}}, [3]any{"l.scales", "F16", []uint64{2, 128}}, [3]any{"l.g_idx", "I32", []uint64{64}}, bias)},
		{"gptq 3-bit", gptq3, layer([3]any{"l.qweight", "I32", []uint64{6, 128}}, [3]any{"l.qzeros", "I32", []uint64{2, 12}}, [3]any{"l.scales", "F16", []uint64{2, 128}}, [3]any{"l.g_idx", "I32", []uint64{64}}, bias)},
	} {
		f, err := ReadSafetensors(bytes.NewReader(safetensorsFile(tc.header)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.Params != 8192+128 || f.Model.Params != f.Params {
			t.Errorf("%s: %d parameters, want %d", tc.name, f.Params, 8192+128)
		}
		if f.Precision != tc.want || f.Model.StoredPrecision != tc.want {
			t.Errorf("%s: precision %v, want %v", tc.name, f.Precision, tc.want)
		}
	}
	// A qweight without the scales and qzeros that say how it is packed cannot be
	// counted: an error, not the stored elements.
	_, err := ReadSafetensors(bytes.NewReader(safetensorsFile(layer([3]any{"l.qweight", "I32", []uint64{64, 16}}))))
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "qweight") {
		t.Errorf("a lone qweight: %v, want ErrInvalid naming it", err)
	}
}

// Quantized layers count their weights unpacked, their scales as quantization
// state, and their bytes under their format: gpt-oss's MXFP4 experts beside
// BF16 attention are MXFP4 by bytes; an NVFP4 layer in ModelOpt's layout is
// NVFP4; DeepSeek-V3's FP8 matrices with block scales are FP8.
func TestReadSafetensorsQuantizedLayers(t *testing.T) {
	header := func(tensors ...[3]any) string { // name, dtype, shape
		var b strings.Builder
		b.WriteString("{")
		off := uint64(0)
		for i, x := range tensors {
			shape := x[2].([]uint64)
			n := uint64(1)
			for _, d := range shape {
				n *= d
			}
			n *= map[string]uint64{"U8": 1, "F8_E4M3": 1, "BF16": 2, "F32": 4}[x[1].(string)]
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"%s":{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}`, x[0], x[1], strings.ReplaceAll(fmt.Sprint(shape), " ", ","), off, off+n)
			off += n
		}
		b.WriteString("}")
		return b.String()
	}
	for _, tc := range []struct {
		name    string
		header  string
		params  int64
		weights Bytes
		want    Precision
	}{
		// 4 experts of a 64×128 matrix in MXFP4: blocks [4, 64, 4, 16] (16,384
		// bytes, 32,768 values), scales [4, 64, 4] (1024 bytes); a BF16 bias
		// [4, 64] and a BF16 256×64 projection (32,768 bytes), most of the bytes.
		{"mxfp4 experts", header([3]any{"e.gate_up_proj_blocks", "U8", []uint64{4, 64, 4, 16}}, [3]any{"e.gate_up_proj_scales", "U8", []uint64{4, 64, 4}},
			[3]any{"e.gate_up_proj_bias", "BF16", []uint64{4, 64}}, [3]any{"attn.weight", "BF16", []uint64{256, 64}}), 32768 + 256 + 16384, 16384 + 1024 + 512 + 32768, BF16},
		{"mxfp4 mostly", header([3]any{"e.down_proj_blocks", "U8", []uint64{32, 64, 4, 16}}, [3]any{"e.down_proj_scales", "U8", []uint64{32, 64, 4}},
			[3]any{"attn.weight", "BF16", []uint64{128, 64}}), 32*64*128 + 8192, 32*4096 + 32*256 + 16384, MXFP4},
		// An NVFP4 layer of 128×256: weight U8 [128, 128], weight_scale E4M3
		// [128, 16], weight_scale_2 and input_scale F32 scalars.
		{"nvfp4", header([3]any{"l.weight", "U8", []uint64{128, 128}}, [3]any{"l.weight_scale", "F8_E4M3", []uint64{128, 16}},
			[3]any{"l.weight_scale_2", "F32", []uint64{}}, [3]any{"l.input_scale", "F32", []uint64{}}, [3]any{"norm.weight", "BF16", []uint64{256}}), 32768 + 256, 16384 + 2048 + 8 + 512, NVFP4},
		// DeepSeek-V3's FP8 block: a 256×256 E4M3 matrix and its 2×2 F32
		// inverse scales.
		{"fp8 blocks", header([3]any{"l.weight", "F8_E4M3", []uint64{256, 256}}, [3]any{"l.weight_scale_inv", "F32", []uint64{2, 2}}, [3]any{"n.weight", "BF16", []uint64{256}}), 65536 + 256, 65536 + 16 + 512, FP8},
	} {
		f, err := ReadSafetensors(bytes.NewReader(safetensorsFile(tc.header)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.Params != tc.params || f.Weights != tc.weights || f.Precision != tc.want {
			t.Errorf("%s: %d parameters, %d bytes, %v; want %d, %d, %v", tc.name, f.Params, int64(f.Weights), f.Precision, tc.params, int64(tc.weights), tc.want)
		}
	}
	// An index file given as a shard is named as one, not read as a header of
	// seven quintillion bytes.
	index := []byte(`{"metadata":{"total_size":15231233024},"weight_map":{"lm_head.weight":"model-00004-of-00004.safetensors"}}`)
	if _, err := ReadSafetensors(bytes.NewReader(index)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "model.safetensors.index.json") {
		t.Errorf("an index read as a shard: %v", err)
	}
}
