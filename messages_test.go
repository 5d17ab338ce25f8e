package gpuplan_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// The limits every error message of the module keeps, whatever the input: a
// person reads it, and a log keeps it.
const (
	maxMessageLine = 512 // bytes in one line of a message
	maxQuoted      = 200 // bytes of one quoted excerpt of the input, quotes included
)

// packagePrefix matches the name a message line starts with, or that a context
// puts before another package's words ("plan: offer x: pricing: ...").
var packagePrefix = regexp.MustCompile(`\b(gpuplan|sizing|compute|catalog|pricing|pricelist|plan): `)

// quoted matches a Go-quoted excerpt ("..." with escapes).
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// TestMessages runs a corpus of bad inputs through every public entry point of
// the module that takes input and holds each message to the limits: no package
// named twice in one line (a message cut apart and prefixed again: "plan: plan:",
// "pricing: offer 0: pricing: ..."), no line longer than maxMessageLine, no
// quoted excerpt longer than maxQuoted. Every input here is bad: each call must
// fail.
func TestMessages(t *testing.T) {
	// Inputs far past the limits, yet small enough for the race detector: a
	// message that quotes them whole fails as a 10 MB one would.
	big := strings.Repeat("x", 64<<10)                            // a 64 KiB name
	wide := strings.Repeat("卡", 16<<10)                           // 48 KiB of three-byte characters
	field := func(n int) string { return strings.Repeat("f", n) } // an unknown JSON field's name
	unknown := `{"` + field(64<<10) + `": 1}`
	unmarshal := func(v any, s string) func() error { return func() error { return json.Unmarshal([]byte(s), v) } }
	cnyHourly := pricing.Tariff{Currency: "CNY", Hourly: decimal.NewFromInt(1)}
	offer := pricing.Offer{Provider: "acme", Card: "RTX 4090", Tariff: cnyHourly}
	cat := catalog.Default()

	tests := []struct {
		name string
		call func() error
	}{
		// pricing
		{"pricing.NewMoney amount", func() error { _, err := pricing.NewMoney(big, "USD"); return err }},
		{"pricing.NewMoney currency", func() error { _, err := pricing.NewMoney("1", wide); return err }},
		{"pricing.ParseDecimal", func() error { _, err := pricing.ParseDecimal(wide); return err }},
		{"pricing.ValidCurrency", func() error { return pricing.ValidCurrency(big) }},
		{"pricing.ParseRoundingMode", func() error { _, err := pricing.ParseRoundingMode(big); return err }},
		{"pricing.ParseAfterPackage", func() error { _, err := pricing.ParseAfterPackage(big); return err }},
		{"pricing.Tariff.Validate", func() error {
			return pricing.Tariff{Currency: big, Hourly: decimal.New(-1, 1000)}.Validate()
		}},
		{"pricing.Offer.Validate", func() error { o := offer; o.Card = "-" + wide; o.Provider = ""; return o.Validate() }},
		{"pricing.Compare", func() error {
			o := offer
			o.Provider, o.Tariff.Currency = big, "usd"
			_, err := pricing.Compare([]pricing.Offer{offer, o}, pricing.Continuous(time.Hour), 1)
			return err
		}},
		{"pricing.Compare currencies", func() error {
			o := offer
			o.Provider, o.Tariff.Currency = big, "USD"
			_, err := pricing.Compare([]pricing.Offer{offer, o}, pricing.Continuous(time.Hour), 1)
			return err
		}},
		{"pricing.MarketCheck threshold", func() error {
			_, err := pricing.MarketCheck([]pricing.Offer{offer}, decimal.New(1, -10_000_000))
			return err
		}},
		{"pricing.MarketCheck offer", func() error {
			o := offer
			o.Region = big
			o.Tariff.Hourly = decimal.Decimal{}
			_, err := pricing.MarketCheck([]pricing.Offer{o}, decimal.New(3, -1))
			return err
		}},
		{"pricing.Tariff.Price", func() error {
			_, err := cnyHourly.Price(pricing.Usage{Pattern: pricing.Sessions, PerDay: -time.Hour, Days: -1}, -1)
			return err
		}},
		{"pricing.Rates.Convert", func() error {
			_, err := pricing.Rates{Base: "CNY", Per: map[string]decimal.Decimal{big: decimal.NewFromInt(7)}}.Convert(pricing.Money{Currency: "USD"})
			return err
		}},
		{"pricing.Money JSON", unmarshal(new(pricing.Money), `{"amount":"`+big+`","currency":"USD"}`)},
		{"pricing.Money JSON unknown", unmarshal(new(pricing.Money), unknown)},
		{"pricing.Tariff JSON", unmarshal(new(pricing.Tariff), `{"currency":"CNY","hourly":"`+big+`"}`)},
		{"pricing.Tariff JSON unknown", unmarshal(new(pricing.Tariff), unknown)},
		{"pricing.Offer JSON", unmarshal(new(pricing.Offer), `{"tariff":{"rounding":"`+big+`"}}`)},
		{"pricing.Offer JSON unknown", unmarshal(new(pricing.Offer), unknown)},
		{"pricing.Usage JSON", unmarshal(new(pricing.Usage), `{"pattern":"`+big+`"}`)},
		{"pricing.Usage JSON duration", unmarshal(new(pricing.Usage), `{"duration":"`+big+`"}`)},
		{"pricing.Line JSON", unmarshal(new(pricing.Line), `{"quantity":"`+big+`"}`)},
		{"pricing.Account JSON", unmarshal(new(pricing.Account), `{"tax_rate":"`+big+`"}`)},
		{"pricing.Account JSON unknown", unmarshal(new(pricing.Account), `{"sla":`+unknown+`}`)},
		{"pricing.Purchase JSON", unmarshal(new(pricing.Purchase), `{"package":"`+big+`"}`)},
		{"pricing.Invoice JSON", unmarshal(new(pricing.Invoice), `{"schema_version":9`+strings.Repeat("9", 1000)+`}`)},
		{"pricing.Rates JSON", unmarshal(new(pricing.Rates), `{"base":"CNY","per":{"USD":"`+big+`"}}`)},
		{"pricing.Account.Bill", func() error {
			a := pricing.Account{Tariff: cnyHourly, TaxRate: decimal.New(1, 2_000_000_000)}
			_, err := a.Bill(time.Time{}, time.Time{}.Add(time.Hour), nil, nil)
			return err
		}},

		// pricelist
		{"pricelist.Read csv cell", func() error {
			_, _, err := pricelist.Read(strings.NewReader("provider,card,currency,hourly\nacme,RTX 4090,CNY," + wide + "\n"))
			return err
		}},
		{"pricelist.Read csv currency", func() error {
			_, _, err := pricelist.Read(strings.NewReader("provider,card,currency,hourly\nacme,RTX 4090," + big + ",1\n"))
			return err
		}},
		{"pricelist.Read csv heading", func() error {
			_, _, err := pricelist.Read(strings.NewReader("provider,card,currency,hourly," + big + "\n"))
			return err
		}},
		{"pricelist.Read csv one column", func() error {
			_, _, err := pricelist.Read(strings.NewReader(strings.Repeat("provider;card;", 4<<10) + "\n"))
			return err
		}},
		{"pricelist.ReadCSV card", func() error {
			_, err := pricelist.ReadCSV(strings.NewReader("provider,card,currency,hourly\nacme,-" + big + ",CNY,-1\n"))
			return err
		}},
		{"pricelist.ReadCSV provider", func() error {
			_, err := pricelist.ReadCSV(strings.NewReader("provider,card,currency,hourly,tier\n" + big + ",RTX 4090,CNY,1," + wide + "\n"))
			return err
		}},
		{"pricelist.ReadJSON unknown", func() error {
			_, err := pricelist.ReadJSON(strings.NewReader(`[` + unknown + `]`))
			return err
		}},
		{"pricelist.ReadJSON price", func() error {
			_, err := pricelist.ReadJSON(strings.NewReader(`[{"provider":"a","card":"x","tariff":{"currency":"CNY","hourly":"` + big + `"}}]`))
			return err
		}},
		{"pricelist.ReadSkyPilot", func() error {
			_, err := pricelist.ReadSkyPilot(strings.NewReader("AcceleratorName,AcceleratorCount,Price,Region\nA100,8," + big + ",us\n"))
			return err
		}},
		{"pricelist.ReadVast", func() error {
			_, err := pricelist.ReadVast(strings.NewReader(`[{"gpu_name":"A100","num_gpus":1,"dph_total":"` + big + `"}]`))
			return err
		}},

		// sizing
		{"sizing.Preset", func() error { _, err := sizing.Preset(big); return err }},
		{"sizing.ParseBytes", func() error { _, err := sizing.ParseBytes(big); return err }},
		{"sizing.ParsePrecision", func() error { _, err := sizing.ParsePrecision(wide); return err }},
		{"sizing.ParseTask", func() error { _, err := sizing.ParseTask(big); return err }},
		{"sizing.ParseOptimizer", func() error { _, err := sizing.ParseOptimizer(big); return err }},
		{"sizing.ParseRecompute", func() error { _, err := sizing.ParseRecompute(big); return err }},
		{"sizing.LookupGGUFBlock", func() error { _, err := sizing.LookupGGUFBlock(big); return err }},
		{"sizing.ReadConfig", func() error {
			_, err := sizing.ReadConfig(strings.NewReader(`{"model_type":"` + big + `","hidden_size":-1}`))
			return err
		}},
		{"sizing.ReadConfig not JSON", func() error { _, err := sizing.ReadConfig(strings.NewReader(big)); return err }},
		{"sizing.ReadGGUF", func() error { _, err := sizing.ReadGGUF(strings.NewReader(big)); return err }},
		{"sizing.ReadSafetensors", func() error {
			var b bytes.Buffer
			hdr := `{"` + big + `":{"dtype":"` + big + `","shape":[1],"data_offsets":[0,2]}}`
			b.Write([]byte{byte(len(hdr)), byte(len(hdr) >> 8), byte(len(hdr) >> 16), 0, 0, 0, 0, 0})
			b.WriteString(hdr)
			_, err := sizing.ReadSafetensors(&b)
			return err
		}},
		{"sizing.Workload JSON unknown", unmarshal(new(sizing.Workload), unknown)},
		{"sizing.Workload JSON task", unmarshal(new(sizing.Workload), `{"task":"`+big+`"}`)},
		{"sizing.Model JSON unknown", unmarshal(new(sizing.Model), unknown)},
		{"sizing.Parallel JSON unknown", unmarshal(new(sizing.Parallel), unknown)},

		// compute
		{"compute.ParseBandwidth", func() error { _, err := compute.ParseBandwidth(big); return err }},
		{"compute.ParseFLOPRate", func() error { _, err := compute.ParseFLOPRate(big); return err }},
		{"compute.ParseFLOPs", func() error { _, err := compute.ParseFLOPs(wide); return err }},
		{"compute.Job JSON unknown", unmarshal(new(compute.Job), unknown)},
		{"compute.Serving JSON unknown", unmarshal(new(compute.Serving), unknown)},

		// catalog
		{"catalog.Lookup", func() error { _, err := cat.Lookup(big); return err }},
		{"catalog.Lookup wide", func() error { _, err := cat.Lookup(wide); return err }},
		{"catalog.Load", func() error { _, err := catalog.Load(strings.NewReader(`[{"id":"` + big + `"}]`)); return err }},
		{"catalog.Load unknown", func() error { _, err := catalog.Load(strings.NewReader(`[` + unknown + `]`)); return err }},
		{"catalog.ParseSMI", func() error { _, err := catalog.ParseSMI(strings.NewReader(big + "\n" + big + "\n")); return err }},
		{"catalog.ParseTopology", func() error {
			_, err := catalog.ParseTopology(strings.NewReader("\tGPU0\tGPU1\nGPU0\t" + big + "\n"))
			return err
		}},
		{"catalog.ParseDmon", func() error {
			_, err := catalog.ParseDmon(strings.NewReader("# gpu " + big + "\n" + big + "\n"))
			return err
		}},
		{"catalog.ParseAllReducePerf", func() error { _, err := catalog.ParseAllReducePerf(strings.NewReader(big)); return err }},
		{"catalog.Verify", func() error { _, err := cat.Verify(big, 8, nil, nil); return err }},

		// plan
		{"plan.Request JSON unknown field of 1 MiB", unmarshal(new(plan.Request), `{"`+field(1<<20)+`": 1}`)},
		{"plan.Request JSON rank", unmarshal(new(plan.Request), `{"rank":"`+big+`"}`)},
		{"plan.Request JSON workload", unmarshal(new(plan.Request), `{"workload":{"task":"`+big+`"}}`)},
		{"plan.ParseRank", func() error { _, err := plan.ParseRank(big); return err }},
		{"plan.Planner.Plan", func() error {
			o := offer
			o.Provider, o.Tariff.Rounding = big, 7
			_, err := plan.Planner{Offers: []pricing.Offer{o}}.Plan(plan.Request{})
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tc.call() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("no answer in 20 s")
			}
			if err == nil {
				t.Fatal("no error for a bad input")
			}
			checkMessage(t, err.Error())
		})
	}
}

// checkMessage holds one message to the limits TestMessages states.
func checkMessage(t *testing.T, msg string) {
	t.Helper()
	for _, line := range strings.Split(msg, "\n") {
		short := line
		if len(short) > 300 {
			short = short[:300] + "..."
		}
		if len(line) > maxMessageLine {
			t.Errorf("a line of %d bytes (at most %d): %s", len(line), maxMessageLine, short)
		}
		seen := map[string]bool{}
		for _, m := range packagePrefix.FindAllStringSubmatch(line, -1) {
			if seen[m[1]] {
				t.Errorf("%q named twice in one line: %s", m[1], short)
			}
			seen[m[1]] = true
		}
		for _, q := range quoted.FindAllString(line, -1) {
			if len(q) > maxQuoted {
				t.Errorf("a quoted excerpt of %d bytes (at most %d): %s", len(q), maxQuoted, short)
			}
		}
	}
}
