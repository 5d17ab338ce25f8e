package pricelist

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// This file holds what the price-list readers share: the size bound, the checks
// of encoding and separators, the reading of CSV rows and their errors with the
// line, and the cells the CSV formats share (card memory, prices with units).

// maxListBytes bounds the size of a price list the readers read.
const maxListBytes = 32 << 20

// errListTooLarge reports a price list past maxListBytes.
var errListTooLarge = invalidf("price list over %d bytes", maxListBytes)

// utf8BOM is the byte order mark some tools write at the start of a UTF-8 file
// (Excel's and PowerShell's CSV exports among them).
const utf8BOM = "\ufeff"

// readList reads a whole list within the size bound, refusing it early when its
// size is known, and drops a UTF-8 byte order mark. Text that is not UTF-8 is
// refused with a hint, as encoding/json would silently replace the bad bytes.
func readList(r io.Reader) ([]byte, error) {
	if knownSize(r) > maxListBytes {
		return nil, &ParseError{Err: errListTooLarge}
	}
	var buf bytes.Buffer
	if n := knownSize(r); n > 0 {
		buf.Grow(int(n) + bytes.MinRead) // read at once, without growing
	}
	_, err := buf.ReadFrom(io.LimitReader(r, maxListBytes+1))
	data := buf.Bytes()
	if err != nil {
		return nil, &ParseError{Err: fmt.Errorf("reading the price list: %w: %w", err, pricing.ErrInvalid)}
	}
	if len(data) > maxListBytes {
		return nil, &ParseError{Err: errListTooLarge}
	}
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	if !utf8.Valid(data) {
		bad := 0 // the offset of the first byte that is not UTF-8
		for r, n := utf8.DecodeRune(data); r != utf8.RuneError || n > 1; r, n = utf8.DecodeRune(data[bad:]) {
			bad += n
		}
		return nil, &ParseError{Line: (&lineCounter{data: data}).at(int64(bad)), Err: errNotUTF8}
	}
	return data, nil
}

// knownSize returns the bytes r tells it holds before it is read: a reader's
// remaining length (bytes.Reader, strings.Reader, bytes.Buffer) or a regular
// file's size; -1 when it tells none. A list known to be over maxListBytes is
// refused before it is read; others are bounded while they are read.
func knownSize(r io.Reader) int64 {
	if l, ok := r.(interface{ Len() int }); ok {
		return int64(l.Len())
	}
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return -1
}

// errNotUTF8 is the reason for a list that is not UTF-8, with what to do.
var errNotUTF8 = invalidf("not UTF-8 text; the file may be GBK or another legacy encoding (Excel's plain \"CSV\" on Chinese Windows): save it as \"CSV UTF-8\" or convert it (iconv -f GBK -t UTF-8)")

// checkHeader refuses a header of a single column holding semicolons or tabs,
// which a file with other separators reads as.
func checkHeader(header []string, line int) error {
	if len(header) == 1 {
		if hint := separatorHint(header[0]); hint != "" {
			return &ParseError{Line: line, Input: header[0], Err: invalidf("one column only: %s", hint)}
		}
	}
	return nil
}

// separatorHint says what to do with text that holds another separator than the
// comma; "" when it holds none.
func separatorHint(s string) string {
	switch {
	case strings.ContainsAny(s, "，、"):
		return "the columns seem separated by full-width commas (，or 、, as a Chinese input method types them); write ASCII commas (,) between columns"
	case strings.Contains(s, ";"):
		return "the columns seem separated by semicolons (Excel does so in locales with a decimal comma); save the file with commas between columns"
	case strings.Contains(s, "\t"):
		return "the columns seem separated by tabs; save the file as CSV with commas between columns"
	}
	return ""
}

// csvErr turns an error of the CSV reader into a *ParseError, with the separator
// hint when the row rec that has the wrong number of cells holds another
// separator, and else how many cells it has and the header's want.
func csvErr(err error, rec []string, want int) error {
	if errors.Is(err, errListTooLarge) {
		return &ParseError{Err: errListTooLarge}
	}
	var ce *csv.ParseError
	if !errors.As(err, &ce) {
		return &ParseError{Err: fmt.Errorf("%w: %w", err, pricing.ErrInvalid)}
	}
	if errors.Is(ce.Err, csv.ErrFieldCount) {
		for _, f := range rec {
			if hint := separatorHint(f); hint != "" {
				return &ParseError{Line: ce.Line, Err: fmt.Errorf("%w: %s: %w", ce.Err, hint, pricing.ErrInvalid)}
			}
		}
		if want > 0 {
			return &ParseError{Line: ce.Line, Err: fmt.Errorf("%w: %d fields where the header has %d (an empty cell is still written, between commas: a,,b): %w",
				ce.Err, len(rec), want, pricing.ErrInvalid)}
		}
	}
	return &ParseError{Line: ce.Line, Err: fmt.Errorf("%w: %w", ce.Err, pricing.ErrInvalid)}
}

// csvList is a CSV list opened by openCSV: its reader, past the header row, the
// header and its line, and the number of lines, which bounds the rows to come.
type csvList struct {
	*csv.Reader
	header []string
	hline  int
	lines  int
}

// openCSV reads a whole CSV list (readList: size bound, UTF-8), with # comment
// lines, and its header row, which it checks (checkHeader); what names the list
// in the error for an empty one. The reader then reads rows of the header's width
// (eachRow).
func openCSV(r io.Reader, what string) (*csvList, error) {
	data, err := readList(r)
	if err != nil {
		return nil, err
	}
	l := &csvList{Reader: csv.NewReader(bytes.NewReader(data)), lines: bytes.Count(data, []byte{'\n'}) + 1}
	l.Comment = '#'
	l.header, err = l.Read()
	if err == io.EOF {
		return nil, &ParseError{Line: 1, Err: invalidf("empty %s, want a header row", what)}
	}
	if err != nil {
		return nil, csvErr(err, l.header, 0)
	}
	l.hline, _ = l.FieldPos(0)
	if err := checkHeader(l.header, l.hline); err != nil {
		return nil, err
	}
	l.FieldsPerRecord = len(l.header)
	l.ReuseRecord = true
	return l, nil
}

// eachRow hands each row of a list openCSV opened to row, with its line, until
// the end or the first error; rec is reused from row to row.
func eachRow(cr *csvList, row func(rec []string, line int) error) error {
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvErr(err, rec, cr.FieldsPerRecord)
		}
		line, _ := cr.FieldPos(0)
		if err := row(rec, line); err != nil {
			return err
		}
	}
}

// cell returns the cell at position i of a row, trimmed of spaces; "" for a
// column that is absent (i < 0).
func cell(rec []string, i int) string {
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

// nonNil returns offers, or an empty slice for none, which JSON writes as [].
func nonNil(offers []pricing.Offer) []pricing.Offer {
	if offers == nil {
		return []pricing.Offer{}
	}
	return offers
}

// statesMemory reports whether a card name carries a memory size as a word of
// its own: "A100 80GB", "A100-80GB", "RTX 4090 24G", "H100 80 GB".
func statesMemory(name string) bool {
	sep := func(r rune) bool { return r == ' ' || r == '-' || r == '_' || r == '/' || r == '(' || r == ')' }
	number := false // the word before was a number
	for s := text.FoldWidth(name); s != ""; {
		i := strings.IndexFunc(s, func(r rune) bool { return !sep(r) })
		if i < 0 {
			break
		}
		s = s[i:]
		j := strings.IndexFunc(s, sep)
		if j < 0 {
			j = len(s)
		}
		w := s[:j]
		s = s[j:]
		unit := strings.TrimLeft(w, "0123456789")
		gb := strings.EqualFold(unit, "gb") || strings.EqualFold(unit, "gib")
		if number && gb || len(unit) < len(w) && (gb || strings.EqualFold(unit, "g")) {
			return true
		}
		number = unit == ""
	}
	return false
}

// notOffered holds the marks price tables put in a cell for a package not sold:
// they read as an empty cell.
var notOffered = map[string]bool{"-": true, "—": true, "–": true, "－": true, "/": true, "无": true, "暂无": true, "n/a": true, "N/A": true}

// priceCell reads a price cell of a column ("hourly", "term_3m") that may carry
// its currency and period: "8", "¥8.00", "8元/小时", "1,200元/月", "US$2.10/h".
// headUnit is the unit the column's heading gives, used when the cell gives none.
// currency is the row's currency, which the cell's must agree with.
func priceCell(col, s, headUnit, currency string) (decimal.Decimal, error) {
	if s == "" || notOffered[s] {
		return decimal.Decimal{}, nil
	}
	f := text.FoldWidth(s)
	// Prefix (a currency sign or code), number, suffix (the unit).
	i := strings.IndexAny(f, "0123456789-.")
	if i < 0 {
		i = len(f)
	}
	j := len(f) - len(strings.TrimLeft(f[i:], "0123456789.,-"))
	num, unit := f[i:j], strings.TrimSpace(f[:i])+strings.TrimSpace(f[j:])
	if num == "" {
		return decimal.Decimal{}, &cellError{col, s, invalidf("not a plain decimal such as 12.50")}
	}
	if unit == "" {
		unit = headUnit
	}
	if strings.Contains(num, ",") {
		var ok bool
		grouped := num
		if num, ok = ungroup(num); !ok {
			if strings.Count(grouped, ",") == 1 && !strings.Contains(grouped, ".") {
				// A decimal comma, as in much of Europe: say the form to write.
				return decimal.Decimal{}, &cellError{col, s, invalidf("not a price: commas must group thousands (1,200.50); for a decimal, write a point: %s", strings.Replace(grouped, ",", ".", 1))}
			}
			return decimal.Decimal{}, &cellError{col, s, invalidf("not a price: commas must group thousands (1,200.50)")}
		}
	}
	if unit != "" {
		curs, err := unitCurrencies(col, unit)
		if err != nil {
			return decimal.Decimal{}, &cellError{col, s, err}
		}
		if curs != nil && currency != "" && !slices.Contains(curs, currency) {
			return decimal.Decimal{}, &cellError{col, s, fmt.Errorf("the price is in %s, the row in %s: %w", strings.Join(curs, " or "), currency, pricing.ErrCurrencyMismatch)}
		}
	}
	d, err := pricing.ParseDecimal(num)
	if err != nil {
		return decimal.Decimal{}, &cellError{col, s, invalidf("not a plain decimal such as 12.50")}
	}
	return d, nil
}

// ungroup drops the commas of "1,200.50" when they group the integer part in
// thousands; false otherwise.
func ungroup(num string) (string, bool) {
	intPart, frac, hasPoint := strings.Cut(num, ".")
	groups := strings.Split(intPart, ",")
	if len(groups[0]) == 0 || len(groups[0]) > 3 {
		return "", false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return "", false
		}
	}
	out := strings.Join(groups, "")
	if hasPoint {
		out += "." + frac
	}
	return out, true
}

// Currency words and signs a price cell may carry, longest first, with the ISO
// codes each is compatible with.
var unitCurrencyWords = []struct {
	word  string
	codes []string
}{
	{"人民币", []string{"CNY"}}, {"美元", []string{"USD"}}, {"港元", []string{"HKD"}}, {"港币", []string{"HKD"}},
	{"us$", []string{"USD"}}, {"hk$", []string{"HKD"}}, {"rmb", []string{"CNY"}}, {"cny", []string{"CNY"}},
	{"usd", []string{"USD"}}, {"eur", []string{"EUR"}}, {"元", []string{"CNY", "HKD", "TWD"}},
	{"¥", []string{"CNY", "JPY"}}, {"￥", []string{"CNY", "JPY"}}, {"$", []string{"USD", "AUD", "CAD", "HKD", "NZD", "SGD", "TWD"}},
	{"€", []string{"EUR"}},
}

// Period words of a unit ("/小时", "/h"), and the column each fits.
var unitPeriodWords = map[string]string{
	"小时": "hourly", "时": "hourly", "h": "hourly", "hr": "hourly", "hour": "hourly",
	"天": "daily", "日": "daily", "d": "daily", "day": "daily",
	"周": "weekly", "星期": "weekly", "w": "weekly", "wk": "weekly", "week": "weekly",
	"月": "monthly", "个月": "monthly", "mo": "monthly", "month": "monthly",
	// Per GPU, which every price is: nothing to check.
	"卡": "", "每卡": "", "gpu": "", "card": "",
}

// unitCurrencies reads a price unit ("元/小时", "¥", "$/h") for a column: the
// currencies it allows (nil when it names none), or an error when it names a
// period other than the column's or words it does not know.
func unitCurrencies(col, unit string) ([]string, error) {
	codes, period, err := unitParts(unit)
	if err != nil {
		return nil, err
	}
	want := col
	if _, ok := termColumn(col); ok {
		want = "monthly"
	}
	if period != "" && period != want {
		return nil, invalidf("unit %s is a %s price, in the %s column", quote(unit), period, col)
	}
	return codes, nil
}

// unitParts reads a price unit: the currencies it allows (nil when it names
// none) and the column of the period it names ("hourly" for "元/小时"; empty
// when it names none), or an error for two currencies, two periods or words it
// does not know.
func unitParts(unit string) (codes []string, period string, err error) {
	u := strings.ToLower(strings.Join(strings.Fields(unit), ""))
	for _, w := range unitCurrencyWords {
		if strings.Contains(u, w.word) {
			if codes != nil {
				return nil, "", invalidf("unit %s names two currencies", quote(unit))
			}
			codes = w.codes
			u = strings.Replace(u, w.word, "", 1)
		}
	}
	for _, p := range strings.Split(u, "/") {
		if p == "" {
			continue
		}
		col, ok := unitPeriodWords[p]
		switch {
		case !ok:
			return nil, "", invalidf("unit %s not understood (want a currency and a period such as 元/小时, ¥ or $/h)", quote(unit))
		case col != "" && period != "" && col != period:
			return nil, "", invalidf("unit %s names two periods", quote(unit))
		case col != "":
			period = col
		}
	}
	return codes, period, nil
}
