package pricing

import "strings"

// minorUnits holds the ISO 4217 alphabetic code of every currency in use and the
// number of decimal places of its minor unit (the "minor unit" column of ISO 4217
// list one, as SIX Group publishes it, amended to 2025: ZWG for Zimbabwe Gold and
// XCG for the Caribbean guilder added), the funds, precious metals and other X
// codes without a minor unit left out. Seven currencies have three places (BHD,
// IQD, JOD, KWD, LYD, OMR, TND), sixteen none (BIF, CLP, DJF, GNF, ISK, JPY, KMF,
// KRW, PYG, RWF, UGX, VND, VUV, XAF, XOF, XPF), and the rest two.
var minorUnits = func() map[string]int32 {
	m := map[string]int32{}
	for places, codes := range [...]string{
		0: `BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF`,
		2: `AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN
			BWP BYN BZD CAD CDF CHF CNY COP CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR
			FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS
			KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK
			MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR
			SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY
			TTD TWD TZS UAH USD UYU UZS VES WST XCD XCG YER ZAR ZMW ZWG`,
		3: `BHD IQD JOD KWD LYD OMR TND`,
	} {
		for _, c := range strings.Fields(codes) {
			m[c] = int32(places)
		}
	}
	return m
}()

// MinorUnit returns the number of decimal places of the currency's minor unit, as
// ISO 4217 gives it: 2 for CNY, USD and most currencies, 0 for JPY, KRW, UGX and
// the CFA francs (XAF, XOF), 3 for KWD, BHD, IQD and LYD. A code ISO 4217 does not
// list gets 2, the most common minor unit. Money rounds to it.
func MinorUnit(code string) int32 {
	if places, ok := minorUnits[code]; ok {
		return places
	}
	return 2
}

// KnownCurrency reports whether code is the ISO 4217 code of a currency in use
// ("CNY", "USD"; not "RMB", nor a fund such as "CLF"). Tariff.Validate checks only
// a code's form, so that a program may price in a code of its own; the price-list
// readers hold a list to this.
func KnownCurrency(code string) bool {
	_, ok := minorUnits[code]
	return ok
}
