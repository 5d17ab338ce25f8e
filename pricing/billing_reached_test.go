package pricing

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// Reached counts overlapping outages once: 02:00–02:40 and 02:30–03:00 are an
// hour down in a 744-hour January, 99.866% up, under 99.9% and over 99%: the
// 10% tier.
func TestSLAReached(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 1, 15, h, m, 0, 0, time.UTC) }
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	sla := SLA{Availability: 0.999, Credits: []Credit{{Below: 0.999, Percent: decimal.New(10, 0)}, {Below: 0.99, Percent: decimal.New(25, 0)}}}
	up, pct := sla.Reached(from, to, []Outage{{at(2, 0), at(2, 40)}, {at(2, 30), at(3, 0)}})
	if want := 1 - 1.0/744; up != want || !pct.Equal(decimal.New(10, 0)) {
		t.Errorf("Reached = %v, %v%%; want %v, 10%%", up, pct, want)
	}
	if up, pct := sla.Reached(from, to, nil); up != 1 || !pct.IsZero() {
		t.Errorf("Reached without outages = %v, %v%%; want 1, no credit", up, pct)
	}
}
