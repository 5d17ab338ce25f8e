package pricing

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// Minor units as ISO 4217 list one gives them (SIX Group's published table, the
// "minor unit" column): the dinars of Bahrain, Iraq, Jordan, Kuwait, Libya, Oman
// and Tunisia have three decimals; the yen, won, Ugandan shilling, guarani, Rwanda
// franc and the CFA francs none; the yuan and most others two.
func TestMinorUnit(t *testing.T) {
	for code, want := range map[string]int32{
		"JPY": 0, "KRW": 0, "UGX": 0, "XAF": 0, "XOF": 0, "PYG": 0, "RWF": 0, "VND": 0, "CLP": 0, "ISK": 0,
		"KWD": 3, "IQD": 3, "LYD": 3, "BHD": 3, "JOD": 3, "OMR": 3, "TND": 3,
		"CNY": 2, "USD": 2, "EUR": 2, "HKD": 2, "IDR": 2, "MGA": 2,
		"XYZ": 2, // not a code: the most common minor unit
	} {
		if got := MinorUnit(code); got != want {
			t.Errorf("MinorUnit(%s) = %d, want %d", code, got, want)
		}
	}
	for _, code := range []string{"CNY", "UGX", "ZWG", "XCG"} {
		if !KnownCurrency(code) {
			t.Errorf("KnownCurrency(%s) = false", code)
		}
	}
	for _, code := range []string{"RMB", "CLF", "XAU", "cny", ""} {
		if KnownCurrency(code) {
			t.Errorf("KnownCurrency(%q) = true", code)
		}
	}
}

// Money rounds to its currency's minor unit: a Quote's total, String and Round.
func TestMoneyRoundsToMinorUnit(t *testing.T) {
	for _, tt := range []struct{ amount, currency, want string }{
		{"1.2345", "IQD", "IQD 1.235"},
		{"1.2344", "LYD", "LYD 1.234"},
		{"1234.5", "UGX", "UGX 1235"},
		{"99.5", "XOF", "XOF 100"},
		{"1.005", "CNY", "CNY 1.01"},
	} {
		m := Money{Amount: decimal.RequireFromString(tt.amount), Currency: tt.currency}
		if got := m.String(); got != tt.want {
			t.Errorf("Money{%s %s}.String() = %q, want %q", tt.currency, tt.amount, got, tt.want)
		}
	}
	// A third of an hour at 10 a hour: 3.333... rounds to 3.333 dinars, 3 shillings.
	for cur, want := range map[string]string{"KWD": "3.333", "UGX": "3", "CNY": "3.33"} {
		q, err := Tariff{Currency: cur, Hourly: decimal.NewFromInt(10)}.Cost(20 * time.Minute)
		if err != nil || q.Total.Amount.String() != want {
			t.Errorf("%s: total %v, %v; want %s", cur, q.Total.Amount, err, want)
		}
	}
}
