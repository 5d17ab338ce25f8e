package pricing

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/shopspring/decimal"
)

// Quote is the price of a usage: the Total, rounded once to the currency's minor
// unit with the tariff's rounding mode, and the Lines it is made of.
//
// The lines add up exactly to the total. A line's Amount is exactly its Price
// times its Quantity, except where hourly time does not come to a terminating
// decimal: the hourly line's Quantity (billed hours) and Amount (hourly price ×
// billed seconds / 3600) are each exact when they terminate and otherwise rounded
// half up to nine places (7 s at ¥1.3/h is 0.001944444 h for ¥0.002527778;
// 7 s at ¥18/h is ¥0.035 exactly). The difference between
// the exact cost rounded once and the sum of the other lines, when not zero, is a
// visible line with Item "rounding" (Quantity 1, Price equal to Amount).
type Quote struct {
	Total Money  `json:"total"`
	Lines []Line `json:"lines"`
}

// Line is one item of a Quote: Quantity units of Item at Price each (per GPU), for
// Amount. Item is "term_12m" (and the like), "monthly", "weekly", "daily",
// "hourly", "trial" (hourly time before packages) or "rounding"; Unit says what
// Quantity counts: "term", "month", "week", "day", "hour" or "" for rounding. For
// several GPUs, Quantity counts GPU-units (8 GPUs for a month: 8 months).
type Line struct {
	Item     string          `json:"item"`
	Unit     string          `json:"unit"`
	Quantity decimal.Decimal `json:"quantity"`
	Price    Money           `json:"price"`
	Amount   Money           `json:"amount"`
}

type lineWire struct {
	Item     string `json:"item"`
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
	Price    Money  `json:"price"`
	Amount   Money  `json:"amount"`
}

// MarshalJSON writes the quantity as an exact decimal string, whatever decimal's
// package settings are.
func (l Line) MarshalJSON() ([]byte, error) {
	q, err := jsonDecimal("quantity", l.Quantity, 0)
	if err != nil {
		return nil, err
	}
	return jsonMarshal(lineWire{l.Item, l.Unit, q, l.Price, l.Amount})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (l *Line) UnmarshalJSON(b []byte) error {
	var w lineWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	q, err := parseDecimal(w.Quantity, true)
	if err != nil {
		return &FieldError{Field: "quantity", Err: err}
	}
	*l = Line{Item: w.Item, Unit: w.Unit, Quantity: q, Price: w.Price, Amount: w.Amount}
	return nil
}

// Cost returns the cheapest way to cover a continuous run of d on one GPU: a
// combination of packages (terms, monthly, weekly, daily) and hourly time billed at
// the tariff's granularity and minimum, that covers at least d. A package may
// cover more than needed (a daily package for 20 hours) when that is cheaper.
// Cost(0) is a zero quote. A negative d, a d beyond MaxDuration or an invalid
// tariff is an error wrapping ErrInvalid. A valid tariff covers any duration (a
// package can be repeated), so Cost fails only on bad input. When two covers cost
// the same, hourly-only is kept (no commitment), then the one with the most of
// the packages cheapest per hour (lexicographically, in order of price per hour;
// pricing/solve.go states the rule and its proof).
//
// The search is exact, and its work does not grow with d past fixed bounds: one
// table holds the cheapest fills of the days and weeks, in cells of a day, and
// one those of the months and terms, in cells of a month, each bounded whatever
// the prices, so a run of a hundred years needs at most some 36,500 day cells
// and 1,300 month cells (pricing/cover.go states the search and its proof).
// Inputs are bounded as Validate and MaxDuration say: prices below 10^15 with at
// most 12 decimal places, runs up to MaxDuration. BenchmarkCost and
// BenchmarkCostRandomTerms measure its time.
func (t Tariff) Cost(d time.Duration) (Quote, error) { return t.CostGPUs(d, 1) }

// CostGPUs is Cost for gpus GPUs rented together for the same run, shorthand for
// Price(Continuous(d), gpus): each line's quantity is multiplied by gpus and the
// total is rounded once, so it is exact for the whole set, not a sum of rounded
// per-GPU totals.
func (t Tariff) CostGPUs(d time.Duration, gpus int) (Quote, error) {
	return t.Price(Continuous(d), gpus)
}

// rawLine is a line before scaling by the number of GPUs.
type rawLine struct {
	item, unit string
	count      int64 // per GPU packages
	secs       int64 // per GPU billed seconds (hourly time); count unused
	price      decimal.Decimal
}

// line is l as a quote writes it for gpus GPUs. Hourly time has its quantity and
// amount exact when they terminate, else rounded half up to nine places (the
// rounding line takes the rest); packages are exact.
func (l rawLine) line(cur string, gpus int) Line {
	ln := l.head(cur, gpus)
	if l.secs > 0 {
		ln.Amount.Amount = quo9(decimal.NewFromInt(l.secs).Mul(decimal.NewFromInt(int64(gpus))).Mul(l.price), decimal.NewFromInt(3600))
	} else {
		ln.Amount.Amount = l.price.Mul(ln.Quantity)
	}
	return ln
}

// head is line without its amount (zero, in cur), for a caller that rounds the
// amount itself.
func (l rawLine) head(cur string, gpus int) Line {
	var qty decimal.Decimal
	if l.secs > 0 {
		qty = hours9(l.secs, int64(gpus))
	} else {
		qty = decimal.NewFromInt(l.count).Mul(decimal.NewFromInt(int64(gpus)))
	}
	return Line{Item: l.item, Unit: l.unit, Quantity: qty,
		Price: Money{Amount: l.price, Currency: cur}, Amount: Money{Currency: cur}}
}

// quo9 returns x/y, exact when that terminates within nine places, else rounded
// half up to nine places.
func quo9(x, y decimal.Decimal) decimal.Decimal { return trim(roundQuo(x, y, 9, RoundHalfUp)) }

// hours9 is secs seconds on each of gpus GPUs in hours, as quo9 writes it: from
// integers (secs·gpus·10^9/3600, rounded half up, trailing zeros dropped) when
// the result fits an int64, as it does for any usage up to MaxDuration on 10,000
// GPUs, else by quo9.
func hours9(secs, gpus int64) decimal.Decimal {
	if n, ok := checked.Mul(secs, gpus); ok {
		if q, _, ok := mulDivRound(uint64(n), 1e9, 3600, RoundHalfUp); ok {
			e := int32(-9)
			for ; e < 0 && q%10 == 0; e++ {
				q /= 10
			}
			return decimal.New(q, e)
		}
	}
	return quo9(decimal.NewFromInt(secs).Mul(decimal.NewFromInt(gpus)), decimal.NewFromInt(3600))
}

func checkGPUs(gpus int) error {
	if gpus < 1 || gpus > 1_000_000 {
		return fmt.Errorf("pricing: %d GPUs: want 1 to 1000000: %w", gpus, ErrInvalid)
	}
	return nil
}
