package pricing

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// maxListBytes bounds the size of a price list the loaders read.
const maxListBytes = 32 << 20

// errListTooLarge reports a price list past maxListBytes.
var errListTooLarge = fmt.Errorf("price list over %d bytes: %w", maxListBytes, ErrInvalid)

// sizeLimit reads r and fails with errListTooLarge once more than maxListBytes
// have come, so that a long list is refused rather than cut short.
type sizeLimit struct {
	r    io.Reader
	read int64
}

func (l *sizeLimit) Read(p []byte) (int, error) {
	if l.read > maxListBytes {
		return 0, errListTooLarge
	}
	if rest := maxListBytes + 1 - l.read; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	if l.read > maxListBytes {
		return n, errListTooLarge
	}
	return n, err
}

// utf8BOM is the byte order mark some tools write at the start of a UTF-8 file
// (Excel's and PowerShell's CSV exports among them).
const utf8BOM = "\ufeff"

// fieldOf returns the field of o in which Validate's first problem lies, with its
// text, so that a loader's error can name the column or JSON field; "" when the
// problem is not one field's. tariff prefixes the tariff's fields ("tariff." in
// JSON); csvTerms names terms as CSV columns ("term_3m") rather than by index.
func fieldOf(o Offer, tariff string, csvTerms bool) (field, input string) {
	t := o.Tariff
	switch {
	case strings.TrimSpace(o.Provider) == "":
		return "provider", o.Provider
	case CardKey(o.Card) == "":
		return "card", o.Card
	case ValidCurrency(t.Currency) != nil:
		return tariff + "currency", t.Currency
	}
	for _, p := range [...]struct {
		name string
		v    decimal.Decimal
	}{{"hourly", t.Hourly}, {"daily", t.Daily}, {"weekly", t.Weekly}, {"monthly", t.Monthly}} {
		if checkPrice(p.name, p.v) != nil {
			return tariff + p.name, p.v.String()
		}
	}
	for i, term := range t.Terms {
		bad := term.Months < 2 || term.Months > 120 || checkPrice("monthly", term.Monthly) != nil ||
			checkPrice("discount", term.Discount) != nil
		if !bad {
			continue
		}
		if csvTerms {
			return "term_" + strconv.Itoa(term.Months) + "m", term.Monthly.String()
		}
		return tariff + "terms[" + strconv.Itoa(i) + "]", ""
	}
	return "", ""
}

// fieldError names the field a JSON or CSV value failed in.
type fieldError struct {
	field, input string
	err          error
}

func (e *fieldError) Error() string {
	s := "pricing: field " + e.field
	if e.input != "" {
		s += " " + quote(e.input)
	}
	return s + ": " + reasonText(e.err, e.input)
}

func (e *fieldError) Unwrap() error { return e.err }

// offered writes a price exactly, or "" for zero: not offered.
func offered(d decimal.Decimal) string {
	if d.IsZero() {
		return ""
	}
	return exactString(d, 0)
}

type termWire struct {
	Months   int    `json:"months"`
	Monthly  string `json:"monthly"`
	Discount string `json:"discount"`
}

type tariffWire struct {
	Currency      string     `json:"currency"`
	Hourly        string     `json:"hourly"`
	Daily         string     `json:"daily"`
	Weekly        string     `json:"weekly"`
	Monthly       string     `json:"monthly"`
	HoursPerMonth int        `json:"hours_per_month"`
	Granularity   string     `json:"granularity"`
	Minimum       string     `json:"minimum"`
	Terms         []termWire `json:"terms"`
	AfterPackage  string     `json:"after_package"`
	Rounding      string     `json:"rounding"`
}

// MarshalJSON writes the tariff with prices as exact decimal strings, "" for a
// price not offered (a "0" would read as free), and durations in time.Duration's
// format ("1m0s"), whatever decimal's package settings are. See LoadOffersJSON for
// the format, which reads "" back as not offered.
func (t Tariff) MarshalJSON() ([]byte, error) {
	w := tariffWire{
		Currency: t.Currency, Hourly: offered(t.Hourly), Daily: offered(t.Daily),
		Weekly: offered(t.Weekly), Monthly: offered(t.Monthly),
		HoursPerMonth: t.HoursPerMonth, Granularity: t.Granularity.String(), Minimum: t.Minimum.String(),
		Terms: []termWire{}, AfterPackage: t.AfterPackage.String(), Rounding: t.Rounding.String(),
	}
	for _, term := range t.Terms {
		w.Terms = append(w.Terms, termWire{term.Months, offered(term.Monthly), offered(term.Discount)})
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a tariff strictly: unknown fields, prices written as JSON
// numbers, malformed decimals and durations are errors wrapping ErrInvalid. It
// does not call Validate; LoadOffersJSON does.
func (t *Tariff) UnmarshalJSON(b []byte) error {
	var w tariffWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	var out Tariff
	var err error
	out.Currency = w.Currency
	out.HoursPerMonth = w.HoursPerMonth
	for _, f := range []struct {
		name string
		in   string
		dst  *decimal.Decimal
	}{{"hourly", w.Hourly, &out.Hourly}, {"daily", w.Daily, &out.Daily}, {"weekly", w.Weekly, &out.Weekly}, {"monthly", w.Monthly, &out.Monthly}} {
		if *f.dst, err = priceField(f.name, f.in); err != nil {
			return err
		}
	}
	if out.Granularity, err = durationField("granularity", w.Granularity); err != nil {
		return err
	}
	if out.Minimum, err = durationField("minimum", w.Minimum); err != nil {
		return err
	}
	if out.AfterPackage, err = ParseAfterPackage(w.AfterPackage); err != nil {
		return &fieldError{"after_package", w.AfterPackage, err}
	}
	if out.Rounding, err = ParseRoundingMode(w.Rounding); err != nil {
		return &fieldError{"rounding", w.Rounding, err}
	}
	for i, tw := range w.Terms {
		var term Term
		term.Months = tw.Months
		if term.Monthly, err = priceField(fmt.Sprintf("terms[%d].monthly", i), tw.Monthly); err != nil {
			return err
		}
		if term.Discount, err = priceField(fmt.Sprintf("terms[%d].discount", i), tw.Discount); err != nil {
			return err
		}
		out.Terms = append(out.Terms, term)
	}
	*t = out
	return nil
}

// MarshalJSON writes {"months":3,"monthly":"8000","discount":"0"} with exact
// decimal strings, whatever decimal's package settings are.
func (term Term) MarshalJSON() ([]byte, error) {
	return json.Marshal(termWire{term.Months, exactString(term.Monthly, 0), exactString(term.Discount, 0)})
}

// UnmarshalJSON reads what MarshalJSON writes; prices must be strings and unknown
// fields are errors wrapping ErrInvalid.
func (term *Term) UnmarshalJSON(b []byte) error {
	var w termWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	var out Term
	var err error
	out.Months = w.Months
	if out.Monthly, err = priceField("monthly", w.Monthly); err != nil {
		return err
	}
	if out.Discount, err = priceField("discount", w.Discount); err != nil {
		return err
	}
	*term = out
	return nil
}

// UnmarshalJSON reads an offer strictly: unknown fields are errors wrapping
// ErrInvalid. It does not call Validate; LoadOffersJSON does.
func (o *Offer) UnmarshalJSON(b []byte) error {
	type plain Offer // without methods, so no recursion
	var p plain
	if err := strictUnmarshal(b, &p); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) && !strings.HasPrefix(fe.field, "tariff") && !isOfferField(fe.field) {
			return &fieldError{"tariff." + fe.field, fe.input, fe.err}
		}
		return err
	}
	*o = Offer(p)
	return nil
}

// isOfferField reports whether name is a JSON field of Offer itself.
func isOfferField(name string) bool {
	switch name {
	case "provider", "region", "card", "max_gpus", "tier", "support", "interruptible", "interruptions_per_day", "notes", "line":
		return true
	}
	return false
}

// priceField parses a price: empty is zero (not offered); otherwise a plain,
// non-negative decimal string.
func priceField(name, s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Decimal{}, nil
	}
	d, err := parseDecimal(s, false)
	if err != nil {
		return decimal.Decimal{}, &fieldError{name, s, err}
	}
	return d, nil
}

// durationField parses a Go duration ("1s", "1m", "1h", "15m"); empty is zero.
func durationField(name, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, &fieldError{name, s, fmt.Errorf("want a duration such as 1s, 1m or 1h: %w", ErrInvalid)}
	}
	return d, nil
}

// LoadOffersJSON reads a price list: a JSON array of offers, each
//
//	{"provider": "example-cloud", "region": "cn-hangzhou", "card": "RTX 4090",
//	 "max_gpus": 8, "tier": "T3", "support": "24x7", "interruptible": false,
//	 "interruptions_per_day": 0, "notes": "",
//	 "tariff": {"currency": "CNY", "hourly": "1.60", "daily": "35", "weekly": "",
//	            "monthly": "900", "hours_per_month": 730, "granularity": "1s",
//	            "minimum": "", "terms": [{"months": 3, "monthly": "850"}],
//	            "after_package": "hourly", "rounding": "half_up"}}
//
// Prices are JSON strings holding plain decimals (a JSON number is an error, so no
// price passes through a float); an empty or absent price is not offered.
// Durations use Go's syntax ("1s", "1m", "1h"); empty is the default. Every field
// but provider, card and the tariff's currency and one price may be left out.
// Unknown fields are errors. Every offer is validated (Offer.Validate). Errors are
// *ParseError values with the line of the offending offer (or of the syntax
// error) and, where known, the field, wrapping ErrInvalid.
func LoadOffersJSON(r io.Reader) ([]Offer, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxListBytes+1))
	if err != nil {
		return nil, &ParseError{Err: fmt.Errorf("reading the price list: %v: %w", err, ErrInvalid)}
	}
	if len(data) > maxListBytes {
		return nil, &ParseError{Err: errListTooLarge}
	}
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	dec := json.NewDecoder(bytes.NewReader(data))
	fail := func(off int64, err error) error {
		pe := &ParseError{Line: lineAt(data, off), Err: err}
		var fe *fieldError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &fe):
			pe.Field, pe.Input, pe.Err = fe.field, fe.input, fe.err
		case errors.As(err, &se):
			pe.Line = lineAt(data, se.Offset)
		}
		if !errors.Is(pe.Err, ErrInvalid) {
			pe.Err = fmt.Errorf("%v: %w", pe.Err, ErrInvalid)
		}
		return pe
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fail(dec.InputOffset(), fmt.Errorf("want a JSON array of offers: %v: %w", err, ErrInvalid))
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fail(0, fmt.Errorf("want a JSON array of offers: %w", ErrInvalid))
	}
	offers := []Offer{}
	seen, line := int64(0), 1 // lines counted up to seen, so the count stays linear
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fail(start, err)
		}
		if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
			return nil, fail(start, fmt.Errorf("offer %d: want a JSON object, got %s: %w", len(offers)+1, jsonKind(t), ErrInvalid))
		}
		var o Offer
		if err := o.UnmarshalJSON(raw); err != nil {
			return nil, fail(start, err)
		}
		if err := o.Validate(); err != nil {
			if f, in := fieldOf(o, "tariff.", false); f != "" {
				err = &fieldError{f, in, err}
			}
			return nil, fail(start, err)
		}
		brace := start + int64(bytes.IndexByte(data[start:], '{'))
		line += bytes.Count(data[seen:brace], []byte{'\n'})
		seen = brace
		o.Line = line
		offers = append(offers, o)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(dec.InputOffset(), fmt.Errorf("unterminated array: %v: %w", err, ErrInvalid))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail(dec.InputOffset(), fmt.Errorf("data after the array: %w", ErrInvalid))
	}
	return offers, nil
}

// jsonKind names the kind of JSON value raw starts with, for messages.
func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// lineAt returns the 1-based line of the first non-space byte at or after off.
func lineAt(data []byte, off int64) int {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// csvColumns lists the columns LoadOffersCSV knows, besides term_<N>m.
var csvColumns = []string{"provider", "region", "card", "max_gpus", "currency", "hourly", "daily",
	"weekly", "monthly", "hours_per_month", "granularity", "minimum", "after_package", "rounding",
	"tier", "support", "interruptible", "interruptions_per_day", "notes"}

// LoadOffersCSV reads a price list in CSV: a header row, then one offer per row.
// Lines starting with # are comments. Columns may come in any order; provider,
// card and currency are required, the others optional, and an unknown or repeated
// column is an error. Cells are trimmed of spaces; an empty cell is the zero value
// (a price not offered, the default month, granularity and policy).
//
//	provider, region, card     text
//	max_gpus                   integer ≥ 0 (zero: no stated limit)
//	currency                   ISO 4217 code ("CNY")
//	hourly, daily, weekly,
//	monthly                    prices per GPU, plain decimals ("1.60"), no exponent
//	term_<N>m                  price of one month under an N-month term ("term_3m")
//	hours_per_month            integer, 672 to 744 (empty: 730)
//	granularity, minimum       Go durations ("1s", "1m", "1h")
//	after_package              hourly or renew
//	rounding                   half_up or half_even
//	tier, support, notes       text
//	interruptible              true or false
//	interruptions_per_day      a decimal number ≥ 0
//
// Every offer is validated (Offer.Validate). Errors are *ParseError values with the
// line and column, wrapping ErrInvalid.
func LoadOffersCSV(r io.Reader) ([]Offer, error) {
	br := bufio.NewReader(&sizeLimit{r: r})
	if b, err := br.Peek(len(utf8BOM)); err == nil && string(b) == utf8BOM {
		_, _ = br.Discard(len(utf8BOM)) // Peek saw the bytes
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, &ParseError{Line: 1, Err: fmt.Errorf("empty price list, want a header row: %w", ErrInvalid)}
		}
		return nil, csvErr(err)
	}
	hline, _ := cr.FieldPos(0)
	col := map[string]int{}
	known := map[string]bool{}
	for _, c := range csvColumns {
		known[c] = true
	}
	terms := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			return nil, &ParseError{Line: hline, Err: fmt.Errorf("column %d of the header has no name (a trailing comma?): %w", i+1, ErrInvalid)}
		}
		if _, dup := col[h]; dup {
			return nil, &ParseError{Line: hline, Field: h, Input: header[i], Err: fmt.Errorf("column repeated: %w", ErrInvalid)}
		}
		if m, ok := termColumn(h); ok {
			if m < 2 || m > 120 {
				return nil, &ParseError{Line: hline, Field: h, Input: header[i], Err: fmt.Errorf("a term of %d months: terms run 2 to 120 months: %w", m, ErrInvalid)}
			}
			terms[h] = m
		} else if !known[h] {
			return nil, &ParseError{Line: hline, Field: h, Input: header[i], Err: fmt.Errorf("unknown column (want %s or term_<N>m): %w", strings.Join(csvColumns, ", "), ErrInvalid)}
		}
		col[h] = i
	}
	for _, need := range []string{"provider", "card", "currency"} {
		if _, ok := col[need]; !ok {
			return nil, &ParseError{Line: hline, Field: need, Err: fmt.Errorf("column missing from the header: %w", ErrInvalid)}
		}
	}
	var termMonths []int
	for _, m := range terms {
		termMonths = append(termMonths, m)
	}
	sort.Ints(termMonths)
	cr.FieldsPerRecord = len(header)
	offers := []Offer{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return offers, nil
		}
		if err != nil {
			return nil, csvErr(err)
		}
		line, _ := cr.FieldPos(0)
		o, err := offerFromCSV(rec, col, termMonths)
		if err == nil {
			if err = o.Validate(); err != nil {
				if f, in := fieldOf(o, "", true); f != "" {
					err = &fieldError{f, in, err}
				}
			}
		}
		if err != nil {
			pe := &ParseError{Line: line, Err: err}
			var fe *fieldError
			if errors.As(err, &fe) {
				pe.Field, pe.Input, pe.Err = fe.field, fe.input, fe.err
				if i, ok := col[fe.field]; ok {
					pe.Line, _ = cr.FieldPos(i)
				}
			}
			if !errors.Is(pe.Err, ErrInvalid) {
				pe.Err = fmt.Errorf("%v: %w", pe.Err, ErrInvalid)
			}
			return nil, pe
		}
		o.Line = line
		offers = append(offers, o)
	}
}

// termColumn recognises "term_<N>m" and returns N.
func termColumn(h string) (int, bool) {
	if !strings.HasPrefix(h, "term_") || !strings.HasSuffix(h, "m") {
		return 0, false
	}
	n, err := strconv.Atoi(h[len("term_") : len(h)-1])
	if err != nil || n < 1 || n > 1000 || strconv.Itoa(n) != h[len("term_"):len(h)-1] {
		return 0, false
	}
	return n, true
}

func csvErr(err error) error {
	if errors.Is(err, errListTooLarge) {
		return &ParseError{Err: errListTooLarge}
	}
	var ce *csv.ParseError
	if errors.As(err, &ce) {
		return &ParseError{Line: ce.Line, Err: fmt.Errorf("%v: %w", ce.Err, ErrInvalid)}
	}
	return &ParseError{Err: fmt.Errorf("%v: %w", err, ErrInvalid)}
}

// offerFromCSV builds one offer from a record; it does not validate.
func offerFromCSV(rec []string, col map[string]int, termMonths []int) (Offer, error) {
	get := func(name string) string {
		if i, ok := col[name]; ok {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	var o Offer
	var err error
	o.Provider, o.Region, o.Card = get("provider"), get("region"), get("card")
	o.Tier, o.Support, o.Notes = get("tier"), get("support"), get("notes")
	t := &o.Tariff
	t.Currency = get("currency")
	if o.MaxGPUs, err = intField("max_gpus", get("max_gpus")); err != nil {
		return o, err
	}
	if t.HoursPerMonth, err = intField("hours_per_month", get("hours_per_month")); err != nil {
		return o, err
	}
	for _, f := range []struct {
		name string
		dst  *decimal.Decimal
	}{{"hourly", &t.Hourly}, {"daily", &t.Daily}, {"weekly", &t.Weekly}, {"monthly", &t.Monthly}} {
		if *f.dst, err = priceField(f.name, get(f.name)); err != nil {
			return o, err
		}
	}
	// Terms in ascending months, a defined order.
	for _, m := range termMonths {
		name := "term_" + strconv.Itoa(m) + "m"
		p, err := priceField(name, get(name))
		if err != nil {
			return o, err
		}
		if !p.IsZero() {
			t.Terms = append(t.Terms, Term{Months: m, Monthly: p})
		}
	}
	if t.Granularity, err = durationField("granularity", get("granularity")); err != nil {
		return o, err
	}
	if t.Minimum, err = durationField("minimum", get("minimum")); err != nil {
		return o, err
	}
	if t.AfterPackage, err = ParseAfterPackage(get("after_package")); err != nil {
		return o, &fieldError{"after_package", get("after_package"), err}
	}
	if t.Rounding, err = ParseRoundingMode(get("rounding")); err != nil {
		return o, &fieldError{"rounding", get("rounding"), err}
	}
	if s := get("interruptible"); s != "" {
		if o.Interruptible, err = strconv.ParseBool(s); err != nil {
			return o, &fieldError{"interruptible", s, fmt.Errorf("want true or false: %w", ErrInvalid)}
		}
	}
	if s := get("interruptions_per_day"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return o, &fieldError{"interruptions_per_day", s, fmt.Errorf("want a finite number ≥ 0: %w", ErrInvalid)}
		}
		o.InterruptionsPerDay = v
	}
	return o, nil
}

func intField(name, s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1_000_000 {
		return 0, &fieldError{name, s, fmt.Errorf("want a whole number from 0 to 1000000: %w", ErrInvalid)}
	}
	return n, nil
}
