package sizing

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/gpuplan/gpuplan/internal/text"
)

// ModelFile is what a weights file says about its model: ReadGGUF and
// ReadSafetensors return it.
type ModelFile struct {
	// Model is the architecture as far as the file states it, with Params set to
	// the file's exact count and StoredBytes to its exact weight bytes, so that
	// Estimate uses both. A GGUF file's metadata usually gives the whole
	// architecture; a safetensors file gives only the count and bytes.
	Model   Model
	Params  int64 // exact, summed over the tensors
	Weights Bytes // exact bytes of the stored tensors
	Tensors int
}

// Limits the file readers hold every header to, so that a header claiming more
// is refused before anything is allocated for it.
const (
	// MaxFileTensors bounds the tensors of one file: 1<<20, against about 1,100
	// in a DeepSeek-V3 GGUF.
	MaxFileTensors = 1 << 20
	// MaxFileDims bounds the dimensions of one tensor: GGML has at most 4
	// (GGML_MAX_DIMS); safetensors tensors are allowed 8.
	MaxFileDims = 8
	// MaxHeaderBytes bounds a header: 100,000,000 bytes, the limit the
	// safetensors library itself sets on its JSON header, and the most ReadGGUF
	// reads of metadata and tensor infos (a 256k-word vocabulary takes a few MB).
	MaxHeaderBytes = 100_000_000
)

// ggmlType is one row of ggml's type table (type_traits in ggml/src/ggml.c):
// elements per block and bytes per block.
type ggmlType struct {
	name        string
	block, size int64
}

// ggmlTypes lists ggml's tensor types by their GGUF type number; missing numbers
// are types ggml removed (4, 5, 31 to 33, 36 to 38), which no current file holds.
var ggmlTypes = map[uint32]ggmlType{
	0: {"F32", 1, 4}, 1: {"F16", 1, 2}, 2: {"Q4_0", 32, 18}, 3: {"Q4_1", 32, 20},
	6: {"Q5_0", 32, 22}, 7: {"Q5_1", 32, 24}, 8: {"Q8_0", 32, 34}, 9: {"Q8_1", 32, 36},
	10: {"Q2_K", 256, 84}, 11: {"Q3_K", 256, 110}, 12: {"Q4_K", 256, 144}, 13: {"Q5_K", 256, 176},
	14: {"Q6_K", 256, 210}, 15: {"Q8_K", 256, 292}, 16: {"IQ2_XXS", 256, 66}, 17: {"IQ2_XS", 256, 74},
	18: {"IQ3_XXS", 256, 98}, 19: {"IQ1_S", 256, 50}, 20: {"IQ4_NL", 32, 18}, 21: {"IQ3_S", 256, 110},
	22: {"IQ2_S", 256, 82}, 23: {"IQ4_XS", 256, 136}, 24: {"I8", 1, 1}, 25: {"I16", 1, 2},
	26: {"I32", 1, 4}, 27: {"I64", 1, 8}, 28: {"F64", 1, 8}, 29: {"IQ1_M", 256, 56},
	30: {"BF16", 1, 2}, 34: {"TQ1_0", 256, 54}, 35: {"TQ2_0", 256, 66}, 39: {"MXFP4", 32, 17},
}

// errFile wraps a reader's problem in ErrInvalid with the format's name.
func errFile(format, msg string, args ...any) error {
	return fmt.Errorf("sizing: %s: "+msg+": %w", append(append([]any{format}, args...), ErrInvalid)...)
}

// ggufReader reads a GGUF header's little-endian values, counting what it read.
type ggufReader struct {
	r   *bufio.Reader
	n   int64
	err error
	buf [8]byte
}

func (g *ggufReader) read(n int) []byte {
	if g.err != nil {
		return g.buf[:n]
	}
	if g.n += int64(n); g.n > MaxHeaderBytes {
		g.err = errFile("GGUF", "header over %d bytes", MaxHeaderBytes)
		return g.buf[:n]
	}
	if _, err := io.ReadFull(g.r, g.buf[:n]); err != nil {
		g.err = errFile("GGUF", "header ends early after %d bytes", g.n-int64(n))
	}
	return g.buf[:n]
}

func (g *ggufReader) u32() uint32 { return binary.LittleEndian.Uint32(g.read(4)) }
func (g *ggufReader) u64() uint64 { return binary.LittleEndian.Uint64(g.read(8)) }

// skip discards n bytes, refusing to go past the header limit.
func (g *ggufReader) skip(n uint64) {
	if g.err != nil {
		return
	}
	if n > MaxHeaderBytes || g.n+int64(n) > MaxHeaderBytes {
		g.err = errFile("GGUF", "a length of %d bytes goes past the %d-byte header limit", n, MaxHeaderBytes)
		return
	}
	g.n += int64(n)
	if _, err := g.r.Discard(int(n)); err != nil {
		g.err = errFile("GGUF", "header ends early after %d bytes", g.n-int64(n))
	}
}

// str reads a string, keeping it only when it is at most keep bytes long.
func (g *ggufReader) str(keep uint64) (string, bool) {
	n := g.u64()
	if g.err != nil {
		return "", false
	}
	if n > keep {
		g.skip(n)
		return "", false
	}
	if g.n+int64(n) > MaxHeaderBytes {
		g.skip(n)
		return "", false
	}
	g.n += int64(n)
	b := make([]byte, n)
	if _, err := io.ReadFull(g.r, b); err != nil {
		g.err = errFile("GGUF", "header ends early in a string")
		return "", false
	}
	return string(b), true
}

// ggufScalar is the size of each fixed-size GGUF metadata value type.
var ggufScalar = map[uint32]uint64{0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}

// value reads a metadata value of type typ, returning it as an integer when it is
// an integer type, and, for an array, its length.
func (g *ggufReader) value(typ uint32, depth int) (v int64, isInt bool, s string) {
	switch typ {
	case 0, 7:
		return int64(g.read(1)[0]), typ == 0, ""
	case 1:
		return int64(int8(g.read(1)[0])), true, ""
	case 2:
		return int64(binary.LittleEndian.Uint16(g.read(2))), true, ""
	case 3:
		return int64(int16(binary.LittleEndian.Uint16(g.read(2)))), true, ""
	case 4:
		return int64(g.u32()), true, ""
	case 5:
		return int64(int32(g.u32())), true, ""
	case 10:
		u := g.u64()
		return int64(min(u, math.MaxInt64)), true, ""
	case 11:
		return int64(g.u64()), true, ""
	case 6:
		g.read(4)
		return 0, false, ""
	case 12:
		g.read(8)
		return 0, false, ""
	case 8:
		s, _ := g.str(256)
		return 0, false, s
	case 9:
		if depth > 2 {
			g.err = errFile("GGUF", "arrays nested more than 2 deep")
			return 0, false, ""
		}
		et, n := g.u32(), g.u64()
		if g.err != nil {
			return 0, false, ""
		}
		if size, ok := ggufScalar[et]; ok {
			if hi, lo := bits.Mul64(n, size); hi != 0 || lo > MaxHeaderBytes {
				g.err = errFile("GGUF", "an array of %d values goes past the %d-byte header limit", n, MaxHeaderBytes)
				return 0, false, ""
			}
			g.skip(n * size)
			return int64(n), false, ""
		}
		if n > MaxHeaderBytes/8 { // every string or array takes at least 8 bytes
			g.err = errFile("GGUF", "an array of %d values goes past the %d-byte header limit", n, MaxHeaderBytes)
			return 0, false, ""
		}
		for i := uint64(0); i < n && g.err == nil; i++ {
			if et == 8 {
				g.skip(g.u64())
			} else {
				g.value(et, depth+1)
			}
		}
		return int64(n), false, ""
	default:
		g.err = errFile("GGUF", "unknown metadata value type %d", typ)
		return 0, false, ""
	}
}

// ggufKeys are the metadata keys ReadGGUF reads, after the "<architecture>."
// prefix (llama.cpp's gguf-py constants).
var ggufKeys = map[string]bool{
	"block_count": true, "embedding_length": true, "attention.head_count": true,
	"attention.head_count_kv": true, "attention.key_length": true, "feed_forward_length": true,
	"context_length": true, "expert_count": true, "expert_used_count": true, "vocab_size": true,
	"attention.sliding_window": true, "expert_feed_forward_length": true, "attention.kv_lora_rank": true,
	"rope.dimension_count": true, "leading_dense_block_count": true, "expert_shared_count": true,
}

// ReadGGUF reads the header of a GGUF file (versions 2 and 3: llama.cpp's
// gguf.md) and never its tensor data: the metadata, of which it keeps the
// architecture keys, and each tensor's name, shape, type and offset. It checks the
// magic, the version, the alignment (general.alignment, 32 when absent, a power of
// two), every tensor type against ggml's type table, each tensor's first dimension
// against its type's block size, and that the tensors' offsets are aligned and do
// not overlap. Params is the sum of the tensors' elements and Weights the sum of
// their stored bytes (elements / block size × bytes per block), exact for every
// quantization mix.
//
// The Model has Params and StoredBytes set, and the architecture (layers, hidden
// size, heads, KV heads, head dimension, FFN, experts, vocabulary from the token
// list, context, sliding window) as far as the metadata gives one that Validate
// accepts; without one, only Params. Counts and lengths are bounded before
// anything is allocated: at most MaxFileTensors tensors, MaxFileDims (4 for
// GGML) dimensions and MaxHeaderBytes of header; a key is read when it is at most
// 64 KiB (the GGUF specification's limit is 65,535 bytes), a string value only when
// it is at most 256 bytes (the architecture and the name), and everything else is
// skipped unread; every failure wraps ErrInvalid.
func ReadGGUF(r io.Reader) (ModelFile, error) {
	g := &ggufReader{r: bufio.NewReaderSize(r, 64<<10)}
	if magic := g.read(4); g.err == nil && string(magic) != "GGUF" {
		return ModelFile{}, errFile("GGUF", "magic %q is not GGUF", string(magic))
	}
	version := g.u32()
	if g.err == nil && version != 2 && version != 3 {
		return ModelFile{}, errFile("GGUF", "version %d: want 2 or 3", version)
	}
	nt, nkv := g.u64(), g.u64()
	if g.err != nil {
		return ModelFile{}, g.err
	}
	if nt > MaxFileTensors {
		return ModelFile{}, errFile("GGUF", "%d tensors, over the limit of %d", nt, MaxFileTensors)
	}
	if nkv > MaxHeaderBytes/12 { // a key-value pair takes at least 12 bytes
		return ModelFile{}, errFile("GGUF", "%d metadata keys cannot fit the %d-byte header limit", nkv, MaxHeaderBytes)
	}
	arch, name := "", ""
	alignment := int64(32)
	nums := map[string]int64{}
	vocab := int64(0)
	for i := uint64(0); i < nkv && g.err == nil; i++ {
		key, _ := g.str(1 << 16)
		typ := g.u32()
		if g.err != nil {
			break
		}
		v, isInt, s := g.value(typ, 0)
		switch {
		case key == "general.architecture":
			arch = s
		case key == "general.name":
			name = s
		case key == "general.alignment":
			if !isInt || v <= 0 || v&(v-1) != 0 || v > 1<<30 {
				return ModelFile{}, errFile("GGUF", "general.alignment %d is not a power of two", v)
			}
			alignment = v
		case key == "tokenizer.ggml.tokens":
			vocab = v
		case isInt:
			if dot := strings.IndexByte(key, '.'); dot > 0 && ggufKeys[key[dot+1:]] {
				nums[key] = v
			}
		}
	}
	if g.err != nil {
		return ModelFile{}, g.err
	}
	var params, stored int64
	type span struct{ begin, end int64 }
	spans := make([]span, 0, min(nt, 4096))
	for i := uint64(0); i < nt; i++ {
		g.skip(g.u64()) // the name
		nd := g.u32()
		if g.err != nil {
			return ModelFile{}, g.err
		}
		if nd == 0 || nd > 4 {
			return ModelFile{}, errFile("GGUF", "tensor %d has %d dimensions: want 1 to 4", i, nd)
		}
		elems, ok := int64(1), true
		var first int64
		for d := uint32(0); d < nd; d++ {
			n := g.u64()
			if d == 0 {
				first = int64(min(n, math.MaxInt64))
			}
			var mok bool
			elems, mok = checked.Mul(elems, int64(min(n, math.MaxInt64)))
			ok = ok && mok && n <= math.MaxInt64
		}
		typ, off := g.u32(), g.u64()
		if g.err != nil {
			return ModelFile{}, g.err
		}
		t, known := ggmlTypes[typ]
		switch {
		case !known:
			return ModelFile{}, errFile("GGUF", "tensor %d has unknown ggml type %d", i, typ)
		case !ok:
			return ModelFile{}, errFile("GGUF", "tensor %d has more elements than int64 holds", i)
		case first%t.block != 0:
			return ModelFile{}, errFile("GGUF", "tensor %d's first dimension %d is not a multiple of %s's block of %d", i, first, t.name, t.block)
		case off > math.MaxInt64 || int64(off)%alignment != 0:
			return ModelFile{}, errFile("GGUF", "tensor %d's offset %d is not aligned to %d", i, off, alignment)
		}
		size, sok := checked.Mul(elems/t.block, t.size)
		end, eok := checked.Add(int64(off), size)
		params, ok = checked.Add(params, elems)
		total, tok := checked.Add(stored, size)
		if !sok || !eok || !ok || !tok {
			return ModelFile{}, errFile("GGUF", "tensor sizes overflow int64")
		}
		stored = total
		spans = append(spans, span{int64(off), end})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].begin < spans[j].begin })
	for i := 1; i < len(spans); i++ {
		if spans[i].begin < spans[i-1].end {
			return ModelFile{}, errFile("GGUF", "tensor data at offset %d overlaps the tensor before it", spans[i].begin)
		}
	}
	m := Model{Name: name, Params: params, StoredBytes: Bytes(stored)}
	if m.Name == "" {
		m.Name = arch
	}
	key := func(k string) int {
		v := nums[arch+"."+k]
		if v < 0 || v > maxConfigInt {
			return 0
		}
		return int(v)
	}
	a := m
	a.Layers, a.Hidden, a.Heads = key("block_count"), key("embedding_length"), key("attention.head_count")
	a.KVHeads, a.HeadDim = key("attention.head_count_kv"), key("attention.key_length")
	a.FFN, a.Context = key("feed_forward_length"), key("context_length")
	a.Vocab = key("vocab_size")
	if a.Vocab == 0 && vocab <= maxConfigInt {
		a.Vocab = int(vocab)
	}
	if e := key("expert_count"); e > 1 {
		a.Experts, a.ExpertsPerToken = e, key("expert_used_count")
		a.ExpertFFN, a.DenseLayers = key("expert_feed_forward_length"), min(key("leading_dense_block_count"), a.Layers)
	}
	if a.Heads > 0 && a.HeadDim*a.Heads == a.Hidden {
		a.HeadDim = 0
	}
	a.SlidingWindow = key("attention.sliding_window")
	a.GatedFFN = true // every llama.cpp architecture with these keys but GPT-2 and Falcon-style
	if a.Validate() == nil && a.HasArchitecture() {
		m = a
	}
	return ModelFile{Model: m, Params: params, Weights: Bytes(stored), Tensors: int(nt)}, nil
}

// safetensorsDtypes gives the bits per element of each safetensors dtype
// (safetensors' Dtype enum).
var safetensorsDtypes = map[string]int64{
	"BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E8M0": 8, "I16": 16, "U16": 16,
	"F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32, "F64": 64, "I64": 64, "U64": 64, "F4": 4,
}

// ReadSafetensors reads the header of a .safetensors file (an 8-byte little-endian
// length, then that many bytes of JSON naming each tensor's dtype, shape and data
// offsets) and never its tensor data. It checks, as the safetensors library does,
// that the header is at most MaxHeaderBytes, that every dtype is known, and that
// the tensors' data offsets, sorted, are contiguous from 0 and each spans exactly
// its shape's elements × the dtype's width. Params is the sum of the elements,
// with the packed weights of GPTQ and AWQ layers unpacked and their scales,
// zeros and group index left out (unpackedParams), and Weights the sum of the
// bytes. A file holds only tensors, so the Model has Params and
// StoredBytes set and no architecture: give a config.json to ReadConfig for that.
// A model split over several files adds up with CombineFiles.
func ReadSafetensors(r io.Reader) (ModelFile, error) {
	var lenBuf [8]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return ModelFile{}, errFile("safetensors", "no 8-byte header length")
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxHeaderBytes {
		return ModelFile{}, errFile("safetensors", "header of %d bytes, over the limit of %d", n, MaxHeaderBytes)
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil || uint64(len(data)) != n {
		return ModelFile{}, errFile("safetensors", "header of %d bytes ends after %d", n, len(data))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return ModelFile{}, errFile("safetensors", "header: %v", err)
	}
	type tensor struct {
		Dtype   string   `json:"dtype"`
		Shape   []uint64 `json:"shape"`
		Offsets []uint64 `json:"data_offsets"`
	}
	type span struct {
		begin, end uint64
		name       string
	}
	spans := make([]span, 0, len(raw))
	var params, stored int64
	packed := map[string]packedTensor{} // the parts of GPTQ and AWQ layers, counted below
	for name, v := range raw {
		if name == "__metadata__" {
			continue
		}
		if len(spans) >= MaxFileTensors {
			return ModelFile{}, errFile("safetensors", "over %d tensors", MaxFileTensors)
		}
		var t tensor
		dec := json.NewDecoder(strings.NewReader(string(v)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return ModelFile{}, errFile("safetensors", "tensor %s: %v", text.Quote(name, 64), err)
		}
		w, ok := safetensorsDtypes[t.Dtype]
		switch {
		case !ok:
			return ModelFile{}, errFile("safetensors", "tensor %s has unknown dtype %s", text.Quote(name, 64), text.Quote(t.Dtype, 64))
		case len(t.Shape) > MaxFileDims:
			return ModelFile{}, errFile("safetensors", "tensor %s has %d dimensions, over %d", text.Quote(name, 64), len(t.Shape), MaxFileDims)
		case len(t.Offsets) != 2 || t.Offsets[0] > t.Offsets[1]:
			return ModelFile{}, errFile("safetensors", "tensor %s: data_offsets %v are not [begin, end]", text.Quote(name, 64), t.Offsets)
		}
		elems := int64(1)
		for _, d := range t.Shape {
			var mok bool
			if elems, mok = checked.Mul(elems, int64(min(d, math.MaxInt64))); !mok || d > math.MaxInt64 {
				return ModelFile{}, errFile("safetensors", "tensor %s has more elements than int64 holds", text.Quote(name, 64))
			}
		}
		bitsN, ok := checked.Mul(elems, w)
		if !ok || bitsN%8 != 0 || uint64(bitsN/8) != t.Offsets[1]-t.Offsets[0] {
			return ModelFile{}, errFile("safetensors", "tensor %s: %d elements of %s do not fill data_offsets %v", text.Quote(name, 64), elems, t.Dtype, t.Offsets)
		}
		if packedPart(name) {
			packed[name] = packedTensor{t.Shape, elems}
		} else if params, ok = checked.Add(params, elems); !ok {
			return ModelFile{}, errFile("safetensors", "parameter count overflows int64")
		}
		stored += bitsN / 8 // bounded: the offsets are contiguous from 0 (checked below), each below 2^64
		spans = append(spans, span{t.Offsets[0], t.Offsets[1], name})
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].begin != spans[j].begin {
			return spans[i].begin < spans[j].begin
		}
		return spans[i].end < spans[j].end
	})
	next := uint64(0)
	for _, s := range spans {
		if s.begin != next {
			return ModelFile{}, errFile("safetensors", "tensor %s starts at %d, not at %d where the data before it ends", text.Quote(s.name, 64), s.begin, next)
		}
		next = s.end
	}
	if next > math.MaxInt64 || stored < 0 {
		return ModelFile{}, errFile("safetensors", "tensor data of %d bytes overflows int64", next)
	}
	if params, err = unpackedParams(params, packed); err != nil {
		return ModelFile{}, err
	}
	m := Model{Params: params, StoredBytes: Bytes(next)}
	return ModelFile{Model: m, Params: params, Weights: Bytes(next), Tensors: len(spans)}, nil
}

// packedTensor is a part of a GPTQ or AWQ layer: its shape and elements.
type packedTensor struct {
	shape []uint64
	elems int64
}

// packedSuffixes name the tensors of a GPTQ or AWQ quantized linear layer: the
// packed weights, their per-group zero points (packed too) and scales, and GPTQ's
// input-channel group index.
var packedSuffixes = [...]string{".qweight", ".qzeros", ".scales", ".g_idx"}

// packedPart reports whether a tensor's name is that of a GPTQ or AWQ layer part.
func packedPart(name string) bool {
	for _, s := range packedSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// unpackedParams adds to params the weights of each GPTQ or AWQ layer in packed,
// unpacked: both formats pack 32/bits weights into each I32 of qweight (GPTQ along
// the input, AWQ along the output) and pack qzeros along the output, whose scales
// are unpacked (AutoGPTQ's QuantLinear and AutoAWQ's WQLinear_GEMM), so a layer
// holds qweight's elements × scales' columns / qzeros' columns weights. The
// scales, zeros and group index are quantization state, not parameters. A
// qweight without both 2-D companions, or whose figures do not divide, is an
// error; a scales, qzeros or g_idx tensor without a qweight is an ordinary tensor.
func unpackedParams(params int64, packed map[string]packedTensor) (int64, error) {
	for name, q := range packed {
		prefix, ok := strings.CutSuffix(name, ".qweight")
		if !ok {
			if _, isLayer := packed[name[:strings.LastIndexByte(name, '.')]+".qweight"]; isLayer {
				continue
			}
			var add bool
			if params, add = checked.Add(params, q.elems); !add {
				return 0, errFile("safetensors", "parameter count overflows int64")
			}
			continue
		}
		sc, okS := packed[prefix+".scales"]
		zs, okZ := packed[prefix+".qzeros"]
		if !okS || !okZ || len(q.shape) != 2 || len(sc.shape) != 2 || len(zs.shape) != 2 || zs.shape[1] == 0 || sc.shape[1] <= zs.shape[1] {
			return 0, errFile("safetensors", "tensor %s: a packed qweight without the 2-D scales and qzeros that say how it is packed (GPTQ or AWQ); give the parameter count another way", text.Quote(name, 64))
		}
		n, ok := checked.Mul(q.elems, int64(min(sc.shape[1], math.MaxInt64)))
		if !ok || sc.shape[1] > math.MaxInt64 || n%int64(zs.shape[1]) != 0 {
			return 0, errFile("safetensors", "tensor %s: %d packed elements do not unpack to %d columns over %d", text.Quote(name, 64), q.elems, sc.shape[1], zs.shape[1])
		}
		if params, ok = checked.Add(params, n/int64(zs.shape[1])); !ok {
			return 0, errFile("safetensors", "parameter count overflows int64")
		}
	}
	return params, nil
}

// CombineFiles adds up the files of one model split over several (a sharded
// safetensors checkpoint, model-00001-of-00004.safetensors and the rest; a split
// GGUF): Params, Weights and Tensors are the sums, and the Model is the first
// file's with the summed Params and StoredBytes (a GGUF split keeps the metadata
// in its first file). No files, or sums that overflow int64, is an error wrapping
// ErrInvalid.
func CombineFiles(files ...ModelFile) (ModelFile, error) {
	if len(files) == 0 {
		return ModelFile{}, fmt.Errorf("sizing: no model files to combine: %w", ErrInvalid)
	}
	out := files[0]
	for _, f := range files[1:] {
		p, ok1 := checked.Add(out.Params, f.Params)
		w, ok2 := checked.Add(int64(out.Weights), int64(f.Weights))
		if !ok1 || !ok2 || out.Tensors > math.MaxInt-f.Tensors {
			return ModelFile{}, fmt.Errorf("sizing: combined model files overflow: %w", ErrInvalid)
		}
		out.Params, out.Weights, out.Tensors = p, Bytes(w), out.Tensors+f.Tensors
	}
	out.Model.Params, out.Model.StoredBytes = out.Params, out.Weights
	return out, nil
}
