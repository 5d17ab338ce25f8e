package sizing

import (
	"fmt"
	"math"
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
	// Precision is the weights' stored format (also in Model.StoredPrecision): a
	// GGUF file's type (Q4_K_M, not a count of bits), or the safetensors format
	// holding most of the bytes (BF16 matrices with F32 norms are BF16; packed
	// GPTQ and AWQ layers are GPTQ4 and AWQ4). Zero: unknown, with Model.Notes
	// saying why.
	Precision Precision
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

// noParams is the error for a file whose tensors hold no parameters: a
// vocabulary-only GGUF, a safetensors header of {}, tensors with a zero dimension.
func noParams(format string, tensors int) error {
	if tensors == 0 {
		return errFile(format, "no tensors: a model's weights file holds its tensors")
	}
	return errFile(format, "%s holding no parameters", text.Count(tensors, "tensor", "tensors"))
}

// errFile wraps a reader's problem in ErrInvalid with the format's name.
func errFile(format, msg string, args ...any) error {
	return fmt.Errorf("sizing: %s: "+msg+": %w", append(append([]any{format}, args...), ErrInvalid)...)
}

// formatBytes adds up the bytes a file stores in each format: a Precision, or a
// dtype that is no format of its own (U8, I32, ...).
type formatBytes struct {
	by    map[Precision]int64
	other map[string]int64
}

func (f *formatBytes) add(p Precision, n int64) {
	if f.by == nil {
		f.by = map[Precision]int64{}
	}
	f.by[p] += n // at most the file's bytes, which fit int64
}

func (f *formatBytes) addDtype(dtype string, n int64) {
	if p, ok := safetensorsPrecision[dtype]; ok {
		f.add(p, n)
		return
	}
	if f.other == nil {
		f.other = map[string]int64{}
	}
	f.other[dtype] += n
}

// most returns the format holding the most bytes, the lower-numbered on a tie; a
// dtype of no format of its own holding the most leaves it zero with a note.
func (f *formatBytes) most(notes *string) Precision {
	var best Precision
	for p, n := range f.by {
		if best == 0 || n > f.by[best] || n == f.by[best] && p < best {
			best = p
		}
	}
	dtype := ""
	for d, n := range f.other {
		if n > f.other[dtype] || n == f.other[dtype] && d < dtype {
			dtype = d
		}
	}
	if dtype != "" && f.other[dtype] > f.by[best] {
		addNote(notes, "most of the weights' bytes are "+dtype+" tensors, whose format gpuplan cannot tell from the header: the stored format is unknown")
		return 0
	}
	return best
}

// CombineFiles adds up the files of one model split over several (a sharded
// safetensors checkpoint, model-00001-of-00004.safetensors and the rest; a split
// GGUF): Params, Weights and Tensors are the sums, and the Model is the first
// file's with the summed Params and StoredBytes (a GGUF split keeps the metadata
// in its first file) and every file's notes. Precision is the one whose files
// hold the most bytes (each file counted whole under its own Precision). No
// files, a file with a negative Params, Weights or Tensors (which no reader
// returns), or sums that overflow int64, is an error wrapping ErrInvalid.
func CombineFiles(files ...ModelFile) (ModelFile, error) {
	if len(files) == 0 {
		return ModelFile{}, fmt.Errorf("sizing: no model files to combine: %w", ErrInvalid)
	}
	for i, f := range files {
		if f.Params < 0 || f.Weights < 0 || f.Tensors < 0 {
			return ModelFile{}, fmt.Errorf("sizing: model file %d: negative Params %d, Weights %d or Tensors %d: %w",
				i+1, f.Params, int64(f.Weights), f.Tensors, ErrInvalid)
		}
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
	var tally formatBytes
	for _, f := range files {
		if f.Precision == 0 {
			tally.addDtype("unknown", int64(f.Weights))
		} else {
			tally.add(f.Precision, int64(f.Weights))
		}
		for _, n := range strings.Split(f.Model.Notes, "; ") {
			addNote(&out.Model.Notes, n)
		}
	}
	out.Precision = tally.most(new(string)) // each file's notes say why it is unknown
	out.Model.Params, out.Model.StoredBytes, out.Model.StoredPrecision = out.Params, out.Weights, out.Precision
	return out, nil
}
