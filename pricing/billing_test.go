package pricing

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

var jan = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return jan.Add(d) }

// summary is an invoice reduced to its items and amounts, for tables.
type summary struct {
	Lines                        []string // "item qty amount"
	Subtotal, Credit, Tax, Total string
}

func summarize(inv Invoice) summary {
	s := summary{Subtotal: inv.Subtotal.Amount.String(), Credit: inv.Credit.Amount.String(),
		Tax: inv.Tax.Amount.String(), Total: inv.Total.Amount.String()}
	for _, l := range inv.Lines {
		s.Lines = append(s.Lines, l.Item+" "+l.Quantity.String()+" "+l.Amount.Amount.StringFixed(2))
	}
	return s
}

func TestBill(t *testing.T) {
	t18 := Tariff{Currency: "CNY", Hourly: dec("18"), Daily: dec("300"), Monthly: dec("9000"), Granularity: time.Minute}
	t10 := Tariff{Currency: "CNY", Hourly: dec("10"), Daily: dec("50")}
	month := at(720 * time.Hour)
	tiers := SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: dec("10")}, {Below: 0.99, Percent: dec("25")}}}
	tests := []struct {
		name     string
		acct     Account
		from, to time.Time
		used     []Session
		outages  []Outage
		want     summary
	}{
		{
			// DESIGN's example: 24 s at 3.60/h is 0.024, billed 0.02.
			name: "one rounding per line", acct: Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("3.60")}},
			from: jan, to: month, used: []Session{{Start: at(0), End: at(24 * time.Second)}},
			want: summary{Lines: []string{"hourly 0.006666667 0.02"}, Subtotal: "0.02", Credit: "0", Tax: "0", Total: "0.02"},
		},
		{
			// Four monthly packages cover 730 h of four GPUs; the 7 minutes past
			// them are 28 GPU-minutes, 0.4666… h at ¥18 = ¥8.40 exactly. Tax 6% of
			// 36008.40 = 2160.504, billed 2160.50.
			name: "monthly packages then hourly, taxed",
			acct: Account{Tariff: t18, Purchases: []Purchase{{Package: Monthly, Start: jan, GPUs: 4}}, TaxRate: dec("0.06")},
			from: jan, to: at(800 * time.Hour), used: []Session{{Start: jan, End: at(730*time.Hour + 7*time.Minute), GPUs: 4}},
			want: summary{Lines: []string{"monthly 4 36000.00", "hourly 0.466666667 8.40", "tax 6 2160.50"},
				Subtotal: "36008.4", Credit: "0", Tax: "2160.5", Total: "38168.9"},
		},
		{
			// One GPU of daily package: A (0–2 h, 1 GPU) starts first and takes it
			// while it runs; B (1–3 h, 2 GPUs) has both GPUs uncovered from 1 to 2 h
			// and one from 2 to 3 h: 3 GPU-hours at ¥10.
			name: "purchases go to sessions in order of start",
			acct: Account{Tariff: t10, Purchases: []Purchase{{Package: Daily, Start: jan}}},
			from: jan, to: month,
			used: []Session{{Start: at(time.Hour), End: at(3 * time.Hour), GPUs: 2}, {Start: at(0), End: at(2 * time.Hour)}},
			want: summary{Lines: []string{"daily 1 50.00", "hourly 3 30.00"}, Subtotal: "80", Credit: "0", Tax: "0", Total: "80"},
		},
		{
			// As above with a 1-hour minimum and B from 1:50: B's first GPU is
			// uncovered 10 minutes (billed an hour), its second 70 minutes.
			name: "minimum per GPU",
			acct: Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("10"), Daily: dec("50"), Minimum: time.Hour},
				Purchases: []Purchase{{Package: Daily, Start: jan}}},
			from: jan, to: month,
			used: []Session{{Start: at(0), End: at(2 * time.Hour)}, {Start: at(110 * time.Minute), End: at(3 * time.Hour), GPUs: 2}},
			want: summary{Lines: []string{"daily 1 50.00", "hourly 2.166666667 21.67"}, Subtotal: "71.67", Credit: "0", Tax: "0", Total: "71.67"},
		},
		{
			// A package bought last period still covers; it is not billed again.
			name: "purchase from an earlier period", acct: Account{Tariff: t10, Purchases: []Purchase{{Package: Daily, Start: at(-time.Hour)}}},
			from: jan, to: month, used: []Session{{Start: at(0), End: at(25 * time.Hour)}},
			want: summary{Lines: []string{"hourly 2 20.00"}, Subtotal: "20", Credit: "0", Tax: "0", Total: "20"},
		},
		{
			// Per-hour granularity: 30 minutes on each side of to are an hour in
			// each period; sessions outside the period are not billed.
			name: "clipped to the period", acct: Account{Tariff: Tariff{Currency: "USD", Hourly: dec("2.49"), Granularity: time.Hour}},
			from: jan, to: at(time.Hour),
			used: []Session{{Start: at(30 * time.Minute), End: at(90 * time.Minute)}, {Start: at(2 * time.Hour), End: at(3 * time.Hour)}},
			want: summary{Lines: []string{"hourly 1 2.49"}, Subtotal: "2.49", Credit: "0", Tax: "0", Total: "2.49"},
		},
		{
			// Outages of 1–5 h and 0–5 h count 5 h of 720, not the 9 h of their
			// sum: availability 0.99306, below 0.999 but not 0.99 (summed, 0.98750
			// would be below it too): a 10% credit of ¥7200, not 25%, then tax 6% of
			// 6480.
			name: "SLA credit, overlapping outages merged",
			acct: Account{Tariff: t10, TaxRate: dec("0.06"), SLA: tiers},
			from: jan, to: month, used: []Session{{Start: at(0), End: month}},
			outages: []Outage{{Start: at(time.Hour), End: at(5 * time.Hour)}, {Start: at(0), End: at(5 * time.Hour)}},
			want: summary{Lines: []string{"hourly 720 7200.00", "sla_credit 10 -720.00", "tax 6 388.80"},
				Subtotal: "7200", Credit: "720", Tax: "388.8", Total: "6868.8"},
		},
		{
			// 8 h of 720 down: 0.98889, below 0.99: the larger credit, 25%.
			name: "the largest credit that applies", acct: Account{Tariff: t10, SLA: tiers},
			from: jan, to: month, used: []Session{{Start: at(0), End: at(time.Hour)}},
			outages: []Outage{{Start: at(-time.Hour), End: at(8 * time.Hour)}},
			want:    summary{Lines: []string{"hourly 1 10.00", "sla_credit 25 -2.50"}, Subtotal: "10", Credit: "2.5", Tax: "0", Total: "7.5"},
		},
		{
			// 36 s of 720 h is 0.999986 available: no credit.
			name: "availability kept", acct: Account{Tariff: t10, SLA: tiers},
			from: jan, to: month, used: []Session{{Start: at(0), End: at(time.Hour)}},
			outages: []Outage{{Start: at(0), End: at(36 * time.Second)}},
			want:    summary{Lines: []string{"hourly 1 10.00"}, Subtotal: "10", Credit: "0", Tax: "0", Total: "10"},
		},
		{
			name: "a term", acct: Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("18"), Monthly: dec("9000"), Terms: []Term{{Months: 12, Discount: dec("0.2")}}},
				Purchases: []Purchase{{Months: 12, Start: at(time.Hour), GPUs: 2}}},
			from: jan, to: month, used: []Session{{Start: at(0), End: at(2 * time.Hour), GPUs: 2}},
			want: summary{Lines: []string{"term_12m 2 172800.00", "hourly 2 36.00"}, Subtotal: "172836", Credit: "0", Tax: "0", Total: "172836"},
		},
		{
			name: "nothing used", acct: Account{Tariff: t10}, from: jan, to: month,
			want: summary{Subtotal: "0", Credit: "0", Tax: "0", Total: "0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv, err := tt.acct.Bill(tt.from, tt.to, tt.used, tt.outages)
			if err != nil {
				t.Fatalf("Bill() error = %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(inv)); diff != "" {
				t.Errorf("Bill() mismatch (-want +got):\n%s", diff)
			}
			checkInvoice(t, inv, tt.acct.Tariff.Currency)
		})
	}
}

// checkInvoice checks what every invoice must satisfy: lines in whole minor
// units that sum to Total = Subtotal − Credit + Tax, Credit ≤ Subtotal.
func checkInvoice(t interface {
	Helper()
	Fatalf(string, ...any)
}, inv Invoice, cur string) {
	t.Helper()
	sum := Money{}
	for _, l := range inv.Lines {
		if l.Amount.Currency != cur || !l.Amount.Amount.Equal(l.Amount.Amount.Round(MinorUnit(cur))) {
			t.Fatalf("line %+v: amount not in whole minor units of %s", l, cur)
		}
		var err error
		if sum, err = sum.Add(l.Amount); err != nil {
			t.Fatalf("summing lines: %v", err)
		}
	}
	want := inv.Subtotal.Amount.Sub(inv.Credit.Amount).Add(inv.Tax.Amount)
	if !sum.Amount.Equal(inv.Total.Amount) || !want.Equal(inv.Total.Amount) {
		t.Fatalf("lines sum to %s, subtotal − credit + tax = %s, total %s", sum.Amount, want, inv.Total.Amount)
	}
	if inv.Credit.Amount.Sign() < 0 || inv.Credit.Amount.Cmp(inv.Subtotal.Amount) > 0 {
		t.Fatalf("credit %s outside 0 to the subtotal %s", inv.Credit.Amount, inv.Subtotal.Amount)
	}
}

func TestBillErrors(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("10"), Daily: dec("50")}
	ok := Account{Tariff: tr}
	s := []Session{{Start: at(0), End: at(time.Hour)}}
	month := at(720 * time.Hour)
	tests := []struct {
		name     string
		acct     Account
		from, to time.Time
		used     []Session
		outages  []Outage
		want     error
		mention  string
	}{
		{"session ends before it starts", ok, jan, month, []Session{s[0], {Start: at(time.Hour), End: at(0)}}, nil, ErrInvalid, "session 1"},
		{"negative GPUs", ok, jan, month, []Session{{Start: at(0), End: at(time.Hour), GPUs: -1}}, nil, ErrInvalid, "session 0"},
		{"package not offered", Account{Tariff: tr, Purchases: []Purchase{{Package: Daily}, {Package: Monthly}}}, jan, month, s, nil, ErrInvalid, "purchase 1"},
		{"no such term", Account{Tariff: tr, Purchases: []Purchase{{Months: 12}}}, jan, month, s, nil, ErrInvalid, "purchase 0"},
		{"package and term", Account{Tariff: tr, Purchases: []Purchase{{Package: Daily, Months: 12}}}, jan, month, s, nil, ErrInvalid, "purchase 0"},
		{"nothing bought", Account{Tariff: tr, Purchases: []Purchase{{}}}, jan, month, s, nil, ErrInvalid, "purchase 0"},
		{"negative tax", Account{Tariff: tr, TaxRate: dec("-0.06")}, jan, month, s, nil, ErrInvalid, "tax rate"},
		{"negative credit", Account{Tariff: tr, SLA: SLA{Availability: 0.99, Credits: []Credit{{Below: 0.99, Percent: dec("-5")}}}}, jan, month, s, nil, ErrInvalid, "SLA credit 0"},
		{"availability above 1", Account{Tariff: tr, SLA: SLA{Availability: 1.5}}, jan, month, s, nil, ErrInvalid, "availability"},
		{"availability NaN", Account{Tariff: tr, SLA: SLA{Availability: nan()}}, jan, month, s, nil, ErrInvalid, "availability"},
		{"from after to", ok, month, jan, s, nil, ErrInvalid, "period"},
		{"outage ends before it starts", ok, jan, month, s, []Outage{{Start: at(time.Hour), End: at(0)}}, ErrInvalid, "outage 0"},
		{"no hourly price", Account{Tariff: Tariff{Currency: "CNY", Daily: dec("50")}}, jan, month, s, nil, ErrUnavailable, "session 0"},
		{"invalid tariff", Account{Tariff: Tariff{Currency: "cny", Hourly: dec("1")}}, jan, month, s, nil, ErrInvalid, "currency"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.acct.Bill(tt.from, tt.to, tt.used, tt.outages)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("Bill() error = %v; want %v naming %q", err, tt.want, tt.mention)
			}
		})
	}
	// The cap is checked before any work.
	_, err := ok.Bill(jan, month, make([]Session, MaxSessions+1), nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "sessions") {
		t.Errorf("Bill() of %d sessions error = %v; want ErrInvalid", MaxSessions+1, err)
	}
}

func nan() float64 { var z float64; return z / z }

func TestPriceBasket(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("18"), Daily: dec("300"), Monthly: dec("9000"), Terms: []Term{{Months: 3, Monthly: dec("8333.333")}}}
	q, err := tr.PriceBasket([]Purchase{{Package: Daily}, {Package: Monthly}, {Package: Daily, GPUs: 2}, {Months: 3}})
	if err != nil {
		t.Fatal(err)
	}
	// 24999.999 + 9000 + 3 × 300 = 34899.999, rounded half up to 34900.00.
	var got []string
	for _, l := range q.Lines {
		got = append(got, l.Item+" "+l.Quantity.String()+" "+l.Amount.Amount.String())
	}
	want := []string{"term_3m 1 24999.999", "monthly 1 9000", "daily 3 900", "rounding 1 0.001"}
	if diff := cmp.Diff(want, got); diff != "" || q.Total.String() != "CNY 34900.00" {
		t.Errorf("PriceBasket() = %s, lines mismatch (-want +got):\n%s", q.Total, diff)
	}
	if _, err := tr.PriceBasket([]Purchase{{Package: Weekly}}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "purchase 0") {
		t.Errorf("PriceBasket(weekly) error = %v; want ErrInvalid naming purchase 0", err)
	}
	if q, err := tr.PriceBasket(nil); err != nil || !q.Total.IsZero() || len(q.Lines) != 0 {
		t.Errorf("PriceBasket(nil) = %+v, %v; want a zero quote", q, err)
	}
}

func TestInvoiceJSON(t *testing.T) {
	acct := Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("3.60"), Daily: dec("50")}, TaxRate: dec("0.06"),
		Purchases: []Purchase{{Package: Daily, Start: jan}},
		SLA:       SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: dec("10")}}}}
	inv, err := acct.Bill(jan, at(720*time.Hour), []Session{{Start: at(0), End: at(25 * time.Hour)}}, []Outage{{Start: at(0), End: at(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(inv)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"schema_version":1,"from":"2026-01-01T00:00:00Z","to":"2026-01-31T00:00:00Z","lines":[` +
		`{"item":"daily","unit":"day","quantity":"1","price":{"amount":"50.00","currency":"CNY"},"amount":{"amount":"50.00","currency":"CNY"}},` +
		`{"item":"hourly","unit":"hour","quantity":"1","price":{"amount":"3.60","currency":"CNY"},"amount":{"amount":"3.60","currency":"CNY"}},` +
		`{"item":"sla_credit","unit":"percent","quantity":"10","price":{"amount":"-0.536","currency":"CNY"},"amount":{"amount":"-5.36","currency":"CNY"}},` +
		`{"item":"tax","unit":"percent","quantity":"6","price":{"amount":"0.4824","currency":"CNY"},"amount":{"amount":"2.89","currency":"CNY"}}],` +
		`"subtotal":{"amount":"53.60","currency":"CNY"},"credit":{"amount":"5.36","currency":"CNY"},"tax":{"amount":"2.89","currency":"CNY"},"total":{"amount":"51.13","currency":"CNY"}}`
	if string(b) != want {
		t.Errorf("json.Marshal(invoice) =\n%s\nwant\n%s", b, want)
	}
	var back Invoice
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(inv, back); diff != "" {
		t.Errorf("invoice round trip mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		strings.Replace(want, `"schema_version":1`, `"schema_version":2`, 1),
		strings.Replace(want, `"schema_version":1`, `"schema_version":1,"note":""`, 1),
		strings.Replace(want, `"amount":"2.89"`, `"amount":2.89`, 1),
	} {
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, ErrInvalid) {
			t.Errorf("Unmarshal(%.80s...) error = %v; want ErrInvalid", bad, err)
		}
	}
}

func TestAccountJSON(t *testing.T) {
	in := `{"tariff":{"currency":"CNY","hourly":"18","monthly":"9000"},` +
		`"purchases":[{"package":"monthly","months":0,"start":"2026-01-01T00:00:00+08:00","gpus":2},{"months":12,"start":"2026-01-01T00:00:00Z"}],` +
		`"tax_rate":"0.06","sla":{"availability":0.999,"credits":[{"below":0.999,"percent":"10"}]}}`
	var a Account
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	want := Account{Tariff: Tariff{Currency: "CNY", Hourly: dec("18"), Monthly: dec("9000")},
		Purchases: []Purchase{{Package: Monthly, Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 8*3600)), GPUs: 2}, {Months: 12, Start: jan}},
		TaxRate:   dec("0.06"), SLA: SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: dec("10")}}}}
	if diff := cmp.Diff(want, a, cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })); diff != "" {
		t.Errorf("Unmarshal(account) mismatch (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back Account
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, back, cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })); diff != "" {
		t.Errorf("account round trip mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		strings.Replace(in, `"gpus":2`, `"gpus":2,"gpu":1`, 1),
		strings.Replace(in, `"package":"monthly"`, `"package":"yearly"`, 1),
		strings.Replace(in, `"percent":"10"`, `"percent":10`, 1),
		strings.Replace(in, `"tax_rate":"0.06"`, `"tax_rate":0.06`, 1),
		strings.Replace(in, `"availability":0.999`, `"availability":0.999,"x":1`, 1),
		strings.Replace(in, `"start":"2026-01-01T00:00:00Z"`, `"start":"2026-01-01"`, 1),
	} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("Unmarshal(%s) = nil error; want one", bad)
		}
	}
	var s Session
	if err := json.Unmarshal([]byte(`{"start":"2026-01-01T00:00:00Z","end":"2026-01-01T01:00:00Z","gpus":1,"extra":0}`), &s); !errors.Is(err, ErrInvalid) {
		t.Errorf("Unmarshal(session with unknown field) error = %v; want ErrInvalid", err)
	}
	var o Outage
	if err := json.Unmarshal([]byte(`{"start":"2026-01-01T00:00:00Z","stop":"2026-01-01T01:00:00Z"}`), &o); !errors.Is(err, ErrInvalid) {
		t.Errorf("Unmarshal(outage with unknown field) error = %v; want ErrInvalid", err)
	}
}

var _ = decimal.Decimal{}
