// Package excerpt shortens text for error messages: a message about bad input
// quotes at most a short, valid excerpt of it, never megabytes of a file and never
// half a character.
package excerpt

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is the longest excerpt, in bytes, that Of keeps before adding "...".
const Max = 64

// Of returns s when it is at most Max bytes; otherwise the longest prefix of at
// most Max bytes that ends on a rune boundary, followed by "...". Invalid UTF-8 is
// kept as it is (Quote escapes it).
func Of(s string) string {
	if len(s) <= Max {
		return s
	}
	cut := Max
	// Step back to the start of the rune that holds byte cut, unless cut starts a
	// rune already; utf8.RuneStart is false only for continuation bytes.
	for cut > 0 && cut > Max-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// Quote returns Of(s) in Go's double-quoted form, with the "..." outside the
// quotes when s was shortened: "abc"... . An excerpt already made by Of (over Max
// bytes with its "...") is quoted as it is, not shortened again.
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	e := s
	if len(s) > Max+3 || !strings.HasSuffix(s, "...") {
		e = Of(s)
	}
	return strconv.Quote(e[:len(e)-3]) + "..."
}
