package pricing

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// bigPricer is a pricer with its costs held as *big.Int, which sends every
// search and total onto the *big.Int path.
func bigPricer(t Tariff) *pricer {
	p := newPricer(t)
	p.hasRun64 = false
	p.hourly = exact{b: p.hourly.big()}
	for i := range p.prices {
		p.prices[i] = exact{b: p.prices[i].big()}
	}
	return p
}

// genWidePrice draws a price with 0 to 12 places and a magnitude from cents to
// near the 10^15 limit, so that both the int64 and the big.Int paths are taken.
func genWidePrice(t *rapid.T, label string) decimal.Decimal {
	if rapid.IntRange(0, 2).Draw(t, label+"_offered") == 0 {
		return decimal.Decimal{}
	}
	places := rapid.Int32Range(0, 12).Draw(t, label+"_places")
	digits := rapid.IntRange(1, 15+int(places)).Draw(t, label+"_digits")
	c := rapid.Int64Range(1, 999_999_999_999_999_999).Draw(t, label+"_coef")
	v := decimal.NewFromInt(c).Mod(decimal.New(1, int32(min(digits, 18))))
	if v.IsZero() {
		v = decimal.NewFromInt(1)
	}
	if digits > 18 {
		v = v.Mul(decimal.New(1, int32(digits-18)))
	}
	return v.Shift(-places)
}

// genWideTariff is genTariff with prices of any allowed size and precision.
func genWideTariff(t *rapid.T) Tariff {
	tr := genTariff(t)
	tr.Hourly, tr.Daily, tr.Weekly, tr.Monthly = genWidePrice(t, "w_hourly"), genWidePrice(t, "w_daily"), genWidePrice(t, "w_weekly"), genWidePrice(t, "w_monthly")
	if len(tr.Terms) == 1 {
		tr.Terms[0].Discount = decimal.Decimal{}
		tr.Terms[0].Monthly = genWidePrice(t, "w_term")
		if tr.Terms[0].Monthly.IsZero() {
			tr.Terms = nil
		}
	}
	if tr.Hourly.IsZero() && tr.Daily.IsZero() && tr.Weekly.IsZero() && tr.Monthly.IsZero() && len(tr.Terms) == 0 {
		tr.Hourly = dec("1.5")
	}
	if err := tr.Validate(); err != nil {
		t.Fatalf("generated an invalid tariff %+v: %v", tr, err)
	}
	return tr
}

// exactForm writes a quote with every decimal's coefficient and exponent, so
// that two quotes compare equal only when they are the same numbers written the
// same way.
func exactForm(q Quote) string {
	var b strings.Builder
	d := func(x decimal.Decimal) { fmt.Fprintf(&b, " %se%d", x.Coefficient(), x.Exponent()) }
	b.WriteString(q.Total.Currency)
	d(q.Total.Amount)
	for _, l := range q.Lines {
		fmt.Fprintf(&b, "\n%s %s %s/%s", l.Item, l.Unit, l.Price.Currency, l.Amount.Currency)
		d(l.Quantity)
		d(l.Price.Amount)
		d(l.Amount.Amount)
	}
	return b.String()
}

// The big.Int path finds the brute-force optimum too, for runs and sessions.
func TestBigPathMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		p := bigPricer(tr)
		d := genDuration(t, "d", 1500*time.Hour)
		c := p.run(d, true)
		if c.cost.b == nil {
			t.Fatalf("forced big path gave an int64 cover")
		}
		if got, want := decimal.NewFromBigInt(c.cost.big(), -p.scale), bruteRun(tr, d); !got.Equal(want) {
			t.Fatalf("big path: cover of %v costs %s ×3600, brute force finds %s", d, got, want)
		}
		perDay := time.Duration(rapid.Int64Range(1, 86400).Draw(t, "per_day_s")) * time.Second
		days := rapid.IntRange(1, 70).Draw(t, "days")
		s := p.sessions(DailySessions(perDay, days), true)
		if got, want := decimal.NewFromBigInt(s.cost.big(), -p.scale), bruteSessions(tr, perDay, int64(days)); !got.Equal(want) {
			t.Fatalf("big path: sessions of %v for %d days cost %s ×3600, brute force %s", perDay, days, got, want)
		}
	})
}

// Prices of any size and precision: both paths agree with brute force and with
// each other, cover for cover and quote for quote, down to the exponents.
func TestFastAndBigAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genWideTariff(t)
		fast, slow := newPricer(tr), bigPricer(tr)
		gpus := rapid.IntRange(1, 1000).Draw(t, "gpus")
		var u Usage
		switch rapid.IntRange(0, 2).Draw(t, "pattern") {
		case 0:
			u = Continuous(genDuration(t, "d", 1500*time.Hour))
			fc, sc := fast.run(u.Duration, true), slow.run(u.Duration, true)
			if fc.counts != sc.counts || fc.hourlySecs != sc.hourlySecs || fc.cost.big().Cmp(sc.cost.big()) != 0 {
				t.Fatalf("run %v: int64 path %+v, big path %+v", u.Duration, fc, sc)
			}
			if want := bruteRun(tr, u.Duration); !decimal.NewFromBigInt(fc.cost.big(), -fast.scale).Equal(want) {
				t.Fatalf("run %v costs %s ×3600 (10^-%d), brute force %s", u.Duration, fc.cost.big(), fast.scale, want)
			}
		case 1:
			u = DailySessions(time.Duration(rapid.Int64Range(1, 86400).Draw(t, "per_day_s"))*time.Second, rapid.IntRange(1, 70).Draw(t, "days"))
		default:
			if tr.Hourly.IsZero() {
				tr.Hourly = dec("0.000000000007")
				fast, slow = newPricer(tr), bigPricer(tr)
			}
			u = TrialThen(time.Duration(rapid.Int64Range(1, 500000).Draw(t, "trial_s"))*time.Second, genDuration(t, "rest", 1500*time.Hour))
		}
		for _, packages := range []bool{true, false} {
			if !packages && tr.Hourly.IsZero() {
				continue
			}
			fq, err := fast.price(u, gpus, packages)
			if err != nil {
				t.Fatal(err)
			}
			sq, err := slow.price(u, gpus, packages)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := exactForm(fq), exactForm(sq); got != want {
				t.Fatalf("%+v on %d GPUs (packages %v):\nint64 path %s\nbig path   %s", u, gpus, packages, got, want)
			}
			checkConservation(t, fq)
		}
	})
}

// Small prices always take the int64 path, so the brute-force properties in
// cost_test.go and usage_test.go check it; huge ones take the big.Int path.
func TestPathChoice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		d := genDuration(t, "d", MaxDuration)
		if c := newPricer(tr).run(d, true); c.cost.b != nil {
			t.Fatalf("%+v for %v took the big path", tr, d)
		}
	})
	huge := Tariff{Currency: "CNY", Hourly: dec("999999999999999.99999999999"), Monthly: dec("123456789012.345678901234")}
	if err := huge.Validate(); err != nil {
		t.Fatal(err)
	}
	p := newPricer(huge)
	if p.hourly.b == nil || p.hasRun64 {
		t.Errorf("prices of 27 digits: hourly %+v, want the big path", p.hourly)
	}
	for _, d := range []time.Duration{7 * time.Second, 731 * time.Hour, MaxDuration} {
		c := p.run(d, true)
		if c.cost.b == nil {
			t.Errorf("run of %v on huge prices took the int64 path", d)
		}
		if d < MaxDuration {
			if got, want := decimal.NewFromBigInt(c.cost.big(), -p.scale), bruteRun(huge, d); !got.Equal(want) {
				t.Errorf("run of %v costs %s ×3600, brute force %s", d, got, want)
			}
		}
		q, err := huge.Cost(d)
		if err != nil {
			t.Fatal(err)
		}
		checkConservation(t, q)
	}
}

// The bound smallEnough checks: a need past it sends the search to big.Int.
func TestSmallEnoughBoundary(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("10000000000000"), Daily: dec("1")}
	p := newPricer(tr)
	if !p.hasRun64 {
		t.Fatal("no int64 run problem for small lengths")
	}
	if !smallEnough(&p.run64, 3600) {
		t.Errorf("an hour at 10^13 an hour does not fit, want it to")
	}
	if smallEnough(&p.run64, int64(MaxDuration/time.Second)) {
		t.Errorf("a century at 10^13 an hour fits, want the big path")
	}
	c := p.run(MaxDuration, true)
	if c.cost.b == nil || c.counts[0] != 100*365 {
		t.Errorf("MaxDuration: int64 cost %v, %d days; want the big path and %d days", c.cost.b == nil, c.counts[0], 100*365)
	}
}

// A bound of exactly MaxInt64 fits: every cost is at most it. With hourly 12607
// and daily D = 427007964568346, for a need of one second the bound is
// Σ A_i + max A_i + T = 2·3·(D·3600) + 172801·12607 = 2^63 − 1 (L = 1 + 2·86400
// seconds, three days and L seconds of tail), so the run stays on int64 and
// Floor has a bound to give: the hour's 12607.00.
func TestSmallEnoughAtMaxInt64(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("12607"), Daily: dec("427007964568346")}
	if p := newPricer(tr); !p.hasRun64 {
		t.Errorf("a bound of exactly MaxInt64: no int64 run problem, want one")
	}
	p, err := NewPricer(tr)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Floor(Continuous(time.Hour), 1); !ok || got.String() != "CNY 12607.00" {
		t.Errorf("Floor(1h) = %v, %v; want CNY 12607.00, true", got, ok)
	}
}

func TestMulDivRound(t *testing.T) {
	tests := []struct {
		name       string
		a, b, d    uint64
		mode       RoundingMode
		want       int64
		exact, fit bool
	}{
		{"exact", 10, 9, 3, RoundHalfUp, 30, true, true},
		{"below half", 9, 1, 4, RoundHalfUp, 2, false, true},
		{"half up", 10, 1, 4, RoundHalfUp, 3, false, true},
		{"half even stays even", 10, 1, 4, RoundHalfEven, 2, false, true},
		{"half even goes to even", 14, 1, 4, RoundHalfEven, 4, false, true},
		{"above half", 11, 1, 4, RoundHalfEven, 3, false, true},
		{"128-bit product", 1 << 40, 1 << 40, 1 << 30, RoundHalfUp, 1 << 50, true, true},
		{"too large", 1 << 63, 4, 1, RoundHalfUp, 0, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, exact, ok := mulDivRound(tc.a, tc.b, tc.d, tc.mode)
			if ok != tc.fit || (ok && (got != tc.want || exact != tc.exact)) {
				t.Errorf("mulDivRound(%d, %d, %d) = %d, %v, %v; want %d, %v, %v", tc.a, tc.b, tc.d, got, exact, ok, tc.want, tc.exact, tc.fit)
			}
		})
	}
}

func TestTrimMatchesString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.Int64().Draw(t, "coef")
		zeros := rapid.Int32Range(0, 25).Draw(t, "zeros")
		e := rapid.Int32Range(-40, 5).Draw(t, "exp")
		// c·10^e written with up to 25 more trailing zeros.
		d := decimal.NewFromBigInt(decimal.New(c, 0).Shift(zeros).BigInt(), e-zeros)
		got := trim(d)
		if !got.Equal(d) {
			t.Fatalf("trim(%s) = %s, a different value", d, got)
		}
		if r := new(big.Int).Rem(got.Coefficient(), big.NewInt(10)); got.Exponent() < 0 && r.Sign() == 0 {
			t.Fatalf("trim(%s) = %se%d keeps a trailing zero", d, got.Coefficient(), got.Exponent())
		}
		if got.Exponent() < min(e-zeros, 0) {
			t.Fatalf("trim(%s) lowered the exponent to %d", d, got.Exponent())
		}
	})
}

func BenchmarkPricer(b *testing.B) {
	tr := Tariff{Currency: "CNY", Hourly: dec("1.60"), Daily: dec("35"), Weekly: dec("220"), Monthly: dec("900"),
		Terms: []Term{{Months: 3, Monthly: dec("850")}, {Months: 12, Monthly: dec("780")}}}
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			newPricer(tr)
		}
	})
	p := newPricer(tr)
	for _, d := range []time.Duration{20 * time.Hour, 400 * 24 * time.Hour} {
		b.Run("price_"+d.String(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := p.price(Continuous(d), 8, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzFastAndBig prices a run on the int64 path and the big.Int path and wants
// the same quote, written the same way.
func FuzzFastAndBig(f *testing.F) {
	f.Add(int64(160), uint8(2), int64(90000), uint8(2), int64(3500), uint8(0), int64(72000), uint16(8), uint8(0))
	f.Add(int64(999999999999999), uint8(12), int64(7), uint8(0), int64(0), uint8(0), int64(315360000), uint16(1000), uint8(3))
	f.Fuzz(func(t *testing.T, hourly int64, hp uint8, monthly int64, mp uint8, daily int64, dp uint8, secs int64, gpus uint16, flags uint8) {
		price := func(c int64, p uint8) decimal.Decimal {
			if c < 0 {
				c = -c
			}
			return decimal.New(c%1_000_000_000_000_000, -int32(p%13))
		}
		tr := Tariff{Currency: [...]string{"CNY", "JPY", "KWD", "USD"}[flags%4], Hourly: price(hourly, hp), Monthly: price(monthly, mp), Daily: price(daily, dp),
			Granularity: [...]time.Duration{0, time.Minute, time.Hour, 15 * time.Minute}[flags/4%4], AfterPackage: AfterPackage(flags / 16 % 2),
			Rounding: RoundingMode(flags / 32 % 2), Minimum: time.Duration(flags/64) * time.Hour}
		if tr.Validate() != nil || secs < 0 || gpus == 0 {
			return
		}
		d := time.Duration(secs%int64(MaxDuration/time.Second+1)) * time.Second
		fq, err := newPricer(tr).price(Continuous(d), int(gpus), true)
		if err != nil {
			t.Fatal(err)
		}
		sq, err := bigPricer(tr).price(Continuous(d), int(gpus), true)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := exactForm(fq), exactForm(sq); got != want {
			t.Fatalf("%+v for %v on %d GPUs:\nint64 path %s\nbig path   %s", tr, d, gpus, got, want)
		}
		checkConservation(t, fq)
	})
}

// A Pricer is safe for concurrent use: goroutines that share one, the first of
// them preparing its search, price as one goroutine does alone (go test -race
// checks the sharing).
func TestPricerConcurrent(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("1.60"), Daily: dec("35"), Weekly: dec("220"), Monthly: dec("900"),
		Terms: []Term{{Months: 3, Monthly: dec("850")}, {Months: 12, Monthly: dec("780")}}}
	runs := []time.Duration{20 * time.Hour, 9 * 24 * time.Hour, 400 * 24 * time.Hour, 3 * 8760 * time.Hour}
	want := make([]Quote, len(runs))
	for i, d := range runs {
		q, err := tr.CostGPUs(d, 4)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = q
	}
	p, err := NewPricer(tr)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([][]Quote, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range runs {
				j := (i + g) % len(runs) // each goroutine starts elsewhere
				q, err := p.Price(Continuous(runs[j]), 4)
				if err != nil {
					t.Error(err)
					return
				}
				got[g] = append(got[g], q)
			}
		}()
	}
	wg.Wait()
	for g, qs := range got {
		for i, q := range qs {
			if w := want[(i+g)%len(runs)]; q.Total.String() != w.Total.String() || len(q.Lines) != len(w.Lines) {
				t.Errorf("goroutine %d, run %v: %v with %d lines, want %v with %d", g, runs[(i+g)%len(runs)], q.Total, len(q.Lines), w.Total, len(w.Lines))
			}
		}
	}
}
