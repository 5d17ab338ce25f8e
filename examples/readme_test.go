package examples_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// command finds the commands a README shows: go run, go test and go mod lines,
// in code blocks and code spans, with what comes before them on the line (an
// environment variable) and their arguments, up to a shell comment (each README
// comments in its own language).
var command = regexp.MustCompile("(?m)(?:[A-Z_]+=[^ `]+ )?go (?:run|test|mod) [^`\n,，、#]*")

// shown lists a README's commands, each once, sorted.
func shown(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range command.FindAllString(string(b), -1) {
		if c = strings.TrimSpace(c); !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// README.zh-CN.md shows the commands README.md shows, no more and no fewer, so
// that a reader of either runs the same things.
func TestReadmesInStep(t *testing.T) {
	en, zh := shown(t, "../README.md"), shown(t, "../README.zh-CN.md")
	if len(en) < 10 {
		t.Fatalf("README.md shows %d commands: %q", len(en), en)
	}
	for _, c := range en {
		if !slices.Contains(zh, c) {
			t.Errorf("README.md shows %q; README.zh-CN.md does not", c)
		}
	}
	for _, c := range zh {
		if !slices.Contains(en, c) {
			t.Errorf("README.zh-CN.md shows %q; README.md does not", c)
		}
	}
}
