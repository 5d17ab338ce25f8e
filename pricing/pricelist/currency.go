package pricelist

import (
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
)

// currencyHints names the ISO code of the currency names and signs price lists
// write in a currency column.
var currencyHints = map[string]string{
	"RMB": "CNY", "人民币": "CNY", "元": "CNY", "¥": "CNY or JPY", "￥": "CNY or JPY", "YUAN": "CNY",
	"$": "USD", "US$": "USD", "美元": "USD", "NTD": "TWD", "NT$": "TWD", "HK$": "HKD", "港元": "HKD",
	"港币": "HKD", "€": "EUR", "YEN": "JPY", "日元": "JPY", "円": "JPY", "RUR": "RUB",
}

// knownCurrency checks a currency cell against ISO 4217 (pricing.KnownCurrency):
// malformed codes and well-formed codes no currency has ("RMB", a typo such as
// "CYN") are reasons wrapping pricing.ErrInvalid, with the code meant when the text
// is a known name or sign.
func knownCurrency(code string) error {
	if pricing.KnownCurrency(code) {
		return nil
	}
	up := strings.ToUpper(strings.TrimSpace(text.FoldWidth(code)))
	if pricing.KnownCurrency(up) {
		return invalidf("want the code in capitals: %s", up)
	}
	if iso, ok := currencyHints[up]; ok {
		return invalidf("not an ISO 4217 code; write %s", iso)
	}
	if err := pricing.ValidCurrency(code); err != nil {
		return invalidf("want a three-letter ISO 4217 code such as USD")
	}
	return invalidf("no currency has the ISO 4217 code %s (a typo?)", code)
}
