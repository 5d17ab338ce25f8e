package sizing

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/checked"
)

// ggmlType is one row of ggml's type table (type_traits in ggml/src/ggml.c):
// elements per block and bytes per block.
type ggmlType struct {
	name        string
	block, size int64
}

// ggmlTypeCount bounds the type numbers of ggmlTypes.
const ggmlTypeCount = 40

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

// ggufReader reads a GGUF header's little-endian values, counting what it read.
type ggufReader struct {
	what string // "GGUF", or the file's name, for messages
	r    *bufio.Reader
	n    int64
	err  error
	buf  [8]byte
}

func (g *ggufReader) read(n int) []byte {
	if g.err != nil {
		return g.buf[:n]
	}
	if g.n += int64(n); g.n > MaxHeaderBytes {
		g.err = errFile(g.what, "header over %d bytes", MaxHeaderBytes)
		return g.buf[:n]
	}
	if _, err := io.ReadFull(g.r, g.buf[:n]); err != nil {
		g.err = errFile(g.what, "header ends early after %d bytes", g.n-int64(n))
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
		g.err = errFile(g.what, "a length of %d bytes goes past the %d-byte header limit", n, MaxHeaderBytes)
		return
	}
	g.n += int64(n)
	if _, err := g.r.Discard(int(n)); err != nil {
		g.err = errFile(g.what, "header ends early after %d bytes", g.n-int64(n))
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
		g.err = errFile(g.what, "header ends early in a string")
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
			g.err = errFile(g.what, "arrays nested more than 2 deep")
			return 0, false, ""
		}
		et, n := g.u32(), g.u64()
		if g.err != nil {
			return 0, false, ""
		}
		if size, ok := ggufScalar[et]; ok {
			if hi, lo := bits.Mul64(n, size); hi != 0 || lo > MaxHeaderBytes {
				g.err = errFile(g.what, "an array of %d values goes past the %d-byte header limit", n, MaxHeaderBytes)
				return 0, false, ""
			}
			g.skip(n * size)
			return int64(n), false, ""
		}
		if n > MaxHeaderBytes/8 { // every string or array takes at least 8 bytes
			g.err = errFile(g.what, "an array of %d values goes past the %d-byte header limit", n, MaxHeaderBytes)
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
		g.err = errFile(g.what, "unknown metadata value type %d", typ)
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
// skipped unread. A file whose tensors hold no parameters (a vocabulary-only
// file) is an error; every failure wraps ErrInvalid.
func ReadGGUF(r io.Reader) (ModelFile, error) { return readGGUF(r, "GGUF") }

// readGGUF is ReadGGUF naming the file as what in its messages.
func readGGUF(r io.Reader, what string) (ModelFile, error) {
	g := &ggufReader{what: what, r: bufio.NewReaderSize(r, 64<<10)}
	if magic := g.read(4); g.err == nil && string(magic) != "GGUF" {
		return ModelFile{}, errFile(g.what, "magic %q is not GGUF", string(magic))
	}
	version := g.u32()
	if g.err == nil && version != 2 && version != 3 {
		return ModelFile{}, errFile(g.what, "version %d: want 2 or 3", version)
	}
	nt, nkv := g.u64(), g.u64()
	if g.err != nil {
		return ModelFile{}, g.err
	}
	if nt > MaxFileTensors {
		return ModelFile{}, errFile(g.what, "%d tensors, over the limit of %d", nt, MaxFileTensors)
	}
	if nkv > MaxHeaderBytes/12 { // a key-value pair takes at least 12 bytes
		return ModelFile{}, errFile(g.what, "%d metadata keys cannot fit the %d-byte header limit", nkv, MaxHeaderBytes)
	}
	arch, name := "", ""
	alignment, ftype := int64(32), int64(-1)
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
				return ModelFile{}, errFile(g.what, "general.alignment %d is not a power of two", v)
			}
			alignment = v
		case key == "tokenizer.ggml.tokens":
			vocab = v
		case key == "general.file_type" && isInt:
			ftype = v
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
	var byType [ggmlTypeCount]int64 // bytes of each tensor type, for a file without general.file_type
	type span struct{ begin, end int64 }
	spans := make([]span, 0, min(nt, 4096))
	for i := uint64(0); i < nt; i++ {
		g.skip(g.u64()) // the name
		nd := g.u32()
		if g.err != nil {
			return ModelFile{}, g.err
		}
		if nd == 0 || nd > 4 {
			return ModelFile{}, errFile(g.what, "tensor %d has %d dimensions: want 1 to 4", i, nd)
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
			return ModelFile{}, errFile(g.what, "tensor %d has unknown ggml type %d", i, typ)
		case !ok:
			return ModelFile{}, errFile(g.what, "tensor %d has more elements than int64 holds", i)
		case first%t.block != 0:
			return ModelFile{}, errFile(g.what, "tensor %d's first dimension %d is not a multiple of %s's block of %d", i, first, t.name, t.block)
		case off > math.MaxInt64 || int64(off)%alignment != 0:
			return ModelFile{}, errFile(g.what, "tensor %d's offset %d is not aligned to %d", i, off, alignment)
		}
		size, sok := checked.Mul(elems/t.block, t.size)
		end, eok := checked.Add(int64(off), size)
		params, ok = checked.Add(params, elems)
		total, tok := checked.Add(stored, size)
		if !sok || !eok || !ok || !tok {
			return ModelFile{}, errFile(g.what, "tensor sizes overflow int64")
		}
		stored = total
		byType[typ] += size // at most stored
		spans = append(spans, span{int64(off), end})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].begin < spans[j].begin })
	for i := 1; i < len(spans); i++ {
		if spans[i].begin < spans[i-1].end {
			return ModelFile{}, errFile(g.what, "tensor data at offset %d overlaps the tensor before it", spans[i].begin)
		}
	}
	if params == 0 {
		return ModelFile{}, noParams(g.what, int(nt))
	}
	m := Model{Name: name, Params: params, StoredBytes: Bytes(stored)}
	if m.Name == "" {
		m.Name = arch
	}
	m.StoredPrecision = ggufPrecision(ftype, &byType, params, stored, &m.Notes)
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
	return ModelFile{Model: m, Params: params, Weights: Bytes(stored), Tensors: int(nt), Precision: m.StoredPrecision}, nil
}

// ggufFileTypes names llama.cpp's file types by their general.file_type number
// (enum llama_ftype in llama.h; numbers 4 to 6 and 33 to 35 are types llama.cpp
// removed), with the Precision of each that has one.
var ggufFileTypes = map[int64]struct {
	name string
	p    Precision
}{
	0: {"F32", FP32}, 1: {"F16", FP16}, 2: {"Q4_0", Q4_0}, 3: {"Q4_1", 0}, 7: {"Q8_0", Q8_0},
	8: {"Q5_0", 0}, 9: {"Q5_1", 0}, 10: {"Q2_K", Q2_K}, 11: {"Q3_K_S", 0}, 12: {"Q3_K_M", Q3_K_M},
	13: {"Q3_K_L", 0}, 14: {"Q4_K_S", Q4_K_S}, 15: {"Q4_K_M", Q4_K_M}, 16: {"Q5_K_S", 0},
	17: {"Q5_K_M", Q5_K_M}, 18: {"Q6_K", Q6_K}, 19: {"IQ2_XXS", 0}, 20: {"IQ2_XS", 0},
	21: {"Q2_K_S", 0}, 22: {"IQ3_XS", 0}, 23: {"IQ3_XXS", 0}, 24: {"IQ1_S", 0}, 25: {"IQ4_NL", 0},
	26: {"IQ3_S", 0}, 27: {"IQ3_M", 0}, 28: {"IQ2_S", 0}, 29: {"IQ2_M", 0}, 30: {"IQ4_XS", 0},
	31: {"IQ1_M", 0}, 32: {"BF16", BF16}, 36: {"TQ1_0", 0}, 37: {"TQ2_0", 0},
	38: {"MXFP4_MOE", MXFP4}, 39: {"NVFP4", NVFP4}, 40: {"Q1_0", 0},
}

// ggufTensorPrecision gives the Precision of the ggml tensor types that are file
// types of their own, for a file that states no general.file_type.
var ggufTensorPrecision = map[uint32]Precision{0: FP32, 1: FP16, 2: Q4_0, 8: Q8_0, 30: BF16, 39: MXFP4}

// ggufPrecision is a GGUF file's stored precision: its general.file_type (ftype,
// -1 when absent) where that has a Precision of its own; without one, the tensor
// type holding most of the bytes (byType) when it is a file type of its own.
// Otherwise it is CustomBits of the file's exact bits per weight (stored bytes × 8
// / params), and a note names the type.
func ggufPrecision(ftype int64, byType *[ggmlTypeCount]int64, params, stored int64, notes *string) Precision {
	var what string
	if t, ok := ggufFileTypes[ftype]; ok {
		if t.p != 0 {
			return t.p
		}
		what = "GGUF file type " + t.name
	} else {
		most := 0
		for i, b := range byType {
			if b > byType[most] {
				most = i
			}
		}
		if p, ok := ggufTensorPrecision[uint32(most)]; ok && byType[most] > 0 {
			return p
		}
		what = "a GGUF file without a known general.file_type"
		if ty, ok := ggmlTypes[uint32(most)]; ok && byType[most] > 0 {
			what += " (most bytes in " + ty.name + " tensors)"
		}
	}
	if params <= 0 {
		addNote(notes, what+": the stored format is unknown")
		return 0
	}
	p, err := CustomBits(float64(stored) * 8 / float64(params))
	if err != nil {
		addNote(notes, what+": the stored format is unknown")
		return 0
	}
	addNote(notes, what+" has no precision of its own here: its exact "+strconv.FormatFloat(p.Bits(), 'f', 2, 64)+" bits per weight are used")
	return p
}
