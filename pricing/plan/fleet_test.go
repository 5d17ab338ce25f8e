package plan

import (
	"errors"
	"fmt"
	"math"
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

// replicaOf is the replica the planner serves tr on: t GPUs of card, as
// replica builds it.
func replicaOf(t testing.TB, model, card string, tp int, tr Traffic, w sizing.Workload) compute.Serving {
	t.Helper()
	c, err := catalog.Default().Lookup(card)
	if err != nil {
		t.Fatal(err)
	}
	return compute.Serving{Model: mustPreset(t, model), Weights: w.Precision, KV: w.KVPrecision, Devices: tp,
		Memory: c.Memory, Bandwidth: c.MemoryBandwidth, Peak: servingPeak(c, w.Precision), Link: servingLink(c, tp),
		PromptTokens: tr.PromptTokens, OutputTokens: tr.OutputTokens, Arch: c.Architecture,
		PrefixShare: tr.PrefixShare, Speculative: tr.Speculative}
}

// capacityOf is what one replica completes a second with every slot busy.
func capacityOf(t testing.TB, sv compute.Serving) float64 {
	t.Helper()
	p, err := sv.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Capacity()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Bad traffic is an error naming its field.
func TestTrafficErrors(t *testing.T) {
	ok := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300}
	flat := make([]float64, 24)
	for i := range flat {
		flat[i] = 1
	}
	with := func(edit func(d []float64)) []float64 {
		d := slices.Clone(flat)
		edit(d)
		return d
	}
	draft := mustPreset(t, "llama-3.2-1b")
	for _, tc := range []struct {
		name, field string
		edit        func(tr *Traffic)
	}{
		{"percentile 1", "percentile 1", func(tr *Traffic) { tr.Percentile = 1 }},
		{"percentile negative", "percentile -0.5", func(tr *Traffic) { tr.Percentile = -0.5 }},
		{"percentile NaN", "percentile NaN", func(tr *Traffic) { tr.Percentile = math.NaN() }},
		{"percentile 0.95", "percentile 0.95", func(tr *Traffic) { tr.Percentile = 0.95 }},
		{"prefix 1", "prefix_share 1", func(tr *Traffic) { tr.PrefixShare = 1 }},
		{"prefix negative", "prefix_share -0.1", func(tr *Traffic) { tr.PrefixShare = -0.1 }},
		{"daily 23 values", "daily: 23 values", func(tr *Traffic) { tr.Daily = flat[:23] }},
		{"daily 25 values", "daily: 25 values", func(tr *Traffic) { tr.Daily = append(slices.Clone(flat), 1) }},
		{"daily negative", "daily[3] -0.5", func(tr *Traffic) { tr.Daily = with(func(d []float64) { d[3] = -0.5 }) }},
		{"daily over 1", "daily[7] 2", func(tr *Traffic) { tr.Daily = with(func(d []float64) { d[7] = 2 }) }},
		{"daily NaN", "daily[0] NaN", func(tr *Traffic) { tr.Daily = with(func(d []float64) { d[0] = math.NaN() }) }},
		{"daily largest not 1", "the largest value is 0.8", func(tr *Traffic) {
			tr.Daily = with(func(d []float64) {
				for i := range d {
					d[i] = 0.8
				}
			})
		}},
		{"acceptance", "speculative.acceptance 1.5", func(tr *Traffic) {
			tr.Speculative = &compute.Speculation{Draft: draft, Tokens: 4, Acceptance: 1.5}
		}},
		{"draft tokens", "speculative.tokens -1", func(tr *Traffic) {
			tr.Speculative = &compute.Speculation{Draft: draft, Tokens: -1, Acceptance: 0.5}
		}},
		{"draft without a name", "speculative.draft has no name", func(tr *Traffic) {
			tr.Speculative = &compute.Speculation{Draft: sizing.Model{Params: 1e9}, Tokens: 4, Acceptance: 0.5}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := ok
			tc.edit(&tr)
			err := tr.Validate()
			if !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("Validate() = %v; want ErrInvalid naming %q", err, tc.field)
			}
			r := servingRequest(t, "llama-3.1-8b", tr)
			if _, err := (Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 8, "20", "")}}).Plan(r); !errors.Is(err, pricing.ErrInvalid) {
				t.Errorf("Plan: %v, want ErrInvalid", err)
			}
		})
	}
	// A daily profile sets the rental: a rental pattern beside it is refused,
	// and so is Mix on a job or beside a pinned replica.
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, Daily: flat})
	r.Rental = pricing.DailySessions(8*time.Hour, 30)
	if err := r.Validate(); !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "daily profile") {
		t.Errorf("daily with a rental: %v", err)
	}
	r = servingRequest(t, "llama-3.1-8b", ok)
	r.Mix, r.GPUs = true, 2
	if err := r.Validate(); !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "mix") {
		t.Errorf("mix with gpus: %v", err)
	}
	job := trainingRequest(t)
	job.Mix = true
	if err := job.Validate(); !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "mix") {
		t.Errorf("mix on a job: %v", err)
	}
}

// A rate past what the replicas sustain is no error: the pair's load says
// Stable false.
func TestOverloadIsUnstableNotAnError(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300}
	sv := replicaOf(t, "llama-3.1-8b", "RTX 4090", 1, tr, sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16})
	lp, err := sv.Under(2 * capacityOf(t, sv))
	if err != nil || lp.Stable {
		t.Errorf("Under past the capacity: %+v, %v; want unstable, no error", lp, err)
	}
}

// A daily profile half of the day at half the peak: with no targets each
// replica carries up to its capacity, so the peak of 20 requests a second
// needs ⌈20/c⌉ one-GPU replicas and the quiet hours ⌈10/c⌉ (c the replica's
// capacity, from compute). On an hourly tariff the replicas the quiet hours
// do not need are rented 12 hours a day as daily sessions; over 30 days at
// 1.60 an hour that is base × 720 h + extra × 360 h, exactly, and the cost an
// hour divides it by the 720 hours rented.
func TestDailyFleet(t *testing.T) {
	daily := make([]float64, 24)
	for h := range daily {
		daily[h] = 0.5
		if h >= 12 {
			daily[h] = 1
		}
	}
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, Daily: daily}
	r := servingRequest(t, "llama-3.1-8b", tr)
	r.GPUs = 1
	c := capacityOf(t, replicaOf(t, "llama-3.1-8b", "RTX 4090", 1, tr, r.Workload))
	peak, quiet := fewest(20, math.Nextafter(c, 0)), fewest(10, math.Nextafter(c, 0))
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 64, "1.60", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	want := []Group{{Replicas: quiet, Hours: 24}, {Replicas: peak - quiet, Hours: 12}}
	if len(o.Fleet) != 2 {
		t.Fatalf("fleet %+v, want %d all day and %d for 12 hours", o.Fleet, quiet, peak-quiet)
	}
	for j, g := range o.Fleet {
		if g.Replicas != want[j].Replicas || g.Hours != want[j].Hours || g.Role != RoleServe || g.GPUs != g.Replicas {
			t.Errorf("group %d: %+v, want %d replicas %v hours a day", j, g, want[j].Replicas, want[j].Hours)
		}
	}
	if o.Fleet[1].Rental != pricing.DailySessions(12*time.Hour, DefaultServingDays) || o.Fleet[0].Rental != pricing.Continuous(720*time.Hour) {
		t.Errorf("rentals %+v and %+v", o.Fleet[0].Rental, o.Fleet[1].Rental)
	}
	h := decimal.RequireFromString("1.60")
	total := h.Mul(decimal.NewFromInt(int64(quiet * 720))).Add(h.Mul(decimal.NewFromInt(int64((peak - quiet) * 360))))
	if !o.Cost.Total.Amount.Equal(total) || o.GPUs != peak || o.Replicas != peak {
		t.Errorf("cost %s on %d GPUs, want %s on %d", o.Cost.Total, o.GPUs, total, peak)
	}
	sum := decimal.Zero
	for _, l := range o.Cost.Lines {
		sum = sum.Add(l.Amount.Amount)
	}
	if !sum.Equal(total) {
		t.Errorf("lines sum to %s, want %s", sum, total)
	}
	if perHour := total.DivRound(decimal.NewFromInt(720), 2); !o.PerHour.Amount.Equal(perHour) {
		t.Errorf("per hour %s, want %s", o.PerHour.Amount, perHour)
	}
	// On a monthly package the quiet hours save nothing: one group all day.
	opts, err = Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 64, "", "700")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if f := opts[0].Fleet; len(f) != 1 || f[0].Hours != 24 || f[0].Replicas != peak {
		t.Errorf("monthly: fleet %+v, want %d replicas all day", f, peak)
	}
	// Usage sets whole days: 40 hours rent 2.
	r.Usage = 40 * time.Hour
	opts, err = Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 64, "1.60", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if f := opts[0].Fleet; f[0].Rental != pricing.Continuous(48*time.Hour) || f[1].Rental != pricing.DailySessions(12*time.Hour, 2) {
		t.Errorf("40 h: rentals %+v", f)
	}
}

// The launch lines start a replica as it was priced: FP8 weights and KV cache
// on two H100s with a draft model proposing four tokens. vLLM's flags are
// those of its documentation for serve (--tensor-parallel-size,
// --max-num-seqs, --gpu-memory-utilization, --max-model-len, --quantization,
// --kv-cache-dtype) and its speculative-decoding guide (--speculative-config
// with the draft model and num_speculative_tokens); SGLang's those
// of its server arguments (--tp-size, --max-running-requests,
// --mem-fraction-static, --context-length, --kv-cache-dtype fp8_e4m3) and its
// STANDALONE speculative decoding (steps, a top-k of 1, steps + 1 draft
// tokens).
func TestLaunchLines(t *testing.T) {
	draft := mustPreset(t, "llama-3.2-1b")
	tr := Traffic{Rate: 4, PromptTokens: 1000, OutputTokens: 300, Speculative: &compute.Speculation{Draft: draft, Tokens: 4, Acceptance: 0.7}}
	r := servingRequest(t, "llama-3.1-8b", tr)
	r.Workload.Precision, r.Workload.KVPrecision, r.GPUs = sizing.FP8, sizing.FP8, 2
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 8, "20", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	slots, err := replicaOf(t, "llama-3.1-8b", "H100 SXM5 80GB", 2, tr, r.Workload).MaxConcurrency()
	if err != nil {
		t.Fatal(err)
	}
	seqs := fmt.Sprint(slots)
	want := []Command{
		{"vllm", []string{"vllm", "serve", "llama-3.1-8b", "--tensor-parallel-size", "2", "--max-num-seqs", seqs,
			"--gpu-memory-utilization", "0.9", "--max-model-len", "1300", "--quantization", "fp8", "--kv-cache-dtype", "fp8",
			"--speculative-config", `{"model":"llama-3.2-1b","num_speculative_tokens":4}`}},
		{"sglang", []string{"python", "-m", "sglang.launch_server", "--model-path", "llama-3.1-8b", "--tp-size", "2",
			"--max-running-requests", seqs, "--mem-fraction-static", "0.9", "--context-length", "1300", "--quantization", "fp8",
			"--kv-cache-dtype", "fp8_e4m3", "--speculative-algorithm", "STANDALONE", "--speculative-draft-model-path", "llama-3.2-1b",
			"--speculative-num-steps", "4", "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "5"}},
	}
	if len(o.Launch) != 2 {
		t.Fatalf("launch %+v", o.Launch)
	}
	for j, c := range o.Launch {
		if c.Engine != want[j].Engine || !slices.Equal(c.Args, want[j].Args) {
			t.Errorf("launch %d:\n%q\nwant\n%q", j, c.Args, want[j].Args)
		}
	}
	if got := o.Launch[0].String(); !strings.HasSuffix(got, ` --speculative-config '{"model":"llama-3.2-1b","num_speculative_tokens":4}'`) {
		t.Errorf("shell line %s", got)
	}
	// A model without a name gets no lines, and a warning that says why.
	r.Model.Name = ""
	opts, err = Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 8, "20", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if opts[0].Launch != nil || !strings.Contains(strings.Join(opts[0].Warnings, "|"), "no launch lines") {
		t.Errorf("nameless: launch %v, warnings %q", opts[0].Launch, opts[0].Warnings)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"serve": "serve", "": "''", "a b": "'a b'", `{"m":1}`: `'{"m":1}'`, "it's": `'it'\''s'`, "0.9": "0.9"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// A mixture of experts is also tried with its experts spread over all of a
// replica's GPUs (Serving.Expert = the GPUs), the one degree vLLM's
// --enable-expert-parallel gives; its option says so and its lines start it
// so, and its load is compute's for that replica.
func TestExpertParallelOption(t *testing.T) {
	tr := Traffic{Rate: 2, PromptTokens: 1000, OutputTokens: 300}
	r := servingRequest(t, "mixtral-8x7b", tr)
	r.EveryCount, r.Limit = true, -1
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 8, "20", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range opts {
		g := o.Fleet[0]
		if g.Expert == 0 || g.Role != RoleServe {
			continue
		}
		found = true
		if g.Expert != g.Tensor || !slices.Contains(o.Launch[0].Args, "--enable-expert-parallel") ||
			!slices.Contains(o.Launch[1].Args, "--ep-size") {
			t.Errorf("expert %d on %d GPUs: launch %q", g.Expert, g.Tensor, o.Launch)
		}
		sv := replicaOf(t, "mixtral-8x7b", "H100 SXM5 80GB", g.Tensor, tr, r.Workload)
		sv.Expert = g.Expert
		if lp, err := sv.Under(o.Load.Rate); err != nil || lp != *o.Load {
			t.Errorf("load %+v, compute %+v (%v)", *o.Load, lp, err)
		}
	}
	if !found {
		t.Errorf("no expert-parallel option among %d", len(opts))
	}
}

// A disaggregated fleet is tried where the targets bind the plain replicas:
// its prefill and decode groups meet them together (compute.Disaggregated's
// load), it needs fewer replicas of the same shape than serving plainly, and
// its lines start each side in its role.
func TestDisaggregatedFleet(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	r := servingRequest(t, "llama-3.1-8b", tr)
	r.EveryCount, r.Limit = true, -1
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "A10", 64, "1.00", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	plain := map[int]int{} // replicas by tensor degree
	var pairs []Option
	for _, o := range opts {
		if o.Fleet[0].Role == RolePrefill {
			pairs = append(pairs, o)
		} else {
			plain[o.Fleet[0].Tensor] = o.Replicas
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no disaggregated option")
	}
	for _, o := range pairs {
		p, d := o.Fleet[0], o.Fleet[1]
		if len(o.Fleet) != 2 || d.Role != RoleDecode || p.Tensor != d.Tensor || o.Replicas != p.Replicas+d.Replicas {
			t.Fatalf("fleet %+v", o.Fleet)
		}
		if n := plain[p.Tensor]; n > 0 && o.Replicas >= n {
			t.Errorf("%d + %d replicas of %d GPUs disaggregated, %d plainly", p.Replicas, d.Replicas, p.Tensor, n)
		}
		if !o.Load.Stable || o.Load.TTFT.Mean > tr.TTFT || o.Load.TPOT.Mean > tr.TPOT {
			t.Errorf("load %+v misses the targets", *o.Load)
		}
		side := replicaOf(t, "llama-3.1-8b", "A10", p.Tensor, tr, r.Workload)
		card, _ := catalog.Default().Lookup("A10")
		lp, err := compute.Disaggregated{Prefill: side, Decode: side, PrefillReplicas: p.Replicas, DecodeReplicas: d.Replicas, Link: pairLink(card)}.Under(20)
		if err != nil || lp != *o.Load {
			t.Errorf("load %+v, compute %+v (%v)", *o.Load, lp, err)
		}
		if !slices.Contains(o.Launch[1].Args, "--disaggregation-mode") || o.Launch[1].Args[len(o.Launch[1].Args)-1] != "prefill" ||
			o.Launch[3].Args[len(o.Launch[3].Args)-1] != "decode" || !slices.Contains(o.Launch[0].Args, "--kv-transfer-config") {
			t.Errorf("launch %q", o.Launch)
		}
	}
}

// A mix: a monthly package on RTX 4090s capped at two GPUs cannot carry the
// peak alone, and L40S capacity by the hour can; together, the 4090s all day
// and L40S groups in the busy hours cost less than every offer alone. The
// cost is the sum of the groups' quotes, the GPUs their sum, each group on its
// own offer and tariff.
func TestMixFleet(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond, Daily: dayProfile}
	r := servingRequest(t, "llama-3.1-8b", tr)
	offers := []pricing.Offer{planOffer("monthly", "RTX 4090", 2, "", "700"), planOffer("hourly", "L40S", 16, "4.20", "")}
	single, err := Planner{Offers: offers}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	r.Mix = true
	rep, err := Planner{Offers: offers}.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Options[0]
	if !o.Cost.Total.Amount.LessThan(single[0].Cost.Total.Amount) {
		t.Fatalf("mix %s, the best offer alone %s", o.Cost.Total, single[0].Cost.Total)
	}
	if o.Fleet[0].Offer.Provider != "monthly" || o.Fleet[0].Hours != 24 || o.Fleet[len(o.Fleet)-1].Offer.Provider != "hourly" {
		t.Errorf("fleet %+v, want the monthly base all day and the hourly burst", o.Fleet)
	}
	sum, gpus := decimal.Zero, 0
	for _, g := range o.Fleet {
		sum = sum.Add(g.Cost.Total.Amount)
		gpus += g.GPUs
		if g.Hours < 24 && g.Rental != pricing.DailySessions(time.Duration(g.Hours)*time.Hour, DefaultServingDays) {
			t.Errorf("group %+v: rental %+v", g, g.Rental)
		}
	}
	lines := decimal.Zero
	for _, l := range o.Cost.Lines {
		lines = lines.Add(l.Amount.Amount)
	}
	if !sum.Equal(o.Cost.Total.Amount) || !lines.Equal(sum) || gpus != o.GPUs || o.Fleet[0].GPUs > 2 {
		t.Errorf("cost %s, groups %s, lines %s; GPUs %d, groups %d", o.Cost.Total, sum, lines, o.GPUs, gpus)
	}
	if len(o.Launch) != 2*len(o.Fleet) {
		t.Errorf("%d launch lines for %d groups", len(o.Launch), len(o.Fleet))
	}
}

// simulated reports whether a check of a property plans with latency targets,
// which search with Under: a few milliseconds a call, and CI runs every
// property 10,000 times, so one check in sixteen does; the others plan on the
// replicas' capacities alone, with no simulation.
func simulated(t *rapid.T) bool { return rapid.IntRange(0, 15).Draw(t, "simulate") == 0 }

// rarely is simulated for a property whose checks plan several offers, each
// of several replicas: one check in 128 plans with targets.
func rarely(t *rapid.T) bool { return rapid.IntRange(0, 127).Draw(t, "simulate") == 0 }

// genTraffic draws traffic whose simulations are short, with targets when
// targets is set.
func genTraffic(t *rapid.T, targets bool) Traffic {
	tr := Traffic{
		Rate:         float64(rapid.IntRange(1, 400).Draw(t, "decirate")) / 10,
		PromptTokens: rapid.IntRange(16, 4000).Draw(t, "prompt"),
		OutputTokens: rapid.IntRange(2, 600).Draw(t, "output"),
	}
	if targets {
		tr.TTFT = time.Duration(rapid.IntRange(0, 3000).Draw(t, "ttft_ms")) * time.Millisecond
		tr.TPOT = time.Duration(rapid.IntRange(10, 150).Draw(t, "tpot_ms")) * time.Millisecond
	}
	return tr
}

// best plans r on p's offers as Report does up to its ranking, without
// explaining the options (no Under call for their loads): the candidate of
// least ranking cost, or false when none fits.
func best(t *rapid.T, p Planner, r Request) (*candidate, bool) {
	_, c, ok := bestOf(t, p, r)
	return c, ok
}

// bestOf is best, with the best candidate before the mix too (the same
// without Mix).
func bestOf(t *rapid.T, p Planner, r Request) (single, all *candidate, ok bool) {
	s, err := p.settle(r)
	if err != nil {
		t.Fatal(err)
	}
	in, err := p.resolve(s)
	if errors.Is(err, ErrNoFit) {
		return nil, nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	run, w := newServeRun(), newSweep(&s, &p, in)
	if err := s.serveOffers(w, run); err != nil {
		t.Fatal(err)
	}
	least := func() *candidate {
		c := &w.cands[0]
		for k := range w.cands {
			if cmpKey(&w.cands[k], c) < 0 {
				c = &w.cands[k]
			}
		}
		cc := *c
		return &cc
	}
	if len(w.cands) == 0 {
		return nil, nil, false
	}
	single = least()
	if s.Mix {
		if err := s.mix(w, run); err != nil {
			t.Fatal(err)
		}
	}
	return single, least(), true
}

var propCards = []string{"RTX 4090", "A100 SXM4 80GB", "H100 SXM5 80GB", "L40S", "A10"}

// oneOffer is a planner of one hourly offer of card, up to MaxPlanGPUs.
func oneOffer(card string) Planner {
	return Planner{Offers: []pricing.Offer{{Provider: "a", Card: card, MaxGPUs: MaxPlanGPUs, Tariff: pricing.Tariff{Currency: "CNY", Hourly: decimal.New(100, -2)}}}}
}

// A higher percentile never needs fewer replicas: the targets that 99% of
// requests meet, 90% meet too, and the search tries the same counts for
// both until they part (search).
func TestPropPercentileNeverFewerReplicas(t *testing.T) {
	m := mustPreset(t, "llama-3.1-8b")
	rapid.Check(t, func(rt *rapid.T) {
		if !simulated(rt) {
			return // without targets the percentile changes nothing
		}
		tr := genTraffic(rt, true)
		p := oneOffer(rapid.SampledFrom(propCards).Draw(rt, "card"))
		tp := rapid.SampledFrom([]int{1, 2}).Draw(rt, "gpus")
		last, fitted := 0, true
		for _, pct := range []float64{0.5, 0.9, 0.99} {
			tr.Percentile = pct
			c, ok := best(rt, p, Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16}, Serving: &tr, GPUs: tp, Limit: 1})
			if !ok {
				fitted = false
				continue
			}
			if !fitted {
				rt.Fatalf("p%v fits with %d replicas, a lower percentile did not", pct*100, c.replicas)
			}
			if c.replicas < last {
				rt.Fatalf("p%v needs %d replicas, a lower percentile %d", pct*100, c.replicas, last)
			}
			last = c.replicas
		}
	})
}

// A prefix cache never slows TTFT, in the plan: with more of each prompt
// cached the same replica never needs more replicas for the rate (its
// capacity never falls), and where both plans run as many replicas, the
// cached one's mean TTFT is no slower, up to the simulation's grain (1%, as
// compute's own property allows). A tail percentile at a low load is one
// request's collision with another and moves by a step either way.
func TestPropPrefixNeverSlowsTTFT(t *testing.T) {
	m := mustPreset(t, "llama-3.1-8b")
	rapid.Check(t, func(rt *rapid.T) {
		sim := simulated(rt)
		tr := genTraffic(rt, false)
		p := oneOffer(rapid.SampledFrom(propCards).Draw(rt, "card"))
		a := rapid.Float64Range(0, 0.98).Draw(rt, "share")
		b := a + (0.99-a)*rapid.Float64Range(0, 1).Draw(rt, "more")
		request := func(share float64) Request {
			t := tr
			t.PrefixShare = share
			return Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16}, Serving: &t, GPUs: 1, Limit: 1}
		}
		x, ok := best(rt, p, request(a))
		if !ok {
			return
		}
		y, ok := best(rt, p, request(b))
		if !ok {
			rt.Fatalf("share %v fits, %v does not", a, b)
		}
		if y.replicas > x.replicas {
			rt.Fatalf("share %v needs %d replicas, %v needs %d", b, y.replicas, a, x.replicas)
		}
		if sim && y.replicas == x.replicas {
			if err := errors.Join(x.ensureLoad(), y.ensureLoad()); err != nil {
				rt.Fatal(err)
			}
			if float64(y.load.TTFT.Mean) > float64(x.load.TTFT.Mean)*1.01+1 {
				rt.Fatalf("%d replicas: mean TTFT %v at share %v, %v at %v", x.replicas, y.load.TTFT.Mean, b, x.load.TTFT.Mean, a)
			}
		}
	})
}

// genOffers draws two to four offers of the property cards, hourly or
// monthly, some capped, some interruptible.
func genOffers(t *rapid.T) []pricing.Offer {
	n := rapid.IntRange(2, 4).Draw(t, "offers")
	out := make([]pricing.Offer, n)
	for i := range out {
		tf := pricing.Tariff{Currency: "CNY"}
		cents := rapid.Int64Range(50, 3000).Draw(t, "cents")
		if rapid.Bool().Draw(t, "monthly") {
			tf.Monthly = decimal.New(cents*rapid.Int64Range(300, 730).Draw(t, "hours"), -2)
		} else {
			tf.Hourly = decimal.New(cents, -2)
		}
		out[i] = pricing.Offer{Provider: fmt.Sprintf("p%d", i), Card: rapid.SampledFrom(propCards).Draw(t, "card"),
			MaxGPUs: rapid.SampledFrom([]int{1, 2, 8, 64}).Draw(t, "cap"), Tariff: tf}
		if rapid.IntRange(0, 3).Draw(t, "spot") == 0 {
			out[i].Interruptible = true
		}
	}
	return out
}

// genDaily draws a daily profile: 24 multiples of the peak, the largest 1.
func genDaily(t *rapid.T) []float64 {
	d := make([]float64, 24)
	for h := range d {
		d[h] = float64(rapid.IntRange(0, 20).Draw(t, "twentieths")) / 20
	}
	d[rapid.IntRange(0, 23).Draw(t, "peak")] = 1
	return d
}

// A mix never costs more than the best single offer: the fleets of one offer
// are among those it searches; and the returned mix's cost is the sum of its
// groups'.
func TestPropMixNeverDearer(t *testing.T) {
	m := mustPreset(t, "llama-3.1-8b")
	rapid.Check(t, func(rt *rapid.T) {
		sim := rarely(rt)
		tr := genTraffic(rt, sim)
		if rapid.Bool().Draw(rt, "daily") {
			tr.Daily = genDaily(rt)
		}
		p := Planner{Offers: genOffers(rt)}
		r := Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16}, Serving: &tr, Limit: 1, Mix: true}
		single, mixed, ok := bestOf(rt, p, r)
		if !ok {
			return
		}
		if cmpKey(mixed, single) > 0 {
			rt.Fatalf("mix %s, the best single offer %s", mixed.key, single.key)
		}
		if !sim {
			return
		}
		opts, err := p.Plan(r)
		if err != nil {
			rt.Fatal(err)
		}
		sum := decimal.Zero
		for _, g := range opts[0].Fleet {
			sum = sum.Add(g.Cost.Total.Amount)
		}
		if !sum.Equal(opts[0].Cost.Total.Amount) || !opts[0].ExpectedCost.Amount.Equal(mixed.expected.Amount) {
			rt.Fatalf("groups sum to %s, cost %s, ranked %s", sum, opts[0].Cost.Total, mixed.expected)
		}
	})
}

// A daily profile never costs more than the peak held all day: each hour
// needs no more replicas than the peak, and every fleet on an offer is
// compared with its peak rented all day (stack).
func TestPropDailyNeverDearer(t *testing.T) {
	m := mustPreset(t, "llama-3.1-8b")
	rapid.Check(t, func(rt *rapid.T) {
		tr := genTraffic(rt, rarely(rt))
		p := Planner{Offers: genOffers(rt)}
		days := rapid.IntRange(1, 60).Draw(rt, "days")
		r := Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16}, Serving: &tr,
			Usage: time.Duration(days) * 24 * time.Hour, Limit: 1}
		flat, ok := best(rt, p, r)
		if !ok {
			return
		}
		tr.Daily = genDaily(rt)
		daily, ok := best(rt, p, r)
		if !ok {
			rt.Fatalf("a daily profile fits nowhere, the flat peak does")
		}
		if cmpKey(daily, flat) > 0 {
			rt.Fatalf("daily profile %s, the flat peak %s", daily.key, flat.key)
		}
	})
}

// Zero acceptance never speeds decode, in the plan: the replica the planner
// builds with a draft whose proposals are all rejected holds no more
// sequences, decodes one sequence no faster, and at any number of users
// completes no more requests than the same replica without it (compute's own
// property, on the replicas as the planner wires them: its reserve, the
// card's architecture, the traffic's draft).
func TestPropZeroAcceptanceNeverSpeedsDecode(t *testing.T) {
	m := mustPreset(t, "llama-3.1-8b")
	drafts := []sizing.Model{mustPreset(t, "llama-3.2-1b"), {Name: "heads", Params: 2e8}}
	rapid.Check(t, func(rt *rapid.T) {
		tr := genTraffic(rt, false)
		p := oneOffer(rapid.SampledFrom(propCards).Draw(rt, "card"))
		r := Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16}, Serving: &tr,
			GPUs: rapid.SampledFrom([]int{1, 2}).Draw(rt, "gpus"), Limit: 1}
		plain, ok := best(rt, p, r)
		if !ok {
			return
		}
		tr.Speculative = &compute.Speculation{Draft: rapid.SampledFrom(drafts).Draw(rt, "draft"), Tokens: rapid.IntRange(1, 8).Draw(rt, "tokens")}
		spec, ok := best(rt, p, r)
		if !ok {
			return // the draft leaves no room
		}
		x, y := plain.serve, spec.serve
		if y.slots > x.slots {
			rt.Fatalf("%d sequence slots with a draft, %d without", y.slots, x.slots)
		}
		a, _ := x.prep.At(1)
		b, _ := y.prep.At(1)
		if b.TPOT < a.TPOT {
			rt.Fatalf("one sequence: TPOT %v with a draft never accepted, %v without", b.TPOT, a.TPOT)
		}
		k := rapid.IntRange(1, y.slots).Draw(rt, "users")
		a, _ = x.prep.At(k)
		b, _ = y.prep.At(k)
		if b.Requests > a.Requests {
			rt.Fatalf("%d users: %v requests/s with a draft never accepted, %v without", k, b.Requests, a.Requests)
		}
	})
}

// A serving plan over a thousand offers with a daily profile and Mix.
func TestServingMixPlansOnce(t *testing.T) {
	r := servingRequest(t, "llama-3.1-8b", Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second,
		TPOT: 50 * time.Millisecond, Daily: dayProfile})
	r.Mix = true
	opts, err := Planner{Offers: syntheticOffers(300)}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(opts); k++ {
		if cmpMoney(opts[k].RankedCost, opts[k-1].RankedCost) < 0 {
			t.Errorf("option %d costs %s, less than option %d's %s", k, opts[k].RankedCost, k-1, opts[k-1].RankedCost)
		}
	}
}

func cmpMoney(a, b pricing.Money) int { return a.Amount.Cmp(b.Amount) }
