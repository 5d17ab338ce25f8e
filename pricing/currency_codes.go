package pricing

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
)

// isoCurrencies holds the ISO 4217 alphabetic codes of the currencies in use
// (ISO 4217 list one, as amended to 2025: ZWG for Zimbabwe Gold, XCG for the
// Caribbean guilder), the funds and precious metals left out.
var isoCurrencies = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD
		BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD
		EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD
		IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL
		MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK
		PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN
		SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF
		XCD XCG XOF XPF YER ZAR ZMW ZWG`) {
		m[c] = true
	}
	return m
}()

// currencyHints names the ISO code of the currency names and signs price lists
// write in a currency column.
var currencyHints = map[string]string{
	"RMB": "CNY", "人民币": "CNY", "元": "CNY", "¥": "CNY or JPY", "￥": "CNY or JPY", "YUAN": "CNY",
	"$": "USD", "US$": "USD", "美元": "USD", "NTD": "TWD", "NT$": "TWD", "HK$": "HKD", "港元": "HKD",
	"港币": "HKD", "€": "EUR", "YEN": "JPY", "日元": "JPY", "円": "JPY", "RUR": "RUB",
}

// knownCurrency checks a currency column's code against ISO 4217: malformed codes
// and well-formed codes no currency has ("RMB", a typo such as "CYN") are errors
// wrapping ErrInvalid, with the code meant when the text is a known name or sign.
// The loaders call it; Tariff.Validate checks only the form, so that a program may
// price in a code of its own.
func knownCurrency(code string) error {
	if isoCurrencies[code] {
		return nil
	}
	up := strings.ToUpper(strings.TrimSpace(text.FoldWidth(code)))
	if isoCurrencies[up] {
		return &inputError{"currency", code, "want the code in capitals: " + up, ErrInvalid}
	}
	if iso, ok := currencyHints[up]; ok {
		return &inputError{"currency", code, "not an ISO 4217 code; write " + iso, ErrInvalid}
	}
	if err := ValidCurrency(code); err != nil {
		return err
	}
	return &inputError{"currency", code, fmt.Sprintf("no currency has the ISO 4217 code %s (a typo?)", code), ErrInvalid}
}
