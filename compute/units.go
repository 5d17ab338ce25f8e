package compute

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/unitscan"
)

// FLOPs is an amount of work in floating-point operations. It is a float64 because
// training runs exceed int64 (Llama 3 405B: 3.8e25).
type FLOPs float64

// FLOPRate is a rate of work in floating-point operations per second.
type FLOPRate float64

// Bandwidth is a transfer rate in bytes per second. Its constants are decimal, as
// vendors print memory and link bandwidth (an A100's 2039 GB/s is 2.039e12 B/s).
type Bandwidth float64

// Units of work and rate, decimal.
const (
	FLOP  FLOPs = 1
	GFLOP       = 1e9 * FLOP
	TFLOP       = 1e12 * FLOP
	PFLOP       = 1e15 * FLOP
	EFLOP       = 1e18 * FLOP

	FLOPS  FLOPRate = 1
	GFLOPS          = 1e9 * FLOPS
	TFLOPS          = 1e12 * FLOPS
	PFLOPS          = 1e15 * FLOPS
	EFLOPS          = 1e18 * FLOPS
)

// Units of bandwidth, decimal bytes per second.
const (
	Bps  Bandwidth = 1
	KBps           = 1e3 * Bps
	MBps           = 1e6 * Bps
	GBps           = 1e9 * Bps
	TBps           = 1e12 * Bps
)

// format writes v with at most four significant digits (trailing zeros dropped),
// scaled to the largest decimal prefix that keeps the mantissa at or above one. The
// ladder is the one the parsers accept, less K (written k).
func format(v float64, unit string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64) + " " + unit
	}
	prefixes := [...]struct {
		sym  string
		mult float64
	}{{"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}}
	a := math.Abs(v)
	for _, p := range prefixes {
		if a >= p.mult {
			return strconv.FormatFloat(v/p.mult, 'g', 4, 64) + " " + p.sym + unit
		}
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + unit
}

// String returns the work in scientific notation with four significant digits and the
// unit "FLOP": "3.14e+23 FLOP", "1e+17 FLOP", "0 FLOP". It is rounded, for reports;
// ParseFLOPs reads it back to within 0.05%.
func (w FLOPs) String() string {
	return strconv.FormatFloat(float64(w), 'g', 4, 64) + " FLOP"
}

// String returns the rate with four significant digits and the largest decimal
// prefix that keeps the number at or above one: "312 TFLOPS", "1.157 TFLOPS",
// "1.5 PFLOPS", "0 FLOPS". It is rounded, for reports; ParseFLOPRate reads it back to
// within 0.05%.
func (r FLOPRate) String() string { return format(float64(r), "FLOPS") }

// String returns the bandwidth with four significant digits and the largest decimal
// prefix that keeps the number at or above one: "2.039 TB/s", "900 GB/s", "0 B/s".
// It is rounded, for reports; ParseBandwidth reads it back to within 0.05%.
func (b Bandwidth) String() string { return format(float64(b), "B/s") }

// TFLOPS returns r in units of 10^12 FLOP/s, for display only.
func (r FLOPRate) TFLOPS() float64 { return float64(r) / float64(TFLOPS) }

// GBps returns b in units of 10^9 bytes per second, for display only.
func (b Bandwidth) GBps() float64 { return float64(b) / float64(GBps) }

// ParseFLOPs reads an amount of work: a non-negative decimal number, optional spaces,
// and a unit made of an optional prefix (k, K, M, G, T, P, E; all decimal) and "FLOP"
// or "FLOPs":
//
//	"3.14e23 FLOP", "1e17FLOPs", "314 EFLOP", "1.5 PFLOPs"
//
// The unit is required (except for a bare "0") and is case-sensitive apart from the
// prefix, so that "FLOPS" (a rate) is refused. The error is a *ParseError wrapping
// ErrInvalid for an empty string, a negative number, NaN or Inf, an unknown unit, a
// value that overflows float64, or a positive number too small for float64
// ("1e-400 FLOP", which would read as zero).
func ParseFLOPs(s string) (FLOPs, error) {
	v, err := parse("ParseFLOPs", s, flopsUnit)
	return FLOPs(v), err
}

// ParseFLOPRate reads a rate of work: a non-negative decimal number, optional spaces,
// and a unit made of an optional prefix (k, K, M, G, T, P, E; all decimal) and
// "FLOPS", "FLOP/s" or "FLOPs/s":
//
//	"312TFLOPS", "312 TFLOP/s", "1.5 PFLOPS", "989.5 TFLOPs/s"
//
// The unit is required (except for a bare "0"); "FLOPs" alone is an amount of work
// and is refused. Errors are as for ParseFLOPs.
func ParseFLOPRate(s string) (FLOPRate, error) {
	v, err := parse("ParseFLOPRate", s, rateUnit)
	return FLOPRate(v), err
}

// ParseBandwidth reads a bandwidth in bytes per second: a non-negative decimal
// number, optional spaces, and a unit made of an optional prefix (k, K, M, G, T, P, E;
// all decimal) and "B/s" or "Bps":
//
//	"2TB/s", "900 GB/s", "2039GBps", "31.5 GB/s"
//
// The "B" must be upper case: a lower-case "b" means bits, which is refused rather
// than guessed. Errors are as for ParseFLOPs.
func ParseBandwidth(s string) (Bandwidth, error) {
	v, err := parse("ParseBandwidth", s, bandwidthUnit)
	return Bandwidth(v), err
}

// prefixMult returns the multiplier of a one-letter decimal prefix.
func prefixMult(c byte) (float64, bool) {
	switch c {
	case 'k', 'K':
		return 1e3, true
	case 'M':
		return 1e6, true
	case 'G':
		return 1e9, true
	case 'T':
		return 1e12, true
	case 'P':
		return 1e15, true
	case 'E':
		return 1e18, true
	}
	return 0, false
}

// unitMult splits an optional prefix from unit and checks the rest against bodies.
func unitMult(unit string, bodies ...string) (float64, bool) {
	for _, b := range bodies {
		if unit == b {
			return 1, true
		}
	}
	if len(unit) < 2 {
		return 0, false
	}
	m, ok := prefixMult(unit[0])
	if !ok {
		return 0, false
	}
	for _, b := range bodies {
		if unit[1:] == b {
			return m, true
		}
	}
	return 0, false
}

func flopsUnit(u string) (float64, bool)     { return unitMult(u, "FLOP", "FLOPs") }
func rateUnit(u string) (float64, bool)      { return unitMult(u, "FLOPS", "FLOP/s", "FLOPs/s") }
func bandwidthUnit(u string) (float64, bool) { return unitMult(u, "B/s", "Bps") }

// nonzeroDigits reports whether the mantissa of num (the part before any exponent)
// has a digit other than 0, so that a zero from ParseFloat is an underflow
// ("1e-400") rather than a zero ("0.0e5").
func nonzeroDigits(num string) bool {
	for i := 0; i < len(num); i++ {
		switch c := num[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

// parse implements the three parsers.
func parse(fn, s string, unit func(string) (float64, bool)) (float64, error) {
	fail := func(format string, args ...any) (float64, error) {
		return 0, &ParseError{Func: fn, Input: s, Err: fmt.Errorf(format+": %w", append(args, ErrInvalid)...)}
	}
	if strings.TrimSpace(s) == "" {
		return fail("empty")
	}
	num, u, err := unitscan.Split(s)
	if err != nil {
		return fail("no number")
	}
	if num[0] == '-' {
		return fail("negative")
	}
	f, err := unitscan.Float(num)
	if err != nil || !finite(f) {
		return fail("number out of range")
	}
	if f == 0 && nonzeroDigits(num) {
		return fail("number too small: it underflows to zero")
	}
	if u == "" {
		if f == 0 {
			return 0, nil
		}
		return fail("missing unit")
	}
	m, ok := unit(u)
	if !ok {
		return fail("unknown unit %q", u)
	}
	v := f * m
	if !finite(v) {
		return fail("value overflows")
	}
	return v, nil
}
