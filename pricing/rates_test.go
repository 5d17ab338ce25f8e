package pricing

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestRatesConvert(t *testing.T) {
	r := Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": dec("7.2"), "JPY": dec("0.0481")}}
	for _, tc := range []struct{ in, want Money }{
		{Money{dec("1.00"), "USD"}, Money{dec("7.20"), "CNY"}},
		{Money{dec("12.34"), "CNY"}, Money{dec("12.34"), "CNY"}},
		// 1000 × 0.0481 = 48.1; 333 × 0.0481 = 16.0173, rounded half up to 16.02.
		{Money{dec("1000"), "JPY"}, Money{dec("48.10"), "CNY"}},
		{Money{dec("333"), "JPY"}, Money{dec("16.02"), "CNY"}},
	} {
		got, err := r.Convert(tc.in)
		if err != nil || !got.Amount.Equal(tc.want.Amount) || got.Currency != tc.want.Currency {
			t.Errorf("Convert(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if _, err := r.Convert(Money{dec("1"), "EUR"}); !errors.Is(err, ErrCurrencyMismatch) || !strings.Contains(err.Error(), "EUR") {
		t.Errorf("no EUR rate: %v, want ErrCurrencyMismatch naming EUR", err)
	}
}

func TestRatesValidate(t *testing.T) {
	for name, r := range map[string]Rates{
		"no base":        {Per: map[string]decimal.Decimal{"USD": dec("7")}},
		"bad code":       {Base: "CNY", Per: map[string]decimal.Decimal{"usd": dec("7")}},
		"zero rate":      {Base: "CNY", Per: map[string]decimal.Decimal{"USD": {}}},
		"negative rate":  {Base: "CNY", Per: map[string]decimal.Decimal{"USD": dec("-7")}},
		"huge exponent":  {Base: "CNY", Per: map[string]decimal.Decimal{"USD": decimal.New(1, -2000000000)}},
		"over the range": {Base: "CNY", Per: map[string]decimal.Decimal{"USD": decimal.New(1, 20)}},
	} {
		if err := r.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate() = %v, want ErrInvalid", name, err)
		}
		if _, err := r.Convert(Money{dec("1"), "USD"}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Convert = %v, want ErrInvalid", name, err)
		}
	}
	r := Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": dec("7.2")}}
	if _, err := r.Convert(Money{decimal.New(1, -2000000000), "USD"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("an amount of exponent -2000000000: %v, want ErrInvalid", err)
	}
}

func TestRatesJSON(t *testing.T) {
	r := Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": dec("7.2"), "JPY": dec("0.0481")}}
	b, err := json.Marshal(r)
	if err != nil || string(b) != `{"base":"CNY","per":{"JPY":"0.0481","USD":"7.2"}}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back Rates
	if err := json.Unmarshal(b, &back); err != nil || !back.Per["USD"].Equal(dec("7.2")) || back.Base != "CNY" {
		t.Errorf("Unmarshal = %+v, %v", back, err)
	}
	for _, bad := range []string{`{"base":"CNY","per":{"USD":7.2}}`, `{"base":"CNY","rates":{}}`, `{"base":"CNY","per":{"USD":"1e5"}}`} {
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) = %v, want ErrInvalid", bad, err)
		}
	}
}

// Rates' JSON reader never panics, and Convert on what it accepts never hangs or
// panics.
func FuzzRatesJSON(f *testing.F) {
	f.Add(`{"base":"CNY","per":{"USD":"7.2"}}`)
	f.Add(`{"base":"CNY","per":{"USD":"1e-2000000000"}}`)
	f.Fuzz(func(t *testing.T, in string) {
		var r Rates
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			return
		}
		for c := range r.Per {
			_, _ = r.Convert(Money{Amount: dec("12.34"), Currency: c})
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("Marshal of a read value: %v", err)
		}
	})
}
