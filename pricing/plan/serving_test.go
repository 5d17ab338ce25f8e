package plan

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

func servingRequest(t testing.TB, model string, tr Traffic) Request {
	return Request{
		Model:    mustPreset(t, model),
		Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16},
		Serving:  &tr,
	}
}

// Llama-3.1-8B in BF16 at 20 requests/s of 1000 prompt and 300 output tokens,
// TTFT ≤ 1 s and TPOT ≤ 50 ms at the mean, on one offer of each card (hourly
// CNY, up to 8 GPUs). Each option's replicas are checked against compute:
// each of n replicas under 20/n requests a second (Serving.Under) meets the
// targets and n − 1 would not (unstable or missing them), and the money by
// hand from the GPUs: 20 × 300 × 3600 = 21.6 million tokens an hour, so the
// cost per million is the hourly cost over 21.6.
func TestServingLlama8B(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	for _, tc := range []struct {
		card, hourly string
	}{{"RTX 4090", "1.60"}, {"A100 SXM4 80GB", "9.90"}, {"H100 SXM5 80GB", "22.00"}} {
		t.Run(tc.card, func(t *testing.T) {
			p := Planner{Offers: []pricing.Offer{planOffer("a", tc.card, 8, tc.hourly, "")}}
			rep, err := p.Report(servingRequest(t, "llama-3.1-8b", tr))
			if err != nil {
				t.Fatal(err)
			}
			o := rep.Options[0]
			if len(o.Fleet) != 1 || o.Fleet[0].Role != RoleServe || o.Fleet[0].Hours != 24 {
				t.Fatalf("fleet %+v, want one group serving all day", o.Fleet)
			}
			g := o.Fleet[0]
			n, tp := o.Replicas, max(o.Layout.Tensor, 1)
			if g.Replicas != n || g.Tensor != tp || o.GPUs != n*tp || g.GPUs != o.GPUs {
				t.Errorf("%d × t=%d on %d GPUs, group %+v", n, tp, o.GPUs, g)
			}
			card, _ := catalog.Default().Lookup(tc.card)
			sv := compute.Serving{Model: mustPreset(t, "llama-3.1-8b"), Weights: sizing.BF16, Devices: tp,
				Memory: card.Memory, Bandwidth: card.MemoryBandwidth, Peak: servingPeak(card, sizing.BF16),
				Link: servingLink(card, tp), PromptTokens: 1000, OutputTokens: 300, Arch: card.Architecture}
			meets := func(n int) bool {
				if n < 1 {
					return false
				}
				lp, err := sv.Under(20 / float64(n))
				if err != nil {
					t.Fatal(err)
				}
				return lp.Stable && lp.TTFT.Mean <= tr.TTFT && lp.TPOT.Mean <= tr.TPOT
			}
			if !meets(n) || meets(n-1) {
				t.Errorf("%d replicas of %d GPUs: meet the targets %v, with one fewer %v; want true, false", n, tp, meets(n), meets(n-1))
			}
			want, _ := sv.Under(20 / float64(n))
			if *o.Load != want {
				t.Errorf("load %+v, compute says %+v", *o.Load, want)
			}
			perHour := decimal.RequireFromString(tc.hourly).Mul(decimal.NewFromInt(int64(o.GPUs)))
			if got := o.PerHour.Amount; !got.Equal(perHour) {
				t.Errorf("per hour %s, want %s", got, perHour)
			}
			if got, want := o.PerMillion.Amount, perHour.DivRound(decimal.RequireFromString("21.6"), 2); !got.Equal(want) {
				t.Errorf("per million %s, want %s", got, want)
			}
			if o.Rental != pricing.Continuous(DefaultServingUsage) {
				t.Errorf("rental %+v, want 730 h continuous", o.Rental)
			}
			if want := perHour.Mul(decimal.NewFromInt(730)); !o.Cost.Total.Amount.Equal(want) || !g.Cost.Total.Amount.Equal(want) {
				t.Errorf("cost %s (group %s), want %s for 730 h", o.Cost.Total, g.Cost.Total, want)
			}
			// Each GPU's memory: the weights' share, the KV cache of every sequence
			// slot the engine allocates, the reserve, within the card.
			slots, err := sv.MaxConcurrency()
			if err != nil {
				t.Fatal(err)
			}
			if o.PerGPU.KVCache <= 0 || o.PerGPU.Weights <= 0 || o.PerGPU.Total() > card.Memory {
				t.Errorf("per GPU %+v on %v", o.PerGPU, card.Memory)
			}
			// Llama-3.1-8B's KV cache: 32 layers × 8 KV heads × 128 × 2 (K and V) ×
			// 2 bytes = 128 KiB a token, for the 1300 tokens of each sequence in whole
			// blocks of 16 (1312), split over the tensor-parallel GPUs.
			if want := sizing.Bytes(slots * 1312 * 131072 / tp); o.PerGPU.KVCache != want {
				t.Errorf("KV cache per GPU %d, want %d (%d slots)", o.PerGPU.KVCache, want, slots)
			}
			if want := sizing.Bytes(math.Ceil(float64(card.Memory) * compute.DefaultServingReserve)); o.PerGPU.Overhead != want {
				t.Errorf("reserve per GPU %d, want %d", o.PerGPU.Overhead, want)
			}
			if rep.Considered < 4 {
				t.Errorf("considered %d, want at least the 4 tensor-parallel sizes", rep.Considered)
			}
		})
	}
}

// The three offers together rank by cost; RankTime by the time one request
// takes; a usage sets the rental and so the cost per hour of a package.
func TestServingRankAndUsage(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	p := Planner{Offers: []pricing.Offer{
		planOffer("a", "RTX 4090", 8, "1.60", ""),
		planOffer("b", "A100 SXM4 80GB", 8, "9.90", ""),
		planOffer("c", "H100 SXM5 80GB", 8, "22.00", "9000"),
	}}
	r := servingRequest(t, "llama-3.1-8b", tr)
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{opts[0].CardID, opts[1].CardID, opts[2].CardID}; got[0] != "rtx-4090" || got[1] != "h100-sxm5-80gb" || got[2] != "a100-sxm4-80gb" {
		t.Errorf("by cost %v", got)
	}
	r.Rank = RankTime
	opts, err = p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	latency := func(o Option) time.Duration { return o.Load.TTFT.Mean + 299*o.Load.TPOT.Mean }
	for k := 1; k < len(opts); k++ {
		if a, b := latency(opts[k-1]), latency(opts[k]); a > b {
			t.Errorf("RankTime: option %d takes %v, more than the next's %v", k-1, a, b)
		}
	}
	r.Rank, r.Limit = RankCost, 1
	r.Cards = []string{"H100 SXM5 80GB"}
	// A month on the monthly package: 2 × 9000 over 730 h = 24.657… → 24.66 an
	// hour, and 18000 / (730 × 21.6) = 1.1415… → 1.14 per million tokens.
	opts, err = p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if o := opts[0]; o.PerHour.Amount.StringFixed(2) != "24.66" || o.PerMillion.Amount.StringFixed(2) != "1.14" {
		t.Errorf("monthly: %s an hour, %s per million", o.PerHour, o.PerMillion)
	}
	// Ten hours priced by the hour: the cost per hour is the tariff's.
	r.Usage = 10 * time.Hour
	opts, err = p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if o := opts[0]; o.Cost.Total.Amount.StringFixed(2) != "440.00" || o.PerHour.Amount.StringFixed(2) != "44.00" {
		t.Errorf("10 h: cost %s, %s an hour", o.Cost.Total, o.PerHour)
	}
}

// A serving offer that cannot serve the rental (a trial on a tariff without an
// hourly price) is left out and listed in Skipped with its reason, whatever the
// Limit, beside an offer that serves it.
func TestServingSkippedDoesNotDependOnLimit(t *testing.T) {
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond})
	r.Rental = pricing.Usage{Pattern: pricing.TrialThenCommit, Trial: 24 * time.Hour, Duration: 730 * time.Hour}
	p := Planner{Offers: []pricing.Offer{
		planOffer("hourly", "H100 SXM5 80GB", 8, "20.00", ""),
		planOffer("monthly", "H100 SXM5 80GB", 8, "", "9000"),
	}}
	for _, limit := range []int{1, -1} {
		r.Limit = limit
		rep, err := p.Report(r)
		if err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "hourly" {
			t.Errorf("limit %d: %d options; want the hourly offer's", limit, len(rep.Options))
		}
		if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Provider != "monthly" || !errors.Is(rep.Skipped[0].Err, pricing.ErrUnavailable) ||
			rep.Skipped[0].Reason != "pricing: a trial needs an hourly price: offer cannot serve this usage" {
			t.Errorf("limit %d: skipped %+v; want the monthly offer, for want of an hourly price", limit, rep.Skipped)
		}
	}
}

// The request's GPU cap counts GPUs rented for serving as for a job: an offer sold
// in 8-GPU instances under a cap of 4 is listed as skipped with its reason, not
// dropped without a word.
func TestServingInstancesRequestCap(t *testing.T) {
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 2, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond})
	r.MaxGPUs = 4
	p := Planner{Offers: []pricing.Offer{lambda8xA100(0), planOffer("a", "A100 SXM4 80GB", 4, "1.40", "")}}
	p.Offers[1].Tariff.Currency = "USD"
	rep, err := p.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "a" {
		t.Fatalf("options %d, want only the per-GPU offer", len(rep.Options))
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Reason != "sold in instances of 8 GPUs, more than the 4 allowed: offer cannot serve this usage" {
		t.Errorf("skipped %+v, want the 8-GPU instance with its reason", rep.Skipped)
	}
}

func TestServingErrors(t *testing.T) {
	ok := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300}
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.60", "")}}
	for _, tc := range []struct {
		name string
		edit func(r *Request)
	}{
		{"zero rate", func(r *Request) { r.Serving.Rate = 0 }},
		{"negative rate", func(r *Request) { r.Serving.Rate = -1 }},
		{"NaN rate", func(r *Request) { r.Serving.Rate = math.NaN() }},
		{"infinite rate", func(r *Request) { r.Serving.Rate = math.Inf(1) }},
		{"zero prompt", func(r *Request) { r.Serving.PromptTokens = 0 }},
		{"negative output", func(r *Request) { r.Serving.OutputTokens = -3 }},
		{"negative TTFT", func(r *Request) { r.Serving.TTFT = -time.Second }},
		{"tokens", func(r *Request) { r.Tokens = 1e9 }},
		{"deadline", func(r *Request) { r.Deadline = time.Hour }},
		{"training", func(r *Request) { r.Workload.Task = sizing.Training }},
		// Sized apart from the KV cache compute gave the replica: 8B on an
		// RTX 4090 came back with -0.9% headroom.
		{"eager attention", func(r *Request) { r.Workload.EagerAttention = true }},
		{"full logits", func(r *Request) { r.Workload.FullLogits = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := servingRequest(t, "llama-3.1-8b", ok)
			tc.edit(&r)
			_, err := p.Plan(r)
			if !errors.Is(err, pricing.ErrInvalid) {
				t.Fatalf("error %v, want ErrInvalid", err)
			}
		})
	}

	// A target no card meets: the best latency reachable, and where.
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TPOT: 2 * time.Millisecond})
	p2 := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.60", ""), planOffer("b", "H100 SXM5 80GB", 8, "22", "")}}
	_, err := p2.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) || !errors.Is(err, ErrNoFit) || !errors.Is(err, compute.ErrUnreachable) {
		t.Fatalf("error %v, want a NoFitError with ErrUnreachable", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "the best latency reachable is TTFT") || !strings.Contains(msg, "on 8 × H100 SXM5 80GB") {
		t.Errorf("message %q does not name the best latency and where", msg)
	}

	// A model no replica holds: the memory it needs.
	r = servingRequest(t, "llama-3.1-70b", ok)
	_, err = Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.60", "")}}.Plan(r)
	if !errors.Is(err, ErrNoFit) || !errors.Is(err, compute.ErrNoFit) || !strings.Contains(err.Error(), "leaving the replica") {
		t.Fatalf("error %v, want a no-fit with the memory", err)
	}

	// A rate past the offer's cap: the GPUs it needs.
	r = servingRequest(t, "llama-3.1-8b", Traffic{Rate: 500, PromptTokens: 1000, OutputTokens: 300, TPOT: 50 * time.Millisecond})
	_, err = p.Plan(r)
	if !errors.Is(err, ErrNoFit) || !strings.Contains(err.Error(), "over the 8 its offers allow") {
		t.Fatalf("error %v, want the GPUs past the cap", err)
	}

	// A budget under the cheapest option.
	r = servingRequest(t, "llama-3.1-8b", ok)
	r.Budget = pricing.Money{Amount: decimal.NewFromInt(100), Currency: "CNY"}
	_, err = p.Plan(r)
	if !errors.Is(err, ErrNoFit) || !strings.Contains(err.Error(), "over the CNY 100.00 budget") {
		t.Fatalf("error %v, want the budget", err)
	}
}

// Doubling the rate never needs fewer GPUs; PerMillion times the million tokens an
// hour is the cost per hour within the two roundings (half a minor unit each, the
// first scaled by the tokens); on an hourly tariff the cost per hour is the price
// times the GPUs.
func TestServingProperties(t *testing.T) {
	m := mustPreset(t, "llama-3.1-8b")
	rapid.Check(t, func(rt *rapid.T) {
		card := rapid.SampledFrom([]string{"RTX 4090", "A100 SXM4 80GB", "H100 SXM5 80GB", "L40S"}).Draw(rt, "card")
		cents := rapid.Int64Range(1, 100000).Draw(rt, "cents")
		tr := Traffic{
			Rate:         float64(rapid.IntRange(1, 4000).Draw(rt, "decirate")) / 10,
			PromptTokens: rapid.IntRange(1, 4000).Draw(rt, "prompt"),
			OutputTokens: rapid.IntRange(1, 600).Draw(rt, "output"),
		}
		if rarely(rt) {
			tr.TPOT = time.Duration(rapid.IntRange(0, 200).Draw(rt, "tpot_ms")) * time.Millisecond
		}
		o := pricing.Offer{Provider: "a", Card: card, MaxGPUs: 1024, Tariff: pricing.Tariff{Currency: "CNY", Hourly: decimal.New(cents, -2)}}
		p := Planner{Offers: []pricing.Offer{o}}
		r := Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16}, Serving: &tr}
		one, ok := best(rt, p, r)
		if !ok {
			return
		}
		two := tr
		two.Rate *= 2
		r.Serving = &two
		if both, ok := best(rt, p, r); ok && both.rented < one.rented {
			rt.Fatalf("%v requests/s need %d GPUs, %v need %d", tr.Rate, one.rented, two.Rate, both.rented)
		}
		if rapid.IntRange(0, 7).Draw(rt, "explain") != 0 {
			return // the options' figures, explained in one check in eight (an Under call each)
		}
		r.Serving = &tr
		opts, err := p.Plan(r)
		if err != nil {
			rt.Fatal(err)
		}
		x := opts[0]
		if want := decimal.New(cents*int64(x.GPUs), -2); !x.PerHour.Amount.Equal(want) {
			rt.Fatalf("per hour %s, want %s for %d GPUs", x.PerHour, want, x.GPUs)
		}
		mtok, _ := millionTokensPerHour(&tr, []float64{1})
		diff := x.PerMillion.Amount.Mul(mtok).Sub(x.PerHour.Amount).Abs()
		bound := mtok.Add(decimal.NewFromInt(1)).Mul(decimal.New(5, -3))
		if diff.GreaterThan(bound) {
			rt.Fatalf("per million %s × %s million tokens is %s from %s an hour, over %s", x.PerMillion, mtok, diff, x.PerHour, bound)
		}
	})
}

// A thousand offers cost one Prepare and one Best per card and tensor-parallel
// size, whatever the number of offers.
func TestServingPreparesOncePerCard(t *testing.T) {
	offers := syntheticOffers(1000)
	s, err := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}).settle()
	if err != nil {
		t.Fatal(err)
	}
	p := Planner{Offers: offers}
	in, err := p.resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	run := newServeRun()
	w := newSweep(&s, &p, in)
	if err := s.serveOffers(w, run); err != nil {
		t.Fatal(err)
	}
	cards := map[string]bool{}
	for _, i := range in.kept {
		cards[in.cards[i].ID] = true
	}
	if len(run.byKey) > 4*len(cards) || w.considered < 1000 {
		t.Errorf("%d replicas worked out for %d cards over %d candidates", len(run.byKey), len(cards), w.considered)
	}
}

func BenchmarkPlanServing1000(b *testing.B) {
	benchPlanner(b, Planner{Offers: syntheticOffers(1000)},
		servingRequest(b, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}))
}

// A serving request and option go through JSON and back unchanged, the targets
// as Go durations.
func TestServingJSON(t *testing.T) {
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"serving":{"requests_per_second":20,"prompt_tokens":1000,"output_tokens":300,"availability":0,"percentile":0,"prefix_share":0,"daily":null,"speculative":null,"ttft":"1s","tpot":"50ms"}`) {
		t.Errorf("request JSON %s", b)
	}
	var back Request
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(*back.Serving, *r.Serving) {
		t.Fatalf("read back %+v, %v", back.Serving, err)
	}
	if err := json.Unmarshal([]byte(`{"requests_per_second":1,"prompt_tokens":1,"output_tokens":1,"speed":2}`), new(Traffic)); !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("unknown field: %v", err)
	}
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.60", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	ob, err := json.Marshal(opts[0])
	if err != nil {
		t.Fatal(err)
	}
	var o Option
	if err := json.Unmarshal(ob, &o); err != nil {
		t.Fatal(err)
	}
	if o.Replicas != opts[0].Replicas || *o.Serving != *opts[0].Serving || !o.PerMillion.Amount.Equal(opts[0].PerMillion.Amount) || o.PerHour.Currency != "CNY" ||
		*o.Load != *opts[0].Load || !reflect.DeepEqual(o.Launch, opts[0].Launch) || len(o.Fleet) != 1 || o.Fleet[0].Replicas != o.Replicas ||
		!o.Fleet[0].Cost.Total.Amount.Equal(opts[0].Cost.Total.Amount) {
		t.Errorf("read back %+v", o)
	}
	for _, key := range []string{`"fleet":[{"offer":`, `"card_id":"rtx-4090","replicas":`, `"role":"serve","hours":24`, `"launch":[{"engine":"vllm","args":["vllm","serve","llama-3.1-8b"`, `"load":{"rate":`} {
		if !strings.Contains(string(ob), key) {
			t.Errorf("option JSON has no %s: %s", key, ob)
		}
	}
}

// A card name that leaves the board open is planned on the slowest board, and the
// option says what the fastest would need.
func TestServingBoardWarning(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "A100 80GB", 8, "9.90", "")}}
	opts, err := p.Plan(servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TPOT: 50 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	if o.CardID != "a100-pcie-80gb" || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "planned on the A100 PCIe 80GB, the slowest it may be; on the A100 SXM4 80GB: ") {
		t.Errorf("%s: warnings %q", o.CardID, o.Warnings)
	}
}

// The rate a replica's matrix multiplies run at: FP8 for FP8 weights where the
// card has FP8 tensor cores, the 16-bit rate otherwise (catalog figures, dense).
func TestServingPeak(t *testing.T) {
	for _, tc := range []struct {
		card    string
		weights sizing.Precision
		at      sizing.Precision
	}{
		{"H100 SXM5 80GB", sizing.FP8, sizing.FP8},
		{"H100 SXM5 80GB", sizing.BF16, sizing.BF16},
		{"A100 SXM4 80GB", sizing.FP8, sizing.BF16},
		{"RTX 4090", sizing.AWQ4, sizing.BF16},
		{"V100 SXM2 32GB", sizing.FP16, sizing.FP16},
		{"V100 SXM2 32GB", sizing.BF16, sizing.FP16},
	} {
		card, err := catalog.Default().Lookup(tc.card)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := card.Peak(tc.at)
		if got := servingPeak(card, tc.weights); !ok || got != want {
			t.Errorf("%s with %v weights: %v, want the %v rate %v", tc.card, tc.weights, got, tc.at, want)
		}
	}
}

// PerHour divides by the rental's whole length, not its whole seconds: an hour
// and half a second at 3600 an hour, billed per second, costs 3601 (3600.5 s
// rounded up to 3601 s), which is 3601 × 3600 / 3600.5 = 3600.4999… → 3600.50 an
// hour, not 3601.00; the per-million figure likewise.
func TestServingPerHourFractionalSecond(t *testing.T) {
	tr := Traffic{Rate: 1, PromptTokens: 1000, OutputTokens: 300}
	r := servingRequest(t, "llama-3.1-8b", tr)
	r.Usage = time.Hour + 500*time.Millisecond
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 8, "3600", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	if o.Replicas != 1 || o.GPUs != 1 {
		t.Fatalf("%d replicas on %d GPUs, want 1 on 1", o.Replicas, o.GPUs)
	}
	if got := o.Cost.Total.Amount.StringFixed(2); got != "3601.00" {
		t.Fatalf("cost %s, want 3601.00", got)
	}
	if got := o.PerHour.Amount.StringFixed(2); got != "3600.50" {
		t.Errorf("per hour %s, want 3600.50", got)
	}
	// 300 tokens/s is 1.08 million an hour: 3600.4999… / 1.08 = 3333.7962… → 3333.80.
	if got := o.PerMillion.Amount.StringFixed(2); got != "3333.80" {
		t.Errorf("per million %s, want 3333.80", got)
	}
}

// The memory an option shows is the memory compute.Serving sized it by: each
// sequence holds its 1000 + 300 tokens in whole blocks of 16, 1312 tokens, so the
// 40 sequence slots of Llama-3.1-8B on one RTX 4090 hold 40 × 1312 × 32 layers ×
// 8 KV heads × 128 × 2 (keys and values) × 2 bytes = 6,878,658,560 bytes of KV
// cache.
func TestServingMemoryInWholeBlocks(t *testing.T) {
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 1, PromptTokens: 1000, OutputTokens: 300})
	r.GPUs = 1
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.60", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	if got := o.PerGPU.KVCache; got != 6_878_658_560 {
		t.Errorf("KV cache per GPU %d bytes, want 6878658560 (40 slots)", got)
	}
	if args := o.Launch[0].Args; !slices.Contains(args, "--max-num-seqs") || args[slices.Index(args, "--max-num-seqs")+1] != "40" {
		t.Errorf("launch %q, want 40 sequence slots", args)
	}
}

// dayProfile is a day of traffic as many services see it: quiet at night, a
// peak late in the morning, most of the day above half of it.
var dayProfile = []float64{0.2, 0.15, 0.1, 0.1, 0.1, 0.15, 0.3, 0.5, 0.7, 0.9, 1.0, 1.0,
	0.9, 0.9, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25}

func BenchmarkPlanServingMix1000(b *testing.B) {
	r := servingRequest(b, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second,
		TPOT: 50 * time.Millisecond, Daily: dayProfile})
	r.Mix = true
	benchPlanner(b, Planner{Offers: syntheticOffers(1000)}, r)
}
