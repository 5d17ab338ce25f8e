package main

import (
	"encoding/json"
	"testing"
)

// A render job is sized by the high end of its range with the headroom, and an
// offer is kept when its card holds that: SDXL at 1024² needs 12 GB (seed
// article 2: it fits a 24 GB card), which a T4's 15 GiB holds with 20% free and
// no card under 14 GiB does.
func TestRenderFits(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    int64 // the memory sized by, bytes
		minFree float64
	}{
		{[]string{"-render", "sdxl", "-size", "1024"}, 12e9, 0.2},
		{[]string{"-render", "sdxl"}, 12e9, 0.2},                        // the reference size is 1024²
		{[]string{"-render", "flux1", "-headroom", "0.1"}, 33e9, 0.1},   // all of FLUX.1 on the GPU
		{[]string{"-render", "sd15", "-size", "768x512"}, 13075e6, 0.2}, // 768² by the scaling rule
	} {
		r := runArgs(append([]string{"-json", "-limit", "-1"}, tc.args...)...)
		if r.code != exitOK || r.stderr != "" {
			t.Fatalf("run(%q) = exit %d, %q", tc.args, r.code, r.stderr)
		}
		var out struct {
			Memory struct {
				Bytes int64 `json:"memory_bytes"`
			} `json:"memory"`
			Options []struct {
				Capacity int64 `json:"capacity_bytes"`
				Usable   int64 `json:"usable_bytes"`
				Cost     struct {
					Total struct {
						Amount string `json:"amount"`
					} `json:"total"`
				} `json:"cost"`
			} `json:"options"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatal(err)
		}
		if out.Memory.Bytes != tc.want || len(out.Options) == 0 {
			t.Fatalf("run(%q): memory %d, %d options; want %d and some options", tc.args, out.Memory.Bytes, len(out.Options), tc.want)
		}
		for _, o := range out.Options {
			if o.Usable < tc.want || float64(o.Usable) > float64(o.Capacity)*(1-tc.minFree) {
				t.Errorf("run(%q): an option with %d usable of %d holds %d?", tc.args, o.Usable, o.Capacity, tc.want)
			}
		}
	}
}
