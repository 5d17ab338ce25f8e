package pricing

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestMessages pins the text of errors people read: the package named once at the
// start, the input quoted once, the reason in words and the sentinel's text last.
func TestMessages(t *testing.T) {
	usd, cny := Money{Amount: decimal.NewFromInt(1), Currency: "USD"}, Money{Amount: decimal.NewFromInt(1), Currency: "CNY"}
	csvLoad := func(s string) error { _, err := LoadOffersCSV(strings.NewReader(s)); return err }
	jsonLoad := func(s string) error { _, err := LoadOffersJSON(strings.NewReader(s)); return err }
	tests := []struct {
		name     string
		err      error
		sentinel error
		parse    bool // a *ParseError
		want     string
	}{
		{"csv bad price", csvLoad("provider,card,currency,hourly\nacme,RTX 4090,CNY,abc\n"), ErrInvalid, true,
			`pricing: line 2, field hourly, input "abc": not a plain decimal such as 12.50: invalid input`},
		{"csv missing column", csvLoad("provider,card,hourly\n"), ErrInvalid, true,
			`pricing: line 1, field currency: column missing from the header: invalid input`},
		{"json number price", jsonLoad(`[{"provider":"acme","card":"RTX 4090","tariff":{"currency":"CNY","hourly":1.5}}]`), ErrInvalid, true,
			`pricing: line 1, field tariff.hourly: want a JSON string, got number: invalid input`},
		{"json bad rounding", jsonLoad(`[{"provider":"acme","card":"RTX 4090","tariff":{"currency":"CNY","hourly":"1","rounding":"up"}}]`), ErrInvalid, true,
			`pricing: line 1, field tariff.rounding, input "up": want half_up or half_even: invalid input`},
		{"add", func() error { _, err := cny.Add(usd); return err }(), ErrCurrencyMismatch, false,
			`pricing: add USD to CNY: currency mismatch`},
		{"compare empty code", func() error { _, err := cny.Cmp(Money{}); return err }(), ErrCurrencyMismatch, false,
			`pricing: compare CNY with "": currency mismatch`},
		{"currency", ValidCurrency("usd"), ErrInvalid, false,
			`pricing: currency "usd": want three upper-case letters such as USD: invalid input`},
		{"money", func() error { _, err := NewMoney("1e3", "USD"); return err }(), ErrInvalid, false,
			`pricing: "1e3": not a plain decimal such as 12.50: invalid input`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatalf("error = nil, want %q", tt.want)
			}
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if !errors.Is(tt.err, tt.sentinel) {
				t.Errorf("errors.Is(%v, %v) = false", tt.err, tt.sentinel)
			}
			var pe *ParseError
			if got := errors.As(tt.err, &pe); got != tt.parse {
				t.Errorf("errors.As(*ParseError) = %v, want %v", got, tt.parse)
			}
		})
	}
}

// TestMessageSeveralProblems checks that an offer failing on several counts gives
// one line per problem, each naming the package once.
func TestMessageSeveralProblems(t *testing.T) {
	_, err := Compare([]Offer{{Tariff: Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(1)}}}, Usage{Duration: time.Hour}, 1)
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("Compare error = %v, want ErrInvalid", err)
	}
	for _, l := range strings.Split(err.Error(), "\n") {
		if !strings.HasPrefix(l, "pricing: offer 0 (without provider or card): ") || strings.Count(l, "pricing") != 1 || !strings.HasSuffix(l, ": invalid input") {
			t.Errorf("line %q: want `pricing: offer 0 (without provider or card): ...: invalid input`", l)
		}
	}
}
