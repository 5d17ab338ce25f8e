package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./examples/plan -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("run() output mismatch (-want +got):\n%s", diff)
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"default", nil},
		{"70b_inference_month", []string{"-model", "llama-2-70b", "-task", "inference", "-precision", "bf16", "-context", "4096", "-batch", "8", "-tokens", "0", "-usage", "720h", "-top", "5"}},
		{"13b_fp16_no_fit", []string{"-model", "llama-2-13b", "-task", "inference", "-precision", "fp16", "-context", "4096", "-batch", "1", "-offers", "testdata/only_4090.csv"}},
		{"8b_deadline", []string{"-model", "llama-3-8b", "-task", "training", "-tokens", "2e9", "-deadline", "24h", "-top", "5"}},
		{"daily_sessions", []string{"-task", "qlora", "-per-day", "6h", "-days", "20", "-top", "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(&out, tc.args); err != nil {
				t.Fatalf("run(%q): %v", tc.args, err)
			}
			golden(t, tc.name, out.Bytes())
		})
	}
}

func TestJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-json", "-top", "2"}); err != nil {
		t.Fatal(err)
	}
	var opts []map[string]any
	if err := json.Unmarshal(out.Bytes(), &opts); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if len(opts) != 2 {
		t.Fatalf("%d options, want 2", len(opts))
	}
	cost := opts[0]["cost"].(map[string]any)["total"].(map[string]any)
	if _, ok := cost["amount"].(string); !ok || cost["currency"] != "CNY" {
		t.Errorf("cost total %v: want an exact string amount in CNY", cost)
	}
	golden(t, "json_top2", out.Bytes())
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-context", "x"},
		{"extra"},
		{"-params", "-5"},
		{"-usage", "1h", "-per-day", "2h", "-days", "3"},
		{"-budget", "lots"},
	} {
		var out bytes.Buffer
		if err := run(&out, args); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want a usage error", args, err)
		}
	}
	for _, args := range [][]string{
		{"-model", "llama-9"},
		{"-task", "dance"},
		{"-precision", "fp7"},
		{"-offers", "testdata/missing.json"},
	} {
		var out bytes.Buffer
		if err := run(&out, args); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}
