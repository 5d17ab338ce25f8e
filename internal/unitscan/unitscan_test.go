package unitscan

import (
	"errors"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in, num, unit string
		err           error
	}{
		{"80GiB", "80", "GiB", nil},
		{" 312 TFLOPS ", "312", "TFLOPS", nil},
		{"2.5TB/s", "2.5", "TB/s", nil},
		{"1e9", "1e9", "", nil},
		{"3.14e+23 FLOP", "3.14e+23", "FLOP", nil},
		{"8EB", "8", "EB", nil}, // an 'e' without digits is the unit
		{"-1KB", "-1", "KB", nil},
		{".5GB", ".5", "GB", nil},
		{"1.2.3GB", "1.2", ".3GB", nil}, // a second point ends the number; the unit table rejects it
		{"GB", "", "", ErrSyntax},
		{"", "", "", ErrSyntax},
		{"-", "", "", ErrSyntax},
		{".", "", "", ErrSyntax},
	} {
		num, unit, err := Split(tc.in)
		if num != tc.num || unit != tc.unit || !errors.Is(err, tc.err) {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", tc.in, num, unit, err, tc.num, tc.unit, tc.err)
		}
	}
}

func TestFloat(t *testing.T) {
	if f, err := Float("1e9"); err != nil || f != 1e9 {
		t.Errorf("Float(1e9) = %v, %v", f, err)
	}
	if _, err := Float("1e999"); err == nil {
		t.Error("Float(1e999) accepted an overflow")
	}
}
