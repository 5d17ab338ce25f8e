package pricelist

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

var equateDecimal = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

func loadSample(t *testing.T, name string, load func(*os.File) ([]pricing.Offer, error)) []pricing.Offer {
	t.Helper()
	f, err := os.Open("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	offers, err := load(f)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return offers
}

func TestReadSamples(t *testing.T) {
	fromCSV := loadSample(t, "offers_sample.csv", func(f *os.File) ([]pricing.Offer, error) { return ReadCSV(f) })
	fromJSON := loadSample(t, "offers_sample.json", func(f *os.File) ([]pricing.Offer, error) { return ReadJSON(f) })
	if len(fromCSV) != 9 {
		t.Fatalf("CSV sample has %d offers, want 9", len(fromCSV))
	}
	// The two files hold the same offers but for the notes and the lines; each
	// offer's line is the line it starts on in its file.
	for i := range fromCSV {
		if fromCSV[i].Line != 6+i {
			t.Errorf("CSV offer %d on line %d, want %d", i, fromCSV[i].Line, 6+i)
		}
		if fromJSON[i].Line < 2 || (i > 0 && fromJSON[i].Line <= fromJSON[i-1].Line) {
			t.Errorf("JSON offer %d on line %d, after %d", i, fromJSON[i].Line, fromJSON[max(i-1, 0)].Line)
		}
		fromCSV[i].Notes, fromJSON[i].Notes = "", ""
		fromCSV[i].Line, fromJSON[i].Line = 0, 0 // the files lay their offers out differently
	}
	if diff := cmp.Diff(fromJSON, fromCSV, equateDecimal); diff != "" {
		t.Errorf("CSV and JSON samples differ (-json +csv):\n%s", diff)
	}
	a := fromCSV[0]
	want := pricing.Tariff{Currency: "CNY", Hourly: dec("1.6"), Daily: dec("35"), Weekly: dec("220"), Monthly: dec("900"),
		HoursPerMonth: 730, Granularity: time.Second, Terms: []pricing.Term{{Months: 3, Monthly: dec("850")}, {Months: 12, Monthly: dec("780")}}}
	if diff := cmp.Diff(want, a.Tariff, equateDecimal); diff != "" || a.MaxGPUs != 8 || a.Tier != "T3" {
		t.Errorf("first offer mismatch (-want +got):\n%s", diff)
	}
	c := fromCSV[2]
	if !c.Interruptible || c.InterruptionsPerDay != 0.5 || c.Tariff.Granularity != time.Hour || c.Tariff.Minimum != time.Hour {
		t.Errorf("third offer = %+v", c)
	}
	if fromCSV[3].Tariff.AfterPackage != pricing.Renew || fromCSV[3].Tariff.Rounding != pricing.RoundHalfEven {
		t.Errorf("fourth offer policy = %v, rounding %v", fromCSV[3].Tariff.AfterPackage, fromCSV[3].Tariff.Rounding)
	}
	// Marshal and load again, one offer a line after the "[" line: the same
	// offers, each with its new line.
	parts := make([]string, len(fromCSV))
	for i := range fromCSV {
		one, err := json.Marshal(fromCSV[i])
		if err != nil {
			t.Fatal(err)
		}
		parts[i] = string(one)
		fromCSV[i].Line = i + 2
	}
	b := []byte("[\n" + strings.Join(parts, ",\n") + "\n]\n")
	back, err := ReadJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("loading marshalled offers: %v\n%s", err, b)
	}
	if diff := cmp.Diff(fromCSV, back, equateDecimal); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
}

func TestReadCSVErrors(t *testing.T) {
	const header = "provider,card,currency,hourly,granularity\n"
	tests := []struct {
		name, in string
		line     int
		field    string
	}{
		{"empty", "", 1, ""},
		{"unknown column", "provider,card,currency,colour\n", 1, "colour"},
		{"repeated column", "provider,card,card,currency\n", 1, "card"},
		{"missing currency column", "provider,card,hourly\n", 1, "currency"},
		{"float-looking price", header + "a,RTX 4090,CNY,1e3,1s\n", 2, "hourly"},
		{"negative price", header + "a,RTX 4090,CNY,1.6,1s\nb,RTX 4090,CNY,-1,1s\n", 3, "hourly"},
		{"bad granularity", header + "a,RTX 4090,CNY,1.6,fast\n", 2, "granularity"},
		{"granularity not dividing an hour", header + "a,RTX 4090,CNY,1.6,7m\n", 2, "granularity"},
		{"nothing offered", header + "a,RTX 4090,CNY,,1s\n", 2, ""},
		{"lower-case currency", header + "a,RTX 4090,cny,1.6,1s\n", 2, "currency"},
		{"empty card", header + "a,,CNY,1.6,1s\n", 2, "card"},
		{"price with too many places", header + "a,RTX 4090,CNY,1.0000000000000000000000000001,1s\n", 2, "hourly"},
		{"term column out of range", "provider,card,currency,term_1m\n", 1, "term_1m"},
		{"header with a trailing comma", "provider,card,currency,\n", 1, ""},
		// A BOM before a quoted header, as PowerShell's Export-Csv writes it, is
		// not a bare quote.
		{"BOM and quoted header, bad row", "\ufeff\"provider\",\"card\",\"currency\",\"hourly\"\n\"a\",\"x\",\"CNY\",\"abc\"\n", 2, "hourly"},
		{"too few cells", header + "a,RTX 4090,CNY\n", 2, ""},
		{"bad quote", header + "a,\"RTX 4090,CNY,1.6,1s\n", 2, ""},
		{"bad bool", "provider,card,currency,hourly,interruptible\na,x,CNY,1,maybe\n", 2, "interruptible"},
		{"bad count", "provider,card,currency,hourly,max_gpus\na,x,CNY,1,-2\n", 2, "max_gpus"},
		{"comment lines count", "# sample\n" + header + "# more\na,RTX 4090,CNY,x,1s\n", 4, "hourly"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) {
				t.Fatalf("error = %v, want a *ParseError wrapping ErrInvalid", err)
			}
			if pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("error at line %d field %q (%v), want line %d field %q", pe.Line, pe.Field, err, tc.line, tc.field)
			}
		})
	}
}

func TestReadJSONErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		field    string
	}{
		{"not an array", `{"provider":"a"}`, 1, ""},
		{"empty input", ``, 1, ""},
		{"price as a number", "[\n{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":1.6}}\n]", 2, "tariff.hourly"},
		{"unknown field", "[\n{\"provider\":\"a\",\"card\":\"x\",\"colour\":\"red\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\"}}]", 2, ""},
		{"unknown tariff field", "[{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\",\"spot\":\"1\"}}]", 1, ""},
		{"second offer invalid", "[\n{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\"}},\n\n{\"provider\":\"b\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\"}}\n]", 4, "tariff"},
		{"bad duration", "[{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\",\"granularity\":\"soon\"}}]", 1, "tariff.granularity"},
		{"wrong type", "[\n\n{\"provider\":\"a\",\"card\":\"x\",\"max_gpus\":\"8\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\"}}]", 3, "max_gpus"},
		{"syntax error", "[\n{\"provider\":\"a\",\n\"card\" \"x\"}]", 3, ""},
		{"unterminated", "[\n{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\"}}", 2, ""},
		{"trailing data", "[]\n[]", 2, ""},
		{"exponent price", "[{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1e999999999\"}}]", 1, "tariff.hourly"},
		{"an offer that is not an object", "[\n\"x\"]", 2, ""},
		{"lower-case currency", "[{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"cny\",\"hourly\":\"1\"}}]", 1, "tariff.currency"},
		{"term out of range", "[{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"terms\":[{\"months\":1,\"monthly\":\"9\"}]}}]", 1, "tariff.terms[0].months"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadJSON(strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) {
				t.Fatalf("error = %v, want a *ParseError wrapping ErrInvalid", err)
			}
			if pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("error at line %d field %q (%v), want line %d field %q", pe.Line, pe.Field, err, tc.line, tc.field)
			}
		})
	}
	if got, err := ReadJSON(strings.NewReader(" [ ] ")); err != nil || len(got) != 0 {
		t.Errorf("empty list = %v, %v", got, err)
	}
	// The message says what an offer must be, not Go's type names.
	if _, err := ReadJSON(strings.NewReader(`["x"]`)); err == nil || !strings.Contains(err.Error(), "want a JSON object, got a string") ||
		strings.Contains(err.Error(), "Go value") {
		t.Errorf(`["x"]: %v`, err)
	}
	// A UTF-8 byte order mark, as some editors write, is not an error.
	if got, err := ReadJSON(strings.NewReader("\ufeff[{\"provider\":\"a\",\"card\":\"x\",\"tariff\":{\"currency\":\"CNY\",\"hourly\":\"1\"}}]")); err != nil || len(got) != 1 {
		t.Errorf("list with a BOM = %v, %v", got, err)
	}
}

// A list past the size limit is refused, never cut short: the audit's CSV lost
// the price of its last row at the 32 MiB boundary.
func TestReadTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("provider,card,currency,hourly,notes\n")
	row := "p,RTX 4090,CNY,1.60," + strings.Repeat("n", 200) + "\n"
	for b.Len() <= maxListBytes {
		b.WriteString(row)
	}
	b.WriteString("last,RTX 4090,CNY,17.98,\n")
	offers, err := ReadCSV(strings.NewReader(b.String()))
	if !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "over 33554432 bytes") {
		t.Errorf("CSV over the limit: %d offers, error %v; want the size error", len(offers), err)
	}
	js := "[" + strings.Repeat(`{"provider":"p","card":"x","tariff":{"currency":"CNY","hourly":"1"}},`, maxListBytes/60) + "]"
	if _, err := ReadJSON(strings.NewReader(js)); !errors.Is(err, pricing.ErrInvalid) || !strings.Contains(err.Error(), "over 33554432 bytes") {
		t.Errorf("JSON over the limit: error %v; want the size error", err)
	}
}

func FuzzReadJSON(f *testing.F) {
	f.Add(`[{"provider":"a","card":"x","tariff":{"currency":"CNY","hourly":"1.5","granularity":"1m","terms":[{"months":3,"discount":"0.1"}],"monthly":"9"}}]`)
	f.Add(`[{"provider":"a","region":"r","card":"A100 80GB","max_gpus":8,"gpus_per_instance":8,"host_memory_bytes":1099511627776,"tier":"T3",
"tariff":{"currency":"USD","hourly":"14.32","daily":"300","minimum":"1h","after_package":"renew","rounding":"half_even"}}]`)
	f.Add(`[{"provider":"a"`)
	f.Add(`garbage`)
	f.Fuzz(func(t *testing.T, in string) {
		offers, err := ReadJSON(strings.NewReader(in))
		checkLoaded(t, offers, err)
	})
}

// checkLoaded is what the loaders' fuzz targets hold of any input: an error wraps
// pricing.ErrInvalid, and what loads is valid and can be priced.
func checkLoaded(t *testing.T, offers []pricing.Offer, err error) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, pricing.ErrInvalid) {
			t.Fatalf("error %v does not wrap ErrInvalid", err)
		}
		return
	}
	for _, o := range offers {
		if err := o.Validate(); err != nil {
			t.Fatalf("loaded an invalid offer: %v", err)
		}
		if _, err := o.Tariff.Cost(25 * time.Hour); err != nil {
			t.Fatalf("Cost on a loaded offer: %v", err)
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add("provider,card,currency,hourly,term_3m,monthly\na,x,CNY,1.5,8,9\n")
	f.Add("# a comment\nprovider,region,card,memory,max_gpus,gpus_per_instance,host_memory_gb,currency,hourly,daily,granularity,minimum,tier,interruptible,interruptions_per_day\n" +
		"a,cn,A100,80GB,16,8,1024,CNY,9.90,230,1m,1h,T3+,false,0.5\n")
	f.Add("服务商,地域,卡型,按量(元/小时),包天,包季,可中断\n示例云,华东,RTX 4090,1.6,35元/天,\"2,400\",是\n")
	f.Add("provider,card\n\"")
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, in string) {
		offers, err := ReadCSV(strings.NewReader(in))
		checkLoaded(t, offers, err)
	})
}

// A price cell in another currency than its row's is refused as invalid input and
// as a currency mismatch: errors.Is finds both sentinels through the ParseError.
func TestReadPriceCellCurrencyMismatch(t *testing.T) {
	const list = "provider,region,card,currency,hourly\nacme,r1,RTX 4090,CNY,$1.20\n"
	_, err := ReadCSV(strings.NewReader(list))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != "hourly" {
		t.Fatalf("err = %v, want a ParseError at line 2, field hourly", err)
	}
	if !errors.Is(err, pricing.ErrInvalid) || !errors.Is(err, pricing.ErrCurrencyMismatch) {
		t.Errorf("err = %v: pricing.ErrInvalid %v, pricing.ErrCurrencyMismatch %v; want both", err, errors.Is(err, pricing.ErrInvalid), errors.Is(err, pricing.ErrCurrencyMismatch))
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
