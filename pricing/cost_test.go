package pricing

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// base is the tariff of REFERENCES.md's break-even example: ¥18 an hour, ¥9000 a
// month of 730 hours.
func base() Tariff { return Tariff{Currency: "CNY", Hourly: dec("18"), Monthly: dec("9000")} }

type wantLine struct{ item, qty, amount string }

func TestCostTable(t *testing.T) {
	withDaily := base()
	withDaily.Daily = dec("300")
	withWeekly := withDaily
	withWeekly.Weekly = dec("1500")
	perMinute := base()
	perMinute.Granularity = time.Minute
	perHour := base()
	perHour.Granularity = time.Hour
	month720 := base()
	month720.HoursPerMonth = 720
	minimum := base()
	minimum.Minimum = time.Hour
	term := base()
	term.Terms = []Term{{Months: 3, Monthly: dec("8000")}}
	discount := base()
	discount.Terms = []Term{{Months: 12, Discount: dec("0.25")}}
	renew := base()
	renew.AfterPackage = Renew
	packagesOnly := Tariff{Currency: "CNY", Daily: dec("300"), Monthly: dec("9000")}
	cheap := Tariff{Currency: "CNY", Hourly: dec("9")}
	cheapEven := cheap
	cheapEven.Rounding = RoundHalfEven
	yen := Tariff{Currency: "JPY", Hourly: dec("100.5")}
	yenEven := yen
	yenEven.Rounding = RoundHalfEven

	tests := []struct {
		name  string
		t     Tariff
		d     time.Duration
		total string
		lines []wantLine
	}{
		{"zero usage costs nothing", base(), 0, "0", nil},
		{"an hour and a half hourly", base(), 90 * time.Minute, "27", []wantLine{{"hourly", "1.5", "27"}}},
		// REFERENCES.md: 9000/18 = 500 h; at exactly 500 h both cost ¥9000 and the
		// tie goes to hourly (no commitment).
		{"break-even 500h ties, hourly kept", base(), 500 * time.Hour, "9000", []wantLine{{"hourly", "500", "9000"}}},
		{"501h: the month wins", base(), 501 * time.Hour, "9000", []wantLine{{"monthly", "1", "9000"}}},
		{"one month plus an hour", base(), 731 * time.Hour, "9018", []wantLine{{"monthly", "1", "9000"}, {"hourly", "1", "18"}}},
		{"a daily package for 20 hours beats hourly", withDaily, 20 * time.Hour, "300", []wantLine{{"daily", "1", "300"}}},
		{"16 hours stay hourly", withDaily, 16 * time.Hour, "288", []wantLine{{"hourly", "16", "288"}}},
		{"a week beats six days", withWeekly, 6 * 24 * time.Hour, "1500", []wantLine{{"weekly", "1", "1500"}}},
		{"a month and three days against two months", withDaily, 730*time.Hour + 72*time.Hour, "9900",
			[]wantLine{{"monthly", "1", "9000"}, {"daily", "3", "900"}}},
		{"per minute: 61 s bills 2 min", perMinute, 61 * time.Second, "0.6", []wantLine{{"hourly", "0.033333333", "0.6"}}},
		{"per minute: 90 min 30 s bills 91 min", perMinute, 90*time.Minute + 30*time.Second, "27.3", []wantLine{{"hourly", "1.516666667", "27.3"}}},
		{"per started hour: 61 min bills 2 h", perHour, 61 * time.Minute, "36", []wantLine{{"hourly", "2", "36"}}},
		{"per second: 7 s is 0.035, rounded half up", base(), 7 * time.Second, "0.04", []wantLine{{"hourly", "0.001944444", "0.035"}, {"rounding", "1", "0.005"}}},
		{"half up: 10 s at 9/h is 0.025 → 0.03", cheap, 10 * time.Second, "0.03", []wantLine{{"hourly", "0.002777778", "0.025"}, {"rounding", "1", "0.005"}}},
		{"half even: 10 s at 9/h is 0.025 → 0.02", cheapEven, 10 * time.Second, "0.02", []wantLine{{"hourly", "0.002777778", "0.025"}, {"rounding", "1", "-0.005"}}},
		{"yen has no minor unit, half up", yen, time.Hour, "101", []wantLine{{"hourly", "1", "100.5"}, {"rounding", "1", "0.5"}}},
		{"yen half even", yenEven, time.Hour, "100", []wantLine{{"hourly", "1", "100.5"}, {"rounding", "1", "-0.5"}}},
		{"730-hour month covers 725 h", base(), 725 * time.Hour, "9000", []wantLine{{"monthly", "1", "9000"}}},
		{"720-hour month leaves 5 h hourly", month720, 725 * time.Hour, "9090", []wantLine{{"monthly", "1", "9000"}, {"hourly", "5", "90"}}},
		{"720-hour month covers 720 h", month720, 720 * time.Hour, "9000", []wantLine{{"monthly", "1", "9000"}}},
		{"one-hour minimum", minimum, 10 * time.Minute, "18", []wantLine{{"hourly", "1", "18"}}},
		{"3-month term at 8000 a month", term, 3 * 730 * time.Hour, "24000", []wantLine{{"term_3m", "1", "24000"}}},
		{"12-month term at 25% off", discount, 12 * 730 * time.Hour, "81000", []wantLine{{"term_12m", "1", "81000"}}},
		{"renew: no hourly after a package", renew, 731 * time.Hour, "13158", []wantLine{{"hourly", "731", "13158"}}},
		{"renew: two months when cheaper", renew, 1200 * time.Hour, "18000", []wantLine{{"monthly", "2", "18000"}}},
		{"packages only: a day for 20 h", packagesOnly, 20 * time.Hour, "300", []wantLine{{"daily", "1", "300"}}},
		{"packages only: month and a day", packagesOnly, 731 * time.Hour, "9300", []wantLine{{"monthly", "1", "9000"}, {"daily", "1", "300"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := tc.t.Cost(tc.d)
			if err != nil {
				t.Fatalf("Cost(%v) error: %v", tc.d, err)
			}
			if !q.Total.Amount.Equal(dec(tc.total)) || q.Total.Currency != tc.t.Currency {
				t.Errorf("Cost(%v).Total = %v, want %s %s", tc.d, q.Total, tc.t.Currency, tc.total)
			}
			if len(q.Lines) != len(tc.lines) {
				t.Fatalf("Cost(%v) has %d lines %+v, want %d", tc.d, len(q.Lines), q.Lines, len(tc.lines))
			}
			for i, w := range tc.lines {
				l := q.Lines[i]
				if l.Item != w.item || !l.Quantity.Equal(dec(w.qty)) || !l.Amount.Amount.Equal(dec(w.amount)) {
					t.Errorf("line %d = %s %s %s, want %s %s %s", i, l.Item, l.Quantity, l.Amount.Amount, w.item, w.qty, w.amount)
				}
			}
			checkConservation(t, q)
		})
	}
}

// checkConservation checks that the lines add up exactly to the total, that every
// line is in the quote's currency, and that package lines are Price × Quantity.
func checkConservation(t interface{ Errorf(string, ...any) }, q Quote) {
	sum := decimal.Decimal{}
	for _, l := range q.Lines {
		sum = sum.Add(l.Amount.Amount)
		if l.Amount.Currency != q.Total.Currency || l.Price.Currency != q.Total.Currency {
			t.Errorf("line %s in %s/%s, total in %s", l.Item, l.Price.Currency, l.Amount.Currency, q.Total.Currency)
		}
		if l.Item != "hourly" && l.Item != "trial" && !l.Price.Amount.Mul(l.Quantity).Equal(l.Amount.Amount) {
			t.Errorf("line %s: %s × %s = %s, want the amount %s", l.Item, l.Price.Amount, l.Quantity, l.Price.Amount.Mul(l.Quantity), l.Amount.Amount)
		}
	}
	if !sum.Equal(q.Total.Amount) {
		t.Errorf("lines sum to %s, want the total %s", sum, q.Total.Amount)
	}
	places := MinorUnit(q.Total.Currency)
	if !q.Total.Amount.Equal(q.Total.Amount.Truncate(places)) {
		t.Errorf("total %s has more than %d places", q.Total.Amount, places)
	}
}

func TestCostGPUs(t *testing.T) {
	// Eight GPUs for 90 minutes at ¥18/h: 12 GPU-hours, ¥216.
	q, err := base().CostGPUs(90*time.Minute, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Total.Amount.Equal(dec("216")) || !q.Lines[0].Quantity.Equal(dec("12")) {
		t.Errorf("CostGPUs(90m, 8) = %v with %v, want CNY 216 for 12 hours", q.Total, q.Lines[0].Quantity)
	}
	// Rounded once for all GPUs: 3 × ¥0.035 = ¥0.105 → 0.11, not 3 × 0.04.
	q, err = base().CostGPUs(7*time.Second, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Total.Amount.Equal(dec("0.11")) {
		t.Errorf("CostGPUs(7s, 3) = %v, want CNY 0.11", q.Total)
	}
	checkConservation(t, q)
}

func TestBreakEven(t *testing.T) {
	weekly := Tariff{Currency: "CNY", Hourly: dec("18"), Daily: dec("300"), Weekly: dec("1500"), Monthly: dec("9000")}
	third := Tariff{Currency: "CNY", Hourly: dec("3"), Monthly: dec("100")}
	tests := []struct {
		name string
		t    Tariff
		p    Package
		want time.Duration
	}{
		// REFERENCES.md "Pricing conventions": ¥9000 / ¥18 = 500 h.
		{"monthly 9000 against 18/h", base(), Monthly, 500 * time.Hour},
		{"daily 300 against 18/h", weekly, Daily, 16*time.Hour + 40*time.Minute},
		{"weekly 1500 against 18/h", weekly, Weekly, 83*time.Hour + 20*time.Minute},
		// 100/3 h = 33 h 20 min exactly.
		{"monthly 100 against 3/h", third, Monthly, 33*time.Hour + 20*time.Minute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.t.BreakEvenFor(tc.p)
			if err != nil || got != tc.want {
				t.Errorf("BreakEvenFor(%v) = %v, %v; want %v", tc.p, got, err, tc.want)
			}
		})
	}
	if got, err := base().BreakEven(); err != nil || got != 500*time.Hour {
		t.Errorf("BreakEven() = %v, %v; want 500h", got, err)
	}
	// A break-even that is not a whole nanosecond rounds up: 1/7 h.
	seventh := Tariff{Currency: "CNY", Hourly: dec("7"), Daily: dec("1")}
	if got, _ := seventh.BreakEvenFor(Daily); got != 514285714286 {
		t.Errorf("BreakEvenFor(Daily) = %d ns, want 514285714286 (1/7 h rounded up)", int64(got))
	}
	for name, tr := range map[string]Tariff{
		"no hourly":  {Currency: "CNY", Monthly: dec("9000")},
		"no monthly": {Currency: "CNY", Hourly: dec("18")},
		"invalid":    {Currency: "cny", Hourly: dec("18"), Monthly: dec("9000")},
	} {
		if _, err := tr.BreakEven(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: BreakEven() error = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := weekly.BreakEvenFor(Package(9)); !errors.Is(err, ErrInvalid) {
		t.Errorf("BreakEvenFor(9) error = %v, want ErrInvalid", err)
	}
}

func TestTariffValidate(t *testing.T) {
	ok := base()
	if err := ok.Validate(); err != nil {
		t.Fatalf("Validate() = %v for a valid tariff", err)
	}
	mod := func(f func(*Tariff)) Tariff { t := base(); f(&t); return t }
	bad := map[string]Tariff{
		"negative hourly":          mod(func(t *Tariff) { t.Hourly = dec("-1") }),
		"negative monthly":         mod(func(t *Tariff) { t.Monthly = dec("-0.01") }),
		"missing currency":         mod(func(t *Tariff) { t.Currency = "" }),
		"lower-case currency":      mod(func(t *Tariff) { t.Currency = "cny" }),
		"four-letter currency":     mod(func(t *Tariff) { t.Currency = "CNYY" }),
		"nothing offered":          {Currency: "CNY"},
		"granularity 7 min":        mod(func(t *Tariff) { t.Granularity = 7 * time.Minute }),
		"granularity 1.5 s":        mod(func(t *Tariff) { t.Granularity = 1500 * time.Millisecond }),
		"granularity 2 h":          mod(func(t *Tariff) { t.Granularity = 2 * time.Hour }),
		"negative granularity":     mod(func(t *Tariff) { t.Granularity = -time.Second }),
		"negative minimum":         mod(func(t *Tariff) { t.Minimum = -time.Second }),
		"hours per month negative": mod(func(t *Tariff) { t.HoursPerMonth = -730 }),
		"hours per month 100":      mod(func(t *Tariff) { t.HoursPerMonth = 100 }),
		"term of one month":        mod(func(t *Tariff) { t.Terms = []Term{{Months: 1, Monthly: dec("1")}} }),
		"term with both prices":    mod(func(t *Tariff) { t.Terms = []Term{{Months: 3, Monthly: dec("1"), Discount: dec("0.1")}} }),
		"term with no price":       mod(func(t *Tariff) { t.Terms = []Term{{Months: 3}} }),
		"discount of 100%":         mod(func(t *Tariff) { t.Terms = []Term{{Months: 3, Discount: dec("1")}} }),
		"discount of 1.000":        mod(func(t *Tariff) { t.Terms = []Term{{Months: 3, Discount: dec("1.000")}} }),
		"discount of 20":           mod(func(t *Tariff) { t.Terms = []Term{{Months: 3, Discount: decimal.New(2, 1)}} }),
		"discount without monthly": {Currency: "CNY", Hourly: dec("1"), Terms: []Term{{Months: 3, Discount: dec("0.1")}}},
		"two 3-month terms":        mod(func(t *Tariff) { t.Terms = []Term{{Months: 3, Monthly: dec("1")}, {Months: 3, Monthly: dec("2")}} }),
		"13 decimal places":        mod(func(t *Tariff) { t.Hourly = dec("0.0000000000001") }),
		"price of 10^15":           mod(func(t *Tariff) { t.Monthly = decimal.New(1, 15) }),
		"huge exponent":            mod(func(t *Tariff) { t.Hourly = decimal.New(1, -2000000000) }),
		"unknown policy":           mod(func(t *Tariff) { t.AfterPackage = 7 }),
		"unknown rounding":         mod(func(t *Tariff) { t.Rounding = 7 }),
	}
	for name, tr := range bad {
		t.Run(name, func(t *testing.T) {
			if err := tr.Validate(); !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate() = %v, want ErrInvalid", err)
			}
			if _, err := tr.Cost(time.Hour); !errors.Is(err, ErrInvalid) {
				t.Errorf("Cost() error = %v, want ErrInvalid", err)
			}
		})
	}
	// Too many terms is said once, whatever the terms say: 65,536 bad terms gave
	// one problem each, a 10 MB message.
	many := mod(func(t *Tariff) {
		t.Terms = make([]Term, 1<<16)
		for i := range t.Terms {
			t.Terms[i] = Term{Months: i, Discount: dec("2")}
		}
	})
	if err := many.Validate(); !errors.Is(err, ErrInvalid) || err.Error() != "pricing: terms: 65536 terms: at most 8: invalid input" {
		t.Errorf("Validate() of 65536 terms = %.200q (%d bytes), want one problem", err, len(fmt.Sprint(err)))
	}
	// Trailing zeros do not count as places.
	if err := mod(func(t *Tariff) { t.Hourly = dec("1.50000000000000000000") }).Validate(); err != nil {
		t.Errorf("Validate() = %v for 1.5 written with trailing zeros", err)
	}
	// A discount just below 1 is a fraction, however it is written.
	for _, d := range []string{"0.999999999999", "0.5000000000000000000000", "0"} {
		tr := mod(func(t *Tariff) { t.Terms = []Term{{Months: 3, Discount: dec(d)}} })
		if err := tr.Validate(); (err != nil) != (d == "0") { // zero is no discount at all: neither price given
			t.Errorf("Validate() = %v for a discount of %s", err, d)
		}
	}
}

func TestCostBadInput(t *testing.T) {
	for _, d := range []time.Duration{-time.Nanosecond, -time.Hour, MaxDuration + 1} {
		if _, err := base().Cost(d); !errors.Is(err, ErrInvalid) {
			t.Errorf("Cost(%v) error = %v, want ErrInvalid", d, err)
		}
	}
	for _, g := range []int{0, -1, 2_000_000} {
		if _, err := base().CostGPUs(time.Hour, g); !errors.Is(err, ErrInvalid) {
			t.Errorf("CostGPUs(1h, %d) error = %v, want ErrInvalid", g, err)
		}
	}
	// The longest usage still prices, without overflow.
	q, err := base().Cost(MaxDuration)
	if err != nil {
		t.Fatalf("Cost(MaxDuration) error: %v", err)
	}
	if want := dec("9000").Mul(dec("1200")); !q.Total.Amount.Equal(want) {
		t.Errorf("Cost(MaxDuration) = %v, want CNY %s (1200 months)", q.Total, want)
	}
}

// bruteRun returns the exact cost ×3600 of the cheapest cover of d, trying every
// count of every package from zero to enough to cover d alone.
func bruteRun(tr Tariff, d time.Duration) decimal.Decimal {
	pk := tr.appendPackages(nil)
	best := decimal.Decimal{}
	found := false
	counts := make([]int64, len(pk))
	var rec func(i int)
	rec = func(i int) {
		if i == len(pk) {
			cov := time.Duration(0)
			cost := decimal.Decimal{}
			any := false
			for j, n := range counts {
				cov += time.Duration(n) * time.Duration(pk[j].hours) * time.Hour
				cost = cost.Add(pk[j].price.Mul(decimal.NewFromInt(n * 3600)))
				any = any || n > 0
			}
			if cov < d {
				if tr.Hourly.IsZero() || (any && tr.AfterPackage == Renew) {
					return
				}
				cost = cost.Add(tr.Hourly.Mul(decimal.NewFromInt(int64(tr.billed(d-cov) / time.Second))))
			}
			if !found || cost.Cmp(best) < 0 {
				best, found = cost, true
			}
			return
		}
		l := time.Duration(pk[i].hours) * time.Hour
		maxN := int64((d + l - 1) / l)
		for n := int64(0); n <= maxN; n++ {
			counts[i] = n
			rec(i + 1)
		}
		counts[i] = 0
	}
	rec(0)
	return best
}

// runCost is the exact cost of the cheapest cover of a run of d on one GPU, times
// 3600 (so that hourly time billed in seconds is exact).
func runCost(t Tariff, d time.Duration) decimal.Decimal {
	p := newPricer(t)
	return decimal.NewFromBigInt(p.run(d, true).cost.big(), -p.scale)
}

func TestCostMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		d := genDuration(t, "d", 1500*time.Hour)
		exact := runCost(tr, d)
		if want := bruteRun(tr, d); !exact.Equal(want) {
			t.Fatalf("cover of %v costs %s ×3600, brute force finds %s", d, exact, want)
		}
		q, err := tr.Cost(d)
		if err != nil {
			t.Fatal(err)
		}
		checkConservation(t, q)
		if want := roundQuo(exact, decimal.NewFromInt(3600), MinorUnit(tr.Currency), tr.Rounding); !q.Total.Amount.Equal(want) {
			t.Fatalf("Total %s, want the exact cost rounded once: %s", q.Total.Amount, want)
		}
	})
}

func TestCostMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		a := genDuration(t, "a", 20000*time.Hour)
		b := a + genDuration(t, "extra", 3000*time.Hour)
		ca := runCost(tr, a)
		cb := runCost(tr, b)
		if ca.Cmp(cb) > 0 {
			t.Fatalf("cost(%v) = %s > cost(%v) = %s (×3600)", a, ca, b, cb)
		}
	})
}

func TestCostNeverAboveSimpleCovers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		d := genDuration(t, "d", 30000*time.Hour)
		got := runCost(tr, d)
		if !tr.Hourly.IsZero() {
			hourly := tr.Hourly.Mul(decimal.NewFromInt(int64(tr.billed(d) / time.Second)))
			if got.Cmp(hourly) > 0 {
				t.Fatalf("cost %s above hourly only %s (×3600)", got, hourly)
			}
		}
		pk := tr.appendPackages(nil)
		cov := time.Duration(0)
		combo := decimal.Decimal{}
		for i, p := range pk {
			l := time.Duration(p.hours) * time.Hour
			n := int64((d + l - 1) / l)
			single := p.price.Mul(decimal.NewFromInt(n * 3600))
			if got.Cmp(single) > 0 {
				t.Fatalf("cost %s above %d × %s = %s (×3600)", got, n, p.name(), single)
			}
			k := rapid.Int64Range(0, n).Draw(t, "count_"+p.name())
			if i == len(pk)-1 && cov+time.Duration(k)*l < d && (tr.Hourly.IsZero() || tr.AfterPackage == Renew) {
				k = int64((d - cov + l - 1) / l) // make the combination a cover
			}
			cov += time.Duration(k) * l
			combo = combo.Add(p.price.Mul(decimal.NewFromInt(k * 3600)))
		}
		if cov < d {
			if tr.Hourly.IsZero() || (tr.AfterPackage == Renew && !combo.IsZero()) {
				return
			}
			combo = combo.Add(tr.Hourly.Mul(decimal.NewFromInt(int64(tr.billed(d-cov) / time.Second))))
		}
		if got.Cmp(combo) > 0 {
			t.Fatalf("cost %s above a drawn combination %s (×3600)", got, combo)
		}
	})
}

func TestSplittingNeverCheaper(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		tr.AfterPackage = BillHourly // under Renew two rentals can be cheaper; see AfterPackage
		a := genDuration(t, "a", 10000*time.Hour)
		b := genDuration(t, "b", 10000*time.Hour)
		ca := runCost(tr, a)
		cb := runCost(tr, b)
		whole := runCost(tr, a+b)
		if ca.Add(cb).Cmp(whole) < 0 {
			t.Fatalf("%v and %v apart cost %s + %s < %s for the whole (×3600)", a, b, ca, cb, whole)
		}
		if !tr.Hourly.IsZero() && a > 0 {
			q, err := tr.Price(TrialThen(a, b), 1)
			if err != nil {
				t.Fatal(err)
			}
			whole, _ := tr.Cost(a + b)
			if q.Total.Amount.Cmp(whole.Total.Amount) < 0 {
				t.Fatalf("trial %v then %v costs %v < %v for the whole", a, b, q.Total, whole.Total)
			}
		}
	})
}

func TestLinesSumForAllPatterns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		gpus := rapid.IntRange(1, 64).Draw(t, "gpus")
		var u Usage
		switch rapid.IntRange(0, 2).Draw(t, "pattern") {
		case 0:
			u = Continuous(genDuration(t, "d", 50000*time.Hour))
		case 1:
			u = DailySessions(time.Duration(rapid.Int64Range(1, 86400).Draw(t, "per_day_s"))*time.Second, rapid.IntRange(1, 400).Draw(t, "days"))
		default:
			if tr.Hourly.IsZero() {
				tr.Hourly = dec("1.23")
			}
			u = TrialThen(time.Duration(rapid.Int64Range(1, 500000).Draw(t, "trial_s"))*time.Second, genDuration(t, "rest", 5000*time.Hour))
		}
		q, err := tr.Price(u, gpus)
		if err != nil {
			t.Fatalf("Price(%+v, %d): %v", u, gpus, err)
		}
		checkConservation(t, q)
		// Total and a prepared Pricer give the same total, and the Pricer the same
		// quote.
		pr, err := NewPricer(tr)
		if err != nil {
			t.Fatal(err)
		}
		tot, err := pr.Total(u, gpus)
		if err != nil || !tot.Amount.Equal(q.Total.Amount) || tot.Currency != q.Total.Currency {
			t.Fatalf("Total(%+v, %d) = %v, %v; Price's total %v", u, gpus, tot, err, q.Total)
		}
		pq, err := pr.Price(u, gpus)
		if err != nil || !pq.Total.Amount.Equal(q.Total.Amount) || len(pq.Lines) != len(q.Lines) {
			t.Fatalf("Pricer.Price(%+v, %d) = %v, %v; Price gave %v", u, gpus, pq, err, q)
		}
	})
}

// A Pricer refuses what Price refuses, and the zero Pricer is an error, not a panic.
func TestPricerBadInput(t *testing.T) {
	if _, err := NewPricer(Tariff{Currency: "CNY"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewPricer of a tariff offering nothing: %v, want ErrInvalid", err)
	}
	pr, err := NewPricer(Tariff{Currency: "CNY", Hourly: dec("1")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Total(Continuous(-time.Hour), 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative usage: %v, want ErrInvalid", err)
	}
	if _, err := pr.Price(Continuous(time.Hour), 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero GPUs: %v, want ErrInvalid", err)
	}
	if _, err := (Pricer{}).Total(Continuous(time.Hour), 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("zero Pricer: %v, want ErrInvalid", err)
	}
}

func BenchmarkCost(b *testing.B) {
	tr := Tariff{Currency: "CNY", Hourly: dec("1.60"), Daily: dec("35"), Weekly: dec("220"), Monthly: dec("900"),
		Terms: []Term{{Months: 3, Monthly: dec("850")}, {Months: 12, Monthly: dec("780")}}}
	for _, c := range []struct {
		name string
		d    time.Duration
	}{{"20h", 20 * time.Hour}, {"45d", 45 * 24 * time.Hour}, {"400d", 400 * 24 * time.Hour}, {"10y", 10 * 8760 * time.Hour}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Cost(c.d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCostCommon prices a tariff of hourly, daily, weekly and monthly
// packages at lengths up to MaxDuration, and the pathological tariff of
// TestCostPathologicalTerms at its longest.
func BenchmarkCostCommon(b *testing.B) {
	common := Tariff{Currency: "CNY", Hourly: dec("1.60"), Daily: dec("35"), Weekly: dec("220"), Monthly: dec("900")}
	for _, c := range []struct {
		name string
		d    time.Duration
	}{{"20h", 20 * time.Hour}, {"400d", 400 * 24 * time.Hour}, {"100y-1s", MaxDuration - time.Second}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := common.Cost(c.d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("pathological-46y", func(b *testing.B) {
		tr := pathological()
		b.ReportAllocs()
		for range b.N {
			if _, err := tr.CostGPUs(46*8760*time.Hour+20*time.Minute, 8); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The search's bound on hourly time after the packages counts the minimum
// charge: a tail may be as long as the minimum plus the shortest package that
// hourly time costs at least as much as. At hourly 1, daily 23 and weekly 100
// with a 3-hour minimum, 193 h is a week and 25 hours (100 + 25 = CNY 125), not a
// week, a day and an hour billed as the 3-hour minimum (100 + 23 + 3 = 126): the
// 25-hour tail is longer than the day it would replace.
func TestCostTailPastShortestPackage(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("1"), Daily: dec("23"), Weekly: dec("100"), Minimum: 3 * time.Hour}
	q, err := tr.Cost(193 * time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Total.String(); got != "CNY 125.00" {
		t.Errorf("193 h = %s (%+v), want CNY 125.00: a week and 25 hours", got, q.Lines)
	}
}

// With a minimum charge, the cheapest cover found is the brute force's, on
// tariffs drawn where the minimum matters: a package priced a little under the
// hourly time it covers, runs just past a package's length.
func TestCostWithMinimumMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := rapid.Int64Range(1, 20).Draw(t, "hourly")
		tr := Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(h),
			Minimum:     time.Duration(rapid.IntRange(1, 8).Draw(t, "minimum_h")) * time.Hour,
			Granularity: rapid.SampledFrom([]time.Duration{0, time.Minute, time.Hour}).Draw(t, "granularity")}
		tr.Daily = decimal.NewFromInt(24*h - rapid.Int64Range(0, 3*h).Draw(t, "daily_under_24h"))
		if rapid.Bool().Draw(t, "weekly") {
			tr.Weekly = decimal.NewFromInt(168*h - rapid.Int64Range(0, 100*h).Draw(t, "weekly_under_168h"))
		}
		base := rapid.SampledFrom([]int64{0, 24, 168, 192, 336}).Draw(t, "base_h")
		d := time.Duration(base)*time.Hour + time.Duration(rapid.Int64Range(0, 30*3600).Draw(t, "past_s"))*time.Second
		if got, want := runCost(tr, d), bruteRun(tr, d); !got.Equal(want) {
			t.Fatalf("cover of %v costs %s ×3600, brute force finds %s", d, got, want)
		}
	})
}
