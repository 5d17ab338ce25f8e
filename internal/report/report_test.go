package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/internal/msg"
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
