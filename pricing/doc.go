// Package pricing prices GPU rentals exactly: money, tariffs, the cheapest way to
// cover a usage, break-even against hourly use, comparison across offers, a market
// check, exchange rates, and billing what an account used. It imports only the
// standard library and decimal: no card table, no sizing, no FLOPs. Price lists are
// read into offers by package pricing/pricelist; the planner, which joins sizing,
// compute and catalog to rank rental options for a job, is package pricing/plan.
//
// The main types:
//
//   - Money: an exact decimal amount and an ISO 4217 currency; arithmetic across
//     currencies is refused (ErrCurrencyMismatch); JSON amounts are exact strings.
//   - Tariff: one offer's prices per GPU (hourly, daily, weekly, monthly, multi-month
//     terms), its month length, its billing granularity and minimum for hourly
//     use, what happens after a package, and its rounding mode.
//   - Quote and Line: a total rounded once to the currency's minor unit, and line
//     items that add up to it exactly (a visible "rounding" line takes any
//     difference).
//   - Usage: a continuous run, sessions of some hours a day, or a trial billed
//     hourly followed by a commitment.
//   - Offer: a provider's tariff for one card, with datacenter tier (SiteAvailability
//     reads it), support, interruption risk and, when a loader read it, its line
//     of the file (Offer.Line); Compare and MarketCheck work on lists of them. An
//     offer with GPUsPerInstance is sold in whole instances.
//   - Pricer: a tariff validated once to price many usages (Price, and Total for
//     the total alone).
//   - Rates: a base currency and the price of other currencies in it, to rank
//     offers priced in several.
//   - Account and Invoice: the provider's side. Account.Bill prices the sessions an
//     account used in a period under the packages it bought (Purchase), with SLA
//     credits for outages and tax, into an Invoice whose lines sum to its total;
//     Tariff.PriceBasket prices purchases as bought, beside Cost's cheapest cover.
//
// Zero values mean "not offered" for prices, 730 hours for the month, per-second
// billing for the granularity, half-up rounding, and hourly billing after a package.
//
// Money is never a float: amounts are github.com/shopspring/decimal values built
// from strings or integers, divided only with an explicit scale, and the package
// never reads or sets decimal's package-level settings (DivisionPrecision,
// MarshalJSONWithoutQuotes), so a host program's settings cannot change a price.
//
// A use, also the compiled package Example:
//
//	t := pricing.Tariff{Currency: "CNY", Hourly: decimal.RequireFromString("18"),
//		Monthly: decimal.RequireFromString("9000")}
//	q, _ := t.Cost(731 * time.Hour) // a month and an hour: CNY 9018.00
//	be, _ := t.BreakEven()          // 500h0m0s a month
//
// Every value is immutable and every function safe for concurrent use; there is
// no global state, no logging and no network access.
//
// Speed, measured with go test -bench -benchmem on a two-core AMD EPYC machine
// shared with other work (load about 1; two or three runs, the range given):
//
//	Tariff.Cost, hourly/daily/weekly/monthly, 20 h     9–10 µs      49 allocs
//	Tariff.Cost, the same tariff, 400 days             7–10 µs      66 allocs
//	Tariff.Cost, the same tariff, a hundred years      6–12 µs      29 allocs
//	Tariff.Cost, eight terms at nearly one rate, 46 y  0.6–0.75 ms  0.24 MB
//	Tariff.Cost, the same, a hundred years             1.15–1.2 ms  0.36 MB
//	Tariff.Cost, four random eight-term tariffs, 100 y 0.14–0.25 ms
//	Tariff.Cost, the slowest of 3,000 random tariffs   1.7–1.9 ms   0.38 MB
//	NewPricer; Pricer.Price of 20 h / 400 days         1.5–1.9 µs; 5–6.5 / 13.5 µs
//	Account.Bill, a million sessions                   0.88–0.96 µs a session, 224 MB
//
// (Tariff.Cost's documentation says why no valid tariff takes longer at any
// length; the slowest is BenchmarkCostRandomTerms/days-span-100y.)
//
// Errors wrap ErrInvalid, ErrCurrencyMismatch or ErrUnavailable; Validate methods
// return *FieldError values naming the field at fault by its JSON key. Messages
// start with "pricing: ", quote the input once and end with the sentinel's text,
// which carries no package name of its own: "pricing: add USD to CNY: currency
// mismatch".
package pricing
