package msg

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"

	"github.com/gpuplan/gpuplan/pricing"
)

func money(amount, currency string) pricing.Money {
	return pricing.Money{Amount: decimal.RequireFromString(amount), Currency: currency}
}

// Amounts are rounded half up to the minor unit; one that would round to nothing
// keeps its digits; Chinese writes yuan with ¥.
func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		m      pricing.Money
		en, zh string
	}{
		{money("8.382", "CNY"), "CNY 8.38", "¥8.38"},
		{money("8.385", "CNY"), "CNY 8.39", "¥8.39"},
		{money("-0.5", "CNY"), "CNY -0.50", "-¥0.50"},
		{money("0.0004", "CNY"), "CNY 0.0004", "¥0.0004"},
		{money("2.1", "USD"), "USD 2.10", "USD 2.10"},
		{money("749.6", "JPY"), "JPY 750", "JPY 750"},
		{money("1.2345", "KWD"), "KWD 1.235", "KWD 1.235"},
	} {
		if got := EN.Money(tc.m); got != tc.en {
			t.Errorf("EN.Money(%v) = %q, want %q", tc.m, got, tc.en)
		}
		if got := ZH.Money(tc.m); got != tc.zh {
			t.Errorf("ZH.Money(%v) = %q, want %q", tc.m, got, tc.zh)
		}
	}
	if got := ZH.Price(money("0.333", "CNY")); got != "¥0.333" {
		t.Errorf("ZH.Price(0.333) = %q, want the price as given", got)
	}
	if got := EN.Price(money("0.8", "CNY")); got != "CNY 0.80" {
		t.Errorf("EN.Price(0.8) = %q", got)
	}
}

// A written amount is within half a minor unit of the exact one.
func TestMoneyRounding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := pricing.Money{Amount: decimal.New(rapid.Int64Range(-1e12, 1e12).Draw(t, "coefficient"), -rapid.Int32Range(0, 9).Draw(t, "places")),
			Currency: rapid.SampledFrom([]string{"CNY", "USD", "JPY", "KWD"}).Draw(t, "currency")}
		back, err := decimal.NewFromString(Amount(m))
		if err != nil {
			t.Fatalf("Amount(%v) = %q: not a number", m, Amount(m))
		}
		half := decimal.New(5, -pricing.MinorUnit(m.Currency)-1)
		if back.Sub(m.Amount).Abs().GreaterThan(half) {
			t.Fatalf("Amount(%v) = %s: more than half a minor unit off", m, back)
		}
		if back.IsZero() != m.Amount.IsZero() {
			t.Fatalf("Amount(%v) = %s: zero is not zero", m, back)
		}
	})
}

func TestDur(t *testing.T) {
	for _, tc := range []struct {
		d      time.Duration
		en, zh string
	}{
		{0, "0s", "0秒"},
		{350 * time.Millisecond, "350ms", "350毫秒"},
		{45*time.Second + 400*time.Millisecond, "45s", "45秒"},
		{17*time.Minute + 28*time.Second, "17m28s", "17分钟28秒"},
		{10*time.Hour + 29*time.Minute + 40*time.Second, "10h30m", "10小时30分钟"},
		{730 * time.Hour, "730h", "730小时"},
		{6 * time.Hour, "6h", "6小时"},
	} {
		if got := EN.Dur(tc.d); got != tc.en {
			t.Errorf("EN.Dur(%v) = %q, want %q", tc.d, got, tc.en)
		}
		if got := ZH.Dur(tc.d); got != tc.zh {
			t.Errorf("ZH.Dur(%v) = %q, want %q", tc.d, got, tc.zh)
		}
	}
}

// The English form reads back with time.ParseDuration, as the duration flags do.
func TestDurReadsBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := time.Duration(rapid.Int64Range(time.Second.Nanoseconds(), 1e18).Draw(t, "d"))
		back, err := time.ParseDuration(EN.Dur(d))
		if err != nil || back-d > time.Minute || d-back > time.Minute {
			t.Fatalf("EN.Dur(%v) = %q reads back as %v, %v", d, EN.Dur(d), back, err)
		}
	})
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		n      float64
		en, zh string
	}{
		{512, "512", "512"},
		{8e5, "800K", "80万"},
		{1e6, "1M", "100万"},
		{5e7, "50M", "5000万"},
		{1e8, "100M", "1亿"},
		{1.5e9, "1.5B", "15亿"},
		{6.738415616e9, "6.74B", "67.4亿"},
		{2e12, "2T", "2万亿"},
	} {
		if got := EN.Tokens(tc.n); got != tc.en {
			t.Errorf("EN.Tokens(%g) = %q, want %q", tc.n, got, tc.en)
		}
		if got := ZH.Tokens(tc.n); got != tc.zh {
			t.Errorf("ZH.Tokens(%g) = %q, want %q", tc.n, got, tc.zh)
		}
	}
}

// The locale decides as POSIX orders the variables: LC_ALL over LC_MESSAGES over
// LANG, the first set deciding; zh_* is Chinese.
func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want Lang
	}{
		{map[string]string{}, EN},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, ZH},
		{map[string]string{"LANG": "en_US.UTF-8"}, EN},
		{map[string]string{"LANG": "zh_TW.UTF-8", "LC_ALL": "C"}, EN},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN"}, ZH},
		{map[string]string{"LC_ALL": "zh_CN.GB18030", "LC_MESSAGES": "en_US"}, ZH},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, EN},
	} {
		if got := FromEnv(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("FromEnv(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
	for s, want := range map[string]Lang{"zh": ZH, "ZH": ZH, "zh-CN": ZH, "en": EN, "en_GB": EN} {
		if got, err := ParseLang(s); err != nil || got != want {
			t.Errorf("ParseLang(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParseLang("fr"); err == nil {
		t.Error("ParseLang(fr): want an error")
	}
}
