package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// qwenLoRA is issue 23's newcomer job: a LoRA fine-tune of Qwen2.5-7B on 50
// million tokens within two days, with the plan CLI's defaults (micro-batch 4 of
// 2048 tokens, full recomputation), keeping 10% of memory free: at micro-batch 1
// it needs 20.4 GiB, which an RTX 4090 holds with 10% free and not with 20%.
func qwenLoRA(t testing.TB) Request {
	return Request{Model: mustPreset(t, "qwen2.5-7b"),
		Workload: sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048, Recompute: sizing.FullRecompute},
		Tokens:   5e7, Deadline: 48 * time.Hour, Headroom: 0.1}
}

// Micro-batch 4 does not fit one RTX 4090, a smaller one does: one GPU is an
// option, at the largest micro-batch that fits, accumulating to the workload's
// 4 sequences a step, and it costs no more than any option on two GPUs.
func TestPlanSmallerMicroBatchBeforeMoreGPUs(t *testing.T) {
	r := qwenLoRA(t)
	r.EveryCount, r.Limit = true, -1
	w := r.Workload
	usable, _ := sizing.Usable(24564*sizing.MiB, r.Headroom)
	if b, err := sizing.Estimate(r.Model, w); err != nil || b.Total() <= usable {
		t.Fatalf("micro-batch 4 on one RTX 4090: %v, %v; the test wants it not to fit", b.Total(), err)
	}
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 2, "1.60", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(opts, func(o Option) bool { return o.GPUs == 1 })
	if i < 0 {
		t.Fatalf("no option on one GPU among %d", len(opts))
	}
	o := opts[i]
	if o.MicroBatch < 1 || o.MicroBatch >= 4 || o.MicroBatch*o.Accumulation != 4 {
		t.Fatalf("one GPU (%s), micro-batch %d × %d; want a smaller micro-batch accumulating to 4",
			DescribeLayout(o.Layout), o.MicroBatch, o.Accumulation)
	}
	for _, x := range opts {
		if x.ExpectedCost.Amount.LessThan(o.ExpectedCost.Amount) {
			t.Errorf("%d GPUs (%s) cost %s, less than one GPU's %s", x.GPUs, DescribeLayout(x.Layout), x.ExpectedCost, o.ExpectedCost)
		}
	}
	// The micro-batch is the largest that fits: one more does not.
	w.Batch = o.MicroBatch
	if b, _ := sizing.Estimate(r.Model, w); b.Total() != o.PerGPU.Total() || b.Total() > usable {
		t.Errorf("micro-batch %d needs %v, the option says %v", o.MicroBatch, b.Total(), o.PerGPU.Total())
	}
	w.Batch = o.MicroBatch + 1
	if b, _ := sizing.Estimate(r.Model, w); b.Total() <= usable && 4%w.Batch == 0 {
		t.Errorf("micro-batch %d fits too (%v), and divides 4", w.Batch, b.Total())
	}
}

func TestDivisors(t *testing.T) {
	var buf [maxDivisors]int
	for _, tc := range []struct{ n, limit int }{{4, 4}, {48, 40}, {36, 100}, {1, 1}, {7, 7}, {720720, 1 << 30}, {1024, 3}} {
		var want []int
		for d := 1; d <= tc.n && d < tc.limit; d++ {
			if tc.n%d == 0 {
				want = append(want, d)
			}
		}
		if got := divisors(&buf, tc.n, tc.limit); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("divisors(%d, below %d) = %v, want %v", tc.n, tc.limit, got, want)
		}
	}
	// The largest micro-batch tried: the largest divisor of a replica's
	// sequences no larger than the workload's batch.
	for _, tc := range []struct{ global, batch, data, want int }{
		{0, 4, 8, 4}, {48, 5, 2, 4}, {48, 100, 2, 24}, {7, 6, 1, 1}, {36, 7, 1, 6}, {12, 4, 8, 0},
	} {
		s := settings{Request: Request{GlobalBatch: tc.global, Workload: sizing.Workload{Batch: tc.batch}}}
		if got := s.topMicro(sizing.Parallel{Data: tc.data}); got != tc.want {
			t.Errorf("global %d, batch %d, data %d: top micro-batch %d, want %d", tc.global, tc.batch, tc.data, got, tc.want)
		}
	}
}

// With a global batch, micro-batch × accumulation × data-parallel degree is
// exactly it on every option, and the micro-batch is at most the workload's.
func TestPlanGlobalBatch(t *testing.T) {
	r := trainingRequest(t)
	r.GlobalBatch, r.EveryCount, r.Limit = 48, true, -1
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "H100 SXM5 80GB", 8, "16", ""), planOffer("b", "RTX 4090", 8, "1.6", "")}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]bool{}
	for _, o := range opts {
		counts[o.GPUs] = true
		if d := max(o.Layout.Data, 1); o.MicroBatch*o.Accumulation*d != 48 || o.MicroBatch > r.Workload.Batch || o.MicroBatch < 1 {
			t.Errorf("%s on %d GPUs (%s): micro-batch %d × %d × data %d, want 48", o.CardID, o.GPUs, DescribeLayout(o.Layout), o.MicroBatch, o.Accumulation, d)
		}
	}
	// 5 and 7 GPUs divide no degree into 48 (tensor parallelism needs an even count).
	if counts[5] || counts[7] || !counts[8] || !counts[6] {
		t.Errorf("GPU counts %v: want 6 and 8, not 5 or 7", counts)
	}
}

// Pins: every option uses exactly the pinned GPUs (an offer sold in instances
// rents whole ones), an offer that cannot give them is left out with the
// reason, and a pinned layout is the only one tried.
func TestPlanPins(t *testing.T) {
	r := trainingRequest(t)
	r.GPUs, r.EveryCount, r.Limit = 4, true, -1
	small := planOffer("small", "RTX 4090", 2, "1.60", "")
	small.Line = 3
	inst := lambda8xA100(0)
	inst.Tariff.Currency = "CNY"
	p := Planner{Offers: []pricing.Offer{small, planOffer("big", "RTX 4090", 8, "1.80", ""), inst}}
	rep, err := p.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Options) != 2 {
		t.Fatalf("%d options, want the 8-GPU offer and the instance, each on 4 GPUs", len(rep.Options))
	}
	for _, o := range rep.Options {
		if o.Layout.Devices() != 4 {
			t.Errorf("%s: %s, want 4 GPUs in use", o.Offer.Provider, DescribeLayout(o.Layout))
		}
		if o.Offer.GPUsPerInstance == 8 && (o.GPUs != 8 || !strings.Contains(strings.Join(o.Warnings, "|"), "job uses 4 of 8 GPUs")) {
			t.Errorf("instance: %d GPUs rented, warnings %q; want one whole instance of 8, 4 idle", o.GPUs, o.Warnings)
		}
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Line != 3 || !errors.Is(rep.Skipped[0].Err, pricing.ErrUnavailable) ||
		rep.Skipped[0].Reason != "rents at most 2 GPUs here, and the request pins 4: offer cannot serve this usage" {
		t.Errorf("skipped %+v, want the 2-GPU offer with its reason", rep.Skipped)
	}

	r.GPUs, r.Parallel = 0, &sizing.Parallel{Tensor: 2, Data: 2, SequenceParallel: true}
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		if o.Layout != *r.Parallel {
			t.Errorf("%s: layout %s, want the pinned tensor ×2, data ×2", o.Offer.Provider, DescribeLayout(o.Layout))
		}
	}
}

// A pin the model or the other fields cannot take is an error naming it.
func TestPinErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*Request)
		want string
	}{
		{"tensor degree not dividing the heads", func(r *Request) { r.Parallel = &sizing.Parallel{Tensor: 3} }, "parallel tensor parallel ×3"},
		{"devices against gpus", func(r *Request) { r.GPUs, r.Parallel = 8, &sizing.Parallel{Data: 4} }, "parallel data parallel ×4 uses 4 GPUs, gpus pins 8"},
		{"negative gpus", func(r *Request) { r.GPUs = -1 }, "gpus -1"},
		{"negative degree", func(r *Request) { r.Parallel = &sizing.Parallel{Data: -2} }, "parallel uses 0 GPUs"},
		{"global batch of no degree", func(r *Request) { r.GPUs, r.GlobalBatch = 3, 4 },
			"global_batch 4 is not a multiple of any data-parallel degree 3 GPUs can take ([3])"},
		{"global batch of the pinned degree", func(r *Request) { r.Parallel, r.GlobalBatch = &sizing.Parallel{Data: 8, ZeRO: 3}, 20 },
			"global_batch 20 is not a multiple of any data-parallel degree 8 GPUs can take ([8])"},
		{"global batch for inference", func(r *Request) { r.Workload.Task, r.GlobalBatch = sizing.Inference, 8 }, "a global batch is for training"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := trainingRequest(t)
			tc.set(&r)
			err := r.Validate()
			if !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate() = %v, want ErrInvalid saying %q", err, tc.want)
			}
		})
	}
}

// A pinned GPU count is honoured by every option, whatever the job and offers.
func TestPlanPinProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genPlanRequest(t)
		r.GPUs = rapid.IntRange(1, 8).Draw(t, "gpus")
		r.EveryCount, r.Limit = true, -1
		opts, err := Planner{Offers: genPlanOffers(t, "o")}.Plan(r)
		if err != nil && !errors.Is(err, ErrNoFit) {
			t.Fatalf("Plan: %v", err)
		}
		for _, o := range opts {
			if o.Layout.Devices() != r.GPUs || o.GPUs != r.GPUs {
				t.Fatalf("%s: %d GPUs rented, %s; want %d pinned", o.Offer.Provider, o.GPUs, DescribeLayout(o.Layout), r.GPUs)
			}
		}
	})
}

// The cost band: the covers of the fast and slow ends of the time band hold the
// cost between them (by the hour, a range; with a week's package, the week may
// cover both ends), and equal it when the rental is given.
func TestPlanCostBand(t *testing.T) {
	offer := planOffer("a", "RTX 4090", 8, "1.60", "")
	weekly := offer
	weekly.Provider, weekly.Tariff.Weekly = "w", decimal.New(160, 0) // a week for 100 hours' price
	r := trainingRequest(t)
	r.Tokens = 2e9
	r.EveryCount, r.Limit = true, -1
	opts, err := Planner{Offers: []pricing.Offer{offer, weekly}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		lo, c, hi := o.CostLow.Amount, o.Cost.Total.Amount, o.CostHigh.Amount
		if lo.GreaterThan(c) || c.GreaterThan(hi) || o.CostLow.Currency != "CNY" || o.CostHigh.Currency != "CNY" {
			t.Errorf("%s, %d GPUs: cost %s not between %s and %s", o.Offer.Provider, o.GPUs, o.Cost.Total, o.CostLow, o.CostHigh)
		}
		if o.Offer.Provider == "a" && !(lo.LessThan(c) && c.LessThan(hi)) {
			t.Errorf("%d GPUs by the hour: %v to %v priced %s to %s, want a range around %s", o.GPUs, o.DurationLow, o.DurationHigh, o.CostLow, o.CostHigh, o.Cost.Total)
		}
	}
	r.Usage = 200 * time.Hour
	if opts, err = (Planner{Offers: []pricing.Offer{offer}}).Plan(r); err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		if !o.CostLow.Amount.Equal(o.Cost.Total.Amount) || !o.CostHigh.Amount.Equal(o.Cost.Total.Amount) {
			t.Errorf("%d GPUs with a fixed usage: %s to %s, want the cost %s", o.GPUs, o.CostLow, o.CostHigh, o.Cost.Total)
		}
	}
}

// Fit answers without prices: the fewest GPUs of each card named, or the pinned
// ones; a family name means each of its cards; a card that cannot hold the job
// is left out, and when none can the error names each.
func TestFit(t *testing.T) {
	r := qwenLoRA(t)
	r.Cards = []string{"rtx-4090", "A100"}
	opts, err := Planner{}.Fit(r)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range opts {
		ids = append(ids, o.CardID)
		if o.GPUs != 1 || o.Duration <= 0 || o.MicroBatch < 1 || !o.Cost.Total.IsZero() || !o.ExpectedCost.IsZero() ||
			!o.CostLow.IsZero() || !o.CostHigh.IsZero() || !o.Waste.IsZero() || o.Offer.Card == "" {
			t.Errorf("%s: %d GPUs, %v, micro-batch %d, cost %v, offer %q; want one GPU, a time, no money", o.CardID, o.GPUs, o.Duration, o.MicroBatch, o.Cost.Total, o.Offer.Card)
		}
	}
	if got := strings.Join(ids, " "); got != "rtx-4090 a100-pcie-40gb a100-sxm4-40gb a100-pcie-80gb a100-sxm4-80gb" {
		t.Errorf("cards %s, want the RTX 4090 then each A100", got)
	}

	r.Cards, r.GPUs = []string{"rtx-4090"}, 2
	if opts, err = (Planner{}).Fit(r); err != nil || len(opts) != 1 || opts[0].GPUs != 2 {
		t.Errorf("pinned to 2 GPUs: %d options, %v", len(opts), err)
	}

	r.GPUs, r.Cards = 0, nil
	if _, err := (Planner{}).Fit(r); !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("no cards: %v, want ErrInvalid", err)
	}
	r.Cards = []string{"RTX 9999"}
	if _, err := (Planner{}).Fit(r); !errors.Is(err, catalog.ErrNotFound) || !errors.Is(err, pricing.ErrInvalid) {
		t.Errorf("unknown card: %v, want catalog.ErrNotFound and ErrInvalid", err)
	}
	r.Cards, r.MaxGPUs = []string{"T4", "v100-pcie-16gb"}, 1
	_, err = Planner{}.Fit(r)
	var nf *NoFitError
	if !errors.As(err, &nf) || len(nf.Reasons) != 2 || !strings.HasPrefix(nf.Reasons[0], "T4 at 1 GPU needs") ||
		!strings.HasPrefix(nf.Reasons[1], "V100 PCIe 16GB at 1 GPU needs") {
		t.Errorf("nothing fits one GPU: %v, want a NoFitError naming each card", err)
	}
}

// A service's fit is one replica per card, on the fewest GPUs that hold it.
func TestFitServing(t *testing.T) {
	r := servingRequest(t, "llama-3.1-70b", Traffic{Rate: 2, PromptTokens: 1000, OutputTokens: 200})
	r.Cards = []string{"h100-sxm5-80gb", "rtx-4090"}
	opts, err := Planner{}.Fit(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 2 {
		t.Fatalf("%d options, want one per card", len(opts))
	}
	for _, o := range opts {
		if o.Replicas != 1 || o.Serving == nil || o.Serving.Concurrency < 1 || o.GPUs != o.Layout.Tensor || o.GPUs < 2 || !o.PerMillion.IsZero() {
			t.Errorf("%s: %d replicas of %d GPUs (%s), serving %+v", o.CardID, o.Replicas, o.GPUs, DescribeLayout(o.Layout), o.Serving)
		}
	}
	if opts[0].GPUs != 2 || opts[1].GPUs != 8 {
		t.Errorf("GPUs per replica %d (H100) and %d (RTX 4090), want 2 and 8 for 141 GB of BF16 weights", opts[0].GPUs, opts[1].GPUs)
	}
}

// The third round's fields go through JSON under their keys and come back.
func TestSearchJSONKeys(t *testing.T) {
	r := trainingRequest(t)
	r.GPUs, r.Parallel, r.GlobalBatch = 8, &sizing.Parallel{Data: 8, ZeRO: 3}, 64
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"gpus":8`, `"parallel":{"data":8,`, `"global_batch":64`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("request JSON lacks %s: %s", key, b)
		}
	}
	var back Request
	if err := json.Unmarshal(b, &back); err != nil || back.GPUs != 8 || back.Parallel == nil || *back.Parallel != *r.Parallel || back.GlobalBatch != 64 {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	opts, err := Planner{Offers: []pricing.Offer{planOffer("a", "RTX 4090", 1, "1.60", "")}}.Plan(trainingRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	o := opts[0]
	o.HostMemory = 3 * sizing.GiB
	b, err = json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"micro_batch":4`, `"accumulation":1`, `"host_memory_bytes":3221225472`, `"cost_low":{`, `"cost_high":{`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("option JSON lacks %s: %s", key, b)
		}
	}
	var ob Option
	if err := json.Unmarshal(b, &ob); err != nil || ob.MicroBatch != 4 || ob.HostMemory != o.HostMemory || !ob.CostHigh.Amount.Equal(o.CostHigh.Amount) {
		t.Errorf("option round trip: %+v, %v", ob, err)
	}
}

// llama70BFull is issue 23's second question: a full fine-tune of Llama-3.1-70B
// (BF16, micro-batch 1 of 4096 tokens, full recomputation) on 100 million
// tokens, on 8 GPUs with ZeRO-3.
func llama70BFull(t testing.TB) Request {
	return Request{Model: mustPreset(t, "llama-3.1-70b"),
		Workload: sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 4096, Recompute: sizing.FullRecompute},
		Tokens:   1e8, GPUs: 8}
}

// Host RAM: offloading the optimizer of a 70B full fine-tune over 8 GPUs needs
// about 200 GiB of host RAM per GPU (ZeRO-Offload's FP32 state and gradients
// with DeepSpeed's buffers). An offer with less is left out with that reason,
// one with enough plans it, and one that does not say warns with the figure.
func TestPlanHostMemory(t *testing.T) {
	r := llama70BFull(t)
	h100 := func(provider string, hostGiB int64) pricing.Offer {
		o := planOffer(provider, "H100 SXM5 80GB", 8, "20", "")
		o.HostMemory, o.Line = hostGiB<<30, int(hostGiB)
		return o
	}
	rep, err := Planner{Offers: []pricing.Offer{h100("small", 128), h100("big", 256), h100("unknown", 0)}}.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Options) != 2 {
		t.Fatalf("%d options, want the offers with enough or unknown host RAM", len(rep.Options))
	}
	for _, o := range rep.Options {
		if !o.Layout.OffloadOptimizer || o.HostMemory != o.PerGPU.Host || o.HostMemory < 190*sizing.GiB || o.HostMemory > 210*sizing.GiB {
			t.Errorf("%s: %s, host memory %v (per GPU %v); want the optimizer offloaded, about 200 GiB", o.Offer.Provider, DescribeLayout(o.Layout), o.HostMemory.Human(), o.PerGPU.Host.Human())
		}
		w := strings.Join(o.Warnings, "|")
		warned := strings.Contains(w, "offloaded to host memory: "+o.HostMemory.Human()+" of host RAM per GPU (the offer does not say how much comes with each GPU)")
		if warned != (o.Offer.Provider == "unknown") || !warned && !strings.Contains(w, "(the offer has 256.0 GiB)") {
			t.Errorf("%s: warnings %q", o.Offer.Provider, o.Warnings)
		}
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Provider != "small" || !errors.Is(rep.Skipped[0].Err, pricing.ErrUnavailable) ||
		!strings.Contains(rep.Skipped[0].Reason, "of host RAM per GPU, over the 128.0 GiB the offer has") {
		t.Errorf("skipped %+v, want the 128 GiB offer with its reason", rep.Skipped)
	}
}

// More host RAM never removes an option: each offer and GPU count planned with
// the host RAM drawn is planned with more.
func TestPlanMoreHostMemoryProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genPlanRequest(t)
		r.EveryCount, r.Limit = true, -1
		offers := genPlanOffers(t, "o")
		for i := range offers {
			offers[i].HostMemory = rapid.Int64Range(0, 512).Draw(t, "host_gib") << 30
		}
		before, err := Planner{Offers: offers}.Plan(r)
		if err != nil && !errors.Is(err, ErrNoFit) {
			t.Fatalf("Plan: %v", err)
		}
		more := append([]pricing.Offer(nil), offers...)
		for i := range more {
			if more[i].HostMemory > 0 {
				more[i].HostMemory += rapid.Int64Range(0, 512).Draw(t, "more_gib") << 30
			}
		}
		after, err := Planner{Offers: more}.Plan(r)
		if err != nil && !errors.Is(err, ErrNoFit) {
			t.Fatalf("Plan with more host RAM: %v", err)
		}
		type key struct {
			provider string
			gpus     int
		}
		kept := map[key]bool{}
		for _, o := range after {
			kept[key{o.Offer.Provider, o.GPUs}] = true
		}
		for _, o := range before {
			if !kept[key{o.Offer.Provider, o.GPUs}] {
				t.Fatalf("%s on %d GPUs planned with %v of host RAM, gone with more", o.Offer.Provider, o.GPUs, sizing.Bytes(o.Offer.HostMemory).Human())
			}
		}
	})
}

// The binomial tail the spare replicas are sized with, against sums worked by
// hand.
func TestAtLeast(t *testing.T) {
	for _, tc := range []struct {
		k, m int
		p    float64
		want float64
	}{
		{1, 2, 0.5, 0.75},                  // 1 − 0.5²
		{2, 3, 0.9, 0.972},                 // 0.9³ + 3 · 0.9² · 0.1
		{7, 7, 0.99, 0.9320653479069899},   // 0.99⁷
		{7, 8, 0.99, 0.9973099222604793},   // 0.99⁸ + 8 · 0.99⁷ · 0.01
		{0, 5, 0.3, 1},                     // always at least none
		{400, 400, 0.999, 0.6701859060067}, // 0.999⁴⁰⁰, large m without overflow
	} {
		if got := atLeast(tc.k, tc.m, tc.p); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("atLeast(%d, %d, %v) = %v, want %v", tc.k, tc.m, tc.p, got, tc.want)
		}
	}
}

// Services stay up: an interruptible offer that states no rate is taken to be
// interrupted once a day (10 minutes to restart: up 99.31% of the time), so
// keeping the replicas the rate needs up 99% of the time takes a spare, whose
// cost is counted and which shows as a replica and a GPU more; a steady offer a
// little dearer by the hour then ranks first. An offer whose replicas are never
// up is left out with the reason.
func TestServingAvailability(t *testing.T) {
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	r := servingRequest(t, "llama-3.1-8b", tr)
	r.GPUs = 1 // one-GPU replicas, 9 of them for the rate
	spot := planOffer("spot", "RTX 4090", 16, "1.70", "")
	spot.Interruptible = true
	steady := planOffer("steady", "RTX 4090", 16, "1.80", "")
	wild := planOffer("wild", "RTX 4090", 16, "0.10", "")
	wild.Interruptible, wild.InterruptionsPerDay, wild.Line = true, 144, 5 // 144 × 10 minutes: a whole day down
	rep, err := Planner{Offers: []pricing.Offer{spot, steady, wild}}.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Options) != 2 || rep.Options[0].Offer.Provider != "steady" {
		t.Fatalf("%d options, first %s; want the steady offer first", len(rep.Options), rep.Options[0].Offer.Provider)
	}
	st, sp := rep.Options[0], rep.Options[1]
	if sp.Replicas != st.Replicas+1 || sp.GPUs != sp.Replicas*max(sp.Layout.Tensor, 1) || sp.Layout.Data != sp.Replicas || sp.Layout.Tensor != st.Layout.Tensor {
		t.Errorf("spot: %d replicas on %d GPUs (%s), the steady offer %d; want one spare", sp.Replicas, sp.GPUs, DescribeLayout(sp.Layout), st.Replicas)
	}
	// The spare is priced: 730 hours of its GPUs more.
	perGPU := decimal.RequireFromString("1.70").Mul(decimal.NewFromInt(730))
	if want := perGPU.Mul(decimal.NewFromInt(int64(sp.GPUs))); !sp.Cost.Total.Amount.Equal(want) {
		t.Errorf("spot cost %s, want %s for %d GPUs", sp.Cost.Total, want, sp.GPUs)
	}
	w := strings.Join(sp.Warnings, "|")
	if !strings.Contains(w, "about 1 interruptions a day assumed (the offer states none), 10m0s each to restart, leave a replica up 99.31% of the time; 1 spare replica (their cost included) keep the") {
		t.Errorf("spot warnings %q", sp.Warnings)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Offer.Line != 5 || !strings.Contains(rep.Skipped[0].Reason, "leave a replica up 0.00% of the time") {
		t.Errorf("skipped %+v, want the offer that is never up", rep.Skipped)
	}
	// At 99.9% the spot offer needs two spares.
	r.Serving.Availability = 0.999
	opts, err := Planner{Offers: []pricing.Offer{spot}}.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if opts[0].Replicas != st.Replicas+2 {
		t.Errorf("at 99.9%%: %d replicas, want %d", opts[0].Replicas, st.Replicas+2)
	}
	for _, a := range []float64{1, -0.1, math.NaN(), 1.5} {
		r.Serving.Availability = a
		if err := r.Validate(); !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "availability") {
			t.Errorf("availability %v: %v, want ErrInvalid naming it", a, err)
		}
	}
}

// When nothing fits, the levers that cost no GPUs come before more GPUs: the
// model's own stored format, a lower headroom, the optimizer offloaded to host
// RAM.
func TestSuggestionLevers(t *testing.T) {
	first := func(t *testing.T, err error, want string, before string) {
		t.Helper()
		var nf *NoFitError
		if !errors.As(err, &nf) {
			t.Fatalf("%v, want a NoFitError", err)
		}
		got := strings.Join(nf.Suggestions, "|")
		i, j := strings.Index(got, want), strings.Index(got, before)
		if i < 0 || before != "" && (j < 0 || j < i) {
			t.Errorf("suggestions %q, want %q before %q", nf.Suggestions, want, before)
		}
	}
	t.Run("own format", func(t *testing.T) {
		// Llama-3.1-70B stored as Q4_K_M (as ReadGGUF reads such a file),
		// asked for in BF16 on one 80 GB card.
		m := mustPreset(t, "llama-3.1-70b")
		m.StoredPrecision = sizing.Q4_K_M
		r := Request{Model: m, Workload: inference(sizing.BF16, 4096), Cards: []string{"h100-sxm5-80gb"}, GPUs: 1}
		_, err := Planner{}.Fit(r)
		first(t, err, "the model's own format, Q4_K_M (as its files store it), fits one H100 SXM5 80GB", "weights in")
	})
	t.Run("headroom", func(t *testing.T) {
		// Qwen2.5-7B LoRA at micro-batch 1 needs 20.4 GiB of an RTX 4090's 24.
		r := qwenLoRA(t)
		r.Headroom, r.Cards, r.GPUs = 0, []string{"rtx-4090"}, 1
		_, err := Planner{}.Fit(r)
		first(t, err, "keeping 15% of memory free (headroom) instead of 20%, 1 × GeForce RTX 4090 fit", "2 × GeForce RTX 4090")
	})
	t.Run("offload", func(t *testing.T) {
		// A full fine-tune of Llama-3.1-70B with ZeRO-3 on 8 H100s needs 16
		// bytes a parameter over 8 GPUs, about 140 GB each: offloading the
		// optimizer leaves the 16-bit weights and gradients.
		r := llama70BFull(t)
		r.Cards, r.Parallel = []string{"h100-sxm5-80gb"}, &sizing.Parallel{Data: 8, ZeRO: 3}
		_, err := Planner{}.Fit(r)
		first(t, err, "with the optimizer offloaded to host RAM (", "32 × H100 SXM5 80GB fit (data parallel ×32, ZeRO-3)")
	})
}
