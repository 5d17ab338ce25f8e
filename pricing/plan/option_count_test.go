package plan

import "testing"

// An expected count of interruptions is written to two significant figures, and
// a small one never as "0.0".
func TestAboutCount(t *testing.T) {
	for x, want := range map[float64]string{0.004: "under 0.01", 0.04: "about 0.04", 0.43: "about 0.43", 1.25: "about 1.2", 37.6: "about 38"} {
		if got := aboutCount(x); got != want {
			t.Errorf("aboutCount(%g) = %q, want %q", x, got, want)
		}
	}
}
