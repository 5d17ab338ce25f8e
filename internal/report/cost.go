package report

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/shopspring/decimal"
)

// units are the units of a cost line the report writes in words, by
// pricing.Line.Unit: "plan.unit."+unit+".one", ".many" and ".per" are how it
// is written after a quantity of one, of several, and after a price's slash.
var units = map[string]bool{"hour": true, "day": true, "week": true, "month": true, "term": true}

// CostLines writes a quote's lines after the cost: "; hourly 10.48 h × CNY
// 0.80/h = CNY 8.38", each rounded for reading (-json keeps them exact); a
// rounding line that rounds to nothing is left out.
func CostLines(q pricing.Quote, prefix string, lang msg.Lang) string {
	var b strings.Builder
	for _, l := range q.Lines {
		if line := CostLine(l, prefix, lang); line != "" {
			b.WriteString(lang.T("plan.cost.sep"))
			b.WriteString(line)
		}
	}
	return b.String()
}

// CostLine writes a quote's line: the quantity rounded to two places for reading
// (more for a quantity under 0.01, so it never reads 0), counted in GPU-units
// (prefix "GPU-") when the option has several GPUs priced per GPU, in
// instance-units (prefix "instance-") for an offer sold in instances, and the
// unit price as the price list gives it, and the amount rounded to the
// currency's minor unit:
// "hourly 10.48 h × CNY 0.80/h = CNY 8.38", "monthly 8 GPU-months × CNY
// 1800.00/month = CNY 14400.00", "rounding CNY -0.01"; empty for a rounding line
// under half a minor unit. -json keeps every figure exact.
func CostLine(l pricing.Line, prefix string, lang msg.Lang) string {
	if l.Unit == "" && l.Quantity.Equal(decimal.NewFromInt(1)) && l.Price.Currency == l.Amount.Currency && l.Price.Amount.Equal(l.Amount.Amount) {
		if l.Amount.Round(pricing.RoundHalfUp).Amount.IsZero() {
			return ""
		}
		return fmt.Sprintf("%s %s", ItemName(lang, l.Item), lang.Money(l.Amount)) // the rounding line
	}
	one, many, per := l.Unit, l.Unit+"s", l.Unit
	if units[l.Unit] {
		one, many, per = lang.T("plan.unit."+l.Unit+".one"), lang.T("plan.unit."+l.Unit+".many"), lang.T("plan.unit."+l.Unit+".per")
	}
	if l.Unit != "" {
		one, many = lang.F(prefix, one), lang.F(prefix, many)
	}
	shown := l.Quantity.Round(2)
	for places := int32(3); shown.IsZero() && !l.Quantity.IsZero() && places <= 9; places++ {
		shown = l.Quantity.Round(places)
	}
	qty := shown.String() + " " + many
	if shown.Equal(decimal.NewFromInt(1)) {
		qty = "1 " + one
	}
	if l.Unit == "" {
		qty, per = shown.String(), lang.T("plan.unit.unit")
	}
	return fmt.Sprintf("%s %s × %s/%s = %s", ItemName(lang, l.Item), qty, lang.Price(l.Price), per, lang.Money(l.Amount))
}

// ItemName is a quote line's item in the report's language: "hourly"; in
// Chinese "按量". An item the tables do not name keeps the library's word.
func ItemName(l msg.Lang, item string) string { return l.TOr("plan.item."+item, item) }

// billing says what an option's prices are per and how many of those units it
// rents: "GPU" and its GPU count, or for an offer sold in instances "instance"
// and the instances, with the price per GPU derived from the instance's hourly
// price ("; USD 1.99 per GPU-hour"), exact or to six places with "≈".
func billing(o plan.Option, lang msg.Lang) (unit string, units int, perGPU string) {
	n := o.Offer.GPUsPerInstance
	if n <= 1 { // per GPU, or one-GPU instances: the same
		return "GPU", o.GPUs, ""
	}
	h := o.Offer.Tariff.Hourly
	if !h.IsPositive() {
		return "instance", o.GPUs / n, ""
	}
	q := h.DivRound(decimal.NewFromInt(int64(n)), 6)
	approx := ""
	if !q.Mul(decimal.NewFromInt(int64(n))).Equal(h) {
		approx = "≈"
	}
	perGPU = lang.F("plan.basis.pergpu", approx+lang.Price(pricing.Money{Amount: q, Currency: o.Offer.Tariff.Currency}))
	return "instance", o.GPUs / n, perGPU
}

// priceBasis writes after the best option's cost what its prices are per: " for 8
// GPUs (prices per GPU)", " for 2 instances of 8 GPUs (prices per instance; USD
// 1.99 per GPU-hour)"; empty for one GPU.
func priceBasis(o plan.Option, lang msg.Lang) string {
	unit, units, perGPU := billing(o, lang)
	if unit == "GPU" {
		if o.GPUs > 1 {
			return lang.F("plan.basis.gpus", o.GPUs)
		}
		return ""
	}
	return lang.F("plan.basis.instances", lang.N(units, "plan.n.instance"), o.Offer.GPUsPerInstance, perGPU)
}

// unitPrefix is the message costLine writes a line's unit with: "GPU-%s" for
// several GPUs priced per GPU, "instance-%s" for an offer sold in instances,
// "%s" otherwise.
func unitPrefix(o plan.Option) string {
	unit, units, _ := billing(o, msg.EN)
	if unit == "instance" {
		return "plan.unitprefix.instance"
	}
	if units > 1 {
		return "plan.unitprefix.gpu"
	}
	return "plan.unitprefix.none"
}

// InstancePrefix is unitPrefix for one GPU's worth of an offer: the instance's
// when the offer is sold in instances of several GPUs, whose price is per
// instance.
func InstancePrefix(o pricing.Offer) string {
	if o.GPUsPerInstance > 1 {
		return "plan.unitprefix.instance"
	}
	return "plan.unitprefix.none"
}
