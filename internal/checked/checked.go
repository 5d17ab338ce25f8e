// Package checked holds overflow-checked integer arithmetic shared by the gpuplan
// packages. Every function reports overflow instead of wrapping around.
package checked

import (
	"math"
	"math/bits"
)

// Add returns a+b and false if the sum overflows int64.
func Add(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

// Mul returns a*b and false if the product overflows int64.
func Mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	ua, ub := abs(a), abs(b)
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return int64(-lo), true // -(1<<63) is representable
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// MulAll multiplies every factor, reporting overflow.
func MulAll(fs ...int64) (int64, bool) {
	p := int64(1)
	for _, f := range fs {
		var ok bool
		if p, ok = Mul(p, f); !ok {
			return 0, false
		}
	}
	return p, true
}

// FromFloat converts a finite float64 to int64, reporting values that are NaN,
// infinite or outside the int64 range. The value is truncated toward zero.
func FromFloat(f float64) (int64, bool) {
	if math.IsNaN(f) || f >= 9.223372036854775807e18 || f < -9.223372036854775808e18 {
		return 0, false
	}
	return int64(f), true
}

func abs(a int64) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}
