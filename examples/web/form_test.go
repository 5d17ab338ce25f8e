package main

import (
	"errors"
	"math"
	"net/url"
	"testing"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/sizing"
)

// TestDecodeDefaults holds the form left alone to examples/plan's defaults: a
// LoRA fine-tune of Llama-2-7B in BF16, micro-batch 4 × 2048 tokens, 1e8
// training tokens, full recomputation, on the sample list; and inference to one
// sequence and 1e6 tokens generated.
func TestDecodeDefaults(t *testing.T) {
	in, err := readForm(nil).decode(upload{}, upload{}, 10, msg.EN)
	if err != nil {
		t.Fatal(err)
	}
	r := in.req
	if r.Model.Name != "llama-2-7b" || r.Workload.Task != sizing.LoRA || r.Workload.Precision != sizing.BF16 ||
		r.Workload.Batch != 4 || r.Workload.SeqLen != 2048 || r.Tokens != 1e8 || r.Workload.Recompute != sizing.FullRecompute ||
		r.Serving != nil || !in.sample || in.offers != nil {
		t.Errorf("got %+v", r)
	}
	in, err = readForm(url.Values{"task": {"inference"}, "model": {"gpt2-xl"}}).decode(upload{}, upload{}, 10, msg.EN)
	if err != nil {
		t.Fatal(err)
	}
	if r := in.req; r.Workload.Batch != 1 || r.Tokens != 1e6 || r.Workload.SeqLen != 1024 {
		t.Errorf("inference of GPT-2 XL: batch %d, tokens %g, context %d; want 1, 1e6 and its window of 1024", r.Workload.Batch, r.Tokens, r.Workload.SeqLen)
	}
	in, err = readForm(url.Values{"task": {"inference"}, "kind": {"service"}, "rps": {"2.5"}, "tpot": {"50ms"}, "usage": {"30d"}}).decode(upload{}, upload{}, 10, msg.EN)
	if err != nil {
		t.Fatal(err)
	}
	if s := in.req.Serving; s == nil || s.Rate != 2.5 || s.PromptTokens != 1000 || s.OutputTokens != 300 || s.TPOT.Milliseconds() != 50 || in.req.Tokens != 0 || in.req.Usage.Hours() != 720 {
		t.Errorf("a service: %+v, usage %v", s, in.req.Usage)
	}
}

// FuzzForm feeds the form decoder any fields and uploads: it never panics,
// refuses with a *fieldError or *tooLarge, and what it accepts is a request
// the sizing model runs, with its work finite and not negative.
func FuzzForm(f *testing.F) {
	for _, s := range []string{
		"",
		"task=inference&kind=service&rps=3&prompt=500&output=100&ttft=1s&tpot=40ms",
		"model=qwen2.5-7b&task=qlora&precision=nf4&context=4096&batch=2&tokens=2B&deadline=2d&usage=30d&budget=500",
		"model=nope&tokens=-1&context=99999999999",
		"kind=service&task=training&rps=NaN",
		"precision=4.5bpw&task=inference&tokens=0&deadline=1h",
	} {
		f.Add(s, []byte(nil), []byte(nil))
	}
	f.Add("", []byte(`{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100}`),
		[]byte("provider,card,currency,hourly\na,T4,CNY,1.5\n"))
	f.Add("task=inference", []byte("{"), []byte("[]"))
	f.Fuzz(func(t *testing.T, query string, config, prices []byte) {
		v, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		var cu, pu upload
		if len(config) > 0 {
			cu = upload{Name: "config.json", Data: config}
		}
		if len(prices) > 0 {
			pu = upload{Name: "prices.csv", Data: prices}
		}
		in, err := readForm(v).decode(cu, pu, 100, msg.ZH)
		var fe *fieldError
		var big *tooLarge
		if err != nil {
			if !errors.As(err, &fe) && !errors.As(err, &big) {
				t.Fatalf("decode(%q) = %v: want a *fieldError or *tooLarge", query, err)
			}
			return
		}
		r := in.req
		if _, err := sizing.Estimate(r.Model, r.Workload); err != nil {
			t.Fatalf("decode(%q) accepted a workload the model cannot run: %v", query, err)
		}
		if math.IsNaN(r.Tokens) || math.IsInf(r.Tokens, 0) || r.Tokens < 0 || r.Usage < 0 || r.Deadline < 0 {
			t.Fatalf("decode(%q): tokens %v, usage %v, deadline %v", query, r.Tokens, r.Usage, r.Deadline)
		}
		if in.sample != (len(prices) == 0) || !in.sample && (len(in.offers) == 0 || len(in.offers) > 100) {
			t.Fatalf("decode(%q): %d offers, sample %v", query, len(in.offers), in.sample)
		}
		if s := r.Serving; s != nil && (!(s.Rate > 0) || s.PromptTokens < 1 || s.OutputTokens < 1 || s.TTFT < 0 || s.TPOT < 0) {
			t.Fatalf("decode(%q): traffic %+v", query, s)
		}
	})
}
