package chart

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/svg"
)

// LoadCurve is one card's replica under requests arriving at random (a
// Poisson process, compute.PreparedServing.Under) at rates from a small share
// of its capacity to most of it.
type LoadCurve struct {
	Card     catalog.Card
	Label    string              // the legend's name for it
	Err      error               // the replica holds no sequence, or cannot be built
	Capacity float64             // requests a second the replica completes with every slot busy
	Points   []compute.LoadPoint // at LoadShares of the capacity
}

// LoadShares are the shares of a replica's capacity a load curve samples: the
// latencies climb slowly, then steeply as the queue forms near the capacity.
var LoadShares = [...]float64{0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9}

// Load sweeps r's replica on tp GPUs of card over LoadShares of its capacity
// (compute.PreparedServing.Capacity), one Under call each. A replica that holds
// no sequence, or that the model does not take, comes back with its Err set;
// the error returned is for anything else.
func (r Replica) Load(card catalog.Card, tp int) (LoadCurve, error) {
	c := LoadCurve{Card: card, Label: card.Name}
	rep, held, err := r.prepare(card, tp)
	if err != nil || held != nil {
		c.Err = held
		return c, err
	}
	if c.Capacity, err = rep.Capacity(); err != nil {
		return c, err
	}
	for _, f := range LoadShares {
		p, err := rep.Under(f * c.Capacity)
		if err != nil {
			return c, err
		}
		c.Points = append(c.Points, p)
	}
	return c, nil
}

// percentile styles: the median solid, p90 dashed, p99 dotted.
var percentileDash = [3]string{"", ` stroke-dasharray="7 4"`, ` stroke-dasharray="2 3"`}

// LoadChart draws the load chart, its words in lang: two panels over the same
// axis of requests a second one replica serves, the time to first token (on
// a logarithmic scale: it climbs by orders of magnitude as a queue forms) and
// the time per output token, each at the 50th, 90th and 99th percentiles
// (solid, dashed, dotted), a colour for each of at most MaxCurves cards; the
// ttft and tpot targets (zero: none) are dashed grey lines across their
// panels. subtitle says what is served.
func LoadChart(lang msg.Lang, subtitle string, cs []LoadCurve, ttft, tpot time.Duration) string {
	cs = cs[:min(len(cs), MaxCurves)]
	xMax, ttMin, ttMax, tpMax := 0.0, math.Inf(1), 0.0, 0.0
	for _, c := range cs {
		for _, p := range c.Points {
			xMax = math.Max(xMax, p.Rate)
			for _, v := range [...]time.Duration{p.TTFT.P50, p.TTFT.P90, p.TTFT.P99} {
				ttMin, ttMax = math.Min(ttMin, ms(v)), math.Max(ttMax, ms(v))
			}
			tpMax = math.Max(tpMax, ms(p.TPOT.P99))
		}
	}
	if ttft > 0 {
		ttMin, ttMax = math.Min(ttMin, ms(ttft)), math.Max(ttMax, ms(ttft))
	}
	if tpot > 0 {
		tpMax = math.Max(tpMax, ms(tpot)*1.1)
	}
	if math.IsInf(ttMin, 1) || ttMin <= 0 {
		ttMin, ttMax = 1, 10
	}
	xStep := svg.NiceStep(math.Max(xMax, 0.1) / 6)
	xTop := math.Ceil(math.Max(xMax, 0.1)/xStep) * xStep
	lo, hi := math.Floor(math.Log10(ttMin)), math.Ceil(math.Log10(ttMax))
	if hi <= lo {
		hi = lo + 1
	}
	tpStep := svg.NiceStep(math.Max(tpMax, 1) / 5)
	tpTop := math.Ceil(math.Max(tpMax, 1)/tpStep) * tpStep
	x := func(v float64) float64 { return left + v/xTop*plotW }
	y1 := func(v float64) float64 { return top1 + panelH - (math.Log10(math.Max(v, 1e-3))-lo)/(hi-lo)*panelH }
	y2 := func(v float64) float64 { return top2 + panelH - v/tpTop*panelH }

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	svg.Start(&b, width, height)
	p(`<text x="%g" y="28" font-size="18" font-weight="bold">%s</text>`, left, svg.Esc(lang.T("serve.load.title")))
	p(`<text x="%g" y="48" fill="#444444">%s</text>`, left, svg.Esc(subtitle))

	frame := func(top float64, label string) {
		p(`<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#333333"/>`, left, top, plotW, panelH)
		cy := top + panelH/2
		p(`<text x="%g" y="%g" text-anchor="middle" transform="rotate(-90 %g %g)">%s</text>`, left-58, cy, left-58, cy, svg.Esc(label))
		p(`<g stroke="%s" stroke-width="1">`, gridColor)
		for v := 0.0; v <= xTop+xStep/2; v += xStep {
			p(`<line x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, x(v), top, x(v), top+panelH)
		}
		p(`</g>`)
		p(`<g font-size="12" text-anchor="middle" fill="#333333">`)
		for v := 0.0; v <= xTop+xStep/2; v += xStep {
			p(`<text x="%.1f" y="%g">%s</text>`, x(v), top+panelH+16, tick(v))
		}
		p(`</g>`)
	}
	// TTFT: decades, log scale.
	frame(top1, lang.T("serve.load.ttft"))
	p(`<g stroke="%s" stroke-width="1">`, gridColor)
	for e := lo; e <= hi; e++ {
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, left, y1(math.Pow(10, e)), left+plotW, y1(math.Pow(10, e)))
	}
	p(`</g>`)
	p(`<g font-size="12" text-anchor="end" fill="#333333">`)
	for e := lo; e <= hi; e++ {
		p(`<text x="%g" y="%.1f">%s</text>`, left-6, y1(math.Pow(10, e))+4, tick(math.Pow(10, e)))
	}
	p(`</g>`)
	// TPOT: linear.
	frame(top2, lang.T("serve.load.tpot"))
	p(`<g stroke="%s" stroke-width="1">`, gridColor)
	for v := 0.0; v <= tpTop+tpStep/2; v += tpStep {
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, left, y2(v), left+plotW, y2(v))
	}
	p(`</g>`)
	p(`<g font-size="12" text-anchor="end" fill="#333333">`)
	for v := 0.0; v <= tpTop+tpStep/2; v += tpStep {
		p(`<text x="%g" y="%.1f">%s</text>`, left-6, y2(v)+4, tick(v))
	}
	p(`</g>`)
	p(`<text x="%g" y="%g" text-anchor="middle">%s</text>`, left+plotW/2, top2+panelH+40, svg.Esc(lang.T("serve.load.x")))
	target := func(v float64, y func(float64) float64, d time.Duration) {
		p(`<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 4"/>`, left, y(v), left+plotW, y(v))
		p(`<text x="%g" y="%.1f" font-size="12" fill="#555555">%s</text>`, left+6, y(v)-5, svg.Esc(lang.F("serve.load.target", Millis(d))))
	}
	if ttft > 0 {
		target(ms(ttft), y1, ttft)
	}
	if tpot > 0 {
		target(ms(tpot), y2, tpot)
	}
	for i, c := range cs {
		if c.Err != nil {
			continue
		}
		for j, pick := range [...]func(compute.Percentiles) time.Duration{
			func(q compute.Percentiles) time.Duration { return q.P50 },
			func(q compute.Percentiles) time.Duration { return q.P90 },
			func(q compute.Percentiles) time.Duration { return q.P99 },
		} {
			var tt, tp strings.Builder
			for k, pt := range c.Points {
				sep := " "
				if k == 0 {
					sep = ""
				}
				fmt.Fprintf(&tt, "%s%.1f,%.1f", sep, x(pt.Rate), y1(ms(pick(pt.TTFT))))
				fmt.Fprintf(&tp, "%s%.1f,%.1f", sep, x(pt.Rate), y2(ms(pick(pt.TPOT))))
			}
			p(`<polyline fill="none" stroke="%s" stroke-width="2"%s stroke-linejoin="round" points="%s"/>`, colors[i], percentileDash[j], tt.String())
			p(`<polyline fill="none" stroke="%s" stroke-width="2"%s stroke-linejoin="round" points="%s"/>`, colors[i], percentileDash[j], tp.String())
		}
	}
	// Legend, a line a card, then the percentiles' styles, in the upper right of
	// the TTFT panel, where the latencies are high only for the slowest card
	// near its capacity.
	lx0 := left + plotW - 330
	p(`<rect x="%g" y="%g" width="320" height="%g" fill="white" fill-opacity="0.9" stroke="#bbbbbb"/>`, lx0, top1+10, 10+18*float64(len(cs)+1))
	for i, c := range cs {
		ly := top1 + 28 + 18*float64(i)
		label := c.Label
		if c.Err != nil {
			label += lang.T("serve.svg.nofit")
		} else {
			label += lang.F("serve.load.capacity", c.Capacity)
		}
		p(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="3"/>`, lx0+8, ly-4.5, lx0+32, ly-4.5, colors[i])
		p(`<text x="%g" y="%g">%s</text>`, lx0+38, ly, svg.Esc(label))
	}
	ly := top1 + 28 + 18*float64(len(cs))
	for j, name := range [...]string{"p50", "p90", "p99"} {
		lx := lx0 + 8 + 90*float64(j)
		p(`<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#333333" stroke-width="2"%s/>`, lx, ly-4.5, lx+28, ly-4.5, percentileDash[j])
		p(`<text x="%g" y="%g">%s</text>`, lx+34, ly, name)
	}
	p(`<text x="%g" y="%g" font-size="12" fill="#444444">%s</text>`, left, height-14, svg.Esc(lang.T("serve.load.note")))
	p(`</svg>`)
	return b.String()
}

// ms is a duration in milliseconds, for a chart's axis.
func ms(d time.Duration) float64 { return d.Seconds() * 1000 }
