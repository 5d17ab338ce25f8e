// Package examples_test holds the tests that run the commands as a user
// does: built, in a folder of their own, with their exit status, standard output
// and standard error.
package examples_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// commands are the example programs, each built by build.
var commands = []string{"plan", "serve", "breakeven", "invoice", "verify", "seeds", "web"}

// build compiles the commands into a temporary folder once per test binary and
// returns it; it skips the test where no go command is at hand.
func build(t *testing.T) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to build the examples with")
		}
	}
	// go test caches a test's result on the files it reads: reading the module's
	// sources makes a change to any of them run this test again.
	filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "rapid"):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(path, ".go") || strings.Contains(path, "testdata") || strings.HasSuffix(path, ".json")):
			os.Stat(path)
		}
		return nil
	})
	dir := t.TempDir()
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for _, c := range commands {
		args = append(args, "./"+c)
	}
	cmd := exec.Command(goBin, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// abs is path (relative to examples/) made absolute, for a command run in
// another folder.
func abs(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExitStatus holds every command to the exit statuses the README gives: 0
// when it did its work, 1 when nothing fits or the input is wrong, 2 for a bad
// command line, whose message names the flag at fault; and to -json's promise:
// standard output holds one JSON value and nothing else, whatever the outcome.
// Each command runs in an empty folder, which it must leave empty unless -o
// names a file there. Later flags add their rows here.
func TestExitStatus(t *testing.T) {
	bin := build(t)
	offers := abs(t, "plan/testdata/only_4090.csv")
	account, sessions := abs(t, "invoice/testdata/account.json"), abs(t, "invoice/testdata/sessions.csv")
	period := []string{"-from", "2026-01-01T00:00:00Z", "-to", "2026-02-01T00:00:00Z"}
	invoice := append([]string{"-account", account, "-sessions", sessions}, period...)
	badSessions := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(badSessions, []byte("start,end,gpus\n2026-01-02T00:00:00Z,2026-01-01T00:00:00Z,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noFit := []string{"-model", "llama-2-13b", "-task", "inference", "-precision", "fp16", "-context", "4096", "-offers", offers}
	with := func(a []string, more ...string) []string { return append(append([]string{}, a...), more...) }

	for _, tc := range []struct {
		name   string
		cmd    string
		args   []string
		code   int
		stderr string // in standard error; empty: standard error is empty
		json   bool   // standard output is one JSON value
		files  []string
		locale string // LANG, under LC_ALL and LC_MESSAGES unset; empty: C
		stdout string // in standard output
	}{
		// main reads the locale and hands it to run: a zh_* locale speaks Chinese.
		{name: "plan in a zh locale", cmd: "plan", args: []string{"-limit", "1"}, locale: "zh_CN.UTF-8", stdout: "预计费用（元）"},
		{name: "plan -lang en in a zh locale", cmd: "plan", args: []string{"-limit", "1", "-lang", "en"}, locale: "zh_CN.UTF-8", stdout: "cost CNY"},
		{name: "plan usage error in a zh locale", cmd: "plan", args: []string{"-budget", "-10"}, code: 2, locale: "zh_CN.UTF-8", stderr: "-budget -10: 应为大于 0 的金额"},
		// -lang after another flag's value speaks Chinese to the end, and the last
		// word is to raise it with the provider, not to correct the input.
		{name: "verify in Chinese", cmd: "verify", args: []string{"-sample", "bad", "-lang", "zh"}, code: 1, stderr: "does not match the order\nverify: 机器与订单不符", stdout: "结论：3 个问题"},
		{name: "serve in a zh locale", cmd: "serve", locale: "zh_TW.UTF-8", stdout: "卡型"},
		{name: "bad -lang", cmd: "seeds", args: []string{"-lang", "fr"}, code: 2, stderr: "-lang"},
		{name: "plan", cmd: "plan", args: []string{"-limit", "1"}},
		{name: "plan help", cmd: "plan", args: []string{"-h"}},
		{name: "plan no fit", cmd: "plan", args: noFit, code: 1},
		{name: "plan no fit json", cmd: "plan", args: with(noFit, "-json"), code: 1, json: true},
		{name: "plan json", cmd: "plan", args: []string{"-json", "-limit", "1"}, json: true},
		{name: "plan json to a file", cmd: "plan", args: []string{"-json", "-limit", "1", "-o", "plan.json"}, files: []string{"plan.json"}},
		{name: "plan unknown flag", cmd: "plan", args: []string{"-bogus"}, code: 2, stderr: "-bogus"},
		{name: "plan negative budget", cmd: "plan", args: []string{"-budget", "-10"}, code: 2, stderr: "-budget -10"},
		{name: "plan negative budget json", cmd: "plan", args: []string{"-budget", "-10", "-json"}, code: 2, json: true},
		{name: "plan missing offers", cmd: "plan", args: []string{"-offers", "missing.csv"}, code: 2, stderr: "-offers missing.csv"},
		{name: "plan unknown card", cmd: "plan", args: []string{"-offers", abs(t, "plan/testdata/unknown_card.csv")}, code: 1, stderr: "-catalog FILE"},
		{name: "plan unknown card known", cmd: "plan", args: []string{"-offers", abs(t, "plan/testdata/unknown_card.csv"), "-catalog", abs(t, "plan/testdata/my_cards.json")}},
		{name: "plan fine-tune", cmd: "plan", args: []string{"-task", "finetune"}, code: 2, stderr: "-task"},
		{name: "plan missing offers json", cmd: "plan", args: []string{"-offers", "missing.csv", "-json"}, code: 2, json: true},

		{name: "serve", cmd: "serve"},
		{name: "serve chart", cmd: "serve", args: []string{"-o", "serve.svg"}, files: []string{"serve.svg"}},
		{name: "serve json", cmd: "serve", args: []string{"-json"}, json: true},
		{name: "serve no card holds it", cmd: "serve", args: []string{"-model", "llama-3.1-70b", "-cards", "RTX 4090"}, code: 1, stderr: "no card holds"},
		{name: "serve no card holds it json", cmd: "serve", args: []string{"-model", "llama-3.1-70b", "-cards", "RTX 4090", "-json"}, code: 1, json: true},
		{name: "serve unknown model", cmd: "serve", args: []string{"-model", "llama-9"}, code: 2, stderr: "-model"},
		{name: "serve missing catalog", cmd: "serve", args: []string{"-catalog", "cards.json"}, code: 2, stderr: "-catalog cards.json"},
		{name: "serve unknown card", cmd: "serve", args: []string{"-cards", "RTX 9090"}, code: 2, stderr: "-catalog FILE"},
		{name: "serve chart unwritable", cmd: "serve", args: []string{"-o", filepath.Join("no", "such", "folder.svg")}, code: 1, stderr: "-o"},

		{name: "breakeven", cmd: "breakeven"},
		{name: "breakeven chart", cmd: "breakeven", args: []string{"-o", "b.svg"}, files: []string{"b.svg"}},
		{name: "breakeven json", cmd: "breakeven", args: []string{"-json"}, json: true},
		{name: "breakeven price as lists write it", cmd: "breakeven", args: []string{"-hourly", "¥1.98"}},
		{name: "breakeven bad price", cmd: "breakeven", args: []string{"-hourly", "-1"}, code: 2, stderr: "-hourly -1"},

		{name: "invoice", cmd: "invoice", args: invoice},
		{name: "invoice json", cmd: "invoice", args: with(invoice, "-json"), json: true},
		{name: "invoice to a file", cmd: "invoice", args: with(invoice, "-o", "inv.txt"), files: []string{"inv.txt"}},
		{name: "invoice missing sessions", cmd: "invoice", args: with(period, "-account", account, "-sessions", "none.csv"), code: 2, stderr: "-sessions none.csv"},
		{name: "invoice missing account json", cmd: "invoice", args: with(invoice[2:], "-account", "none.json", "-json"), code: 2, json: true},
		{name: "invoice bad period", cmd: "invoice", args: []string{"-account", account, "-sessions", sessions, "-from", "soon", "-to", "later"}, code: 2, stderr: "-from"},
		{name: "invoice bad session", cmd: "invoice", args: with(invoice, "-sessions", badSessions), code: 1, stderr: "session"},
		{name: "invoice bad session json", cmd: "invoice", args: with(invoice, "-sessions", badSessions, "-json"), code: 1, json: true},

		{name: "verify good", cmd: "verify", args: []string{"-sample", "good"}},
		{name: "verify bad", cmd: "verify", args: []string{"-sample", "bad"}, code: 1, stderr: "does not match"},
		{name: "verify bad json", cmd: "verify", args: []string{"-sample", "bad", "-json"}, code: 1, json: true},
		{name: "verify unknown card", cmd: "verify", args: []string{"-card", "RTX 9999", "-gpus", "1", "-smi", "x.csv"}, code: 2, stderr: "-card"},
		{name: "verify missing capture", cmd: "verify", args: []string{"-card", "T4", "-gpus", "1", "-smi", "x.csv"}, code: 2, stderr: "-smi x.csv"},
		{name: "verify missing catalog", cmd: "verify", args: []string{"-sample", "good", "-catalog", "cards.json"}, code: 2, stderr: "-catalog cards.json"},
		{name: "verify missing capture json", cmd: "verify", args: []string{"-card", "T4", "-gpus", "1", "-smi", "x.csv", "-json"}, code: 2, json: true},

		// web serves until interrupted: only what ends before it listens is run here
		// (examples/web's own tests serve and stop it).
		{name: "web help", cmd: "web", args: []string{"-h"}, stdout: "-addr"},
		{name: "web help in a zh locale", cmd: "web", args: []string{"-h"}, locale: "zh_CN.UTF-8", stdout: "用法"},
		{name: "web unknown flag", cmd: "web", args: []string{"-bogus"}, code: 2, stderr: "-bogus"},
		{name: "web cannot listen", cmd: "web", args: []string{"-addr", "127.0.0.1:99999"}, code: 1, stderr: "-addr 127.0.0.1:99999"},

		{name: "seeds", cmd: "seeds"},
		{name: "seeds json", cmd: "seeds", args: []string{"-json"}, json: true},
		{name: "seeds bad context", cmd: "seeds", args: []string{"-context", "0"}, code: 2, stderr: "-context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(filepath.Join(bin, tc.cmd), tc.args...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "LANG=C"}
			if tc.locale != "" {
				cmd.Env = []string{"LANG=" + tc.locale}
			}
			for _, v := range os.Environ() {
				if k, _, _ := strings.Cut(v, "="); k != "LC_ALL" && k != "LC_MESSAGES" && k != "LANG" {
					cmd.Env = append(cmd.Env, v)
				}
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("%s %q: exit %d, want %d; stderr %q", tc.cmd, tc.args, code, tc.code, stderr.String())
			}
			switch {
			case tc.stderr == "" && stderr.Len() > 0:
				t.Errorf("%s %q: stderr %q, want it empty", tc.cmd, tc.args, stderr.String())
			case tc.stderr != "" && (!strings.HasPrefix(stderr.String(), tc.cmd+": ") || !strings.Contains(stderr.String(), tc.stderr)):
				t.Errorf("%s %q: stderr %q, want it under the command's name, naming %q", tc.cmd, tc.args, stderr.String(), tc.stderr)
			}
			if tc.code == 2 && !tc.json && !strings.Contains(stderr.String(), "-h") {
				t.Errorf("%s %q: stderr %q, want a pointer to -h", tc.cmd, tc.args, stderr.String())
			}
			if tc.stdout != "" && !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("%s %q: standard output lacks %q:\n%s", tc.cmd, tc.args, tc.stdout, stdout.String())
			}
			if tc.json {
				dec := json.NewDecoder(&stdout)
				var v any
				if err := dec.Decode(&v); err != nil || dec.More() {
					t.Errorf("%s %q: standard output is not one JSON value (%v):\n%s", tc.cmd, tc.args, err, stdout.String())
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			if !slices.Equal(left, tc.files) {
				t.Errorf("%s %q: left %q in its folder, want %q", tc.cmd, tc.args, left, tc.files)
			}
		})
	}
}
