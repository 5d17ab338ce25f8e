package pricing

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

func cny(s string) Money { return Money{Amount: dec(s), Currency: "CNY"} }

func TestMoneyArithmetic(t *testing.T) {
	a, b := cny("9000"), cny("18.50")
	if got, err := a.Add(b); err != nil || !got.Amount.Equal(dec("9018.5")) || got.Currency != "CNY" {
		t.Errorf("Add = %v, %v; want CNY 9018.50", got, err)
	}
	if got, err := b.Sub(a); err != nil || !got.Amount.Equal(dec("-8981.5")) {
		t.Errorf("Sub = %v, %v; want CNY -8981.50", got, err)
	}
	if got := b.Mul(dec("1.5")); !got.Amount.Equal(dec("27.75")) {
		t.Errorf("Mul(1.5) = %v, want CNY 27.75", got)
	}
	if got := b.MulInt(8); !got.Amount.Equal(dec("148")) {
		t.Errorf("MulInt(8) = %v, want CNY 148", got)
	}
	if got := b.Neg(); !got.Amount.Equal(dec("-18.5")) {
		t.Errorf("Neg = %v, want CNY -18.50", got)
	}
	if c, err := a.Cmp(b); err != nil || c != 1 {
		t.Errorf("Cmp = %d, %v; want 1", c, err)
	}
	if !cny("0.00").IsZero() || a.IsZero() {
		t.Errorf("IsZero wrong")
	}
	usd := Money{Amount: dec("1"), Currency: "USD"}
	if _, err := a.Add(usd); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("Add across currencies error = %v, want ErrCurrencyMismatch", err)
	}
	if _, err := a.Sub(usd); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("Sub across currencies error = %v, want ErrCurrencyMismatch", err)
	}
	if _, err := a.Cmp(usd); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("Cmp across currencies error = %v, want ErrCurrencyMismatch", err)
	}
	for _, sum := range [][2]Money{{a, {}}, {{}, a}} {
		if got, err := sum[0].Add(sum[1]); err != nil || got != a {
			t.Errorf("%#v.Add(%#v) = %v, %v; want %v", sum[0], sum[1], got, err, a)
		}
	}
	if got, err := (Money{}).Add(Money{}); err != nil || !got.IsZero() || got.Currency != "" {
		t.Errorf("Money{}.Add(Money{}) = %#v, %v; want the zero Money", got, err)
	}
	if _, err := a.Add(Money{Amount: dec("1")}); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("Add of an amount without currency error = %v, want ErrCurrencyMismatch", err)
	}
	if _, err := a.Sub(Money{}); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("Sub of a zero Money error = %v, want ErrCurrencyMismatch", err)
	}
}

func TestMoneyRoundAndString(t *testing.T) {
	tests := []struct {
		name, amount, currency string
		mode                   RoundingMode
		want, str              string
	}{
		{"half up 0.125", "0.125", "CNY", RoundHalfUp, "0.13", "CNY 0.13"},
		{"half even 0.125", "0.125", "CNY", RoundHalfEven, "0.12", "CNY 0.13"},
		{"half even 0.135", "0.135", "CNY", RoundHalfEven, "0.14", "CNY 0.14"},
		{"half up negative away from zero", "-0.125", "CNY", RoundHalfUp, "-0.13", "CNY -0.13"},
		{"half even negative", "-0.125", "CNY", RoundHalfEven, "-0.12", "CNY -0.13"},
		{"below half", "0.1249999", "USD", RoundHalfUp, "0.12", "USD 0.12"},
		{"yen has no minor unit", "100.5", "JPY", RoundHalfUp, "101", "JPY 101"},
		{"won half even", "100.5", "KRW", RoundHalfEven, "100", "KRW 101"},
		{"dinar has three places", "1.2345", "KWD", RoundHalfUp, "1.235", "KWD 1.235"},
		{"unknown code: two places", "1.005", "XYZ", RoundHalfUp, "1.01", "XYZ 1.01"},
		{"whole amount shows the minor unit", "9000", "CNY", RoundHalfUp, "9000", "CNY 9000.00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Money{Amount: dec(tc.amount), Currency: tc.currency}
			if got := m.Round(tc.mode); !got.Amount.Equal(dec(tc.want)) {
				t.Errorf("Round(%v) = %s, want %s", tc.mode, got.Amount, tc.want)
			}
			if got := m.String(); got != tc.str {
				t.Errorf("String() = %q, want %q", got, tc.str)
			}
		})
	}
}

func TestMoneyJSON(t *testing.T) {
	tests := []struct {
		name string
		m    Money
		want string
	}{
		{"whole yuan gets two places", cny("9000"), `{"amount":"9000.00","currency":"CNY"}`},
		{"more places kept exactly", cny("0.0051"), `{"amount":"0.0051","currency":"CNY"}`},
		{"trailing zeros beyond the minor unit dropped", cny("1.500000"), `{"amount":"1.50","currency":"CNY"}`},
		{"negative", cny("-18.5"), `{"amount":"-18.50","currency":"CNY"}`},
		{"yen", Money{dec("250"), "JPY"}, `{"amount":"250","currency":"JPY"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.m)
			if err != nil || string(b) != tc.want {
				t.Fatalf("Marshal = %s, %v; want %s", b, err, tc.want)
			}
			var back Money
			if err := json.Unmarshal(b, &back); err != nil || !back.Amount.Equal(tc.m.Amount) || back.Currency != tc.m.Currency {
				t.Errorf("round trip = %v, %v; want %v", back, err, tc.m)
			}
		})
	}
	for _, bad := range []string{
		`{"amount":9000,"currency":"CNY"}`,
		`{"amount":9000.5,"currency":"CNY"}`,
		`{"amount":"1e3","currency":"CNY"}`,
		`{"amount":"abc","currency":"CNY"}`,
		`{"amount":"","currency":"CNY"}`,
		`{"amount":"1","currency":"cny"}`,
		`{"amount":"1"}`,
		`{"amount":"1","currency":"CNY","extra":1}`,
		`[]`,
	} {
		var m Money
		if err := json.Unmarshal([]byte(bad), &m); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) error = %v, want ErrInvalid", bad, err)
		}
	}
	// null leaves the value alone, as encoding/json does: {"budget": null} is no
	// budget, not an error about an empty amount.
	var r struct{ Budget Money }
	if err := json.Unmarshal([]byte(`{"budget": null}`), &r); err != nil || !r.Budget.Amount.IsZero() || r.Budget.Currency != "" {
		t.Errorf(`Unmarshal({"budget": null}) = %+v, %v; want the zero Money`, r.Budget, err)
	}
}

func TestNewMoney(t *testing.T) {
	if m, err := NewMoney("12.50", "USD"); err != nil || !m.Amount.Equal(dec("12.5")) {
		t.Errorf("NewMoney = %v, %v", m, err)
	}
	for _, c := range []struct{ amount, cur string }{{"1", "US"}, {"1", "usd"}, {"1.2.3", "USD"}, {"+1", "USD"}, {"1e2", "USD"}, {" 1", "USD"}, {".5", "USD"}} {
		if _, err := NewMoney(c.amount, c.cur); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewMoney(%q, %q) error = %v, want ErrInvalid", c.amount, c.cur, err)
		}
	}
}

// A mode other than RoundHalfEven rounds a half away from zero, as RoundHalfUp
// does: Money.Round and Money.Div take any RoundingMode, and one without a name
// has always rounded so. 0.125 and -0.125 are exact halves at two places.
func TestRoundUnnamedModeIsHalfUp(t *testing.T) {
	for _, mode := range []RoundingMode{-1, 2, 7} {
		for _, tc := range []struct{ in, want string }{
			{"0.125", "0.13"}, {"-0.125", "-0.13"}, {"0.135", "0.14"}, {"-0.5", "-0.5"}, {"0.124", "0.12"},
		} {
			if got := (Money{Amount: dec(tc.in), Currency: "CNY"}).Round(mode); !got.Amount.Equal(dec(tc.want)) {
				t.Errorf("Round(%s, %v) = %s, want %s", tc.in, mode, got.Amount, tc.want)
			}
		}
		// 1 / 8 = 0.125, a half at two places.
		if got, err := cny("1").Div(dec("8"), mode); err != nil || !got.Amount.Equal(dec("0.13")) {
			t.Errorf("Div(1, 8, %v) = %s, %v; want 0.13", mode, got.Amount, err)
		}
		if got, err := cny("-1").Div(dec("8"), mode); err != nil || !got.Amount.Equal(dec("-0.13")) {
			t.Errorf("Div(-1, 8, %v) = %s, %v; want -0.13", mode, got.Amount, err)
		}
	}
}

func TestRoundQuoMatchesDecimal(t *testing.T) {
	// Half even must agree with RoundBank on any exact quotient (half up is
	// decimal's DivRound itself).
	rapid.Check(t, func(t *rapid.T) {
		x := decimal.New(rapid.Int64Range(-1e12, 1e12).Draw(t, "x"), -rapid.Int32Range(0, 6).Draw(t, "x_places"))
		y := decimal.NewFromInt(rapid.Int64Range(1, 10000).Draw(t, "y"))
		p := rapid.Int32Range(0, 4).Draw(t, "places")
		if y.Equal(decimal.NewFromInt(1)) {
			if got, want := roundQuo(x, y, p, RoundHalfEven), x.RoundBank(p); !got.Equal(want) {
				t.Fatalf("roundQuo(%s, 1, %d, half even) = %s, want %s", x, p, got, want)
			}
		}
	})
}

// TestImmuneToDecimalGlobals sets decimal's package settings to hostile values and
// checks that no result or JSON changes. It must not run in parallel.
func TestImmuneToDecimalGlobals(t *testing.T) {
	run := func() string {
		out := ""
		tr := Tariff{Currency: "CNY", Hourly: dec("1.3"), Daily: dec("29.99"), Monthly: dec("900"),
			Terms: []Term{{Months: 3, Discount: dec("0.0725")}}}
		for _, d := range []time.Duration{7 * time.Second, 20 * time.Hour, 731 * time.Hour, 3000 * time.Hour} {
			q, err := tr.CostGPUs(d, 3)
			b, _ := json.Marshal(q)
			out += string(b) + errString(err) + "\n"
		}
		be, err := tr.BreakEven()
		out += be.String() + errString(err) + "\n"
		checks, err := MarketCheck([]Offer{
			{Provider: "a", Card: "x", Tariff: Tariff{Currency: "CNY", Hourly: dec("1")}},
			{Provider: "b", Card: "x", Tariff: Tariff{Currency: "CNY", Hourly: dec("2")}},
			{Provider: "c", Card: "x", Tariff: Tariff{Currency: "CNY", Hourly: dec("0.3")}},
			{Provider: "d", Card: "x", Tariff: Tariff{Currency: "CNY", Hourly: dec("1.15")}},
		}, dec("0.3"))
		for _, c := range checks {
			out += c.Median.Amount.String() + " " + c.Flag.String() + " " + c.Message + "\n"
		}
		b, _ := json.Marshal(tr)
		out += string(b) + errString(err) + "\n"
		b, _ = json.Marshal(tr.Terms[0])
		out += string(b) + "\n"
		b, _ = json.Marshal(checks)
		out += string(b) + "\n"
		b, _ = json.Marshal(Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": dec("7.2"), "JPY": dec("0.0481")}})
		out += string(b) + "\n"
		return out
	}
	before := run()
	saved := [...]any{decimal.DivisionPrecision, decimal.MarshalJSONWithoutQuotes, decimal.PowPrecisionNegativeExponent, decimal.ExpMaxIterations}
	t.Cleanup(func() {
		decimal.DivisionPrecision = saved[0].(int)
		decimal.MarshalJSONWithoutQuotes = saved[1].(bool)
		decimal.PowPrecisionNegativeExponent = saved[2].(int)
		decimal.ExpMaxIterations = saved[3].(int)
	})
	decimal.DivisionPrecision = 1
	decimal.MarshalJSONWithoutQuotes = true
	decimal.PowPrecisionNegativeExponent = 1
	decimal.ExpMaxIterations = 1
	if after := run(); after != before {
		t.Errorf("results changed under hostile decimal settings:\n got %s\nwant %s", after, before)
	}
	if len(before) < 200 {
		t.Errorf("too little output to compare: %s", before)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return " error: " + err.Error()
}

// Exact never rounds, and writes at least the currency's minor-unit digits.
func TestMoneyExact(t *testing.T) {
	for _, tc := range []struct {
		m    Money
		want string
	}{
		{Money{decimal.RequireFromString("0.333"), "USD"}, "USD 0.333"},
		{Money{decimal.RequireFromString("0.8"), "CNY"}, "CNY 0.80"},
		{Money{decimal.RequireFromString("1.4750"), "CNY"}, "CNY 1.475"},
		{Money{decimal.RequireFromString("-0.002666667"), "CNY"}, "CNY -0.002666667"},
		{Money{decimal.NewFromInt(250), "JPY"}, "JPY 250"},
		{Money{decimal.RequireFromString("1.5"), "KWD"}, "KWD 1.500"},
	} {
		if got := tc.m.Exact(); got != tc.want {
			t.Errorf("%s %s: Exact() = %q, want %q", tc.m.Currency, tc.m.Amount, got, tc.want)
		}
	}
}

// Div rounds once, with the given mode, to the currency's minor unit; JPY has none.
func TestMoneyDiv(t *testing.T) {
	for _, tc := range []struct {
		m    Money
		d    string
		mode RoundingMode
		want string
	}{
		{cny("10.00"), "3", RoundHalfUp, "3.33"},
		{cny("-10.00"), "3", RoundHalfUp, "-3.33"},
		{cny("0.05"), "2", RoundHalfUp, "0.03"},   // 0.025: a half goes up
		{cny("0.05"), "2", RoundHalfEven, "0.02"}, // and to the even unit
		{cny("0.07"), "2", RoundHalfEven, "0.04"},
		{cny("8.382"), "1", RoundHalfUp, "8.38"},
		{Money{Amount: dec("1000"), Currency: "JPY"}, "3", RoundHalfUp, "333"},
	} {
		got, err := tc.m.Div(dec(tc.d), tc.mode)
		if err != nil || !got.Amount.Equal(dec(tc.want)) || got.Currency != tc.m.Currency {
			t.Errorf("%v.Div(%s, %v) = %v, %v; want %s", tc.m, tc.d, tc.mode, got, err, tc.want)
		}
	}
	for _, d := range []string{"0", "-2"} {
		if _, err := cny("1").Div(dec(d), RoundHalfUp); !errors.Is(err, ErrInvalid) {
			t.Errorf("Div by %s: err %v, want ErrInvalid", d, err)
		}
	}
}

// ParseDecimal keeps a plain decimal as written: its exponent is minus the
// digits after the point (1.50 keeps two places, as a price list wrote it) and
// its coefficient the digits, leading zeros dropped, signed; short numbers and
// numbers past 18 digits alike.
func TestParseDecimalAsWritten(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		intPart := rapid.StringMatching(`[0-9]{1,30}`).Draw(t, "int")
		frac := rapid.StringMatching(`([0-9]{1,30})?`).Draw(t, "frac")
		neg := rapid.Bool().Draw(t, "neg")
		s := intPart
		if frac != "" {
			s += "." + frac
		}
		if neg {
			s = "-" + s
		}
		d, err := ParseDecimal(s)
		if err != nil {
			t.Fatalf("ParseDecimal(%q): %v", s, err)
		}
		digits := strings.TrimLeft(intPart+frac, "0")
		if digits == "" {
			digits = "0"
		} else if neg {
			digits = "-" + digits
		}
		if got := d.Coefficient().String(); got != digits || d.Exponent() != -int32(len(frac)) {
			t.Fatalf("ParseDecimal(%q) = %s·10^%d, want %s·10^%d", s, got, d.Exponent(), digits, -len(frac))
		}
	})
}

// A plain decimal has at most 30 digits on each side of the point: 30 read, 31
// are refused, on either side, through every reader of decimals.
func TestDecimalDigitLimit(t *testing.T) {
	d30, d31 := strings.Repeat("9", 30), strings.Repeat("9", 31)
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{d30, true}, {d31, false},
		{"0." + d30, true}, {"0." + d31, false},
		{"-" + d30 + "." + d30, true}, {d30 + "." + d31, false}, {d31 + ".5", false},
	} {
		d, err := ParseDecimal(tc.in)
		if tc.ok && (err != nil || d.String() != tc.in) {
			t.Errorf("ParseDecimal(%d digits) = %s, %v; want it read exactly", len(tc.in), d, err)
		}
		if !tc.ok && !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseDecimal(%q) = %v, %v; want ErrInvalid", tc.in, d, err)
		}
		if _, err := NewMoney(tc.in, "USD"); (err == nil) != tc.ok {
			t.Errorf("NewMoney(%q) error %v, want ok %v", tc.in, err, tc.ok)
		}
		var m Money
		if err := json.Unmarshal([]byte(`{"amount":"`+tc.in+`","currency":"USD"}`), &m); (err == nil) != tc.ok {
			t.Errorf("Money JSON %q: error %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}
