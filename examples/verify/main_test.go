package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr error
	}{
		{name: "default", args: nil},
		{name: "bad", args: []string{"-sample", "bad"}, wantErr: errMismatch},
		{name: "files", args: []string{"-card", "A100 SXM4 80GB", "-gpus", "4",
			"-smi", "testdata/bad_smi.csv", "-topo", "none"}, wantErr: errMismatch},
		{name: "more_than_ordered", args: []string{"-gpus", "4"}},
		// One problem: the verdict is singular.
		{name: "fewer_than_ordered", args: []string{"-gpus", "9"}, wantErr: errMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(&out, tt.args)
			if !errors.Is(err, tt.wantErr) || (err != nil) != (tt.wantErr != nil) {
				t.Fatalf("run(%q) error = %v, want %v", tt.args, err, tt.wantErr)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("run(%q) output differs from %s:\ngot:\n%s\nwant:\n%s", tt.args, golden, got, want)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-gpus", "0"},
		{"-card", "A100"}, // ambiguous: 40 or 80 GB, PCIe or SXM4
		{"-card", "no such card"},
		{"-sample", "ugly"},
		{"-nosuchflag"},
		{"extra"},
	} {
		var out bytes.Buffer
		if err := run(&out, args); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) error = %v, want a usage error", args, err)
		}
	}
}

func TestMissingFile(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, []string{"-smi", "testdata/does-not-exist.csv"})
	if err == nil || errors.Is(err, errUsage) {
		t.Errorf("run with a missing file: error = %v, want a file error", err)
	}
}

// TestHelp checks that -h says what the command does and its exit statuses.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	help := out.String()
	for _, want := range []string{
		"Usage: verify [flags]",
		"Checks a rented GPU machine against the order",
		"nvidia-smi topo -m > topo.txt",
		"Exit status: 0 delivered as advertised",
		"1 the machine does not match the\norder",
		"2 usage error",
		"-smi file",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("-h output lacks %q:\n%s", want, help)
		}
	}
}
