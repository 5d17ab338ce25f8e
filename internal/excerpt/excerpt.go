// Package excerpt quotes input in error messages: at most a short start of it, cut
// at a character boundary, so that a 10 MB bad field never becomes a 10 MB message
// and a cut never splits a UTF-8 sequence.
package excerpt

import (
	"strconv"
	"unicode/utf8"
)

// Max is the most bytes of the input Quote keeps before "...".
const Max = 80

// Quote returns s quoted as strconv.Quote does, cut first to its first Max bytes
// at a character boundary with "..." after it when it is longer. Bytes of invalid
// UTF-8 are kept as strconv.Quote writes them (\x escapes).
func Quote(s string) string { return strconv.Quote(Cut(s, Max)) }

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
