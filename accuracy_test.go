package gpuplan_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

var update = flag.Bool("update", false, "rewrite the accuracy table in README.md")

// accuracyRow is one line of the README's accuracy table: a published figure, what
// the library computes for the same case, and whether they agree within the
// stated tolerance.
type accuracyRow struct {
	name, published, computed, source string
	ok                                bool
}

// within reports |got − want| ≤ tol·|want|.
func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// must returns v, or stops the test run when err is set: every call here uses
// inputs the library must accept.
func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("accuracy table: %v", err))
	}
	return v
}

// accuracyRows computes every row of the table. Each published figure is in
// ../shared/REFERENCES.md with its source.
func accuracyRows() []accuracyRow {
	var rows []accuracyRow
	add := func(name, published, computed, source string, ok bool) {
		rows = append(rows, accuracyRow{name, published, computed, source, ok})
	}

	l27 := must(sizing.Preset("llama-2-7b"))
	l38 := must(sizing.Preset("llama-3-8b"))
	add("Llama-2-7B parameters", "6,738,415,616", commas(l27.ParamCount()), "config.json", l27.ParamCount() == 6738415616)
	add("Llama-3-8B parameters", "8,030,261,248", commas(l38.ParamCount()), "config.json", l38.ParamCount() == 8030261248)

	// Checkpoint counts of models read from their stored config.json: the BF16
	// safetensors index's total_size halved; DeepSeek-V3's published 671B.
	q72 := must(sizing.Preset("qwen2.5-72b"))
	add("Qwen2.5-72B parameters (from config.json)", "72,706,203,648", commas(q72.ParamCount()), "safetensors index", q72.ParamCount() == 72706203648)
	ds := must(sizing.Preset("deepseek-v3"))
	add("DeepSeek-V3 parameters, without the MTP module", "671B", fmt.Sprintf("%.1fB", float64(ds.ParamCount())/1e9), "DeepSeek-V3 report", ds.ParamCount()/1e9 == 671)
	dkv := must(sizing.KVCacheBytes(ds, 1, 1, sizing.BF16))
	add("DeepSeek-V3 KV cache per token, BF16 (bytes)", "70,272", commas(int64(dkv)), "DeepSeek-V2 §2.1 (576 × 61 × 2)", dkv == 70272)

	// DeepSpeed's estimate for T0_3B, ZeRO-3 with the optimizer offloaded, one GPU:
	// 62.23 GB of host memory (Hugging Face's DeepSpeed guide).
	t0 := must(sizing.Estimate(sizing.Model{Params: 2_783_000_000}, sizing.Workload{Task: sizing.Training, Precision: sizing.BF16,
		Batch: 1, SeqLen: 1, Parallel: sizing.Parallel{ZeRO: 3, OffloadOptimizer: true}}))
	add("T0_3B ZeRO-Offload host memory (GiB)", "62.23", fmt.Sprintf("%.2f", t0.Host.GiB()), "DeepSpeed estimator", within(t0.Host.GiB(), 62.23, 0.01))

	// ZeRO §3.1/§5: a 7.5B model, mixed-precision Adam, 64 GPUs, per device.
	zero := sizing.Model{Name: "zero-7.5b", Params: 7_500_000_000}
	var zs []string
	zok := true
	for stage, want := range []float64{120, 31.4, 16.6, 1.9} {
		w := sizing.Workload{Task: sizing.Training, Precision: sizing.FP16, Batch: 1, SeqLen: 1,
			Parallel: sizing.Parallel{Data: 64, ZeRO: stage}}
		b := must(sizing.Estimate(zero, w))
		states := float64(b.Weights+b.Gradients+b.Optimizer) / 1e9
		zs = append(zs, fmt.Sprintf("%.1f", states))
		zok = zok && within(states, want, 0.03)
	}
	add("ZeRO model states, 7.5B on 64 GPUs, stages 0/1/2/3 (GB)", "120 / 31.4 / 16.6 / 1.9", strings.Join(zs, " / "), "Rajbhandari et al. 2020", zok)

	// Korthikanti Table 2: GPT-3's attention term 5·a·s/h = 80; selective
	// recomputation saves 70% of activation memory.
	gpt3 := must(sizing.Preset("gpt-3-175b"))
	act := func(r sizing.Recompute) float64 {
		w := sizing.Workload{Task: sizing.Training, Precision: sizing.FP16, Batch: 1, SeqLen: 2048, Recompute: r, EagerAttention: true,
			Parallel: sizing.Parallel{Tensor: 8, SequenceParallel: true}}
		b := must(sizing.Estimate(gpt3, w))
		return float64(b.Activations)
	}
	saved := 1 - act(sizing.SelectiveRecompute)/act(sizing.NoRecompute)
	add("GPT-3 activations saved by selective recomputation", "70%", fmt.Sprintf("%.0f%%", saved*100), "Korthikanti et al. 2022", within(saved, 0.70, 0.05))

	opt13 := must(sizing.Preset("opt-13b"))
	l270 := must(sizing.Preset("llama-2-70b"))
	kvOPT := must(sizing.KVCacheBytes(opt13, 1, 1, sizing.FP16))
	kv70 := must(sizing.KVCacheBytes(l270, 1, 1, sizing.FP16))
	add("KV cache per token, OPT-13B / Llama-2-70B (bytes)", "819,200 / 327,680", commas(int64(kvOPT))+" / "+commas(int64(kv70)), "Kwon et al. 2023 (vLLM)", kvOPT == 819200 && kv70 == 327680)
	nf4 := sizing.NF4.Bits() - 4
	add("NF4 constants with double quantization (bits/param)", "0.127", fmt.Sprintf("%.3f", nf4), "Dettmers et al. 2023 (QLoRA)", within(nf4, 0.127, 0.01))

	gpt3Work := must(compute.TrainingFLOPs(sizing.Model{Params: 175e9}, 300e9, 0))
	add("GPT-3 175B training on 300B tokens (FLOPs)", "3.14e23", fmt.Sprintf("%.3g", float64(gpt3Work)), "Brown et al. 2020; 6·N·D", within(float64(gpt3Work), 3.14e23, 0.01))
	l405 := must(sizing.Preset("llama-3.1-405b"))
	l405Work := must(compute.TrainingFLOPs(l405, 15.6e12, 0))
	add("Llama 3 405B on 15.6T tokens (FLOPs)", "3.8e25", fmt.Sprintf("%.3g", float64(l405Work)), "Dubey et al. 2024; 6·N·D", within(float64(l405Work), 3.8e25, 0.03))
	megatron := must(compute.MegatronTime(sizing.Model{Params: 175e9}, 300e9, 1024, 140*compute.TFLOPS))
	days := megatron.Hours() / 24
	add("GPT-3 on 1024 A100s at 140 TFLOP/s (days)", "34", fmt.Sprintf("%.1f", days), "Narayanan et al. 2021", within(days, 34, 0.03))

	cat := catalog.Default()
	a100 := must(cat.Lookup("a100-sxm4-80gb"))
	peak, _ := a100.Peak(sizing.BF16)
	dec := compute.Decode{Model: l27, Weights: sizing.BF16, Context: 200, Bandwidth: a100.MemoryBandwidth, Peak: peak}
	speed := must(dec.Speed())
	add("Llama-2-7B BF16 decode on an A100, batch 1 (tokens/s)", "104.9", fmt.Sprintf("%.1f", float64(speed.PerSequence)), "gpt-fast", within(float64(speed.PerSequence), 104.9, 0.05))
	for _, q := range []struct {
		p        sizing.Precision
		name     string
		measured float64
		tol      float64
	}{{sizing.INT8, "INT8", 155.58, 0.2}, {sizing.INT4, "INT4", 196.80, 0.11}} {
		d := dec
		d.Weights, d.Context = q.p, 5
		s := must(d.Speed())
		add("Llama-2-7B "+q.name+" decode on an A100, batch 1 (tokens/s)", fmt.Sprintf("%.1f", q.measured), fmt.Sprintf("%.1f", float64(s.PerSequence)), "gpt-fast", within(float64(s.PerSequence), q.measured, q.tol))
	}

	seedWork := must(compute.SampleFLOPs(1e8, 1e9))
	rate := must(compute.RateFor(seedWork, 24*time.Hour))
	add("Article 1: 1e8 samples × 1e9 FLOPs in a day (TFLOP/s)", "11.6 (from 1e18, a slip)", fmt.Sprintf("%.2f (1e17)", float64(rate)/1e12), "arithmetic", within(float64(rate), 1.157e12, 0.01))

	for _, c := range []struct {
		id, seed string
		want     float64
	}{{"a100-sxm4-80gb", "5", 19.5}, {"v100-sxm2-32gb", "7", 15.7}, {"t4", "1", 8.1}, {"rtx-4090", "82", 82.6}} {
		card := must(cat.Lookup(c.id))
		fp32, _ := card.Peak(sizing.FP32)
		tf := float64(fp32) / 1e12
		add(fmt.Sprintf("%s FP32 (TFLOPS); article 1 says %s", card.Name, c.seed), fmt.Sprintf("%g", c.want), fmt.Sprintf("%g", tf), "NVIDIA datasheets", tf == c.want)
	}
	h100 := must(cat.Lookup("h100-sxm5-80gb"))
	hb, _ := h100.Peak(sizing.BF16)
	add("H100 SXM BF16 dense (TFLOPS), not the sparse 1979", "989.5", fmt.Sprintf("%g", float64(hb)/1e12), "NVIDIA H100 datasheet", float64(hb) == 989.5e12)

	tariff := pricing.Tariff{Currency: "CNY", Hourly: decimal.New(18, 0), Monthly: decimal.New(9000, 0)}
	be := must(tariff.BreakEven())
	add("¥18/h against ¥9000/month: break-even (hours)", "500", fmt.Sprintf("%g", be.Hours()), "REFERENCES.md", be == 500*time.Hour)
	return rows
}

// commas writes n with thousands separators, as the papers print counts.
func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func accuracyTable(rows []accuracyRow) string {
	var b strings.Builder
	b.WriteString("| Case | Published | gpuplan | Source |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.name, r.published, r.computed, r.source)
	}
	return b.String()
}

// TestAccuracyTable checks every published figure against the library and that
// README.md shows exactly the table computed here (go test . -update rewrites it).
func TestAccuracyTable(t *testing.T) {
	rows := accuracyRows()
	for _, r := range rows {
		if !r.ok {
			t.Errorf("%s: gpuplan gives %s, published %s (%s)", r.name, r.computed, r.published, r.source)
		}
	}
	const start, end = "<!-- accuracy:start -->\n", "<!-- accuracy:end -->"
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i, j := strings.Index(text, start), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", start, end)
	}
	table := accuracyTable(rows)
	if *update {
		text = text[:i+len(start)] + table + text[j:]
		if err := os.WriteFile("README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := text[i+len(start) : j]; got != table {
		t.Errorf("README.md accuracy table is stale; run go test . -update\ngot:\n%s\nwant:\n%s", got, table)
	}
}
