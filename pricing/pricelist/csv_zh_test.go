package pricelist

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/pricing"
)

// A price list as the Chinese market publishes it: Chinese headings, units in
// cells, CNY by default, fullwidth card names.
func TestReadCSVChinese(t *testing.T) {
	f, err := os.Open("../testdata/offers_zh_sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	offers, err := ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Line                           int
		Provider, Card, Tier, Currency string
		Max                            int
		Hourly, Daily, Monthly         string
		Terms                          int
		Interruptible                  bool
	}
	var got []row
	for _, o := range offers {
		t := o.Tariff
		got = append(got, row{o.Line, o.Provider, o.Card, o.Tier, t.Currency, o.MaxGPUs,
			t.Hourly.String(), t.Daily.String(), t.Monthly.String(), len(t.Terms), o.Interruptible})
	}
	want := []row{
		{3, "示例云甲", "RTX 4090 24GB", "T3+", "CNY", 8, "1.6", "35", "900", 1, false},
		{4, "示例云乙", "ＲＴＸ４０９０", "T3", "CNY", 4, "1.35", "30", "800", 0, false},
		{5, "示例市场丙", "RTX 4090 24GB", "", "CNY", 1, "0.8", "0", "0", 0, true},
		{6, "示例云甲", "A100 80GB", "T3", "CNY", 8, "12.5", "280", "7200", 0, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("offers (-want +got):\n%s", diff)
	}
	// The fullwidth name is the same card as the ASCII one.
	if pricing.CardKey(offers[1].Card) != pricing.CardKey("RTX 4090") {
		t.Errorf("pricing.CardKey(%q) = %q", offers[1].Card, pricing.CardKey(offers[1].Card))
	}
	if !tierLabel("T3+") || tierLabel("T5+") || tierLabel("gold") {
		t.Errorf("tierLabel reads T3+ %v, T5+ %v, gold %v", tierLabel("T3+"), tierLabel("T5+"), tierLabel("gold"))
	}
}

func TestReadCSVTemplates(t *testing.T) {
	for _, name := range []string{"offers_template_zh.csv", "offers_template_en.csv"} {
		f, err := os.Open("../../examples/plan/" + name)
		if err != nil {
			t.Fatal(err)
		}
		offers, err := ReadCSV(f)
		f.Close()
		if err != nil || len(offers) != 2 || offers[1].GPUsPerInstance != 8 || offers[1].Card != "A100 SXM4 80GB" {
			t.Errorf("%s: %+v, %v", name, offers, err)
		}
	}
}

func TestReadCSVHardening(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		field    string
		says     string
	}{
		{"GBK file", "\xb7\xfe\xce\xf1\xc9\xcc,\xbf\xa8\xd0\xcd\n", 1, "", "save it as \"CSV UTF-8\""},
		{"GBK row", "provider,card,currency,hourly\na,\xbf\xa8,CNY,1\n", 2, "", "GBK"},
		{"semicolons", "provider;card;currency;hourly\na;x;CNY;1\n", 1, "", "semicolons"},
		{"semicolon row", "provider,card,currency,hourly\na;x;CNY;1\n", 2, "", "semicolons"},
		{"tabs", "provider\tcard\tcurrency\n", 1, "", "tabs"},
		{"RMB", "provider,card,currency,hourly\na,x,RMB,1\n", 2, "currency", "write CNY"},
		{"unknown code", "provider,card,currency,hourly\na,x,CYN,1\n", 2, "currency", "no currency has"},
		{"lower-case code", "provider,card,currency,hourly\na,x,usd,1\n", 2, "currency", "in capitals"},
		{"bad tier", "provider,card,currency,hourly,tier\na,x,CNY,1,gold\n", 2, "tier", "not a datacenter tier"},
		{"unit of another period", "服务商,卡型,按量\na,x,8元/天\n", 2, "按量", "daily price"},
		{"unit of another currency", "服务商,卡型,按量\na,x,8美元/小时\n", 2, "按量", "in USD"},
		{"unknown unit", "服务商,卡型,按量\na,x,8 bananas\n", 2, "按量", "not understood"},
		{"bad grouping", "服务商,卡型,包月\na,x,\"1,20\"\n", 2, "包月", "group thousands"},
		{"heading unit of another period", "服务商,卡型,按量(元/月)\n", 1, "按量(元/月)", "monthly price"},
		{"GPUs per instance not dividing", "provider,card,currency,hourly,max_gpus,gpus_per_instance\na,x,CNY,1,6,4\n", 2, "max_gpus", "whole number of instances"},
		{"long input quoted short", "provider,card,currency,hourly\na,x,CNY," + strings.Repeat("卡", 5000) + "\n", 2, "hourly", "..."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) {
				t.Fatalf("error = %v, want a *ParseError wrapping ErrInvalid", err)
			}
			if pe.Line != tc.line || pe.Field != tc.field || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error at line %d field %q: %v; want line %d field %q saying %q", pe.Line, pe.Field, err, tc.line, tc.field, tc.says)
			}
			if len(err.Error()) > 600 {
				t.Errorf("message of %d bytes", len(err.Error()))
			}
		})
	}
	// Marks of a package not sold read as empty cells.
	offers, err := ReadCSV(strings.NewReader("服务商,卡型,按量,包天,包周,包月\na,x,1.5,-,无,—\n"))
	if err != nil || !offers[0].Tariff.Daily.IsZero() || !offers[0].Tariff.Weekly.IsZero() || !offers[0].Tariff.Monthly.IsZero() {
		t.Errorf("not-offered marks: %+v, %v", offers, err)
	}
	// A unit in a cell that agrees with the list, and an English file's ¥ with JPY.
	offers, err = ReadCSV(strings.NewReader("provider,card,currency,hourly,monthly\na,x,JPY,¥300/h,\"¥120,000\"\n"))
	if err != nil || offers[0].Tariff.Hourly.String() != "300" || offers[0].Tariff.Monthly.String() != "120000" {
		t.Errorf("JPY with ¥: %+v, %v", offers, err)
	}
}

// A list over the size bound is refused before it is read when its size is
// known: a reader that says its length is not read at all.
func TestReadRefusedEarly(t *testing.T) {
	r := &countingReader{n: maxListBytes + 1}
	if _, err := ReadCSV(r); !errors.Is(err, pricing.ErrInvalid) || r.read != 0 {
		t.Errorf("error %v after reading %d bytes", err, r.read)
	}
	for _, load := range []func(*countingReader) error{
		func(r *countingReader) error { _, err := ReadJSON(r); return err },
		func(r *countingReader) error { _, err := ReadSkyPilot(r); return err },
		func(r *countingReader) error { _, err := ReadVast(r); return err },
		func(r *countingReader) error { _, _, err := Read(r); return err },
	} {
		r := &countingReader{n: maxListBytes + 1}
		if err := load(r); !errors.Is(err, pricing.ErrInvalid) || r.read != 0 {
			t.Errorf("error %v after reading %d bytes", err, r.read)
		}
	}
}

// countingReader is n bytes of "a" that tells its length.
type countingReader struct{ n, read int }

func (r *countingReader) Len() int { return r.n - r.read }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.read >= r.n {
		return 0, io.EOF
	}
	k := min(len(p), r.n-r.read)
	for i := range p[:k] {
		p[i] = 'a'
	}
	r.read += k
	return k, nil
}

// A Chinese price list as a newcomer writes it: no provider column (the offers
// name none, and messages name them by line), errors under the headings as
// written, a hint for full-width commas, a clear error for a list of a header
// alone, and a short row told how many cells it wants.
func TestReadCSVNewcomer(t *testing.T) {
	offers, err := ReadCSV(strings.NewReader("地域,卡型,按量\n华东,RTX 4090,1.60元/小时\n华东,RTX 4090,0.80\n华北,RTX 4090,1.70\n"))
	if err != nil || len(offers) != 3 || offers[0].Provider != "" || offers[0].Tariff.Currency != "CNY" {
		t.Fatalf("no provider column: %+v, %v", offers, err)
	}
	checks, err := pricing.MarketCheck(offers, dec("0.3"))
	if err != nil || !strings.HasPrefix(checks[1].Message, "华东 RTX 4090 (line 3) at CNY 0.80/h") {
		t.Errorf("an offer without a provider is named by its line: %q, %v", checks[1].Message, err)
	}
	for _, tc := range []struct {
		name, in string
		line     int
		field    string
		says     string
	}{
		{"heading as written", "服务商,卡型,按量(元/小时)\n示例云,RTX 4090,abc\n", 2, "按量(元/小时)", "not a plain decimal"},
		{"full-width commas", "服务商，卡型，按量\n示例云，RTX 4090，1.6\n", 1, "", "full-width commas"},
		{"header only", "服务商,卡型,按量\n", 1, "", "a header and no offers"},
		{"header and comments only", "# 价格表\n服务商,卡型,按量\n# 无\n", 2, "", "a header and no offers"},
		{"short row", "服务商,卡型,按量,包月\n示例云,RTX 4090,1.6\n", 2, "", "3 fields where the header has 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) || pe.Line != tc.line || pe.Field != tc.field || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %v; want a *ParseError at line %d, field %q, saying %q", err, tc.line, tc.field, tc.says)
			}
		})
	}
}

// A heading that says "price" takes its column from the period of its unit,
// as Chinese price sheets head them ("价格(元/小时)", "单价(元/月)"); without a
// period it is still an unknown column.
func TestReadCSVPriceHeadings(t *testing.T) {
	for _, tc := range []struct {
		name, csv, want string // want: currency hourly daily monthly, or the error's text
	}{
		{"hourly", "厂商,型号,价格(元/小时)\n云,A100 80G,7.98\n", "CNY 7.98 0 0"},
		{"short hour", "卡型,单价（元/时）\nRTX 4090,1.98\n", "CNY 1.98 0 0"},
		{"daily and monthly", "卡型,租金(元/天),费用(元/月)\nRTX 4090,40,1100\n", "CNY 0 40 1100"},
		{"per card", "卡型,价格(元/卡/小时)\nRTX 4090,1.98\n", "CNY 1.98 0 0"},
		{"english", "card,currency,price (USD/h)\nH100 SXM,USD,2.49\n", "USD 2.49 0 0"},
		{"no period", "卡型,价格(元)\nRTX 4090,1.98\n", "unknown column"},
		{"no unit", "卡型,价格\nRTX 4090,1.98\n", "unknown column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			offers, err := ReadCSV(strings.NewReader(tc.csv))
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("ReadCSV: %v, want %s", err, tc.want)
				}
				return
			}
			tr := offers[0].Tariff
			if got := strings.Join([]string{tr.Currency, tr.Hourly.String(), tr.Daily.String(), tr.Monthly.String()}, " "); got != tc.want {
				t.Errorf("tariff %s, want %s", got, tc.want)
			}
		})
	}
}
