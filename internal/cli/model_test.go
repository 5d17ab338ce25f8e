package cli

import (
	"testing"
)

func TestParseParams(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"7B", 7e9}, {"70b", 70e9}, {"1.5e9", 1.5e9}, {"7e9", 7e9}, {"7000000000", 7e9}, {"1.5B", 1.5e9},
		{"500M", 5e8}, {"125m", 1.25e8}, {"1.8T", 1.8e12}, {"8k", 8000}, {" 7B ", 7e9}, {"1", 1},
	} {
		if got, err := parseParams(tc.in); err != nil || got != tc.want {
			t.Errorf("parseParams(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "B", "seven", "-7B", "0", "0.4", "2000T", "1e16", "NaN", "Inf", "1e308T", "7 B", "7BB", "0x10"} {
		if got, err := parseParams(bad); err == nil {
			t.Errorf("parseParams(%q) = %d, want an error", bad, got)
		}
	}
}

func TestModelName(t *testing.T) {
	for in, want := range map[string]string{
		"Qwen2.5-7B/config.json":            "Qwen2.5-7B",
		"config.json":                       "config",
		"models/qwen2.5-7b.json":            "qwen2.5-7b",
		"model-00001-of-00004.safetensors":  "model",
		"dir/llama-3-8b.Q4_K_M.gguf":        "llama-3-8b.Q4_K_M",
		"model.safetensors":                 "model",
		"x/DeepSeek-V3-00001-of-00163.gguf": "DeepSeek-V3",
	} {
		if got := ModelName(in); got != want {
			t.Errorf("ModelName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParseParams checks that -params takes only what it says: a count from 1 to
// maxParams, or an error.
func FuzzParseParams(f *testing.F) {
	for _, s := range []string{"7B", "70b", "1.5e9", "500M", "1.8T", "0", "-1", "NaN", "1e308T", "1024", "1920x1080", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := parseParams(s); err == nil && (n < 1 || n > maxParams) {
			t.Fatalf("parseParams(%q) = %d", s, n)
		}
	})
}
