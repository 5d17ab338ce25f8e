// Command invoice bills what an account used in a period, as a provider's billing
// system would with pricing.Account.Bill: it reads the account (its tariff, the
// packages it bought, its tax rate and SLA) as JSON, a CSV log of sessions and,
// optionally, a CSV log of outages, and prints the invoice.
//
//	go run ./examples/invoice -account testdata/account.json -sessions testdata/sessions.csv \
//	    -outages testdata/outages.csv -from 2026-01-01 -to 2026-02-01
//	go run ./examples/invoice ... -json -o invoice.json
//
// The account file is what pricing.Account's UnmarshalJSON reads:
//
//	{"tariff": {"currency": "CNY", "hourly": "18", "daily": "300", "monthly": "9000",
//	            "granularity": "1m0s"},
//	 "purchases": [{"package": "monthly", "start": "2026-01-01T00:00:00Z", "gpus": 2}],
//	 "tax_rate": "0.06",
//	 "sla": {"availability": 0.999, "credits": [{"below": 0.999, "percent": "10"}]}}
//
// with two liberties for a file written by hand: "tax_rate" may be a percentage
// ("6%"), and a purchase's "package" a Chinese name as price lists write it
// (包天, 包周, 包月).
//
// The session log has one session a line: start, end and GPUs (an empty or
// missing GPU count is one). A header line names the columns, in English or
// Chinese (start/开始, end/结束, gpus/卡数), in any order; without one the columns
// are start, end, gpus. The outage log has start and end. Times are RFC 3339
// (2026-01-15T02:00:00+08:00), or a date and time without a zone
// (2026-01-15 02:00), read in the period's time zone.
//
// The period's time zone is -tz (an IANA name such as Asia/Shanghai, UTC, or an
// offset such as +08:00), else the zone -from is written in, else that of the
// first time in the logs that states one, else UTC. -from and -to take a date
// (2026-01-01, midnight in that zone) or an RFC 3339 time, and the invoice prints
// its period in that zone.
//
// Beside the lines the invoice says which session each hourly line bills (for
// logs of up to maxAttributed sessions), the availability the outages left and
// the SLA tier it reached, what the purchases cost as bought
// (pricing.Tariff.PriceBasket), and, for a monthly package shorter than the
// calendar month it starts (730 hours against January's 744), the hours it leaves
// to hourly billing.
//
// -json prints the invoice as JSON instead of the text, and nothing else; -o
// FILE writes what would be printed to FILE.
//
// Exit status: 0 when the invoice is printed, 1 when the input is invalid or a
// file cannot be written, 2 for a usage error (a file a flag names that cannot be
// opened included).
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // -tz Asia/Shanghai on a machine without a zone database

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
)

func main() {
	os.Exit(cli.Main("invoice", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// maxAttributed is the most sessions whose hourly lines the invoice attributes:
// finding them bills the log once per session.
const maxAttributed = 500

// run is the command: it writes the invoice (or the -h text) to w.
func run(w io.Writer, args []string, lang msg.Lang) error {
	l := cli.LangOf(args, lang) // the words of the flags and the output
	fs := cli.FlagSet("invoice")
	var in flags
	fs.StringVar(&in.account, "account", "", l.T("invoice.flag.account"))
	fs.StringVar(&in.sessions, "sessions", "", l.T("invoice.flag.sessions"))
	fs.StringVar(&in.outages, "outages", "", l.T("invoice.flag.outages"))
	fs.StringVar(&in.from, "from", "", l.T("invoice.flag.from"))
	fs.StringVar(&in.to, "to", "", l.T("invoice.flag.to"))
	fs.StringVar(&in.tz, "tz", "", l.T("invoice.flag.tz"))
	asJSON := fs.Bool("json", false, l.T("invoice.flag.json"))
	out := fs.String("o", "", l.T("invoice.flag.o"))
	cli.LangFlag(fs, &l)
	if _, err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cli.Usage(w, fs, l.T("invoice.usage"), l)
		}
		return err
	}
	return cli.To(w, *out, func(w io.Writer) error {
		b, err := in.read(l)
		if err == nil {
			err = b.print(w, *asJSON)
		}
		if *asJSON {
			return cli.FailJSON(w, err, nil)
		}
		return err
	})
}

// flags are the command line.
type flags struct{ account, sessions, outages, from, to, tz string }

// billing is what the flags name, read and checked.
type billing struct {
	lang          msg.Lang
	account       pricing.Account
	from, to      time.Time
	loc           *time.Location
	sessions      []pricing.Session
	sessionLines  []int // the file line of each session
	outages       []pricing.Outage
	sessionsFile  string
	outageCount   int
	invoice       pricing.Invoice
	basket        pricing.Quote
	lineSession   []int // for each invoice line, the index of the session it bills; -1 for others
	attributed    bool  // lineSession was worked out (at most maxAttributed sessions)
	availability  float64
	creditPercent decimal.Decimal
	monthlyShort  []string // monthly packages shorter than their calendar month
}

// read reads the files and bills the period.
func (f flags) read(l msg.Lang) (*billing, error) {
	for _, req := range [...]struct{ name, value, what string }{
		{"account", f.account, l.T("invoice.need.account")}, {"sessions", f.sessions, l.T("invoice.need.sessions")},
		{"from", f.from, l.T("invoice.need.from")}, {"to", f.to, l.T("invoice.need.to")},
	} {
		if req.value == "" {
			return nil, cli.Usagef("-%s: %s", req.name, l.F("invoice.give", req.what))
		}
	}
	b := &billing{sessionsFile: f.sessions, lang: l}
	raw, err := cli.ReadFile("account", f.account)
	if err != nil {
		return nil, err
	}
	if b.account, err = readAccount(raw); err != nil {
		return nil, fmt.Errorf("-account %s: %w", f.account, err)
	}
	sessions, err := readLog("sessions", f.sessions, sessionColumns)
	if err != nil {
		return nil, err
	}
	var outages []logRow
	if f.outages != "" {
		if outages, err = readLog("outages", f.outages, outageColumns); err != nil {
			return nil, err
		}
	}

	// The period's zone: -tz, -from's own, the logs' first, UTC.
	switch {
	case f.tz != "":
		if b.loc, err = parseZone(f.tz); err != nil {
			return nil, cli.Usagef("-tz %s: %s", text.Quote(f.tz, 40), l.T("invoice.err.tz"))
		}
	default:
		b.loc = zoneOf(f.from)
		for _, r := range append(sessions, outages...) {
			if b.loc != nil {
				break
			}
			b.loc = zoneOf(r.start)
		}
		if b.loc == nil {
			b.loc = time.UTC
		}
	}
	if b.from, err = parseTime(f.from, b.loc); err != nil {
		return nil, cli.Usagef("-from %s: %s", text.Quote(f.from, 40), l.T("invoice.err.time"))
	}
	if b.to, err = parseTime(f.to, b.loc); err != nil {
		return nil, cli.Usagef("-to %s: %s", text.Quote(f.to, 40), l.T("invoice.err.time"))
	}
	for _, r := range sessions {
		s, err := r.session(b.loc)
		if err != nil {
			return nil, fmt.Errorf("-sessions %s line %d: %w", f.sessions, r.line, err)
		}
		b.sessions = append(b.sessions, s)
		b.sessionLines = append(b.sessionLines, r.line)
	}
	for _, r := range outages {
		s, err := r.session(b.loc)
		if err != nil {
			return nil, fmt.Errorf("-outages %s line %d: %w", f.outages, r.line, err)
		}
		b.outages = append(b.outages, pricing.Outage{Start: s.Start, End: s.End})
	}
	b.outageCount = len(outages)
	if b.invoice, err = b.account.Bill(b.from, b.to, b.sessions, b.outages); err != nil {
		return nil, b.place(err, f)
	}
	if b.basket, err = b.account.Tariff.PriceBasket(b.account.Purchases); err != nil {
		return nil, err
	}
	b.availability, b.creditPercent = b.account.SLA.Reached(b.from, b.to, b.outages)
	b.attribute()
	b.monthlyShort = b.shortMonths()
	return b, nil
}

// indexed finds the session or outage an error of Bill names: "pricing:
// session 3: ...".
var indexed = regexp.MustCompile(`^pricing: (session|outage) (\d+):`)

// place puts Bill's error under the file line of the session or outage it names.
func (b *billing) place(err error, f flags) error {
	m := indexed.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	i, _ := strconv.Atoi(m[2])
	if m[1] == "session" && i < len(b.sessionLines) {
		return fmt.Errorf("-sessions %s line %d: %w", f.sessions, b.sessionLines[i], err)
	}
	return fmt.Errorf("-outages %s: %w", f.outages, err)
}

// attribute works out which session each hourly line bills. Bill gives
// purchases to sessions in the order of their start (then end, then GPUs)
// within the period and writes their hourly lines in that order, one for each
// session some use of which no purchase covers; a session later in that order
// never takes cover from an earlier one. So billing the sessions one more at a
// time in that order, each that adds an hourly line is the one the next line
// bills. Up to maxAttributed sessions.
func (b *billing) attribute() {
	b.lineSession = make([]int, len(b.invoice.Lines))
	for i := range b.lineSession {
		b.lineSession[i] = -1
	}
	if len(b.sessions) > maxAttributed {
		return
	}
	order := make([]int, len(b.sessions))
	for i := range order {
		order[i] = i
	}
	clipped := func(s pricing.Session) (time.Time, time.Time) {
		start, end := s.Start, s.End
		if start.Before(b.from) {
			start = b.from
		}
		if end.After(b.to) {
			end = b.to
		}
		return start, end
	}
	slices.SortStableFunc(order, func(x, y int) int {
		sx, ex := clipped(b.sessions[x])
		sy, ey := clipped(b.sessions[y])
		if c := sx.Compare(sy); c != 0 {
			return c
		}
		if c := ex.Compare(ey); c != 0 {
			return c
		}
		return max(b.sessions[x].GPUs, 1) - max(b.sessions[y].GPUs, 1)
	})
	var billed []int // sessions, in order, that have an hourly line
	prefix := make([]pricing.Session, 0, len(order))
	lines := 0
	for _, i := range order {
		prefix = append(prefix, b.sessions[i])
		inv, err := b.account.Bill(b.from, b.to, prefix, nil)
		if err != nil {
			return
		}
		if n := countHourly(inv); n > lines {
			billed = append(billed, i)
			lines = n
		}
	}
	k := 0
	for j, l := range b.invoice.Lines {
		if l.Item == "hourly" && k < len(billed) {
			b.lineSession[j] = billed[k]
			k++
		}
	}
	b.attributed = k == len(billed) && k == countHourly(b.invoice)
}

func countHourly(inv pricing.Invoice) int {
	n := 0
	for _, l := range inv.Lines {
		if l.Item == "hourly" {
			n++
		}
	}
	return n
}

// shortMonths notes each monthly package whose cover, the tariff's month of
// hours (730 by default), ends before the calendar month it starts: those hours
// are billed by the hour when used.
func (b *billing) shortMonths() []string {
	hours := b.account.Tariff.HoursPerMonth
	if hours == 0 {
		hours = pricing.DefaultHoursPerMonth
	}
	var notes []string
	for _, p := range b.account.Purchases {
		if p.Package != pricing.Monthly {
			continue
		}
		start := p.Start.In(b.loc)
		covered := start.Add(time.Duration(hours) * time.Hour)
		calendar := start.AddDate(0, 1, 0)
		if !covered.Before(calendar) || !covered.Before(b.to) || !calendar.After(b.from) {
			continue
		}
		gap := calendar.Sub(covered)
		notes = append(notes, b.lang.F("invoice.short", stamp(start), hours, calendar.Sub(start).Hours(), b.lang.Dur(gap), stamp(covered)))
	}
	return notes
}

// print writes the invoice, as text or JSON.
func (b *billing) print(w io.Writer, asJSON bool) error {
	if asJSON {
		return cli.WriteJSON(w, b.invoice)
	}
	l := b.lang
	inv := b.invoice
	fmt.Fprintf(w, "%s\n\n", l.F("invoice.head", stamp(inv.From.In(b.loc)), stamp(inv.To.In(b.loc)), zoneName(b.loc)))
	cur := l.F("invoice.currency", l.Currency(inv.Total.Currency))
	t := text.Table{Indent: "  ", Align: []text.Align{text.Left, text.Right, text.Left, text.Right, text.Right, text.Left}}
	t.Row(l.T("invoice.col.item"), l.T("invoice.col.quantity"), l.T("invoice.col.unit"), l.T("invoice.col.price")+cur,
		l.T("invoice.col.amount")+cur, l.T("invoice.col.session"))
	// The lines of what was bought and used add up to the subtotal; the SLA
	// credit and the tax, percentages of it, are shown under it with their rates
	// rather than among the lines they do not add to.
	rate := map[string]pricing.Line{}
	for j, line := range inv.Lines {
		if line.Unit == "percent" {
			rate[line.Item] = line
			continue
		}
		session := ""
		if i := b.lineSession[j]; i >= 0 {
			s := b.sessions[i]
			session = l.F("invoice.session", b.sessionLines[i], l.N(max(s.GPUs, 1), "invoice.n.gpu"), stamp(s.Start.In(b.loc)))
		}
		t.Row(l.TOr("invoice.item."+line.Item, line.Item), quantity(l, line), l.TOr("invoice.unit."+line.Unit, line.Unit),
			line.Price.Amount.String(), msg.Amount(line.Amount), session)
	}
	percentRow := func(name, item string, amount pricing.Money) {
		if line, ok := rate[item]; ok {
			t.Row(name, line.Quantity.String(), l.T("invoice.unit.percent"), "", msg.Amount(amount))
			return
		}
		t.Row(name, "", "", "", msg.Amount(amount))
	}
	t.Row(l.T("invoice.subtotal"), "", "", "", msg.Amount(inv.Subtotal))
	percentRow(l.T("invoice.credit"), "sla_credit", inv.Credit)
	percentRow(l.T("invoice.item.tax"), "tax", inv.Tax)
	t.Row(l.T("invoice.total"), "", "", "", msg.Amount(inv.Total))
	if err := t.Write(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if !b.attributed && countHourly(inv) > 0 {
		fmt.Fprintln(w, text.Wrap(l.F("invoice.unnamed", maxAttributed), 0, 100, "  "))
	}
	fmt.Fprintln(w, text.Wrap(l.F("invoice.availability", b.slaText()), 0, 100, "  "))
	fmt.Fprintln(w, l.F("invoice.basket", l.Money(b.basket.Total)))
	for _, n := range b.monthlyShort {
		fmt.Fprintln(w, text.Wrap(l.F("invoice.note", n), 0, 100, "  "))
	}
	return nil
}

// quantity writes a line's quantity so that it times the price gives the
// amount: GPU-time billed by the hour as hours and minutes (and seconds) when
// it is a whole number of seconds, as the billing granularity makes it
// ("1406 h 58 min", where 1406.97 h would not check by hand), else the
// quantity itself.
func quantity(l msg.Lang, line pricing.Line) string {
	if line.Unit != "hour" {
		return line.Quantity.String()
	}
	sec := line.Quantity.Mul(decimal.NewFromInt(3600)).Round(0)
	if !sec.IsPositive() || !sec.Div(decimal.NewFromInt(3600)).Round(9).Equal(line.Quantity) || !sec.LessThan(decimal.NewFromInt(1<<40)) {
		return line.Quantity.String()
	}
	n := sec.IntPart()
	var parts []string
	if h := n / 3600; h != 0 {
		parts = append(parts, l.F("invoice.qty.h", h))
	}
	if m := n % 3600 / 60; m != 0 {
		parts = append(parts, l.F("invoice.qty.min", m))
	}
	if s := n % 60; s != 0 {
		parts = append(parts, l.F("invoice.qty.s", s))
	}
	return strings.Join(parts, l.T("invoice.qty.sep"))
}

// slaText says what availability the outages left and the credit tier it
// reached.
func (b *billing) slaText() string {
	l := b.lang
	sla := b.account.SLA
	s := l.F("invoice.reached", percent(b.availability), l.N(b.outageCount, "invoice.n.outage"))
	switch {
	case sla.Availability == 0 && len(sla.Credits) == 0:
		return s + l.T("invoice.nosla")
	case b.creditPercent.IsZero():
		return s + l.F("invoice.notier", percent(sla.Availability))
	}
	for _, c := range sla.Credits {
		if c.Percent.Equal(b.creditPercent) {
			return s + l.F("invoice.tier", percent(sla.Availability), percent(c.Below), c.Percent.String())
		}
	}
	return s + l.F("invoice.credit.only", b.creditPercent.String())
}

// percent writes a fraction as a percentage cut (not rounded, so that 99.8996%
// never reads as a 99.9% it is under) to three decimals: 99.865%.
func percent(f float64) string {
	return strconv.FormatFloat(math.Floor(f*100_000+1e-9)/1000, 'f', -1, 64) + "%"
}

// stamp writes a time for the invoice: 2026-01-01 00:00, with seconds when it
// has them.
func stamp(t time.Time) string {
	if t.Second() != 0 || t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// zoneName names a zone for the heading: its IANA name, UTC, or UTC+08:00.
func zoneName(loc *time.Location) string {
	name := loc.String()
	if name == "" || strings.HasPrefix(name, "+") || strings.HasPrefix(name, "-") {
		_, off := time.Date(2026, 1, 1, 0, 0, 0, 0, loc).Zone()
		return "UTC" + offset(off)
	}
	return name
}

func offset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	return fmt.Sprintf("%s%02d:%02d", sign, sec/3600, sec%3600/60)
}

// parseZone reads -tz: an IANA name, UTC, or an offset (+08:00, +0800, +8).
func parseZone(s string) (*time.Location, error) {
	if s[0] == '+' || s[0] == '-' {
		digits := strings.ReplaceAll(s[1:], ":", "")
		h, m := digits, "0"
		if len(digits) > 2 {
			h, m = digits[:len(digits)-2], digits[len(digits)-2:]
		}
		hh, err1 := strconv.Atoi(h)
		mm, err2 := strconv.Atoi(m)
		if err1 != nil || err2 != nil || hh > 14 || mm > 59 {
			return nil, errors.New("bad offset")
		}
		sec := hh*3600 + mm*60
		if s[0] == '-' {
			sec = -sec
		}
		return time.FixedZone("UTC"+offset(sec), sec), nil
	}
	return time.LoadLocation(s)
}

// zoneOf returns the zone a time written in RFC 3339 states, or nil.
func zoneOf(s string) *time.Location {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	if _, off := t.Zone(); off == 0 {
		return time.UTC
	}
	_, off := t.Zone()
	return time.FixedZone("UTC"+offset(off), off)
}

// errTime is the error of a time that cannot be read: what it should look like.
var errTime = errors.New("want a date such as 2026-01-15, a time such as 2026-01-15 02:00, or an RFC 3339 time such as 2026-01-15T02:00:00+08:00")

// layouts are the forms parseTime reads without a zone, in the period's zone.
var layouts = []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05",
	"2006/1/2", "2006/1/2 15:04", "2006/1/2 15:04:05"}

// parseTime reads a time: RFC 3339 with its own zone, or a date, or a date and
// time, in loc.
func parseTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, l := range layouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errTime
}

// readAccount reads the account's JSON, first writing a tax rate given as a
// percentage ("6%") as a fraction and a package given a Chinese name (包月) as
// the library names it, so that a hand-written file reads as a price list does.
func readAccount(raw []byte) (pricing.Account, error) {
	var a pricing.Account
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err == nil {
		var rate string
		if json.Unmarshal(doc["tax_rate"], &rate) == nil {
			if pct, ok := strings.CutSuffix(strings.TrimSpace(rate), "%"); ok {
				d, err := decimal.NewFromString(strings.TrimSpace(pct))
				if err != nil || len(pct) > 20 {
					return a, fmt.Errorf("tax_rate %s: want a fraction such as 0.06 or a percentage such as 6%%", text.Quote(rate, 40))
				}
				doc["tax_rate"], _ = json.Marshal(d.Shift(-2).String())
			}
		}
		var purchases []map[string]json.RawMessage
		if json.Unmarshal(doc["purchases"], &purchases) == nil {
			for _, p := range purchases {
				var name string
				if json.Unmarshal(p["package"], &name) == nil {
					if en, ok := packageNames[strings.TrimSpace(name)]; ok {
						p["package"], _ = json.Marshal(en)
					}
				}
			}
			doc["purchases"], _ = json.Marshal(purchases)
		}
		raw, _ = json.Marshal(doc)
	}
	err := json.Unmarshal(raw, &a)
	return a, err
}

// packageNames are the Chinese names of the packages, as Chinese price lists
// head their columns.
var packageNames = map[string]string{"包天": "daily", "按天": "daily", "日租": "daily", "包周": "weekly", "按周": "weekly", "周租": "weekly",
	"包月": "monthly", "按月": "monthly", "月租": "monthly"}

// column is a field of a log: its headings in English and Chinese.
type column struct {
	names    []string
	required bool
}

var (
	sessionColumns = []column{{[]string{"start", "开始", "开始时间"}, true}, {[]string{"end", "结束", "结束时间"}, true},
		{[]string{"gpus", "gpu", "卡数", "显卡数", "gpu数"}, false}}
	outageColumns = sessionColumns[:2]
)

// logRow is a row of a log: its file line and fields.
type logRow struct {
	line            int
	start, end, gpu string
}

// session reads the row's times in loc and its GPUs.
func (r logRow) session(loc *time.Location) (pricing.Session, error) {
	var s pricing.Session
	var err error
	if s.Start, err = parseTime(r.start, loc); err != nil {
		return s, fmt.Errorf("start %s: %w", text.Quote(r.start, 40), err)
	}
	if s.End, err = parseTime(r.end, loc); err != nil {
		return s, fmt.Errorf("end %s: %w", text.Quote(r.end, 40), err)
	}
	if g := strings.TrimSpace(r.gpu); g != "" {
		if s.GPUs, err = strconv.Atoi(g); err != nil || s.GPUs < 0 {
			return s, fmt.Errorf("gpus %s: want a whole number of GPUs such as 4", text.Quote(r.gpu, 40))
		}
	}
	return s, nil
}

// readLog reads the CSV log a flag names: a header line naming cols (in any
// order, in English or Chinese) or, without one, cols in order.
func readLog(flag, path string, cols []column) ([]logRow, error) {
	raw, err := cli.ReadFile(flag, path)
	if err != nil {
		return nil, err
	}
	raw = bytes.TrimPrefix(raw, []byte("\ufeff")) // the byte-order mark spreadsheets write
	r := csv.NewReader(bytes.NewReader(raw))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	where := make([]int, len(cols))
	for i := range where {
		where[i] = i
	}
	var rows []logRow
	for first := true; ; first = false {
		rec, err := r.Read()
		line, _ := r.FieldPos(0)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("-%s %s: %w", flag, path, err)
		}
		if first && isHeader(rec, cols) {
			if where, err = header(rec, cols); err != nil {
				return nil, fmt.Errorf("-%s %s line %d: %w", flag, path, line, err)
			}
			continue
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		field := func(c int) string {
			if where[c] < 0 || where[c] >= len(rec) {
				return ""
			}
			return rec[where[c]]
		}
		if len(rec) < 2 {
			return nil, fmt.Errorf("-%s %s line %d: %d fields, want %d (%s)", flag, path, line, len(rec), len(cols), names(cols))
		}
		row := logRow{line: line, start: field(0), end: field(1)}
		if len(cols) > 2 {
			row.gpu = field(2)
		}
		rows = append(rows, row)
	}
}

// isHeader reports whether rec names any of the columns.
func isHeader(rec []string, cols []column) bool {
	for _, f := range rec {
		for _, c := range cols {
			if slices.Contains(c.names, strings.ToLower(strings.TrimSpace(f))) {
				return true
			}
		}
	}
	return false
}

// header maps each column to its field in the header rec, -1 when absent; a
// required column absent is an error naming the headings it takes.
func header(rec []string, cols []column) ([]int, error) {
	where := make([]int, len(cols))
	for c, col := range cols {
		where[c] = -1
		for i, f := range rec {
			if slices.Contains(col.names, strings.ToLower(strings.TrimSpace(f))) {
				where[c] = i
			}
		}
		if where[c] < 0 && col.required {
			return nil, fmt.Errorf("no %s column in the header (want %s)", col.names[0], strings.Join(col.names, " or "))
		}
	}
	return where, nil
}

// names lists the columns' English headings: "start, end, gpus".
func names(cols []column) string {
	var n []string
	for _, c := range cols {
		n = append(n, c.names[0])
	}
	return strings.Join(n, ", ")
}
