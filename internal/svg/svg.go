// Package svg holds the helpers the examples' hand-written SVG charts share: the
// document's start, a tick step that reads well and text escaping. The charts
// themselves stay in their examples, since each draws something of its own.
package svg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Start writes the start of a chart of width by height pixels to b: the XML
// declaration, the svg element (13-pixel Helvetica, Arial or sans-serif text) and
// a white background. The chart ends with "</svg>".
func Start(b *strings.Builder, width, height float64) {
	fmt.Fprintf(b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="Helvetica, Arial, sans-serif" font-size="13">
<rect width="100%%" height="100%%" fill="white"/>
`, width, height, width, height)
}

// NiceStep rounds a tick step up to 1, 2 or 5 times a power of ten, so that axis
// labels read 0, 20, 40 rather than 0, 17.3, 34.6. v must be positive.
func NiceStep(v float64) float64 {
	p := 1.0
	for p*10 <= v {
		p *= 10
	}
	for p > v {
		p /= 10
	}
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// Esc escapes s for an SVG text node or attribute.
func Esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails to write
	return b.String()
}

// Check reports whether doc is well-formed XML whose root is an svg element in the
// SVG namespace: what the examples' golden tests hold every chart to.
func Check(doc []byte) error {
	d := xml.NewDecoder(bytes.NewReader(doc))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("svg: not well-formed XML: %w", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
			if se.Name.Space != "http://www.w3.org/2000/svg" {
				return fmt.Errorf("svg: root namespace %q, want the SVG namespace", se.Name.Space)
			}
		}
	}
	if root != "svg" {
		return fmt.Errorf("svg: root element %q, want svg", root)
	}
	return nil
}
