package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

//go:embed page.html
var pageHTML string

// pageTemplate is the page, parsed once; html/template escapes every value
// put into it, and the charts are SVG this program wrote with every text
// escaped (internal/svg.Esc).
var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// view is what the page template shows: the words of its language, the form
// as filled in, and, after a submission, the error or the answer.
type view struct {
	W          *words
	Form       form
	Presets    []string
	Precisions []string
	Error      *viewError // nil: none
	Answer     *answer    // nil: the form alone
}

// choice is an option of a select: its value and what the page shows.
type choice struct{ Value, Label string }

// viewError is a failure the page shows above the form: a sentence in the
// page's language, the field at fault (for its label), and the message behind
// it, as the library wrote it.
type viewError struct {
	Field, Text, Detail string
}

// page answers GET / with the form, and POST / (the form submitted) with the
// form and the plan, or the form and what is wrong with it.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	lang := pickLang(r.URL.Query().Get("lang"), r.Header.Get("Accept-Language"), s.lang)
	v := s.newView(lang, defaultForm)
	if r.Method == http.MethodGet {
		writePage(w, http.StatusOK, v)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.limits.Body)
	values, config, prices, err := s.readBody(r)
	err = bodyError(err)
	if l := values.Get("lang"); l != "" {
		lang = pickLang(l, "", lang)
		v = s.newView(lang, defaultForm)
	}
	v.Form = readForm(values)
	var in planInput
	if err == nil {
		in, err = v.Form.decode(config, prices, s.limits.Offers, lang)
	}
	var rep plan.Report
	if err == nil {
		if in.sample {
			in.offers, in.source = s.sampleOffers(), lang.T("plan.sample")
		}
		if !in.req.Budget.Amount.IsZero() {
			in.req.Budget.Currency = in.offers[0].Tariff.Currency
		}
		rep, err = within(r.Context(), s, func() (plan.Report, error) { return in.plan(s.cat) })
	}
	var nf *plan.NoFitError
	switch {
	case errors.As(err, &nf):
		v.Answer = s.newAnswer(v.W, lang, in, plan.Report{})
		v.Answer.NoFit = nf
		writePage(w, http.StatusOK, v)
	case err != nil:
		v.Error = v.W.explain(err)
		writePage(w, status(err), v)
	default:
		v.Answer = s.newAnswer(v.W, lang, in, rep)
		writePage(w, http.StatusOK, v)
	}
}

// readBody reads the submitted form: its fields and its two uploads, each
// within its limit.
func (s *server) readBody(r *http.Request) (url.Values, upload, upload, error) {
	var config, prices upload
	ct := r.Header.Get("Content-Type")
	if !strings.HasPrefix(ct, "multipart/form-data") {
		err := r.ParseForm()
		return r.PostForm, config, prices, err
	}
	// Every part is kept in memory: the body is bounded by limits.Body already.
	if err := r.ParseMultipartForm(s.limits.Body); err != nil {
		return nil, config, prices, err
	}
	defer r.MultipartForm.RemoveAll()
	var err error
	if config, err = readUpload(r.MultipartForm, "config", s.limits.Config); err != nil {
		return r.MultipartForm.Value, config, prices, err
	}
	prices, err = readUpload(r.MultipartForm, "prices", s.limits.Prices)
	return r.MultipartForm.Value, config, prices, err
}

// readUpload reads the file sent as field, at most limit bytes; a field with
// no file (or an empty one, as a browser sends for a file input left alone) is
// no upload.
func readUpload(f *multipart.Form, field string, limit int64) (upload, error) {
	files := f.File[field]
	if len(files) == 0 || files[0].Size == 0 {
		return upload{}, nil
	}
	h := files[0]
	what := map[string]string{"config": "config.json", "prices": "price list"}[field]
	if h.Size > limit {
		return upload{}, &tooLarge{What: what, Limit: limit, Unit: "bytes"}
	}
	file, err := h.Open()
	if err != nil {
		return upload{}, err
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, limit+1))
	if err != nil {
		return upload{}, err
	}
	if int64(len(data)) > limit {
		return upload{}, &tooLarge{What: what, Limit: limit, Unit: "bytes"}
	}
	return upload{Name: h.Filename, Data: data}, nil
}

// newView is the page in lang with the form f and no answer yet.
func (s *server) newView(lang msg.Lang, f form) view {
	v := view{W: pageWords[lang], Form: f, Presets: sizing.Presets()}
	for _, p := range sizing.Precisions() {
		v.Precisions = append(v.Precisions, strings.ToLower(p.String()))
	}
	return v
}

// explain is the page's account of err: which field, in the page's words,
// and the message behind it.
func (w *words) explain(err error) *viewError {
	var fe *fieldError
	var big *tooLarge
	switch {
	case errors.As(err, &fe):
		e := &viewError{Field: fe.Field, Text: fmt.Sprintf(w.FixField, w.Fields[fe.Field]) + " " + fmt.Sprintf(w.Want[fe.Want], fe.Args...)}
		if fe.Err != nil {
			e.Detail = message(fe.Err)
		}
		return e
	case errors.As(err, &big):
		return &viewError{Text: w.TooLarge, Detail: big.Error()}
	case errors.Is(err, errBusy):
		return &viewError{Text: w.Busy}
	case errors.Is(err, errSlow):
		return &viewError{Text: w.Slow}
	case errors.Is(err, errInternal):
		return &viewError{Text: w.Internal, Detail: err.Error()}
	}
	return &viewError{Text: w.BadInput, Detail: message(err)}
}

// writePage renders v with status code. The page is rendered into a buffer
// first, so that a template failure (a bug) is a 500 and never half a page.
func writePage(w http.ResponseWriter, code int, v view) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, v); err != nil {
		headers(w, "text/plain; charset=utf-8", http.StatusInternalServerError)
		io.WriteString(w, errInternal.Error()+"\n")
		return
	}
	headers(w, "text/html; charset=utf-8", code)
	w.Write(b.Bytes())
}

// pickLang is the page's language: the lang parameter ("zh" or "en", as -lang
// reads it) when given, else the first of Chinese and English the
// Accept-Language header prefers (by its q weights, then its order), else def.
func pickLang(param, accept string, def msg.Lang) msg.Lang {
	if l, err := msg.ParseLang(param); err == nil && param != "" {
		return l
	}
	best, bestQ := def, 0.0
	for _, part := range strings.Split(accept, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			var err error
			if q, err = strconv.ParseFloat(v, 64); err != nil || !(q >= 0 && q <= 1) {
				continue
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		var l msg.Lang
		switch primary {
		case "zh":
			l = msg.ZH
		case "en":
			l = msg.EN
		default:
			continue
		}
		if q > bestQ {
			best, bestQ = l, q
		}
	}
	return best
}
