package gpuplan_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// TestReadmeTour runs the README's tour snippets and checks that the figures their
// comments quote are what the library computes, so the tour cannot drift from the
// code: each quoted figure must appear in README.md and equal the computed one.
func TestReadmeTour(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	claim := func(quoted, computed string) {
		t.Helper()
		if !strings.Contains(readme, quoted) {
			t.Errorf("README.md no longer quotes %q", quoted)
		}
		if !strings.Contains(quoted, computed) {
			t.Errorf("README.md quotes %q; the library computes %q", quoted, computed)
		}
	}

	m, err := sizing.Preset("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	w := sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 8192}
	est, err := sizing.Estimate(m, w)
	if err != nil {
		t.Fatal(err)
	}
	claim("b.Total().Human(): 18.1 GiB", est.Total().Human())
	usable, err := sizing.Usable(24564*sizing.MiB, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if !est.Fits(24564*sizing.MiB, 0.2) {
		t.Errorf("the README says the estimate fits an RTX 4090 with 20%% free; Fits says no")
	}
	ctx, err := sizing.MaxContext(m, w, usable)
	if err != nil {
		t.Fatal(err)
	}
	claim("// 13434 tokens: the longest context it holds", strconv.Itoa(ctx)+" tokens")
	claim("**catalog**: 57 cards from datasheets", strconv.Itoa(len(catalog.Default().Cards()))+" cards")

	tariff := pricing.Tariff{Currency: "CNY", Hourly: decimal.New(18, 0), Monthly: decimal.New(9000, 0)}
	q, err := tariff.Cost(731 * time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Total.Amount.Equal(decimal.New(9018, 0)) {
		t.Errorf("README: one month plus an hour is ¥9018; Cost says %v", q.Total)
	}
	be, err := tariff.BreakEven()
	if err != nil {
		t.Fatal(err)
	}
	if be != 500*time.Hour {
		t.Errorf("README: break-even at 500h; BreakEven says %v", be)
	}
	claim("// 500h: above it the monthly package wins", "500h")

	// The planner snippet, on the README's own one-line price list.
	start := strings.Index(readme, "```csv\n")
	end := strings.Index(readme[start+7:], "```")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no csv price list")
	}
	offers, err := pricelist.ReadCSV(strings.NewReader(readme[start+7 : start+7+end]))
	if err != nil {
		t.Fatalf("the README's price list does not load: %v", err)
	}
	lora := sizing.Workload{Task: sizing.LoRA, Precision: sizing.BF16, Batch: 4, SeqLen: 2048,
		Recompute: sizing.FullRecompute}
	opts, err := plan.Planner{Catalog: catalog.Default(), Offers: offers}.Plan(plan.Request{
		Model: m, Workload: lora, Tokens: 1e8, Deadline: 12 * time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	best := opts[0]
	dur := strings.TrimSuffix(best.Duration.Truncate(time.Minute).String(), "0s")
	got := strconv.Itoa(best.GPUs) + " × RTX 4090, " + dur + ", " + best.Cost.Total.String() +
		", micro-batch " + strconv.Itoa(best.MicroBatch) + " × " + strconv.Itoa(best.Accumulation)
	claim("list below: 8 × RTX 4090, 1h40m, CNY 21.34, micro-batch 2 × 2", got)
	// README.zh-CN.md quotes the same option in Chinese.
	zh, err := os.ReadFile("README.zh-CN.md")
	if err != nil {
		t.Fatal(err)
	}
	hours, mins := int(best.Duration.Hours()), int(best.Duration.Minutes())%60
	zhGot := fmt.Sprintf("%d 张 RTX 4090，\n   // %d 小时 %d 分，¥%s，微批 %d × %d", best.GPUs, hours, mins, best.Cost.Total.Amount.StringFixed(2), best.MicroBatch, best.Accumulation)
	if !strings.Contains(string(zh), zhGot) {
		t.Errorf("README.zh-CN.md does not quote the tour's option as %q", zhGot)
	}
	if len(best.Warnings) == 0 || !strings.Contains(best.Warnings[0], "PCIe") {
		t.Errorf("warnings %q, want the PCIe note the README quotes", best.Warnings)
	}
}
