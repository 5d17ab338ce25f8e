package pricelist

import (
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// The columns ReadCSV knows, besides term_<N>m: their indexes in a row's
// column map, and their names in csvColumns.
const (
	colProvider = iota
	colRegion
	colCard
	colMemory
	colMaxGPUs
	colGPUsPerInstance
	colHostMemory
	colCurrency
	colHourly
	colDaily
	colWeekly
	colMonthly
	colHoursPerMonth
	colGranularity
	colMinimum
	colAfterPackage
	colRounding
	colTier
	colSupport
	colInterruptible
	colInterruptionsPerDay
	colNotes
	numColumns
)

// csvColumns names the columns ReadCSV knows, besides term_<N>m.
var csvColumns = [numColumns]string{"provider", "region", "card", "memory", "max_gpus", "gpus_per_instance",
	"host_memory_gb", "currency", "hourly", "daily", "weekly", "monthly", "hours_per_month", "granularity", "minimum",
	"after_package", "rounding", "tier", "support", "interruptible", "interruptions_per_day", "notes"}

// csvAliases maps the Chinese headings of the price lists the seed articles'
// market publishes to the columns (ReadCSV's table). Headings are compared
// after width folding, trimming and lower-casing, without a unit in brackets.
var csvAliases = map[string]string{
	"服务商": "provider", "供应商": "provider", "厂商": "provider", "平台": "provider",
	"地域": "region", "地区": "region", "区域": "region",
	"卡型": "card", "显卡": "card", "型号": "card", "gpu型号": "card", "显卡型号": "card",
	"显存": "memory",
	"卡数": "max_gpus", "最大卡数": "max_gpus",
	"整机卡数": "gpus_per_instance", "每台卡数": "gpus_per_instance",
	"内存": "host_memory_gb", "主机内存": "host_memory_gb", "系统内存": "host_memory_gb",
	"币种": "currency", "货币": "currency",
	"按量": "hourly", "小时价": "hourly", "按小时": "hourly", "按量/小时": "hourly", "按时": "hourly",
	"包天": "daily", "包日": "daily", "天价": "daily",
	"包周": "weekly",
	"包月": "monthly", "月价": "monthly",
	"包季": "term_3m", "包半年": "term_6m", "包年": "term_12m",
	"每月小时数": "hours_per_month",
	"计费粒度":  "granularity", "最低计费": "minimum", "最短计费": "minimum",
	"到期后": "after_package", "舍入": "rounding",
	"机房等级": "tier", "等级": "tier",
	"支持": "support", "技术支持": "support", "售后": "support",
	"可中断": "interruptible", "竞价": "interruptible", "抢占式": "interruptible",
	"每天中断次数": "interruptions_per_day", "中断次数/天": "interruptions_per_day",
	"备注": "notes", "说明": "notes",
}

// csvPriceWords are headings that say "price" without the period, which the
// unit in brackets after them gives ("价格(元/小时)" is hourly, "price ($/h)"
// too), and whether each is Chinese (a list in CNY).
var csvPriceWords = map[string]bool{
	"价格": true, "单价": true, "价钱": true, "租金": true, "租用价格": true, "费用": true,
	"price": false, "unit price": false,
}

// csvHeading reads one heading: its column name (canonical, or a Chinese alias
// resolved), the unit written in brackets after it ("按量(元/小时)" gives "元/小时"),
// and whether it was a Chinese alias. "包3个月" is term_3m.
func csvHeading(h string) (name, unit string, zh bool) {
	h = strings.TrimSpace(text.FoldWidth(h))
	if i := strings.IndexByte(h, '('); i > 0 && strings.HasSuffix(h, ")") {
		h, unit = strings.TrimSpace(h[:i]), strings.TrimSpace(h[i+1:len(h)-1])
	}
	h = strings.ToLower(h)
	if a, ok := csvAliases[h]; ok {
		return a, unit, true
	}
	if zh, ok := csvPriceWords[h]; ok && unit != "" {
		// "价格(元/小时)": a price whose unit names its period.
		if _, period, err := unitParts(unit); err == nil && period != "" {
			return period, unit, zh
		}
	}
	if rest, ok := strings.CutPrefix(h, "包"); ok {
		rest = strings.TrimSuffix(strings.TrimSuffix(rest, "个月"), "月")
		if n, err := strconv.Atoi(rest); err == nil && strconv.Itoa(n) == rest {
			return "term_" + rest + "m", unit, true
		}
	}
	return h, unit, false
}

// ReadCSV reads a price list in CSV: a header row, then one offer per row.
// Lines starting with # are comments. Columns may come in any order; card and
// currency are required, the others optional (without a provider column the
// offers name none), and an unknown or repeated column is an error. Cells are
// trimmed of spaces; an empty cell is the zero value (a price not offered, the
// default month, granularity and policy). A list of a header alone is an error.
//
//	provider, region, card     text
//	memory                     the card's memory ("80GB"), added to the card's
//	                           name when the name does not state it
//	max_gpus                   integer ≥ 0 (zero: no stated limit)
//	gpus_per_instance          integer ≥ 0: GPUs sold together as one instance,
//	                           whose prices are then per instance (Offer.GPUsPerInstance)
//	host_memory_gb             host RAM in GiB ("256", "256GB") for the unit the row
//	                           sells: per instance with gpus_per_instance (divided by
//	                           its GPUs for Offer.HostMemory), per GPU otherwise
//	currency                   ISO 4217 code ("CNY")
//	hourly, daily, weekly,
//	monthly                    prices per GPU (per instance with gpus_per_instance),
//	                           plain decimals ("1.60"), no exponent
//	term_<N>m                  price of one month under an N-month term ("term_3m")
//	hours_per_month            integer, 672 to 744 (empty: 730)
//	granularity, minimum       Go durations ("1s", "1m", "1h")
//	after_package              hourly or renew
//	rounding                   half_up or half_even
//	tier                       a datacenter tier SiteAvailability reads ("T3",
//	                           "Tier III"), or one with a "+" after it ("T3+",
//	                           which SiteAvailability does not read); anything
//	                           else is an error
//	support, notes             text
//	interruptible              true or false (是 or 否)
//	interruptions_per_day      a decimal number ≥ 0
//
// The price lists of the Chinese market are read as written. These Chinese
// headings name the columns (a unit in brackets after a heading, "按量(元/小时)",
// is allowed; after 价格, 单价, 价钱, 租金, 租用价格, 费用 or price, whose column
// it names, it is needed: "价格(元/小时)" is hourly, "单价(元/月)" monthly):
//
//	服务商, 供应商, 厂商, 平台           provider
//	地域, 地区, 区域                   region
//	卡型, 显卡, 型号, GPU型号, 显卡型号    card
//	显存                             memory
//	卡数, 最大卡数                     max_gpus
//	整机卡数, 每台卡数                  gpus_per_instance
//	内存, 主机内存, 系统内存              host_memory_gb
//	币种, 货币                        currency
//	按量, 小时价, 按小时, 按时, 按量/小时   hourly
//	包天, 包日, 天价                   daily
//	包周                             weekly
//	包月, 月价                        monthly
//	包季, 包半年, 包年, 包<N>个月        term_3m, term_6m, term_12m, term_<N>m
//	每月小时数                         hours_per_month
//	计费粒度                          granularity
//	最低计费, 最短计费                  minimum
//	到期后                           after_package
//	舍入                             rounding
//	机房等级, 等级                     tier
//	支持, 技术支持, 售后                support
//	可中断, 竞价, 抢占式                interruptible
//	每天中断次数, 中断次数/天            interruptions_per_day
//	备注, 说明                        notes
//
// A list with a Chinese heading is priced in CNY unless it says otherwise: the
// currency column may then be left out, and an empty currency cell is CNY. A price
// cell may carry its currency and period as such lists write them: "¥8.00",
// "8元/小时", "8 元/卡/时", "1,200元/月", "US$2.10/h"; a dash, a slash, "无" or
// "N/A" is a package not offered, as an empty cell is. The currency must agree with
// the row's ("美元" in a CNY row is an error) and the period with the column ("8元/天"
// under hourly is an error). Fullwidth digits and letters ("８元", "ＲＴＸ４０９０")
// read as ASCII in headings and cells; card names keep them, and CardKey and the
// catalog read them.
//
// A currency must be an ISO 4217 code in use (RMB is an error that names CNY). A
// file that is not UTF-8 (a GBK file from Excel) is refused with a hint to save it
// as UTF-8; a file with semicolons, tabs or full-width commas (，) between columns
// gets a hint too, and a row with fewer or more cells than the header is told how
// many it has. The list is refused as soon as it is known to be over 32 MiB (from
// the reader's length or file size where it has one, else after reading that
// much); the offers hold a few times the input's size.
//
// Every offer is validated (Offer.Validate) and carries its line (Offer.Line).
// Errors are *ParseError values with the line and the column as its heading is
// written (服务商, not provider), wrapping pricing.ErrInvalid, and
// pricing.ErrCurrencyMismatch too for a cell in another currency than its row's.
func ReadCSV(r io.Reader) ([]pricing.Offer, error) {
	cr, err := openCSV(r, "price list")
	if err != nil {
		return nil, err
	}
	var h csvHeader
	if err := h.read(cr.header, cr.hline); err != nil {
		return nil, err
	}
	out := make([]pricing.Offer, 0, cr.lines-1) // at most a row a line
	err = eachRow(cr, func(rec []string, line int) error {
		o, err := h.offer(rec)
		if err == nil {
			err = o.Validate()
		}
		if err != nil {
			pe := parseErr(line, "", "", err, h.column)
			if i, ok := h.pos[pe.Field]; ok {
				pe.Line, _ = cr.FieldPos(i)
				pe.Field = h.headings[i] // as the user wrote it: 服务商, not provider
				if pe.Input == "" {
					pe.Input = cell(rec, i)
				}
			}
			return pe
		}
		o.Line = line
		out = append(out, o)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &ParseError{Line: cr.hline, Err: invalidf("a header and no offers: want a row an offer after the header")}
	}
	return slices.Clip(out), nil
}

// csvHeader is what a header row says: where each column is, the terms, and the
// list's default currency.
type csvHeader struct {
	col      [numColumns]int // position of each column; -1 when absent
	pos      map[string]int  // position of each column by name, terms included
	unit     [numColumns]string
	terms    []csvTerm // in ascending months
	currency string    // the list's currency when a row leaves it out; "" for none
	// termsUsed names the column of each term of the last offer built, in order.
	termsUsed []string
	headings  []string // the header's cells as written, trimmed
}

type csvTerm struct {
	months int
	name   string
	col    int
	unit   string
}

func (h *csvHeader) read(header []string, hline int) error {
	for i := range h.col {
		h.col[i] = -1
	}
	h.pos = map[string]int{}
	for _, raw := range header {
		h.headings = append(h.headings, strings.TrimSpace(raw))
	}
	for i, raw := range h.headings {
		name, unit, zh := csvHeading(raw)
		if zh {
			h.currency = "CNY" // a Chinese heading: the list's currency is CNY
		}
		if name == "" {
			return &ParseError{Line: hline, Err: invalidf("column %d of the header has no name (a trailing comma?)", i+1)}
		}
		if _, dup := h.pos[name]; dup {
			return &ParseError{Line: hline, Field: raw, Err: invalidf("column repeated")}
		}
		m, term := termColumn(name)
		c := slices.Index(csvColumns[:], name)
		switch {
		case term:
			if m < 2 || m > 120 {
				return &ParseError{Line: hline, Field: raw, Err: invalidf("a term of %d months: terms run 2 to 120 months", m)}
			}
			h.terms = append(h.terms, csvTerm{months: m, name: name, col: i, unit: unit})
		case c >= 0:
			h.col[c] = i
			h.unit[c] = unit
		default:
			return &ParseError{Line: hline, Field: raw, Err: invalidf("unknown column (want %s or term_<N>m, or a Chinese heading such as 卡型 or 按量)",
				strings.Join(csvColumns[:], ", "))}
		}
		h.pos[name] = i
		if price := term || c >= colHourly && c <= colMonthly; price && unit != "" {
			if _, err := unitCurrencies(name, unit); err != nil {
				return &ParseError{Line: hline, Field: raw, Err: err}
			}
		}
	}
	sort.Slice(h.terms, func(a, b int) bool { return h.terms[a].months < h.terms[b].months })
	if h.col[colCard] < 0 {
		return &ParseError{Line: hline, Field: csvColumns[colCard], Err: invalidf("column missing from the header (card, or 卡型)")}
	}
	if h.col[colCurrency] < 0 && h.currency == "" {
		return &ParseError{Line: hline, Field: "currency", Err: invalidf("column missing from the header: add one, with an ISO 4217 code such as CNY or USD in each row (a list with Chinese headings is in CNY without it)")}
	}
	return nil
}

// column is the column of a field of an offer, by its JSON key
// ("tariff.hourly" is hourly, "tariff.terms[0].monthly" the first term's column);
// "" for a field without a column.
func (h *csvHeader) column(field string) string {
	field = strings.TrimPrefix(field, "tariff.")
	if rest, ok := strings.CutPrefix(field, "terms["); ok {
		i, err := strconv.Atoi(rest[:max(strings.IndexByte(rest, ']'), 0)])
		if err == nil && i < len(h.termsUsed) {
			return h.termsUsed[i]
		}
		return ""
	}
	if slices.Contains(csvColumns[:], field) {
		return field
	}
	return ""
}

// offer builds one offer from a record; it does not validate.
func (h *csvHeader) offer(rec []string) (pricing.Offer, error) {
	get := func(c int) string { return cell(rec, h.col[c]) }
	var o pricing.Offer
	h.termsUsed = h.termsUsed[:0]
	var err error
	o.Provider, o.Region, o.Card = get(colProvider), get(colRegion), get(colCard)
	o.Tier, o.Support, o.Notes = get(colTier), get(colSupport), get(colNotes)
	if mem := get(colMemory); mem != "" && !statesMemory(o.Card) {
		o.Card = o.Card + " " + mem
	}
	t := &o.Tariff
	t.Currency = get(colCurrency)
	if t.Currency == "" {
		t.Currency = h.currency
	}
	if t.Currency != "" {
		if err := knownCurrency(t.Currency); err != nil {
			return o, &cellError{"currency", t.Currency, err}
		}
	}
	for _, f := range [...]struct {
		col int
		dst *int
	}{{colMaxGPUs, &o.MaxGPUs}, {colGPUsPerInstance, &o.GPUsPerInstance}, {colHoursPerMonth, &t.HoursPerMonth}} {
		if *f.dst, err = intField(csvColumns[f.col], get(f.col)); err != nil {
			return o, err
		}
	}
	for _, f := range []struct {
		col int
		dst *decimal.Decimal
	}{{colHourly, &t.Hourly}, {colDaily, &t.Daily}, {colWeekly, &t.Weekly}, {colMonthly, &t.Monthly}} {
		if *f.dst, err = priceCell(csvColumns[f.col], get(f.col), h.unit[f.col], t.Currency); err != nil {
			return o, err
		}
	}
	// Terms in ascending months, a defined order.
	for _, term := range h.terms {
		p, err := priceCell(term.name, cell(rec, term.col), term.unit, t.Currency)
		if err != nil {
			return o, err
		}
		if !p.IsZero() {
			t.Terms = append(t.Terms, pricing.Term{Months: term.months, Monthly: p})
			h.termsUsed = append(h.termsUsed, term.name)
		}
	}
	for _, f := range [...]struct {
		col int
		dst *time.Duration
	}{{colGranularity, &t.Granularity}, {colMinimum, &t.Minimum}} {
		if s := get(f.col); s != "" {
			if *f.dst, err = time.ParseDuration(s); err != nil {
				return o, &cellError{csvColumns[f.col], s, invalidf("want a duration such as 1s, 1m or 1h")}
			}
		}
	}
	if t.AfterPackage, err = pricing.ParseAfterPackage(get(colAfterPackage)); err != nil {
		return o, err
	}
	if t.Rounding, err = pricing.ParseRoundingMode(get(colRounding)); err != nil {
		return o, err
	}
	if err := checkTier("tier", o.Tier); err != nil {
		return o, err
	}
	if s := get(colInterruptible); s != "" {
		switch s {
		case "是":
			o.Interruptible = true
		case "否":
		default:
			if o.Interruptible, err = strconv.ParseBool(s); err != nil {
				return o, &cellError{"interruptible", s, invalidf("want true or false (是 or 否)")}
			}
		}
	}
	if o.HostMemory, err = hostMemory(get(colHostMemory), max(o.GPUsPerInstance, 1)); err != nil {
		return o, &cellError{csvColumns[colHostMemory], get(colHostMemory), err}
	}
	if s := get(colInterruptionsPerDay); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return o, &cellError{"interruptions_per_day", s, invalidf("want a finite number ≥ 0")}
		}
		o.InterruptionsPerDay = v
	}
	return o, nil
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

func intField(name, s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(text.FoldWidth(s))
	if err != nil || n < 0 || n > 1_000_000 {
		return 0, &cellError{name, s, invalidf("want a whole number from 0 to 1000000")}
	}
	return n, nil
}

// hostMemory reads a host RAM cell in GiB ("256", "256GB", "0.5 GiB"; a SkyPilot
// catalog's MemoryGiB, "1800.0") as bytes for each of gpus GPUs; zero for an empty
// cell. A negative, malformed or absurd size (past pricing.MaxHostMemory a GPU) is
// a reason wrapping pricing.ErrInvalid.
func hostMemory(s string, gpus int) (int64, error) {
	if s == "" {
		return 0, nil
	}
	f := strings.ToLower(strings.TrimSpace(text.FoldWidth(s)))
	for _, unit := range [...]string{"gib", "gb", "g"} {
		if rest, ok := strings.CutSuffix(f, unit); ok {
			f = strings.TrimSpace(rest)
			break
		}
	}
	gib, err := strconv.ParseFloat(f, 64)
	bytes := gib * (1 << 30) / float64(gpus)
	if err != nil || math.IsNaN(gib) || gib < 0 || bytes > pricing.MaxHostMemory {
		return 0, invalidf("want the host RAM in GiB, 0 to %d a GPU", pricing.MaxHostMemory>>30)
	}
	return int64(math.Round(bytes)), nil
}
