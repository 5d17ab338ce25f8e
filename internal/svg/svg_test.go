package svg

import (
	"strings"
	"testing"
)

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{1, 1}, {1.2, 2}, {3, 5}, {7, 10}, {17.3, 20}, {0.03, 0.05}, {250, 500}, {1000, 1000},
	} {
		if got := NiceStep(tc.in); got != tc.want {
			t.Errorf("NiceStep(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestEsc(t *testing.T) {
	if got, want := Esc(`A&B <"x">`), "A&amp;B &lt;&#34;x&#34;&gt;"; got != want {
		t.Errorf("Esc = %q, want %q", got, want)
	}
}

func TestStart(t *testing.T) {
	var b strings.Builder
	Start(&b, 800, 450.5)
	want := `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450.5" viewBox="0 0 800 450.5" font-family="Helvetica, Arial, sans-serif" font-size="13">
<rect width="100%" height="100%" fill="white"/>
`
	if got := b.String(); got != want {
		t.Errorf("Start wrote\n%s\nwant\n%s", got, want)
	}
}

func TestCheck(t *testing.T) {
	var b strings.Builder
	Start(&b, 10, 10)
	b.WriteString("</svg>")
	if err := Check([]byte(b.String())); err != nil {
		t.Errorf("Check(Start + </svg>) = %v", err)
	}
	for _, bad := range []string{"<svg", `<html xmlns="http://www.w3.org/2000/svg"></html>`, "<svg></svg>", ""} {
		if Check([]byte(bad)) == nil {
			t.Errorf("Check(%q) = nil, want an error", bad)
		}
	}
}
