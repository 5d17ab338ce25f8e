package pricelist

import "github.com/shopspring/decimal"

// ParsePrice reads one price as a price list's cell writes it, for a package
// column ("hourly", "daily", "weekly" or "monthly") of a list in currency: a
// plain decimal ("1.98"), or one with its currency and period ("¥1.98",
// "1.98元/小时", "US$2.10/h", "1,200元/月"). A sign or unit of another currency,
// or of another period than the column's, is an error, as in a list, and so is a
// negative price. An empty cell, or one that marks a package not sold ("-",
// "无"), is zero. Errors wrap pricing.ErrInvalid, or pricing.ErrCurrencyMismatch
// for another currency.
func ParsePrice(column, cell, currency string) (decimal.Decimal, error) {
	d, err := priceCell(column, cell, "", currency)
	if err == nil && d.Sign() < 0 {
		return decimal.Decimal{}, &cellError{column, cell, invalidf("a negative price")}
	}
	return d, err
}
