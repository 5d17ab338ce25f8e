package text

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wide holds the code points a terminal draws two columns wide: those Unicode's
// East Asian Width property marks Wide (W) or Fullwidth (F), from
// EastAsianWidth.txt of Unicode 14.0 (Unicode Standard Annex #11), assigned
// characters only, ranges that touch across unassigned code points joined, and
// the two supplementary ideographic planes whole, as the file assigns them W.
// Ambiguous characters (×, –, …, Greek and Cyrillic letters) count narrow, as
// terminals outside CJK locales draw them.
var wide = [...][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0},
	{0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F},
	{0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5},
	{0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
	{0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728},
	{0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
	{0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},
	{0x2E80, 0x303E}, {0x3041, 0x3247}, {0x3250, 0x4DBF}, {0x4E00, 0xA4C6}, {0xA960, 0xA97C},
	{0xAC00, 0xD7A3}, {0xF900, 0xFAD9}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6B}, {0xFF01, 0xFF60},
	{0xFFE0, 0xFFE6}, {0x16FE0, 0x1B2FB}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E},
	{0x1F191, 0x1F19A}, {0x1F200, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393},
	{0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
	{0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
	{0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
	{0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC},
	{0x1F7E0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAF6},
	{0x20000, 0x3FFFD},
}

// RuneWidth is the columns a terminal gives r: 2 for East Asian wide and
// fullwidth characters, 0 for combining marks (Mn, Me), format characters (Cf:
// zero-width spaces and joiners) and control characters, 1 otherwise.
func RuneWidth(r rune) int {
	switch {
	case r < 0x20 || r >= 0x7F && r < 0xA0:
		return 0
	case r < 0x300:
		return 1 // ASCII and Latin-1, the common case; U+00AD (soft hyphen) is drawn
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Cc):
		return 0
	case r < wide[0][0]:
		return 1
	}
	i := sort.Search(len(wide), func(i int) bool { return wide[i][1] >= r })
	if i < len(wide) && wide[i][0] <= r {
		return 2
	}
	return 1
}

// Width is the columns s takes in a terminal, by RuneWidth: "昇腾910B" is 6 runes
// and 8 columns. A byte that is not UTF-8 counts one column.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				n += RuneWidth(r)
			}
			return n
		}
		n += RuneWidth(rune(s[i]))
	}
	return n
}

// PadRight pads s with spaces to n columns, by Width; PadLeft pads in front. A
// string already as wide comes back as it is.
func PadRight(s string, n int) string { return s + strings.Repeat(" ", max(0, n-Width(s))) }

// PadLeft pads s with spaces in front to n columns, by Width.
func PadLeft(s string, n int) string { return strings.Repeat(" ", max(0, n-Width(s))) + s }

// CutWidth returns s when it fits in n columns, else its start cut before the
// character that would pass n-1 columns, with "…" after it: at most n columns,
// a wide character never split.
func CutWidth(s string, n int) string {
	if Width(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	w := 0
	for i, r := range s {
		rw := RuneWidth(r)
		if w+rw > n-1 {
			return s[:i] + "…"
		}
		w += rw
	}
	return s
}

// Wrap breaks s into lines of at most width columns (by Width): at spaces, and
// between two characters either of which is wide (Chinese text runs without
// spaces), but never before closing punctuation (，。、；：！？）」』》 and their
// ASCII kin) nor after opening punctuation (（「『《“ and their kin). The first
// line starts at column first (after what the caller printed before it); each
// line after it starts with indent, whose width counts. A word wider than a
// line is left whole on a line of its own.
func Wrap(s string, first, width int, indent string) string {
	var b strings.Builder
	col := first
	start := true
	for _, word := range breakable(s) {
		w := Width(word.text)
		switch {
		case start:
		case col+w+boolInt(word.space) > width:
			b.WriteString("\n")
			b.WriteString(indent)
			col = Width(indent)
		case word.space:
			b.WriteByte(' ')
			col++
		}
		start = false
		b.WriteString(word.text)
		col += w
	}
	return b.String()
}

// piece is a run of s that Wrap keeps on one line, and whether a space went
// before it.
type piece struct {
	text  string
	space bool
}

// breakable splits s at spaces and around wide characters, as Wrap may break
// it; a closing punctuation mark stays with what precedes it, an opening one
// with what follows it.
func breakable(s string) []piece {
	var out []piece
	for _, field := range strings.Fields(s) {
		start, space := 0, true
		prevWide, prevOpening := false, false
		for i, r := range field {
			w := RuneWidth(r) == 2
			if i > start && (w || prevWide) && !closing(r) && !prevOpening {
				out = append(out, piece{field[start:i], space})
				start, space = i, false
			}
			prevWide, prevOpening = w, opening(r)
		}
		out = append(out, piece{field[start:], space})
	}
	return out
}

// closing reports the punctuation a line should not start with.
func closing(r rune) bool {
	return strings.ContainsRune("，。、；：！？）」』》〉】,.;:!?)]}%", r)
}

// opening reports the punctuation a line should not end with.
func opening(r rune) bool {
	return strings.ContainsRune("（「『《〈【“‘([{", r)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
