package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/msg"
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
		if got := Exit("plan", tt.err, &out, msg.EN); got != tt.status || out.String() != tt.stderr {
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
		if !errors.Is(err, ErrUsage) || Exit("x", err, &out, msg.EN) != 2 || !strings.HasPrefix(out.String(), "x: "+want) {
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
	Usage(&out, fs, "Usage: x [flags]\n\nFlags:\n", msg.EN)
	if want := "Usage: x [flags]\n\nFlags:\n  -n int\n    \thow many (default 3)\n"; out.String() != want {
		t.Errorf("Usage wrote %q, want %q", out.String(), want)
	}
	if fs.Output() != io.Discard {
		t.Errorf("the flag set writes to %v after Usage, want io.Discard", fs.Output())
	}
}

// A file a flag names that cannot be opened is a usage error naming the flag and
// the path once; a folder too.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "none.csv"), "-offers " + filepath.Join(dir, "none.csv") + ": cannot open the file: "},
		{dir, "-offers " + dir + ": a folder, not a file"},
	} {
		_, err := ReadFile("offers", tc.path)
		if !errors.Is(err, ErrUsage) || !strings.HasPrefix(Message(err), tc.want) || strings.Count(err.Error(), tc.path) != 1 {
			t.Errorf("ReadFile(%q) = %v, want a usage error starting %q", tc.path, err, tc.want)
		}
	}
	path := filepath.Join(dir, "ok.txt")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile("offers", path); err != nil || string(b) != "x" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
}

// FailJSON writes one JSON object and returns a Reported error with the status
// of the failure, which Exit returns without writing anything.
func TestFailJSON(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
		want string
	}{
		{Usagef("-n %d: want 1 or more", 0), 2, `{"error": "-n 0: want 1 or more"}`},
		{errors.New("plan: no"), 1, `{"error": "plan: no"}`},
	} {
		var out, stderr bytes.Buffer
		err := FailJSON(&out, tc.err, nil)
		if got := strings.ReplaceAll(strings.ReplaceAll(out.String(), "\n  ", ""), "\n", ""); got != tc.want {
			t.Errorf("FailJSON(%v) wrote %s, want %s", tc.err, got, tc.want)
		}
		if code := Exit("x", err, &stderr, msg.EN); code != tc.code || stderr.Len() != 0 || !errors.Is(err, tc.err) {
			t.Errorf("FailJSON(%v): exit %d, stderr %q; want %d, nothing written, the error kept", tc.err, code, stderr.String(), tc.code)
		}
	}
	var out bytes.Buffer
	rep := &Reported{Code: 1, Err: errors.New("written")}
	if err := FailJSON(&out, rep, nil); err != rep || out.Len() != 0 {
		t.Errorf("FailJSON(Reported) = %v, wrote %q; want it back, nothing written", err, out.String())
	}
}

// To writes what the command would print to the -o file, its error or not, and
// nothing to w; without a path it writes to w.
func TestTo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	var w bytes.Buffer
	fail := errors.New("no option fits")
	err := To(&w, path, func(out io.Writer) error { io.WriteString(out, "report\n"); return fail })
	if b, _ := os.ReadFile(path); err != fail || string(b) != "report\n" || w.Len() != 0 {
		t.Errorf("To(path) = %v, file %q, w %q; want the error, the report in the file only", err, b, w.String())
	}
	if err := To(&w, "", func(out io.Writer) error { _, err := io.WriteString(out, "x"); return err }); err != nil || w.String() != "x" {
		t.Errorf("To(\"\") = %v, w %q", err, w.String())
	}
	err = To(&w, filepath.Join(path, "sub"), func(out io.Writer) error { _, err := io.WriteString(out, "x"); return err })
	if err == nil || !strings.HasPrefix(err.Error(), "-o: ") {
		t.Errorf("To(unwritable) = %v, want an error naming -o", err)
	}
}

// -lang is read from the command line before the flags are parsed, so that -h
// and the flags' words come in its language; a value that does not read leaves
// the locale's, for the flag to report.
func TestLangOf(t *testing.T) {
	for _, tc := range []struct {
		args []string
		def  msg.Lang
		want msg.Lang
	}{
		{nil, msg.ZH, msg.ZH},
		{[]string{"-lang", "zh"}, msg.EN, msg.ZH},
		{[]string{"--lang=en"}, msg.ZH, msg.EN},
		{[]string{"-json", "-lang", "zh_CN.UTF-8"}, msg.EN, msg.ZH},
		{[]string{"-lang", "klingon"}, msg.EN, msg.EN},
		{[]string{"-lang"}, msg.ZH, msg.ZH},
		{[]string{"--", "-lang", "zh"}, msg.EN, msg.EN},
		// After another flag's value, as the flag package reads it: the final
		// error of "verify -sample bad -lang zh" is in Chinese too.
		{[]string{"-sample", "bad", "-lang", "zh"}, msg.EN, msg.ZH},
		{[]string{"-offers", "x.csv", "--lang=zh"}, msg.EN, msg.ZH},
	} {
		if got := LangOf(tc.args, tc.def); got != tc.want {
			t.Errorf("LangOf(%q, %v) = %v, want %v", tc.args, tc.def, got, tc.want)
		}
	}
}

// In Chinese an error keeps its text (the library's English) and says in
// Chinese what to do; -h's defaults are written in Chinese.
func TestChinese(t *testing.T) {
	var out strings.Builder
	if code := Exit("plan", errors.New("plan: no offers"), &out, msg.ZH); code != 1 ||
		out.String() != "plan: no offers\nplan: "+msg.ZH.T("cli.failed")+"\n" {
		t.Errorf("Exit in Chinese = %d, %q", code, out.String())
	}
	out.Reset()
	// An error the command advises on itself: its advice, not the sentence
	// that says to correct the input.
	if code := Exit("verify", &Advised{Err: errors.New("the machine does not match the order"), Advice: "请交给服务商处理"}, &out, msg.ZH); code != 1 ||
		out.String() != "verify: the machine does not match the order\nverify: 请交给服务商处理\n" {
		t.Errorf("Exit of an Advised error in Chinese = %d, %q", code, out.String())
	}
	out.Reset()
	if code := Exit("plan", Usagef("-n 0: 应为 1 或以上"), &out, msg.ZH); code != 2 || !strings.HasSuffix(out.String(), "plan: "+msg.ZH.T("cli.usage")+"\n") {
		t.Errorf("a usage error in Chinese = %d, %q", code, out.String())
	}
	fs := FlagSet("x")
	fs.Int("n", 3, "多少")
	fs.String("s", "a", "名称")
	var b bytes.Buffer
	Usage(&b, fs, "用法：x\n", msg.ZH)
	if want := "用法：x\n  -n int\n    \t多少（默认 3）\n  -s string\n    \t名称（默认 \"a\"）\n"; b.String() != want {
		t.Errorf("Usage in Chinese = %q, want %q", b.String(), want)
	}
}
