package pricing

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// The properties bill inside a two-day period; sessions, purchases and outages
// fall around it.
var propTo = at(48 * time.Hour)

// genBillTariff draws a tariff with an hourly price, so that any use can be billed.
func genBillTariff(t *rapid.T) Tariff {
	tr := genTariff(t)
	if tr.Hourly.IsZero() {
		tr.Hourly = decimal.New(rapid.Int64Range(1, 5000).Draw(t, "hourly_cents"), -2)
	}
	return tr
}

// genSession draws a session starting within a few hours of the period, up to a
// day long, on 1 to 4 GPUs, on whole minutes or odd seconds.
func genSession(t *rapid.T, label string) Session {
	unit := rapid.SampledFrom([]time.Duration{time.Second, time.Minute, 15 * time.Minute}).Draw(t, label+"_unit")
	start := at(time.Duration(rapid.Int64Range(int64(-3*time.Hour/unit), int64(50*time.Hour/unit)).Draw(t, label+"_start")) * unit)
	length := time.Duration(rapid.Int64Range(0, int64(24*time.Hour/unit)).Draw(t, label+"_length")) * unit
	return Session{Start: start, End: start.Add(length), GPUs: rapid.IntRange(0, 4).Draw(t, label+"_gpus")}
}

func genSessions(t *rapid.T, label string) []Session {
	n := rapid.IntRange(0, 8).Draw(t, label+"_n")
	out := make([]Session, n)
	for i := range out {
		out[i] = genSession(t, label)
	}
	return out
}

// genPurchases draws purchases of packages the tariff offers.
func genPurchases(t *rapid.T, tr Tariff) []Purchase {
	var kinds []Purchase
	for _, p := range []Package{Daily, Weekly, Monthly} {
		if _, err := resolvePurchase(0, Purchase{Package: p}, tr.appendPackages(nil)); err == nil {
			kinds = append(kinds, Purchase{Package: p})
		}
	}
	for _, term := range tr.Terms {
		kinds = append(kinds, Purchase{Months: term.Months})
	}
	if len(kinds) == 0 {
		return nil
	}
	n := rapid.IntRange(0, 3).Draw(t, "purchases")
	out := make([]Purchase, n)
	for i := range out {
		p := rapid.SampledFrom(kinds).Draw(t, "purchase_kind")
		p.Start = at(time.Duration(rapid.Int64Range(-30, 47).Draw(t, "purchase_start_h")) * time.Hour)
		p.GPUs = rapid.IntRange(0, 3).Draw(t, "purchase_gpus")
		out[i] = p
	}
	return out
}

func genAccount(t *rapid.T) Account {
	tr := genBillTariff(t)
	a := Account{Tariff: tr, Purchases: genPurchases(t, tr)}
	if rapid.Bool().Draw(t, "taxed") {
		a.TaxRate = decimal.New(rapid.Int64Range(0, 2500).Draw(t, "tax_bp"), -4)
	}
	if rapid.Bool().Draw(t, "sla") {
		a.SLA = SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: dec("10")}, {Below: 0.99, Percent: dec("25")}, {Below: 0.95, Percent: dec("100")}}}
	}
	return a
}

func genOutages(t *rapid.T) []Outage {
	n := rapid.IntRange(0, 3).Draw(t, "outages")
	out := make([]Outage, n)
	for i := range out {
		s := at(time.Duration(rapid.Int64Range(-120, 48*60).Draw(t, "outage_start_min")) * time.Minute)
		out[i] = Outage{Start: s, End: s.Add(time.Duration(rapid.Int64Range(0, 300).Draw(t, "outage_min")) * time.Minute)}
	}
	return out
}

func mustBill(t *rapid.T, a Account, used []Session, outages []Outage) Invoice {
	inv, err := a.Bill(jan, propTo, used, outages)
	if err != nil {
		t.Fatalf("Bill() error = %v", err)
	}
	checkInvoice(t, inv, a.Tariff.Currency)
	return inv
}

func TestBillProperties(t *testing.T) {
	t.Run("lines sum to the total, credit at most the subtotal", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) { mustBill(t, genAccount(t), genSessions(t, "s"), genOutages(t)) })
	})
	t.Run("independent of the order of the input", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			a, used, outages := genAccount(t), genSessions(t, "s"), genOutages(t)
			want := mustBill(t, a, used, outages)
			perm := func(n int, label string) []int { return rapid.Permutation(seq(n)).Draw(t, label) }
			b := a
			b.Purchases = permute(a.Purchases, perm(len(a.Purchases), "purchase_order"))
			got := mustBill(t, b, permute(used, perm(len(used), "session_order")), permute(outages, perm(len(outages), "outage_order")))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("reordered input changed the invoice (-want +got):\n%s", diff)
			}
		})
	})
	t.Run("never decreases when a session is added or lengthened", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			a, used, outages := genAccount(t), genSessions(t, "s"), genOutages(t)
			before := mustBill(t, a, used, outages)
			more := append(slices.Clone(used), genSession(t, "added"))
			if len(used) > 0 && rapid.Bool().Draw(t, "lengthen") {
				more = slices.Clone(used)
				i := rapid.IntRange(0, len(used)-1).Draw(t, "which")
				more[i].End = more[i].End.Add(time.Duration(rapid.Int64Range(1, 600).Draw(t, "by_min")) * time.Minute)
			}
			after := mustBill(t, a, more, outages)
			if after.Subtotal.Amount.Cmp(before.Subtotal.Amount) < 0 || after.Total.Amount.Cmp(before.Total.Amount) < 0 {
				t.Fatalf("more use billed less: subtotal %s → %s, total %s → %s", before.Subtotal.Amount, after.Subtotal.Amount, before.Total.Amount, after.Total.Amount)
			}
		})
	})
	t.Run("splitting at a granularity boundary changes nothing without a minimum", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			a := Account{Tariff: genBillTariff(t)}
			a.Tariff.Minimum = 0
			g := a.Tariff.granularity()
			used := genSessions(t, "s")
			s := genSession(t, "split")
			s.Start = at(time.Duration(rapid.Int64Range(0, int64(24*time.Hour/g)).Draw(t, "start_units")) * g)
			k := rapid.Int64Range(1, 24).Draw(t, "units")
			s.End = s.Start.Add(time.Duration(k+rapid.Int64Range(0, 10).Draw(t, "more_units"))*g + time.Duration(rapid.Int64Range(0, int64(g-1)).Draw(t, "rest")))
			whole := mustBill(t, a, append(slices.Clone(used), s), nil)
			billedSecs := func(t *rapid.T, used []Session) int64 {
				ss, err := clipSessions(jan, propTo, used)
				if err != nil {
					t.Fatal(err)
				}
				var sum int64
				for _, v := range sweep(a.Tariff, ss, nil) {
					sum += v
				}
				return sum
			}
			first, second := s, s
			first.End = s.Start.Add(time.Duration(k) * g)
			second.Start = first.End
			split := mustBill(t, a, append(slices.Clone(used), first, second), nil)
			// The billed GPU-time is the same; the money may differ by one minor
			// unit, since each line is rounded once.
			if w, s := billedSecs(t, append(slices.Clone(used), s)), billedSecs(t, append(slices.Clone(used), first, second)); w != s {
				t.Fatalf("split at %v after its start: %d GPU-seconds billed, whole %d", time.Duration(k)*g, s, w)
			}
			unit := decimal.New(1, -MinorUnit(a.Tariff.Currency))
			if whole.Total.Amount.Sub(split.Total.Amount).Abs().Cmp(unit) > 0 {
				t.Fatalf("split at %v after its start: total %s, whole %s", time.Duration(k)*g, split.Total.Amount, whole.Total.Amount)
			}
		})
	})
	t.Run("a purchase raises the bill by at most its own price", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			a, used := genAccount(t), genSessions(t, "s")
			a.TaxRate, a.SLA = decimal.Decimal{}, SLA{}
			extra := genPurchases(t, a.Tariff)
			if len(extra) == 0 {
				return
			}
			p := extra[0]
			before := mustBill(t, a, used, nil)
			b := a
			b.Purchases = append(slices.Clone(a.Purchases), p)
			after := mustBill(t, b, used, nil)
			price, err := b.Tariff.PriceBasket([]Purchase{p})
			if err != nil {
				t.Fatal(err)
			}
			limit := before.Total.Amount
			if !p.Start.Before(jan) && p.Start.Before(propTo) {
				limit = limit.Add(price.Total.Amount)
			}
			if after.Total.Amount.Cmp(limit) > 0 {
				t.Fatalf("a purchase of %s raised the bill from %s to %s", price.Total, before.Total.Amount, after.Total.Amount)
			}
			// Usage it covers in full is billed nothing more.
			covered := Session{Start: p.Start, End: p.Start.Add(time.Hour), GPUs: max(p.GPUs, 1)}
			c := Account{Tariff: a.Tariff, Purchases: []Purchase{p}}
			if got := mustBill(t, c, []Session{covered}, nil); !p.Start.Before(jan) && p.Start.Before(propTo.Add(-time.Hour)) && !got.Total.Amount.Equal(price.Total.Amount) {
				t.Fatalf("use the purchase covers billed %s; the purchase alone is %s", got.Total.Amount, price.Total.Amount)
			}
		})
	})
	t.Run("the sweep agrees with a minute-by-minute count", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			tr := genBillTariff(t)
			var ws []window
			for range rapid.IntRange(0, 4).Draw(t, "windows") {
				s := rapid.Int64Range(0, 60).Draw(t, "w_start")
				ws = append(ws, window{s, s + rapid.Int64Range(1, 60).Draw(t, "w_len"), rapid.Int64Range(1, 4).Draw(t, "w_gpus")})
			}
			var ss []span
			for i := range rapid.IntRange(0, 6).Draw(t, "spans") {
				s := rapid.Int64Range(0, 60).Draw(t, "s_start")
				e := s + rapid.Int64Range(1, 60).Draw(t, "s_len")
				ss = append(ss, span{s, e, rapid.Int64Range(1, 4).Draw(t, "s_gpus"), i})
			}
			slices.SortFunc(ss, func(x, y span) int {
				if c := cmpSpan(x, y); c != 0 {
					return c
				}
				return x.idx - y.idx
			})
			// Work in minutes: scale to nanoseconds for the sweep.
			scaled := func(v int64) int64 { return v * int64(time.Minute) }
			sn := slices.Clone(ss)
			for i := range sn {
				sn[i].start, sn[i].end = scaled(sn[i].start), scaled(sn[i].end)
			}
			wn := slices.Clone(ws)
			for i := range wn {
				wn[i].start, wn[i].end = scaled(wn[i].start), scaled(wn[i].end)
			}
			got := sweep(tr, sn, wn)
			// Reference: each minute, give the capacity to sessions in rank order.
			unc := make([][]int64, len(ss)) // uncovered minutes per GPU
			for i, s := range ss {
				unc[i] = make([]int64, s.gpus)
			}
			for m := int64(0); m < 121; m++ {
				var c int64
				for _, w := range ws {
					if w.start <= m && m < w.end {
						c += w.gpus
					}
				}
				for i, s := range ss {
					if s.start <= m && m < s.end {
						take := min(c, s.gpus)
						c -= take
						for j := take; j < s.gpus; j++ {
							unc[i][j]++
						}
					}
				}
			}
			for i := range ss {
				var want int64
				for _, u := range unc[i] {
					want += int64(tr.billed(time.Duration(u)*time.Minute) / time.Second)
				}
				if got[i] != want {
					t.Fatalf("session %d %+v: sweep billed %d s, minute count %d s (windows %+v)", i, ss[i], got[i], want, ws)
				}
			}
		})
	})
}

func cmpSpan(x, y span) int {
	for _, d := range [...]int64{x.start - y.start, x.end - y.end, x.gpus - y.gpus} {
		if d != 0 {
			return int(d)
		}
	}
	return 0
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func permute[T any](xs []T, order []int) []T {
	if xs == nil {
		return nil
	}
	out := make([]T, len(xs))
	for i, j := range order {
		out[i] = xs[j]
	}
	return out
}

func TestBillImmuneToDecimalGlobals(t *testing.T) {
	a := Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("1.3"), Daily: dec("29.99"), Monthly: dec("900"), Terms: []Term{{Months: 3, Discount: dec("0.0725")}}},
		Purchases: []Purchase{{Package: Daily, Start: jan, GPUs: 2}, {Months: 3, Start: at(time.Hour)}},
		TaxRate:   dec("0.0625"),
		SLA:       SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: dec("12.5")}}}}
	used := []Session{{Start: at(0), End: at(7 * time.Second), GPUs: 5}, {Start: at(time.Minute), End: at(30 * time.Hour), GPUs: 3}}
	run := func() string {
		inv, err := a.Bill(jan, propTo, used, []Outage{{Start: at(0), End: at(time.Hour)}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(inv)
		if err != nil {
			t.Fatal(err)
		}
		ab, _ := json.Marshal(a)
		q, _ := a.Tariff.PriceBasket(a.Purchases)
		qb, _ := json.Marshal(q)
		return string(b) + "\n" + string(ab) + "\n" + string(qb)
	}
	before := run()
	saved := [...]any{decimal.DivisionPrecision, decimal.MarshalJSONWithoutQuotes}
	t.Cleanup(func() {
		decimal.DivisionPrecision = saved[0].(int)
		decimal.MarshalJSONWithoutQuotes = saved[1].(bool)
	})
	decimal.DivisionPrecision = 1
	decimal.MarshalJSONWithoutQuotes = true
	if after := run(); after != before {
		t.Errorf("invoice changed under hostile decimal settings:\n got %s\nwant %s", after, before)
	}
}

// BenchmarkBill bills a million sessions of one to eight GPUs over a month, under
// purchases that cover part of the use: a log in random order, and the same log in
// order of start, as billing systems usually keep it.
func BenchmarkBill(b *testing.B) {
	const n = 1_000_000
	a := Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("18"), Daily: dec("300"), Monthly: dec("9000"), Granularity: time.Minute},
		Purchases: []Purchase{{Package: Monthly, Start: jan, GPUs: 64}, {Package: Daily, Start: at(100 * time.Hour), GPUs: 32}},
		TaxRate:   dec("0.06")}
	used := make([]Session, n)
	x := uint64(1)
	next := func(m uint64) int64 { x = x*6364136223846793005 + 1442695040888963407; return int64((x >> 33) % m) }
	for i := range used {
		s := at(time.Duration(next(720*3600)) * time.Second)
		used[i] = Session{Start: s, End: s.Add(time.Duration(next(4*3600)) * time.Second), GPUs: int(next(8) + 1)}
	}
	sorted := slices.Clone(used)
	slices.SortFunc(sorted, func(x, y Session) int { return x.Start.Compare(y.Start) })
	for _, bc := range []struct {
		name string
		used []Session
	}{{"random", used}, {"in_order", sorted}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := a.Bill(jan, at(720*time.Hour), bc.used, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/session")
		})
	}
}

// distinctSessions is n sessions over a month, each with its own count of GPUs
// and its own length, so that every one is billed a different number of
// GPU-seconds: Bill's slowest input for its size, with one line of its own a
// session.
func distinctSessions(n int) []Session {
	used := make([]Session, n)
	for i := range used {
		s := at(time.Duration(i%(700*3600)) * time.Second)
		used[i] = Session{Start: s, End: s.Add(time.Duration(1+i/1_000_000) * time.Hour), GPUs: 1 + i%1_000_000}
	}
	return used
}

// BenchmarkBillAtLimit bills MaxSessions sessions with distinct GPU counts and
// lengths; -benchmem reports the memory, which grows linearly with the sessions.
func BenchmarkBillAtLimit(b *testing.B) {
	if testing.Short() {
		b.Skip("MaxSessions sessions: seconds and a gigabyte")
	}
	for _, n := range []int{1 << 20, MaxSessions} {
		used := distinctSessions(n)
		a := Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("1.60"), Granularity: time.Minute}, TaxRate: dec("0.06")}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := a.Bill(jan, at(720*time.Hour), used, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/session")
		})
	}
}
