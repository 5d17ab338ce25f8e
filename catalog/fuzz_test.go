package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/sizing"
)

func addFiles(f *testing.F, pattern string) {
	paths, _ := filepath.Glob(pattern)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
}

func FuzzParseSMI(f *testing.F) {
	addFiles(f, "testdata/smi_*.csv")
	addFiles(f, "testdata/smi/*")
	for _, s := range []string{"", "0, X, 1", "0, X, -1 MiB", "index, name, memory.total [MiB]\n", "0,,", "\x00\xff", "0, A, 99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		devs, err := ParseSMI(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if len(devs) == 0 {
			t.Fatal("no devices and no error")
		}
		seen := map[int]bool{}
		for _, d := range devs {
			if d.Memory <= 0 || d.Memory > 4*sizing.TiB || d.Index < 0 || d.Name == "" || seen[d.Index] {
				t.Fatalf("bad device %+v", d)
			}
			seen[d.Index] = true
		}
	})
}

func FuzzParseTopology(f *testing.F) {
	addFiles(f, "testdata/topo_*.txt")
	addFiles(f, "testdata/smi/topo_*.txt")
	for _, s := range []string{"", "\tGPU0\nGPU0\tX\n", "\tGPU0\tGPU1\nGPU0\tX\tNV999\nGPU1\tNV999\tX\n", "GPU99999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		topo, err := ParseTopology(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		n := topo.GPUs()
		if n < 1 {
			t.Fatal("no GPUs and no error")
		}
		for i := 0; i < n; i++ {
			if l, ok := topo.Link(i, i); !ok || l.Path != PathSelf {
				t.Fatalf("GPU%d not X to itself: %v", i, l)
			}
		}
		_ = topo.NVLinked(n, 0)
	})
}

func FuzzLoad(f *testing.F) {
	all, _ := json.Marshal(Default().Cards())
	f.Add(string(all))
	one, _ := json.Marshal(Default().Cards()[:1])
	f.Add(string(one))
	for _, s := range []string{"", "[]", "null", "[{}]", `[{"memory_mib":-1}]`, "[1,2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		cat, err := Load(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		for _, c := range cat.Cards() {
			if err := c.Validate(); err != nil {
				t.Fatalf("Load accepted an invalid card: %v", err)
			}
			got, err := cat.Lookup(c.ID)
			if err != nil || got.ID != c.ID {
				t.Fatalf("Lookup(%q) = %q, %v", c.ID, got.ID, err)
			}
		}
		// What Load accepts, Marshal writes back and Load accepts again.
		out, err := json.Marshal(cat.Cards())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(bytes.NewReader(out)); err != nil {
			t.Fatalf("reload: %v", err)
		}
	})
}
