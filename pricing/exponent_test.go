package pricing

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// Every method of the package's types that takes or holds a decimal bounds its
// exponent before any arithmetic or formatting: those that return an error return
// one wrapping ErrInvalid at once, the formatters write a short form, and the rest
// return promptly, for values such as 1e-2000000000 and 1e2000000000 that would
// take for ever to rescale, and 1e-10000000 that would take seconds.
func TestHugeExponents(t *testing.T) {
	for _, e := range []int32{-2_000_000_000, 2_000_000_000, -10_000_000} {
		huge := decimal.New(1, e)
		m := Money{Amount: huge, Currency: "CNY"}
		one := Money{Amount: decimal.NewFromInt(1), Currency: "CNY"}
		tariff := Tariff{Currency: "CNY", Hourly: huge}
		offer := Offer{Provider: "a", Card: "RTX 4090", Tariff: tariff}
		good := Offer{Provider: "b", Card: "RTX 4090", Tariff: Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(2)}}
		jan := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		errs := map[string]func() error{
			"Money.Add":         func() error { _, err := m.Add(one); return err },
			"Money.Add other":   func() error { _, err := one.Add(m); return err },
			"Money.Sub":         func() error { _, err := one.Sub(m); return err },
			"Money.Cmp":         func() error { _, err := m.Cmp(one); return err },
			"Money.Div":         func() error { _, err := m.Div(decimal.NewFromInt(3), RoundHalfUp); return err },
			"Money.Div divisor": func() error { _, err := one.Div(huge, RoundHalfEven); return err },
			"Money.MarshalJSON": func() error { _, err := m.MarshalJSON(); return err },
			"Tariff.Validate":   tariff.Validate,
			"Tariff.Cost":       func() error { _, err := tariff.Cost(time.Hour); return err },
			"Tariff.Price":      func() error { _, err := tariff.Price(Continuous(time.Hour), 2); return err },
			"Tariff.BreakEven": func() error {
				_, err := Tariff{Currency: "CNY", Hourly: one.Amount, Monthly: huge}.BreakEven()
				return err
			},
			"Tariff.PriceBasket": func() error {
				_, err := Tariff{Currency: "CNY", Hourly: one.Amount, Daily: huge}.PriceBasket([]Purchase{{Package: Daily, Start: jan}})
				return err
			},
			"Tariff.MarshalJSON": func() error { _, err := tariff.MarshalJSON(); return err },
			"Term.MarshalJSON":   func() error { _, err := (Term{Months: 3, Monthly: huge}).MarshalJSON(); return err },
			"NewPricer":          func() error { _, err := NewPricer(tariff); return err },
			"Offer.Validate":     offer.Validate,
			"Compare":            func() error { _, err := Compare([]Offer{good, offer}, Continuous(time.Hour), 1); return err },
			"MarketCheck offer":  func() error { _, err := MarketCheck([]Offer{good, offer}, decimal.New(3, -1)); return err },
			"MarketCheck threshold": func() error {
				_, err := MarketCheck([]Offer{good, good}, huge)
				return err
			},
			"MarketCheckIn threshold": func() error {
				_, err := MarketCheckIn([]Offer{good}, []string{"x"}, huge)
				return err
			},
			"Line.MarshalJSON": func() error {
				_, err := (Line{Item: "hourly", Quantity: huge, Price: one, Amount: one}).MarshalJSON()
				return err
			},
			"Quote JSON":     func() error { _, err := json.Marshal(Quote{Total: m}); return err },
			"Rates.Validate": Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": huge}}.Validate,
			"Rates.Convert": func() error {
				_, err := Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": decimal.NewFromInt(7)}}.Convert(Money{Amount: huge, Currency: "USD"})
				return err
			},
			"Rates.MarshalJSON": func() error {
				_, err := Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": huge}}.MarshalJSON()
				return err
			},
			"Account.Bill": func() error {
				_, err := Account{Tariff: good.Tariff, TaxRate: huge}.Bill(jan, jan.Add(time.Hour), nil, nil)
				return err
			},
			"Account.Bill credit": func() error {
				sla := SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: huge}}}
				_, err := Account{Tariff: good.Tariff, SLA: sla}.Bill(jan, jan.Add(time.Hour), nil, nil)
				return err
			},
			"Account.MarshalJSON": func() error { _, err := (Account{Tariff: good.Tariff, TaxRate: huge}).MarshalJSON(); return err },
			"Credit.MarshalJSON":  func() error { _, err := (Credit{Below: 0.99, Percent: huge}).MarshalJSON(); return err },
			"Invoice JSON":        func() error { _, err := json.Marshal(Invoice{Subtotal: m}); return err },
			"Comparison JSON":     func() error { _, err := json.Marshal(Comparison{Offer: good, Quote: Quote{Total: m}}); return err },
			"PriceCheck JSON":     func() error { _, err := json.Marshal(PriceCheck{Offer: good, Hourly: m}); return err },
		}
		for name, f := range errs {
			var err error
			if !prompt(t, name, func() { err = f() }) {
				continue
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("e%d: %s: error %v, want ErrInvalid", e, name, err)
			} else if len(err.Error()) > 300 {
				t.Errorf("e%d: %s: a message of %d bytes", e, name, len(err.Error()))
			}
		}
		// Formatters: short forms.
		for name, f := range map[string]func() string{
			"Money.String": m.String, "Money.Exact": m.Exact,
			"Money.Round.String": func() string { return m.Round(RoundHalfEven).String() },
		} {
			var s string
			if prompt(t, name, func() { s = f() }) && len(s) > 60 {
				t.Errorf("e%d: %s = %d bytes, want a short form", e, name, len(s))
			}
		}
		// The rest return promptly, and Round rounds exactly: a tiny amount to
		// zero, a huge one to itself.
		prompt(t, "Money.Mul", func() { m.Mul(huge) })
		prompt(t, "Money.MulInt", func() { m.MulInt(7) })
		prompt(t, "Money.Neg", func() { m.Neg() })
		prompt(t, "SLA.Reached", func() {
			SLA{Credits: []Credit{{Below: 0.999, Percent: huge}}}.Reached(jan, jan.Add(time.Hour), []Outage{{jan, jan.Add(time.Minute)}})
		})
		prompt(t, "Money.Round", func() {
			r := m.Round(RoundHalfUp)
			if want := map[bool]decimal.Decimal{true: decimal.Decimal{}, false: huge}[e < 0]; !r.Amount.Equal(want) {
				t.Errorf("e%d: Round = %s, want %s", e, excerpt(r.Amount), excerpt(want))
			}
		})
	}
}

// prompt runs f and reports whether it returned within a few seconds (a test
// failure otherwise).
func prompt(t *testing.T, name string, f func()) bool {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
		return true
	case <-time.After(5 * time.Second):
		t.Errorf("%s: no answer within 5 s", name)
		return false
	}
}
