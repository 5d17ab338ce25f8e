package pricing

import (
	"encoding/json"
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
	tests := []struct {
		name     string
		err      error
		sentinel error
		field    string // the *FieldError's Field; "-" for none
		want     string
	}{
		{"add", func() error { _, err := cny.Add(usd); return err }(), ErrCurrencyMismatch, "-",
			`pricing: add USD to CNY: currency mismatch`},
		{"compare empty code", func() error { _, err := cny.Cmp(Money{}); return err }(), ErrCurrencyMismatch, "-",
			`pricing: compare CNY with "": currency mismatch`},
		{"currency", ValidCurrency("usd"), ErrInvalid, "currency",
			`pricing: currency: "usd": want three upper-case letters such as USD: invalid input`},
		{"money", func() error { _, err := NewMoney("1e3", "USD"); return err }(), ErrInvalid, "amount",
			`pricing: amount: "1e3": not a plain decimal such as 12.50: invalid input`},
		{"tariff", Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(-1)}.Validate(), ErrInvalid, "hourly",
			`pricing: hourly: price -1 is negative: invalid input`},
		{"offer", Offer{Provider: "a", Card: "x", Tariff: Tariff{Currency: "CNY"}}.Validate(), ErrInvalid, "tariff",
			`pricing: tariff: nothing offered: every price is zero: invalid input`},
		// A value of the wrong JSON type, said without Go's type names
		// ("cannot unmarshal string into Go value of type pricing.plain" before).
		{"json kind", json.Unmarshal([]byte(`{"sla":"x"}`), new(Account)), ErrInvalid, "",
			`pricing: want an object, got string: invalid input`},
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
			var fe *FieldError
			if got := errors.As(tt.err, &fe); got != (tt.field != "-") || got && fe.Field != tt.field {
				t.Errorf("errors.As(*FieldError) = %v (%+v), want field %q", got, fe, tt.field)
			}
		})
	}
}

// TestMessageSeveralProblems checks that an offer failing on several counts gives
// one line per problem, each naming the package once.
func TestMessageSeveralProblems(t *testing.T) {
	_, err := Compare([]Offer{{MaxGPUs: -1, Tariff: Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(-1)}}}, Usage{Duration: time.Hour}, 1)
	if !errors.Is(err, ErrInvalid) || strings.Count(err.Error(), "\n") != 2 {
		t.Fatalf("Compare error = %v, want ErrInvalid on three lines: card, max_gpus, tariff.hourly", err)
	}
	for _, l := range strings.Split(err.Error(), "\n") {
		if !strings.HasPrefix(l, "pricing: offer 0 (without provider or card): ") || strings.Count(l, "pricing") != 1 || !strings.HasSuffix(l, ": invalid input") {
			t.Errorf("line %q: want `pricing: offer 0 (without provider or card): ...: invalid input`", l)
		}
	}
}
