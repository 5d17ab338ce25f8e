package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/sample"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// testServer is a server with limits l; zero fields take defaultLimits'.
func testServer(t testing.TB, l limits) *server {
	t.Helper()
	d := defaultLimits
	if l.Body == 0 {
		l.Body = d.Body
	}
	if l.Config == 0 {
		l.Config = d.Config
	}
	if l.Prices == 0 {
		l.Prices = d.Prices
	}
	if l.Offers == 0 {
		l.Offers = d.Offers
	}
	if l.Plans == 0 {
		l.Plans = d.Plans
	}
	if l.Options == 0 {
		l.Options = d.Options
	}
	if l.Time == 0 {
		l.Time = d.Time
	}
	s, err := newServer(l, msg.EN)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// do sends a request to s's handler and returns the answer.
func do(s *server, method, target, contentType string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, body)
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	s.handler().ServeHTTP(w, r)
	return w
}

// inferenceRequest is a plan request for serving Llama-3.1-8B in BF16, one
// sequence of 2048 tokens, a million tokens generated.
func inferenceRequest(t testing.TB) plan.Request {
	t.Helper()
	m, err := sizing.Preset("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	return plan.Request{Model: m, Workload: sizing.Workload{Task: sizing.Inference, Precision: sizing.BF16, Batch: 1, SeqLen: 2048}, Tokens: 1e6}
}

// TestAPI holds POST /api/plan to its contract: the Report for a good body,
// the same numbers the planner gives on the same input, the error object with
// no_fit when nothing fits (200), 400 with the message for bad input, never a
// 500.
func TestAPI(t *testing.T) {
	s := testServer(t, limits{})
	req := inferenceRequest(t)
	reqJSON, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	offers, err := sample.Offers()
	if err != nil {
		t.Fatal(err)
	}
	want, err := plan.Planner{Catalog: catalog.Default(), Offers: offers}.Report(req)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("good", func(t *testing.T) {
		for _, body := range []string{
			`{"request": ` + string(reqJSON) + `}`,
			`{"request": ` + string(reqJSON) + `, "offers": null, "rates": null}`,
		} {
			w := do(s, "POST", "/api/plan", "application/json", strings.NewReader(body))
			if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
				t.Fatalf("status %d, %s; want 200, JSON: %s", w.Code, w.Header().Get("Content-Type"), w.Body)
			}
			var got plan.Report
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("the answer is not a Report: %v\n%s", err, w.Body)
			}
			if len(got.Options) != len(want.Options) || got.Considered != want.Considered {
				t.Fatalf("%d options of %d considered, want %d of %d", len(got.Options), got.Considered, len(want.Options), want.Considered)
			}
			for i := range got.Options {
				if g, w := got.Options[i].ExpectedCost, want.Options[i].ExpectedCost; !g.Amount.Equal(w.Amount) || g.Currency != w.Currency {
					t.Errorf("option %d costs %v, want %v", i+1, g, w)
				}
			}
		}
	})

	t.Run("hand-written", func(t *testing.T) {
		// What a user of the API writes by hand: a model by its size, the rest
		// left to the defaults, a price list of one offer in USD.
		body := `{"request": {"model": {"name": "my-7b", "params": 7000000000},
			"workload": {"task": "inference", "precision": "bf16", "batch": 1, "seq_len": 4096},
			"tokens": 5000000, "limit": 1},
			"offers": [{"provider": "acme", "card": "H100 SXM5 80GB", "max_gpus": 8,
			"tariff": {"currency": "USD", "hourly": "2.49"}}]}`
		w := do(s, "POST", "/api/plan", "application/json", strings.NewReader(body))
		var got plan.Report
		if err := json.Unmarshal(w.Body.Bytes(), &got); w.Code != http.StatusOK || err != nil {
			t.Fatalf("status %d, %v: %s", w.Code, err, w.Body)
		}
		if len(got.Options) != 1 || got.Options[0].Offer.Provider != "acme" || got.Options[0].ExpectedCost.Currency != "USD" {
			t.Errorf("got %+v, want one option of acme's offer in USD", got.Options)
		}
	})

	t.Run("preset by name", func(t *testing.T) {
		// A model named as the page and examples/plan name it reads as that
		// preset: the same plan as the preset's fields written out.
		m, err := sizing.Preset("llama-3.1-8b")
		if err != nil {
			t.Fatal(err)
		}
		byFields, _ := json.Marshal(m)
		answers := map[string]plan.Report{}
		for _, model := range []string{`"llama-3.1-8b"`, string(byFields)} {
			body := `{"request": {"model": ` + model + `, "workload": {"task": "inference", "precision": "bf16", "batch": 1, "seq_len": 4096}, "tokens": 5000000, "limit": 2}}`
			w := do(s, "POST", "/api/plan", "application/json", strings.NewReader(body))
			var got plan.Report
			if err := json.Unmarshal(w.Body.Bytes(), &got); w.Code != http.StatusOK || err != nil || len(got.Options) == 0 {
				t.Fatalf("model %.40s: status %d, %v: %s", model, w.Code, err, w.Body)
			}
			answers[model[:1]] = got
		}
		if a, b := answers[`"`].Options[0], answers["{"].Options[0]; !a.ExpectedCost.Amount.Equal(b.ExpectedCost.Amount) || a.GPUs != b.GPUs {
			t.Errorf("by name: %d GPUs, %v; by fields: %d GPUs, %v", a.GPUs, a.ExpectedCost, b.GPUs, b.ExpectedCost)
		}
	})

	t.Run("no fit", func(t *testing.T) {
		r := inferenceRequest(t)
		r.Workload.Precision = sizing.FP32
		r.Cards, r.GPUs = []string{"T4"}, 1 // 32 GB of FP32 weights on one 16 GB card
		b, _ := json.Marshal(r)
		w := do(s, "POST", "/api/plan", "application/json", bytes.NewReader(append(append([]byte(`{"request": `), b...), '}')))
		var got report.ErrorJSON
		if err := json.Unmarshal(w.Body.Bytes(), &got); w.Code != http.StatusOK || err != nil {
			t.Fatalf("status %d, %v: %s", w.Code, err, w.Body)
		}
		if !got.NoFit || !strings.Contains(got.Error, "no option fits") || len(got.Reasons) == 0 {
			t.Errorf("got %+v, want no_fit with its reasons", got)
		}
	})

	for _, tc := range []struct {
		name, body, want string
	}{
		{"not JSON", `nope`, "not a JSON object"},
		{"an array", `[1]`, "not a JSON object"},
		{"unknown key", `{"request": ` + string(reqJSON) + `, "extra": 1}`, `unknown field "extra"`},
		{"no request", `{"offers": []}`, "request: missing"},
		{"null request", `{"request": null}`, "request: missing"},
		{"unknown request key", `{"request": {"modle": {}}}`, `unknown field "modle"`},
		{"bad request", `{"request": {"model": {"name": "x"}}}`, "no parameter count"},
		{"unknown preset", `{"request": {"model": "llama-9-7b"}}`, `web: request: model: sizing: `},
		{"model a number", `{"request": {"model": 7}}`, `sizing: model: want an object, got number`},
		{"offers not an array", `{"request": ` + string(reqJSON) + `, "offers": {}}`, "offers: want an array"},
		{"unknown offer key", `{"request": ` + string(reqJSON) + `, "offers": [{"card": "T4", "price": 1}]}`, `offers[0]`},
		{"empty offers", `{"request": ` + string(reqJSON) + `, "offers": []}`, "no offers"},
		{"bad rates", `{"request": ` + string(reqJSON) + `, "rates": {"base": "CNY", "per": {"USD": "1e-999999999"}}}`, "rates"},
		{"unknown rates key", `{"request": ` + string(reqJSON) + `, "rates": {"base": "CNY", "by": {}}}`, `unknown field "by"`},
		{"all options", strings.Replace(`{"request": `+string(reqJSON)+`}`, `"limit":0`, `"limit":-1`, 1), "limit -1"},
		{"two values", `{"request": ` + string(reqJSON) + `} {}`, "more than one JSON value"},
		{"negative tokens", strings.Replace(`{"request": `+string(reqJSON)+`}`, `"tokens":1000000`, `"tokens":-1`, 1), "tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := do(s, "POST", "/api/plan", "application/json", strings.NewReader(tc.body))
			var got report.ErrorJSON
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("status %d, not the error object: %v\n%s", w.Code, err, w.Body)
			}
			if w.Code != http.StatusBadRequest || got.NoFit || got.Reasons == nil || got.Suggestions == nil {
				t.Errorf("status %d, %+v; want 400, no_fit false, empty lists", w.Code, got)
			}
			if !strings.Contains(got.Error, tc.want) {
				t.Errorf("error %q, want it to say %q", got.Error, tc.want)
			}
		})
	}

	t.Run("too large", func(t *testing.T) {
		small := testServer(t, limits{Body: 1 << 10})
		body := `{"request": ` + string(reqJSON) + `}` // about 3 KiB
		w := do(small, "POST", "/api/plan", "application/json", strings.NewReader(body))
		if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "web: request body over the limit of 1024 bytes") {
			t.Errorf("status %d: %s; want 413", w.Code, w.Body)
		}
		w = do(testServer(t, limits{Offers: 2}), "POST", "/api/plan", "application/json",
			strings.NewReader(`{"request": `+string(reqJSON)+`, "offers": [{}, {}, {}]}`))
		if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "limit of 2 offers") {
			t.Errorf("three offers past a limit of 2: status %d: %s; want 413", w.Code, w.Body)
		}
	})

	t.Run("busy", func(t *testing.T) {
		busy := testServer(t, limits{Plans: 1})
		busy.slots <- struct{}{} // the one slot taken
		w := do(busy, "POST", "/api/plan", "application/json", strings.NewReader(`{"request": `+string(reqJSON)+`}`))
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "busy") {
			t.Errorf("status %d, Retry-After %q: %s; want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"), w.Body)
		}
		<-busy.slots
		if w := do(busy, "POST", "/api/plan", "application/json", strings.NewReader(`{"request": `+string(reqJSON)+`}`)); w.Code != http.StatusOK {
			t.Errorf("with the slot free again: status %d, want 200", w.Code)
		}
	})

	t.Run("routes", func(t *testing.T) {
		if w := do(s, "GET", "/api/plan", "", nil); w.Code != http.StatusMethodNotAllowed {
			t.Errorf("GET /api/plan: status %d, want 405", w.Code)
		}
		if w := do(s, "GET", "/nope", "", nil); w.Code != http.StatusNotFound {
			t.Errorf("GET /nope: status %d, want 404", w.Code)
		}
	})
}

// TestWithin holds the planning slots to their promises: a plan past the time
// limit is errSlow at once, and its slot is freed when it ends; a panic is
// errInternal, never a crash.
func TestWithin(t *testing.T) {
	s := testServer(t, limits{Plans: 1, Time: 20 * time.Millisecond})
	release := make(chan struct{})
	_, err := within(context.Background(), s, func() (int, error) { <-release; return 1, nil })
	if !errors.Is(err, errSlow) {
		t.Fatalf("a plan past the limit: %v, want errSlow", err)
	}
	if _, err := within(context.Background(), s, func() (int, error) { return 2, nil }); !errors.Is(err, errBusy) {
		t.Errorf("while the slow plan runs: %v, want errBusy", err)
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for len(s.slots) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if v, err := within(context.Background(), s, func() (int, error) { return 3, nil }); v != 3 || err != nil {
		t.Errorf("after the slow plan ended: %d, %v; want 3, nil", v, err)
	}
	if _, err := within(context.Background(), s, func() (int, error) { panic("boom") }); !errors.Is(err, errInternal) || strings.Contains(err.Error(), "boom") {
		t.Errorf("a panic: %v, want errInternal without the panic's text", err)
	}
	if status(errInternal) != http.StatusInternalServerError || status(errSlow) != http.StatusServiceUnavailable {
		t.Error("errInternal must be 500 and errSlow 503")
	}
}

// postForm posts the page's form (urlencoded) with the fields of v.
func postForm(s *server, target string, v url.Values, header ...string) *httptest.ResponseRecorder {
	return do(s, "POST", target, "application/x-www-form-urlencoded", strings.NewReader(v.Encode()), header...)
}

// multipartForm is the form with fields v and files (field name → path),
// encoded as a browser sends it.
func multipartForm(t *testing.T, v url.Values, files map[string]string) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, vs := range v {
		for _, x := range vs {
			mw.WriteField(k, x)
		}
	}
	for field, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fw, err := mw.CreateFormFile(field, path)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
	}
	mw.Close()
	return mw.FormDataContentType(), &b
}

// TestPage holds the page to its answers: the form, in the language asked
// for; the plan with its table and chart; a bad field named with a 400; an
// upload over its limit 413; busy 503.
func TestPage(t *testing.T) {
	s := testServer(t, limits{})
	for _, tc := range []struct {
		name, target, accept string
		want                 msg.Lang
	}{
		{"English by default", "/", "", msg.EN},
		{"Chinese by Accept-Language", "/", "zh-CN,zh;q=0.9,en;q=0.8", msg.ZH},
		{"English by lang over the header", "/?lang=en", "zh-CN", msg.EN},
		{"Chinese by lang", "/?lang=zh", "en-US", msg.ZH},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := do(s, "GET", tc.target, "", nil, "Accept-Language", tc.accept)
			body := w.Body.String()
			if w.Code != http.StatusOK || !strings.Contains(body, pageWords[tc.want].Submit) || strings.Contains(body, `id="answer"`) {
				t.Errorf("status %d; want 200, the form in %v and no answer:\n%s", w.Code, tc.want, body)
			}
			if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
		})
	}

	t.Run("plan", func(t *testing.T) {
		w := postForm(s, "/", url.Values{"lang": {"en"}, "model": {"llama-2-7b"}, "task": {"lora"}, "precision": {"bf16"}, "kind": {"job"}})
		body := w.Body.String()
		if w.Code != http.StatusOK || !strings.Contains(body, `<table class="options"`) || !strings.Contains(body, "<svg") {
			t.Fatalf("status %d; want 200 with the options table and a chart:\n%s", w.Code, body)
		}
		if !strings.Contains(body, msg.EN.T("plan.sample")) {
			t.Error("the answer does not say it used the sample price list")
		}
	})

	t.Run("upload", func(t *testing.T) {
		ct, b := multipartForm(t, url.Values{"lang": {"zh"}, "model": {"llama-2-7b"}, "task": {"inference"}, "precision": {"bf16"}, "kind": {"job"}},
			map[string]string{"prices": "testdata/two_offers.csv", "config": "../../sizing/models/qwen2.5-7b.json"})
		w := do(s, "POST", "/", ct, b)
		body := w.Body.String()
		if w.Code != http.StatusOK || !strings.Contains(body, "test-a") || !strings.Contains(body, "two_offers.csv") {
			t.Fatalf("status %d; want 200 with the uploaded list's offers:\n%s", w.Code, body)
		}
		if !strings.Contains(body, "qwen2.5-7b（") || !strings.Contains(body, pageWords[msg.ZH].Submit) {
			t.Errorf("want the uploaded config's model, named after its file, on a Chinese page:\n%s", body)
		}
	})

	for _, tc := range []struct {
		name  string
		v     url.Values
		field string
	}{
		{"unknown preset", url.Values{"model": {"llama-9"}}, "model"},
		{"bad tokens", url.Values{"tokens": {"lots"}}, "tokens"},
		{"bad context", url.Values{"context": {"0"}}, "context"},
		{"bad deadline", url.Values{"deadline": {"tomorrow"}}, "deadline"},
		{"service of training", url.Values{"kind": {"service"}, "task": {"training"}}, "task"},
		{"bad rate", url.Values{"kind": {"service"}, "task": {"inference"}, "rps": {"-1"}}, "rps"},
		{"bad budget", url.Values{"budget": {"1e-999999999"}}, "budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, lang := range []msg.Lang{msg.EN, msg.ZH} {
				tc.v.Set("lang", lang.String())
				w := postForm(s, "/", tc.v)
				body := w.Body.String()
				label := pageWords[lang].Fields[tc.field]
				if w.Code != http.StatusBadRequest || !strings.Contains(body, `id="error"`) || !strings.Contains(body, label) {
					t.Errorf("%v: status %d; want 400 naming %q:\n%s", lang, w.Code, label, body)
				}
			}
		})
	}

	t.Run("price list with a bad cell", func(t *testing.T) {
		// A price list read as CSV whose cell is wrong is no "file gpuplan
		// cannot read": the page says where the cell is and what to write.
		ct, b := multipartForm(t, url.Values{"lang": {"en"}}, map[string]string{"prices": "testdata/decimal_comma.csv"})
		w := do(s, "POST", "/", ct, b)
		body := html.UnescapeString(w.Body.String())
		if w.Code != http.StatusBadRequest || !strings.Contains(body, `line 2, field hourly, input "1,60"`) ||
			!strings.Contains(body, "write a point: 1.60") || strings.Contains(body, "is not a price list") {
			t.Errorf("status %d; want 400 naming the cell and what to write:\n%s", w.Code, body)
		}
	})

	t.Run("upload too large", func(t *testing.T) {
		small := testServer(t, limits{Prices: 64})
		ct, b := multipartForm(t, url.Values{"lang": {"en"}}, map[string]string{"prices": "testdata/two_offers.csv"})
		if w := do(small, "POST", "/", ct, b); w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "price list over the limit") {
			t.Errorf("status %d; want 413 naming the price list:\n%s", w.Code, w.Body)
		}
		tiny := testServer(t, limits{Body: 256})
		ct, b = multipartForm(t, url.Values{"lang": {"en"}}, map[string]string{"prices": "testdata/two_offers.csv"})
		if w := do(tiny, "POST", "/", ct, b); w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "request body over the limit of 256 bytes") {
			t.Errorf("a body over its limit: status %d; want 413:\n%s", w.Code, w.Body)
		}
	})

	t.Run("busy", func(t *testing.T) {
		busy := testServer(t, limits{Plans: 1})
		busy.slots <- struct{}{}
		w := postForm(busy, "/", url.Values{"lang": {"zh"}})
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), pageWords[msg.ZH].Busy) {
			t.Errorf("status %d; want 503 with Retry-After and the page saying so:\n%s", w.Code, w.Body)
		}
	})
}

// TestPageWeight holds an answer, its charts included, under 200 KB: a job on
// the sample list (every option shown), and a service.
func TestPageWeight(t *testing.T) {
	s := testServer(t, limits{})
	for _, v := range []url.Values{
		{"lang": {"zh"}},
		{"lang": {"en"}, "kind": {"service"}, "task": {"inference"}, "model": {"llama-3.1-8b"}, "rps": {"5"}, "tpot": {"50ms"}},
	} {
		w := postForm(s, "/", v)
		charts := 1
		if v.Get("kind") == "service" {
			charts = 2 // the memory bar and the serving curves
		}
		if w.Code != http.StatusOK || strings.Count(w.Body.String(), "<svg") != charts {
			t.Fatalf("%v: status %d, want 200 with %d charts:\n%s", v, w.Code, charts, w.Body)
		}
		if n := w.Body.Len(); n > 200_000 {
			t.Errorf("%v: the page weighs %d bytes, want at most 200 KB", v, n)
		}
	}
}

func TestPickLang(t *testing.T) {
	for _, tc := range []struct {
		param, accept string
		def, want     msg.Lang
	}{
		{"", "", msg.EN, msg.EN},
		{"", "", msg.ZH, msg.ZH},
		{"", "fr-FR,de;q=0.9", msg.ZH, msg.ZH},
		{"", "en-GB", msg.ZH, msg.EN},
		{"zh_CN", "en", msg.EN, msg.ZH},
		{"zh", "", msg.EN, msg.ZH},
		{"en", "zh-CN", msg.EN, msg.EN},
		{"fr", "zh-TW,zh;q=0.8", msg.EN, msg.ZH},
		{"", "en-US,en;q=0.9,zh-CN;q=0.8", msg.EN, msg.EN},
		{"", "fr-FR,zh-CN;q=0.5,en;q=0.4", msg.EN, msg.ZH},
		{"", "fr-FR,de;q=0.9", msg.EN, msg.EN},
		{"", "zh;q=0.2,en;q=0.7", msg.EN, msg.EN},
		{"", "zh;q=nope", msg.EN, msg.EN},
		{"", "*", msg.EN, msg.EN},
	} {
		if got := pickLang(tc.param, tc.accept, tc.def); got != tc.want {
			t.Errorf("pickLang(%q, %q, %v) = %v, want %v", tc.param, tc.accept, tc.def, got, tc.want)
		}
	}
}

// TestRun checks the command line: -h prints the usage, a bad flag or address
// is an error, and run serves until its context ends and then returns nil.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(context.Background(), &b, []string{"-h"}, msg.EN); !errors.Is(err, flag.ErrHelp) || !strings.Contains(b.String(), "-addr") {
		t.Errorf("-h: %v, %q", err, b.String())
	}
	if err := run(context.Background(), io.Discard, []string{"-nope"}, msg.EN); err == nil {
		t.Error("-nope: no error")
	}
	if err := run(context.Background(), io.Discard, []string{"-addr", "256.0.0.1:x"}, msg.EN); err == nil || !strings.Contains(err.Error(), "-addr") {
		t.Errorf("a bad -addr: %v, want an error naming -addr", err)
	}
	base := startRun(t)
	resp, err := http.Get(base + "?lang=zh")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), pageWords[msg.ZH].Submit) {
		t.Errorf("GET %s: %d:\n%s", base, resp.StatusCode, body)
	}
}

// BenchmarkPage answers the page's form left at its defaults (a LoRA
// fine-tune of Llama-2-7B on the sample list), the whole handler: form,
// plan, table, chart and template.
func BenchmarkPage(b *testing.B) {
	s := testServer(b, limits{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if w := postForm(s, "/", url.Values{"lang": {"zh"}}); w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}

// BenchmarkServicePage answers a service's form: the plan and its curves.
func BenchmarkServicePage(b *testing.B) {
	s := testServer(b, limits{})
	v := url.Values{"lang": {"en"}, "kind": {"service"}, "task": {"inference"}, "model": {"llama-3.1-8b"}, "rps": {"5"}, "tpot": {"50ms"}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if w := postForm(s, "/", v); w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}
