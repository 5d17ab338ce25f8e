package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	args := []string{"-account", "testdata/account.json", "-sessions", "testdata/sessions.csv", "-outages", "testdata/outages.csv",
		"-from", "2026-01-01T00:00:00Z", "-to", "2026-02-01T00:00:00Z"}
	var text, j bytes.Buffer
	if err := run(&text, args); err != nil {
		t.Fatal(err)
	}
	if err := run(&j, append(args, "-json")); err != nil {
		t.Fatal(err)
	}
	// -o writes to the file what would be printed.
	file := filepath.Join(t.TempDir(), "invoice.json")
	var none bytes.Buffer
	if err := run(&none, append(args, "-json", "-o", file)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, j.Bytes()) || none.Len() != 0 {
		t.Errorf("-json -o wrote %q to the file (%v) and %q to stdout; want the JSON in the file only", b, err, none.String())
	}
	for golden, got := range map[string][]byte{"testdata/invoice.golden": text.Bytes(), "testdata/invoice.golden.json": j.Bytes()} {
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("run(%q) output differs from %s:\ngot:\n%s\nwant:\n%s", args, golden, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("start,end,gpus\n2026-01-02T00:00:00Z,2026-01-01T00:00:00Z,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"-account", "testdata/account.json", "-from", "2026-01-01T00:00:00Z", "-to", "2026-02-01T00:00:00Z"}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"session ends before it starts", append(base, "-sessions", bad), "session 0"},
		{"no sessions flag", base, "usage"},
		{"bad period", append(append([]string{}, base[:4]...), "-to", "soon", "-sessions", "testdata/sessions.csv"), "-to"},
		{"missing file", append(base, "-sessions", filepath.Join(dir, "none.csv")), "none.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(&bytes.Buffer{}, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run(%q) error = %v; want one mentioning %q", tc.args, err, tc.want)
			}
		})
	}
}

// -h prints what the command does, its exit statuses and every flag, as the other
// commands do, and a bad flag prints nothing to standard output.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}); err != flag.ErrHelp {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: invoice -account FILE", "Exit status: 0", "2 usage error", "-sessions string"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h text lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(&out, []string{"-bogus"}); err == nil || out.Len() != 0 {
		t.Errorf("run(-bogus) = %v with %q on standard output, want an error and nothing written", err, out.String())
	}
}
