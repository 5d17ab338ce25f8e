package compute

import (
	"errors"
	"math"
	"testing"
)

func TestStrings(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"GPT-3 work", FLOPs(3.14e23).String(), "3.14e+23 FLOP"},
		{"first article work", (1e8 * 1e9 * FLOP).String(), "1e+17 FLOP"},
		{"zero work", FLOPs(0).String(), "0 FLOP"},
		{"A100 BF16 peak", (312 * TFLOPS).String(), "312 TFLOPS"},
		{"RTX 4090 BF16 peak", (165.2 * TFLOPS).String(), "165.2 TFLOPS"},
		{"one day of 1e17", FLOPRate(1e17 / 86400).String(), "1.157 TFLOPS"},
		{"petaflops", (1.5 * PFLOPS).String(), "1.5 PFLOPS"},
		{"small rate", FLOPRate(500).String(), "500 FLOPS"},
		{"zero rate", FLOPRate(0).String(), "0 FLOPS"},
		{"A100 HBM", (2039 * GBps).String(), "2.039 TB/s"},
		{"H100 NVLink", (900 * GBps).String(), "900 GB/s"},
		{"two TB/s", (2 * TBps).String(), "2 TB/s"},
		{"PCIe Gen4", (31.5 * GBps).String(), "31.5 GB/s"},
		{"zero bandwidth", Bandwidth(0).String(), "0 B/s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("String() = %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) (float64, error)
		in   string
		want float64
	}{
		{"rate compact", parseRate, "312TFLOPS", 312e12},
		{"rate per second", parseRate, "312 TFLOP/s", 312e12},
		{"rate peta", parseRate, "1.5 PFLOPS", 1.5e15},
		{"rate FLOPs/s", parseRate, "989.5 TFLOPs/s", 989.5e12},
		{"rate no prefix", parseRate, "1e12 FLOPS", 1e12},
		{"rate zero", parseRate, "0", 0},
		{"zero with a tiny exponent", parseRate, "0.0e-400 TFLOPS", 0},
		{"rate spaces", parseRate, "  312 TFLOPS  ", 312e12},
		{"work", parseWork, "3.14e23 FLOP", 3.14e23},
		{"work plural", parseWork, "1e17FLOPs", 1e17},
		{"work exa", parseWork, "314 EFLOP", 3.14e20},
		{"bandwidth TB/s", parseBW, "2TB/s", 2e12},
		{"bandwidth GB/s", parseBW, "900 GB/s", 900e9},
		{"bandwidth GBps", parseBW, "2039GBps", 2039e9},
		{"bandwidth kB/s", parseBW, "1.5 kB/s", 1500},
		{"bandwidth bytes", parseBW, "10 B/s", 10},
		// String writes "100 EB/s" for 1e20 B/s, so the parser reads the prefix back
		// (found by FuzzParseBandwidth; testdata/fuzz keeps the input).
		{"bandwidth EB/s", parseBW, "100 EB/s", 1e20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.fn(tt.in)
			if err != nil {
				t.Fatalf("parse(%q) error %v", tt.in, err)
			}
			if math.Abs(got-tt.want) > 1e-12*tt.want {
				t.Errorf("parse(%q) = %g, want %g", tt.in, got, tt.want)
			}
		})
	}
}

func parseRate(s string) (float64, error) { v, err := ParseFLOPRate(s); return float64(v), err }
func parseWork(s string) (float64, error) { v, err := ParseFLOPs(s); return float64(v), err }
func parseBW(s string) (float64, error)   { v, err := ParseBandwidth(s); return float64(v), err }

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) (float64, error)
		in   string
	}{
		{"empty", parseRate, ""},
		{"blank", parseBW, "   "},
		{"negative", parseRate, "-312 TFLOPS"},
		{"negative zero", parseWork, "-0 FLOP"},
		{"NaN", parseRate, "NaN TFLOPS"},
		{"Inf", parseBW, "Inf GB/s"},
		{"unknown unit", parseRate, "312 TOPS"},
		{"missing unit", parseRate, "312"},
		{"rate given as work", parseWork, "312 TFLOPS"},
		{"work given as rate", parseRate, "1e17 FLOPs"},
		{"bits not bytes", parseBW, "900 Gb/s"},
		{"bits per second", parseBW, "100 Gbps"},
		{"overflow in number", parseWork, "1e400 FLOP"},
		{"overflow by prefix", parseRate, "1e300 EFLOPS"},
		// Positive numbers below float64's range used to read as zero.
		{"underflow", parseRate, "1e-400 TFLOPS"},
		{"underflow of work", parseWork, "0.0001e-330 FLOP"},
		{"underflow of bandwidth", parseBW, "5e-999 GB/s"},
		{"no number", parseBW, "GB/s"},
		{"bare prefix", parseRate, "3 T"},
		{"lower-case tera", parseRate, "165.2 tFLOPS"},
		{"milli is not a prefix", parseBW, "3 mB/s"},
		{"two numbers", parseBW, "2 2 TB/s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.fn(tt.in)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("parse(%q) = %g, %v; want an error wrapping ErrInvalid", tt.in, got, err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Input != tt.in {
				t.Errorf("parse(%q) error %#v, want a *ParseError quoting the input", tt.in, err)
			}
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	_, err := ParseFLOPRate("312 TOPS")
	got := err.Error()
	want := `compute: ParseFLOPRate "312 TOPS": unknown unit "TOPS": invalid input`
	if got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}

// roundTrip checks that a parsed value is finite and non-negative and that its String
// form parses back to within String's rounding (four significant digits).
func roundTrip[T ~float64](t *testing.T, in string, v T, err error, str func(T) string, parse func(string) (T, error)) {
	if err != nil {
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("parse(%q) error %v does not wrap ErrInvalid", in, err)
		}
		return
	}
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		t.Fatalf("parse(%q) = %g, want finite and non-negative", in, f)
	}
	s := str(v)
	back, err := parse(s)
	if err != nil {
		t.Fatalf("parse(String() = %q) of %q: %v", s, in, err)
	}
	if d := math.Abs(float64(back) - f); d > 5e-4*f {
		t.Fatalf("parse(%q) = %g, String() = %q reads back as %g", in, f, s, float64(back))
	}
}

func FuzzParseFLOPRate(f *testing.F) {
	for _, s := range []string{"312TFLOPS", "312 TFLOP/s", "1.5 PFLOPS", "-1 TFLOPS", "1e308 EFLOPS", "0", "7e-320 kFLOPS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := ParseFLOPRate(in)
		roundTrip(t, in, v, err, FLOPRate.String, ParseFLOPRate)
	})
}

func FuzzParseFLOPs(f *testing.F) {
	for _, s := range []string{"3.14e23 FLOP", "1e17FLOPs", "314 EFLOP", "NaN FLOP", "1e400 FLOP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := ParseFLOPs(in)
		roundTrip(t, in, v, err, FLOPs.String, ParseFLOPs)
	})
}

func FuzzParseBandwidth(f *testing.F) {
	for _, s := range []string{"2TB/s", "900 GB/s", "2039GBps", "100 Gbps", "1.5e3 kB/s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := ParseBandwidth(in)
		roundTrip(t, in, v, err, Bandwidth.String, ParseBandwidth)
	})
}
