package pricelist

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
)

// TestMessages pins the text of errors people read: the package named once at the
// start, where the problem is, the input quoted once, the reason in words and the
// sentinel's text last; the field comes from pricing's *FieldError where a rule
// of pricing failed.
func TestMessages(t *testing.T) {
	csvRead := func(s string) error { _, err := ReadCSV(strings.NewReader(s)); return err }
	jsonRead := func(s string) error { _, err := ReadJSON(strings.NewReader(s)); return err }
	tests := []struct {
		name  string
		err   error
		field bool // wraps a *pricing.FieldError
		want  string
	}{
		{"csv bad price", csvRead("provider,card,currency,hourly\nacme,RTX 4090,CNY,abc\n"), false,
			`pricelist: line 2, field hourly, input "abc": not a plain decimal such as 12.50: invalid input`},
		{"csv negative price", csvRead("provider,card,currency,hourly\nacme,RTX 4090,CNY,-1\n"), true,
			`pricelist: line 2, field hourly: price -1 is negative: invalid input`},
		{"csv missing column", csvRead("provider,card,hourly\n"), false,
			`pricelist: line 1, field currency: column missing from the header: add one, with an ISO 4217 code such as CNY or USD in each row (a list with Chinese headings is in CNY without it): invalid input`},
		// A decimal comma, as European lists write prices: the form to write
		// instead, not only the rule broken.
		{"csv decimal comma", csvRead("provider,card,currency,hourly\nacme,RTX 4090,EUR,\"1,60\"\n"), false,
			`pricelist: line 2, field hourly, input "1,60": not a price: commas must group thousands (1,200.50); for a decimal, write a point: 1.60: invalid input`},
		{"csv stray comma", csvRead("provider,card,currency,hourly\nacme,RTX 4090,EUR,\"1,6,0\"\n"), false,
			`pricelist: line 2, field hourly, input "1,6,0": not a price: commas must group thousands (1,200.50): invalid input`},
		{"json number price", jsonRead(`[{"provider":"acme","card":"RTX 4090","tariff":{"currency":"CNY","hourly":1.5}}]`), true,
			`pricelist: line 1, field tariff.hourly: want a JSON string, got number: invalid input`},
		{"json bad rounding", jsonRead(`[{"provider":"acme","card":"RTX 4090","tariff":{"currency":"CNY","hourly":"1","rounding":"up"}}]`), true,
			`pricelist: line 1, field tariff.rounding: "up": want half_up or half_even: invalid input`},
		{"read names the format", func() error {
			_, _, err := Read(strings.NewReader("provider,card,currency,hourly\na,x,RMB,1\n"))
			return err
		}(), false,
			`pricelist: read as csv: line 2, field currency, input "RMB": not an ISO 4217 code; write CNY: invalid input`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatalf("error = nil, want %q", tt.want)
			}
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			var pe *ParseError
			if !errors.Is(tt.err, pricing.ErrInvalid) || !errors.As(tt.err, &pe) {
				t.Errorf("%v: want a *ParseError wrapping pricing.ErrInvalid", tt.err)
			}
			var fe *pricing.FieldError
			if got := errors.As(tt.err, &fe); got != tt.field {
				t.Errorf("errors.As(*pricing.FieldError) = %v, want %v", got, tt.field)
			}
		})
	}
}
