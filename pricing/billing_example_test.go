package pricing_test

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/pricing"
)

// An account with one monthly package on two GPUs runs four GPUs for ten hours:
// the package covers two of them, the other two are billed hourly. An hour's
// outage in a 30-day period (99.86% available) earns a 10% credit, and 6% tax is
// charged on what remains.
func ExampleAccount_Bill() {
	jan := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	acct := pricing.Account{
		Tariff:    pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("18"), Monthly: decimal.RequireFromString("9000")},
		Purchases: []pricing.Purchase{{Package: pricing.Monthly, Start: jan, GPUs: 2}},
		TaxRate:   decimal.RequireFromString("0.06"),
		SLA:       pricing.SLA{Availability: 0.999, Credits: []pricing.Credit{{Below: 0.999, Percent: decimal.RequireFromString("10")}}},
	}
	inv, err := acct.Bill(jan, jan.AddDate(0, 0, 30),
		[]pricing.Session{{Start: jan.Add(time.Hour), End: jan.Add(11 * time.Hour), GPUs: 4}},
		[]pricing.Outage{{Start: jan.Add(2 * time.Hour), End: jan.Add(3 * time.Hour)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range inv.Lines {
		fmt.Printf("%-10s %4s %-7s %s\n", l.Item, l.Quantity, l.Unit, l.Amount)
	}
	fmt.Println("total", inv.Total)
	// Output:
	// monthly       2 month   CNY 18000.00
	// hourly       20 hour    CNY 360.00
	// sla_credit   10 percent CNY -1836.00
	// tax           6 percent CNY 991.44
	// total CNY 17515.44
}

// One monthly package plus three daily ones, priced as bought, against the
// cheapest cover of the 30 days they were meant for.
func ExampleTariff_PriceBasket() {
	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("18"),
		Daily: decimal.RequireFromString("300"), Monthly: decimal.RequireFromString("9000")}
	bought, _ := t.PriceBasket([]pricing.Purchase{{Package: pricing.Monthly}, {Package: pricing.Daily, GPUs: 3}})
	cheapest, _ := t.Cost(30 * 24 * time.Hour)
	fmt.Println("bought:", bought.Total)
	fmt.Println("cheapest cover:", cheapest.Total)
	// Output:
	// bought: CNY 9900.00
	// cheapest cover: CNY 9000.00
}
