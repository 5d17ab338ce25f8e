package pricing

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

func TestPriceSessions(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("18"), Daily: dec("300"), Weekly: dec("1500"), Monthly: dec("9000")}
	perHour := tr
	perHour.Granularity = time.Hour
	minimum := tr
	dearWeek := tr
	dearWeek.Weekly = dec("2500")
	minimum.Minimum = 2 * time.Hour
	tests := []struct {
		name  string
		t     Tariff
		u     Usage
		total string
		lines []wantLine
	}{
		// 8 h a day for 20 days: hourly pays 160 h = ¥2880; a monthly package
		// would pay for the idle hours (¥9000), daily packages ¥6000.
		{"8 h a day for 20 days stays hourly", tr, DailySessions(8*time.Hour, 20), "2880", []wantLine{{"hourly", "160", "2880"}}},
		// 20 h a day: a session costs ¥360, a daily package ¥300.
		{"20 h a day for 3 days takes daily packages", tr, DailySessions(20*time.Hour, 3), "900", []wantLine{{"daily", "3", "900"}}},
		// 20 h a day for 40 days: six weeks (¥9000) beat a month (30 days of a
		// 730-hour month) and ten days (¥12000).
		{"20 h a day for 40 days: six weeks", tr, DailySessions(20*time.Hour, 40), "9000", []wantLine{{"weekly", "6", "9000"}}},
		// With weeks at ¥2500 the month and ten days win.
		{"20 h a day for 40 days: a month and ten days", dearWeek, DailySessions(20*time.Hour, 40), "12000",
			[]wantLine{{"monthly", "1", "9000"}, {"daily", "10", "3000"}}},
		// Each day's session is billed on its own: 30 min per day per started hour
		// bills an hour a day.
		{"per started hour, per day", perHour, DailySessions(30*time.Minute, 10), "180", []wantLine{{"hourly", "10", "180"}}},
		{"a minimum applies to each session", minimum, DailySessions(time.Hour, 5), "180", []wantLine{{"hourly", "10", "180"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := tc.t.Price(tc.u, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !q.Total.Amount.Equal(dec(tc.total)) {
				t.Errorf("Price(%+v) = %v, want CNY %s (lines %+v)", tc.u, q.Total, tc.total, q.Lines)
			}
			if len(q.Lines) != len(tc.lines) {
				t.Fatalf("%d lines %+v, want %d", len(q.Lines), q.Lines, len(tc.lines))
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

func TestPriceTrialThenCommit(t *testing.T) {
	tr := base()
	// The second article: rent short first, then commit. A 10-hour trial at ¥18
	// (¥180), then a month of 730 hours (¥9000): ¥9180, where one 740-hour cover
	// would be a month and 10 hours, the same ¥9180.
	q, err := tr.Price(TrialThen(10*time.Hour, 730*time.Hour), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Total.Amount.Equal(dec("9180")) || q.Lines[0].Item != "trial" || !q.Lines[0].Quantity.Equal(dec("10")) ||
		q.Lines[1].Item != "monthly" {
		t.Errorf("trial then commit = %v %+v, want CNY 9180: trial 10 h, then monthly", q.Total, q.Lines)
	}
	checkConservation(t, q)
	// A trial that needs an hourly price.
	if _, err := (Tariff{Currency: "CNY", Monthly: dec("9000")}).Price(TrialThen(time.Hour, 730*time.Hour), 1); !errors.Is(err, ErrUnavailable) {
		t.Errorf("trial without an hourly price error = %v, want ErrUnavailable", err)
	}
	// Under Renew the trial is a rental of its own, so packages may follow it.
	renew := base()
	renew.AfterPackage = Renew
	q, err = renew.Price(TrialThen(10*time.Hour, 730*time.Hour), 2)
	if err != nil || !q.Total.Amount.Equal(dec("18360")) {
		t.Errorf("renew trial then commit on 2 GPUs = %v, %v; want CNY 18360", q.Total, err)
	}
}

func TestUsageValidate(t *testing.T) {
	bad := map[string]Usage{
		"negative run":            Continuous(-time.Second),
		"run too long":            Continuous(MaxDuration + time.Hour),
		"zero hours a day":        DailySessions(0, 3),
		"25 hours a day":          DailySessions(25*time.Hour, 3),
		"zero days":               DailySessions(time.Hour, 0),
		"negative days":           DailySessions(time.Hour, -1),
		"zero trial":              TrialThen(0, time.Hour),
		"negative rest":           TrialThen(time.Hour, -time.Hour),
		"unknown pattern":         {Pattern: 9},
		"run with days":           {Pattern: Run, Duration: time.Hour, Days: 2},
		"sessions with duration":  {Pattern: Sessions, PerDay: time.Hour, Days: 2, Duration: time.Hour},
		"trial with hours a day":  {Pattern: TrialThenCommit, Trial: time.Hour, PerDay: time.Hour},
		"sessions over a century": DailySessions(time.Hour, 36501),
	}
	for name, u := range bad {
		if _, err := base().Price(u, 1); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Price error = %v, want ErrInvalid", name, err)
		}
	}
}

// bruteSessions returns the exact cost ×3600 of the cheapest cover of days days of
// perDay sessions, over every count of every package.
func bruteSessions(tr Tariff, perDay time.Duration, days int64) decimal.Decimal {
	pk := tr.appendPackages(nil)
	session := tr.Hourly.Mul(decimal.NewFromInt(int64(tr.billed(perDay) / time.Second)))
	best, found := decimal.Decimal{}, false
	counts := make([]int64, len(pk))
	var rec func(i int)
	rec = func(i int) {
		if i == len(pk) {
			cov, cost, any := int64(0), decimal.Decimal{}, false
			for j, n := range counts {
				cov += n * (pk[j].hours / 24)
				cost = cost.Add(pk[j].price.Mul(decimal.NewFromInt(n * 3600)))
				any = any || n > 0
			}
			if cov < days {
				if tr.Hourly.IsZero() || (any && tr.AfterPackage == Renew) {
					return
				}
				cost = cost.Add(session.Mul(decimal.NewFromInt(days - cov)))
			}
			if !found || cost.Cmp(best) < 0 {
				best, found = cost, true
			}
			return
		}
		l := pk[i].hours / 24
		for n := int64(0); n <= (days+l-1)/l; n++ {
			counts[i] = n
			rec(i + 1)
		}
		counts[i] = 0
	}
	rec(0)
	return best
}

func TestSessionsMatchBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		perDay := time.Duration(rapid.Int64Range(1, 86400).Draw(t, "per_day_s")) * time.Second
		days := rapid.IntRange(1, 70).Draw(t, "days")
		q, err := tr.Price(DailySessions(perDay, days), 1)
		if err != nil {
			t.Fatal(err)
		}
		want := roundQuo(bruteSessions(tr, perDay, int64(days)), decimal.NewFromInt(3600), MinorUnit(tr.Currency), tr.Rounding)
		if !q.Total.Amount.Equal(want) {
			t.Fatalf("sessions of %v for %d days cost %s, brute force %s (lines %+v)", perDay, days, q.Total.Amount, want, q.Lines)
		}
	})
}

func TestUsageJSON(t *testing.T) {
	u := TrialThen(2*time.Hour, 730*time.Hour)
	b, err := json.Marshal(u)
	if want := `{"pattern":"trial_then_commit","duration":"730h0m0s","per_day":"0s","days":0,"trial":"2h0m0s"}`; err != nil || string(b) != want {
		t.Fatalf("Marshal = %s, %v; want %s", b, err, want)
	}
	var back Usage
	if err := json.Unmarshal(b, &back); err != nil || back != u {
		t.Errorf("round trip = %+v, %v; want %+v", back, err, u)
	}
	for _, bad := range []string{`{"pattern":"forever"}`, `{"pattern":"run","duration_ns":3600000000000}`,
		`{"pattern":"run","duration":3600000000000}`, `{"pattern":"run","duration":"an hour"}`} {
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%s) error = %v, want ErrInvalid", bad, err)
		}
	}
}

// Floor is a lower bound of Total: a planner skips the usages whose Floor cannot
// win, so a Floor above Total would drop the cheapest option. FloorAbove, the
// planner's test, skips only usages that cost more than the bar: when it says
// the floor is above a bar, Total is above it too. Bars are drawn around Total
// and the floor, in whole minor units and finer (1.2300 and 1.234 as much as
// 1.23), so that both of its ways of comparing run. A floor is never above
// itself, and a bar in another currency is never beaten.
func TestFloorBoundsTotal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		p, err := NewPricer(tr)
		if err != nil {
			t.Fatal(err)
		}
		u := Continuous(genDuration(t, "run", 3*365*24*time.Hour) + time.Duration(rapid.Int64Range(0, 999).Draw(t, "ms"))*time.Millisecond)
		gpus := rapid.IntRange(1, 16).Draw(t, "gpus")
		total, err := p.Total(u, gpus)
		if err != nil {
			t.Fatal(err)
		}
		floor, ok := p.Floor(u, gpus)
		if !ok {
			t.Fatalf("no floor for %+v on %+v", u, tr)
		}
		if floor.Currency != total.Currency || floor.Amount.GreaterThan(total.Amount) {
			t.Fatalf("Floor %v above Total %v for %v on %d GPUs, %+v", floor, total, u.Duration, gpus, tr)
		}
		from := rapid.SampledFrom([]Money{total, floor}).Draw(t, "from")
		step := decimal.New(1, -MinorUnit(tr.Currency)-rapid.Int32Range(0, 2).Draw(t, "finer"))
		bar := Money{Amount: from.Amount.Add(step.Mul(decimal.NewFromInt(rapid.Int64Range(-3, 3).Draw(t, "steps")))), Currency: tr.Currency}
		if rapid.Bool().Draw(t, "padded") {
			bar.Amount = bar.Amount.Round(bar.Amount.Exponent()*-1 + 2) // 1.23 as 1.2300
		}
		above := p.FloorAbove(u, gpus, bar)
		if above && !total.Amount.GreaterThan(bar.Amount) {
			t.Fatalf("FloorAbove(%v) true with Total %v (floor %v) for %v on %d GPUs, %+v", bar, total, floor, u.Duration, gpus, tr)
		}
		if want := floor.Amount.GreaterThan(bar.Amount); above != want {
			t.Fatalf("FloorAbove(%v) = %v with floor %v; want %v", bar, above, floor, want)
		}
		if p.FloorAbove(u, gpus, floor) {
			t.Fatalf("FloorAbove(its own floor %v) true", floor)
		}
		other := Money{Amount: decimal.NewFromInt(-1), Currency: "EUR"}
		if p.FloorAbove(u, gpus, other) {
			t.Fatalf("FloorAbove(%v) true on a tariff in %s", other, tr.Currency)
		}
	})
}

// A longer run never costs less: every cover of it covers a shorter one too. A
// planner relies on it to bound the cost of a run stretched by interruptions
// with the Floor of the run itself.
func TestTotalGrowsWithLength(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTariff(t)
		p, err := NewPricer(tr)
		if err != nil {
			t.Fatal(err)
		}
		short := genDuration(t, "run", 3*365*24*time.Hour) + time.Duration(rapid.Int64Range(0, 999).Draw(t, "ms"))*time.Millisecond
		long := short + genDuration(t, "more", 90*24*time.Hour) + time.Duration(rapid.Int64Range(0, 3599).Draw(t, "s"))*time.Second
		gpus := rapid.IntRange(1, 16).Draw(t, "gpus")
		a, err := p.Total(Continuous(short), gpus)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.Total(Continuous(long), gpus)
		if err != nil {
			t.Fatal(err)
		}
		if a.Amount.GreaterThan(b.Amount) {
			t.Fatalf("%v costs %v, more than %v for %v on %d GPUs, %+v", short, a, b, long, gpus, tr)
		}
	})
}

// On a tariff of hourly time alone, billed by the second, Floor is Total; with
// a monthly package it is the cheaper of hourly time alone and the larger of the
// month's price and the run at the monthly rate.
func TestFloorValues(t *testing.T) {
	for _, c := range []struct {
		tr   Tariff
		d    time.Duration
		want string
	}{
		// 21.59 h × CNY 8.00/h × 8 GPUs = CNY 1381.76.
		{Tariff{Currency: "CNY", Hourly: dec("8")}, 21*time.Hour + 35*time.Minute + 24*time.Second, "1381.76"},
		// 100 h: hourly time alone is CNY 800, a month CNY 720 (above 100 h at
		// its CNY 1.00/h): 720 × 8 GPUs = 5760. 1000 h: the month's rate, 1000 × 8.
		{Tariff{Currency: "CNY", Hourly: dec("8"), Monthly: dec("720"), HoursPerMonth: 720}, 100 * time.Hour, "5760"},
		{Tariff{Currency: "CNY", Hourly: dec("8"), Monthly: dec("720"), HoursPerMonth: 720}, 1000 * time.Hour, "8000"},
	} {
		p, err := NewPricer(c.tr)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.Floor(Continuous(c.d), 8)
		if !ok || got.Currency != "CNY" || !got.Amount.Equal(dec(c.want)) {
			t.Errorf("Floor(%v) = %v, %v; want CNY %s", c.d, got, ok, c.want)
		}
	}
	if _, ok := (Pricer{}).Floor(Continuous(time.Hour), 1); ok {
		t.Error("a zero Pricer gave a floor")
	}
	if (Pricer{}).FloorAbove(Continuous(time.Hour), 1, Money{Currency: "CNY"}) {
		t.Error("a zero Pricer's floor is above CNY 0")
	}
}

// FloorAbove compares the floor (CNY 1381.76 for the first case above) with a
// bar however the bar is written, and allocates nothing for a bar in whole
// minor units, the planner's case.
func TestFloorAboveValues(t *testing.T) {
	p, err := NewPricer(Tariff{Currency: "CNY", Hourly: dec("8")})
	if err != nil {
		t.Fatal(err)
	}
	u := Continuous(21*time.Hour + 35*time.Minute + 24*time.Second)
	for _, c := range []struct {
		bar  string
		want bool
	}{
		{"1381.75", true}, {"1381.76", false}, {"1381.7600", false}, {"1381.759", true}, {"1381.761", false},
		{"1381", true}, {"1382", false}, {"0", true}, {"-5", true}, {"12345678901234567890", false},
	} {
		if got := p.FloorAbove(u, 8, Money{Amount: dec(c.bar), Currency: "CNY"}); got != c.want {
			t.Errorf("FloorAbove(CNY %s) = %v, want %v", c.bar, got, c.want)
		}
	}
	if p.FloorAbove(u, 8, Money{Amount: dec("1"), Currency: "USD"}) {
		t.Error("FloorAbove(USD 1) on a CNY tariff = true, want false")
	}
	bar := Money{Amount: dec("1381.75"), Currency: "CNY"}
	if n := testing.AllocsPerRun(100, func() { _ = p.FloorAbove(u, 8, bar) }); n != 0 {
		t.Errorf("FloorAbove allocates %v times a call, want 0", n)
	}
}
