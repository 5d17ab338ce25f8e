package plan

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// An unknown card is left out and listed; the rest is planned. Only when nothing
// is left is that an error, and it still answers errors.Is for the catalog's reason.
func TestReportSkipsUnknownCards(t *testing.T) {
	bad := planOffer("x", "RTX 9999", 1, "1", "")
	bad.Line = 7
	p := Planner{Offers: []pricing.Offer{bad, planOffer("a", "RTX 4090", 1, "1.80", "")}}
	rep, err := p.Report(trainingRequest(t))
	if err != nil {
		t.Fatalf("Report: %v", err)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Line != 7 || !strings.Contains(rep.Skipped[0].Reason, "RTX 9999") {
		t.Errorf("skipped %+v, want the RTX 9999 offer of line 7 with its reason", rep.Skipped)
	}
	// One offer of one GPU: two layouts, one GPU alone and with its optimizer offloaded.
	if len(rep.Options) != 1 || rep.Considered != 2 {
		t.Errorf("%d options of %d considered, want 1 of 2", len(rep.Options), rep.Considered)
	}
	_, err = Planner{Offers: []pricing.Offer{bad}}.Plan(trainingRequest(t))
	if !errors.Is(err, ErrNoFit) || !errors.Is(err, catalog.ErrNotFound) || !strings.Contains(err.Error(), "line 7") {
		t.Errorf("only an unknown card: %v, want ErrNoFit and catalog.ErrNotFound naming line 7", err)
	}
}

// Limit, EveryCount and the Cards filter shape what comes back.
func TestReportLimitCountsCards(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{
		planOffer("a", "RTX 4090", 8, "1.80", ""),
		planOffer("b", "RTX 4090", 8, "2.00", ""),
		planOffer("c", "A100 SXM4 80GB", 8, "12", ""),
	}}
	r := trainingRequest(t)
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 3 {
		t.Errorf("%d options, want one per offer (3)", len(opts))
	}
	r.EveryCount, r.Limit = true, -1
	if opts, _ = p.Plan(r); len(opts) != 24 {
		t.Errorf("EveryCount: %d options, want 24 (3 offers × 8 counts)", len(opts))
	}
	r.Limit = 5
	if opts, _ = p.Plan(r); len(opts) != 5 {
		t.Errorf("Limit 5: %d options", len(opts))
	}
	r = trainingRequest(t)
	r.Cards = []string{"NVIDIA A100-SXM4-80GB"}
	opts, err = p.Plan(r)
	if err != nil || len(opts) != 1 || opts[0].CardID != "a100-sxm4-80gb" {
		t.Errorf("Cards filter: %d options, %v; want the A100 offer alone", len(opts), err)
	}
	r.Cards = []string{"no such card"}
	if _, err := p.Plan(r); !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("unknown card in the filter: %v, want ErrInvalid", err)
	}
}

// RankTime puts the fastest first; RankFrontier returns options each faster than
// every cheaper one.
func TestReportRanks(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{
		planOffer("a", "RTX 4090", 8, "1.80", ""),
		planOffer("c", "H100 SXM5 80GB", 8, "22", ""),
	}}
	r := trainingRequest(t)
	r.Rank, r.EveryCount, r.Limit = RankTime, true, -1
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(opts); i++ {
		if opts[i].Duration+opts[i].TimeLost < opts[i-1].Duration+opts[i-1].TimeLost {
			t.Fatalf("RankTime: option %d (%v) faster than option %d (%v)", i, opts[i].Duration, i-1, opts[i-1].Duration)
		}
	}
	r.Rank = RankFrontier
	front, err := p.Plan(r)
	if err != nil || len(front) < 2 {
		t.Fatalf("frontier: %d options, %v", len(front), err)
	}
	for i := 1; i < len(front); i++ {
		if !front[i].ExpectedCost.Amount.GreaterThanOrEqual(front[i-1].ExpectedCost.Amount) || front[i].Duration >= front[i-1].Duration {
			t.Errorf("frontier option %d (%s, %v) not dearer and faster than %d (%s, %v)", i, front[i].ExpectedCost, front[i].Duration, i-1, front[i-1].ExpectedCost, front[i-1].Duration)
		}
	}
	// No option of the full list is both cheaper and faster than a frontier one.
	for _, f := range front {
		for _, o := range opts {
			if o.ExpectedCost.Amount.LessThan(f.ExpectedCost.Amount) && o.Duration < f.Duration {
				t.Errorf("%s at %v dominates frontier option %s at %v", o.ExpectedCost, o.Duration, f.ExpectedCost, f.Duration)
			}
		}
	}
}

// The deadline binds at the request's utilization: no option returned misses it.
func TestReportDeadlineBinds(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.80", "")}}
	r := trainingRequest(t)
	r.Deadline, r.EveryCount, r.Limit = 6*time.Hour, true, -1
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		if o.Duration+o.TimeLost > r.Deadline {
			t.Errorf("%d GPUs take %v, past the %v deadline", o.GPUs, o.Duration, r.Deadline)
		}
	}
}

// Mixed currencies need rates; with them each option keeps its currency and
// reports the converted cost and the rate.
func TestReportRates(t *testing.T) {
	cny := planOffer("a", "RTX 4090", 1, "18", "")
	cny.Line = 2
	usd := planOffer("b", "RTX 4090", 1, "1", "")
	usd.Tariff.Currency, usd.Line = "USD", 3
	p := Planner{Offers: []pricing.Offer{cny, usd}}
	_, err := p.Plan(trainingRequest(t))
	const wantMsg = "plan: offers in CNY (line 2) and USD (line 3): give exchange rates to rank them together: currency mismatch"
	if !errors.Is(err, pricing.ErrCurrencyMismatch) || err == nil || err.Error() != wantMsg {
		t.Fatalf("mixed currencies without rates: %v; want %q", err, wantMsg)
	}
	cny2, usd2 := cny, usd
	cny2.Line, usd2.Line = 4, 0
	p.Offers = []pricing.Offer{cny, usd, cny2, usd2}
	_, err = p.Plan(trainingRequest(t))
	if got, want := fmt.Sprint(err), "plan: offers in CNY (lines 2, 4) and USD (line 3; offer 4): give exchange rates to rank them together: currency mismatch"; got != want {
		t.Fatalf("mixed currencies without rates: %v; want %q", got, want)
	}
	p.Offers = []pricing.Offer{cny, usd}
	p.Rates = pricing.Rates{Base: "CNY", Per: map[string]decimal.Decimal{"USD": decimal.RequireFromString("7.2")}}
	opts, err := p.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 2 || opts[0].Offer.Provider != "b" {
		t.Fatalf("options %d, first %q; want the USD 1/h offer (CNY 7.2/h) first", len(opts), opts[0].Offer.Provider)
	}
	want, _ := opts[0].ExpectedCost.Amount.Mul(decimal.RequireFromString("7.2")).Round(2).Float64()
	got, _ := opts[0].RankedCost.Amount.Float64()
	if opts[0].ExpectedCost.Currency != "USD" || opts[0].RankedCost.Currency != "CNY" || opts[0].Rate != "7.2" || got != want {
		t.Errorf("first option: expected %s, ranked %s at rate %q; want USD, its CNY value %v at 7.2", opts[0].ExpectedCost, opts[0].RankedCost, opts[0].Rate, want)
	}
}

// A name that leaves the board open is planned on the slowest board, and says so;
// a name that settles its board (by saying it, or by a memory type only one
// board has, as nvidia-smi's "NVIDIA H100 80GB HBM3" does) is planned on it
// without a word. The catalog's Candidates is the one reading.
func TestReportAssumedBoards(t *testing.T) {
	for _, tc := range []struct{ name, want, faster string }{
		{"A100 80GB", "a100-pcie-80gb", "SXM4"},
		{"H800", "h800-pcie-80gb", "SXM5"},
		{"H100 80GB", "h100-pcie-80gb", "SXM5"},
		{"NVIDIA H100 80GB HBM3", "h100-sxm5-80gb", ""},
		{"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb", ""},
		{"A100 PCIe 80GB", "a100-pcie-80gb", ""},
		{"RTX 4090", "rtx-4090", ""},
	} {
		opts, err := Planner{Offers: []pricing.Offer{planOffer("a", tc.name, 8, "10", "")}}.Plan(trainingRequest(t))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w := strings.Join(opts[0].Warnings, "|")
		if opts[0].CardID != tc.want || strings.Contains(w, "does not say its board") != (tc.faster != "") || !strings.Contains(w, tc.faster) {
			t.Errorf("%s: planned on %s with warnings %q; want %s and a word on the %s board", tc.name, opts[0].CardID, w, tc.want, tc.faster)
		}
	}
}

// The Cards filter reads names as offers' names are read: nvidia-smi's H100
// name asks for the SXM5 board alone, "H100 80GB" for either board.
func TestReportCardsFilterCandidates(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("sxm", "NVIDIA H100 80GB HBM3", 8, "20", ""), planOffer("pcie", "H100 PCIe 80GB", 8, "15", "")}}
	for _, tc := range []struct {
		cards []string
		want  string
	}{
		{[]string{"NVIDIA H100 80GB HBM3"}, "sxm"},
		{[]string{"H100 SXM5 80GB"}, "sxm"},
		{[]string{"H100 80GB"}, "pcie sxm"},
		{[]string{"h100-pcie-80gb"}, "pcie"},
	} {
		r := trainingRequest(t)
		r.Cards = tc.cards
		opts, err := p.Plan(r)
		if err != nil {
			t.Fatalf("%q: %v", tc.cards, err)
		}
		var got []string
		for _, o := range opts {
			got = append(got, o.Offer.Provider)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("cards %q kept %v, want %s", tc.cards, got, tc.want)
		}
	}
}

func TestReportAssumedBoard(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "A100", 8, "10", "")}}
	opts, err := p.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	if o.CardID != "a100-pcie-40gb" {
		t.Errorf("planned on %s, want the slowest board, the 40 GB PCIe", o.CardID)
	}
	w := strings.Join(o.Warnings, "|")
	if !strings.Contains(w, "does not say its board") || !strings.Contains(w, "SXM") {
		t.Errorf("warnings %q, want the board assumed and the SXM board's time", w)
	}
}

// A threshold with a huge exponent is refused at once, not rescaled for ever.
func TestRequestHugeExponent(t *testing.T) {
	r := trainingRequest(t)
	r.MarketThreshold = decimal.New(1, -2000000000)
	if err := r.Validate(); !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("threshold 1e-2000000000: %v, want ErrInvalid", err)
	}
	r = trainingRequest(t)
	r.Budget = pricing.Money{Amount: decimal.New(1, -2000000000), Currency: "CNY"}
	if err := r.Validate(); !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("budget 1e-2000000000: %v, want ErrInvalid", err)
	}
}

// A layout fits when its total is at most the usable memory: exactly equal fits,
// one byte more does not.
func TestFitsBoundary(t *testing.T) {
	m := mustPreset(t, "llama-2-7b")
	w := sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 2048, Parallel: sizing.Parallel{Data: 1}}
	b, err := sizing.Estimate(m, w)
	if err != nil {
		t.Fatal(err)
	}
	card, err := catalog.Default().Lookup("RTX 4090")
	if err != nil {
		t.Fatal(err)
	}
	card.Memory = b.Total()
	w.Parallel = sizing.Parallel{}
	s, err := Request{Model: m, Workload: w, Headroom: 1e-300}.settle()
	if err != nil {
		t.Fatal(err)
	}
	if u, _ := sizing.Usable(card.Memory, s.headroom); u != b.Total() {
		t.Skipf("usable %d != total %d at the tiniest headroom", u, b.Total())
	}
	if f := s.fitCard(card, 1, GPUsPerServer, 0, 0); !f.ok {
		t.Errorf("exactly fitting memory refused: %v", f.err)
	}
	card.Memory--
	if f := s.fitCard(card, 1, GPUsPerServer, 0, 0); f.ok {
		t.Errorf("one byte short accepted")
	}
}

// An offer whose interruption rate makes the expected time overflow can never run
// the job: it is left out with its reason, and the plan goes on without it.
func TestReportOverflowingInterruptions(t *testing.T) {
	wild := planOffer("wild", "RTX 4090", 1, "0.10", "")
	wild.Interruptible, wild.InterruptionsPerDay, wild.Line = true, 1e300, 9
	p := Planner{Offers: []pricing.Offer{wild, planOffer("a", "RTX 4090", 1, "1.80", "")}}
	rep, err := p.Report(trainingRequest(t))
	if err != nil {
		t.Fatalf("Report: %v", err)
	}
	if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "a" {
		t.Fatalf("options %d, want the other offer alone", len(rep.Options))
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Line != 9 || !strings.Contains(rep.Skipped[0].Reason, "interruptions") {
		t.Errorf("skipped %+v, want the wild offer with its reason", rep.Skipped)
	}
	_, err = Planner{Offers: []pricing.Offer{wild}}.Plan(trainingRequest(t))
	if !errors.Is(err, ErrNoFit) || !strings.Contains(err.Error(), "line 9") {
		t.Errorf("only the wild offer: %v, want ErrNoFit naming line 9", err)
	}
}

// tariffKey tells apart tariffs that differ in any field pricing reads, even in
// how an amount is written, and gives copies one key; a tariff field it does
// not encode fails the count of fields.
func TestTariffKey(t *testing.T) {
	dec := decimal.RequireFromString
	b := pricing.Tariff{Currency: "CNY", Hourly: dec("18"), Daily: dec("300"), Weekly: dec("1500"), Monthly: dec("9000"),
		Terms: []pricing.Term{{Months: 3, Monthly: dec("8000")}, {Months: 12, Discount: dec("0.25")}}}
	mods := map[string]func(*pricing.Tariff){
		"currency":         func(t *pricing.Tariff) { t.Currency = "USD" },
		"hourly":           func(t *pricing.Tariff) { t.Hourly = dec("18.01") },
		"hourly written":   func(t *pricing.Tariff) { t.Hourly = dec("18.00") },
		"daily":            func(t *pricing.Tariff) { t.Daily = decimal.Decimal{} },
		"weekly":           func(t *pricing.Tariff) { t.Weekly = dec("1501") },
		"monthly":          func(t *pricing.Tariff) { t.Monthly = dec("90000") },
		"hours per month":  func(t *pricing.Tariff) { t.HoursPerMonth = 720 },
		"granularity":      func(t *pricing.Tariff) { t.Granularity = time.Minute },
		"minimum":          func(t *pricing.Tariff) { t.Minimum = time.Hour },
		"after package":    func(t *pricing.Tariff) { t.AfterPackage = pricing.Renew },
		"rounding":         func(t *pricing.Tariff) { t.Rounding = pricing.RoundHalfEven },
		"term months":      func(t *pricing.Tariff) { t.Terms = []pricing.Term{{Months: 4, Monthly: dec("8000")}, t.Terms[1]} },
		"term price":       func(t *pricing.Tariff) { t.Terms = []pricing.Term{{Months: 3, Monthly: dec("8001")}, t.Terms[1]} },
		"term discount":    func(t *pricing.Tariff) { t.Terms = []pricing.Term{t.Terms[0], {Months: 12, Discount: dec("0.2")}} },
		"one term fewer":   func(t *pricing.Tariff) { t.Terms = t.Terms[:1] },
		"huge coefficient": func(t *pricing.Tariff) { t.Hourly = dec("18.0000000000000000000000") },
		"past 64 bits":     func(t *pricing.Tariff) { t.Hourly = dec("18446744073709551634") }, // 2^64 + 18
		"zero written":     func(t *pricing.Tariff) { t.Daily = dec("0.00") },
	}
	key := func(t pricing.Tariff) string { return string(tariffKey(nil, &t)) }
	c := b
	c.Terms = append([]pricing.Term(nil), b.Terms...)
	if key(b) != key(c) {
		t.Errorf("a copy has another key: %q and %q", key(b), key(c))
	}
	seen := map[string]string{key(b): "base"}
	for name, mod := range mods {
		m := b
		m.Terms = append([]pricing.Term(nil), b.Terms...)
		mod(&m)
		if other, ok := seen[key(m)]; ok {
			t.Errorf("%s: same key as %s: %q", name, other, key(m))
		}
		seen[key(m)] = name
	}
	// The fields tariffKey writes; a new field of pricing.Tariff must join them.
	if n := reflect.TypeOf(pricing.Tariff{}).NumField(); n != 11 {
		t.Errorf("pricing.Tariff has %d fields, tariffKey encodes 11: add the new one", n)
	}
	if n := reflect.TypeOf(pricing.Term{}).NumField(); n != 3 {
		t.Errorf("pricing.Term has %d fields, tariffKey encodes 3: add the new one", n)
	}
}

// The best few of a long list are the head of the whole ranked list, for every
// rank.
func TestReportLimitIsHead(t *testing.T) {
	p := Planner{Offers: syntheticOffers(300)}
	for _, rank := range []Rank{RankCost, RankTime} {
		r := trainingRequest(t)
		r.Rank, r.Limit = rank, -1
		all, err := p.Plan(r)
		if err != nil {
			t.Fatal(err)
		}
		r.Limit = 7
		head, err := p.Plan(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(head) != 7 {
			t.Fatalf("%v: %d options, want 7", rank, len(head))
		}
		for i := range head {
			if offerName(head[i].Offer) != offerName(all[i].Offer) || head[i].GPUs != all[i].GPUs || !head[i].ExpectedCost.Amount.Equal(all[i].ExpectedCost.Amount) {
				t.Errorf("%v: option %d is %s ×%d, the full list has %s ×%d", rank, i, offerName(head[i].Offer), head[i].GPUs, offerName(all[i].Offer), all[i].GPUs)
			}
		}
	}
}

// When every option misses the deadline, the error names the closest and the GPU
// count that would meet it, past what the offers allow.
func TestNoFitNamesWhatMeetsTheDeadline(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.80", "")}}
	r := trainingRequest(t)
	r.EveryCount, r.Limit = true, -1
	all, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	fastest := slices.MinFunc(all, func(a, b Option) int { return cmp.Compare(a.Duration, b.Duration) })
	if fastest.GPUs != 8 {
		t.Fatalf("fastest on %d GPUs, want 8", fastest.GPUs)
	}
	r.EveryCount, r.Limit = false, 0
	r.Deadline = fastest.Duration - time.Minute // just under what 8 GPUs take
	_, err = p.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("Plan: %v, want a *NoFitError", err)
	}
	s := strings.Join(nf.Suggestions, "|")
	if !strings.Contains(s, "the fastest option is 8 × GeForce RTX 4090") || !strings.Contains(s, "9 × GeForce RTX 4090 would finish in") || !strings.Contains(s, "at most 8") {
		t.Errorf("suggestions %q, want the closest (8 GPUs) and 9 GPUs past the offers' 8", s)
	}
	r.MaxGPUs = 4
	_, err = p.Plan(r)
	if !errors.As(err, &nf) || !strings.Contains(strings.Join(nf.Suggestions, "|"), "the request allows at most 4") {
		t.Errorf("with MaxGPUs 4: %v, want the request's cap named", err)
	}
}

// Request.Validate's messages name what is wrong in words, as the JSON keys do,
// not as Go fields.
func TestRequestMessagesInWords(t *testing.T) {
	both := trainingRequest(t)
	both.Usage, both.Rental = time.Hour, pricing.Usage{Duration: time.Hour}
	noWork := trainingRequest(t)
	noWork.Tokens, noWork.Deadline = 0, time.Hour
	tr := Traffic{Rate: 1, PromptTokens: 100, OutputTokens: 10}
	serve := servingRequest(t, "llama-3.1-8b", tr)
	serve.Tokens = 1e6
	for want, r := range map[string]Request{
		"give usage or rental, not both":                         both,
		"a deadline needs tokens (the work to finish)":           noWork,
		"a serving request has a rate, not tokens or a deadline": serve,
	} {
		err := r.Validate()
		if !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("Validate() = %v, want ErrInvalid saying %q", err, want)
		}
	}
}

// Work past float64 is an error that names the package once.
func TestWorkOverflowMessage(t *testing.T) {
	r := trainingRequest(t)
	r.Tokens = 1e300
	_, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.80", "")}}.Plan(r)
	if want := "plan: training work: compute: work overflows float64: invalid input"; !errors.Is(err, pricing.ErrInvalid) || fmt.Sprint(err) != want {
		t.Errorf("Plan(1e300 tokens) = %v, want %q", err, want)
	}
}

// With the rental given (Usage or Rental), an offer expecting centuries of lost
// time can never run the job: the job and its lost time pass what time.Duration
// holds, and neither the extra rental for them nor the deadline test may wrap
// around to a small sum. The wild offer is left out with its reason; it does not
// rank first at its plain price, nor pass a 24-hour deadline.
func TestReportOverflowingInterruptionsWithRental(t *testing.T) {
	r := trainingRequest(t)
	r.MaxGPUs = 1
	probe := planOffer("probe", "RTX 4090", 1, "1.00", "")
	probe.InterruptionsPerDay = 1
	opts, err := Planner{Offers: []pricing.Offer{probe}}.Plan(r)
	if err != nil || len(opts) != 1 {
		t.Fatalf("probe: %d options, %v", len(opts), err)
	}
	d, lost := opts[0].Duration, opts[0].TimeLost // lost grows with the rate
	// A rate whose lost time fits in a Duration but not beside the job's.
	rate := float64(math.MaxInt64-d/2) / float64(lost)
	wild := planOffer("wild", "RTX 4090", 1, "0.10", "")
	wild.Interruptible, wild.InterruptionsPerDay, wild.Line = true, rate, 9
	steady := planOffer("steady", "RTX 4090", 1, "1.80", "")
	for _, tc := range []struct {
		name string
		set  func(*Request)
	}{
		{"usage", func(r *Request) { r.Usage = 100 * time.Hour }},
		{"rental", func(r *Request) { r.Rental = pricing.DailySessions(20*time.Hour, 5) }},
		{"usage and deadline", func(r *Request) { r.Usage, r.Deadline = 100*time.Hour, 24*time.Hour }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := r
			tc.set(&r)
			rep, err := Planner{Offers: []pricing.Offer{wild, steady}}.Report(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "steady" {
				for _, o := range rep.Options {
					t.Logf("option %s: expected cost %s, %v + %v lost", o.Offer.Provider, o.ExpectedCost, o.Duration, o.TimeLost)
				}
				t.Fatalf("%d options, want the steady offer alone", len(rep.Options))
			}
			if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Line != 9 || !errors.Is(rep.Skipped[0].Err, pricing.ErrUnavailable) ||
				!strings.Contains(rep.Skipped[0].Reason, "interruptions") {
				t.Errorf("skipped %+v, want the wild offer, its expected time past the pricing limit", rep.Skipped)
			}
		})
	}
}
