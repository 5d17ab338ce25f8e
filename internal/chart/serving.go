package chart

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/svg"
	"github.com/gpuplan/gpuplan/sizing"
)

// Replica is the model a serving chart sweeps: its weights' format and the
// tokens of a request.
type Replica struct {
	Model          sizing.Model
	Weights        sizing.Precision
	Prompt, Output int
}

// Curve is one card's replica swept over concurrency.
type Curve struct {
	Card   catalog.Card
	Label  string                 // the legend's name for it: the card's name, and its GPUs a replica where that is not the chart's
	TP     int                    // tensor-parallel GPUs a replica
	Err    error                  // the replica holds no sequence (compute.ErrNoFit), or cannot be built
	Points []compute.ServingPoint // at sampled concurrencies, the last at MaxConcurrency
	Best   compute.ServingPoint   // the highest concurrency within the TPOT target
	Miss   bool                   // even one sequence misses the target
}

// MaxCurves is how many curves one chart compares: one colour each.
const MaxCurves = 3

// serving returns the replica of r on tp GPUs of c: the card's memory,
// bandwidth and dense 16-bit peak (FP8's for FP8 weights on a card that has
// it), and for tp above 1 the link the catalog models for tp GPUs in one
// server: NVLink, Infinity Fabric or HCCS where it joins them, PCIe of the
// card's generation otherwise.
func (r Replica) serving(c catalog.Card, tp int) (compute.Serving, error) {
	peak, ok := c.Peak(sizing.BF16)
	if !ok {
		peak, ok = c.Peak(sizing.FP16)
	}
	if fp8, has := c.Peak(sizing.FP8); r.Weights == sizing.FP8 && has {
		peak, ok = fp8, true
	}
	if !ok {
		return compute.Serving{}, fmt.Errorf("%s has no 16-bit tensor rate in the catalog", c.Name)
	}
	s := compute.Serving{Model: r.Model, Weights: r.Weights, Devices: tp,
		Memory: c.Memory, Bandwidth: c.MemoryBandwidth, Peak: peak,
		PromptTokens: r.Prompt, OutputTokens: r.Output}
	if tp > 1 {
		l, _, err := c.PeerLink(tp)
		if err != nil {
			return compute.Serving{}, err
		}
		s.Link = l
	}
	return s, nil
}

// prepare returns r's replica on tp GPUs of card prepared, or why a curve
// holds none (held: it does not fit, or the model does not take it), or an
// error for anything else.
func (r Replica) prepare(card catalog.Card, tp int) (rep compute.PreparedServing, held, err error) {
	s, err := r.serving(card, tp)
	if err != nil {
		return rep, err, nil
	}
	rep, err = s.Prepare()
	if err != nil {
		if !errors.Is(err, compute.ErrNoFit) && !errors.Is(err, compute.ErrInvalid) {
			return rep, nil, err
		}
		return rep, err, nil
	}
	return rep, nil, nil
}

// Sweep sweeps r's replica on tp GPUs of card over concurrencies 1, 2, 3, 4,
// 6, 8, 12, 16, ... (two points an octave) and its MaxConcurrency, and finds
// the highest concurrency within tpot (zero: none). A replica that holds no
// sequence, or that the model does not take (a tensor degree that does not
// divide its heads), comes back with its Err set; the error returned is for
// anything else. The curve's Label is the card's name.
func (r Replica) Sweep(card catalog.Card, tp int, tpot time.Duration) (Curve, error) {
	c := Curve{Card: card, Label: card.Name, TP: tp}
	// The replica is validated and sized once for its whole sweep.
	rep, held, err := r.prepare(card, tp)
	if err != nil || held != nil {
		c.Err = held
		return c, err
	}
	n, err := rep.MaxConcurrency()
	if err != nil {
		return c, err
	}
	for k := 1; k < n; k = next(k) {
		p, err := rep.At(k)
		if err != nil {
			return c, err
		}
		c.Points = append(c.Points, p)
	}
	p, err := rep.At(n)
	if err != nil {
		return c, err
	}
	c.Points = append(c.Points, p)
	c.Best, err = rep.Best(0, tpot)
	if errors.Is(err, compute.ErrUnreachable) {
		c.Miss, err = true, nil
	}
	return c, err
}

// next returns the concurrency sampled after k: 1, 2, 3, 4, 6, 8, 12, 16, 24, ...
func next(k int) int {
	switch {
	case k < 4:
		return k + 1
	case k&(k-1) == 0: // 2^j → 3·2^(j-1)
		return k + k/2
	}
	return k + k/3 // 3·2^j → 2^(j+2)
}

// Millis writes a duration in milliseconds, to three significant figures:
// "49.4 ms", "1234 ms".
func Millis(d time.Duration) string {
	v := d.Seconds() * 1000
	if v >= 1000 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.3g ms", v)
}

// Chart geometry, in SVG user units.
const (
	width, height = 800.0, 650.0
	left, plotW   = 90.0, 640.0
	panelH        = 220.0
	top1, top2    = 70.0, 340.0
	gridColor     = "#dddddd"
)

// colors are the curves' colours, distinct for readers with colour blindness
// (Okabe and Ito's palette).
var colors = [MaxCurves]string{"#0072B2", "#D55E00", "#009E73"}

// Serving draws the serving chart, its words in lang: two panels over the same
// logarithmic concurrency axis, the tokens a replica generates a second and
// the time per output token, a curve for each of at most MaxCurves cards; a
// filled dot ends each curve at its MaxConcurrency, an open ring marks the
// highest concurrency within the tpot target (zero: none), whose dashed line
// is drawn on the TPOT panel. subtitle says what is served.
func Serving(lang msg.Lang, subtitle string, cs []Curve, tpot time.Duration) string {
	cs = cs[:min(len(cs), MaxCurves)]
	// The x axis runs over powers of two from 1 to the largest MaxConcurrency.
	xMax, yThr, yTPOT := 2.0, 0.0, 0.0
	for _, c := range cs {
		for _, p := range c.Points {
			for xMax < float64(p.Concurrency) {
				xMax *= 2
			}
			yThr = math.Max(yThr, float64(p.Throughput))
			yTPOT = math.Max(yTPOT, p.TPOT.Seconds()*1000)
		}
	}
	if tpot > 0 {
		yTPOT = math.Max(yTPOT, tpot.Seconds()*1000*1.1)
	}
	thrStep := svg.NiceStep(math.Max(yThr, 1) / 5)
	thrMax := math.Ceil(math.Max(yThr, 1)/thrStep) * thrStep
	tpotStep := svg.NiceStep(math.Max(yTPOT, 1) / 5)
	tpotMax := math.Ceil(math.Max(yTPOT, 1)/tpotStep) * tpotStep
	octaves := math.Log2(xMax)
	x := func(k int) float64 { return left + math.Log2(float64(k))/octaves*plotW }
	y1 := func(v float64) float64 { return top1 + panelH - v/thrMax*panelH }
	y2 := func(v float64) float64 { return top2 + panelH - v/tpotMax*panelH }

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	svg.Start(&b, width, height)
	p(`<text x="%g" y="28" font-size="18" font-weight="bold">%s</text>`, left, svg.Esc(lang.T("serve.svg.title")))
	p(`<text x="%g" y="48" fill="#444444">%s</text>`, left, svg.Esc(subtitle))

	panel := func(top float64, yMax, yStep float64, y func(float64) float64, label string) {
		p(`<g stroke="%s" stroke-width="1">`, gridColor)
		for v := 0.0; v <= yMax+yStep/2; v += yStep {
			p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, left, y(v), left+plotW, y(v))
		}
		for k := 1; float64(k) <= xMax; k *= 2 {
			p(`<line x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, x(k), top, x(k), top+panelH)
		}
		p(`</g>`)
		p(`<g font-size="12" text-anchor="end" fill="#333333">`)
		for v := 0.0; v <= yMax+yStep/2; v += yStep {
			p(`<text x="%g" y="%.1f">%s</text>`, left-6, y(v)+4, tick(v))
		}
		p(`</g>`)
		p(`<g font-size="12" text-anchor="middle" fill="#333333">`)
		for k := 1; float64(k) <= xMax; k *= 2 {
			p(`<text x="%.1f" y="%g">%d</text>`, x(k), top+panelH+16, k)
		}
		p(`</g>`)
		p(`<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#333333"/>`, left, top, plotW, panelH)
		cy := top + panelH/2
		p(`<text x="%g" y="%g" text-anchor="middle" transform="rotate(-90 %g %g)">%s</text>`, left-58, cy, left-58, cy, svg.Esc(label))
	}
	panel(top1, thrMax, thrStep, y1, lang.T("serve.svg.throughput"))
	panel(top2, tpotMax, tpotStep, y2, lang.T("serve.svg.tpot"))
	p(`<text x="%g" y="%g" text-anchor="middle">%s</text>`, left+plotW/2, top2+panelH+40, svg.Esc(lang.T("serve.svg.x")))

	if tpot > 0 {
		t := tpot.Seconds() * 1000
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 4"/>`, left, y2(t), left+plotW, y2(t))
		p(`<text x="%g" y="%.1f" font-size="12" fill="#555555">%s</text>`, left+6, y2(t)-5, svg.Esc(lang.F("serve.svg.target", Millis(tpot))))
	}

	for i, c := range cs {
		if c.Err != nil {
			continue
		}
		var thr, lat strings.Builder
		for j, pt := range c.Points {
			sep := " "
			if j == 0 {
				sep = ""
			}
			fmt.Fprintf(&thr, "%s%.1f,%.1f", sep, x(pt.Concurrency), y1(float64(pt.Throughput)))
			fmt.Fprintf(&lat, "%s%.1f,%.1f", sep, x(pt.Concurrency), y2(pt.TPOT.Seconds()*1000))
		}
		p(`<polyline fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round" points="%s"/>`, colors[i], thr.String())
		p(`<polyline fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round" points="%s"/>`, colors[i], lat.String())
		end := c.Points[len(c.Points)-1]
		p(`<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"/>`, x(end.Concurrency), y1(float64(end.Throughput)), colors[i])
		p(`<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s"/>`, x(end.Concurrency), y2(end.TPOT.Seconds()*1000), colors[i])
		if tpot > 0 && !c.Miss && c.Best.Concurrency < end.Concurrency {
			p(`<circle cx="%.1f" cy="%.1f" r="6" fill="white" stroke="%s" stroke-width="2"/>`, x(c.Best.Concurrency), y1(float64(c.Best.Throughput)), colors[i])
			p(`<circle cx="%.1f" cy="%.1f" r="6" fill="white" stroke="%s" stroke-width="2"/>`, x(c.Best.Concurrency), y2(c.Best.TPOT.Seconds()*1000), colors[i])
		}
	}
	// Legend, one entry a card, in the empty upper left of the throughput panel.
	p(`<rect x="%g" y="%g" width="300" height="%g" fill="white" fill-opacity="0.9" stroke="#bbbbbb"/>`, left+10, top1+10, 10+18*float64(len(cs)))
	for i, c := range cs {
		ly := top1 + 28 + 18*float64(i)
		label := c.Label
		if c.Err != nil {
			label += lang.T("serve.svg.nofit")
		} else {
			label += lang.F("serve.svg.upto", c.Points[len(c.Points)-1].Concurrency)
		}
		p(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="3"/>`, left+18, ly-4.5, left+42, ly-4.5, colors[i])
		p(`<text x="%g" y="%g">%s</text>`, left+48, ly, svg.Esc(label))
	}
	p(`<text x="%g" y="%g" font-size="12" fill="#444444">%s</text>`, left, height-14, svg.Esc(lang.T("serve.svg.note")))
	p(`</svg>`)
	return b.String()
}

// tick formats an axis value: 12000 as 12k.
func tick(v float64) string {
	if v >= 1000 && math.Mod(v, 1000) == 0 {
		return fmt.Sprintf("%gk", v/1000)
	}
	return fmt.Sprintf("%g", v)
}
