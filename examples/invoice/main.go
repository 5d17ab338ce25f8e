// Command invoice bills what an account used in a period, as a provider's billing
// system would with pricing.Account.Bill: it reads the account (its tariff, the
// packages it bought, its tax rate and SLA) as JSON, a CSV log of sessions and,
// optionally, a CSV log of outages, prints the invoice and writes its JSON.
//
//	go run ./examples/invoice -account testdata/account.json -sessions testdata/sessions.csv \
//	    -outages testdata/outages.csv -from 2026-01-01T00:00:00Z -to 2026-02-01T00:00:00Z
//	go run ./examples/invoice ... -json -o invoice.json
//
// The account file is what pricing.Account's UnmarshalJSON reads:
//
//	{"tariff": {"currency": "CNY", "hourly": "18", "daily": "300", "monthly": "9000",
//	            "granularity": "1m0s"},
//	 "purchases": [{"package": "monthly", "start": "2026-01-01T00:00:00Z", "gpus": 2}],
//	 "tax_rate": "0.06",
//	 "sla": {"availability": 0.999, "credits": [{"below": 0.999, "percent": "10"}]}}
//
// The session log has one session a line, "start,end,gpus", times in RFC 3339 and
// an optional header line; the outage log "start,end". The invoice also shows
// what the purchases cost as bought (pricing.Tariff.PriceBasket).
//
// -json prints the invoice as JSON instead of the text, and nothing else; -o
// FILE writes what would be printed to FILE.
//
// Exit status: 0 when the invoice is printed, 1 when the input is invalid or a
// file cannot be written, 2 for a usage error (a file a flag names that cannot be
// opened included).
package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/pricing"
)

func main() {
	os.Exit(cli.Exit("invoice", run(os.Stdout, os.Args[1:]), os.Stderr))
}

const usageHeader = `Usage: invoice -account FILE -sessions FILE -from TIME -to TIME [flags]

Bills what an account used in a period, as a provider's billing system would:
the account (tariff, purchases, tax rate, SLA) as JSON, a CSV log of sessions
(start,end,gpus) and optionally of outages (start,end), times in RFC 3339. It
prints the invoice; -json prints it as JSON, -o FILE writes it to FILE.

Exit status: 0 invoice printed (or -h); 1 the input is invalid, or the -o file
cannot be written; 2 usage error (a bad flag, or a file that cannot be opened).

Flags:
`

// run is the command: it writes the invoice (or the -h text) to w.
func run(w io.Writer, args []string) error {
	fs := cli.FlagSet("invoice")
	account := fs.String("account", "", "the account as JSON: tariff, purchases, tax_rate, sla (required)")
	sessions := fs.String("sessions", "", "the session log as CSV: start,end,gpus (required)")
	outages := fs.String("outages", "", "the outage log as CSV: start,end (optional)")
	from := fs.String("from", "", "the start of the period, RFC 3339 (required)")
	to := fs.String("to", "", "the end of the period, RFC 3339, exclusive (required)")
	asJSON := fs.Bool("json", false, "print the invoice as JSON on standard output, and nothing else, in place of the text")
	out := fs.String("o", "", "write the invoice (text, or JSON with -json) to this `file` instead of standard output")
	if _, err := cli.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			cli.Usage(w, fs, usageHeader)
		}
		return err
	}
	return cli.To(w, *out, func(w io.Writer) error {
		err := bill(w, *account, *sessions, *outages, *from, *to, *asJSON)
		if *asJSON {
			return cli.FailJSON(w, err, nil)
		}
		return err
	})
}

// bill reads the files, bills the period and prints the invoice, as text or JSON.
func bill(w io.Writer, account, sessions, outages, from, to string, asJSON bool) error {
	if account == "" || sessions == "" || from == "" || to == "" {
		return cli.Usagef("give -account, -sessions, -from and -to")
	}
	start, err := time.Parse(time.RFC3339, from)
	if err != nil {
		return cli.Usagef("-from: %v", err)
	}
	end, err := time.Parse(time.RFC3339, to)
	if err != nil {
		return cli.Usagef("-to: %v", err)
	}
	b, err := cli.ReadFile("account", account)
	if err != nil {
		return err
	}
	var acct pricing.Account
	if err := json.Unmarshal(b, &acct); err != nil {
		return fmt.Errorf("%s: %w", account, err)
	}
	used, err := readLog("sessions", sessions, 3)
	if err != nil {
		return err
	}
	var down [][3]string
	if outages != "" {
		if down, err = readLog("outages", outages, 2); err != nil {
			return err
		}
	}
	ss := make([]pricing.Session, len(used))
	for i, r := range used {
		if ss[i].Start, ss[i].End, err = times(r); err == nil {
			ss[i].GPUs, err = strconv.Atoi(r[2])
		}
		if err != nil {
			return fmt.Errorf("%s: session %d: %v", sessions, i, err)
		}
	}
	outs := make([]pricing.Outage, len(down))
	for i, r := range down {
		if outs[i].Start, outs[i].End, err = times(r); err != nil {
			return fmt.Errorf("%s: outage %d: %v", outages, i, err)
		}
	}
	inv, err := acct.Bill(start, end, ss, outs)
	if err != nil {
		return err
	}
	basket, err := acct.Tariff.PriceBasket(acct.Purchases)
	if err != nil {
		return err
	}
	if asJSON {
		return cli.WriteJSON(w, inv)
	}
	return printInvoice(w, inv, basket)
}

// readLog reads a CSV log of records of n fields, skipping a header line whose
// first field is "start".
func readLog(flag, path string, n int) ([][3]string, error) {
	f, err := cli.Open(flag, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = n
	r.TrimLeadingSpace = true
	var out [][3]string
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if line == 1 && strings.EqualFold(rec[0], "start") {
			continue
		}
		var row [3]string
		copy(row[:], rec)
		out = append(out, row)
	}
}

func times(r [3]string) (time.Time, time.Time, error) {
	s, err := time.Parse(time.RFC3339Nano, r[0])
	if err != nil {
		return s, s, err
	}
	e, err := time.Parse(time.RFC3339Nano, r[1])
	return s, e, err
}

// printInvoice writes the invoice as a table, then what the purchases cost as
// bought.
func printInvoice(w io.Writer, inv pricing.Invoice, basket pricing.Quote) error {
	fmt.Fprintf(w, "Invoice for %s to %s\n\n", inv.From.Format(time.RFC3339), inv.To.Format(time.RFC3339))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "item\tquantity\tunit\tprice\tamount\t\n")
	for _, l := range inv.Lines {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", l.Item, l.Quantity.String(), l.Unit, l.Price.Amount.String(), l.Amount)
	}
	fmt.Fprintf(tw, "subtotal\t\t\t\t%s\t\n", inv.Subtotal)
	fmt.Fprintf(tw, "credit\t\t\t\t%s\t\n", inv.Credit)
	fmt.Fprintf(tw, "tax\t\t\t\t%s\t\n", inv.Tax)
	fmt.Fprintf(tw, "total\t\t\t\t%s\t\n", inv.Total)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nPackages as bought (all periods): %s\n", basket.Total)
	return err
}
