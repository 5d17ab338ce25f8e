package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/shopspring/decimal"
)

// ratesFlag is -rates: the exchange rates that rank a price list in several
// currencies, written BASE:CUR=RATE,CUR=RATE ("CNY:USD=7.20" ranks in CNY, one
// USD costing 7.20 CNY). Each option keeps its own currency; the ranking, the
// budget and the "vs best" column are in BASE.
type ratesFlag struct{ r pricing.Rates }

func (f *ratesFlag) String() string {
	if f == nil || f.r.Base == "" {
		return ""
	}
	parts := make([]string, 0, len(f.r.Per))
	for c, v := range f.r.Per {
		parts = append(parts, c+"="+v.String())
	}
	return f.r.Base + ":" + strings.Join(parts, ",")
}

// Set parses BASE:CUR=RATE,...; pricing.Rates.Validate bounds each rate and
// checks the codes.
func (f *ratesFlag) Set(s string) error {
	base, list, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(list) == "" {
		return fmt.Errorf("want BASE:CUR=RATE,... such as CNY:USD=7.20")
	}
	r := pricing.Rates{Base: strings.ToUpper(strings.TrimSpace(base)), Per: map[string]decimal.Decimal{}}
	for _, item := range strings.Split(list, ",") {
		cur, val, ok := strings.Cut(item, "=")
		cur = strings.ToUpper(strings.TrimSpace(cur))
		if !ok || cur == "" {
			return fmt.Errorf("%q: want CUR=RATE such as USD=7.20", strings.TrimSpace(item))
		}
		if _, dup := r.Per[cur]; dup {
			return fmt.Errorf("%s given twice", cur)
		}
		d, err := decimal.NewFromString(strings.TrimSpace(val))
		if err != nil {
			return fmt.Errorf("%s=%q: not a number", cur, strings.TrimSpace(val))
		}
		r.Per[cur] = d
	}
	if err := r.Validate(); err != nil {
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "pricing: "))
	}
	f.r = r
	return nil
}

// printRates says which exchange rates ranked the options shown, when any did.
func printRates(w io.Writer, opts []plan.Option, lang msg.Lang) {
	used := map[string]string{}
	base := ""
	for _, o := range opts {
		if o.RankedCost.Currency != o.ExpectedCost.Currency && o.Rate != "" {
			used[o.ExpectedCost.Currency] = o.Rate
			base = o.RankedCost.Currency
		}
	}
	if len(used) == 0 {
		return
	}
	curs := make([]string, 0, len(used))
	for c := range used {
		curs = append(curs, c)
	}
	sort.Strings(curs)
	parts := make([]string, len(curs))
	for i, c := range curs {
		parts[i] = fmt.Sprintf("1 %s = %s %s", c, used[c], base)
	}
	fmt.Fprintf(w, "\n%s\n", lang.F("plan.rates", base, strings.Join(parts, lang.T("plan.list.sep"))))
}
