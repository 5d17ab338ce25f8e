// Package text holds the small string helpers the gpuplan packages share for
// their messages: quoting a short, rune-safe excerpt of an input, and the edit
// distance behind "did you mean" suggestions.
package text

import (
	"strconv"
	"unicode/utf8"
)

// Quote quotes s for a message, cut to at most max bytes at a character
// boundary, with "..." after a cut.
func Quote(s string, max int) string {
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
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
