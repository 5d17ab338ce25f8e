package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/shopspring/decimal"
)

// TestCostLine checks each kind of quote line: the quantity with its unit, the
// price per unit, and the amounts rounded to the minor unit for reading (an
// amount that would round to nothing keeps its digits; a rounding line that
// would is left out).
func TestCostLine(t *testing.T) {
	cny := func(s string) pricing.Money {
		return pricing.Money{Amount: decimal.RequireFromString(s), Currency: "CNY"}
	}
	for _, tc := range []struct {
		name string
		line pricing.Line
		want string
	}{
		{"hourly, exact to the tenth of a fen", pricing.Line{Item: "hourly", Unit: "hour", Quantity: decimal.RequireFromString("10.4775"), Price: cny("0.8"), Amount: cny("8.382")},
			"hourly 10.48 h × CNY 0.80/h = CNY 8.38"},
		{"one hour", pricing.Line{Item: "hourly", Unit: "hour", Quantity: decimal.NewFromInt(1), Price: cny("0.80"), Amount: cny("0.80")},
			"hourly 1 h × CNY 0.80/h = CNY 0.80"},
		{"months", pricing.Line{Item: "monthly", Unit: "month", Quantity: decimal.NewFromInt(5), Price: cny("1800"), Amount: cny("9000")},
			"monthly 5 months × CNY 1800.00/month = CNY 9000.00"},
		{"one day", pricing.Line{Item: "daily", Unit: "day", Quantity: decimal.NewFromInt(1), Price: cny("24"), Amount: cny("24")},
			"daily 1 day × CNY 24.00/day = CNY 24.00"},
		{"weeks", pricing.Line{Item: "weekly", Unit: "week", Quantity: decimal.NewFromInt(2), Price: cny("150"), Amount: cny("300")},
			"weekly 2 weeks × CNY 150.00/week = CNY 300.00"},
		{"term", pricing.Line{Item: "term_12m", Unit: "term", Quantity: decimal.NewFromInt(1), Price: cny("60000"), Amount: cny("60000")},
			"term_12m 1 term × CNY 60000.00/term = CNY 60000.00"},
		{"trial, nine places", pricing.Line{Item: "trial", Unit: "hour", Quantity: decimal.RequireFromString("0.001944444"), Price: cny("1.3"), Amount: cny("0.002527778")},
			"trial 0.002 h × CNY 1.30/h = CNY 0.002527778"},
		{"rounding down", pricing.Line{Item: "rounding", Quantity: decimal.NewFromInt(1), Price: cny("-0.002"), Amount: cny("-0.002")},
			""},
		{"rounding a cent", pricing.Line{Item: "rounding", Quantity: decimal.NewFromInt(1), Price: cny("-0.005"), Amount: cny("-0.005")},
			"rounding CNY -0.01"},
		{"yen, no minor unit", pricing.Line{Item: "hourly", Unit: "hour", Quantity: decimal.NewFromInt(3), Price: pricing.Money{Amount: decimal.NewFromInt(250), Currency: "JPY"}, Amount: pricing.Money{Amount: decimal.NewFromInt(750), Currency: "JPY"}},
			"hourly 3 h × JPY 250/h = JPY 750"},
		{"unit not known here", pricing.Line{Item: "quarterly", Unit: "quarter", Quantity: decimal.NewFromInt(2), Price: cny("5000"), Amount: cny("10000")},
			"quarterly 2 quarters × CNY 5000.00/quarter = CNY 10000.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CostLine(tc.line, "plan.unitprefix.none", msg.EN); got != tc.want {
				t.Errorf("CostLine() = %q, want %q", got, tc.want)
			}
		})
	}
}

// On several GPUs a line counts GPU-units.
func TestCostLineGPUUnits(t *testing.T) {
	cny := func(s string) pricing.Money {
		return pricing.Money{Amount: decimal.RequireFromString(s), Currency: "CNY"}
	}
	l := pricing.Line{Item: "monthly", Unit: "month", Quantity: decimal.NewFromInt(8), Price: cny("1800"), Amount: cny("14400")}
	if got, want := CostLine(l, "plan.unitprefix.gpu", msg.EN), "monthly 8 GPU-months × CNY 1800.00/month = CNY 14400.00"; got != want {
		t.Errorf("CostLine() = %q, want %q", got, want)
	}
	l = pricing.Line{Item: "hourly", Unit: "hour", Quantity: decimal.RequireFromString("172.7166"), Price: cny("8"), Amount: cny("1381.7328")}
	if got, want := CostLine(l, "plan.unitprefix.gpu", msg.EN), "hourly 172.72 GPU-h × CNY 8.00/h = CNY 1381.73"; got != want {
		t.Errorf("CostLine() = %q, want %q", got, want)
	}
}

// Prices per GPU are derived from the instance's price, exact where the division
// ends and marked ≈ where it does not.
func TestPriceBasis(t *testing.T) {
	for _, tc := range []struct {
		per, gpus int
		hourly    string
		want      string
	}{
		{0, 1, "2", ""},
		{0, 4, "2", " for 4 GPUs (prices per GPU)"},
		{1, 3, "1.99", " for 3 GPUs (prices per GPU)"},
		{8, 8, "15.92", " for 1 instance of 8 GPUs (prices per instance; USD 1.99 per GPU-hour)"},
		{8, 16, "15.92", " for 2 instances of 8 GPUs (prices per instance; USD 1.99 per GPU-hour)"},
		{3, 3, "1", " for 1 instance of 3 GPUs (prices per instance; ≈USD 0.333333 per GPU-hour)"},
	} {
		o := plan.Option{GPUs: tc.gpus, Offer: pricing.Offer{GPUsPerInstance: tc.per,
			Tariff: pricing.Tariff{Currency: "USD", Hourly: decimal.RequireFromString(tc.hourly)}}}
		if got := priceBasis(o, msg.EN); got != tc.want {
			t.Errorf("%d GPUs in instances of %d at %s: %q, want %q", tc.gpus, tc.per, tc.hourly, got, tc.want)
		}
	}
}
