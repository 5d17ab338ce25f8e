// Package text holds the small string helpers the gpuplan packages share for
// their messages and names: quoting a short, rune-safe excerpt of an input, the
// edit distance behind "did you mean" suggestions, folding fullwidth ASCII, naming
// an offer, counting with a singular or plural noun, writing a latency target,
// keeping a wrapped error's message short (CutError), and, for the commands' reports, the width a string takes in a terminal (East
// Asian wide characters two columns), tables padded by it, and wrapping to it.
package text

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Quote quotes s as strconv.Quote does, cut first by Cut to at most max bytes, so
// that a 10 MB bad field never becomes a 10 MB message.
func Quote(s string, max int) string { return strconv.Quote(Cut(s, max)) }

// Cut returns s when it is at most n bytes long, else its start of at most n bytes,
// cut before a character that would not fit (a byte that is not valid UTF-8 counts
// as one character), with "..." after it. n below 0 counts as 0.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	cut := n
	// A valid character that starts in the last utf8.UTFMax-1 bytes kept and runs
	// past n is left out whole; anything else (a byte of invalid UTF-8 counts as a
	// character of its own) ends before n already.
	for p := n - 1; p >= 0 && p > n-utf8.UTFMax; p-- {
		if utf8.RuneStart(s[p]) {
			if r, size := utf8.DecodeRuneInString(s[p:]); !(r == utf8.RuneError && size == 1) && p+size > n {
				cut = p
			}
			break
		}
	}
	return s[:cut] + "..."
}

// EditDistance returns the Levenshtein distance between a and b in bytes, or
// limit+1 once it is sure to exceed limit. rows holds the two rows of the table
// between calls, so a caller comparing one name with many allocates once; nil
// is allowed.
func EditDistance(a, b string, limit int, rows *[2][]int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if rows == nil {
		rows = new([2][]int)
	}
	for i := range rows {
		if cap(rows[i]) < len(b)+1 {
			rows[i] = make([]int, len(b)+1, max(len(b)+1, 64))
		}
		rows[i] = rows[i][:len(b)+1]
	}
	prev, cur := rows[0], rows[1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Count writes n with the singular or plural noun for a message: "1 GPU",
// "8 GPUs", "0 days".
func Count(n int, one, many string) string { return strconv.Itoa(n) + " " + Noun(n, one, many) }

// Noun is one when n is 1 and many otherwise: "line", "lines".
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// FoldWidth maps the fullwidth forms of ASCII letters, digits and punctuation
// (U+FF01 to U+FF5E, which Chinese and Japanese input methods type: "Ａ１００") and
// the ideographic space (U+3000) to ASCII, so that such a name reads as typed in
// ASCII. It returns s itself when s is all ASCII.
func FoldWidth(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Map(func(r rune) rune {
				switch {
				case r >= 0xFF01 && r <= 0xFF5E:
					return r - 0xFEE0
				case r == 0x3000:
					return ' '
				}
				return r
			}, s)
		}
	}
	return s
}

// OfferName names an offer for a message, as its price list wrote it: "provider/
// region card" ("region card" without a provider), or empty when all three are
// blank, and then " (line N)" when it came from a file (line above zero). Each of
// the three is cut to 64 bytes (Cut), so that a 1 MB name never makes a 1 MB
// message.
func OfferName(provider, region, card, empty string, line int) string {
	provider, region, card = Cut(provider, 64), Cut(region, 64), Cut(card, 64)
	s := provider
	if region != "" {
		if s != "" {
			s += "/"
		}
		s += region
	}
	s += " " + card
	if strings.TrimSpace(s) == "" {
		s = empty
	}
	if line > 0 {
		s += " (line " + strconv.Itoa(line) + ")"
	}
	return s
}

// Target writes a latency target for a message: the duration, or "none" when it
// is zero (no target).
func Target(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

// CutError returns err with its message cut to at most n bytes by Cut, for an
// error of another package that quotes its input whole (encoding/json names an
// unknown field in full): Error returns the cut text, Unwrap returns err, so
// errors.Is and errors.As still see it. An error whose message fits is returned
// as it is.
func CutError(err error, n int) error {
	if err == nil || len(err.Error()) <= n {
		return err
	}
	return &cutError{err, n}
}

type cutError struct {
	err error
	n   int
}

func (e *cutError) Error() string { return Cut(e.err.Error(), e.n) }
func (e *cutError) Unwrap() error { return e.err }
