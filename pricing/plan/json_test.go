package plan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// A request goes through JSON unchanged, with its durations in Go's syntax and
// its threshold an exact string; unknown fields and bad durations are refused.
func TestRequestJSON(t *testing.T) {
	r := trainingRequest(t)
	r.Deadline, r.Checkpoint, r.Restart = 12*time.Hour, 30*time.Minute, 5*time.Minute
	r.MarketThreshold = decimal.RequireFromString("0.25")
	r.Cards, r.Limit, r.Rank, r.EveryCount = []string{"RTX 4090"}, 3, RankFrontier, true
	r.Budget = pricing.Money{Amount: decimal.RequireFromString("120.50"), Currency: "CNY"}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"deadline":"12h0m0s"`, `"checkpoint":"30m0s"`, `"market_threshold":"0.25"`, `"rank":"frontier"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
	var back Request
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Unmarshal: %v\n%s", err, b)
	}
	eq := cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })
	if diff := cmp.Diff(r, back, eq); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"usage_ns":1}`, `{"deadline":"soon"}`, `{"market_threshold":"abc"}`, `{"rank":"fastest"}`} {
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, pricing.ErrInvalid) && err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", bad, err)
		}
	}
	// A threshold of a huge exponent decodes, and Validate refuses it at once.
	if err := json.Unmarshal([]byte(`{"market_threshold":"1e-2000000000"}`), &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("threshold 1e-2000000000: %v, want ErrInvalid", err)
	}
}

// An option goes through JSON unchanged.
func TestOptionJSON(t *testing.T) {
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 2, "1.80", "900")}}.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(opts[0])
	if err != nil {
		t.Fatal(err)
	}
	// (The rental's Usage keeps pricing's own JSON.)
	if !strings.Contains(string(b), `"duration":"`) || strings.Contains(string(b), "time_lost_ns") || strings.Contains(string(b), "duration_low_ns") {
		t.Errorf("option JSON %s: want durations as strings without _ns keys", b)
	}
	var back Option
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	b2, _ := json.Marshal(back)
	if string(b2) != string(b) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", b, b2)
	}
}

// A serving option keeps its per-hour and per-million figures through JSON; a
// null one reads as zero.
func TestServingOptionJSON(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	p := Planner{Offers: []pricing.Offer{planOffer("c", "H100 SXM5 80GB", 8, "22.00", "9000")}}
	opts, err := p.Plan(servingRequest(t, "llama-3.1-8b", tr))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(opts[0])
	if err != nil {
		t.Fatal(err)
	}
	var back Option
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if b2, _ := json.Marshal(back); string(b2) != string(b) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", b, b2)
	}
	// A month on the monthly package, as TestServingRankAndUsage works out.
	if back.PerHour.String() != "CNY 24.66" || back.PerMillion.String() != "CNY 1.14" {
		t.Errorf("read back %s an hour, %s per million; want CNY 24.66 and CNY 1.14", back.PerHour, back.PerMillion)
	}
	var none Option
	if err := json.Unmarshal([]byte(`{"per_hour":null}`), &none); err != nil || !none.PerHour.Amount.IsZero() {
		t.Errorf("null per_hour: %v, %s; want zero", err, none.PerHour)
	}
}

// Every JSON type of the package writes the same bytes whatever decimal's package
// settings are. It must not run in parallel.
func TestImmuneToDecimalGlobals(t *testing.T) {
	run := func() string {
		r := trainingRequest(t)
		r.MarketThreshold = decimal.RequireFromString("0.35")
		rep, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 2, "1.3", "900"), planOffer("b", "RTX 4090", 2, "1.7", "")}}.Report(r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(struct {
			R Request
			P Report
		}{r, rep})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	before := run()
	savedQuotes, savedPrec := decimal.MarshalJSONWithoutQuotes, decimal.DivisionPrecision
	t.Cleanup(func() { decimal.MarshalJSONWithoutQuotes, decimal.DivisionPrecision = savedQuotes, savedPrec })
	decimal.MarshalJSONWithoutQuotes, decimal.DivisionPrecision = true, 1
	if after := run(); after != before {
		t.Errorf("JSON changed under hostile decimal settings:\n got %s\nwant %s", after, before)
	}
}

// Request's JSON reader never panics, and what it accepts writes back and reads
// again to the same request.
func FuzzRequestJSON(f *testing.F) {
	f.Add(`{"tokens":1e8,"deadline":"12h","market_threshold":"0.25","rank":"time","cards":["RTX 4090"]}`)
	f.Add(`{"market_threshold":"1e-2000000000"}`)
	f.Add(`{"usage":"-1h","limit":-1}`)
	f.Fuzz(func(t *testing.T, in string) {
		var r Request
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			return
		}
		_ = r.Validate()
		b, err := json.Marshal(r)
		if err != nil {
			return // a rank out of range has no name
		}
		var back Request
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("re-reading %s: %v", b, err)
		}
		b2, err := json.Marshal(back)
		if err != nil || string(b2) != string(b) {
			t.Fatalf("round trip changed %s into %s (%v)", b, b2, err)
		}
	})
}

// An error from a nested reader (the serving traffic's durations, an option's
// money) is passed on once, not wrapped again in the outer type's words.
func TestNestedJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		into any
		want string
	}{
		{`{"serving":{"ttft":"x"}}`, new(Request), `plan: ttft "x": want a duration such as 12h or 90m: invalid input`},
		{`{"serving":{"requests_per_second":1,"bogus":2}}`, new(Request), `plan: serving: json: unknown field "bogus": invalid input`},
		{`{"bogus":1}`, new(Request), `plan: request: json: unknown field "bogus": invalid input`},
		// sizing's own errors, and values of the wrong JSON type, said without
		// Go's type names: a model given as a preset's name is no Model.
		{`{"model":"llama-2-7b"}`, new(Request), `plan: request: sizing: model: want an object, got string: invalid input`},
		{`{"workload":{"batch":"4"}}`, new(Request), `plan: request: sizing: workload: field batch: want a number, got string: invalid input`},
		{`{"limit":"3"}`, new(Request), `plan: request: field limit: want a number, got string: invalid input`},
		{`{"per_hour":{"amount":"x","currency":"CNY"}}`, new(Option), ""},
		// From sizing and compute: their own message, its sentinel's text once.
		{`{"model":{"bogus":1}}`, new(Request), `plan: request: sizing: model: json: unknown field "bogus": invalid input`},
		{`{"serving":{"speculative":{"draft":{"bogus":1}}}}`, new(Request), `plan: serving: compute: sizing: model: json: unknown field "bogus": invalid input`},
		{`{"serving":{"speculative":{"tokens":"x"}}}`, new(Request), ""},
		{`{"serving":{"speculative":{"acceptance":0.5,"x":1}}}`, new(Request), ""},
	} {
		err := json.Unmarshal([]byte(tc.in), tc.into)
		if !errors.Is(err, pricing.ErrInvalid) {
			t.Errorf("%s: %v, want an error wrapping ErrInvalid", tc.in, err)
			continue
		}
		if strings.Count(err.Error(), "invalid input") != 1 || tc.want != "" && err.Error() != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, err, tc.want)
		}
	}
}
