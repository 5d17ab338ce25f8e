package pricelist

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
)

func TestReadVastSample(t *testing.T) {
	f, err := os.Open("../testdata/vast/offers_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	offers, err := ReadVast(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) != 3 {
		t.Fatalf("%d offers, want 3", len(offers))
	}
	for i, want := range []struct {
		line          int
		card, region  string
		gpus          int
		hourly        string
		reliability   float64
		interruptible bool
	}{
		{2, "RTX 4090 24GB", "Norway, NO", 1, "0.404667", 0.9961358, false},
		{44, "H100 SXM 80GB", "Texas, US", 8, "18.937778", 0.9993412, false},
		{67, "RTX 3090 24GB", "", 2, "0.314444", 0.8964705, false},
	} {
		o := offers[i]
		if o.Line != want.line || o.Card != want.card || o.Region != want.region || o.GPUsPerInstance != want.gpus ||
			o.MaxGPUs != want.gpus || o.Tariff.Hourly.String() != want.hourly || o.Tariff.Currency != "USD" || o.Provider != VastProvider {
			t.Errorf("offer %d = %+v", i, o)
		}
		// The estimate: −ln(reliability2) interruptions a day.
		if got, w := o.InterruptionsPerDay, -math.Log(want.reliability); math.Abs(got-w) > 1e-12 {
			t.Errorf("offer %d: %v interruptions a day, want %v", i, got, w)
		}
		if !strings.Contains(o.Notes, "an estimate") {
			t.Errorf("offer %d notes %q do not say the rate is an estimate", i, o.Notes)
		}
	}
	// 0.9 a day without interruption: about 0.105 a day.
	if o := offers[2]; math.Abs(o.InterruptionsPerDay-0.1093) > 0.001 {
		t.Errorf("reliability 0.8965: %v a day", o.InterruptionsPerDay)
	}
}

// The memory is added to the card's name only when it rounds to whole gigabytes:
// a gpu_ram under half a megabyte names no size ("RTX 4090", not "RTX 4090 0GB").
func TestReadVastMemoryName(t *testing.T) {
	for _, tc := range []struct{ ram, card string }{
		{"24564", "RTX 4090 24GB"},
		{"0.3", "RTX 4090"},
		{"0", "RTX 4090"},
	} {
		offers, err := ReadVast(strings.NewReader(`[{"gpu_name":"RTX 4090","num_gpus":1,"gpu_ram":` + tc.ram + `,"dph_total":0.4}]`))
		if err != nil {
			t.Fatalf("gpu_ram %s: %v", tc.ram, err)
		}
		if offers[0].Card != tc.card {
			t.Errorf("gpu_ram %s: card %q, want %q", tc.ram, offers[0].Card, tc.card)
		}
	}
}

func TestReadVastErrors(t *testing.T) {
	const ok = `"gpu_name":"RTX 4090","num_gpus":1,"gpu_ram":24564,"dph_total":0.4`
	tests := []struct {
		name, in string
		line     int
		field    string
	}{
		{"not JSON", "garbage", 1, ""},
		{"object without offers", `{"x":1}`, 1, ""},
		{"no name", "[\n{\"num_gpus\":1,\"dph_total\":0.4}]", 2, "gpu_name"},
		{"zero GPUs", "[{" + ok + "},\n{\"gpu_name\":\"A\",\"num_gpus\":0,\"dph_total\":0.4}]", 2, "num_gpus"},
		{"fraction of GPUs", `[{"gpu_name":"A","num_gpus":0.5,"dph_total":0.4}]`, 1, "num_gpus"},
		{"no price", `[{"gpu_name":"A","num_gpus":1}]`, 1, "dph_total"},
		{"negative price", `[{"gpu_name":"A","num_gpus":1,"dph_total":-0.4}]`, 1, "dph_total"},
		{"zero price", `[{"gpu_name":"A","num_gpus":1,"dph_total":0.0000001}]`, 1, "dph_total"},
		{"huge exponent", `[{"gpu_name":"A","num_gpus":1,"dph_total":1e-2000000000}]`, 1, "dph_total"},
		{"reliability over 1", `[{` + ok + `,"reliability2":1.5}]`, 1, "reliability2"},
		{"reliability zero", `[{` + ok + `,"reliability":0}]`, 1, "reliability"},
		{"bad memory", `[{"gpu_name":"A","num_gpus":1,"gpu_ram":-1,"dph_total":0.4}]`, 1, "gpu_ram"},
		{"not an object", "[\n1]", 2, ""},
		{"GBK bytes", "[{\"gpu_name\":\"\xbf\xa8\",\"num_gpus\":1,\"dph_total\":0.4}]", 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadVast(strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) {
				t.Fatalf("error = %v, want a *ParseError wrapping ErrInvalid", err)
			}
			if pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("error at line %d field %q (%v), want line %d field %q", pe.Line, pe.Field, err, tc.line, tc.field)
			}
		})
	}
	// The API's form and a reliability of 1.
	offers, err := ReadVast(strings.NewReader(`{"timestamp":1,"offers":[{` + ok + `,"reliability2":1}]}`))
	if err != nil || len(offers) != 1 || offers[0].InterruptionsPerDay != 0 || math.Signbit(offers[0].InterruptionsPerDay) {
		t.Errorf("API form: %+v, %v", offers, err)
	}
}

func FuzzReadVast(f *testing.F) {
	f.Add(`{"offers":[{"gpu_name":"A","num_gpus":2,"gpu_ram":81559,"dph_total":1e-3,"reliability":0.5}]}`)
	f.Add(`[{"id":12850311,"machine_id":13541,"gpu_name":"RTX 4090","num_gpus":1,"gpu_ram":24564.0,"gpu_frac":0.125,"cpu_ram":257829.0,
"dph_total":0.4046666666666667,"reliability":0.9945,"reliability2":0.9961358,"geolocation":"Norway, NO","verification":"verified"},
{"id":13011822,"gpu_name":"RTX 3090","num_gpus":2,"gpu_ram":24576.0,"dph_total":0.3144444444444444,"reliability2":0.8964705,"geolocation":null}]`)
	f.Fuzz(func(t *testing.T, in string) {
		offers, err := ReadVast(strings.NewReader(in))
		checkLoaded(t, offers, err)
		for _, o := range offers {
			if o.GPUsPerInstance < 1 || o.MaxGPUs != o.GPUsPerInstance || o.InterruptionsPerDay < 0 {
				t.Fatalf("offer %+v", o)
			}
		}
	})
}
