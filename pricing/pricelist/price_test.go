package pricelist

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// ParsePrice reads a price as a cell of a list does.
func TestParsePrice(t *testing.T) {
	for _, tc := range []struct {
		column, cell, currency string
		want                   string
		err                    error
	}{
		{"hourly", "1.98", "CNY", "1.98", nil},
		{"hourly", "¥1.98", "CNY", "1.98", nil},
		{"hourly", "1.98元/小时", "CNY", "1.98", nil},
		{"monthly", "1,200元/月", "CNY", "1200", nil},
		{"hourly", "US$2.10/h", "USD", "2.10", nil},
		{"daily", "-", "CNY", "0", nil},
		{"hourly", "$2.10", "CNY", "", pricing.ErrCurrencyMismatch},
		{"hourly", "8元/天", "CNY", "", pricing.ErrInvalid},
		{"hourly", "lots", "CNY", "", pricing.ErrInvalid},
		{"hourly", "-1.98", "CNY", "", pricing.ErrInvalid},
	} {
		got, err := ParsePrice(tc.column, tc.cell, tc.currency)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("ParsePrice(%q, %q, %q) error = %v, want %v", tc.column, tc.cell, tc.currency, err, tc.err)
			}
			continue
		}
		if err != nil || !got.Equal(decimal.RequireFromString(tc.want)) {
			t.Errorf("ParsePrice(%q, %q, %q) = %v, %v; want %s", tc.column, tc.cell, tc.currency, got, err, tc.want)
		}
	}
}
