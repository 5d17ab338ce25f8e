package input

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want time.Duration
		err  error // nil: want succeeds
	}{
		{"days", "30d", 720 * time.Hour, nil},
		{"fractional days", "1.5d", 36 * time.Hour, nil},
		{"days and hours", "30d12h", 732 * time.Hour, nil},
		{"days and Go duration", "1d1h30m15s", 25*time.Hour + 30*time.Minute + 15*time.Second, nil},
		{"leading point", ".5d", 12 * time.Hour, nil},
		{"trailing point", "2.d", 48 * time.Hour, nil},
		{"zero days", "0d", 0, nil},
		{"negative days", "-1d6h", -30 * time.Hour, nil},
		{"plus sign", "+1d", 24 * time.Hour, nil},
		{"a third of a day, cut to the nanosecond", "0.333333333333333d", 28799999999999, nil},
		{"Go hours", "720h", 720 * time.Hour, nil},
		{"Go minutes", "90m", 90 * time.Minute, nil},
		{"Go zero", "0", 0, nil},
		{"Go negative", "-1h30m", -90 * time.Minute, nil},
		{"Go microseconds", "3µs", 3 * time.Microsecond, nil},
		{"longest", "106751d23h47m16.854775807s", math.MaxInt64, nil},
		{"one past the longest", "106751d23h47m16.854775808s", 0, ErrDurationRange},
		{"days past range", "200000d", 0, ErrDurationRange},
		{"empty", "", 0, ErrDuration},
		{"bare number", "30", 0, ErrDuration},
		{"bare d", "d", 0, ErrDuration},
		{"point d", ".d", 0, ErrDuration},
		{"two points", "1.2.3d", 0, ErrDuration},
		{"exponent", "1e3d", 0, ErrDuration},
		{"fraction", "1/2d", 0, ErrDuration},
		{"second sign", "1d-2h", 0, ErrDuration},
		{"two day counts", "1d2d", 0, ErrDuration},
		{"days after hours", "1h30d", 0, ErrDuration},
		{"unknown unit", "30x", 0, ErrDuration},
		{"days word", "30days", 0, ErrDuration},
		{"space", "30 d", 0, ErrDuration},
		{"Go overflow", "3000000h", 0, ErrDuration},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Duration(tc.in)
			if got != tc.want || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Errorf("Duration(%q) = %v (%d ns), %v; want %v (%d ns), %v", tc.in, got, int64(got), err, tc.want, int64(tc.want), tc.err)
			}
		})
	}
}

// TestParseDurationProperties checks that Go's own spelling of any duration reads
// back unchanged, and that n days followed by a Go duration read as n × 24h plus
// that duration.
func TestParseDurationProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := time.Duration(rapid.Int64().Draw(t, "go_duration"))
		if got, err := Duration(d.String()); got != d || err != nil {
			t.Fatalf("Duration(%q) = %v, %v; want %v, nil", d.String(), got, err, d)
		}
		days := rapid.Int64Range(0, 100000).Draw(t, "days")
		rest := time.Duration(rapid.Int64Range(0, int64(1000*time.Hour)).Draw(t, "rest"))
		in := strconv.FormatInt(days, 10) + "d" + rest.String()
		if rest == 0 && rapid.Bool().Draw(t, "no_rest") {
			in = strings.TrimSuffix(in, "0s")
		}
		want := time.Duration(days)*24*time.Hour + rest
		if got, err := Duration(in); got != want || err != nil {
			t.Fatalf("Duration(%q) = %v, %v; want %v, nil", in, got, err, want)
		}
		if got, err := Duration("-" + in); got != -want || err != nil {
			t.Fatalf("Duration(%q) = %v, %v; want %v, nil", "-"+in, got, err, -want)
		}
	})
}

// FuzzParseDuration checks that Duration never panics, agrees with
// time.ParseDuration on text without a day count, and gives one of its two
// errors.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"30d", "1.5d", "30d12h", "-1d", "720h", "90m", "", "d", "1d2d", "1e3d", "106751d23h47m16.854775808s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Duration(s)
		if err != nil && !errors.Is(err, ErrDuration) && !errors.Is(err, ErrDurationRange) {
			t.Fatalf("Duration(%q) error %v: want ErrDuration or ErrDurationRange", s, err)
		}
		if !strings.Contains(s, "d") {
			want, werr := time.ParseDuration(s)
			if (err == nil) != (werr == nil) || (err == nil && got != want) {
				t.Fatalf("Duration(%q) = %v, %v; want time.ParseDuration's %v, %v", s, got, err, want, werr)
			}
		}
		if err == nil && !strings.HasPrefix(s, "-") && got < 0 {
			t.Fatalf("Duration(%q) = %v: negative without a minus sign", s, got)
		}
	})
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
	}{
		{"1e8", 1e8}, {"500M", 5e8}, {"500m", 5e8}, {"1.5B", 1.5e9}, {"2T", 2e12}, {"8k", 8000},
		{" 42 ", 42}, {"0", 0}, {"7000000000", 7e9},
	} {
		if got, err := Count(tc.in); err != nil || got != tc.want {
			t.Errorf("Count(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "M", "-1", "1e400", "1e308T", "NaN", "Inf", "5 M", "5MM", "0x10", "五"} {
		if got, err := Count(bad); err == nil {
			t.Errorf("Count(%q) = %v, want an error", bad, got)
		}
	}
}

// TestAmount holds a budget to the forms a user types: a plain decimal, or one
// after a currency sign as price lists write it; anything else, or no more than
// zero, is refused.
func TestAmount(t *testing.T) {
	for in, want := range map[string]string{"500": "500", "¥50": "50", "￥ 1200.50": "1200.5", "$2.49": "2.49", " 7 ": "7"} {
		got, err := Amount(in)
		if err != nil || got.String() != want {
			t.Errorf("Amount(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for in, want := range map[string]error{"50元": ErrAmount, "lots": ErrAmount, "1e3": ErrAmount, "¥": ErrAmount, "": ErrAmount, "0": ErrAmountPositive, "-5": ErrAmountPositive} {
		if _, err := Amount(in); !errors.Is(err, want) {
			t.Errorf("Amount(%q) error = %v, want %v", in, err, want)
		}
	}
}
