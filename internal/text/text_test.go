package text

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"
)

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 10, 0}, {"kitten", "sitting", 10, 3}, {"rtx4090", "rtx4080", 10, 1},
		{"a100", "a100", 10, 0}, {"abc", "", 10, 3},
		{"abcdef", "uvwxyz", 2, 3}, // past the limit: limit+1
		{"a", "abcdefgh", 3, 4},
	} {
		if got := EditDistance(tt.a, tt.b, tt.limit, nil); got != tt.want {
			t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tt := range []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 64, `"abc"`},
		{"abcdef", 3, `"abc..."`},
		{"日本語", 4, `"日..."`}, // a cut never splits a character
	} {
		if got := Quote(tt.s, tt.max); got != tt.want {
			t.Errorf("Quote(%q, %d) = %s, want %s", tt.s, tt.max, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc..."},
		{"héllo", 2, "h..."},   // é is 2 bytes at 1..2: a cut at 2 splits it
		{"héllo", 3, "hé..."},  // whole
		{"ＲＴＸ４０９０", 4, "Ｒ..."}, // 3-byte runes
		{"ＲＴＸ４０９０", 2, "..."},
		{"a\x80\x80\x80\x80b", 3, "a\x80\x80..."}, // invalid bytes are characters of their own
		{"abc", -1, "..."},
	} {
		if got := Cut(tc.s, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestQuoteLong(t *testing.T) {
	s := strings.Repeat("x", 10<<20)
	got := Quote(s, 80)
	if want := strconv.Quote(strings.Repeat("x", 80) + "..."); got != want {
		t.Fatalf("Quote of 10 MiB = %d bytes, want %q", len(got), want)
	}
}

// A cut is a prefix of s, at most n bytes plus "...", and never splits a valid
// character of s.
func TestCutProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if rapid.Bool().Draw(t, "bytes") {
			s = string(rapid.SliceOf(rapid.Byte()).Draw(t, "b"))
		}
		n := rapid.IntRange(0, 40).Draw(t, "n")
		got := Cut(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("Cut(%q, %d) = %q, want it whole", s, n, got)
			}
			return
		}
		head, ok := strings.CutSuffix(got, "...")
		if !ok || !strings.HasPrefix(s, head) || len(head) > n {
			t.Fatalf("Cut(%q, %d) = %q: not a prefix of at most %d bytes with ...", s, n, got, n)
		}
		if n-len(head) >= utf8.UTFMax {
			t.Fatalf("Cut(%q, %d) = %q dropped %d bytes", s, n, got, n-len(head))
		}
		if utf8.ValidString(s) && !utf8.ValidString(head) {
			t.Fatalf("Cut(%q, %d) = %q split a character", s, n, got)
		}
	})
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 GPUs", 1: "1 GPU", 2: "2 GPUs", -1: "-1 GPUs"} {
		if got := Count(n, "GPU", "GPUs"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Noun(1, "replica", "replicas") + " " + Noun(3, "replica", "replicas"); got != "replica replicas" {
		t.Errorf("Noun = %q", got)
	}
}

func TestFoldWidth(t *testing.T) {
	for in, want := range map[string]string{
		"Ａ１００　８０ＧＢ": "A100 80GB", "rtx 4090": "rtx 4090", "（１）": "(1)", "英伟达Ａ": "英伟达A", "": "",
	} {
		if got := FoldWidth(in); got != want {
			t.Errorf("FoldWidth(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOfferName(t *testing.T) {
	for _, tt := range []struct {
		provider, region, card string
		line                   int
		want                   string
	}{
		{"acme", "cn-north", "RTX 4090", 3, "acme/cn-north RTX 4090 (line 3)"},
		{"acme", "", "RTX 4090", 0, "acme RTX 4090"},
		{"", "", "", 2, "nameless (line 2)"},
		{" ", "", " ", 0, "nameless"},
	} {
		if got := OfferName(tt.provider, tt.region, tt.card, "nameless", tt.line); got != tt.want {
			t.Errorf("OfferName(%q, %q, %q, %d) = %q, want %q", tt.provider, tt.region, tt.card, tt.line, got, tt.want)
		}
	}
}

func TestTarget(t *testing.T) {
	if got := Target(0); got != "none" {
		t.Errorf("Target(0) = %q, want none", got)
	}
	if got := Target(1500 * time.Millisecond); got != "1.5s" {
		t.Errorf("Target(1.5s) = %q, want 1.5s", got)
	}
}

func TestCutError(t *testing.T) {
	inner := errors.New("json: unknown field \"" + strings.Repeat("f", 1000) + "\"")
	err := CutError(inner, 40)
	if got := err.Error(); got != Cut(inner.Error(), 40) || len(got) != 43 {
		t.Errorf("CutError message %q", got)
	}
	if !errors.Is(err, inner) {
		t.Error("CutError hides the error it cuts from errors.Is")
	}
	if short := errors.New("short"); CutError(short, 40) != short || CutError(nil, 40) != nil {
		t.Error("CutError changed an error that fits, or nil")
	}
}
