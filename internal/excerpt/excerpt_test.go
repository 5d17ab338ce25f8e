package excerpt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOf(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"short", "abc", "abc"},
		{"exactly max", strings.Repeat("a", Max), strings.Repeat("a", Max)},
		{"long ASCII", strings.Repeat("a", Max+10), strings.Repeat("a", Max) + "..."},
		// 卡 is 3 bytes: 21 of them fill 63 bytes, the 22nd would cross byte 64.
		{"long Chinese", strings.Repeat("卡", 40), strings.Repeat("卡", 21) + "..."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Of(tc.in); got != tc.want {
				t.Errorf("Of(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	if got := Quote(strings.Repeat("x", 100)); got != `"`+strings.Repeat("x", Max)+`"...` {
		t.Errorf("Quote = %s", got)
	}
	if long := strings.Repeat("卡", 40); Quote(Of(long)) != Quote(long) {
		t.Errorf("Quote(Of(s)) = %s, Quote(s) = %s", Quote(Of(long)), Quote(long))
	}
	if got := Quote("a\"b"); got != `"a\"b"` {
		t.Errorf("Quote = %s", got)
	}
}

func FuzzOf(f *testing.F) {
	f.Add(strings.Repeat("卡", 40))
	f.Add(strings.Repeat("a", 63) + "é")
	f.Fuzz(func(t *testing.T, s string) {
		got := Of(s)
		if len(got) > Max+3 {
			t.Fatalf("excerpt of %d bytes", len(got))
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("excerpt %q of valid text is not valid", got)
		}
		if !strings.HasPrefix(s, strings.TrimSuffix(got, "...")) {
			t.Fatalf("excerpt %q is not a prefix", got)
		}
	})
}
