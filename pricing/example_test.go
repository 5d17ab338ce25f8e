package pricing_test

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

func Example() {
	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("18"),
		Monthly: decimal.RequireFromString("9000")}
	q, _ := t.Price(pricing.Continuous(731*time.Hour), 2) // two GPUs, a month and an hour
	fmt.Println(q.Total)                                  // CNY 18036.00
	for _, l := range q.Lines {
		fmt.Println(l.Item, l.Quantity, l.Amount)
	}
	// Output:
	// CNY 18036.00
	// monthly 2 CNY 18000.00
	// hourly 2 CNY 36.00
}

func ExampleTariff_Cost() {
	t := pricing.Tariff{
		Currency: "CNY",
		Hourly:   decimal.RequireFromString("18"),
		Daily:    decimal.RequireFromString("300"),
		Monthly:  decimal.RequireFromString("9000"),
	}
	// One month (730 hours) and three days and an hour.
	q, err := t.Cost(730*time.Hour + 73*time.Hour)
	if err != nil {
		panic(err)
	}
	for _, l := range q.Lines {
		fmt.Printf("%-8s %4s × %s = %s\n", l.Item, l.Quantity, l.Price, l.Amount)
	}
	fmt.Println("total", q.Total)
	// Output:
	// monthly     1 × CNY 9000.00 = CNY 9000.00
	// daily       3 × CNY 300.00 = CNY 900.00
	// hourly      1 × CNY 18.00 = CNY 18.00
	// total CNY 9918.00
}

func ExampleTariff_BreakEven() {
	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("18"), Monthly: decimal.RequireFromString("9000")}
	be, err := t.BreakEven()
	if err != nil {
		panic(err)
	}
	fmt.Println(be, "of a", pricing.DefaultHoursPerMonth, "hour month")
	// Output: 500h0m0s of a 730 hour month
}

func ExampleTariff_Price() {
	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("1.60"), Daily: decimal.RequireFromString("35"),
		Monthly: decimal.RequireFromString("900"), Granularity: time.Minute}
	// Eight hours a day for 30 days on 2 GPUs: hourly pays only the hours used.
	q, _ := t.Price(pricing.DailySessions(8*time.Hour, 30), 2)
	fmt.Println(q.Total, q.Lines[0].Item, q.Lines[0].Quantity, "GPU-hours")
	// A 12-hour trial, then a month: rent short first, then commit.
	q, _ = t.Price(pricing.TrialThen(12*time.Hour, 730*time.Hour), 2)
	for _, l := range q.Lines {
		fmt.Println(l.Item, l.Quantity, l.Amount)
	}
	// Output:
	// CNY 768.00 hourly 480 GPU-hours
	// trial 24 CNY 38.40
	// monthly 2 CNY 1800.00
}

func ExampleCompare() {
	offer := func(provider, region, hourly, daily, monthly string, granularity time.Duration) pricing.Offer {
		price := func(s string) decimal.Decimal { d, _ := pricing.ParseDecimal(s); return d }
		return pricing.Offer{Provider: provider, Region: region, Card: "RTX 4090", Tariff: pricing.Tariff{
			Currency: "CNY", Hourly: price(hourly), Daily: price(daily), Monthly: price(monthly), Granularity: granularity}}
	}
	offers := []pricing.Offer{
		offer("sample-a", "cn-hangzhou", "1.60", "35", "900", time.Second),
		offer("sample-b", "cn-hangzhou", "1.35", "30", "0", time.Minute),
		offer("sample-c", "cn-beijing", "1.90", "0", "1000", time.Hour),
	}
	cmp, err := pricing.Compare(offers, pricing.Continuous(20*24*time.Hour), 4)
	if err != nil {
		panic(err)
	}
	for _, c := range cmp {
		fmt.Println(c.Offer.Provider, c.Quote.Total)
	}
	// Output:
	// sample-b CNY 2400.00
	// sample-a CNY 2800.00
	// sample-c CNY 3648.00
}

func ExampleMarketCheck() {
	var offers []pricing.Offer
	for i, o := range []struct{ card, hourly string }{
		{"RTX 4090", "1.60"}, {"NVIDIA GeForce RTX 4090", "1.35"}, {"rtx-4090", "0.80"}, {"RTX 4090", "1.90"},
	} {
		offers = append(offers, pricing.Offer{Provider: string(rune('a' + i)), Card: o.card, Line: i + 2,
			Tariff: pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString(o.hourly)}})
	}
	checks, _ := pricing.MarketCheck(offers, decimal.RequireFromString("0.3"))
	for _, c := range checks {
		if c.Flag != pricing.PriceNormal {
			fmt.Println(c.Flag, c.Message)
		}
	}
	// Output:
	// below c rtx-4090 (line 4) at CNY 0.80/h is 45.8% below the median CNY 1.475/h of 4 offers of rtx-4090: a price far under the going rate often hides a lesser card or missing service; check the delivered card with nvidia-smi and what support is included
}

// The second seed article warns that a cheap machine room costs a long job in
// outages; the Uptime Institute's tiers give a site's design availability.
func ExampleSiteAvailability() {
	for _, tier := range []string{"T2", "Tier III"} {
		a, _ := pricing.SiteAvailability(tier)
		fmt.Printf("%s: %.3f%%, about %.1f h of site outage a year\n", tier, a*100, (1-a)*8760)
	}
	// Output:
	// T2: 99.741%, about 22.7 h of site outage a year
	// Tier III: 99.982%, about 1.6 h of site outage a year
}
