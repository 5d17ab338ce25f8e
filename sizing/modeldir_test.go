package sizing

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// shardHeader is a .safetensors file's header, without its data, holding one
// BF16 tensor of n elements.
func shardHeader(name string, n int64) []byte {
	return safetensorsFile(fmt.Sprintf(`{"%s":{"dtype":"BF16","shape":[%d],"data_offsets":[0,%d]}}`, name, n, 2*n))
}

// The stored Qwen2.5-7B config, split as its checkpoint is in two shards
// (7,615,616,512 parameters in all), and the index naming them.
func qwenFolder(t *testing.T) fstest.MapFS {
	t.Helper()
	config, err := os.ReadFile("models/qwen2.5-7b.json")
	if err != nil {
		t.Fatal(err)
	}
	const first = 3_807_808_256
	return fstest.MapFS{
		"config.json": {Data: config},
		"model.safetensors.index.json": {Data: []byte(`{"metadata":{"total_size":15231233024},"weight_map":` +
			`{"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}}`)},
		"model-00001-of-00002.safetensors": {Data: shardHeader("a", first)},
		"model-00002-of-00002.safetensors": {Data: shardHeader("b", 7_615_616_512-first)},
		"tokenizer.json":                   {Data: []byte(`{}`)},
		"sub/ignored.safetensors":          {Data: []byte("x")},
	}
}

func TestReadModelDir(t *testing.T) {
	f, err := ReadModelDir(qwenFolder(t))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Model
	if f.Params != 7_615_616_512 || f.Weights != 15_231_233_024 || f.Tensors != 2 || f.Precision != BF16 ||
		m.Layers != 28 || m.KVHeads != 4 || m.Params != f.Params || m.StoredBytes != f.Weights || m.StoredPrecision != BF16 {
		t.Errorf("folder read as %+v", f)
	}

	// Without the shards, the index gives the bytes and the config the count.
	dir := qwenFolder(t)
	delete(dir, "model-00001-of-00002.safetensors")
	delete(dir, "model-00002-of-00002.safetensors")
	f, err = ReadModelDir(dir)
	if err != nil || f.Weights != 15_231_233_024 || f.Params != 7_615_616_512 || f.Model.StoredBytes != f.Weights || !strings.Contains(f.Model.Notes, "total_size") {
		t.Errorf("index only: %+v, %v", f, err)
	}

	// A config alone.
	delete(dir, "model.safetensors.index.json")
	if f, err = ReadModelDir(dir); err != nil || f.Params != 7_615_616_512 || f.Weights != 0 {
		t.Errorf("config only: %+v, %v", f, err)
	}

	// Shards alone: the count, no architecture.
	dir = qwenFolder(t)
	delete(dir, "config.json")
	delete(dir, "model.safetensors.index.json")
	if f, err = ReadModelDir(dir); err != nil || f.Params != 7_615_616_512 || f.Model.hasArch() {
		t.Errorf("shards only: %+v, %v", f, err)
	}

	// A GGUF file, a split one, and a vision projector beside it.
	meta := map[string]uint32{"block_count": 2, "embedding_length": 256, "attention.head_count": 4, "feed_forward_length": 512,
		"vocab_size": 1000, "general.file_type": 15}
	gguf := ggufHeader("llama", meta, []ggufTensor{{12, []uint64{256, 512}}})
	part := ggufHeader("llama", nil, []ggufTensor{{0, []uint64{256}}})
	f, err = ReadModelDir(fstest.MapFS{"m-Q4_K_M-00001-of-00002.gguf": {Data: gguf}, "m-Q4_K_M-00002-of-00002.gguf": {Data: part},
		"mmproj-m-f16.gguf": {Data: part}})
	if err != nil || f.Params != 131072+256 || f.Precision != Q4_K_M || f.Model.Layers != 2 || !strings.Contains(f.Model.Notes, "mmproj-m-f16.gguf") {
		t.Errorf("split GGUF: %+v, %v", f, err)
	}
}

// A folder that holds no model, or two, is an error naming the files.
func TestReadModelDirBad(t *testing.T) {
	gguf := ggufHeader("llama", nil, []ggufTensor{{0, []uint64{256}}})
	withOut := func(drop ...string) fstest.MapFS {
		d := qwenFolder(t)
		for _, n := range drop {
			delete(d, n)
		}
		return d
	}
	with := func(name string, data []byte, drop ...string) fstest.MapFS {
		d := withOut(drop...)
		d[name] = &fstest.MapFile{Data: data}
		return d
	}
	for _, tc := range []struct {
		name string
		dir  fs.FS
		want string
	}{
		{"empty", fstest.MapFS{"README.md": {Data: []byte("hi")}}, "holds no config.json"},
		{"gguf and safetensors", with("m.Q4_K_M.gguf", gguf), "both GGUF"},
		{"two quantizations", fstest.MapFS{"m.Q4_K_M.gguf": {Data: gguf}, "m.Q8_0.gguf": {Data: gguf}}, "GGUF files of more than one model"},
		{"a part missing", fstest.MapFS{"m-00001-of-00003.gguf": {Data: gguf}, "m-00003-of-00003.gguf": {Data: gguf}}, "not part 2 of 00003"},
		{"two shard sets", with("model-00001-of-00003.safetensors", shardHeader("c", 4), "model.safetensors.index.json"), "safetensors files of more than one model"},
		{"two shard sets with the index", with("model-00001-of-00003.safetensors", shardHeader("c", 4)), "not among the shards model.safetensors.index.json names"},
		{"a shard not in the index", with("extra.safetensors", shardHeader("c", 4), "model-00002-of-00002.safetensors"), "not among the shards"},
		{"a shard missing", withOut("model-00002-of-00002.safetensors"), "names 2 shards, the folder holds 1"},
		{"total_size", with("model.safetensors.index.json", []byte(`{"metadata":{"total_size":1000},"weight_map":{"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}}`)), "says 1000"},
		{"index escapes", with("model.safetensors.index.json", []byte(`{"metadata":{"total_size":1000},"weight_map":{"a":"../x.safetensors"}}`), "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"), "not a file of the folder"},
		{"another model's shards", with("model-00002-of-00002.safetensors", shardHeader("b", 70e9)), "the shards of another model"},
		{"config and GGUF disagree", fstest.MapFS{"config.json": qwenFolder(t)["config.json"],
			"m.gguf": {Data: ggufHeader("llama", map[string]uint32{"block_count": 2, "embedding_length": 256, "attention.head_count": 4, "feed_forward_length": 512, "vocab_size": 1000}, []ggufTensor{{0, []uint64{256, 512}}})}}, "config.json describes 28 layers of 3584, the GGUF file 2 of 256"},
		{"a broken shard named", with("model-00002-of-00002.safetensors", []byte("short")), `"model-00002-of-00002.safetensors": no 8-byte header length`},
		{"a tokenizer config", fstest.MapFS{"config.json": {Data: []byte(`{"tokenizer_class":"LlamaTokenizer"}`)}}, "not a model's config.json"},
	} {
		_, err := ReadModelDir(tc.dir)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrInvalid naming %q", tc.name, err, tc.want)
		}
	}
}

// dataFS serves files whose bytes past a header length fail the test when read:
// ReadModelDir reads headers only.
type dataFS struct {
	t     *testing.T
	files map[string][]byte
}

func (d dataFS) Open(name string) (fs.File, error) {
	if name == "." {
		return fstest.MapFS{"model-00001-of-00001.safetensors": {Data: []byte{}}, "config.json": {Data: []byte{}}}.Open(".")
	}
	b, ok := d.files[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	var r io.Reader = strings.NewReader(string(b))
	if strings.HasSuffix(name, ".safetensors") {
		r = io.MultiReader(r, failReader{d.t, name}) // the tensor data
	}
	return &dataFile{t: d.t, r: r}, nil
}

type dataFile struct {
	t *testing.T
	r io.Reader
}

func (f *dataFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *dataFile) Close() error               { return nil }
func (f *dataFile) Stat() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

type failReader struct {
	t    *testing.T
	name string
}

func (r failReader) Read([]byte) (int, error) {
	r.t.Errorf("%s: read past its header", r.name)
	return 0, io.EOF
}

func TestReadModelDirHeadersOnly(t *testing.T) {
	config, _ := os.ReadFile("models/qwen2.5-7b.json")
	start := time.Now()
	f, err := ReadModelDir(dataFS{t, map[string][]byte{
		"config.json":                      config,
		"model-00001-of-00001.safetensors": shardHeader("w", 7_615_616_512),
	}})
	if err != nil || f.Params != 7_615_616_512 || time.Since(start) > time.Minute {
		t.Errorf("%+v, %v", f, err)
	}
}

// FuzzReadModelDir feeds an index and a shard of any bytes beside a config:
// a model or an ErrInvalid, never a panic.
func FuzzReadModelDir(f *testing.F) {
	f.Add([]byte(`{"metadata":{"total_size":8},"weight_map":{"a":"model-00001-of-00001.safetensors"}}`), shardHeader("a", 4))
	f.Add([]byte(`{"metadata":{"total_size":"8"},"weight_map":{}}`), []byte("x"))
	config := []byte(`{"model_type":"llama","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100}`)
	f.Fuzz(func(t *testing.T, index, shard []byte) {
		m, err := ReadModelDir(fstest.MapFS{"config.json": {Data: config}, "model.safetensors.index.json": {Data: index},
			"model-00001-of-00001.safetensors": {Data: shard}})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if m.Params <= 0 || m.Weights < 0 || m.Model.Validate() != nil {
			t.Fatalf("bad result %+v", m)
		}
	})
}
