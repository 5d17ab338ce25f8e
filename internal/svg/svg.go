// Package svg holds the helpers the examples' hand-written SVG charts share: the
// document's start, a tick step that reads well and text escaping. The charts
// themselves stay in their examples, since each draws something of its own.
package svg

import (
	"encoding/xml"
	"fmt"
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
