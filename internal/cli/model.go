package cli

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// ModelFlags are the flags that name a model, as plan and serve read them:
// -model (a preset, or a downloaded model's folder), -config (a config.json or
// its folder), -gguf and -safetensors (weight files: only their headers are
// read), and -params (a size alone).
type ModelFlags struct {
	Model, Config, Params string
	GGUF, Safetensors     FileList
}

// Define registers the flags on fs, -model defaulting to preset, their words in l.
func (o *ModelFlags) Define(fs *flag.FlagSet, preset string, l msg.Lang) {
	fs.StringVar(&o.Model, "model", preset, l.T("cli.flag.model"))
	fs.StringVar(&o.Config, "config", "", l.T("cli.flag.config"))
	fs.Var(&o.GGUF, "gguf", l.T("cli.flag.gguf"))
	fs.Var(&o.Safetensors, "safetensors", l.T("cli.flag.safetensors"))
	fs.StringVar(&o.Params, "params", "", l.T("cli.flag.params"))
}

// FileList is a flag that may be given several times, each time one path or
// several separated by commas: -safetensors a.safetensors,b.safetensors.
type FileList []string

func (f *FileList) String() string { return strings.Join(*f, ",") }

func (f *FileList) Set(s string) error {
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

// Read builds the model the flags name (set holds the flags given on the command
// line), in l for its errors.
// -params stands alone; -gguf and -safetensors exclude each other; -config gives
// the architecture, and with files the files give the exact parameter count and
// stored bytes. Only the files' headers are read, never the tensor data.
func (o ModelFlags) Read(set map[string]bool, l msg.Lang) (sizing.Model, error) {
	files := len(o.GGUF) > 0 || len(o.Safetensors) > 0
	switch {
	case set["model"] && (o.Params != "" || o.Config != "" || files):
		return sizing.Model{}, Usagef("%s", l.T("cli.model.both"))
	case o.Params != "" && (o.Config != "" || files):
		return sizing.Model{}, Usagef("%s", l.T("cli.model.params"))
	case len(o.GGUF) > 0 && len(o.Safetensors) > 0:
		return sizing.Model{}, Usagef("%s", l.T("cli.model.files"))
	}
	if o.Params != "" {
		n, err := parseParams(o.Params)
		if err != nil {
			return sizing.Model{}, Usagef("-params %s: %v", text.Quote(o.Params, 64), err)
		}
		return sizing.Model{Name: "custom", Params: n}, nil
	}
	if o.Config == "" && !files {
		if IsDir(o.Model) {
			f, err := readDir("-model", o.Model)
			return f.Model, err
		}
		m, err := sizing.Preset(o.Model)
		switch {
		case err == nil:
			return m, nil
		case strings.ContainsAny(o.Model, `/\`):
			return m, Usagef("-model %s: %s", text.Quote(o.Model, 64), l.T("cli.model.nofolder"))
		case strings.Contains(err.Error(), "did you mean"):
			// sizing.Preset names the closest presets: the command's words, then its.
			return m, Usagef("-model %s: %s; %v", text.Quote(o.Model, 64), l.T("cli.model.nopreset"), err)
		}
		return m, Usagef("-model %s: %s", text.Quote(o.Model, 64), l.T("cli.model.nopreset"))
	}
	var m sizing.Model
	switch {
	case o.Config != "" && IsDir(o.Config):
		f, err := readDir("-config", o.Config)
		if err == nil && !f.Model.HasArchitecture() {
			err = Usagef("-config %s: %s", text.Quote(o.Config, 64), l.T("cli.model.noconfig"))
		}
		if err != nil {
			return m, err
		}
		m = f.Model
	case o.Config != "":
		var err error
		if m, err = readFile("-config", o.Config, sizing.ReadConfig); err != nil {
			return m, err
		}
		m.Name = ModelName(o.Config)
	}
	if !files {
		return m, nil
	}
	flagName, paths, read := "-gguf", o.GGUF, sizing.ReadGGUF
	if len(o.Safetensors) > 0 {
		flagName, paths, read = "-safetensors", o.Safetensors, sizing.ReadSafetensors
	}
	if len(paths) == 1 && IsDir(paths[0]) && o.Config == "" {
		f, err := readDir(flagName, paths[0])
		return f.Model, err
	}
	parts := make([]sizing.ModelFile, len(paths))
	for i, p := range paths {
		var err error
		if parts[i], err = readFile(flagName, p, read); err != nil {
			return m, err
		}
	}
	all, err := sizing.CombineFiles(parts...)
	if err != nil {
		return m, fmt.Errorf("%s: %w", flagName, err)
	}
	if o.Config == "" {
		m = all.Model
		if m.Name == "" {
			m.Name = ModelName(paths[0])
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

// IsDir reports whether path names an existing directory: -model takes a
// model's folder as well as a preset.
func IsDir(path string) bool {
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

// readFile opens path, which flagName names, and reads it with read; the error
// names the flag and the path, and one that cannot be opened is a usage error.
func readFile[T any](flagName, path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := Open(strings.TrimPrefix(flagName, "-"), path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("%s %s: %w", flagName, path, err)
	}
	return v, nil
}

// modelName names a model after its file: "Qwen2.5-7B" for
// "Qwen2.5-7B/config.json", "qwen2.5-7b" for "qwen2.5-7b.json", "model" for
// "model-00001-of-00004.safetensors", "llama-3-8b.Q4_K_M" for
// "llama-3-8b.Q4_K_M.gguf".
func ModelName(path string) string {
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

// Precision is the inference precision when -precision is not given: the
// format the model's own files store (sizing.Model.StoredPrecision) for a model
// read from files (-config, -gguf, -safetensors, a folder), when that is a named precision
// of 16 bits or fewer; otherwise def. A checkpoint stored wider (FP32) is served
// at 16 bits, as serving engines load it by default (vLLM's dtype "auto").
func (o ModelFlags) Precision(m sizing.Model, def sizing.Precision) sizing.Precision {
	p := m.StoredPrecision
	if o.Config == "" && len(o.GGUF) == 0 && len(o.Safetensors) == 0 && !IsDir(o.Model) {
		return def // a preset: -precision's default stands
	}
	if p.Bits() > 16 || !slices.Contains(sizing.Precisions(), p) {
		return def
	}
	return p
}
