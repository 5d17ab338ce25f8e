package text

import (
	"io"
	"strings"
)

// Align is how a column's cells sit in it.
type Align uint8

const (
	Left  Align = iota // text: names, layouts
	Right              // numbers, so that their digits line up
)

// Table lays out rows of cells in columns padded by display width (Width), so
// that Chinese names and aligned figures line up in a terminal, as
// text/tabwriter, which counts runes, does not. The zero value is a table of
// left-aligned columns two spaces apart.
type Table struct {
	Align  []Align // per column; a column past its end is Left
	Max    []int   // most columns a cell takes, per column, longer cells cut by CutWidth; 0 or past its end: no limit
	Indent string  // before every row
	rows   [][]string
}

// Row adds a row; rows may have different numbers of cells.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, cells) }

// Write writes the rows, each line without trailing spaces.
func (t *Table) Write(w io.Writer) error {
	var widths []int
	cell := func(r []string, j int) string {
		if j < len(t.Max) && t.Max[j] > 0 {
			return CutWidth(r[j], t.Max[j])
		}
		return r[j]
	}
	for _, r := range t.rows {
		for j := range r {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], Width(cell(r, j)))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		line := t.Indent
		for j := range r {
			if j > 0 {
				line += "  "
			}
			if j < len(t.Align) && t.Align[j] == Right {
				line += PadLeft(cell(r, j), widths[j])
			} else {
				line += PadRight(cell(r, j), widths[j])
			}
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
