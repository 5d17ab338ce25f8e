package sizing

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/gpuplan/gpuplan/internal/unitscan"
)

// Bytes is an amount of memory in bytes. It is signed so that headroom (capacity
// minus need) can go negative; every size an estimate produces is non-negative.
// The largest representable amount is about 8 EiB.
//
// Build values from the typed constants, so that 80*GiB is a Bytes: KB, MB, GB, TB and
// PB are powers of 1000 as vendors print them; KiB, MiB, GiB, TiB and PiB are powers of
// 1024 as nvidia-smi and most tools print them (and often call "GB").
//
// String gives a lossless, canonical form ("80GiB", "24564MiB", "80GB", "1234B") that
// ParseBytes reads back exactly; Human gives a rounded form for reports ("12.6 GiB").
// In JSON a Bytes is an integer count of bytes; UnmarshalJSON also reads a string
// such as "80GiB". There is deliberately no MarshalText: it would turn every
// *_bytes field of a result into a string.
type Bytes int64

// Units of memory. The decimal units are powers of 1000, the binary ones powers of
// 1024, each built from the one before.
const (
	Byte Bytes = 1
	KB         = 1000 * Byte
	MB         = 1000 * KB
	GB         = 1000 * MB
	TB         = 1000 * GB
	PB         = 1000 * TB

	KiB = 1024 * Byte
	MiB = 1024 * KiB
	GiB = 1024 * MiB
	TiB = 1024 * GiB
	PiB = 1024 * TiB
)

// GiB returns b in gibibytes, for display only.
func (b Bytes) GiB() float64 { return float64(b) / float64(GiB) }

// GB returns b in gigabytes (10^9), for display only.
func (b Bytes) GB() float64 { return float64(b) / float64(GB) }

// byteUnit is one row of the unit table ParseBytes and String share.
type byteUnit struct {
	name string // canonical spelling, as String writes it
	size Bytes
}

// byteUnits is the one unit table, largest first within each family. It is never
// written.
var byteUnits = [...]byteUnit{
	{"PiB", PiB}, {"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB},
	{"PB", PB}, {"TB", TB}, {"GB", GB}, {"MB", MB}, {"KB", KB},
	{"B", Byte},
}

// unitSpellings lists every unit suffix ParseBytes accepts, matched
// case-insensitively. It is never written.
var unitSpellings = [...]byteUnit{
	{"", Byte}, {"B", Byte}, {"byte", Byte}, {"bytes", Byte},
	{"KB", KB}, {"MB", MB}, {"GB", GB}, {"TB", TB}, {"PB", PB},
	{"KiB", KiB}, {"MiB", MiB}, {"GiB", GiB}, {"TiB", TiB}, {"PiB", PiB},
	{"Ki", KiB}, {"Mi", MiB}, {"Gi", GiB}, {"Ti", TiB}, {"Pi", PiB},
}

// lookupUnit returns the size of a unit suffix under ParseBytes's case rules.
func lookupUnit(u string) (Bytes, bool) {
	for _, s := range unitSpellings {
		if strings.EqualFold(u, s.name) {
			return s.size, true
		}
	}
	return 0, false
}

// maxParseLen bounds the input ParseBytes accepts, so that a hostile string cannot make
// it do big-number work.
const maxParseLen = 64

// Reasons a string is not a size, each wrapping ErrInvalid.
var (
	errBytesSyntax   = newInvalidReason("not a number followed by a unit")
	errBytesNegative = newInvalidReason("negative size")
	errBytesUnit     = newInvalidReason("unknown unit (want B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB or PiB)")
	errBytesRange    = newInvalidReason("size overflows int64 bytes")
	errBytesLong     = newInvalidReason("input longer than 64 characters")
)

// ParseBytes reads a memory size. The grammar is
//
//	size   = [spaces] number [spaces] [unit] [spaces]
//	number = digits ["." [digits]] [exponent] | "." digits [exponent]
//	exponent = ("e" | "E") ["+" | "-"] digits
//	unit   = "B" | "KB" | "MB" | "GB" | "TB" | "PB"           (powers of 1000)
//	       | "KiB" | "MiB" | "GiB" | "TiB" | "PiB"            (powers of 1024)
//	       | "Ki" | "Mi" | "Gi" | "Ti" | "Pi"                 (Kubernetes spelling of the same)
//	       | "byte" | "bytes"
//
// Units match case-insensitively: "gb", "Gb" and "GB" all mean 10^9 bytes (memory is
// never sized in bits here) and "gib" means 2^30. A bare number is bytes. The one-letter
// forms "K", "M", "G", "T" are refused as ambiguous: Kubernetes reads "G" as 10^9, ls
// and free read it as 2^30. Signs: a leading '-' is refused (sizes are not negative;
// "-0" too) and so is '+'.
//
// The value is computed exactly, without floating point: "1.5GiB" is 1610612736 and
// "0.1GB" is 100000000. A value that is not a whole number of bytes is rounded to the
// nearest byte, halves up ("12.6GiB" is 13529146982, "0.5B" is 1), so that the rounded
// figures of reports can be read back.
//
// Errors are *ParseError values whose Err wraps ErrInvalid: for an empty or malformed
// string (which includes "NaN" and "Inf"), a negative value, an unknown unit, a value
// past the int64 range, and input over 64 characters.
func ParseBytes(s string) (Bytes, error) {
	fail := func(err error) (Bytes, error) {
		return 0, &ParseError{Func: "ParseBytes", Input: s, Err: err}
	}
	if len(s) > maxParseLen {
		return fail(errBytesLong)
	}
	num, unit, err := unitscan.Split(s)
	if err != nil {
		return fail(errBytesSyntax)
	}
	switch num[0] {
	case '-':
		return fail(errBytesNegative)
	case '+':
		return fail(errBytesSyntax)
	}
	size, ok := lookupUnit(unit)
	if !ok {
		return fail(errBytesUnit)
	}
	v, err := exactBytes(num, size)
	if err != nil {
		return fail(err)
	}
	return v, nil
}

// exactBytes evaluates an unsigned decimal number (as unitscan.Split returns it) times
// size, rounded to the nearest integer, halves up, in exact integer arithmetic.
func exactBytes(num string, size Bytes) (Bytes, error) {
	mant, exp := num, ""
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mant, exp = num[:i], num[i+1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return 0, nil // zero, whatever the exponent
	}
	// value = digits × 10^k × size
	k := -len(frac)
	if exp != "" {
		e, err := strconv.Atoi(exp)
		if err != nil {
			// Only digits reach here, so the exponent is out of int range: a huge
			// positive one overflows; a huge negative one rounds to zero.
			if exp[0] == '-' {
				return 0, nil
			}
			return 0, errBytesRange
		}
		k += e
	}
	// digits ≥ 1 and size ≥ 1: 10^19 already overflows int64.
	if len(digits)+k > 19 {
		return 0, errBytesRange
	}
	// digits × size < 10^len(digits) × 10^16: below 1/2 once -k exceeds len+17.
	if -k > len(digits)+17 {
		return 0, nil
	}
	// Fast path: the number fits int64 and so does its product with the unit.
	if len(digits) <= 18 && k <= 18 && -k <= 18 {
		if v, ok := smallExact(digits, k, size); ok {
			return v, nil
		}
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return 0, errBytesSyntax
	}
	n.Mul(n, big.NewInt(int64(size)))
	ten := big.NewInt(10)
	if k >= 0 {
		n.Mul(n, new(big.Int).Exp(ten, big.NewInt(int64(k)), nil))
	} else {
		den := new(big.Int).Exp(ten, big.NewInt(int64(-k)), nil)
		var r big.Int
		n.QuoRem(n, den, &r)
		if r.Lsh(&r, 1).Cmp(den) >= 0 {
			n.Add(n, big.NewInt(1))
		}
	}
	if !n.IsInt64() {
		return 0, errBytesRange
	}
	return Bytes(n.Int64()), nil
}

// smallExact is exactBytes for digits of at most 18 and |k| ≤ 18 in int64
// arithmetic; false when an intermediate product overflows (the caller then uses
// math/big).
func smallExact(digits string, k int, size Bytes) (Bytes, bool) {
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	p, ok := checked.Mul(n, int64(size))
	if !ok {
		return 0, false
	}
	pow := int64(1)
	for i := 0; i < k || i < -k; i++ {
		pow *= 10 // at most 10^18
	}
	if k >= 0 {
		v, ok := checked.Mul(p, pow)
		return Bytes(v), ok
	}
	q, r := p/pow, p%pow
	if r >= pow-r { // 2r ≥ pow without overflow: round halves up
		q++
	}
	return Bytes(q), true
}
