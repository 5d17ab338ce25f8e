package plan

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// lambda8xA100 is Lambda's gpu_8x_a100: eight A100 40GB sold as one instance at
// 15.92 USD an hour (SkyPilot catalog catalogs/v8/lambda/vms.csv, in
// pricing/testdata/skypilot/lambda_vms.csv).
func lambda8xA100(maxGPUs int) pricing.Offer {
	return pricing.Offer{Provider: "lambda", Region: "us-east-1", Card: "A100 40GB", GPUsPerInstance: 8, MaxGPUs: maxGPUs,
		Tariff: pricing.Tariff{Currency: "USD", Hourly: decimal.RequireFromString("15.92")}}
}

// An offer sold in 8-GPU instances rents whole instances: a job on 6 GPUs pays
// for one instance (15.92 USD for the hour, not 6 × 15.92 = 95.52), says that two
// GPUs sit idle, and a job on 16 rents two instances that talk over the network.
func TestPlanInstancesRentWhole(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{lambda8xA100(16)}}
	r := Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 4096), EveryCount: true, Limit: -1}
	opts, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	byUse := map[int]Option{}
	for _, o := range opts {
		byUse[max(o.Layout.Data, o.Layout.Tensor, o.Layout.Pipeline, 1)] = o
	}
	for _, tc := range []struct {
		use, rented int
		cost        string
		idle        string // a warning the option must carry
	}{
		{1, 8, "15.92", "job uses 1 of 8 GPUs; 7 idle GPUs are paid for"},
		{6, 8, "15.92", "job uses 6 of 8 GPUs; 2 idle GPUs are paid for"},
		{8, 8, "15.92", ""},
		{16, 16, "31.84", "16 GPUs span 2 servers"},
	} {
		o, ok := byUse[tc.use]
		if !ok {
			t.Errorf("no option using %d GPUs among %d", tc.use, len(opts))
			continue
		}
		if o.GPUs != tc.rented || o.Cost.Total.Amount.StringFixed(2) != tc.cost {
			t.Errorf("job on %d GPUs: %d GPUs rented for %s, want %d for USD %s", tc.use, o.GPUs, o.Cost.Total, tc.rented, tc.cost)
		}
		all := strings.Join(o.Warnings, "\n")
		if tc.idle != "" && !strings.Contains(all, tc.idle) {
			t.Errorf("job on %d GPUs: warnings %q, want %q", tc.use, o.Warnings, tc.idle)
		}
		if tc.idle == "" && strings.Contains(all, "idle") {
			t.Errorf("job on %d GPUs of %d: warnings %q speak of idle GPUs", tc.use, o.GPUs, o.Warnings)
		}
	}
	// The quote counts instances: one instance-hour at the instance's price.
	if l := byUse[6].Cost.Lines[0]; !l.Quantity.Equal(decimal.NewFromInt(1)) || l.Price.Amount.String() != "15.92" {
		t.Errorf("6 GPUs quoted as %s × %s, want 1 × 15.92", l.Quantity, l.Price.Amount)
	}
	// Without EveryCount the best option is the smallest rental, on the fewest GPUs.
	r.EveryCount = false
	best, err := p.Plan(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(best) != 1 || best[0].GPUs != 8 || best[0].Cost.Total.Amount.StringFixed(2) != "15.92" {
		t.Errorf("best: %d options, first %d GPUs for %s; want one of 8 GPUs for USD 15.92", len(best), best[0].GPUs, best[0].Cost.Total)
	}
}

// The request's GPU cap counts GPUs rented: 4 GPUs allow no 8-GPU instance, and
// the offer is listed as skipped with the reason; 12 allow one.
func TestPlanInstancesRequestCap(t *testing.T) {
	p := Planner{Offers: []pricing.Offer{lambda8xA100(0), planOffer("a", "A100 40GB", 4, "3", "")}}
	p.Offers[1].Tariff.Currency = "USD"
	rep, err := p.Report(Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 4096), MaxGPUs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Options) != 1 || rep.Options[0].Offer.Provider != "a" {
		t.Fatalf("options %d, want only the per-GPU offer", len(rep.Options))
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "instances of 8 GPUs, more than the 4 allowed") {
		t.Errorf("skipped %+v, want the 8-GPU instance with its reason", rep.Skipped)
	}
	rep, err = p.Report(Request{Model: mustPreset(t, "llama-2-7b"), Workload: inference(sizing.BF16, 4096), MaxGPUs: 12, EveryCount: true, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Options {
		if o.GPUs > 12 {
			t.Errorf("%s: %d GPUs rented past the cap of 12", o.Offer.Provider, o.GPUs)
		}
	}
}

// Instances smaller than a server: two 4-GPU instances are two servers, so a job
// on 8 of their GPUs talks over the network between them, where 8 GPUs sold one by
// one are taken as one NVLink server; the same training job is slower on them.
func TestPlanInstancesSpanServers(t *testing.T) {
	quad := pricing.Offer{Provider: "lambda", Card: "A100 SXM4 40GB", GPUsPerInstance: 4, MaxGPUs: 8,
		Tariff: pricing.Tariff{Currency: "USD", Hourly: decimal.RequireFromString("7.96")}}
	single := pricing.Offer{Provider: "single", Card: "A100 SXM4 40GB", MaxGPUs: 8,
		Tariff: pricing.Tariff{Currency: "USD", Hourly: decimal.RequireFromString("1.99")}}
	// A full fine-tune, whose gradients cross the links every step (a LoRA's
	// adapters' gradients are too small to matter), on sequences short enough
	// that their all-reduce between the servers outlasts the compute it hides
	// behind.
	r := Request{Model: mustPreset(t, "llama-3.2-1b"), Workload: sizing.Workload{Task: sizing.Training, Precision: sizing.BF16, Batch: 1, SeqLen: 256, ChunkedLoss: true},
		Tokens: 1e8, EveryCount: true, Limit: -1}
	at8 := func(o pricing.Offer) Option {
		t.Helper()
		opts, err := (Planner{Offers: []pricing.Offer{o}}).Plan(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range opts {
			if opt.GPUs == 8 && opt.Layout.Data*max(opt.Layout.Tensor, 1) == 8 {
				return opt
			}
		}
		t.Fatalf("%s: no option on 8 GPUs", o.Provider)
		return Option{}
	}
	q, s := at8(quad), at8(single)
	if !strings.Contains(strings.Join(q.Warnings, "\n"), "8 GPUs span 2 servers") {
		t.Errorf("two 4-GPU instances: warnings %q, want 8 GPUs over 2 servers", q.Warnings)
	}
	if strings.Contains(strings.Join(s.Warnings, "\n"), "span") {
		t.Errorf("8 single GPUs: warnings %q speak of servers", s.Warnings)
	}
	if q.Duration <= s.Duration {
		t.Errorf("over the network %v, within a server %v: want the network slower", q.Duration, s.Duration)
	}
	// Same money per GPU-hour: 7.96 per 4 GPUs is 1.99 per GPU, so the instances
	// cost more only for the longer time.
	want := fmt.Sprint(q.Duration > s.Duration)
	if got := fmt.Sprint(q.Cost.Total.Amount.GreaterThan(s.Cost.Total.Amount)); got != want {
		t.Errorf("costs %s and %s", q.Cost.Total, s.Cost.Total)
	}
}

// servingOnInstances plans TestServingLlama8B's traffic (20 requests/s of 1000
// prompt and 300 output tokens, TTFT ≤ 1 s, TPOT ≤ 50 ms) on RTX 4090s sold in
// instances of per GPUs at hourly an instance, every count returned.
func servingOnInstances(t *testing.T, hourly string, per int) Report {
	t.Helper()
	tr := Traffic{Rate: 20, PromptTokens: 1000, OutputTokens: 300, TTFT: time.Second, TPOT: 50 * time.Millisecond}
	o := planOffer("a", "RTX 4090", 0, hourly, "")
	o.GPUsPerInstance = per
	r := servingRequest(t, "llama-3.1-8b", tr)
	r.EveryCount, r.Limit = true, -1
	rep, err := Planner{Offers: []pricing.Offer{o}}.Report(r)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Serving on instances: the one-GPU RTX 4090 replicas 20 requests/s need rent
// the 4-GPU instances that hold them, ⌈n/4⌉ of them priced per instance at
// 6.40 an hour, the GPUs past n idle; a replica never spans instances.
func TestServingInstances(t *testing.T) {
	rep := servingOnInstances(t, "6.40", 4)
	var found bool
	for _, opt := range rep.Options {
		if opt.Layout.Tensor > 4 {
			t.Errorf("tensor parallel ×%d across 4-GPU instances", opt.Layout.Tensor)
		}
		if opt.GPUs%4 != 0 {
			t.Errorf("%d GPUs rented in 4-GPU instances", opt.GPUs)
		}
		if max(opt.Layout.Tensor, 1) == 1 && opt.Fleet[0].Role == RoleServe {
			found = true
			n := opt.Replicas
			instances := (n + 3) / 4
			perHour := decimal.NewFromInt(int64(instances)).Mul(decimal.RequireFromString("6.40")).StringFixed(2)
			idle := fmt.Sprintf("job uses %d of %d GPUs", n, 4*instances)
			if opt.GPUs != 4*instances || opt.PerHour.Amount.StringFixed(2) != perHour || n%4 != 0 && !strings.Contains(strings.Join(opt.Warnings, "\n"), idle) {
				t.Errorf("%d one-GPU replicas: %d GPUs at %s an hour, warnings %q; want %d at %s", n, opt.GPUs, opt.PerHour, opt.Warnings, 4*instances, perHour)
			}
		}
	}
	if !found {
		t.Errorf("no option of one-GPU replicas among %d", len(rep.Options))
	}
}

// A replica stays inside one instance: on 3-GPU instances a replica of two GPUs
// takes an instance of its own (one GPU idle), so k such replicas rent k
// instances, not ⌈2k/3⌉ with a replica split over two of them.
func TestServingInstancesReplicaPerInstance(t *testing.T) {
	rep := servingOnInstances(t, "4.80", 3)
	var found bool
	for _, opt := range rep.Options {
		tp := max(opt.Layout.Tensor, 1)
		per := 3 / tp // replicas one instance holds
		instances := (opt.Replicas + per - 1) / per
		if opt.GPUs != instances*3 {
			t.Errorf("%d replicas of %d GPUs on 3-GPU instances: %d GPUs rented, want %d (%d instances)", opt.Replicas, tp, opt.GPUs, instances*3, instances)
		}
		if used := opt.Replicas * tp; used < opt.GPUs && !strings.Contains(strings.Join(opt.Warnings, "\n"), fmt.Sprintf("job uses %d of %d GPUs", used, opt.GPUs)) {
			t.Errorf("%d of %d GPUs used: warnings %q", used, opt.GPUs, opt.Warnings)
		}
		if tp == 2 {
			found = true
			want := decimal.NewFromInt(int64(instances)).Mul(decimal.RequireFromString("4.80")).StringFixed(2)
			if got := opt.PerHour.Amount.StringFixed(2); got != want {
				t.Errorf("%d two-GPU replicas: %s an hour, want %s", opt.Replicas, got, want)
			}
		}
	}
	if !found {
		t.Errorf("no option of two-GPU replicas among %d", len(rep.Options))
	}
}
