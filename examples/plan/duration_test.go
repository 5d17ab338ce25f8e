package main

import (
	"strings"
	"testing"
)

// TestDurationFlags checks that a day count on the command line plans the same
// as the hours it stands for.
func TestDurationFlags(t *testing.T) {
	for _, tc := range []struct {
		name       string
		days, hrs  []string
		wantInText string
	}{
		{"usage", []string{"-tokens", "0", "-usage", "30d", "-limit", "2"}, []string{"-tokens", "0", "-usage", "720h", "-limit", "2"}, "720h of rental (-usage)"},
		{"per-day", []string{"-per-day", "0.25d", "-days", "20", "-limit", "2"}, []string{"-per-day", "6h", "-days", "20", "-limit", "2"}, ""},
		{"deadline", []string{"-tokens", "2e9", "-task", "training", "-model", "llama-3-8b", "-deadline", "1d", "-limit", "2"},
			[]string{"-tokens", "2e9", "-task", "training", "-model", "llama-3-8b", "-deadline", "24h", "-limit", "2"}, "deadline 24h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := runArgs(tc.days...), runArgs(tc.hrs...)
			if a != b || a.code != exitOK {
				t.Errorf("run(%q) = %+v\nwant run(%q) = %+v, exit 0", tc.days, a, tc.hrs, b)
			}
			if !strings.Contains(a.stdout, tc.wantInText) {
				t.Errorf("run(%q) output lacks %q:\n%s", tc.days, tc.wantInText, a.stdout)
			}
		})
	}
}
