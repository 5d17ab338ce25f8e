package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
)

// The bilingual templates shipped beside the command load and plan as they are.
func TestOfferTemplates(t *testing.T) {
	for file, provider := range map[string]string{"offers_template_zh.csv": "示例云", "offers_template_en.csv": "sample-cloud"} {
		t.Run(file, func(t *testing.T) {
			r := runArgs("-offers", file, "-limit", "2")
			if r.code != exitOK || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q\n%s", r.code, r.stderr, r.stdout)
			}
			if want := "Offers: " + file + " (gpuplan CSV): 2 offers\n"; !strings.Contains(r.stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, r.stdout)
			}
			if !strings.Contains(r.stdout, "Best: "+provider+"/") {
				t.Errorf("best option not from %s:\n%s", provider, r.stdout)
			}
		})
	}
}

// Offers of unknown cards are counted on one line with their names, the names
// cut after report.MaxUnknownNames; other reasons keep a line each.
func TestPrintSkipped(t *testing.T) {
	var skipped []plan.Skipped
	for i := range 12 {
		card := fmt.Sprintf("Gaudi%d", i%10)
		skipped = append(skipped, plan.Skipped{Offer: pricing.Offer{Provider: "p", Card: card, Line: i + 2},
			Reason: card + ": unknown", Err: fmt.Errorf("%s: %w", card, catalog.ErrNotFound)})
	}
	skipped = append(skipped, plan.Skipped{Offer: pricing.Offer{Provider: "q", Region: "r", Card: "A100", Line: 40},
		Reason: "no exchange rate for EUR into USD", Err: errors.New("rate")})
	var b bytes.Buffer
	printSkipped(&b, skipped, msg.EN)
	want := "left out: q r A100 (line 40): no exchange rate for EUR into USD\n" +
		"left out 12 offers of unknown cards: Gaudi0 (2 offers, from line 2), Gaudi1 (2 offers, from line 3), " +
		"Gaudi2 (line 4), Gaudi3 (line 5), Gaudi4 (line 6), Gaudi5 (line 7), Gaudi6 (line 8), Gaudi7 (line 9), …\n" +
		"  " + msg.EN.T("cli.unknowncard") + "\n\n"
	if strings.ReplaceAll(b.String(), "\n  ", " ") != strings.ReplaceAll(want, "\n  ", " ") {
		t.Errorf("printSkipped:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	printSkipped(&b, skipped[:1], msg.EN)
	if got := b.String(); !strings.HasPrefix(got, "left out 1 offer of an unknown card: Gaudi0 (line 2)\n  add a card") {
		t.Errorf("one unknown card: %q", got)
	}
	b.Reset()
	printSkipped(&b, nil, msg.EN)
	if b.Len() != 0 {
		t.Errorf("nothing skipped: %q", b.String())
	}
}

// A price list of a header alone is an error that names the file; an offer the
// list gives no provider is shown by the file's name.
func TestOfferFileNames(t *testing.T) {
	dir := t.TempDir()
	header := filepath.Join(dir, "报价.csv")
	if err := os.WriteFile(header, []byte("服务商,卡型,按量(元/小时)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runArgs("-offers", header)
	if r.code != exitFail || !strings.Contains(r.stderr, header+": pricelist: read as csv: line 1: a header and no offers") {
		t.Errorf("a header alone: exit %d, stderr %q; want 1 and the file named", r.code, r.stderr)
	}
	nameless := filepath.Join(dir, "无服务商.csv")
	if err := os.WriteFile(nameless, []byte("卡型,按量(元/小时)\nRTX 4090,1.60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runArgs("-offers", nameless, "-limit", "1")
	if flat := strings.Join(strings.Fields(r.stdout), " "); r.code != exitOK || !strings.Contains(r.stdout, "  1  无服务商.csv") ||
		!strings.Contains(flat, "(1 without a provider, shown by the file's name)") { // however the line wraps
		t.Errorf("an offer without a provider: exit %d, stderr %q:\n%s\nwant the file's name in its place", r.code, r.stderr, r.stdout)
	}
}

// An offer of a card the catalog does not know is reported as unknown, with the
// catalog's closest names and how to add the card, never as not fitting; with
// -catalog adding it, it is planned.
func TestUnknownCard(t *testing.T) {
	r := runArgs("-offers", "testdata/unknown_card.csv")
	for _, want := range []string{
		"plan: no offer is of a card the catalog knows, so none can be planned:\n",
		`plan: sample-acme/cn-hangzhou RTX 9090 (line 2): catalog: no card named "RTX 9090" (did you mean "GeForce RTX 3090",`,
		"plan: add a card the catalog does not know with -catalog FILE",
	} {
		if r.code != exitFail || !strings.Contains(r.stderr, want) || strings.Contains(r.stdout+r.stderr, "No option fits") {
			t.Errorf("exit %d, stderr %q, stdout %q; want exit 1 and %q, and no no-fit report", r.code, r.stderr, r.stdout, want)
		}
	}
	r = runArgs("-offers", "testdata/unknown_card.csv", "-catalog", "testdata/my_cards.json", "-limit", "1")
	if r.code != exitOK || !strings.Contains(r.stdout, "1 × RTX 9090 (RTX 9090 (sample card))") {
		t.Errorf("with -catalog: exit %d, stderr %q:\n%s", r.code, r.stderr, r.stdout)
	}
	r = runArgs("-catalog", "testdata/missing.json")
	if r.code != exitUsage || !strings.Contains(r.stderr, "-catalog testdata/missing.json: cannot open") {
		t.Errorf("a missing -catalog: exit %d, stderr %q; want 2 naming the flag", r.code, r.stderr)
	}
	r = runArgs("-catalog", "testdata/only_4090.csv")
	if r.code != exitFail || !strings.Contains(r.stderr, "-catalog testdata/only_4090.csv: catalog:") {
		t.Errorf("a -catalog that is no catalog: exit %d, stderr %q; want 1 naming the file", r.code, r.stderr)
	}
}

// The options table pads by display width: with Chinese provider names and a
// card's Chinese alias ("昇腾910B"), each column starts at the same terminal
// column on every row, in both languages.
func TestTableAlignsChinese(t *testing.T) {
	for _, lang := range []string{"zh", "en"} {
		r := runArgs("-lang", lang, "-offers", "testdata/zh_aligned.csv", "-model", "qwen2.5-7b", "-task", "inference", "-precision", "bf16")
		if r.code != exitOK {
			t.Fatalf("-lang %s: exit %d, %q", lang, r.code, r.stderr)
		}
		var rows []string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "昇腾910B") || strings.Contains(l, "RTX 4090  ") || strings.Contains(l, "A100 SXM4 80GB  ") {
				rows = append(rows, l)
			}
		}
		if len(rows) != 3 {
			t.Fatalf("-lang %s: %d rows of the three offers in:\n%s", lang, len(rows), r.stdout)
		}
		col := func(line, cell string) int { return text.Width(line[:strings.Index(line, cell)]) }
		at := []int{col(rows[0], "GiB"), text.Width(rows[0])}
		for _, row := range rows {
			cardAt := -1
			for _, card := range []string{"昇腾910B", "RTX 4090", "A100 SXM4 80GB"} {
				if strings.Contains(row, card) {
					cardAt = col(row, card)
				}
			}
			if first := col(rows[0], strings.Fields(rows[0])[2]); cardAt != first {
				t.Errorf("-lang %s: the card starts at column %d in %q, %d in %q", lang, cardAt, row, first, rows[0])
			}
			if got := []int{col(row, "GiB"), text.Width(row)}; got[0] != at[0] || got[1] != at[1] {
				t.Errorf("-lang %s: row %q ends its memory at %d and the row at %d; the first at %v", lang, row, got[0], got[1], at)
			}
		}
	}
}
