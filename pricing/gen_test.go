package pricing

import (
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// genPrice draws a price: zero (not offered) about a third of the time, else a
// small amount with up to two decimals.
func genPrice(t *rapid.T, label string, maxCents int64) decimal.Decimal {
	if rapid.IntRange(0, 2).Draw(t, label+"_offered") == 0 {
		return decimal.Decimal{}
	}
	return decimal.New(rapid.Int64Range(1, maxCents).Draw(t, label+"_cents"), -2)
}

// genTariff draws a valid tariff with small prices, so that brute force over all
// combinations stays cheap.
func genTariff(t *rapid.T) Tariff {
	tr := Tariff{
		Currency:      rapid.SampledFrom([]string{"CNY", "USD", "JPY"}).Draw(t, "currency"),
		Hourly:        genPrice(t, "hourly", 5000),
		Daily:         genPrice(t, "daily", 60000),
		Weekly:        genPrice(t, "weekly", 300000),
		Monthly:       genPrice(t, "monthly", 1000000),
		HoursPerMonth: rapid.SampledFrom([]int{0, 720, 730, 744, 672}).Draw(t, "hours_per_month"),
		Granularity:   rapid.SampledFrom([]time.Duration{0, time.Second, time.Minute, 15 * time.Minute, time.Hour}).Draw(t, "granularity"),
		Minimum:       rapid.SampledFrom([]time.Duration{0, 0, time.Minute, time.Hour, 3 * time.Hour}).Draw(t, "minimum"),
		AfterPackage:  rapid.SampledFrom([]AfterPackage{BillHourly, BillHourly, Renew}).Draw(t, "after_package"),
		Rounding:      rapid.SampledFrom([]RoundingMode{RoundHalfUp, RoundHalfEven}).Draw(t, "rounding"),
	}
	if rapid.Bool().Draw(t, "has_term") {
		term := Term{Months: rapid.SampledFrom([]int{2, 3}).Draw(t, "term_months")}
		if !tr.Monthly.IsZero() && rapid.Bool().Draw(t, "term_by_discount") {
			term.Discount = decimal.New(rapid.Int64Range(1, 50).Draw(t, "term_discount_pct"), -2)
		} else {
			term.Monthly = decimal.New(rapid.Int64Range(1, 1000000).Draw(t, "term_monthly_cents"), -2)
		}
		tr.Terms = []Term{term}
	}
	if tr.Hourly.IsZero() && tr.Daily.IsZero() && tr.Weekly.IsZero() && tr.Monthly.IsZero() && len(tr.Terms) == 0 {
		tr.Hourly = decimal.New(rapid.Int64Range(1, 5000).Draw(t, "hourly_fallback_cents"), -2)
	}
	return tr
}

// genDuration draws a duration up to max, often on whole hours and days, sometimes
// with odd seconds.
func genDuration(t *rapid.T, label string, max time.Duration) time.Duration {
	switch rapid.IntRange(0, 2).Draw(t, label+"_kind") {
	case 0:
		return time.Duration(rapid.Int64Range(0, int64(max/time.Hour)).Draw(t, label+"_hours")) * time.Hour
	case 1:
		return time.Duration(rapid.Int64Range(0, int64(max/(24*time.Hour))).Draw(t, label+"_days")) * 24 * time.Hour
	default:
		return time.Duration(rapid.Int64Range(0, int64(max/time.Second)).Draw(t, label+"_seconds")) * time.Second
	}
}
