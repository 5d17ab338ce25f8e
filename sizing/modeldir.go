package sizing

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ReadModelDir reads a downloaded model's folder, as the Hugging Face hub and
// llama.cpp lay them out, reading only what describes the weights, never the
// weights themselves:
//   - config.json, for the architecture (ReadConfig);
//   - the .safetensors files' headers (ReadSafetensors), or, without them,
//     model.safetensors.index.json, whose total_size gives the weights' bytes
//     (the parameter count is then the config's);
//   - or the .gguf file, or the parts of one split GGUF (ReadGGUF; a vision
//     projector, mmproj*.gguf, is left out and said).
//
// The files' exact count, bytes and stored precision go on the config's
// architecture. Only the folder's top level is read, and memory stays a small
// multiple of the headers whatever the weights' size. No model in the folder,
// weights of two models (safetensors beside GGUF, GGUF files of two quantizations,
// shards of two sets or of another index), shards missing from a complete set, or
// a config whose shape the files contradict is an error wrapping ErrInvalid that
// names the files.
func ReadModelDir(fsys fs.FS) (ModelFile, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return ModelFile{}, fmt.Errorf("sizing: model folder: %w", err)
	}
	var config, index string
	var shards, ggufs, skipped []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		lower := strings.ToLower(name)
		switch {
		case name == "config.json":
			config = name
		case name == "model.safetensors.index.json":
			index = name
		case strings.HasSuffix(lower, ".safetensors"):
			shards = append(shards, name)
		case strings.HasSuffix(lower, ".gguf") && strings.HasPrefix(lower, "mmproj"):
			skipped = append(skipped, name)
		case strings.HasSuffix(lower, ".gguf"):
			ggufs = append(ggufs, name)
		}
	}
	var out ModelFile
	var m Model
	if config != "" {
		if m, err = readFSFile(fsys, config, readConfig); err != nil {
			return ModelFile{}, err
		}
	}
	switch {
	case len(ggufs) > 0 && (len(shards) > 0 || index != ""):
		return ModelFile{}, fmt.Errorf("sizing: model folder holds both GGUF (%s) and safetensors weights (%s): two models; give one: %w",
			quote(ggufs[0]), quote(firstOf(shards, index)), ErrInvalid)
	case len(ggufs) > 0:
		if out, err = readGGUFParts(fsys, ggufs); err != nil {
			return ModelFile{}, err
		}
	case len(shards) > 0:
		if out, err = readShards(fsys, shards, index); err != nil {
			return ModelFile{}, err
		}
	case index != "":
		if out, err = readIndex(fsys, index, m); err != nil {
			return ModelFile{}, err
		}
	case config == "":
		return ModelFile{}, fmt.Errorf("sizing: model folder holds no config.json, .safetensors, model.safetensors.index.json or .gguf file: %w", ErrInvalid)
	default:
		p := m.ParamCount()
		return ModelFile{Model: m, Params: p, Precision: m.StoredPrecision}, nil
	}
	for _, s := range skipped {
		addNote(&out.Model.Notes, s+" (a vision projector) is left out")
	}
	if config == "" {
		return out, nil
	}
	// The config gives the architecture; the files the exact count and bytes.
	if f := out.Model; f.hasArch() && (f.Layers != m.Layers || f.Hidden != m.Hidden) {
		return ModelFile{}, fmt.Errorf("sizing: model folder: config.json describes %d layers of %d, the GGUF file %d of %d: two models: %w",
			m.Layers, m.Hidden, f.Layers, f.Hidden, ErrInvalid)
	}
	if c := m.ParamCount(); c > 0 && out.Params > 0 && (out.Params > c+c/5 || out.Params < c-c/5) {
		return ModelFile{}, fmt.Errorf("sizing: model folder: the weight files hold %d parameters, config.json describes %d: the files of another model: %w",
			out.Params, c, ErrInvalid)
	}
	notes := out.Model.Notes
	prec := out.Precision
	m.Params, m.StoredBytes = out.Params, out.Weights
	if prec != 0 {
		m.StoredPrecision = prec // the files, as stored, over what the config states
	} else {
		out.Precision = m.StoredPrecision
	}
	for _, n := range strings.Split(notes, "; ") {
		addNote(&m.Notes, n)
	}
	out.Model = m
	return out, nil
}

// MaxIndexBytes bounds a model.safetensors.index.json: 64 MiB, several times
// the largest published (DeepSeek-V3's, about 9 MB, names 91,000 tensors).
const MaxIndexBytes = 64 << 20

// shardName is a shard of a split checkpoint: its stem, number and count
// ("model-00001-of-00004.safetensors", "Qwen3-8B-Q4_K_M-00001-of-00002.gguf").
var shardName = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.[A-Za-z]+$`)

// readShards reads the safetensors shards' headers; with an index, the shards
// must be the ones it names, all of them.
func readShards(fsys fs.FS, shards []string, index string) (ModelFile, error) {
	var total int64 = -1
	if index != "" {
		files, size, err := readIndexFile(fsys, index)
		if err != nil {
			return ModelFile{}, err
		}
		for _, s := range shards {
			if !files[s] {
				return ModelFile{}, fmt.Errorf("sizing: model folder: %s is not among the shards model.safetensors.index.json names: the shards of another model: %w", quote(s), ErrInvalid)
			}
		}
		if len(files) != len(shards) {
			return ModelFile{}, fmt.Errorf("sizing: model folder: model.safetensors.index.json names %d shards, the folder holds %d: a download not finished?: %w", len(files), len(shards), ErrInvalid)
		}
		total = size
	}
	if err := oneSet(shards, "safetensors"); err != nil {
		return ModelFile{}, err
	}
	parts := make([]ModelFile, len(shards))
	for i, s := range shards {
		var err error
		if parts[i], err = readFSFile(fsys, s, readSafetensors); err != nil {
			return ModelFile{}, err
		}
	}
	out, err := CombineFiles(parts...)
	if err != nil {
		return ModelFile{}, err
	}
	if total >= 0 && int64(out.Weights) != total {
		return ModelFile{}, fmt.Errorf("sizing: model folder: the shards hold %d bytes, model.safetensors.index.json says %d: the shards of another model: %w", int64(out.Weights), total, ErrInvalid)
	}
	return out, nil
}

// readIndex is a folder holding the index and not the shards: the weights' bytes
// are its total_size, the parameters the config's.
func readIndex(fsys fs.FS, index string, m Model) (ModelFile, error) {
	_, size, err := readIndexFile(fsys, index)
	if err != nil {
		return ModelFile{}, err
	}
	if !m.hasArch() {
		return ModelFile{}, fmt.Errorf("sizing: model folder holds model.safetensors.index.json without the shards or a config.json: no parameter count: %w", ErrInvalid)
	}
	m.StoredBytes = Bytes(size)
	addNote(&m.Notes, "the shards are not in the folder: the weights' bytes are the index's total_size, the parameter count the config's")
	return ModelFile{Model: m, Params: m.ParamCount(), Weights: Bytes(size), Tensors: 0, Precision: m.StoredPrecision}, nil
}

// readIndexFile reads a model.safetensors.index.json: the shard files its
// weight_map names, and its total_size.
func readIndexFile(fsys fs.FS, name string) (map[string]bool, int64, error) {
	data, err := readAllFS(fsys, name, MaxIndexBytes)
	if err != nil {
		return nil, 0, err
	}
	var idx struct {
		Metadata struct {
			TotalSize json.Number `json:"total_size"`
		} `json:"metadata"`
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, 0, fmt.Errorf("sizing: %s: %s: %w", name, reason(err), ErrInvalid)
	}
	size, err := strconv.ParseInt(idx.Metadata.TotalSize.String(), 10, 64)
	if err != nil || size <= 0 {
		return nil, 0, fmt.Errorf("sizing: %s: metadata.total_size %s is not a positive byte count: %w", name, quote(idx.Metadata.TotalSize.String()), ErrInvalid)
	}
	files := map[string]bool{}
	for _, f := range idx.WeightMap {
		if f == "" || f != path.Base(f) || !fs.ValidPath(f) {
			return nil, 0, fmt.Errorf("sizing: %s: weight_map names %s, not a file of the folder: %w", name, quote(f), ErrInvalid)
		}
		files[f] = true
	}
	if len(files) == 0 {
		return nil, 0, fmt.Errorf("sizing: %s: an empty weight_map: %w", name, ErrInvalid)
	}
	return files, size, nil
}

// readGGUFParts reads one GGUF file, or the parts of one split GGUF.
func readGGUFParts(fsys fs.FS, files []string) (ModelFile, error) {
	if len(files) > 1 {
		if err := oneSet(files, "GGUF"); err != nil {
			return ModelFile{}, err
		}
	}
	parts := make([]ModelFile, len(files))
	for i, f := range files {
		var err error
		if parts[i], err = readFSFile(fsys, f, readGGUF); err != nil {
			return ModelFile{}, err
		}
	}
	return CombineFiles(parts...) // the metadata is in the first part
}

// oneSet checks that files, sorted, are the parts of one split checkpoint: one
// file, or every part NAME-0000i-of-0000n of one name and count.
func oneSet(files []string, format string) error {
	sort.Strings(files)
	if len(files) == 1 {
		return nil
	}
	first := shardName.FindStringSubmatch(files[0])
	if first == nil {
		return fmt.Errorf("sizing: model folder holds %s files of more than one model (%s, %s): give one: %w", format, quote(files[0]), quote(files[1]), ErrInvalid)
	}
	for i, f := range files {
		m := shardName.FindStringSubmatch(f)
		if m == nil || m[1] != first[1] || m[3] != first[3] {
			return fmt.Errorf("sizing: model folder holds %s files of more than one model (%s, %s): give one: %w", format, quote(files[0]), quote(f), ErrInvalid)
		}
		if n, _ := strconv.Atoi(m[2]); n != i+1 {
			return fmt.Errorf("sizing: model folder: %s is not part %d of %s: a part is missing: %w", quote(f), i+1, m[3], ErrInvalid)
		}
	}
	if n, _ := strconv.Atoi(first[3]); n != len(files) {
		return fmt.Errorf("sizing: model folder holds %d of the %d parts of %s: a download not finished?: %w", len(files), n, quote(first[1]), ErrInvalid)
	}
	return nil
}

// readFSFile opens name in fsys and reads it with read, which names the file in
// its messages.
func readFSFile[T any](fsys fs.FS, name string, read func(io.Reader, string) (T, error)) (T, error) {
	var zero T
	f, err := fsys.Open(name)
	if err != nil {
		return zero, fmt.Errorf("sizing: model folder: %w", err)
	}
	defer f.Close()
	return read(f, quote(name))
}

// readAllFS reads name whole, refusing one over limit bytes.
func readAllFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("sizing: model folder: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("sizing: %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("sizing: %s is over %d bytes: %w", name, limit, ErrInvalid)
	}
	return data, nil
}

func firstOf(list []string, or string) string {
	if len(list) > 0 {
		return list[0]
	}
	return or
}

// readConfig is ReadConfig for readFSFile: its messages name config.json already.
func readConfig(r io.Reader, _ string) (Model, error) { return ReadConfig(r) }
