package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/cli"
)

// qwenConfig is Qwen2.5-7B's config.json as sizing stores it (its source is in
// sizing/models/SOURCES.md); its checkpoint holds 7,615,616,512 parameters.
const (
	qwenConfig = "../../sizing/models/qwen2.5-7b.json"
	qwenParams = 7_615_616_512
)

// writeSafetensors writes the header of a .safetensors file holding one BF16
// tensor of n elements, and none of its data: the command reads headers only, so
// a file without its tensor data plans as the whole file would.
func writeSafetensors(t *testing.T, dir, name string, n int64) string {
	t.Helper()
	h := fmt.Sprintf(`{"__metadata__":{"format":"pt"},"w":{"dtype":"BF16","shape":[%d],"data_offsets":[0,%d]}}`, n, 2*n)
	b := append(binary.LittleEndian.AppendUint64(nil, uint64(len(h))), h...)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeGGUF writes the header of a GGUF v3 file (and no tensor data): a llama
// architecture with Llama-3.2-1B's shape (its config.json: 16 layers of 2048, 32
// heads, 8 KV heads, FFN 8192, vocabulary 128256, context 131072) and two
// tensors, a Q4_K matrix of 2048×524288 (4,194,304 blocks of 256 weights in 144
// bytes each) and an F32 vector of 2048; its general.file_type is 15, Q4_K_M.
func writeGGUF(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	meta := []struct {
		key string
		v   uint32
	}{{"block_count", 16}, {"embedding_length", 2048}, {"attention.head_count", 32}, {"attention.head_count_kv", 8},
		{"feed_forward_length", 8192}, {"context_length", 131072}, {"vocab_size", 128256}}
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(2))             // tensors
	w(uint64(len(meta) + 3)) // metadata keys
	str("general.file_type")
	w(uint32(4)) // uint32
	w(uint32(15))
	str("general.architecture")
	w(uint32(8)) // string
	str("llama")
	str("general.name")
	w(uint32(8))
	str("tiny-llama")
	for _, m := range meta {
		str("llama." + m.key)
		w(uint32(4)) // uint32
		w(m.v)
	}
	str("blk.0.w")
	w(uint32(2))
	w(uint64(2048))
	w(uint64(524288))
	w(uint32(12)) // Q4_K: 256 weights in 144 bytes
	w(uint64(0))
	str("blk.0.norm")
	w(uint32(1))
	w(uint64(2048))
	w(uint32(0))                         // F32
	w(uint64(2048 * 524288 / 256 * 144)) // right after the matrix, 32-byte aligned
	path := filepath.Join(dir, "tiny.gguf")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// jsonModel is the model of a -json run's job.
type jsonModel struct {
	Name        string `json:"name"`
	Params      int64  `json:"params"`
	Layers      int    `json:"layers"`
	KVHeads     int    `json:"kv_heads"`
	StoredBytes int64  `json:"stored_bytes"`
}

func planModel(t *testing.T, args ...string) (jsonModel, result) {
	t.Helper()
	r := runArgs(append([]string{"-json", "-task", "inference", "-tokens", "0", "-limit", "1"}, args...)...)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("run(%q) = exit %d, stderr %q, stdout %q", args, r.code, r.stderr, r.stdout)
	}
	var out struct {
		Job struct {
			Model jsonModel `json:"model"`
		} `json:"job"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out.Job.Model, r
}

// Shards of one model add up, given in one flag or several; with -config the
// config gives the architecture and the files the exact count and bytes.
func TestModelFiles(t *testing.T) {
	dir := t.TempDir()
	const first = 3_807_808_256 // the shards of qwenParams, as a checkpoint splits them
	a := writeSafetensors(t, dir, "model-00001-of-00002.safetensors", first)
	b := writeSafetensors(t, dir, "model-00002-of-00002.safetensors", qwenParams-first)
	gguf := writeGGUF(t, dir)
	const ggufParams = 2048*524288 + 2048
	const ggufBytes = 2048*524288/256*144 + 2048*4
	for _, tc := range []struct {
		name string
		args []string
		want jsonModel
	}{
		{"config", []string{"-config", qwenConfig}, jsonModel{Name: "qwen2.5-7b", Params: qwenParams, Layers: 28, KVHeads: 4}}, // -json fills in the count
		{"shards in one flag", []string{"-safetensors", a + "," + b}, jsonModel{Name: "model", Params: qwenParams, StoredBytes: 2 * qwenParams}},
		{"shards in two flags", []string{"-safetensors", a, "-safetensors", b}, jsonModel{Name: "model", Params: qwenParams, StoredBytes: 2 * qwenParams}},
		{"config and shards", []string{"-config", qwenConfig, "-safetensors", a + "," + b},
			jsonModel{Name: "qwen2.5-7b", Params: qwenParams, Layers: 28, KVHeads: 4, StoredBytes: 2 * qwenParams}},
		{"gguf", []string{"-gguf", gguf}, jsonModel{Name: "tiny-llama", Params: ggufParams, Layers: 16, KVHeads: 8, StoredBytes: ggufBytes}},
		{"config and gguf", []string{"-config", qwenConfig, "-gguf", gguf},
			jsonModel{Name: "qwen2.5-7b", Params: ggufParams, Layers: 28, KVHeads: 4, StoredBytes: ggufBytes}},
		{"params", []string{"-params", "7B"}, jsonModel{Name: "custom", Params: 7e9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := planModel(t, tc.args...)
			if got != tc.want {
				t.Errorf("model %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Inference plans a model read from files in the format they store, unless
// -precision says otherwise, and the report says which and why; training, and a
// preset, keep -precision's default.
func TestFilePrecision(t *testing.T) {
	dir := t.TempDir()
	gguf := writeGGUF(t, dir)
	for _, tc := range []struct {
		args []string
		job  string // the start of the Job line
		note string // "" for none
	}{
		{[]string{"-gguf", gguf, "-task", "inference"}, "inference in Q4_K_M", "Model:  weights in Q4_K_M, the format the model's files store (-precision overrides)\n"},
		{[]string{"-gguf", gguf, "-task", "inference", "-precision", "bf16"}, "inference in BF16", "Model:  weights planned in BF16 (-precision); the model's files store Q4_K_M\n"},
		{[]string{"-gguf", gguf, "-serve-rps", "1"}, "", "         weights in Q4_K_M, the format"},
		{[]string{"-gguf", gguf, "-task", "lora"}, "lora in BF16", ""},
		// DeepSeek-R1's stored FP8 config: the preset keeps BF16 and says what is stored.
		{[]string{"-model", "deepseek-r1", "-task", "inference", "-tokens", "0"}, "inference in BF16", "Model:  weights planned in BF16 (-precision); the model's files store FP8\n"},
		{[]string{"-config", "../../sizing/models/deepseek-r1.json", "-task", "inference", "-tokens", "0"}, "inference in FP8", "Model:  weights in FP8, the format"},
	} {
		r := runArgs(append(tc.args, "-limit", "1")...)
		if r.stderr != "" {
			t.Fatalf("run(%q) = exit %d, %q", tc.args, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, tc.job) || !strings.Contains(r.stdout, tc.note) || tc.note == "" && strings.Contains(r.stdout, "weights in") {
			t.Errorf("run(%q):\n%s\nwant %q and the note %q", tc.args, r.stdout, tc.job, tc.note)
		}
	}
}

// A model without its architecture says so and names the flag that makes it
// exact; a model with it does not.
func TestApproxNote(t *testing.T) {
	dir := t.TempDir()
	st := writeSafetensors(t, dir, "w.safetensors", 1e9)
	for _, tc := range []struct {
		args []string
		note string // "" for none
	}{
		{[]string{"-params", "7B"}, "Model:  -params gives the parameter count only; terms that need the architecture assume\n"},
		{[]string{"-safetensors", st}, "Model:  the weight file gives the parameter count only;"},
		{[]string{"-params", "7B", "-serve-rps", "2"}, "         -params gives the parameter count only;"},
		{[]string{"-config", qwenConfig}, ""},
		{[]string{"-config", qwenConfig, "-safetensors", st}, ""},
		{nil, ""},
	} {
		r := runArgs(append(tc.args, "-limit", "1")...)
		if r.code != exitOK {
			t.Fatalf("run(%q) = exit %d, %q", tc.args, r.code, r.stderr)
		}
		if has := strings.Contains(r.stdout, "\nModel:  "); tc.note == "" && has || tc.note != "" && !strings.Contains(r.stdout, tc.note) {
			t.Errorf("run(%q):\n%s\nwant note %q", tc.args, r.stdout, tc.note)
		}
	}
}

// FuzzParseSize checks that -size takes only what it says: pixels, a square or
// width x height, and a usage error for anything else.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"1024", "1920x1080", "0x512", "x", "", "7B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if w, h, err := parseSize(s); err == nil && (w < 1 || h < 1) || err != nil && !errors.Is(err, cli.ErrUsage) {
			t.Fatalf("parseSize(%q) = %d, %d, %v", s, w, h, err)
		}
	})
}

// A downloaded model's folder, given to -model, -config or -safetensors, plans
// as its config and shards say.
func TestModelFolder(t *testing.T) {
	const dir = "testdata/qwen2.5-7b"
	want := jsonModel{Name: "qwen2.5-7b", Params: qwenParams, Layers: 28, KVHeads: 4, StoredBytes: 2 * qwenParams}
	for _, flag := range []string{"-model", "-config", "-safetensors"} {
		got, _ := planModel(t, flag, dir)
		if got != want {
			t.Errorf("%s %s: model %+v, want %+v", flag, dir, got, want)
		}
	}
	r := runArgs("-model", dir, "-task", "inference", "-limit", "1")
	if r.code != exitOK || !strings.Contains(r.stdout, "qwen2.5-7b (7.62B parameters), inference in BF16") {
		t.Errorf("-model %s: exit %d, %q\n%s", dir, r.code, r.stderr, r.stdout)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"-model", "testdata/no-such-folder"}},
		{[]string{"-model", "testdata"}}, // a folder without a model
	} {
		r := runArgs(tc.args...)
		if r.code == exitOK || !strings.Contains(r.stderr, tc.args[1]) {
			t.Errorf("run(%q) = exit %d, stderr %q; want a failure naming the folder", tc.args, r.code, r.stderr)
		}
	}
}
