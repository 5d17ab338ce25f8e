package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "default", args: nil},
		{name: "long_sequence", args: []string{"-context", "2048", "-seq", "4096"}},
		{name: "zh", args: []string{"-lang", "zh"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(&out, tt.args, msg.EN); err != nil {
				t.Fatalf("run(%q) error = %v", tt.args, err)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("run(%q) output differs from %s:\ngot:\n%s\nwant:\n%s", tt.args, golden, got, want)
			}
		})
	}
}

// A context past the Llama-2 window of 4096 tokens is an error naming it.
func TestContextPastWindow(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, []string{"-context", "32768"}, msg.EN)
	if err == nil || !strings.Contains(err.Error(), "context window of 4096 tokens") {
		t.Errorf("run(-context 32768) = %v, want an error naming the 4096-token window", err)
	}
}

// TestClaims pins the figures the report exists to show, so that a golden file
// regenerated after a library change cannot silently lose them.
func TestClaims(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, nil, msg.EN); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	flat := strings.ReplaceAll(report, "\n  ", " ") // wrapped claims and verdicts back on one line
	for _, want := range []string{
		"compute.SampleFLOPs(1e8, 1e9 FLOP) = 1e+17 FLOP; compute.RateFor(it, 24h) = 1.157 TFLOPS", // the slip
		"1e+18 FLOP in 24h, needs 11.57 TFLOPS",
		"worked example adds it up (base + Adam + activations): 30.0 GB to 36.0 GB", // 14 + 14 + 2..8
		"= model states 107.8 GB, 16.0 bytes per parameter",                         // ZeRO's 16 B/param
		"A100 SXM4 80GB      5 TFLOPS   19.5 TFLOPS",                                // card table
		"V100 PCIe 32GB      7 TFLOPS     14 TFLOPS     7 TFLOPS",
		"GeForce RTX 4090   82 TFLOPS   82.6 TFLOPS",
		"T4                  1 TFLOPS    8.1 TFLOPS",
		"Tariff.BreakEven() = 500.0 h a month", // ¥9000 / ¥18
		"(80 GB sold, 40 GB delivered)",
		"SAMPLE prices",
		// Training advice: 16 B/param puts 3B past a 32 GB card; 10B past one 80 GB card.
		"only 1B in full, and the 24 GB RTX 4090 only 1B",
		"10B on A100 SXM4 80GB: ZeRO-3 over 3 GPUs",
		"V100 SXM2 32GB: no BF16",
		// The named 7B models, from their config files: 7,615,616,512 and 8,030,261,248 parameters.
		"Qwen2-7B has 7.62B parameters (15.2 GB)",
		"Llama-3-8B 8.03B (16.1 GB)",
		"'keep 28 GB or more' rules out the 24 GB card",
		// The T4: 15360 MiB, 320 GB/s against the RTX 4090's 1008 GB/s.
		"A 7B model in FP16 needs 17.4 GB at 4K, more than the T4's 15360 MiB",
		"decodes the same Q4_K_M model at 31 tokens/s against 97",
		// Serving (compute.Serving, 1000 + 300 tokens a request): Llama-2-7B's full KV
		// cache holds 13 requests on a 24 GB 4090, 36 on an A100 40GB, 92 on an H800;
		// Llama-3-8B's GQA cache four times as many; 13B BF16 does not fit the 4090.
		"llama-2-7b   BF16   GeForce RTX 4090        13",
		"llama-2-13b  BF16   GeForce RTX 4090    no fit",
		"holds 13 requests at once on the RTX 4090 and 36 on the A100 40GB",
		"one H800 holds 92 requests of Llama-2-7B",
		"H800's cut link costs it nothing here",
		// Batch 1 to 8 doubles Llama-2-7B inference memory at 4096 tokens, not at 512.
		"from 1.14× at 512 tokens to\n  2.00× at 4096",
		"McCandlish et al. 2018",
		// 13B: LoRA on a 16-bit base does not fit 24 GB, QLoRA and Q4_K_M inference do.
		"For 13B, LoRA on a 16-bit base does not fit",
		"quantized to Q4_K_M it fits at this context",
		// The 3090 draws less than the 4090 (350 W against 450 W), at 102 against 184 FP32 GFLOPS per watt.
		"The 3090's board power is 350 W, less than the 4090's 450 W",
		"(102 against 184 FP32 GFLOPS per watt",
		// Ring all-reduce of 1 GB over 8 GPUs: 2·7/8 GB at 300 GB/s (A100 NVLink) against 31.5 GB/s (PCIe 4.0).
		"should take about 5.8 ms",
		"it takes 55.5 ms, 10 times as long",
		// Prices: REFERENCES.md's indicative ranges and the sample list's medians.
		"A100 80GB USD 1.20–3.40, 4.0–11.3× the 4090",
		"price per 16-bit PFLOPS-hour 4.0×",
		"45.8% below the median CNY 1.475/h",
		"Tier III 99.982%",
	} {
		if !strings.Contains(report, want) && !strings.Contains(flat, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(report, "\nClaim (article "); n != 26 {
		t.Errorf("report has %d claims, want 26", n)
	}
	if n := strings.Count(report, "\nVerdict: "); n != 26 {
		t.Errorf("report has %d verdicts, want 26", n)
	}
	// Every verdict opens with one of the report's words for it.
	for _, v := range strings.Split(report, "\nVerdict: ")[1:] {
		if !strings.HasPrefix(v, "reproduced") && !strings.HasPrefix(v, "corrected") &&
			!strings.HasPrefix(v, "partly true") && !strings.HasPrefix(v, "not reproduced") {
			t.Errorf("verdict opens %q, want reproduced, corrected, partly true or not reproduced", v[:min(len(v), 40)])
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-context", "0"},
		{"-seq", "-1"},
		{"-nosuchflag"},
		{"extra"},
	} {
		if err := run(io.Discard, args, msg.EN); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("run(%q) error = %v, want a usage error", args, err)
		}
	}
}

// TestHelp checks that -h says what the command does and its exit statuses.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}, msg.EN); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: seeds [flags]", "Prints each worked example and claim", "Exit status: 0", "2 usage error", "-context int"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h output lacks %q:\n%s", want, out.String())
		}
	}
}

// -json prints the settings and every section of the text report, as one JSON
// value.
func TestJSON(t *testing.T) {
	var out, text bytes.Buffer
	if err := run(&out, []string{"-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if err := run(&text, nil, msg.EN); err != nil {
		t.Fatal(err)
	}
	var got jsonReport
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON report: %v", err)
	}
	if got.Context != 4096 || got.Seq != 2048 {
		t.Errorf("settings %d, %d; want 4096 and 2048", got.Context, got.Seq)
	}
	for i, sec := range got.Sections {
		if head := fmt.Sprintf("\n%d. %s\n", i+1, sec.Title); !strings.Contains(text.String(), head) || len(sec.Library) == 0 || sec.Verdict == "" {
			t.Errorf("section %d %q: not in the text report, or without figures and verdict", i+1, sec.Title)
		}
	}
	if n := strings.Count(text.String(), "\nVerdict: "); len(got.Sections) != n {
		t.Errorf("%d sections in JSON, %d verdicts in the text", len(got.Sections), n)
	}
}

// The Chinese report quotes each claim in the article's own words, with its
// line, and gives the library's figures and the verdict in Chinese: money in
// yuan to the fen, durations in 小时, 分钟 and 毫秒, and English only where it
// quotes a message the library returns.
func TestChinese(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-lang", "zh"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	if n := strings.Count(report, "\n原文（文章"); n != 26 {
		t.Errorf("report has %d claims, want 26", n)
	}
	verdicts := strings.Split(report, "\n结论：")[1:]
	if len(verdicts) != 26 {
		t.Errorf("report has %d verdicts, want 26", len(verdicts))
	}
	for _, v := range verdicts {
		if !strings.HasPrefix(v, "复现") && !strings.HasPrefix(v, "更正") && !strings.HasPrefix(v, "部分更正") &&
			!strings.HasPrefix(v, "部分属实") && !strings.HasPrefix(v, "未复现") {
			t.Errorf("verdict opens %q, want 复现, 更正, 部分更正, 部分属实 or 未复现", text.CutWidth(v, 30))
		}
	}
	for _, claim := range strings.Split(report, "\n原文（文章")[1:] {
		claim, _, _ = strings.Cut(claim, "\n程序库的计算：")
		if !strings.Contains(claim, "“") || !strings.Contains(claim, "行）") {
			t.Errorf("claim %q quotes no line of the article", text.CutWidth(claim, 40))
		}
	}
	english := regexp.MustCompile(`\b(the|is|fits|per GPU|tokens|Claim|Library|Verdict)\b`)
	unit := regexp.MustCompile(`\d (h|min|ms)\b`)
	yuan := regexp.MustCompile(`¥-?\d+(\.\d*)?`)
	for _, line := range strings.Split(report, "\n") {
		quoted := strings.HasPrefix(line, "      ") || strings.Contains(line, "问题：") || strings.Contains(line, "备注：")
		if !quoted && (english.MatchString(line) || strings.Contains(line, "CNY")) {
			t.Errorf("line in English: %q", line)
		}
		if unit.MatchString(line) {
			t.Errorf("line with an English unit: %q", line)
		}
		for _, m := range yuan.FindAllString(line, -1) {
			if _, frac, _ := strings.Cut(m, "."); len(frac) < 2 {
				t.Errorf("%q: yuan not to the fen in %q", m, line)
			}
		}
	}
	if strings.Contains(report, "!seeds.") || strings.Contains(report, "%!") {
		t.Error("report has a message missing from the tables or a bad format")
	}
}

// Both languages print the figures of one computation: each section's library
// lines hold the same numbers in English and in Chinese.
func TestSameFigures(t *testing.T) {
	s := settings{context: 4096, seq: 2048, headroom: plan.DefaultHeadroom, cat: catalog.Default()}
	secs, err := s.sections()
	if err != nil {
		t.Fatal(err)
	}
	number := regexp.MustCompile(`\d+(\.\d+)?`)
	for i, sec := range secs {
		var en, zh []string
		for _, line := range sec.library {
			en = append(en, number.FindAllString(line.in(msg.EN), -1)...)
			zh = append(zh, number.FindAllString(line.in(msg.ZH), -1)...)
		}
		slices.Sort(en)
		slices.Sort(zh)
		if !slices.Equal(en, zh) {
			t.Errorf("section %d (%s): English figures %q, Chinese %q", i+1, sec.title.in(msg.EN), en, zh)
		}
	}
}

// Chinese table cells pad by display columns, so that the columns line up: a
// header and a row of each table end (right-aligned columns) or start
// (left-aligned ones) at the same column of the terminal.
func TestChineseTablesAlign(t *testing.T) {
	report := map[msg.Lang]string{}
	for _, l := range []msg.Lang{msg.EN, msg.ZH} {
		var out bytes.Buffer
		if err := run(&out, []string{"-lang", l.String()}, msg.EN); err != nil {
			t.Fatal(err)
		}
		report[l] = out.String()
	}
	// at is the display columns where the nth occurrence of cell starts and ends
	// in the first line of the report that holds line; with no cell, where the
	// line's nth field (split at spaces; from the end when negative) does.
	at := func(l msg.Lang, line, cell string, nth int) (start, end int) {
		for _, s := range strings.Split(report[l], "\n") {
			if !strings.Contains(s, line) {
				continue
			}
			if cell == "" {
				fields := strings.Fields(s)
				if nth < 0 {
					nth += len(fields) + 1
				}
				if nth < 1 || nth > len(fields) {
					t.Fatalf("%v: line %q has no field %d", l, s, nth)
				}
				i := 0
				for _, f := range fields[:nth] {
					i += strings.Index(s[i:], f) + len(f)
				}
				return text.Width(s[:i-len(fields[nth-1])]), text.Width(s[:i])
			}
			i := 0
			for range nth {
				j := strings.Index(s[i:], cell)
				if j < 0 {
					t.Fatalf("%v: line %q has fewer than %d %q", l, s, nth, cell)
				}
				i += j + len(cell)
			}
			return text.Width(s[:i-len(cell)]), text.Width(s[:i])
		}
		t.Fatalf("%v: no line holds %q", l, line)
		return 0, 0
	}
	type spot struct {
		line, cell string
		nth        int
	}
	// Rows are found by words and units rather than by figures, which move
	// with the library's models.
	for _, tc := range []struct {
		lang      msg.Lang
		head, row spot
		left      bool // a left-aligned column: compare starts, not ends
	}{
		{msg.ZH, spot{"方案", "每卡显存", 1}, spot{"8-bit Adam，单卡", "GB", 1}, false},
		{msg.ZH, spot{"方案", "80 GB", 1}, spot{"切分到 2 张卡", "放得下", 1}, true},
		{msg.ZH, spot{"参数量           AdamW", "A100 SXM4 80GB", 1}, spot{"    10B ", "", -1}, true},
		{msg.ZH, spot{"显存（nvidia-smi）", "FP64", 1}, spot{"GFLOPS  15360 MiB", "GFLOPS", 1}, false},
		{msg.ZH, spot{"1.5–2 倍法则", "1.5–2 倍法则", 1}, spot{"llama-2-70b    140 GB", "GB", 3}, false},
		{msg.ZH, spot{"1.5–2 倍法则", "80 GB", 1}, spot{"llama-2-70b    140 GB", "", -1}, true},
		{msg.ZH, spot{"4K 上下文最大批量", "所需显存", 1}, spot{"llama-2-13b   13.02B", "GB", 2}, false},
		{msg.ZH, spot{"token/秒", "TDP", 1}, spot{"GeForce RTX 4090   FP16", " W", 1}, false},
		{msg.ZH, spot{"满并发 token/秒", "TPOT 目标内", 1}, spot{"llama-2-7b   FP8", "token/秒", 1}, false},
		{msg.ZH, spot{"满并发 token/秒", "满并发 token/秒", 1}, spot{"llama-2-7b   FP8", "", -3}, false},
		{msg.ZH, spot{"token 数", "倍数", 1}, spot{"LoRA，完全重计算", "×", 1}, false},
		{msg.ZH, spot{"权重格式", "总计减少", 1}, spot{"Q4_K_M     4.84", "%", 2}, false},
		{msg.ZH, spot{"梯度+优化器", "梯度+优化器", 1}, spot{"QLoRA（NF4 基座，全部线性层）", "MB", 1}, false},
		{msg.ZH, spot{"sizing.RenderMemory(SDXL", "在", 1}, spot{"sizing.RenderMemory(Cycles 4K", "在", 1}, true},
		{msg.ZH, spot{"每瓦 BF16", "每瓦 BF16", 1}, spot{"GFLOPS    ", "GFLOPS", 2}, false},
		{msg.ZH, spot{"示例价格       示例费用", "能耗", 1}, spot{"kWh", "kWh", 1}, false},
		{msg.ZH, spot{"示例价格       示例费用", "解码速度", 1}, spot{"kWh", "token/秒", 1}, false},
		{msg.ZH, spot{"扩展效率      耗时", "耗时", 1}, spot{"A100 SXM4 80GB   NVLink", "小时", 1}, false},
		{msg.ZH, spot{"卡型与互联", "8 张卡", 1}, spot{"GeForce RTX 4090，PCIe", "毫秒", 2}, false},
		{msg.ZH, spot{"每小时中位价", "每小时中位价", 1}, spot{"GeForce RTX 4090      4", "", 5}, false},
		{msg.ZH, spot{"机房等级，服务", "机房等级，服务", 1}, spot{"无，self-service", "无，self-service", 1}, true},
		{msg.ZH, spot{"机房等级，服务", "标记", 1}, spot{"无，self-service", "偏低", 1}, true},
		{msg.ZH, spot{"每天中断次数", "预计费用", 1}, spot{"（假设）", "", -1}, false},
		{msg.ZH, spot{"每天中断次数", "损失时间", 1}, spot{"（假设）", "分钟", 1}, false},
		{msg.ZH, spot{"每天中断次数", "等级", 1}, spot{"（假设）", "-", 3}, true},
		{msg.ZH, spot{"全按量计费", "最省组合", 1}, spot{"先试用", "", 6}, false},
		{msg.ZH, spot{"全按量计费", "全按量计费", 1}, spot{"连续使用 730 小时", "", 4}, false},
		{msg.ZH, spot{"1 张 RTX 4090", "每卡", 1}, spot{"4 张 RTX 4090", "每卡", 1}, true},
		{msg.ZH, spot{"llama-2-70b，FP16，2", "每卡", 1}, spot{"llama-2-70b，Q4_K_M", "每卡", 1}, true},
		// The English headers fixed to line up with their rows.
		{msg.EN, spot{"tokens/s max", "within target", 1}, spot{"llama-2-7b   FP8", "tok/s", 1}, false},
		{msg.EN, spot{"FP32 per W", "BF16 per W", 1}, spot{"GFLOPS    ", "GFLOPS", 2}, false},
		{msg.EN, spot{"SAMPLE price    SAMPLE cost", "energy", 1}, spot{"kWh", "kWh", 1}, false},
	} {
		hs, he := at(tc.lang, tc.head.line, tc.head.cell, tc.head.nth)
		rs, re := at(tc.lang, tc.row.line, tc.row.cell, tc.row.nth)
		if tc.left && hs != rs {
			t.Errorf("%v: %q starts at column %d, %q at %d", tc.lang, tc.head.cell, hs, tc.row.cell, rs)
		}
		if !tc.left && he != re {
			t.Errorf("%v: %q ends at column %d, %q at %d", tc.lang, tc.head.cell, he, tc.row.cell, re)
		}
	}
}

// A cell pads to its verb's width by display columns: a Chinese character takes
// two.
func TestCell(t *testing.T) {
	for _, tc := range []struct {
		format string
		arg    cell
		want   string
	}{
		{"[%-8s]", "放得下", "[放得下  ]"},
		{"[%8s]", "放得下", "[  放得下]"},
		{"[%4s]", "放得下", "[放得下]"},
		{"[%-8s]", "fits", "[fits    ]"},
		{"[%s]", "×–", "[×–]"},
	} {
		if got := fmt.Sprintf(tc.format, tc.arg); got != tc.want {
			t.Errorf("Sprintf(%q, %q) = %q, want %q", tc.format, tc.arg, got, tc.want)
		}
	}
	if got := fmt.Sprintf("%.0f %.2f %s", fixed(decimal.RequireFromString("195.84")), fixed(decimal.RequireFromString("8.6")),
		fixed(decimal.RequireFromString("7.2"))); got != "196 8.60 7.2" {
		t.Errorf("fixed = %q, want 196 8.60 7.2", got)
	}
}

// -json is for programs: the same English report whatever -lang says.
func TestJSONEnglish(t *testing.T) {
	var en, zh bytes.Buffer
	if err := run(&en, []string{"-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if err := run(&zh, []string{"-json", "-lang", "zh"}, msg.ZH); err != nil {
		t.Fatal(err)
	}
	if en.String() != zh.String() {
		t.Error("-json -lang zh differs from -json")
	}
}
