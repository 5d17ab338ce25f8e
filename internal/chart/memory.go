// Package chart draws the charts the example commands and the web page share,
// as SVG written by hand with the standard library: one GPU's memory as a
// stacked bar (MemoryBar), and how a model serves on a few cards, throughput
// and time per output token against concurrency (Replica.Sweep, Serving), the
// chart examples/serve draws. The words on a chart are the caller's, or the
// message tables' in the caller's language; the output is deterministic: the
// same input gives the same bytes.
package chart

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// Part is one segment of a memory bar: what it holds and its size.
type Part struct {
	Label string
	Size  sizing.Bytes
}

// partColors are the segments' colours in order, distinct for readers with
// colour blindness (Okabe and Ito's palette, less its black), and the free
// memory's grey.
var partColors = [...]string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"}

const freeColor = "#e8e8e8"

// Bar geometry, in SVG user units.
const (
	barWidth   = 720.0
	barLeft    = 10.0
	barTop     = 34.0
	barHeight  = 30.0
	legendTop  = barTop + barHeight + 24
	legendLine = 20.0
	charWidth  = 7.2 // of a narrow character at 13 px, for laying out the legend
)

// MemoryBar draws one GPU's memory: title above a bar as wide as capacity,
// each part of positive size a segment in order, then the memory left free
// (labelled free) in grey, and under it a legend of each part's label and size
// (Bytes.Human). When the parts add up past capacity, the bar is as wide as
// their sum and has no free segment.
func MemoryBar(title string, parts []Part, capacity sizing.Bytes, free string) string {
	// Each segment keeps its part's colour, whichever parts are empty, so that
	// weights are the same blue on every bar.
	type segment struct {
		Part
		color string
	}
	var shown []segment
	var used sizing.Bytes
	for i, p := range parts {
		if p.Size > 0 {
			shown = append(shown, segment{p, partColors[i%len(partColors)]})
			used += p.Size
		}
	}
	scale := max(capacity, used)
	if scale <= 0 {
		scale = 1
	}
	if left := capacity - used; left > 0 {
		shown = append(shown, segment{Part{Label: free, Size: left}, freeColor})
	}

	// The legend, laid out in lines that fit the width.
	type entry struct {
		x, y  float64
		label string
		color string
	}
	var legend []entry
	x, y := barLeft, legendTop
	for _, p := range shown {
		label := p.Label + " " + p.Size.Human()
		w := 18 + float64(text.Width(label))*charWidth + 18
		if x > barLeft && x+w > barLeft+barWidth {
			x, y = barLeft, y+legendLine
		}
		legend = append(legend, entry{x, y, label, p.color})
		x += w
	}
	height := y + 14

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	svg.Start(&b, barWidth+2*barLeft, height)
	p(`<text x="%g" y="20" font-weight="bold">%s</text>`, barLeft, svg.Esc(title))
	at := barLeft
	for _, part := range shown {
		w := float64(part.Size) / float64(scale) * barWidth
		p(`<rect x="%.1f" y="%g" width="%.1f" height="%g" fill="%s"><title>%s</title></rect>`,
			at, barTop, w, barHeight, part.color, svg.Esc(part.Label+" "+part.Size.Human()))
		at += w
	}
	p(`<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#333333"/>`, barLeft, barTop, barWidth, barHeight)
	for _, e := range legend {
		p(`<rect x="%.1f" y="%g" width="12" height="12" fill="%s" stroke="#999999" stroke-width="0.5"/>`, e.x, e.y-10, e.color)
		p(`<text x="%.1f" y="%g">%s</text>`, e.x+18, e.y, svg.Esc(e.label))
	}
	p(`</svg>`)
	return b.String()
}
