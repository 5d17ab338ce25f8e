package pricing

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// FuzzBillJSON reads an account and a session log as JSON and bills them: bad
// input is an error wrapping ErrInvalid (or ErrUnavailable from Bill), never a
// panic, and every invoice holds together and round-trips through its JSON.
func FuzzBillJSON(f *testing.F) {
	f.Add(`{"tariff":{"currency":"CNY","hourly":"18","daily":"300","monthly":"9000","granularity":"1m0s"},`+
		`"purchases":[{"package":"monthly","months":0,"start":"2026-01-01T00:00:00Z","gpus":2}],"tax_rate":"0.06",`+
		`"sla":{"availability":0.999,"credits":[{"below":0.999,"percent":"10"}]}}`,
		`[{"start":"2026-01-01T00:00:00Z","end":"2026-01-02T07:00:00Z","gpus":4}]`, int64(720))
	f.Add(`{"tariff":{"currency":"JPY","hourly":"1.3","minimum":"1h0m0s","terms":[{"months":3,"discount":"0.1"}],"monthly":"900"},`+
		`"purchases":[{"months":3,"start":"2025-12-31T00:00:00+08:00"}]}`,
		`[{"start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:00:07Z"}]`, int64(1))
	f.Add(`{"tariff":{}}`, `[]`, int64(-1))
	f.Fuzz(func(t *testing.T, account, sessions string, hours int64) {
		var a Account
		if err := json.Unmarshal([]byte(account), &a); err != nil {
			if !errors.Is(err, ErrInvalid) {
				var se *json.SyntaxError
				if !errors.As(err, &se) { // a syntax error at the top level is encoding/json's own
					t.Fatalf("Unmarshal(account) error = %v; want ErrInvalid", err)
				}
			}
			return
		}
		var used []Session
		if err := json.Unmarshal([]byte(sessions), &used); err != nil {
			return
		}
		to := jan.Add(time.Duration(hours%(24*400)) * time.Hour)
		inv, err := a.Bill(jan, to, used, nil)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Bill() error = %v; want ErrInvalid or ErrUnavailable", err)
			}
			return
		}
		checkInvoice(t, inv, a.Tariff.Currency)
		b, err := json.Marshal(inv)
		if err != nil {
			t.Fatal(err)
		}
		var back Invoice
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(Marshal(invoice)) error = %v\n%s", err, b)
		}
		if diff := cmp.Diff(inv, back); diff != "" {
			t.Fatalf("invoice round trip mismatch (-want +got):\n%s", diff)
		}
	})
}

// FuzzInvoiceJSON reads invoices: what reads back writes what it read.
func FuzzInvoiceJSON(f *testing.F) {
	f.Add(`{"schema_version":1,"from":"2026-01-01T00:00:00Z","to":"2026-01-31T00:00:00+08:00","lines":[` +
		`{"item":"hourly","unit":"hour","quantity":"0.466666667","price":{"amount":"18.00","currency":"CNY"},"amount":{"amount":"8.40","currency":"CNY"}}],` +
		`"subtotal":{"amount":"8.40","currency":"CNY"},"credit":{"amount":"0","currency":""},"tax":{"amount":"0.00","currency":"CNY"},"total":{"amount":"8.4","currency":"CNY"}}`)
	f.Add(`{"schema_version":2}`)
	f.Fuzz(func(t *testing.T, in string) {
		var inv Invoice
		if err := json.Unmarshal([]byte(in), &inv); err != nil {
			return
		}
		b, err := json.Marshal(inv)
		if err != nil {
			return // a time outside RFC 3339's years, which encoding/json refuses to write
		}
		var back Invoice
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(Marshal(%s)) error = %v\n%s", in, err, b)
		}
		if diff := cmp.Diff(inv, back); diff != "" {
			t.Fatalf("round trip mismatch (-want +got):\n%s", diff)
		}
	})
}
