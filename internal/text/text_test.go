package text

import "testing"

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
