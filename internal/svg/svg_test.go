package svg

import "testing"

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{1, 1}, {1.2, 2}, {3, 5}, {7, 10}, {17.3, 20}, {0.03, 0.05}, {250, 500}, {1000, 1000},
	} {
		if got := NiceStep(tc.in); got != tc.want {
			t.Errorf("NiceStep(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestEsc(t *testing.T) {
	if got, want := Esc(`A&B <"x">`), "A&amp;B &lt;&#34;x&#34;&gt;"; got != want {
		t.Errorf("Esc = %q, want %q", got, want)
	}
}
