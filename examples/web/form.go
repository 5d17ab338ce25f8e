package main

import (
	"bytes"
	"fmt"
	"math"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/internal/input"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/gpuplan/gpuplan/sizing"
)

// form is the page's form as the user filled it, every field as typed, so
// that the page shows back what it read. Empty fields take the defaults
// examples/plan takes for its flags.
type form struct {
	Model     string // a preset's name; an uploaded config.json replaces it
	Task      string // inference, training, lora or qlora
	Precision string
	Context   string // tokens per sequence; empty: 2048, or the model's window when shorter
	Batch     string // micro-batch per GPU (default 4), or concurrent sequences for inference (default 1)
	Kind      string // "job" (work in tokens) or "service" (a traffic target)
	Tokens    string // a job's work: training tokens (default 1e8) or tokens generated (default 1e6)
	Deadline  string // a job's deadline, a duration; empty: none
	RPS       string // a service's requests per second at the peak
	Prompt    string // a service's mean prompt tokens
	Output    string // a service's mean generated tokens
	TTFT      string // a service's time-to-first-token target; empty: none
	TPOT      string // a service's time-per-output-token target; empty: none
	Usage     string // rental length, a duration; empty: as long as the job (a month of service)
	Budget    string // most money to spend, in the offers' currency; empty: none
}

// defaultForm is the form as the page first shows it: the job examples/plan
// plans with no flags (input.Default*).
var defaultForm = form{Model: input.DefaultModel, Task: input.DefaultTask, Precision: input.DefaultPrecision, Kind: "job",
	RPS: "10", Prompt: strconv.Itoa(input.DefaultPrompt), Output: strconv.Itoa(input.DefaultOutput)}

// formFields are the form's field names, in the order the page shows them.
var formFields = []string{"model", "task", "precision", "context", "batch", "kind", "tokens", "deadline",
	"rps", "prompt", "output", "ttft", "tpot", "usage", "budget"}

// readForm reads the form's fields from v; a field not sent keeps its default.
// Each field is cut to maxField bytes, so that a huge field never reaches a
// message whole.
func readForm(v url.Values) form {
	f := defaultForm
	ptrs := []*string{&f.Model, &f.Task, &f.Precision, &f.Context, &f.Batch, &f.Kind, &f.Tokens, &f.Deadline,
		&f.RPS, &f.Prompt, &f.Output, &f.TTFT, &f.TPOT, &f.Usage, &f.Budget}
	for i, name := range formFields {
		if vs, ok := v[name]; ok && len(vs) > 0 {
			*ptrs[i] = strings.TrimSpace(text.Cut(vs[0], maxField))
		}
	}
	return f
}

// maxField is the most bytes a form field keeps.
const maxField = 200

// maxContext bounds the context field: 16M tokens, past every model's window.
const maxContext = 1 << 24

// upload is a file sent with the form: its name as the browser gave it, and
// its bytes. A zero upload is no file.
type upload struct {
	Name string
	Data []byte
}

// fieldError is a form field the decoder could not use: the field's name, what
// it wants (a key of the page's words, filled with Args), and the library's
// error behind it, when one is (its text stays English, beside the page's
// words).
type fieldError struct {
	Field string
	Want  string // a key of words.Want
	Args  []any
	Err   error // may be nil
}

func (e *fieldError) Error() string {
	s := "web: " + e.Field + ": " + fmt.Sprintf(pageWords[msg.EN].Want[e.Want], e.Args...)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *fieldError) Unwrap() error { return e.Err }

// decode turns the form, the config.json upload and the price-list upload
// into a plan's input: the request examples/plan would build from the same
// flags, the offers (the sample list when no file was sent), and what the page
// says of them, in lang. maxOffers bounds the offers a price list may hold.
func (f form) decode(config, prices upload, maxOffers int, lang msg.Lang) (planInput, error) {
	var in planInput
	r := &in.req
	var err error
	if r.Model, err = f.model(config); err != nil {
		return in, err
	}
	wl := &r.Workload
	if wl.Task, err = sizing.ParseTask(f.Task); err != nil || f.Task == "" {
		return in, &fieldError{Field: "task", Want: "task"}
	}
	if wl.Precision, err = sizing.ParsePrecision(f.Precision); err != nil {
		return in, &fieldError{Field: "precision", Want: "precision", Err: err}
	}
	if wl.Task != sizing.Inference {
		wl.Recompute = sizing.FullRecompute // -recompute's default
	}
	wl.SeqLen = input.DefaultContext
	if c := r.Model.Context; c > 0 && c < wl.SeqLen {
		wl.SeqLen = c // the default context, cut to a smaller window (GPT-2's 1024)
	}
	if f.Context != "" {
		if wl.SeqLen, err = whole("context", f.Context, 1, maxContext); err != nil {
			return in, err
		}
	}
	wl.Batch = input.DefaultTrainBatch
	if wl.Task == sizing.Inference {
		wl.Batch = 1
	}
	if f.Batch != "" {
		if wl.Batch, err = whole("batch", f.Batch, 1, 1<<16); err != nil {
			return in, err
		}
	}
	switch f.Kind {
	case "job":
		err = f.job(r)
	case "service":
		err = f.service(r)
	default:
		err = &fieldError{Field: "kind", Want: "kind"}
	}
	if err != nil {
		return in, err
	}
	if wl.Task == sizing.Inference && r.Model.Context > 0 && wl.SeqLen > r.Model.Context {
		return in, &fieldError{Field: "context", Want: "window", Args: []any{r.Model.Context}}
	}
	if _, err := sizing.Estimate(r.Model, *wl); err != nil {
		return in, &fieldError{Field: "task", Want: "runnable", Err: err}
	}
	if r.Usage, err = duration("usage", f.Usage); err != nil {
		return in, err
	}
	if in.offers, in.source, err = readPrices(prices, maxOffers, lang); err != nil {
		return in, err
	}
	in.sample = prices.Data == nil // the server fills in the sample list
	if f.Budget != "" {
		// The budget is in the offers' currency: the first offer's, as examples/plan
		// takes it.
		amount, err := input.Amount(f.Budget)
		if err != nil {
			return in, &fieldError{Field: "budget", Want: "budget"}
		}
		r.Budget = pricing.Money{Amount: amount, Currency: "XXX"}
	}
	return in, nil
}

// model is the form's model: the uploaded config.json, named after its file,
// or the preset.
func (f form) model(config upload) (sizing.Model, error) {
	if config.Data == nil {
		m, err := sizing.Preset(f.Model)
		if err != nil || f.Model == "" {
			return m, &fieldError{Field: "model", Want: "preset", Args: []any{text.Quote(f.Model, 64)}, Err: err}
		}
		return m, nil
	}
	m, err := sizing.ReadConfig(bytes.NewReader(config.Data))
	if err != nil {
		return m, &fieldError{Field: "config", Want: "config", Err: err}
	}
	m.Name = modelName(config.Name)
	return m, nil
}

// modelName names a model after its uploaded file: "Qwen2.5-7B" for
// "Qwen2.5-7B.json", and "config.json" for a file of that name, which says no
// more.
func modelName(file string) string {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	if base == "config.json" || base == "." || base == "/" {
		return "config.json"
	}
	return text.Cut(strings.TrimSuffix(base, path.Ext(base)), 64)
}

// job fills in a job's work and deadline.
func (f form) job(r *plan.Request) error {
	r.Tokens = input.DefaultTrainTokens
	if r.Workload.Task == sizing.Inference {
		r.Tokens = input.DefaultInferTokens
	}
	if f.Tokens != "" {
		t, err := input.Count(f.Tokens)
		if err != nil || t > 1e18 {
			return &fieldError{Field: "tokens", Want: "tokens"}
		}
		r.Tokens = t
	}
	var err error
	if r.Deadline, err = duration("deadline", f.Deadline); err != nil {
		return err
	}
	if r.Deadline > 0 && r.Tokens == 0 {
		return &fieldError{Field: "deadline", Want: "deadline"}
	}
	return nil
}

// service fills in a service's traffic: an inference workload, no work in
// tokens, no deadline.
func (f form) service(r *plan.Request) error {
	if r.Workload.Task != sizing.Inference {
		return &fieldError{Field: "task", Want: "serveTask"}
	}
	t := &plan.Traffic{}
	rate, err := strconv.ParseFloat(f.RPS, 64)
	if err != nil || !(rate > 0) || math.IsInf(rate, 0) || rate > 1e6 {
		return &fieldError{Field: "rps", Want: "rps"}
	}
	t.Rate = rate
	if t.PromptTokens, err = whole("prompt", f.Prompt, 1, 1<<22); err != nil {
		return err
	}
	if t.OutputTokens, err = whole("output", f.Output, 1, 1<<22); err != nil {
		return err
	}
	if t.TTFT, err = duration("ttft", f.TTFT); err != nil {
		return err
	}
	if t.TPOT, err = duration("tpot", f.TPOT); err != nil {
		return err
	}
	r.Serving = t
	return nil
}

// whole reads a whole number from lo to hi.
func whole(field, s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, &fieldError{Field: field, Want: "whole", Args: []any{lo, hi}}
	}
	return n, nil
}

// duration reads a duration as the command's flags do (30d, 12h, 50ms); empty
// is zero.
func duration(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := input.Duration(s)
	if err != nil || d < 0 {
		return 0, &fieldError{Field: field, Want: "duration"}
	}
	return d, nil
}

// readPrices reads an uploaded price list in any format pricelist.Read knows,
// and says what it read as examples/plan does (report.PriceList): the file,
// its format, its offers and the rows left out. No upload gives no offers: the
// sample list.
func readPrices(u upload, maxOffers int, lang msg.Lang) ([]pricing.Offer, string, error) {
	if u.Data == nil {
		return nil, "", nil
	}
	l, err := pricelist.ReadList(bytes.NewReader(u.Data))
	if err != nil {
		return nil, "", &fieldError{Field: "prices", Want: "prices", Err: err}
	}
	if len(l.Offers) > maxOffers {
		return nil, "", &tooLarge{What: "price list", Limit: int64(maxOffers), Unit: "offers"}
	}
	offers, source := report.PriceList(text.Cut(path.Base(strings.ReplaceAll(u.Name, "\\", "/")), 64), l, lang)
	if len(offers) == 0 {
		return nil, "", &fieldError{Field: "prices", Want: "noOffers"}
	}
	return offers, source, nil
}
