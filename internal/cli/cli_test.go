package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestExit(t *testing.T) {
	lib := errors.New("plan: offers in CNY (line 2) and USD (line 3): give exchange rates to rank them together: currency mismatch")
	for _, tt := range []struct {
		name   string
		err    error
		status int
		stderr string
	}{
		{"none", nil, 0, ""},
		{"help", fmt.Errorf("parse: %w", flag.ErrHelp), 0, ""},
		{"usage", Usagef("-size %q: want pixels", "x"), 2, "plan: -size \"x\": want pixels\nplan: -h lists the flags\n"},
		// A library error that starts with the command's name is not named twice.
		{"library", lib, 1, "plan: offers in CNY (line 2) and USD (line 3): give exchange rates to rank them together: currency mismatch\n"},
		{"wrapped", fmt.Errorf("%w (rank them together with -rates)", lib), 1,
			"plan: offers in CNY (line 2) and USD (line 3): give exchange rates to rank them together: currency mismatch (rank them together with -rates)\n"},
		{"other package", errors.New("pricing: line 2: bad\npricing: line 3: worse"), 1, "plan: pricing: line 2: bad\nplan: pricing: line 3: worse\n"},
		{"lines", errors.New("plan: a\nb"), 1, "plan: a\nplan: b\n"},
	} {
		var out strings.Builder
		if got := Exit("plan", tt.err, &out); got != tt.status || out.String() != tt.stderr {
			t.Errorf("%s: Exit = %d, stderr %q; want %d, %q", tt.name, got, out.String(), tt.status, tt.stderr)
		}
	}
}

func TestParse(t *testing.T) {
	newFS := func() *flag.FlagSet {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		fs.Int("n", 1, "")
		fs.String("s", "", "")
		return fs
	}
	set, err := Parse(newFS(), []string{"-n", "2"})
	if err != nil || !set["n"] || set["s"] || len(set) != 1 {
		t.Errorf("Parse(-n 2) = %v, %v; want {n}", set, err)
	}
	if _, err := Parse(newFS(), []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("Parse(-h) error %v, want flag.ErrHelp", err)
	}
	for want, args := range map[string][]string{
		`unexpected arguments ["extra"]`: {"-n", "2", "extra"},
		`invalid value "x" for flag -n`:  {"-n", "x"},
	} {
		_, err := Parse(newFS(), args)
		var out strings.Builder
		if !errors.Is(err, ErrUsage) || Exit("x", err, &out) != 2 || !strings.HasPrefix(out.String(), "x: "+want) {
			t.Errorf("Parse(%q): %v, stderr %q; want a usage error %q", args, err, out.String(), want)
		}
	}
}

// A FlagSet writes nothing itself; Usage writes the header, then the flags, and
// leaves the flag set silent.
func TestUsage(t *testing.T) {
	fs := FlagSet("x")
	fs.Int("n", 3, "how many")
	if _, err := Parse(fs, []string{"-m"}); !errors.Is(err, ErrUsage) || fs.Output() != io.Discard {
		t.Fatalf("Parse(-m) = %v, output %v; want a usage error and io.Discard", err, fs.Output())
	}
	var out bytes.Buffer
	Usage(&out, fs, "Usage: x [flags]\n\nFlags:\n")
	if want := "Usage: x [flags]\n\nFlags:\n  -n int\n    \thow many (default 3)\n"; out.String() != want {
		t.Errorf("Usage wrote %q, want %q", out.String(), want)
	}
	if fs.Output() != io.Discard {
		t.Errorf("the flag set writes to %v after Usage, want io.Discard", fs.Output())
	}
}
