package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/internal/msg"
)

// browserEnv is the environment variable that makes a missing Chromium a
// failure instead of a skip: .ci/run installs Chromium and sets it to
// "require".
const browserEnv = "GPUPLAN_BROWSER"

// shots, when set, is a folder the browser test also saves its screenshots in,
// to look at after the test (its temporary folder is removed).
var shots = flag.String("shots", "", "also save the browser test's screenshots in this `folder`")

// pageState is what the browser test reads back from the rendered page.
type pageState struct {
	Lang     string   `json:"lang"`
	Error    string   `json:"error"`
	Heads    []string `json:"heads"`
	Rows     int      `json:"rows"`
	First    []string `json:"first"`
	SVGs     int      `json:"svgs"`
	SVGText  string   `json:"svgText"`
	SVGWidth float64  `json:"svgWidth"`
	Best     string   `json:"best"`
}

// readState is the JavaScript that reads a pageState off the page.
const readState = `(() => {
  const t = document.getElementById('options');
  const svgs = [...document.querySelectorAll('#answer svg')];
  const err = document.getElementById('error');
  const best = document.getElementById('best');
  return {
    lang: document.documentElement.lang,
    error: err ? err.textContent : '',
    heads: t ? [...t.querySelectorAll('thead th')].map(e => e.textContent) : [],
    rows: t ? t.querySelectorAll('tbody tr').length : 0,
    first: t ? [...t.querySelectorAll('tbody tr:first-child td')].map(e => e.textContent) : [],
    svgs: svgs.length,
    svgText: svgs.map(s => [...s.querySelectorAll('text')].map(e => e.textContent).join('|')).join('||'),
    svgWidth: svgs.length ? svgs[0].getBoundingClientRect().width : 0,
    best: best ? best.textContent : '',
  };
})()`

// TestBrowser starts the command on a free loopback port, fills and submits
// the form in headless Chromium in both languages (a job on the sample list in
// English; a service on a Chinese price list, uploaded, in Chinese), and checks
// the options table and the SVG charts in the rendered page. The screenshots
// are saved in the test's temporary folder (-v logs where).
func TestBrowser(t *testing.T) {
	chromium := findChromium()
	if chromium == "" {
		if os.Getenv(browserEnv) == "require" {
			t.Fatalf("no chromium on PATH, and %s=require: install it (apt-get install -y chromium fonts-noto-cjk)", browserEnv)
		}
		t.Skipf("no chromium on PATH: the page is not tested in a browser (apt-get install -y chromium fonts-noto-cjk; %s=require makes this a failure)", browserEnv)
	}
	start := time.Now()
	base := startRun(t)
	dir := t.TempDir()
	b := startBrowser(t, chromium, filepath.Join(dir, "profile"), 1280, 1000)
	zhPrices, err := filepath.Abs(filepath.Join("..", "plan", "offers_template_zh.csv"))
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		lang   msg.Lang
		fill   string // JavaScript that fills the form
		upload string // a price list to upload; empty: the sample
		best   string // the message that heads the best option
		svgs   int    // charts in the answer
	}{
		{msg.EN, `document.getElementById('model').value = 'llama-3.1-8b';
			document.getElementById('task').value = 'lora';
			document.getElementById('tokens').value = '2e8';
			document.getElementById('deadline').value = '2d';`, "", "plan.best", 1},
		{msg.ZH, `document.getElementById('model').value = 'qwen2.5-7b';
			document.getElementById('task').value = 'inference';
			document.getElementById('kind-service').checked = true;
			document.getElementById('rps').value = '2';
			document.getElementById('tpot').value = '50ms';`, zhPrices, "plan.serve.best", 2},
	} {
		w := pageWords[tc.lang]
		b.navigate(t, base+"?lang="+tc.lang.String())
		var form pageState
		b.eval(t, readState, &form)
		if want := map[msg.Lang]string{msg.EN: "en", msg.ZH: "zh-CN"}[tc.lang]; form.Lang != want {
			t.Errorf("%v: the page's lang is %q, want %q", tc.lang, form.Lang, want)
		}
		if form.Rows != 0 || form.SVGs != 0 {
			t.Errorf("%v: the form alone shows %d option rows and %d charts, want none", tc.lang, form.Rows, form.SVGs)
		}
		b.eval(t, "(() => {"+tc.fill+"; return true})()", nil)
		if tc.upload != "" {
			b.setFile(t, "#prices", tc.upload)
		}
		b.submit(t, "#submit")
		var got pageState
		b.eval(t, readState, &got)
		shot := filepath.Join(dir, "page-"+tc.lang.String()+".png")
		b.screenshot(t, shot)
		t.Logf("%v: screenshot %s", tc.lang, shot)
		if *shots != "" {
			b.screenshot(t, filepath.Join(*shots, "page-"+tc.lang.String()+".png"))
		}

		if got.Error != "" {
			t.Fatalf("%v: the page shows an error: %s", tc.lang, got.Error)
		}
		if got.Rows < 1 || got.Rows > 10 {
			t.Errorf("%v: %d option rows, want 1 to 10", tc.lang, got.Rows)
		}
		if len(got.Heads) < 5 || len(got.First) != len(got.Heads) {
			t.Errorf("%v: the table's heading %q and first row %q do not match", tc.lang, got.Heads, got.First)
		}
		if prefix, _, _ := strings.Cut(tc.lang.T(tc.best), "%"); !strings.HasPrefix(got.Best, prefix) {
			t.Errorf("%v: the best option's heading is %q, want it to start %q", tc.lang, got.Best, prefix)
		}
		if got.SVGs != tc.svgs {
			t.Errorf("%v: %d charts in the answer, want %d", tc.lang, got.SVGs, tc.svgs)
		}
		if head, _, _ := strings.Cut(w.MemoryTitle, "%"); !strings.Contains(got.SVGText, head) || !strings.Contains(got.SVGText, w.Weights) {
			t.Errorf("%v: the memory chart's text %q lacks %q and %q", tc.lang, got.SVGText, head, w.Weights)
		}
		if got.SVGWidth < 300 {
			t.Errorf("%v: the memory chart is drawn %.0f px wide, want at least 300", tc.lang, got.SVGWidth)
		}
	}
	t.Logf("the browser test took %v", time.Since(start).Round(time.Millisecond))
}
