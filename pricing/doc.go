// Package pricing prices GPU rentals exactly: money, tariffs, the cheapest way to
// cover a usage, break-even against hourly use, comparison across offers, a market
// check, exchange rates, and billing what an account used.
//
// Most callers want Tariff.Price: the cheapest way to pay for a Usage (a
// continuous run, some hours a day, or a trial then a commitment) on some GPUs
// under one Tariff, as a Quote whose line items add up to its total. The other
// ways to price are shorthands for it or serve particular callers:
//
//   - Tariff.Cost(d) is shorthand for Price(Continuous(d), 1), a run on one GPU,
//     and Tariff.CostGPUs(d, gpus) for Price(Continuous(d), gpus).
//   - Compare calls Price for each of many offers and sorts them, cheapest first.
//   - A Pricer (NewPricer) is a tariff validated once, for a caller that prices it
//     many times, as a planner does: Pricer.Price is Tariff.Price, Pricer.Total
//     its total alone, Pricer.Floor a cheap lower bound of that total, and
//     Pricer.FloorAbove that bound compared with a price, without allocating.
//   - Tariff.PriceBasket prices packages as they were bought, not the cheapest
//     cover; Account.Bill prices what an account used in a period into an
//     Invoice, the provider's side.
//
// The main types:
//
//   - Money: an exact decimal amount and an ISO 4217 currency; arithmetic across
//     currencies is refused (ErrCurrencyMismatch); JSON amounts are exact
//     strings; String and a Quote's total round to the currency's minor unit
//     (MinorUnit, from ISO 4217's table: JPY 0, CNY 2, KWD 3).
//   - Tariff: one offer's prices per GPU (hourly, daily, weekly, monthly,
//     multi-month terms), its month length, its billing granularity and minimum
//     for hourly use, what happens after a package, and its rounding mode.
//   - Quote and Line: a total rounded once to the currency's minor unit, and line
//     items that add up to it exactly (a visible "rounding" line takes any
//     difference).
//   - Usage: a continuous run, sessions of some hours a day, or a trial billed
//     hourly followed by a commitment.
//   - Offer: a provider's tariff for one card, with datacenter tier
//     (SiteAvailability reads it), support, interruption risk, host RAM and, when
//     a price list was read, its line (Offer.Line). Package pricing/pricelist reads
//     price lists into offers. An offer with GPUsPerInstance is sold in whole
//     instances.
//   - Rates: a base currency and the price of other currencies in it, to rank
//     offers priced in several.
//   - Account and Invoice: the provider's side, with purchases (Purchase), SLA
//     credits for outages and tax, in an Invoice whose lines sum to its total.
//
// Zero values mean "not offered" for prices, 730 hours for the month, per-second
// billing for the granularity, half-up rounding, and hourly billing after a package.
//
// Money is never a float: amounts are github.com/shopspring/decimal values built
// from strings or integers, divided only with an explicit scale, and the package
// never reads or sets decimal's package-level settings (DivisionPrecision,
// MarshalJSONWithoutQuotes), so a host program's settings cannot change a price.
// Every decimal input has its exponent bounded before any arithmetic or
// formatting: prices below 10^15 with at most 12 places, amounts with exponents
// from -60 to 60.
//
// A use, also the compiled package Example:
//
//	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("18"),
//		Monthly: decimal.RequireFromString("9000")}
//	q, _ := t.Price(pricing.Continuous(731*time.Hour), 2) // two GPUs, a month and an hour
//	fmt.Println(q.Total)                                   // CNY 18036.00
//
// Every value is immutable and every function safe for concurrent use; there is
// no global state, no logging and no network access. The package imports the
// standard library, decimal and two small internal packages of this module
// (internal/checked, internal/text); see the README on vendoring it.
//
// Errors wrap ErrInvalid, ErrCurrencyMismatch or ErrUnavailable; Validate methods
// return *FieldError values naming the field at fault by its JSON key. Messages
// start with "pricing: ", quote at most a short excerpt of the input and end with
// the sentinel's text, which carries no package name of its own: "pricing: add
// USD to CNY: currency mismatch".
package pricing
