// Package msg holds what the example commands print in words, in English and in
// Chinese: the language a command speaks (Lang, chosen with -lang or from the
// locale), and how it writes money, durations and counts of tokens for a reader.
// The library's own messages stay English; the commands print these around them.
package msg

import (
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
)

// Lang is a language the commands speak. The zero value is English.
type Lang uint8

const (
	EN Lang = iota // English
	ZH             // Chinese (Simplified), as the seed articles and Chinese rental platforms write
)

// String is the language's code for -lang: "en" or "zh".
func (l Lang) String() string {
	if l == ZH {
		return "zh"
	}
	return "en"
}

// Money writes an amount for a reader, rounded half up to its currency's minor
// unit (the exact figure is JSON's): "CNY 8.38" in English, "¥8.38" in Chinese
// for yuan (other currencies keep their code: "USD 2.10"). An amount that
// rounds to zero but is not zero keeps its significant digits ("CNY 0.0004"), so
// that a price per second never reads as free.
func (l Lang) Money(m pricing.Money) string {
	amount := Amount(m)
	if l == ZH && m.Currency == "CNY" {
		if neg, ok := strings.CutPrefix(amount, "-"); ok {
			return "-¥" + neg
		}
		return "¥" + amount
	}
	return m.Currency + " " + amount
}

// Price writes a unit price as the price list gives it, exact, with at least
// the currency's minor-unit digits: "CNY 0.80", "USD 0.333"; "¥0.333" in
// Chinese. A price is an input, not a sum: it is never rounded.
func (l Lang) Price(m pricing.Money) string {
	exact := m.Exact()
	if l == ZH && m.Currency == "CNY" {
		amount := strings.TrimPrefix(exact, m.Currency+" ")
		if neg, ok := strings.CutPrefix(amount, "-"); ok {
			return "-¥" + neg
		}
		return "¥" + amount
	}
	return exact
}

// Amount writes m's amount as Money does, without the currency: for a column
// whose heading names it.
func Amount(m pricing.Money) string {
	r := m.Round(pricing.RoundHalfUp)
	if r.Amount.IsZero() && !m.Amount.IsZero() {
		return m.Amount.String()
	}
	return r.Amount.StringFixed(pricing.MinorUnit(m.Currency))
}

// Dur writes a duration as the duration flags read it, rounded for a reader: to
// the second under an hour, to the minute from an hour, with zero minutes and
// seconds left out: "45s", "17m28s", "10h29m", "730h". Under a second it keeps
// milliseconds ("350ms"). Chinese writes the units in words: "10小时29分钟".
func (l Lang) Dur(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	switch {
	case d == 0:
		return l.pick("0s", "0秒")
	case d < time.Second:
		ms := d.Round(time.Millisecond)
		return neg + l.pick(ms.String(), strconv.FormatInt(int64(ms/time.Millisecond), 10)+"毫秒")
	case d < time.Hour:
		d = d.Round(time.Second)
	default:
		d = d.Round(time.Minute)
	}
	h, m, s := int64(d/time.Hour), int64(d%time.Hour/time.Minute), int64(d%time.Minute/time.Second)
	units := [3]string{"h", "m", "s"}
	if l == ZH {
		units = [3]string{"小时", "分钟", "秒"}
	}
	var b strings.Builder
	b.WriteString(neg)
	for i, v := range [3]int64{h, m, s} {
		if v != 0 {
			b.WriteString(strconv.FormatInt(v, 10))
			b.WriteString(units[i])
		}
	}
	return b.String()
}

// Tokens writes a count of tokens (or of anything) short, to three significant
// figures: "50M", "1.5B", "2T", "800K", "512" in English; in Chinese by 万 and 亿
// as Chinese writes large numbers: "5000万", "15亿", "800".
func (l Lang) Tokens(n float64) string {
	type unit struct {
		size float64
		name string
	}
	units := []unit{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}}
	if l == ZH {
		units = []unit{{1e12, "万亿"}, {1e8, "亿"}, {1e4, "万"}}
	}
	for _, u := range units {
		if n >= u.size {
			return strconv.FormatFloat(round3(n/u.size), 'f', -1, 64) + u.name
		}
	}
	return strconv.FormatFloat(round3(n), 'f', -1, 64)
}

// round3 rounds v to three significant figures, at least to a whole number from
// 100 up.
func round3(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return f
}

// pick is en or zh, by l.
func (l Lang) pick(en, zh string) string {
	if l == ZH {
		return zh
	}
	return en
}
