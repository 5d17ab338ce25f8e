// Package svg holds the two helpers the examples' hand-written SVG charts share:
// a tick step that reads well and text escaping. The charts themselves stay in
// their examples, since each draws something of its own.
package svg

import (
	"encoding/xml"
	"strings"
)

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
