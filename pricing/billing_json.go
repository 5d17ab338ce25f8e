package pricing

import (
	"fmt"
	"time"
)

// MarshalText writes "daily", "weekly" or "monthly", and "" for the zero Package
// (a Purchase of a term).
func (p Package) MarshalText() ([]byte, error) {
	switch p {
	case 0:
		return []byte{}, nil
	case Daily, Weekly, Monthly:
		return []byte(p.String()), nil
	}
	return nil, fmt.Errorf("pricing: unknown package %d: %w", int(p), ErrInvalid)
}

// UnmarshalText reads what MarshalText writes.
func (p *Package) UnmarshalText(b []byte) error {
	for _, c := range [...]Package{0, Daily, Weekly, Monthly} {
		if t, _ := c.MarshalText(); string(t) == string(b) {
			*p = c
			return nil
		}
	}
	return invalid("package", "%s: want daily, weekly or monthly, or empty for a term", quote(string(b)))
}

// UnmarshalJSON reads a session strictly; unknown fields are errors wrapping ErrInvalid.
func (s *Session) UnmarshalJSON(b []byte) error {
	type plain Session
	return strictUnmarshal(b, (*plain)(s))
}

// UnmarshalJSON reads a purchase strictly; unknown fields are errors wrapping ErrInvalid.
func (p *Purchase) UnmarshalJSON(b []byte) error {
	type plain Purchase
	return strictUnmarshal(b, (*plain)(p))
}

// UnmarshalJSON reads an outage strictly; unknown fields are errors wrapping ErrInvalid.
func (o *Outage) UnmarshalJSON(b []byte) error {
	type plain Outage
	return strictUnmarshal(b, (*plain)(o))
}

// UnmarshalJSON reads an SLA strictly; unknown fields are errors wrapping ErrInvalid.
func (s *SLA) UnmarshalJSON(b []byte) error {
	type plain SLA
	return strictUnmarshal(b, (*plain)(s))
}

type creditWire struct {
	Below   float64 `json:"below"`
	Percent string  `json:"percent"`
}

// MarshalJSON writes {"below":0.999,"percent":"10"}, the percent exactly whatever
// decimal's package settings are.
func (c Credit) MarshalJSON() ([]byte, error) {
	pct, err := jsonDecimal("percent", c.Percent, 0)
	if err != nil {
		return nil, err
	}
	return jsonMarshal(creditWire{c.Below, pct})
}

// UnmarshalJSON reads what MarshalJSON writes; unknown fields and a percent that
// is not a plain decimal string are errors wrapping ErrInvalid.
func (c *Credit) UnmarshalJSON(b []byte) error {
	var w creditWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	d, err := parseDecimal(w.Percent, false)
	if err != nil {
		return &FieldError{Field: "percent", Err: err}
	}
	*c = Credit{Below: w.Below, Percent: d}
	return nil
}

type accountWire struct {
	Tariff    Tariff     `json:"tariff"`
	Purchases []Purchase `json:"purchases"`
	TaxRate   string     `json:"tax_rate"`
	SLA       SLA        `json:"sla"`
}

// MarshalJSON writes
//
//	{"tariff":{...},"purchases":[{"package":"monthly","months":0,
//	 "start":"2026-01-01T00:00:00Z","gpus":1}],"tax_rate":"0.06",
//	 "sla":{"availability":0.999,"credits":[{"below":0.999,"percent":"10"}]}}
//
// with the tariff as Tariff.MarshalJSON writes it and the tax rate an exact
// decimal string, "" for none.
func (a Account) MarshalJSON() ([]byte, error) {
	rate, err := offered("tax_rate", a.TaxRate)
	if err != nil {
		return nil, err
	}
	return jsonMarshal(accountWire{a.Tariff, nonNil(a.Purchases), rate, a.SLA})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly: unknown fields anywhere,
// numbers for decimals and malformed times are errors wrapping ErrInvalid. It
// does not validate; Bill does.
func (a *Account) UnmarshalJSON(b []byte) error {
	var w accountWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	rate, err := priceField("tax_rate", w.TaxRate)
	if err != nil {
		return err
	}
	*a = Account{Tariff: w.Tariff, Purchases: w.Purchases, TaxRate: rate, SLA: w.SLA}
	return nil
}

type invoiceWire struct {
	SchemaVersion int       `json:"schema_version"`
	From          time.Time `json:"from"`
	To            time.Time `json:"to"`
	Lines         []Line    `json:"lines"`
	Subtotal      Money     `json:"subtotal"`
	Credit        Money     `json:"credit"`
	Tax           Money     `json:"tax"`
	Total         Money     `json:"total"`
}

// MarshalJSON writes the invoice as its doc comment shows, with
// "schema_version":InvoiceSchemaVersion, whatever decimal's package settings are.
func (inv Invoice) MarshalJSON() ([]byte, error) {
	return jsonMarshal(invoiceWire{InvoiceSchemaVersion, inv.From, inv.To, nonNil(inv.Lines),
		inv.Subtotal, inv.Credit, inv.Tax, inv.Total})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly: unknown fields, another
// schema version, numbers for amounts and malformed times are errors wrapping
// ErrInvalid. Times are read into UTC; Lines is never nil.
func (inv *Invoice) UnmarshalJSON(b []byte) error {
	var w invoiceWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	if w.SchemaVersion != InvoiceSchemaVersion {
		return invalid("schema_version", "%d: want %d", w.SchemaVersion, InvoiceSchemaVersion)
	}
	*inv = Invoice{From: w.From.UTC(), To: w.To.UTC(), Lines: nonNil(w.Lines),
		Subtotal: w.Subtotal, Credit: w.Credit, Tax: w.Tax, Total: w.Total}
	return nil
}

// nonNil returns s, or an empty slice for nil, which JSON writes as [], not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
