package text

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// Widths as a terminal draws them, East Asian Width from Unicode 14.0's
// EastAsianWidth.txt (UAX #11): CJK ideographs and fullwidth forms W or F, ASCII,
// ¥ and × narrow or ambiguous (drawn narrow), combining marks none.
func TestWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0}, {"A100", 4}, {"昇腾910B", 8}, {"示例云", 6}, {"华东-杭州", 9},
		{"ＲＴＸ４０９０", 14}, {"¥8.38", 5}, {"2 × 4", 5}, {"e\u0301", 1}, {"a\u200db", 2},
		{"，", 2}, {"한국", 4}, {"\U0001F600", 2}, {"\U00020000", 2}, {"ä", 1}, {"\x80", 1},
		{"tab\t", 3},
	} {
		if got := Width(tc.s); got != tc.want {
			t.Errorf("Width(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// The wide ranges are sorted and apart, so that the binary search finds them.
func TestWideTable(t *testing.T) {
	for i, r := range wide {
		if r[0] > r[1] || i > 0 && wide[i-1][1] >= r[0] {
			t.Errorf("wide[%d] = %X: out of order", i, r)
		}
	}
}

func TestCutAndPad(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"sample-market-c", 20, "sample-market-c"},
		{"sample-market-c", 8, "sample-…"},
		{"昇腾910B", 5, "昇腾…"},
		{"昇腾910B", 4, "昇…"}, // the second ideograph would pass 3 columns
		{"abc", 0, ""},
	} {
		if got := CutWidth(tc.s, tc.n); got != tc.want {
			t.Errorf("CutWidth(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	if got := PadRight("示例云", 8) + "|"; got != "示例云  |" {
		t.Errorf("PadRight = %q", got)
	}
	if got := PadLeft("昇腾", 6); got != "  昇腾" {
		t.Errorf("PadLeft = %q", got)
	}
}

// Padding reaches the width asked for; a cut keeps a prefix within it.
func TestWidthProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOf(rapid.SampledFrom([]rune("aZ9 -×¥é\u0301示例云昇腾，ＲＴ"))).Draw(t, "s")
		n := rapid.IntRange(0, 30).Draw(t, "n")
		if got := Width(PadRight(s, n)); got != max(n, Width(s)) {
			t.Fatalf("Width(PadRight(%q, %d)) = %d", s, n, got)
		}
		if got := Width(PadLeft(s, n)); got != max(n, Width(s)) {
			t.Fatalf("Width(PadLeft(%q, %d)) = %d", s, n, got)
		}
		c := CutWidth(s, n)
		if Width(c) > n || !strings.HasPrefix(s, strings.TrimSuffix(c, "…")) || !utf8.ValidString(c) {
			t.Fatalf("CutWidth(%q, %d) = %q", s, n, c)
		}
	})
}

// Columns line up by display width with Chinese provider names and card
// aliases, as they do not when padded by runes.
func TestTableAligns(t *testing.T) {
	tb := Table{Align: []Align{Right, Left, Left, Right}, Indent: "  "}
	tb.Row("#", "provider", "card", "cost")
	tb.Row("1", "示例云", "昇腾910B", "¥8.38")
	tb.Row("2", "sample-cloud-a", "RTX 4090", "¥16.76")
	tb.Row("10", "华东算力", "ＲＴＸ４０９０", "¥120.00")
	var b strings.Builder
	if err := tb.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"   #  provider        card               cost",
		"   1  示例云          昇腾910B          ¥8.38",
		"   2  sample-cloud-a  RTX 4090         ¥16.76",
		"  10  华东算力        ＲＴＸ４０９０  ¥120.00",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range lines {
		if Width(l) != Width(lines[0]) {
			t.Errorf("line %q is %d columns, the header %d: the right-aligned costs do not end together", l, Width(l), Width(lines[0]))
		}
	}
}

func TestTableMax(t *testing.T) {
	tb := Table{Max: []int{6}}
	tb.Row("a-very-long-name", "x")
	tb.Row("short", "y")
	var b strings.Builder
	tb.Write(&b)
	if want := "a-ver…  x\nshort   y\n"; b.String() != want {
		t.Errorf("table = %q, want %q", b.String(), want)
	}
}

func TestWrap(t *testing.T) {
	if got, want := Wrap("alpha beta gamma", 10, 20, "    "), "alpha beta\n    gamma"; got != want {
		t.Errorf("Wrap after 10 columns = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		s      string
		width  int
		indent string
		want   string
	}{
		{"one two three four", 9, "  ", "one two\n  three\n  four"},
		{"interruptible: about 0.4 interruptions expected", 20, "    ", "interruptible: about\n    0.4\n    interruptions\n    expected"},
		{"显存不足导致任务直接失败，算力过剩则多付", 12, "", "显存不足导致\n任务直接失\n败，算力过剩\n则多付"},
		{"averyveryverylongword x", 5, "", "averyveryverylongword\nx"},
		{"显存不足（第三行）", 10, "", "显存不足\n（第三行）"},
	} {
		if got := Wrap(tc.s, 0, tc.width, tc.indent); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// Wrapped lines stay within the width unless a piece is wider alone, and hold
// the text's characters in order.
func TestWrapProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOf(rapid.SampledFrom([]rune("ab cd 显存，。 RTX"))).Draw(t, "s")
		width := rapid.IntRange(4, 30).Draw(t, "width")
		got := Wrap(s, 0, width, "  ")
		if strings.ReplaceAll(strings.ReplaceAll(got, "\n  ", ""), " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Fatalf("Wrap(%q, %d) = %q lost or moved characters", s, width, got)
		}
		for _, l := range strings.Split(got, "\n") {
			if Width(l) > width && len(breakable(strings.TrimSpace(l))) > 1 {
				t.Fatalf("Wrap(%q, %d): line %q is %d columns", s, width, l, Width(l))
			}
		}
	})
}
