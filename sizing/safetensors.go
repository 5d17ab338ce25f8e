package sizing

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/internal/checked"
)

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
// with the packed weights of MXFP4, NVFP4, GPTQ and AWQ layers unpacked and the
// scales, zeros and group indexes of quantized layers left out (countTensors),
// and Weights the sum of the bytes; Precision is the format holding most of them.
// A JSON file (an index given in place of a shard) is named as such. A file holds only tensors, so the Model has Params and
// StoredBytes set and no architecture: give a config.json to ReadConfig for that.
// A header whose tensors hold no parameters ({}, or only empty tensors) is an
// error wrapping ErrInvalid.
// A model split over several files adds up with CombineFiles.
func ReadSafetensors(r io.Reader) (ModelFile, error) { return readSafetensors(r, "safetensors") }

// readSafetensors is ReadSafetensors naming the file as what in its messages.
func readSafetensors(r io.Reader, what string) (ModelFile, error) {
	var lenBuf [8]byte
	if _, err := io.ReadFull(r, lenBuf[:]); err != nil {
		return ModelFile{}, errFile(what, "no 8-byte header length")
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxHeaderBytes && lenBuf[0] == '{' {
		return ModelFile{}, errFile(what, "this is JSON, not a .safetensors file (a model.safetensors.index.json lists the shards: give the shards, or the model's folder)")
	}
	if n > MaxHeaderBytes {
		return ModelFile{}, errFile(what, "header of %d bytes, over the limit of %d", n, MaxHeaderBytes)
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil || uint64(len(data)) != n {
		return ModelFile{}, errFile(what, "header of %d bytes ends after %d", n, len(data))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return ModelFile{}, errFile(what, "header: %s", reason(err))
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
	tensors := make(map[string]stTensor, len(raw))
	var stored int64
	for name, v := range raw {
		if name == "__metadata__" {
			continue
		}
		if len(spans) >= MaxFileTensors {
			return ModelFile{}, errFile(what, "over %d tensors", MaxFileTensors)
		}
		var t tensor
		dec := json.NewDecoder(strings.NewReader(string(v)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return ModelFile{}, errFile(what, "tensor %s: %s", quote(name), reason(err))
		}
		w, ok := safetensorsDtypes[t.Dtype]
		switch {
		case !ok:
			return ModelFile{}, errFile(what, "tensor %s has unknown dtype %s", quote(name), quote(t.Dtype))
		case len(t.Shape) > MaxFileDims:
			return ModelFile{}, errFile(what, "tensor %s has %d dimensions, over %d", quote(name), len(t.Shape), MaxFileDims)
		case len(t.Offsets) != 2:
			return ModelFile{}, errFile(what, "tensor %s: data_offsets has %d values, not [begin, end]", quote(name), len(t.Offsets))
		case t.Offsets[0] > t.Offsets[1]:
			return ModelFile{}, errFile(what, "tensor %s: data_offsets %v are not [begin, end]", quote(name), t.Offsets)
		}
		elems := int64(1)
		for _, d := range t.Shape {
			var mok bool
			if elems, mok = checked.Mul(elems, int64(min(d, math.MaxInt64))); !mok || d > math.MaxInt64 {
				return ModelFile{}, errFile(what, "tensor %s has more elements than int64 holds", quote(name))
			}
		}
		bitsN, ok := checked.Mul(elems, w)
		if !ok || bitsN%8 != 0 || uint64(bitsN/8) != t.Offsets[1]-t.Offsets[0] {
			return ModelFile{}, errFile(what, "tensor %s: %d elements of %s do not fill data_offsets %v", quote(name), elems, t.Dtype, t.Offsets)
		}
		tensors[name] = stTensor{t.Dtype, t.Shape, elems, bitsN / 8}
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
			return ModelFile{}, errFile(what, "tensor %s starts at %d, not at %d where the data before it ends", quote(s.name), s.begin, next)
		}
		next = s.end
	}
	if next > math.MaxInt64 || stored < 0 {
		return ModelFile{}, errFile(what, "tensor data of %d bytes overflows int64", next)
	}
	var tally formatBytes
	params, err := countTensors(tensors, &tally, what)
	if err != nil {
		return ModelFile{}, err
	}
	if params == 0 {
		return ModelFile{}, noParams(what, len(spans))
	}
	m := Model{Params: params, StoredBytes: Bytes(next)}
	m.StoredPrecision = tally.most(&m.Notes)
	return ModelFile{Model: m, Params: params, Weights: Bytes(next), Tensors: len(spans), Precision: m.StoredPrecision}, nil
}

// safetensorsPrecision gives the Precision of the safetensors dtypes that store
// weights in a format of their own.
var safetensorsPrecision = map[string]Precision{
	"F64": FP64, "F32": FP32, "F16": FP16, "BF16": BF16, "F8_E4M3": FP8, "F8_E5M2": FP8, "I8": INT8,
}

// stTensor is a tensor of a safetensors header: its dtype, shape, elements and
// bytes.
type stTensor struct {
	dtype        string
	shape        []uint64
	elems, bytes int64
}

// countTensors returns the parameters the tensors hold and adds their bytes to
// tally by format. Quantized layers count their weights unpacked and their
// scales as quantization state, not parameters, their bytes going to their
// format:
//   - MXFP4 (gpt-oss's experts): NAME_blocks, U8 [..., K/32, 16], two E2M1 values
//     a byte, beside NAME_scales, U8 [..., K/32], one E8M0 scale per 32 values;
//   - NVFP4 (NVIDIA ModelOpt and compressed-tensors checkpoints): NAME.weight or
//     NAME.weight_packed, U8 [out, in/2], beside NAME.weight_scale, F8_E4M3
//     [out, in/16], and the per-tensor FP32 scales NAME.weight_scale_2,
//     NAME.weight_global_scale, NAME.input_scale and NAME.input_global_scale;
//   - FP8 (DeepSeek-V3's block scales, and per-tensor ones): NAME.weight in
//     F8_E4M3 or F8_E5M2 beside NAME.weight_scale_inv, NAME.weight_scale or
//     NAME.input_scale;
//   - GPTQ and AWQ: see unpackedParams.
//
// Every other tensor counts its elements.
func countTensors(tensors map[string]stTensor, tally *formatBytes, what string) (int64, error) {
	var params int64
	state := map[string]bool{} // scales counted with their layer
	add := func(n int64) bool {
		var ok bool
		params, ok = checked.Add(params, n)
		return ok
	}
	for name, t := range tensors {
		var p Precision
		var scales []string
		switch {
		case t.dtype == "U8" && strings.HasSuffix(name, "_blocks"):
			s, ok := tensors[strings.TrimSuffix(name, "_blocks")+"_scales"]
			if ok && s.dtype == "U8" && len(t.shape) == len(s.shape)+1 && t.shape[len(t.shape)-1] == 16 && slices.Equal(t.shape[:len(s.shape)], s.shape) {
				p, scales = MXFP4, []string{strings.TrimSuffix(name, "_blocks") + "_scales"}
			}
		case t.dtype == "U8" && (strings.HasSuffix(name, ".weight") || strings.HasSuffix(name, ".weight_packed")):
			base := name[:strings.LastIndexByte(name, '.')]
			s, ok := tensors[base+".weight_scale"]
			if ok && s.dtype == "F8_E4M3" && len(s.shape) == len(t.shape) && len(t.shape) > 0 && s.shape[len(s.shape)-1]*8 == t.shape[len(t.shape)-1] {
				p = NVFP4
				scales = []string{base + ".weight_scale", base + ".weight_scale_2", base + ".weight_global_scale", base + ".input_scale", base + ".input_global_scale"}
			}
		case (t.dtype == "F8_E4M3" || t.dtype == "F8_E5M2") && strings.HasSuffix(name, ".weight"):
			base := strings.TrimSuffix(name, ".weight")
			p, scales = FP8, []string{base + ".weight_scale_inv", base + ".weight_scale", base + ".input_scale"}
		}
		if p == 0 {
			continue
		}
		elems, bytes := t.elems, t.bytes
		if p != FP8 {
			elems *= 2 // two 4-bit values a byte; t.elems is at most the bytes, far below 2^62
		}
		for _, s := range scales {
			if st, ok := tensors[s]; ok && !state[s] {
				state[s] = true
				bytes += st.bytes // each under the file's size
			}
		}
		state[name] = true
		if !add(elems) {
			return 0, errFile(what, "parameter count overflows int64")
		}
		tally.add(p, bytes)
	}
	packed := map[string]stTensor{} // the parts of GPTQ and AWQ layers
	for name, t := range tensors {
		switch {
		case state[name]:
		case packedPart(name):
			packed[name] = t
		case !add(t.elems):
			return 0, errFile(what, "parameter count overflows int64")
		default:
			tally.addDtype(t.dtype, t.bytes)
		}
	}
	return unpackedParams(params, packed, tally, what)
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
// holds qweight's elements × scales' columns / qzeros' columns weights, of
// 32 × qzeros' columns / scales' columns bits. The scales, zeros and group index
// are quantization state, not parameters. A qweight without both 2-D companions,
// or whose figures do not divide, is an error; a scales, qzeros or g_idx tensor
// without a qweight is an ordinary tensor. Each layer's bytes go to tally as
// GPTQ4 (qweight's columns those of scales) or AWQ4 (those of qzeros) at 4 bits,
// and as CustomBits of the layer's own bits per weight otherwise.
func unpackedParams(params int64, packed map[string]stTensor, tally *formatBytes, what string) (int64, error) {
	for name, q := range packed {
		prefix, ok := strings.CutSuffix(name, ".qweight")
		if !ok {
			if _, isLayer := packed[name[:strings.LastIndexByte(name, '.')]+".qweight"]; isLayer {
				continue
			}
			var add bool
			if params, add = checked.Add(params, q.elems); !add {
				return 0, errFile(what, "parameter count overflows int64")
			}
			tally.addDtype(q.dtype, q.bytes)
			continue
		}
		sc, okS := packed[prefix+".scales"]
		zs, okZ := packed[prefix+".qzeros"]
		if !okS || !okZ || len(q.shape) != 2 || len(sc.shape) != 2 || len(zs.shape) != 2 || zs.shape[1] == 0 || sc.shape[1] <= zs.shape[1] {
			return 0, errFile(what, "tensor %s: a packed qweight without the 2-D scales and qzeros that say how it is packed (GPTQ or AWQ); give the parameter count another way", quote(name))
		}
		n, ok := checked.Mul(q.elems, int64(min(sc.shape[1], math.MaxInt64)))
		if !ok || sc.shape[1] > math.MaxInt64 || n%int64(zs.shape[1]) != 0 {
			return 0, errFile(what, "tensor %s: %d packed elements do not unpack to %d columns over %d", quote(name), q.elems, sc.shape[1], zs.shape[1])
		}
		n /= int64(zs.shape[1])
		if params, ok = checked.Add(params, n); !ok {
			return 0, errFile(what, "parameter count overflows int64")
		}
		layer := q.bytes + sc.bytes + zs.bytes + packed[prefix+".g_idx"].bytes // each under the file's size
		var p Precision
		switch bits := 32 * zs.shape[1]; {
		case bits == 4*sc.shape[1] && q.shape[1] == sc.shape[1]:
			p = GPTQ4
		case bits == 4*sc.shape[1] && q.shape[1] == zs.shape[1]:
			p = AWQ4
		case n > 0:
			p, _ = CustomBits(float64(layer) * 8 / float64(n)) // zero when out of range
		}
		if p == 0 {
			tally.addDtype(q.dtype, layer)
		} else {
			tally.add(p, layer)
		}
	}
	return params, nil
}
