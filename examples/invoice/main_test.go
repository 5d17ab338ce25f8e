package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	args := []string{"-account", "testdata/account.json", "-sessions", "testdata/sessions.csv", "-outages", "testdata/outages.csv",
		"-from", "2026-01-01T00:00:00Z", "-to", "2026-02-01T00:00:00Z"}
	var text, j, zh bytes.Buffer
	if err := run(&text, args, msg.EN); err != nil {
		t.Fatal(err)
	}
	if err := run(&zh, args, msg.ZH); err != nil { // a zh locale, as main would hand it
		t.Fatal(err)
	}
	if err := run(&j, append(args, "-json"), msg.EN); err != nil {
		t.Fatal(err)
	}
	// -o writes to the file what would be printed.
	file := filepath.Join(t.TempDir(), "invoice.json")
	var none bytes.Buffer
	if err := run(&none, append(args, "-json", "-o", file), msg.EN); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, j.Bytes()) || none.Len() != 0 {
		t.Errorf("-json -o wrote %q to the file (%v) and %q to stdout; want the JSON in the file only", b, err, none.String())
	}
	for golden, got := range map[string][]byte{"testdata/invoice.golden": text.Bytes(), "testdata/invoice.golden.json": j.Bytes(),
		"testdata/invoice_zh.golden": zh.Bytes()} {
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("run(%q) output differs from %s:\ngot:\n%s\nwant:\n%s", args, golden, got, want)
		}
	}
}

// Each error names the flag and, for a log, the file line at fault; a time that
// cannot be read shows an example of the forms read, never Go's reference layout.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.csv", "start,end,gpus\n2026-01-01T01:00:00Z,2026-01-01T02:00:00Z,1\n2026-01-02T00:00:00Z,2026-01-01T00:00:00Z,1\n")
	badTime := write("badtime.csv", "开始,结束,卡数\n2026-01-01 01:00,soon,1\n")
	noEnd := write("noend.csv", "start,gpus\n2026-01-01,1\n")
	badGPUs := write("badgpus.csv", "2026-01-01,2026-01-02,four\n")
	badRate := write("rate.json", `{"tariff": {"currency": "CNY", "hourly": "18"}, "tax_rate": "six%"}`)
	base := []string{"-account", "testdata/account.json", "-from", "2026-01-01", "-to", "2026-02-01"}
	with := func(more ...string) []string { return append(append([]string{}, base...), more...) }
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"session ends before it starts", with("-sessions", bad), false, "-sessions " + bad + " line 3: pricing: session 1: ends at"},
		{"a time that is not one", with("-sessions", badTime), false, "-sessions " + badTime + ` line 2: end "soon": want a date such as 2026-01-15, a time such as 2026-01-15 02:00`},
		{"no end column", with("-sessions", noEnd), false, "line 1: no end column in the header (want end or 结束 or 结束时间)"},
		{"GPUs not a number", with("-sessions", badGPUs), false, `line 1: gpus "four": want a whole number`},
		{"tax rate", []string{"-account", badRate, "-sessions", "testdata/sessions.csv", "-from", "2026-01-01", "-to", "2026-02-01"}, false, `tax_rate "six%": want a fraction such as 0.06 or a percentage such as 6%`},
		{"no sessions flag", base, true, "-sessions: give the session log"},
		{"bad period", with("-to", "soon", "-sessions", "testdata/sessions.csv"), true, `-to "soon": want a date such as 2026-01-15`},
		{"bad zone", with("-tz", "Mars/Olympus", "-sessions", "testdata/sessions.csv"), true, `-tz "Mars/Olympus": want an IANA zone`},
		{"missing file", with("-sessions", filepath.Join(dir, "none.csv")), true, "none.csv: cannot open"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(&bytes.Buffer{}, tc.args, msg.EN)
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, cli.ErrUsage) != tc.usage {
				t.Errorf("run(%q) error = %v; want one naming %q (a usage error: %v)", tc.args, err, tc.want, tc.usage)
			}
			if err != nil && strings.Contains(err.Error(), "2006") {
				t.Errorf("run(%q) error %v shows Go's reference layout", tc.args, err)
			}
		})
	}
}

// A log with Chinese headings in another order, plain dates and times without a
// zone in the zone -tz names, a tax rate as a percentage and a package by its
// Chinese name bill as the canonical files do: the same total, the period printed
// in that zone.
func TestChineseInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// testdata/sessions.csv, eight hours ahead and written as a Chinese spreadsheet would.
	sessions := write("会话.csv", "\ufeff卡数,开始,结束\n1,2026-01-01 06:00,2026-01-01 14:30\n4,2026-01-01 08:00,2026-01-31 18:07\n"+
		"2,2026-01-10 16:00,2026-01-11 04:00\n8,2026-01-20 17:00,2026-01-20 17:00:24\n1,2026-02-01 07:30,2026-02-01 09:00\n")
	account := write("account.json", `{"tariff": {"currency": "CNY", "hourly": "18", "daily": "300", "monthly": "9000", "granularity": "1m0s"},
 "purchases": [{"package": "包月", "start": "2026-01-01T08:00:00+08:00", "gpus": 2},
               {"package": "包天", "start": "2026-01-10T08:00:00+08:00", "gpus": 4},
               {"package": "daily", "start": "2025-12-31T20:00:00+08:00", "gpus": 1}],
 "tax_rate": "6%",
 "sla": {"availability": 0.999, "credits": [{"below": 0.999, "percent": "10"}, {"below": 0.99, "percent": "25"}]}}`)
	args := []string{"-account", account, "-sessions", sessions, "-outages", "testdata/outages.csv", "-from", "2026-01-01 08:00", "-to", "2026-02-01 08:00", "-tz", "Asia/Shanghai"}
	var out bytes.Buffer
	if err := run(&out, args, msg.EN); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Invoice for 2026-01-01 08:00 to 2026-02-01 08:00 (Asia/Shanghai)",
		"total                                          42488.11", // as testdata/invoice.golden
		"line 3: 4 GPUs from 2026-01-01 08:00",
		"Availability: 99.865% reached (2 outages); SLA 99.9% promised: the tier below 99.9%",
		"the monthly package bought 2026-01-01 08:00 covers 730 h, and the calendar month from its\n  start has 744 h: its last 14h, from 2026-01-31 18:00",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// Without -tz the zone is the one -from states.
	out.Reset()
	if err := run(&out, append(args[:8], "-from", "2026-01-01T08:00:00+08:00", "-to", "2026-02-01"), msg.EN); err != nil {
		t.Fatal(err)
	}
	if want := "Invoice for 2026-01-01 08:00 to 2026-02-01 00:00 (UTC+08:00)"; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// -h prints what the command does, its exit statuses and every flag, as the other
// commands do, and a bad flag prints nothing to standard output.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}, msg.EN); err != flag.ErrHelp {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	for _, want := range []string{"Usage: invoice -account FILE", "Exit status: 0", "2 usage error", "-sessions string"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h text lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(&out, []string{"-bogus"}, msg.EN); err == nil || out.Len() != 0 {
		t.Errorf("run(-bogus) = %v with %q on standard output, want an error and nothing written", err, out.String())
	}
}

// TestChecksByHand reads the printed invoice as a customer checking it would:
// each line's quantity times its price is its amount, and the lines above the
// subtotal add up to it (the credit and the tax, percentages of the subtotal,
// come under it). Quantities of GPU-time print as hours and minutes: 1406.97 h
// at ¥18 would be ¥25325.46, not the ¥25325.40 billed for 1406 h 58 min.
func TestChecksByHand(t *testing.T) {
	args := []string{"-account", "testdata/account.json", "-sessions", "testdata/sessions.csv", "-outages", "testdata/outages.csv",
		"-from", "2026-01-01T00:00:00Z", "-to", "2026-02-01T00:00:00Z"}
	var out bytes.Buffer
	if err := run(&out, args, msg.EN); err != nil {
		t.Fatal(err)
	}
	hm := regexp.MustCompile(`^(?:(\d+) h)? ?(?:(\d+) min)? ?(?:(\d+) s)?$`)
	row := regexp.MustCompile(`^  (\w+) +(.+?)  +(month|day|hour) +([\d.]+) +([\d.]+)`)
	sum, lines := decimal.Zero, 0
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "  subtotal") {
			if got := strings.Fields(l)[1]; !decimal.RequireFromString(got).Equal(sum) || lines == 0 {
				t.Errorf("subtotal %s, want the sum of the %d lines above it, %s:\n%s", got, lines, sum.StringFixed(2), out.String())
			}
			return
		}
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		lines++
		qty, err := decimal.NewFromString(m[2])
		if m[3] == "hour" {
			d := hm.FindStringSubmatch(m[2])
			if d == nil || m[2] == "" {
				t.Errorf("line %q: quantity %q is not hours and minutes", l, m[2])
				continue
			}
			secs := int64(0)
			for i, unit := range []int64{3600, 60, 1} {
				if d[i+1] != "" {
					n, _ := strconv.ParseInt(d[i+1], 10, 64)
					secs += n * unit
				}
			}
			qty, err = decimal.NewFromInt(secs).DivRound(decimal.NewFromInt(3600), 12), nil
		}
		if err != nil {
			t.Fatalf("line %q: quantity %q: %v", l, m[2], err)
		}
		price, amount := decimal.RequireFromString(m[4]), decimal.RequireFromString(m[5])
		if got := qty.Mul(price).Round(2); !got.Equal(amount) {
			t.Errorf("line %q: %s × %s = %s, not the amount %s", l, m[2], m[4], got.StringFixed(2), m[5])
		}
		sum = sum.Add(amount)
	}
	t.Fatalf("no subtotal in:\n%s", out.String())
}
