package report

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

func TestFit(t *testing.T) {
	const ranking = " (expected cost, interruptions included; warnings do not change the order):"
	for _, tc := range []struct {
		name       string
		all, shown int
		rank       plan.Rank
		every      bool
		lang       msg.Lang
		want       string
	}{
		{"one", 1, 1, plan.RankCost, false, msg.EN, "1 candidate considered; the best option" + ranking},
		{"top ten", 129, 10, plan.RankCost, false, msg.EN, "129 candidates considered; the 10 best options, one per offer, cheapest first" + ranking},
		{"fastest, every count", 129, 10, plan.RankTime, true, msg.EN, "129 candidates considered; the 10 best options, one per offer and GPU count, fastest first (expected time, then cost; warnings do not change the order):"},
		{"Chinese", 129, 10, plan.RankCost, false, msg.ZH, "共评估 129 个候选；每个报价取最优，列出 10 个方案，最便宜的在前（按预计费用，已计入中断的影响；警告不影响排序）："},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := plan.Request{Rank: tc.rank, EveryCount: tc.every}
			rep := plan.Report{Considered: tc.all, Options: make([]plan.Option, tc.shown)}
			if got := Fit(tc.lang, r, rep); got != tc.want {
				t.Errorf("Fit(%d considered, %d shown) = %q, want %q", tc.all, tc.shown, got, tc.want)
			}
		})
	}
}

// The default table shows the region when two options differ in it alone of
// what the table shows of their offers (a SkyPilot catalog's H100 in two
// regions would read as two identical rows), and leaves it to -wide otherwise.
func TestRegionWhenRowsReadAlike(t *testing.T) {
	opt := func(provider, region, card string) plan.Option {
		return plan.Option{Offer: pricing.Offer{Provider: provider, Region: region, Card: card}}
	}
	for _, tc := range []struct {
		name string
		opts []plan.Option
		want bool
	}{
		{"same card, two regions", []plan.Option{opt("lambda", "us-east-1", "H100 80GB"), opt("lambda", "europe-central-1", "H100 80GB")}, true},
		{"two cards", []plan.Option{opt("lambda", "us-east-1", "H100 80GB"), opt("lambda", "europe-central-1", "A100 40GB")}, false},
		{"two providers", []plan.Option{opt("a", "us-east-1", "H100 80GB"), opt("b", "europe-central-1", "H100 80GB")}, false},
	} {
		tab := Options(PlanColumns, tc.opts, View{Lang: msg.EN})
		if got := slices.Contains(tab.Head, msg.EN.T("plan.col.region")); got != tc.want {
			t.Errorf("%s: headings %q; want the region shown: %v", tc.name, tab.Head, tc.want)
		}
	}
}
