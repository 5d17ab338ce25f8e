package pricelist

import (
	"bytes"
	"io"

	"github.com/gpuplan/gpuplan/pricing"
)

// The formats Read tells apart, as it names them.
const (
	FormatCSV      = "csv"          // gpuplan's own CSV (ReadCSV), Chinese headings included
	FormatJSON     = "json"         // gpuplan's own JSON (ReadJSON)
	FormatSkyPilot = "skypilot-csv" // a SkyPilot catalog vms.csv (ReadSkyPilot)
	FormatVast     = "vast-json"    // vast.ai's offers (ReadVast)
)

// Read reads a price list in any format the package knows and says which it
// read (FormatCSV, FormatJSON, FormatSkyPilot or FormatVast); it is ReadList
// without the rows left out.
func Read(r io.Reader) (offers []pricing.Offer, format string, err error) {
	l, err := ReadList(r)
	return l.Offers, l.Format, err
}

// List is a price list as ReadList read it.
type List struct {
	Format  string          `json:"format"`  // FormatCSV, FormatJSON, FormatSkyPilot or FormatVast
	Offers  []pricing.Offer `json:"offers"`  // in file order
	Skipped []Skip          `json:"skipped"` // rows read and left out, by reason, in the order reasons first appear; empty: none
}

// ReadList reads a price list in any format the package knows. Text starting with
// [ or { is JSON: vast.ai's when it is an object, or when its first offer has a
// "dph_total" or "gpu_name" field, else the package's own. Other text is CSV: a
// SkyPilot catalog when its header names both AcceleratorName and
// AcceleratorCount, else the package's own. The list is then read by that
// format's reader, with its checks and errors; an error also names the format
// read (the List's Format is set), so that a user sees which the file was taken
// for. Skipped counts the rows a reader leaves out by design (a SkyPilot row
// without GPUs); the own formats and vast.ai's leave none out.
func ReadList(r io.Reader) (List, error) {
	data, err := readList(r)
	if err != nil {
		return List{}, err
	}
	l := List{Format: sniffFormat(data), Skipped: []Skip{}}
	src := bytes.NewReader(data)
	switch l.Format {
	case FormatJSON:
		l.Offers, err = ReadJSON(src)
	case FormatVast:
		l.Offers, err = ReadVast(src)
	case FormatSkyPilot:
		l.Offers, l.Skipped, err = readSkyPilot(src)
	default:
		l.Offers, err = ReadCSV(src)
	}
	if err != nil {
		if pe, ok := err.(*ParseError); ok {
			named := *pe
			named.Format = l.Format
			err = &named
		}
		return List{Format: l.Format}, err
	}
	return l, nil
}

// sniffFormat names the format of a list (see Read).
func sniffFormat(data []byte) string {
	t := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case bytes.HasPrefix(t, []byte("{")):
		return FormatVast
	case bytes.HasPrefix(t, []byte("[")):
		// The first offer's text, up to the end of the first object or 64 KiB.
		head, _, _ := bytes.Cut(t[:min(len(t), 64<<10)], []byte("}"))
		if bytes.Contains(head, []byte(`"dph_total"`)) || bytes.Contains(head, []byte(`"gpu_name"`)) {
			return FormatVast
		}
		return FormatJSON
	}
	// The header: the first line that is not blank or a # comment.
	for len(t) > 0 {
		var line []byte
		line, t, _ = bytes.Cut(t, []byte("\n"))
		if l := bytes.TrimSpace(line); len(l) > 0 && l[0] != '#' {
			if bytes.Contains(l, []byte("AcceleratorName")) && bytes.Contains(l, []byte("AcceleratorCount")) {
				return FormatSkyPilot
			}
			break
		}
	}
	return FormatCSV
}
