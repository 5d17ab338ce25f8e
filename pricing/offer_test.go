package pricing

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func offer(provider, region, card, hourly string) Offer {
	return Offer{Provider: provider, Region: region, Card: card, Tariff: Tariff{Currency: "CNY", Hourly: dec(hourly)}}
}

func TestCompare(t *testing.T) {
	monthly := offer("m", "r1", "RTX 4090", "2.00")
	monthly.Tariff.Monthly = dec("900")
	small := offer("s", "r1", "RTX 4090", "1.00")
	small.MaxGPUs = 2
	offers := []Offer{
		offer("b", "r2", "RTX 4090", "1.60"),
		offer("a", "r9", "RTX 4090", "1.60"),
		offer("a", "r1", "RTX 4090", "1.60"),
		monthly,
		small,
		offer("c", "r1", "RTX 4090", "1.35"),
	}
	got, err := Compare(offers, Continuous(730*time.Hour), 4)
	if err != nil {
		t.Fatal(err)
	}
	// 4 GPUs × 730 h: 1.35 → 3942; 1.60 → 4672 (three tied, by provider then
	// region); monthly 900 → 3600; the 2-GPU offer cannot serve 4.
	want := []struct{ provider, region, total string }{
		{"m", "r1", "3600"}, {"c", "r1", "3942"}, {"a", "r1", "4672"}, {"a", "r9", "4672"}, {"b", "r2", "4672"}, {"s", "r1", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("Compare returned %d results, want %d", len(got), len(want))
	}
	for i, w := range want {
		c := got[i]
		if c.Offer.Provider != w.provider || c.Offer.Region != w.region {
			t.Errorf("result %d = %s/%s, want %s/%s", i, c.Offer.Provider, c.Offer.Region, w.provider, w.region)
		}
		if w.total == "" {
			if !errors.Is(c.Err, ErrUnavailable) {
				t.Errorf("result %d error = %v, want ErrUnavailable", i, c.Err)
			}
			continue
		}
		if c.Err != nil || !c.Quote.Total.Amount.Equal(dec(w.total)) {
			t.Errorf("result %d total = %v, %v; want CNY %s", i, c.Quote.Total, c.Err, w.total)
		}
	}
	// In JSON an unavailable offer carries its reason and no quote, so that it
	// never reads as a free one; a priced offer has a quote and a null error.
	b, err := json.Marshal(got[len(got)-1])
	if err != nil || !strings.Contains(string(b), `"quote":null,"error":"pricing: s/r1 RTX 4090: 4 GPUs asked, at most 2`) {
		t.Errorf("unavailable offer JSON = %s, %v", b, err)
	}
	if b, err := json.Marshal(got[0]); err != nil || !strings.Contains(string(b), `"total":{"amount":"3600.00","currency":"CNY"}`) ||
		!strings.HasSuffix(string(b), `"error":null}`) {
		t.Errorf("priced offer JSON = %s, %v", b, err)
	}
	usd := offer("u", "us", "RTX 4090", "0.30")
	usd.Tariff.Currency = "USD"
	if _, err := Compare(append(offers, usd), Continuous(time.Hour), 1); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("Compare with mixed currencies error = %v, want ErrCurrencyMismatch", err)
	}
	if _, err := Compare([]Offer{offer("p", "r", "--", "1")}, Continuous(time.Hour), 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Compare with an invalid offer error = %v, want ErrInvalid", err)
	}
	if _, err := Compare(offers, Continuous(-time.Hour), 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("Compare with a negative usage error = %v, want ErrInvalid", err)
	}
	if got, err := Compare(nil, Continuous(time.Hour), 1); err != nil || len(got) != 0 {
		t.Errorf("Compare(nil) = %v, %v; want nothing", got, err)
	}
}

func TestMarketCheck(t *testing.T) {
	packagesOnly := Offer{Provider: "p", Card: "RTX 4090", Tariff: Tariff{Currency: "CNY", Monthly: dec("900")}}
	offers := []Offer{
		offer("a", "hz", "RTX 4090", "1.60"),
		offer("b", "hz", "NVIDIA GeForce RTX 4090", "1.35"),
		offer("c", "sh", "rtx-4090", "0.80"),
		offer("d", "bj", "RTX 4090", "1.90"),
		offer("e", "bj", "RTX 4090", "2.60"),
		offer("f", "bj", "A100 80GB", "12.50"),
		packagesOnly,
	}
	got, err := MarketCheck(offers, dec("0.3"))
	if err != nil {
		t.Fatal(err)
	}
	// The five RTX 4090 hourly prices sorted: 0.80 1.35 1.60 1.90 2.60; median
	// 1.60; below 1.12 or above 2.08 is flagged.
	want := []struct {
		flag   PriceFlag
		median string
	}{{PriceNormal, "1.6"}, {PriceNormal, "1.6"}, {PriceBelow, "1.6"}, {PriceNormal, "1.6"}, {PriceAbove, "1.6"}, {PriceUnchecked, "12.5"}, {PriceUnchecked, "0"}}
	for i, w := range want {
		c := got[i]
		if c.Flag != w.flag || !c.Median.Amount.Equal(dec(w.median)) {
			t.Errorf("offer %d (%s) = %v, median %s; want %v, median %s", i, c.Offer.Provider, c.Flag, c.Median.Amount, w.flag, w.median)
		}
		if c.Flag != PriceNormal && c.Message == "" {
			t.Errorf("offer %d flagged %v without a message", i, c.Flag)
		}
	}
	if c := got[2]; c.Card != "rtx4090" || c.Offers != 5 || !strings.Contains(c.Message, "50.0% below the median CNY 1.60/h") ||
		!strings.Contains(c.Message, "lesser card or missing service") {
		t.Errorf("below-median check = %+v", c)
	}
	// Spot capacity is a market of its own: a cheap interruptible offer is not
	// flagged against on-demand prices, and does not move their median.
	spot := offer("s", "hz", "RTX 4090", "0.70")
	spot.Interruptible = true
	withSpot, err := MarketCheck(append(append([]Offer{}, offers...), spot), dec("0.3"))
	if err != nil {
		t.Fatal(err)
	}
	if c := withSpot[len(withSpot)-1]; c.Card != "rtx4090 (interruptible)" || c.Flag != PriceUnchecked || c.Offers != 1 {
		t.Errorf("spot offer check = %+v, want its own market, unchecked", c)
	}
	if !withSpot[0].Median.Amount.Equal(dec("1.6")) {
		t.Errorf("on-demand median with a spot offer = %v, want 1.6", withSpot[0].Median)
	}
	// An even count takes the exact mean of the middle two: (1.35+1.60)/2 = 1.475.
	got, err = MarketCheck(offers[:4], dec("0"))
	if err != nil || !got[0].Median.Amount.Equal(dec("1.475")) {
		t.Errorf("median of four = %v, %v; want 1.475", got[0].Median, err)
	}
	for _, th := range []string{"-0.1", "1", "1.5"} {
		if _, err := MarketCheck(offers, dec(th)); !errors.Is(err, ErrInvalid) {
			t.Errorf("threshold %s error = %v, want ErrInvalid", th, err)
		}
	}
	usd := offer("u", "us", "RTX 4090", "0.30")
	usd.Tariff.Currency = "USD"
	if _, err := MarketCheck(append(offers, usd), dec("0.3")); !errors.Is(err, ErrCurrencyMismatch) {
		t.Errorf("one card in two currencies error = %v, want ErrCurrencyMismatch", err)
	}
}

func TestCardKey(t *testing.T) {
	for in, want := range map[string]string{
		"NVIDIA GeForce RTX 4090": "rtx4090", "RTX 4090": "rtx4090", "rtx-4090": "rtx4090",
		"A100 80GB": "a10080gb", "  ": "", "NVIDIA": "",
	} {
		if got := CardKey(in); got != want {
			t.Errorf("CardKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOfferValidate(t *testing.T) {
	good := offer("a", "r", "RTX 4090", "1.6")
	if err := good.Validate(); err != nil {
		t.Fatalf("Validate() = %v", err)
	}
	mod := func(f func(*Offer)) Offer { o := good; f(&o); return o }
	// A lesser datacenter's outages interrupt an offer that is not interruptible
	// capacity: a rate without the flag is valid.
	if err := mod(func(o *Offer) { o.Tier = "T2"; o.InterruptionsPerDay = 0.05 }).Validate(); err != nil {
		t.Errorf("rate on a Tier II offer: Validate() = %v, want nil", err)
	}
	// A price list may name no provider: the offer is named by its line.
	if err := mod(func(o *Offer) { o.Provider = "" }).Validate(); err != nil {
		t.Errorf("no provider: Validate() = %v, want nil", err)
	}
	for name, o := range map[string]Offer{
		"no card":               mod(func(o *Offer) { o.Card = "--" }),
		"negative GPUs":         mod(func(o *Offer) { o.MaxGPUs = -1 }),
		"NaN interruptions":     mod(func(o *Offer) { o.Interruptible = true; o.InterruptionsPerDay = math.NaN() }),
		"negative interruption": mod(func(o *Offer) { o.Interruptible = true; o.InterruptionsPerDay = -1 }),
		"bad tariff":            mod(func(o *Offer) { o.Tariff.Hourly = dec("-1") }),
	} {
		if err := o.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Validate() = %v, want ErrInvalid", name, err)
		}
	}
}

func TestSiteAvailability(t *testing.T) {
	// Uptime Institute tier classification: design availability per tier.
	tests := []struct {
		tier string
		want float64
		ok   bool
	}{
		{"T1", 0.99671, true}, {"Tier II", 0.99741, true}, {"tier 3", 0.99982, true}, {"IV", 0.99995, true},
		{" t2 ", 0.99741, true}, {"TIER III", 0.99982, true}, {"4", 0.99995, true},
		{"", 0, false}, {"T5", 0, false}, {"gold", 0, false}, {"Tier", 0, false},
		{"Tier T3", 0, false}, {"T3.5", 0, false}, {"3+", 0, false}, {"Tier-3", 0, false},
	}
	for _, tt := range tests {
		if got, ok := SiteAvailability(tt.tier); got != tt.want || ok != tt.ok {
			t.Errorf("SiteAvailability(%q) = %v, %v; want %v, %v", tt.tier, got, ok, tt.want, tt.ok)
		}
	}
}

// An offer sold in 8-GPU instances is priced for whole instances: Lambda's
// gpu_8x_a100 at 15.92 USD an hour (catalogs/v8/lambda/vms.csv) costs 15.92 for
// 6 GPUs and 31.84 for 9, for an hour.
func TestCompareInstances(t *testing.T) {
	inst := Offer{Provider: "lambda", Card: "A100 40GB", GPUsPerInstance: 8, MaxGPUs: 16,
		Tariff: Tariff{Currency: "USD", Hourly: dec("15.92")}}
	for _, tc := range []struct {
		gpus  int
		total string
		err   bool
	}{{1, "15.92", false}, {6, "15.92", false}, {8, "15.92", false}, {9, "31.84", false}, {16, "31.84", false}, {17, "", true}} {
		cs, err := Compare([]Offer{inst}, Continuous(time.Hour), tc.gpus)
		if err != nil {
			t.Fatal(err)
		}
		c := cs[0]
		if tc.err {
			if !errors.Is(c.Err, ErrUnavailable) {
				t.Errorf("%d GPUs: %v, want ErrUnavailable", tc.gpus, c.Err)
			}
			continue
		}
		if c.Err != nil || c.Quote.Total.Amount.StringFixed(2) != tc.total {
			t.Errorf("%d GPUs: %v, %v; want %s", tc.gpus, c.Quote.Total, c.Err, tc.total)
		}
	}
	if err := (Offer{Provider: "p", Card: "x", MaxGPUs: 12, GPUsPerInstance: 8, Tariff: inst.Tariff}).Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("12 GPUs in 8-GPU instances: %v", err)
	}
	if err := (Offer{Provider: "p", Card: "x", GPUsPerInstance: -1, Tariff: inst.Tariff}).Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative instance size: %v", err)
	}
}

// The market check weighs an instance's price per GPU: Lambda's gpu_8x_a100 at
// 15.92 USD an hour (catalogs/v8/lambda/vms.csv) is 1.99 a GPU, the price of its
// gpu_1x_a100, so neither is flagged.
func TestMarketCheckInstances(t *testing.T) {
	offers := []Offer{
		{Provider: "lambda", Card: "A100 40GB", GPUsPerInstance: 8, Tariff: Tariff{Currency: "USD", Hourly: dec("15.92")}},
		{Provider: "lambda", Card: "A100 40GB", GPUsPerInstance: 1, Tariff: Tariff{Currency: "USD", Hourly: dec("1.99")}},
		{Provider: "other", Card: "A100 40GB", Tariff: Tariff{Currency: "USD", Hourly: dec("2.10")}},
	}
	checks, err := MarketCheck(offers, dec("0.3"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checks {
		if c.Flag != PriceNormal {
			t.Errorf("offer %d: %v, %s", i, c.Flag, c.Message)
		}
	}
	if got := checks[0].Hourly.Amount.String(); got != "1.99" {
		t.Errorf("per-GPU price %s, want 1.99", got)
	}
}

// A market priced in two currencies is refused naming both offers with their
// lines in the price list.
func TestMarketCheckCurrencyNamesLines(t *testing.T) {
	offers := []Offer{
		{Provider: "a", Card: "RTX 4090", Line: 3, Tariff: Tariff{Currency: "CNY", Hourly: dec("1.8")}},
		{Provider: "b", Card: "RTX 4090", Line: 9, Tariff: Tariff{Currency: "USD", Hourly: dec("0.4")}},
	}
	_, err := MarketCheck(offers, dec("0.3"))
	if !errors.Is(err, ErrCurrencyMismatch) {
		t.Fatalf("err %v, want ErrCurrencyMismatch", err)
	}
	for _, want := range []string{"CNY (a RTX 4090 (line 3))", "USD (b RTX 4090 (line 9))"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// A price not offered is written "" in JSON, never "0", which reads as free, and
// reads back as not offered.
func TestTariffJSONNotOffered(t *testing.T) {
	tr := Tariff{Currency: "CNY", Hourly: dec("1.60"), Terms: []Term{{Months: 3, Monthly: dec("850")}}}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"hourly":"1.6"`, `"daily":""`, `"weekly":""`, `"monthly":""`, `"discount":""`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
	var back Tariff
	if err := json.Unmarshal(b, &back); err != nil || !back.Daily.IsZero() || !back.Hourly.Equal(dec("1.6")) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

// HostMemory is bytes of host RAM a GPU: zero is unknown, a negative figure or one
// past MaxHostMemory is a *FieldError naming host_memory_bytes, and JSON carries
// it under that key.
func TestOfferHostMemory(t *testing.T) {
	o := Offer{Provider: "a", Card: "RTX 4090", Tariff: Tariff{Currency: "CNY", Hourly: dec("1.6")}}
	for _, m := range []int64{0, 64 << 30, MaxHostMemory} {
		o.HostMemory = m
		if err := o.Validate(); err != nil {
			t.Errorf("HostMemory %d: %v", m, err)
		}
	}
	for _, m := range []int64{-1, MaxHostMemory + 1} {
		o.HostMemory = m
		var fe *FieldError
		if err := o.Validate(); !errors.As(err, &fe) || fe.Field != "host_memory_bytes" || !errors.Is(err, ErrInvalid) {
			t.Errorf("HostMemory %d: %v, want a *FieldError for host_memory_bytes", m, err)
		}
	}
	o.HostMemory = 256 << 30
	b, err := json.Marshal(o)
	if err != nil || !strings.Contains(string(b), `"host_memory_bytes":274877906944`) {
		t.Fatalf("JSON %s, %v", b, err)
	}
	var back Offer
	if err := json.Unmarshal(b, &back); err != nil || back.HostMemory != o.HostMemory {
		t.Errorf("round trip: %d, %v", back.HostMemory, err)
	}
}
