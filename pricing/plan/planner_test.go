package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gpuplan/gpuplan/pricing"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// planOffer is a one-line offer for planner tests: hourly and monthly prices in CNY
// as strings ("" for not offered).
func planOffer(provider, card string, maxGPUs int, hourly, monthly string) pricing.Offer {
	t := pricing.Tariff{Currency: "CNY"}
	if hourly != "" {
		t.Hourly = decimal.RequireFromString(hourly)
	}
	if monthly != "" {
		t.Monthly = decimal.RequireFromString(monthly)
	}
	return pricing.Offer{Provider: provider, Region: "cn-hangzhou", Card: card, MaxGPUs: maxGPUs, Tariff: t}
}

func mustPreset(t testing.TB, name string) sizing.Model {
	t.Helper()
	m, err := sizing.Preset(name)
	if err != nil {
		t.Fatalf("Preset(%q): %v", name, err)
	}
	return m
}

func inference(p sizing.Precision, ctx int) sizing.Workload {
	return sizing.Workload{Task: sizing.Inference, Precision: p, Batch: 1, SeqLen: ctx, EagerAttention: true}
}

// The second article: a 7B model in FP16/BF16 runs on one 24 GB card (RTX 4090).
func TestPlan7BInferenceFitsOne24GBCard(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.80", "")}}
	for _, name := range []string{"llama-2-7b", "llama-3-8b", "qwen2-7b", "mistral-7b"} {
		t.Run(name, func(t *testing.T) {
			opts, err := p.Plan(Request{Model: mustPreset(t, name), Workload: inference(sizing.BF16, 4096)})
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if len(opts) != 1 || opts[0].GPUs != 1 {
				t.Fatalf("got %d options (first with %d GPUs), want one option on one GPU", len(opts), opts[0].GPUs)
			}
			o := opts[0]
			if o.Headroom < DefaultHeadroom {
				t.Errorf("headroom %.3f, want at least %.2f", o.Headroom, DefaultHeadroom)
			}
			if o.Capacity != 24564*sizing.MiB {
				t.Errorf("capacity %v, want 24564MiB (nvidia-smi's RTX 4090)", o.Capacity)
			}
			// Memory only: one hour is priced.
			if got, want := o.Cost.Total.Amount, decimal.RequireFromString("1.80"); !got.Equal(want) {
				t.Errorf("cost %v, want %v for the default hour", got, want)
			}
		})
	}
}

// 13B in FP16 needs 26 GB of weights alone: no 24 GB card holds it, and the planner
// says what would: a quantized format.
func TestPlan13BFP16DoesNotFitOne24GBCard(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.80", "")}}
	_, err := p.Plan(Request{Model: mustPreset(t, "llama-2-13b"), Workload: inference(sizing.FP16, 4096)})
	if !errors.Is(err, ErrNoFit) {
		t.Fatalf("Plan error %v, want ErrNoFit", err)
	}
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("error %T is not a *NoFitError", err)
	}
	if len(nf.Reasons) != 1 || !strings.Contains(nf.Reasons[0], "GeForce RTX 4090: needs at least") {
		t.Errorf("reasons %q, want one memory reason for the RTX 4090", nf.Reasons)
	}
	joined := strings.Join(nf.Suggestions, "; ")
	// FP8 weights (13.3 GB with the 16-bit embeddings) plus the 16-bit KV cache
	// of 4096 tokens (3.4 GB), activations and overhead come just over the 19.2 GiB
	// usable; Q6_K (6.56 bits per weight) is the widest format that fits.
	if !strings.Contains(joined, "weights in Q6_K fit one") {
		t.Errorf("suggestions %q, want Q6_K to fit one card", joined)
	}
	if !strings.Contains(joined, "2 × GeForce RTX 4090 fit") {
		t.Errorf("suggestions %q, want two cards", joined)
	}
}

// 70B in BF16 (138 GB of weights) needs several cards; eight RTX 4090s joined by
// PCIe only carry a warning, eight NVLinked A100s do not.
func TestPlan70BNeedsSeveralCards(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{
		planOffer("a", "RTX 4090", 8, "1.80", ""),
		planOffer("b", "A100 SXM4 80GB", 8, "12.00", ""),
	}}
	opts, err := p.Plan(Request{Model: mustPreset(t, "llama-2-70b"), Workload: inference(sizing.BF16, 4096), Tokens: 1e6})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var sawPCIe, sawNVLink bool
	for _, o := range opts {
		if o.GPUs < 2 {
			t.Errorf("%s fits 70B BF16 on %d GPU", o.CardID, o.GPUs)
		}
		warned := strings.Contains(strings.Join(o.Warnings, "|"), "without NVLink")
		switch o.CardID {
		case "rtx-4090":
			sawPCIe = true
			if o.GPUs < 8 {
				t.Errorf("RTX 4090 ×%d fits 70B BF16; 138 GB needs all 8", o.GPUs)
			}
			if !warned {
				t.Errorf("RTX 4090 ×%d (%s): no NVLink warning in %q", o.GPUs, DescribeLayout(o.Layout), o.Warnings)
			}
		case "a100-sxm4-80gb":
			sawNVLink = true
			if warned {
				t.Errorf("A100 SXM ×%d warned of missing NVLink: %q", o.GPUs, o.Warnings)
			}
		}
	}
	if !sawPCIe || !sawNVLink {
		t.Errorf("options cover RTX 4090: %v, A100: %v; want both", sawPCIe, sawNVLink)
	}
}

// 720 hours of use: ¥9000 a month beats 720 × ¥18 = ¥12,960 by the hour. 300 hours
// stay hourly (¥5400), under the 500-hour break-even.
func TestPlanUsagePicksMonthlyWhenCheaper(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "A100 SXM4 80GB", 1, "18", "9000")}}
	for _, tc := range []struct {
		name  string
		usage time.Duration
		total string
		item  string
	}{
		{"720 hours", 720 * time.Hour, "9000", "monthly"},
		{"300 hours", 300 * time.Hour, "5400", "hourly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts, err := p.Plan(Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 4096), Usage: tc.usage})
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			o := opts[0]
			if !o.Cost.Total.Amount.Equal(decimal.RequireFromString(tc.total)) {
				t.Errorf("cost %v, want %s", o.Cost.Total, tc.total)
			}
			if len(o.Cost.Lines) == 0 || o.Cost.Lines[0].Item != tc.item {
				t.Errorf("lines %+v, want a %s line", o.Cost.Lines, tc.item)
			}
			hourly := decimal.RequireFromString("18").Mul(decimal.NewFromInt(int64(tc.usage / time.Hour)))
			if !o.HourlyOnly.Total.Amount.Equal(hourly) {
				t.Errorf("hourly-only %v, want %v", o.HourlyOnly.Total, hourly)
			}
		})
	}
}

// trainingRequest is a LoRA fine-tune of Llama-2-7B on 200 million tokens,
// timed at the published MFU band (compute.PublishedMFU), as the tests of the
// planner's mechanics (ranking, pricing, skipping) assume: a time that scales
// with the GPUs' peak alone. The tests of compute's model of the step and of
// calibrations leave the band zero.
func trainingRequest(t testing.TB) Request {
	return Request{
		Model: mustPreset(t, "llama-2-7b"),
		Workload: sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048, ChunkedLoss: true,
			Recompute: sizing.FullRecompute},
		Tokens: 2e8,
		Band:   compute.PublishedMFU(),
	}
}

// A training job with a deadline only returns options that can meet it, and a
// deadline nothing can meet says so.
func TestPlanDeadline(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{
		planOffer("a", "RTX 4090", 8, "1.80", ""),
		planOffer("b", "A100 SXM4 80GB", 8, "12.00", ""),
		planOffer("c", "H100 SXM5 80GB", 8, "25.00", ""),
	}}
	r := trainingRequest(t)
	all, err := p.Plan(r)
	if err != nil {
		t.Fatalf("Plan without deadline: %v", err)
	}
	r.Deadline = 2 * time.Hour
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatalf("Plan with deadline: %v", err)
	}
	if len(opts) == 0 || len(opts) >= len(all) {
		t.Fatalf("%d options with a 2h deadline, %d without; want fewer but some", len(opts), len(all))
	}
	for _, o := range opts {
		if o.DurationLow > r.Deadline {
			t.Errorf("%s ×%d takes at least %v, past the %v deadline", o.CardID, o.GPUs, o.DurationLow, r.Deadline)
		}
		if o.Duration > r.Deadline && !strings.Contains(strings.Join(o.Warnings, "|"), "optimistic end") {
			t.Errorf("%s ×%d expected %v past the deadline without a warning", o.CardID, o.GPUs, o.Duration)
		}
	}
	r.Deadline = time.Minute
	_, err = p.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) || !strings.Contains(strings.Join(nf.Reasons, "|"), "past the 1m0s deadline") {
		t.Errorf("Plan with a 1-minute deadline: %v, want a NoFitError naming the deadline", err)
	}
}

func TestPlanBudget(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.80", "")}}
	r := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), Usage: 100 * time.Hour}
	r.Budget = pricing.Money{Amount: decimal.New(179, 0), Currency: "CNY"}
	_, err := p.Plan(r)
	if !errors.Is(err, ErrNoFit) || !strings.Contains(err.Error(), "over the CNY 179.00 budget") {
		t.Errorf("¥180 against a ¥179 budget: %v, want ErrNoFit naming the budget", err)
	}
	r.Budget.Amount = decimal.New(180, 0)
	if opts, err := p.Plan(r); err != nil || len(opts) != 1 {
		t.Errorf("¥180 against a ¥180 budget: %d options, %v; want one", len(opts), err)
	}
}

// Risk: an interruptible offer a little cheaper by the hour loses to a steady one
// once the expected reruns are counted.
func TestPlanInterruptionRisk(t *testing.T) {
	steady := planOffer("steady", "RTX 4090", 1, "2.00", "")
	spot := planOffer("spot", "RTX 4090", 1, "1.90", "")
	spot.Interruptible, spot.InterruptionsPerDay = true, 2
	r := trainingRequest(t)
	r.MaxGPUs = 1
	r.Checkpoint = 2 * time.Hour
	opts, err := Planner{Offers: []pricing.Offer{spot, steady}}.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if len(opts) != 2 {
		t.Fatalf("%d options, want 2", len(opts))
	}
	if opts[0].Offer.Provider != "steady" {
		t.Errorf("first option %s, want the steady offer", opts[0].Offer.Provider)
	}
	s := opts[1]
	if s.Offer.Provider != "spot" || s.Interruptions <= 0 || s.TimeLost <= 0 {
		t.Fatalf("spot option: interruptions %v, time lost %v", s.Interruptions, s.TimeLost)
	}
	// Two a day over the job; each costs half a checkpoint (1h) plus a restart.
	wantN := 2 * s.Duration.Hours() / 24
	if math.Abs(s.Interruptions-wantN) > 1e-9 {
		t.Errorf("interruptions %v, want %v", s.Interruptions, wantN)
	}
	wantLost := time.Duration(wantN * float64(time.Hour+DefaultRestart))
	if d := s.TimeLost - wantLost; d < -time.Microsecond || d > time.Microsecond {
		t.Errorf("time lost %v, want %v", s.TimeLost, wantLost)
	}
	if !s.ExpectedCost.Amount.GreaterThan(s.Cost.Total.Amount) {
		t.Errorf("expected cost %v not above cost %v", s.ExpectedCost, s.Cost.Total)
	}
}

func TestPlanMarketWarningAndWaste(t *testing.T) {
	offers := []pricing.Offer{
		planOffer("a", "RTX 4090", 1, "1.80", ""),
		planOffer("b", "RTX 4090", 1, "1.90", ""),
		planOffer("c", "RTX 4090", 1, "2.00", ""),
		planOffer("cheap", "RTX 4090", 1, "0.50", ""),
	}
	opts, err := Planner{Offers: offers}.Plan(Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), Usage: 10 * time.Hour})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if opts[0].Offer.Provider != "cheap" {
		t.Fatalf("first option %s, want the cheapest", opts[0].Offer.Provider)
	}
	if w := strings.Join(opts[0].Warnings, "|"); !strings.Contains(w, "below") {
		t.Errorf("cheap offer warnings %q, want a below-market warning", w)
	}
	for _, o := range opts[1:] {
		if strings.Contains(strings.Join(o.Warnings, "|"), "median") {
			t.Errorf("%s warned: %q", o.Offer.Provider, o.Warnings)
		}
	}
	// Waste: each option's cost less the cheapest (¥5.00).
	for _, o := range opts {
		want := o.Cost.Total.Amount.Sub(decimal.RequireFromString("5"))
		if !o.Waste.Amount.Equal(want) || o.Waste.Currency != "CNY" {
			t.Errorf("%s waste %v, want CNY %v", o.Offer.Provider, o.Waste, want)
		}
	}
}

func TestPlanBadInput(t *testing.T) {
	good := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048)}
	offer := planOffer("a", "RTX 4090", 1, "1.80", "")
	usd := offer
	usd.Tariff.Currency = "USD"
	for _, tc := range []struct {
		name   string
		p      Planner
		mutate func(*Request)
		want   error
	}{
		{"no offers", Planner{}, nil, pricing.ErrInvalid},
		{"unknown card", Planner{Offers: []pricing.Offer{planOffer("a", "RTX 9999", 1, "1", "")}}, nil, catalog.ErrNotFound},
		{"mixed currencies", Planner{Offers: []pricing.Offer{offer, usd}}, nil, pricing.ErrCurrencyMismatch},
		{"no rate for the only currency", Planner{Offers: []pricing.Offer{usd}, Rates: pricing.Rates{Base: "CNY", Per: map[string]decimal.Decimal{"EUR": decimal.New(8, 0)}}}, nil, pricing.ErrCurrencyMismatch},
		{"invalid tariff", Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "-1", "")}}, nil, pricing.ErrInvalid},
		{"budget currency", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Budget = pricing.Money{Amount: decimal.New(1, 0), Currency: "USD"} }, pricing.ErrCurrencyMismatch},
		{"negative headroom", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Headroom = -0.1 }, pricing.ErrInvalid},
		{"headroom 1", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Headroom = 1 }, pricing.ErrInvalid},
		{"NaN tokens", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Tokens = math.NaN() }, pricing.ErrInvalid},
		{"infinite tokens", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Tokens = math.Inf(1) }, pricing.ErrInvalid},
		{"negative usage", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Usage = -time.Hour }, pricing.ErrInvalid},
		{"deadline without tokens", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Deadline = time.Hour }, pricing.ErrInvalid},
		{"utilization over 1", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Utilization = 1.5 }, pricing.ErrInvalid},
		{"usage and rental", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Usage = time.Hour; r.Rental = pricing.DailySessions(time.Hour, 2) }, pricing.ErrInvalid},
		{"no task", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Workload.Task = 0 }, pricing.ErrInvalid},
		{"zero batch", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Workload.Batch = 0 }, pricing.ErrInvalid},
		{"empty model", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.Model = sizing.Model{} }, pricing.ErrInvalid},
		{"negative max gpus", Planner{Offers: []pricing.Offer{offer}}, func(r *Request) { r.MaxGPUs = -1 }, pricing.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := good
			if tc.mutate != nil {
				tc.mutate(&r)
			}
			opts, err := tc.p.Plan(r)
			if !errors.Is(err, tc.want) {
				t.Errorf("Plan() = %d options, %v; want an error wrapping %v", len(opts), err, tc.want)
			}
		})
	}
}

// A rental pattern replaces the job's duration: four hours a day for five days on
// an hourly tariff pays twenty hours.
func TestPlanRentalPattern(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "2", "")}}
	r := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), Rental: pricing.DailySessions(4*time.Hour, 5)}
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if got := opts[0].Cost.Total.Amount; !got.Equal(decimal.New(40, 0)) {
		t.Errorf("cost %v, want 40 (20 hours at 2)", got)
	}
}

// genPlanOffers draws offers of a few catalog cards with random prices.
func genPlanOffers(t *rapid.T, label string) []pricing.Offer {
	cards := []string{"rtx-4090", "a100-sxm4-80gb", "h100-sxm5-80gb", "l40s", "v100-sxm2-32gb", "t4", "a10", "rtx-3090"}
	n := rapid.IntRange(1, 6).Draw(t, label+"_count")
	offers := make([]pricing.Offer, n)
	for i := range offers {
		cents := rapid.Int64Range(50, 5000).Draw(t, fmt.Sprintf("%s_%d_hourly_cents", label, i))
		monthly := ""
		if rapid.Bool().Draw(t, fmt.Sprintf("%s_%d_has_monthly", label, i)) {
			monthly = decimal.New(cents*rapid.Int64Range(300, 730).Draw(t, fmt.Sprintf("%s_%d_month_hours", label, i)), -2).String()
		}
		offers[i] = planOffer(fmt.Sprintf("%s%d", label, i), rapid.SampledFrom(cards).Draw(t, fmt.Sprintf("%s_%d_card", label, i)),
			rapid.IntRange(1, 8).Draw(t, fmt.Sprintf("%s_%d_max_gpus", label, i)), decimal.New(cents, -2).String(), monthly)
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("%s_%d_interruptible", label, i)) == 0 {
			offers[i].Interruptible, offers[i].InterruptionsPerDay = true, 1
		}
	}
	return offers
}

func genPlanRequest(t *rapid.T) Request {
	m, _ := sizing.Preset(rapid.SampledFrom([]string{"llama-2-7b", "llama-3-8b", "mistral-7b", "llama-2-13b"}).Draw(t, "model"))
	task := rapid.SampledFrom([]sizing.Task{sizing.Inference, sizing.LoRA, sizing.QLoRA, sizing.Training}).Draw(t, "task")
	r := Request{
		Model: m,
		Workload: sizing.Workload{Task: task, Precision: sizing.BF16, Batch: rapid.IntRange(1, 8).Draw(t, "batch"),
			SeqLen: rapid.IntRange(128, 8192).Draw(t, "seq_len"), EagerAttention: rapid.Bool().Draw(t, "eager")},
		Headroom: float64(rapid.IntRange(0, 40).Draw(t, "headroom_pct")) / 100, // 0: the default
	}
	if rapid.Bool().Draw(t, "has_tokens") {
		r.Tokens = float64(rapid.IntRange(1, 1000).Draw(t, "mega_tokens")) * 1e6
	}
	if rapid.Bool().Draw(t, "has_usage") {
		r.Usage = time.Duration(rapid.IntRange(1, 2000).Draw(t, "usage_hours")) * time.Hour
	}
	return r
}

// Every option fits with the requested headroom; options come sorted by expected
// cost; adding an offer never makes the best option more expensive.
func TestPlanProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genPlanRequest(t)
		offers := genPlanOffers(t, "o")
		opts, err := Planner{Offers: offers}.Plan(r)
		if err != nil && !errors.Is(err, ErrNoFit) {
			t.Fatalf("Plan: %v", err)
		}
		headroom := r.Headroom
		if headroom == 0 {
			headroom = DefaultHeadroom
		}
		for i, o := range opts {
			limit := sizing.Bytes(float64(o.Capacity) * (1 - headroom))
			if o.PerGPU.Total() > limit {
				t.Fatalf("option %d: %v per GPU over %v (capacity %v, headroom %v)", i, o.PerGPU.Total(), limit, o.Capacity, headroom)
			}
			if o.Headroom < headroom-1e-9 {
				t.Fatalf("option %d: headroom %v under %v", i, o.Headroom, headroom)
			}
			if i > 0 && o.ExpectedCost.Amount.LessThan(opts[i-1].ExpectedCost.Amount) {
				t.Fatalf("option %d costs %v, less than option %d's %v", i, o.ExpectedCost, i-1, opts[i-1].ExpectedCost)
			}
			if o.Waste.Amount.IsNegative() {
				t.Fatalf("option %d: negative waste %v", i, o.Waste)
			}
		}
		extra := genPlanOffers(t, "x")
		more, err := Planner{Offers: append(append([]pricing.Offer{}, offers...), extra...)}.Plan(r)
		if err != nil && !errors.Is(err, ErrNoFit) {
			t.Fatalf("Plan with more offers: %v", err)
		}
		if len(opts) > 0 {
			if len(more) == 0 {
				t.Fatalf("adding offers removed every option")
			}
			if more[0].ExpectedCost.Amount.GreaterThan(opts[0].ExpectedCost.Amount) {
				t.Fatalf("best expected cost rose from %v to %v when offers were added", opts[0].ExpectedCost, more[0].ExpectedCost)
			}
		}
	})
}

// A rental shorter than the job cannot finish it: such options are left out, and
// the error names the fastest option there was.
func TestPlanRentalShorterThanJob(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 1, "22", "")}}
	r := trainingRequest(t)
	r.Usage = time.Hour
	_, err := p.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("Plan with a 1h rental for a longer job: %v, want a NoFitError", err)
	}
	if got := strings.Join(nf.Reasons, "|"); !strings.Contains(got, "longer than the 1h0m0s the rental covers") {
		t.Errorf("reasons %q, want the rental's length named", got)
	}
	if got := strings.Join(nf.Suggestions, "|"); !strings.Contains(got, "the fastest option is 1 × H100 SXM5 80GB") {
		t.Errorf("suggestions %q, want the fastest option named", got)
	}
	r.Usage = 100 * time.Hour
	if opts, err := p.Plan(r); err != nil || len(opts) != 1 {
		t.Errorf("Plan with a 100h rental: %d options, %v; want one", len(opts), err)
	}
}

// Interruptions on a monthly package: the lost time fits inside the month already
// bought, so the expected cost is the month, not two.
func TestPlanInterruptionsInsideAPackage(t *testing.T) {
	o := planOffer("monthly-only", "H100 SXM5 80GB", 1, "", "9000")
	o.Interruptible, o.InterruptionsPerDay = true, 2
	r := trainingRequest(t)
	r.Tokens = 1e9
	opts, err := Planner{Offers: []pricing.Offer{o}}.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	got := opts[0]
	if got.TimeLost <= 0 || got.Duration+got.TimeLost > 730*time.Hour {
		t.Fatalf("duration %v + lost %v: want some loss inside one month", got.Duration, got.TimeLost)
	}
	nine := decimal.New(9000, 0)
	if !got.Cost.Total.Amount.Equal(nine) || !got.ExpectedCost.Amount.Equal(nine) {
		t.Errorf("cost %v, expected %v; want 9000 for both", got.Cost.Total, got.ExpectedCost)
	}
}

// Tensor-parallel inference over PCIe pays for its all-reduces: the efficiency
// is under 1; over NVLink the same tokens spend less time in them (the
// efficiencies themselves are not comparable across cards: the A100's faster
// memory makes its weight read the shorter, so the same all-reduces are a
// larger share of its step).
func TestPlanTensorParallelInferenceComm(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.80", ""), planOffer("b", "A100 SXM4 80GB", 8, "12", "")}}
	r := Request{Model: mustPreset(t, "llama-2-70b"), Workload: inference(sizing.BF16, 4096), Tokens: 1e6, EveryCount: true, Limit: -1}
	r.Workload.Batch = 4
	r.Workload.EagerAttention = false
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	eff, comm := map[string]float64{}, map[string]time.Duration{}
	for _, o := range opts {
		if o.Layout.Tensor == 8 {
			eff[o.CardID] = o.Efficiency
			comm[o.CardID] = time.Duration(float64(o.Duration) * (1 - o.Efficiency))
		}
	}
	for _, id := range []string{"rtx-4090", "a100-sxm4-80gb"} {
		if e := eff[id]; !(e > 0 && e < 1) {
			t.Errorf("%s ×8 tensor parallel efficiency %v, want between 0 and 1", id, e)
		}
	}
	if comm["a100-sxm4-80gb"] >= comm["rtx-4090"] {
		t.Errorf("all-reduces over NVLink take %v, over PCIe %v: want NVLink the shorter", comm["a100-sxm4-80gb"], comm["rtx-4090"])
	}
}

// A deadline nothing meets: the suggestion is the fastest option, not a
// smaller format (memory was never the problem).
func TestPlanDeadlineSuggestion(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "A100 SXM4 80GB", 2, "12", "")}}
	r := trainingRequest(t)
	r.Deadline = time.Minute
	_, err := p.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("Plan: %v, want a NoFitError", err)
	}
	got := strings.Join(nf.Suggestions, "|")
	if !strings.Contains(got, "the fastest option is 2 × A100 SXM4 80GB") || strings.Contains(got, "fit one") {
		t.Errorf("suggestions %q, want only the fastest option", got)
	}
}

// Large offers are tried at every count up to one server, then doubling up to
// the limit, and never past MaxPlanGPUs.
func TestPlanGPUCounts(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("big", "H100 SXM5 80GB", 100000, "22", "")}}
	r := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), EveryCount: true, Limit: -1}
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var counts []int
	for _, o := range opts {
		counts = append(counts, o.GPUs)
	}
	want := []int{1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 128, 256, 512, 1024}
	if len(counts) != len(want) {
		t.Fatalf("GPU counts %v, want %v", counts, want)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Fatalf("GPU counts %v, want %v", counts, want)
		}
	}
	if w := strings.Join(opts[len(opts)-1].Warnings, "|"); !strings.Contains(w, "span 128 servers") {
		t.Errorf("1024-GPU warnings %q, want the servers it spans", w)
	}
}

func TestNextCount(t *testing.T) {
	for _, tc := range []struct {
		limit int
		want  []int
	}{
		{1, []int{1}},
		{8, []int{1, 2, 3, 4, 5, 6, 7, 8}},
		{12, []int{1, 2, 3, 4, 5, 6, 7, 8, 12}},
		{40, []int{1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 40}},
	} {
		var got []int
		for n := 1; n <= tc.limit; n = nextCount(n, tc.limit) {
			got = append(got, n)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("counts up to %d: %v, want %v", tc.limit, got, tc.want)
		}
	}
}

// A card without a published rate for the precision (the A10G's tensor rates) is
// timed at its FP32 rate, with a warning, rather than dropped.
func TestPlanUnpublishedRate(t *testing.T) {
	r := trainingRequest(t)
	r.Workload.Overhead = sizing.GiB // the A10G's 24 GiB hold the request with a 1 GiB allowance
	opts, err := Planner{Offers: []pricing.Offer{planOffer("aws-like", "A10G", 1, "7", "")}}.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if w := strings.Join(opts[0].Warnings, "|"); !strings.Contains(w, "no published BF16 rate: timed at its FP32 rate") {
		t.Errorf("warnings %q, want the FP32 floor named", w)
	}
}

// An interruptible offer that meets the deadline only without its interruptions
// says so.
func TestPlanDeadlineWithInterruptions(t *testing.T) {
	spot := planOffer("spot", "A100 SXM4 80GB", 1, "5", "")
	spot.Interruptible, spot.InterruptionsPerDay = true, 4
	r := trainingRequest(t)
	r.Tokens = 3e8
	r.MaxGPUs = 1
	opts, err := Planner{Offers: []pricing.Offer{spot}}.Plan(r)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	o := opts[0]
	if o.TimeLost <= 0 {
		t.Fatalf("no time lost for an interruptible offer")
	}
	r.Deadline = o.Duration + o.TimeLost/2 // met without interruptions, missed with them
	_, err = Planner{Offers: []pricing.Offer{spot}}.Plan(r)
	if !errors.Is(err, ErrNoFit) {
		t.Fatalf("Plan with a deadline missed only with interruptions: %v, want ErrNoFit", err)
	}
	r.Deadline = o.Duration + o.TimeLost // met with them
	if opts, err = (Planner{Offers: []pricing.Offer{spot}}).Plan(r); err != nil || len(opts) != 1 {
		t.Fatalf("Plan with a deadline met with interruptions: %d options, %v", len(opts), err)
	}
}

// A job too large to time is refused with its reason, and no format or card
// count is suggested, since memory was not the problem.
func TestPlanWorkTooLarge(t *testing.T) {
	r := trainingRequest(t)
	r.Tokens = 1e30
	_, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.6", "")}}.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("Plan: %v, want a NoFitError", err)
	}
	if len(nf.Suggestions) != 0 {
		t.Errorf("suggestions %q for a job too long to time, want none", nf.Suggestions)
	}
	if got := strings.Join(nf.Reasons, "|"); !strings.Contains(got, "GeForce RTX 4090") {
		t.Errorf("reasons %q, want the card named", got)
	}
}

// Memory-only plans have no scaling efficiency to report.
func TestPlanMemoryOnlyWarningHasNoEfficiency(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 8, "1.80", "")}}
	opts, err := p.Plan(Request{Model: mustPreset(t, "llama-2-70b"), Workload: inference(sizing.BF16, 4096)})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	for _, o := range opts {
		w := strings.Join(o.Warnings, "|")
		if !strings.Contains(w, "without NVLink") || strings.Contains(w, "scaling efficiency") {
			t.Errorf("%d GPUs: warnings %q, want the missing NVLink named without an efficiency", o.GPUs, w)
		}
	}
}

// A request survives a JSON round trip, its zero budget included.
func TestRequestJSONRoundTrip(t *testing.T) {
	r := trainingRequest(t)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Request
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Unmarshal(%s): %v", b, err)
	}
	if back.Model != r.Model || back.Workload != r.Workload || back.Tokens != r.Tokens || !back.Budget.IsZero() || back.Budget.Currency != "" {
		t.Errorf("round trip changed the request:\n got %+v\nwant %+v", back, r)
	}
}

// An offer that cannot serve the rental (a trial on a tariff without an hourly
// price) is named once, not once per GPU count.
func TestPlanUnavailableNamedOnce(t *testing.T) {
	o := planOffer("monthly-only", "RTX 4090", 8, "", "900")
	r := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), Rental: pricing.TrialThen(time.Hour, 100*time.Hour)}
	_, err := Planner{Offers: []pricing.Offer{o}}.Plan(r)
	var nf *NoFitError
	if !errors.As(err, &nf) {
		t.Fatalf("Plan: %v, want a NoFitError", err)
	}
	if want := "monthly-only/cn-hangzhou RTX 4090: pricing: a trial needs an hourly price: offer cannot serve this usage"; len(nf.Reasons) != 1 || nf.Reasons[0] != want {
		t.Errorf("reasons %q, want one reason naming the offer, %q", nf.Reasons, want)
	}
}

// Inference tensor parallelism stays inside a server: 16 GPUs fall back to
// pipeline stages.
func TestPlanTensorParallelWithinServer(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 16, "1.80", "")}}
	opts, err := p.Plan(Request{Model: mustPreset(t, "llama-2-70b"), Workload: inference(sizing.BF16, 4096)})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	for _, o := range opts {
		if o.Layout.Tensor > GPUsPerServer {
			t.Errorf("%d GPUs: tensor parallel ×%d across servers", o.GPUs, o.Layout.Tensor)
		}
		if o.GPUs == 16 && o.Layout.Pipeline != 16 {
			t.Errorf("16 GPUs: layout %s, want pipeline ×16", DescribeLayout(o.Layout))
		}
	}
}

// Shuffling the offers does not change the ranking, even between names of one
// card from one provider.
func TestPlanOrderIndependent(t *testing.T) {
	offers := []pricing.Offer{
		planOffer("p", "A100 SXM4 80GB", 2, "10", ""),
		planOffer("p", "NVIDIA A100-SXM4-80GB", 2, "10", ""),
		planOffer("q", "RTX 4090", 2, "1.8", ""),
		planOffer("q", "4090", 2, "1.8", ""),
	}
	r := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 2048), Usage: 10 * time.Hour}
	describe := func(opts []Option) string {
		var b strings.Builder
		for _, o := range opts {
			fmt.Fprintf(&b, "%s|%s|%d|%s\n", o.Offer.Provider, o.Offer.Card, o.GPUs, o.ExpectedCost)
		}
		return b.String()
	}
	first, err := Planner{Offers: offers}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	rev := []pricing.Offer{offers[3], offers[2], offers[1], offers[0]}
	second, err := Planner{Offers: rev}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := describe(first), describe(second); a != b {
		t.Errorf("order depends on the offer list:\n%s\nvs\n%s", a, b)
	}
}

// Inference split into pipeline stages without NVLink is warned about too, in
// its own words: stages pass one token's activations, so PCIe costs latency.
func TestPlanPipelineWithoutNVLink(t *testing.T) {
	// Llama-2-13B in FP16 (26 GB of weights) needs more than one 24 GB card; 40
	// heads do not split three ways, so three cards are three pipeline stages.
	p := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 3, "1.80", "")}}
	r := Request{Model: mustPreset(t, "llama-2-13b"), Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.FP16, Batch: 1, SeqLen: 2048}, EveryCount: true}
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	var three *Option
	for i := range opts {
		if opts[i].GPUs == 3 {
			three = &opts[i]
		}
	}
	if three == nil || three.Layout.Pipeline != 3 {
		t.Fatalf("options %+v, want one of three pipeline stages", opts)
	}
	if w := strings.Join(three.Warnings, "\n"); !strings.Contains(w, "3 GPUs without NVLink: the 3 pipeline stages pass activations over PCIe") {
		t.Errorf("warnings %q, want the pipeline's PCIe note", three.Warnings)
	}
}

// Offers with the same tariff (a provider's regions) are priced once and share
// the quotes, but each option gets lines of its own.
func TestPlanSharedTariff(t *testing.T) {
	a := planOffer("p", "RTX 4090", 1, "1.80", "900")
	b := a
	b.Region = "cn-beijing"
	single := planOffer("q", "RTX 4090", 1, "1.90", "900")
	opts, err := Planner{Offers: []pricing.Offer{a, b, single}}.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	byRegion := map[string]*Option{}
	for i := range opts {
		if opts[i].Offer.Provider == "p" && opts[i].GPUs == 1 {
			byRegion[opts[i].Offer.Region] = &opts[i]
		}
	}
	hz, bj := byRegion["cn-hangzhou"], byRegion["cn-beijing"]
	if hz == nil || bj == nil {
		t.Fatalf("options %v, want one GPU in each region", opts)
	}
	if !hz.Cost.Total.Amount.Equal(bj.Cost.Total.Amount) || len(hz.Cost.Lines) == 0 || len(hz.Cost.Lines) != len(bj.Cost.Lines) {
		t.Fatalf("same tariff, different quotes: %v and %v", hz.Cost, bj.Cost)
	}
	hz.Cost.Lines[0].Item = "changed"
	if bj.Cost.Lines[0].Item == "changed" {
		t.Errorf("options share their line slices")
	}
}

// An offer in a Tier I or II datacenter warns of the outages a long job can expect
// (the second seed article's stability concern); Tier III and up do not.
func TestPlanTierWarning(t *testing.T) {
	low := planOffer("low", "RTX 4090", 1, "1.20", "")
	low.Tier = "T2"
	high := planOffer("high", "RTX 4090", 1, "1.60", "")
	high.Tier = "T3"
	opts, err := Planner{Offers: []pricing.Offer{low, high}}.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 2 {
		t.Fatalf("%d options, want one per offer", len(opts))
	}
	for _, o := range opts {
		w := strings.Join(o.Warnings, "\n")
		got := strings.Contains(w, "datacenter tier T2: 99.741% design availability")
		if got != (o.Offer.Provider == "low") {
			t.Errorf("%s (tier %s): warnings %q", o.Offer.Provider, o.Offer.Tier, o.Warnings)
		}
		if o.Offer.Provider == "low" {
			// The job's duration × (1 − 0.99741).
			want := roundDur(time.Duration(float64(o.Duration) * (1 - 0.99741)))
			if !strings.Contains(w, "about "+want.String()+" of site outage") {
				t.Errorf("warnings %q, want about %s of outage", o.Warnings, want)
			}
		}
	}
}

// A Tier II offer with an outage rate weighs it in the expected cost, calls the
// interruptions outages, and drops the hint to give a rate.
func TestPlanTierWithOutageRate(t *testing.T) {
	o := planOffer("low", "RTX 4090", 1, "1.20", "")
	o.Tier, o.InterruptionsPerDay = "Tier II", 0.2
	opts, err := Planner{Offers: []pricing.Offer{o}}.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(opts[0].Warnings, "\n")
	if !strings.Contains(w, "outages: about") || strings.Contains(w, "interruptible:") || strings.Contains(w, "give InterruptionsPerDay") {
		t.Errorf("warnings %q, want outages weighed and no hint", opts[0].Warnings)
	}
	if !opts[0].ExpectedCost.Amount.GreaterThan(opts[0].Cost.Total.Amount) {
		t.Errorf("expected cost %v, want more than the rental %v", opts[0].ExpectedCost, opts[0].Cost.Total)
	}
}

// A rental the request sets that holds the expected run but not the slow end
// of the utilization band says the job may not finish within it; one that
// holds the whole band says nothing of it.
func TestPlanRentalShorterThanBand(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{planOffer("a", "A100 SXM4 80GB", 1, "9.90", "")}}
	req := trainingRequest(t)
	req.GPUs = 1
	opts, err := p.Plan(req)
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	if o.DurationHigh <= o.Duration {
		t.Fatalf("band %v to %v around %v: want a slow end past the expected time", o.DurationLow, o.DurationHigh, o.Duration)
	}
	for _, tc := range []struct {
		usage time.Duration
		warn  bool
	}{{(o.Duration + o.DurationHigh) / 2, true}, {o.DurationHigh + time.Hour, false}} {
		req.Usage = tc.usage.Round(time.Minute)
		opts, err := p.Plan(req)
		if err != nil {
			t.Fatalf("usage %v: %v", req.Usage, err)
		}
		got := strings.Contains(strings.Join(opts[0].Warnings, "\n"), "past the "+roundDur(req.Usage).String()+" rented")
		if got != tc.warn {
			t.Errorf("usage %v, band up to %v: warnings %q; want the rental's shortfall said: %v", req.Usage, o.DurationHigh, opts[0].Warnings, tc.warn)
		}
	}
}

// A reliable machine's outages, under 0.01 expected over the job, draw no
// warning (vast.ai's 0.9999-reliability hosts read "costing 0s of rerun and
// restart (USD 0.01)"); interruptible capacity at the same rate still says it
// is interruptible, and the expected cost weighs both.
func TestPlanNegligibleOutages(t *testing.T) {
	for _, spot := range []bool{false, true} {
		o := planOffer("host", "RTX 4090", 1, "1.20", "")
		o.InterruptionsPerDay, o.Interruptible = 0.0001, spot
		opts, err := Planner{Offers: []pricing.Offer{o}}.Plan(trainingRequest(t))
		if err != nil {
			t.Fatal(err)
		}
		w := strings.Join(opts[0].Warnings, "\n")
		if strings.Contains(w, "outages:") {
			t.Errorf("interruptible %v: warnings %q, want no warning of negligible outages", spot, opts[0].Warnings)
		}
		if got := strings.Contains(w, "interruptible: under 0.01 interruptions expected"); got != spot {
			t.Errorf("interruptible %v: warnings %q; want the interruptible warning only on interruptible capacity", spot, opts[0].Warnings)
		}
	}
}

// The link the planner names for n GPUs of a card in servers of 8 is the
// catalog's own name for the link inside one server: past one server, the
// server's (the network between servers is compute.Job's for the rings that
// cross them).
func TestLinkForNames(t *testing.T) {
	for _, tc := range []struct {
		card   string
		n      int
		nvlink bool
		name   string
	}{
		{"h100-sxm5-80gb", 8, true, "NVLink"},
		{"h100-nvl-94gb", 2, true, "NVLink bridge"},
		{"h100-nvl-94gb", 4, false, "PCIe Gen5"},
		{"mi300x", 8, true, "Infinity Fabric"},
		{"ascend-910b2", 8, true, "HCCS"},
		{"rtx-4090", 2, false, "PCIe Gen4"},
		{"h100-sxm5-80gb", 16, true, "NVLink"},
		{"rtx-4090", 16, false, "PCIe Gen4"},
	} {
		c, err := catalog.Default().Lookup(tc.card)
		if err != nil {
			t.Fatal(err)
		}
		if _, nvlink, name := linkFor(c, tc.n, GPUsPerServer); nvlink != tc.nvlink || name != tc.name {
			t.Errorf("linkFor(%s, %d) = %v, %q; want %v, %q", tc.card, tc.n, nvlink, name, tc.nvlink, tc.name)
		}
	}
}
