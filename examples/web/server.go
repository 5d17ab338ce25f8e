package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/internal/sample"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// limits bound what the server accepts and does, so that no request can take
// more than its share of the machine.
type limits struct {
	Body    int64         // bytes of a request body: the form with its uploads, or the API's JSON
	Config  int64         // bytes of an uploaded config.json
	Prices  int64         // bytes of an uploaded price list
	Offers  int           // offers in one price list
	Options int           // options in one answer (the request's limit)
	Plans   int           // plans run at once; a request past them gets 503
	Time    time.Duration // one plan's time; past it the request gets 503
}

// defaultLimits are the server's limits: a config.json is a few KiB and a
// cloud's whole price list a few hundred, a plan on the sample list takes
// milliseconds (the slowest search on 5000 offers a few seconds), and a few
// plans at once keep a small machine answering.
var defaultLimits = limits{
	Body:    4 << 20,
	Config:  1 << 20,
	Prices:  2 << 20,
	Offers:  5000,
	Options: 100,
	Plans:   4,
	Time:    10 * time.Second,
}

// retryAfter is the Retry-After a busy server answers with, in seconds.
const retryAfter = 2

// server answers the page and the API. It keeps no state between requests:
// slots only counts the plans running.
type server struct {
	limits limits
	lang   msg.Lang      // the page's language when neither the request's lang nor its Accept-Language says
	slots  chan struct{} // one token per plan running
	cat    *catalog.Catalog
	sample []pricing.Offer // the sample price list, read once; never changed
}

// newServer returns a server with limits l whose page speaks lang unless a
// request asks for another language.
func newServer(l limits, lang msg.Lang) (*server, error) {
	offers, err := sample.Offers()
	if err != nil {
		return nil, err
	}
	return &server{limits: l, lang: lang, slots: make(chan struct{}, l.Plans), cat: catalog.Default(), sample: offers}, nil
}

// sampleOffers returns the sample price list, a slice of the request's own.
func (s *server) sampleOffers() []pricing.Offer { return slices.Clone(s.sample) }

// handler routes the page (GET and POST /) and the API (POST /api/plan); any
// other path is 404 and any other method 405.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("POST /{$}", s.page)
	mux.HandleFunc("POST /api/plan", s.api)
	return mux
}

// Errors of the server itself, beside the input's.
var (
	// errBusy: every planning slot is taken.
	errBusy = errors.New("web: busy: every planning slot is taken; try again in a moment")
	// errSlow: a plan ran past limits.Time.
	errSlow = errors.New("web: the plan ran past the time limit; try again, or narrow the search (fewer offers, a GPU limit, a card)")
	// errInternal: the planner failed in a way no input should cause.
	errInternal = errors.New("web: internal error (a bug in gpuplan: please report the request that caused it)")
)

// within runs fn in a planning slot, for at most limits.Time, and returns what
// it returned, errBusy when no slot is free (at once, without waiting), errSlow
// past the time (fn then finishes in the background and frees its slot, so
// the plans running never exceed limits.Plans), or errInternal when fn panics.
func within[T any](ctx context.Context, s *server, fn func() (T, error)) (T, error) {
	var zero T
	select {
	case s.slots <- struct{}{}:
	default:
		return zero, errBusy
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-s.slots }()
		defer func() {
			if p := recover(); p != nil {
				done <- result{zero, errInternal} // a bug; the answer says no more
			}
		}()
		v, err := fn()
		done <- result{v, err}
	}()
	timer := time.NewTimer(s.limits.Time)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-timer.C:
		return zero, errSlow
	case <-ctx.Done():
		return zero, errSlow
	}
}

// bodyError is err, reading a request's body, with a body past its limit
// (http.MaxBytesReader's error) said as a *tooLarge.
func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return &tooLarge{What: "request body", Limit: mbe.Limit, Unit: "bytes"}
	}
	return err
}

// status is the HTTP status for an error: 413 for a body or upload over its
// limit, 503 when busy or slow, 500 for errInternal, 400 for anything else,
// which is the input's fault: the planner reads nothing but its input.
func status(err error) int {
	var big *tooLarge
	switch {
	case errors.As(err, &big):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, errBusy), errors.Is(err, errSlow):
		return http.StatusServiceUnavailable
	case errors.Is(err, errInternal):
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// tooLarge is an upload or price list over its limit.
type tooLarge struct {
	What  string // "config.json", "price list", "offers"
	Limit int64
	Unit  string // "bytes" or "offers"
}

func (e *tooLarge) Error() string {
	return fmt.Sprintf("web: %s over the limit of %d %s", e.What, e.Limit, e.Unit)
}

// headers sets what every answer carries: no caching of a plan, no sniffing,
// and a content security policy for a page that runs no script and loads
// nothing from elsewhere.
func headers(w http.ResponseWriter, contentType string, code int) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	if code == http.StatusServiceUnavailable {
		h.Set("Retry-After", strconv.Itoa(retryAfter))
	}
	w.WriteHeader(code)
}

// apiRequest is the body of POST /api/plan. Offers and Rates may be absent (or
// null): the sample price list, and no exchange rates.
type apiRequest struct {
	Request json.RawMessage `json:"request"`
	Offers  json.RawMessage `json:"offers"`
	Rates   json.RawMessage `json:"rates"`
}

// api answers POST /api/plan.
func (s *server) api(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.limits.Body))
	err = bodyError(err)
	var rep plan.Report
	if err == nil {
		var in planInput
		if in, err = s.decodeAPI(body); err == nil {
			rep, err = within(r.Context(), s, func() (plan.Report, error) { return in.plan(s.cat) })
		}
	}
	var nf *plan.NoFitError
	switch {
	case errors.As(err, &nf):
		writeJSON(w, http.StatusOK, report.NoFit(nf))
	case err != nil:
		writeJSON(w, status(err), report.Failure(message(err)))
	default:
		writeJSON(w, http.StatusOK, rep)
	}
}

// decodeAPI reads the API's body: one JSON object, unknown keys refused, each
// part by its own strict decoder.
func (s *server) decodeAPI(body []byte) (planInput, error) {
	var in planInput
	var req apiRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return in, fmt.Errorf("web: the body is not a JSON object of request, offers and rates: %w", text.CutError(err, 200))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return in, errors.New("web: the body holds more than one JSON value")
	}
	if isNull(req.Request) {
		return in, errors.New("web: request: missing; the body is {\"request\": {...}, \"offers\": [...], \"rates\": {...}}")
	}
	request, err := withPreset(req.Request)
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(request, &in.req); err != nil {
		return in, err
	}
	if in.req.Limit < 0 || in.req.Limit > s.limits.Options {
		return in, fmt.Errorf("web: request: limit %d: want 0 (%d options) to %d; the API answers with at most %d options", in.req.Limit, plan.DefaultLimit, s.limits.Options, s.limits.Options)
	}
	if isNull(req.Offers) {
		in.offers, in.sample = s.sampleOffers(), true
	} else {
		var raw []json.RawMessage
		if err := json.Unmarshal(req.Offers, &raw); err != nil {
			return in, fmt.Errorf("web: offers: want an array of offers: %w", text.CutError(err, 200))
		}
		if len(raw) > s.limits.Offers {
			return in, &tooLarge{What: "offers", Limit: int64(s.limits.Offers), Unit: "offers"}
		}
		in.offers = make([]pricing.Offer, len(raw))
		for i, o := range raw {
			if err := json.Unmarshal(o, &in.offers[i]); err != nil {
				return in, fmt.Errorf("web: offers[%d]: %w", i, err)
			}
		}
	}
	if !isNull(req.Rates) {
		if err := json.Unmarshal(req.Rates, &in.rates); err != nil {
			return in, err
		}
	}
	return in, nil
}

// withPreset returns the request with a model given by a preset's name
// ("model": "llama-3.1-8b", as the page and examples/plan take it) replaced by
// that preset's fields, which plan.Request reads; any other request as it is.
func withPreset(request json.RawMessage) (json.RawMessage, error) {
	var r map[string]json.RawMessage
	var name string
	if json.Unmarshal(request, &r) != nil || json.Unmarshal(r["model"], &name) != nil {
		return request, nil // not a name: plan.Request's decoder says what is wrong
	}
	m, err := sizing.Preset(name)
	if err != nil {
		return nil, fmt.Errorf("web: request: model: %w", err)
	}
	if r["model"], err = json.Marshal(m); err != nil {
		return nil, fmt.Errorf("web: request: model %s: %w", text.Quote(name, 64), err)
	}
	return json.Marshal(r)
}

// isNull reports a JSON part left out or given as null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// planInput is what one plan needs: the request, the offers (sample: the
// built-in sample list) and the exchange rates.
type planInput struct {
	req    plan.Request
	offers []pricing.Offer
	sample bool   // offers is the sample list
	source string // the uploaded price list: its file and format; empty for the sample
	rates  pricing.Rates
}

// plan runs the planner on in.
func (in planInput) plan(cat *catalog.Catalog) (plan.Report, error) {
	if len(in.offers) == 0 {
		return plan.Report{}, errors.New("web: no offers to plan with: the price list is empty")
	}
	return plan.Planner{Catalog: cat, Offers: in.offers, Rates: in.rates}.Report(in.req)
}

// writeJSON writes v as the answer, indented, with the status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error": "web: internal error: the answer does not encode as JSON", "no_fit": false, "reasons": [], "suggestions": []}`)
	}
	headers(w, "application/json; charset=utf-8", code)
	w.Write(append(b, '\n'))
}

// message is an error's text for an answer, at most a few KiB.
func message(err error) string { return text.Cut(err.Error(), 4<<10) }
