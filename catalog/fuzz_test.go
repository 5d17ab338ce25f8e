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
	// Seeds stay small (one card each, about 1.5 KB), so that the fuzzer mutates
	// rather than shrinks: a card of the first round, and one with an FP4 rate,
	// its formats and an NVLink domain.
	for _, id := range []string{"v100-sxm2-16gb", "gb200-nvl72-186gb"} {
		c, _ := Default().Lookup(id)
		one, _ := json.Marshal([]Card{c})
		f.Add(string(one))
	}
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

func FuzzParseDmon(f *testing.F) {
	addFiles(f, "testdata/dmon_*.txt")
	for _, s := range []string{"", "# gpu sm\n0 50\n", "# gpu sm mem fb\n0 - - -\n", "# gpu sm\n# Idx %\n99999999 100\n", "0 1 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		uses, err := ParseDmon(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			if len(err.Error()) > 1024 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if len(uses) == 0 || len(uses) > maxDevices {
			t.Fatalf("%d GPUs and no error", len(uses))
		}
		for i, u := range uses {
			if i > 0 && uses[i-1].Index >= u.Index {
				t.Fatalf("GPUs out of order: %+v", uses)
			}
			if u.Samples < 1 || u.SMPercent < -1 || u.SMPercent > 100 || u.MemPercent < -1 || u.MemPercent > 100 ||
				u.MemoryUsed < -1 || u.MemoryUsed > 4*sizing.TiB {
				t.Fatalf("bad GPU %+v", u)
			}
		}
	})
}

func FuzzParseAllReducePerf(f *testing.F) {
	addFiles(f, "testdata/nccl_*.txt")
	for _, s := range []string{"", "8 2 float sum -1 1 0 0 0 1 0 0 0\n", "8 2 float sum 1 0 0 N/A 1 0 0 N/A\n", "# Avg bus bandwidth : 1e400\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		run, err := ParseAllReducePerf(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			if len(err.Error()) > 1024 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if len(run.Results) == 0 || len(run.Results) > maxNCCLRows || len(run.Ranks) > maxNCCLRows {
			t.Fatalf("%d rows, %d ranks", len(run.Results), len(run.Ranks))
		}
		for _, r := range run.Results {
			if r.Size < 0 || r.BusBandwidth < 0 || r.InPlace < 0 || r.Wrong < -1 || r.BusBandwidth > run.PeakBusBandwidth() {
				t.Fatalf("bad row %+v", r)
			}
		}
	})
}
