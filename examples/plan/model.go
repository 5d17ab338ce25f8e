package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// fileList is a flag that may be given several times, each time one path or
// several separated by commas: -safetensors a.safetensors,b.safetensors.
type fileList []string

func (f *fileList) String() string { return strings.Join(*f, ",") }

func (f *fileList) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			return fmt.Errorf("empty file name")
		}
		*f = append(*f, p)
	}
	return nil
}

// maxParams bounds -params: a thousand trillion parameters, far past any model.
const maxParams = 1e15

// parseParams reads -params: a count (input.Count) from 1 to maxParams.
func parseParams(s string) (int64, error) {
	f, err := input.Count(s)
	if err != nil {
		return 0, err
	}
	if !(f >= 1) || f > maxParams {
		return 0, fmt.Errorf("want from 1 to 1e15 parameters")
	}
	return int64(math.Round(f)), nil
}

// model builds the model from -model, -params, -config, -gguf and -safetensors.
// -params stands alone; -gguf and -safetensors exclude each other; -config gives
// the architecture, and with files the files give the exact parameter count and
// stored bytes. Only the files' headers are read, never the tensor data.
func (o options) buildModel() (sizing.Model, error) {
	files := len(o.gguf) > 0 || len(o.safetensors) > 0
	switch {
	case o.set["model"] && (o.params != "" || o.config != "" || files):
		return sizing.Model{}, cli.Usagef("give -model or a model's -params, -config or files, not both")
	case o.params != "" && (o.config != "" || files):
		return sizing.Model{}, cli.Usagef("-params is for a model known by its size alone; -config and the weight files give the exact count")
	case len(o.gguf) > 0 && len(o.safetensors) > 0:
		return sizing.Model{}, cli.Usagef("give -gguf or -safetensors files of one model, not both")
	}
	if o.params != "" {
		n, err := parseParams(o.params)
		if err != nil {
			return sizing.Model{}, cli.Usagef("-params %s: %v", text.Quote(o.params, 64), err)
		}
		return sizing.Model{Name: "custom", Params: n}, nil
	}
	if o.config == "" && !files {
		if isDir(o.model) {
			f, err := readDir("-model", o.model)
			return f.Model, err
		}
		m, err := sizing.Preset(o.model)
		switch {
		case err == nil:
			return m, nil
		case strings.ContainsAny(o.model, `/\`):
			return m, cli.Usagef("-model %s: no such folder, and not a preset (-model list prints them)", text.Quote(o.model, 64))
		}
		return m, cli.Usagef("-model %s: not a preset (-model list prints them; a model's folder, or -config with its config.json, reads another)", text.Quote(o.model, 64))
	}
	var m sizing.Model
	switch {
	case o.config != "" && isDir(o.config):
		f, err := readDir("-config", o.config)
		if err == nil && !f.Model.HasArchitecture() {
			err = cli.Usagef("-config %s: the folder holds no config.json", text.Quote(o.config, 64))
		}
		if err != nil {
			return m, err
		}
		m = f.Model
	case o.config != "":
		var err error
		if m, err = readFile(o.config, sizing.ReadConfig); err != nil {
			return m, fmt.Errorf("-config %w", err)
		}
		m.Name = modelName(o.config)
	}
	if !files {
		return m, nil
	}
	flagName, paths, read := "-gguf", o.gguf, sizing.ReadGGUF
	if len(o.safetensors) > 0 {
		flagName, paths, read = "-safetensors", o.safetensors, sizing.ReadSafetensors
	}
	if len(paths) == 1 && isDir(paths[0]) && o.config == "" {
		f, err := readDir(flagName, paths[0])
		return f.Model, err
	}
	parts := make([]sizing.ModelFile, len(paths))
	for i, p := range paths {
		var err error
		if parts[i], err = readFile(p, read); err != nil {
			return m, fmt.Errorf("%s %w", flagName, err)
		}
	}
	all, err := sizing.CombineFiles(parts...)
	if err != nil {
		return m, fmt.Errorf("%s: %w", flagName, err)
	}
	if o.config == "" {
		m = all.Model
		if m.Name == "" {
			m.Name = modelName(paths[0])
		}
		return m, nil
	}
	m.Params, m.StoredBytes = all.Params, all.Weights
	if all.Precision != 0 {
		m.StoredPrecision = all.Precision // the files, as stored, over what the config says
	}
	if all.Model.Notes != "" {
		m.Notes = strings.TrimPrefix(m.Notes+"; "+all.Model.Notes, "; ")
	}
	return m, nil
}

// isDir reports whether path names an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// readDir reads a model's folder (sizing.ReadModelDir) and names the model after
// the folder.
func readDir(flagName, dir string) (sizing.ModelFile, error) {
	f, err := sizing.ReadModelDir(os.DirFS(dir))
	if err != nil {
		return f, fmt.Errorf("%s %s: %w", flagName, dir, err)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		f.Model.Name = filepath.Base(abs)
	}
	return f, nil
}

// readFile opens path and reads it with read; the error starts with the path.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err // names the path
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// modelName names a model after its file: "Qwen2.5-7B" for
// "Qwen2.5-7B/config.json", "qwen2.5-7b" for "qwen2.5-7b.json", "model" for
// "model-00001-of-00004.safetensors", "llama-3-8b.Q4_K_M" for
// "llama-3-8b.Q4_K_M.gguf".
func modelName(path string) string {
	if filepath.Base(path) == "config.json" {
		if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) {
			return dir
		}
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if i := strings.Index(base, "-00001-of-"); i > 0 {
		base = base[:i]
	}
	return base
}

// filePrecision is the inference precision when -precision is not given: the
// format the model's own files store (sizing.Model.StoredPrecision) for a model
// read from files (-config, -gguf, -safetensors, a folder), when that is a named precision
// of 16 bits or fewer; otherwise def. A checkpoint stored wider (FP32) is served
// at 16 bits, as serving engines load it by default (vLLM's dtype "auto").
func (o options) filePrecision(m sizing.Model, def sizing.Precision) sizing.Precision {
	p := m.StoredPrecision
	if o.config == "" && len(o.gguf) == 0 && len(o.safetensors) == 0 && !isDir(o.model) {
		return def // a preset: -precision's default stands
	}
	if p.Bits() > 16 || !slices.Contains(sizing.Precisions(), p) {
		return def
	}
	return p
}

// modelNotes are the lines the report prints about the model: what is
// approximated (approxNote), which weight precision inference plans and why, and
// what reading the model's files assumed (sizing.Model.Notes).
func modelNotes(m sizing.Model, w sizing.Workload) []string {
	var notes []string
	if n := approxNote(m); n != "" {
		notes = append(notes, n)
	}
	if s := m.StoredPrecision; s != 0 && w.Task == sizing.Inference {
		switch {
		case s == w.Precision && s.Bits() < 16: // a 16-bit format is -precision's default anyway
			notes = append(notes, fmt.Sprintf("weights in %v, the format the model's files store (-precision overrides)", s))
		case s.Bits() != w.Precision.Bits():
			notes = append(notes, fmt.Sprintf("weights planned in %v (-precision); the model's files store %v", w.Precision, s))
		}
	}
	if m.Notes != "" {
		notes = append(notes, m.Notes)
	}
	return notes
}

// approxNote says, for a model without its architecture, what gave it (-params,
// or weight files: a safetensors header holds tensors, not the architecture),
// what is assumed, and the flag that makes it exact; "" for a model with one.
func approxNote(m sizing.Model) string {
	if m.HasArchitecture() {
		return ""
	}
	source := "-params"
	if m.StoredBytes > 0 {
		source = "the weight file"
	}
	return source + " gives the parameter count only; terms that need the architecture assume grouped-query attention with 8 KV heads (-config with the model's config.json makes them exact)"
}
