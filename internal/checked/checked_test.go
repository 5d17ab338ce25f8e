package checked

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// fits reports whether a big integer is an int64.
func fits(z *big.Int) bool { return z.IsInt64() }

// Add and Mul agree with exact big-integer arithmetic: the right value when it
// fits, a refusal when it does not.
func TestAgainstBig(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.OneOf(rapid.Int64(), rapid.Int64Range(-1<<32, 1<<32), rapid.SampledFrom([]int64{0, 1, -1, math.MaxInt64, math.MinInt64}))
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		sum := new(big.Int).Add(big.NewInt(a), big.NewInt(b))
		if got, ok := Add(a, b); ok != fits(sum) || (ok && got != sum.Int64()) {
			t.Fatalf("Add(%d, %d) = %d, %v; exact %v", a, b, got, ok, sum)
		}
		prod := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
		if got, ok := Mul(a, b); ok != fits(prod) || (ok && got != prod.Int64()) {
			t.Fatalf("Mul(%d, %d) = %d, %v; exact %v", a, b, got, ok, prod)
		}
	})
}

func TestMulAll(t *testing.T) {
	for _, tc := range []struct {
		fs   []int64
		want int64
		ok   bool
	}{
		{nil, 1, true},
		{[]int64{2, 32, 8, 128, 4096}, 2 * 32 * 8 * 128 * 4096, true},
		{[]int64{1 << 31, 1 << 31, 2}, 0, false},
		{[]int64{-1, math.MinInt64}, 0, false},
		{[]int64{0, math.MaxInt64, math.MaxInt64}, 0, true},
	} {
		got, ok := MulAll(tc.fs...)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("MulAll(%v) = %d, %v; want %d, %v", tc.fs, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFromFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want int64
		ok   bool
	}{
		{0, 0, true},
		{1.9, 1, true},
		{-1.9, -1, true},
		{9.2e18, 9200000000000000000, true},
		{9.3e18, 0, false},
		{-9.3e18, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
		{math.Inf(-1), 0, false},
	} {
		got, ok := FromFloat(tc.f)
		if ok != tc.ok || got != tc.want {
			t.Errorf("FromFloat(%v) = %d, %v; want %d, %v", tc.f, got, ok, tc.want, tc.ok)
		}
	}
}
