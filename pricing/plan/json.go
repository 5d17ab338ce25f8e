package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// JSON follows the project's convention: durations are strings in Go's syntax
// ("12h0m0s") under keys without a unit suffix, decimals exact strings written
// without decimal's package settings, and input types reject unknown fields.

type requestPlain Request // Request without its methods

type requestWire struct {
	*requestPlain
	Usage           string `json:"usage"`
	Deadline        string `json:"deadline"`
	Checkpoint      string `json:"checkpoint"`
	Restart         string `json:"restart"`
	MarketThreshold string `json:"market_threshold"`
}

// MarshalJSON writes the request with its durations in Go's syntax and the
// market threshold as an exact decimal string.
func (r Request) MarshalJSON() ([]byte, error) {
	p := requestPlain(r)
	return json.Marshal(requestWire{&p, r.Usage.String(), r.Deadline.String(), r.Checkpoint.String(),
		r.Restart.String(), exactDecimal(r.MarketThreshold)})
}

// UnmarshalJSON reads what MarshalJSON writes, rejecting unknown fields; empty
// durations and threshold are zero. It does not validate: Plan does.
func (r *Request) UnmarshalJSON(b []byte) error {
	var p requestPlain
	w := requestWire{requestPlain: &p}
	if err := decodeStrict("request", b, &w); err != nil {
		return err
	}
	var err error
	for _, d := range []durationField{{"usage", w.Usage, &p.Usage}, {"deadline", w.Deadline, &p.Deadline},
		{"checkpoint", w.Checkpoint, &p.Checkpoint}, {"restart", w.Restart, &p.Restart}} {
		if *d.out, err = parseDuration(d.name, d.in); err != nil {
			return err
		}
	}
	if w.MarketThreshold != "" {
		p.MarketThreshold, err = decimal.NewFromString(w.MarketThreshold)
		if err != nil || len(w.MarketThreshold) > 40 {
			return fmt.Errorf("plan: request: market_threshold %q: want a decimal such as 0.3: %w", excerpt(w.MarketThreshold), pricing.ErrInvalid)
		}
	}
	*r = Request(p)
	return nil
}

// decodeStrict decodes b into v, rejecting unknown fields. Its error names what
// was read and wraps pricing.ErrInvalid; an error a nested UnmarshalJSON returned
// (a Traffic's, a Money's) already does, and is returned as it is, and one of
// sizing's or compute's (a Model's, a Workload's, a Speculation's), which says
// "invalid input" already, is marked invalid (invalidError) rather than said so
// twice; a value of the wrong JSON type is said in JSON's words (text.JSONReason).
func decodeStrict(what string, b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	switch {
	case err == nil || errors.Is(err, pricing.ErrInvalid):
		return err
	case errors.Is(err, sizing.ErrInvalid) || errors.Is(err, compute.ErrInvalid):
		return fmt.Errorf("plan: %s: %w", what, invalid(err))
	case errors.As(err, new(*json.UnmarshalTypeError)):
		return fmt.Errorf("plan: %s: %s: %w", what, text.JSONReason(err, 200), pricing.ErrInvalid)
	}
	return fmt.Errorf("plan: %s: %w: %w", what, text.CutError(err, 200), pricing.ErrInvalid)
}

type optionPlain Option

type optionWire struct {
	*optionPlain
	Duration     string `json:"duration"`
	DurationLow  string `json:"duration_low"`
	DurationHigh string `json:"duration_high"`
	TimeLost     string `json:"time_lost"`
	// A job's option has no per-hour and per-million figures: left out.
	PerHour    *pricing.Money `json:"per_hour,omitempty"`
	PerMillion *pricing.Money `json:"per_million,omitempty"`
}

// MarshalJSON writes the option with its durations in Go's syntax.
func (o Option) MarshalJSON() ([]byte, error) {
	p := optionPlain(o)
	w := optionWire{optionPlain: &p, Duration: o.Duration.String(), DurationLow: o.DurationLow.String(),
		DurationHigh: o.DurationHigh.String(), TimeLost: o.TimeLost.String()}
	if o.Serving != nil {
		w.PerHour, w.PerMillion = &o.PerHour, &o.PerMillion
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes, rejecting unknown fields.
func (o *Option) UnmarshalJSON(b []byte) error {
	var p optionPlain
	w := optionWire{optionPlain: &p, PerHour: &p.PerHour, PerMillion: &p.PerMillion} // read in place
	if err := decodeStrict("option", b, &w); err != nil {
		return err
	}
	var err error
	for _, d := range []durationField{{"duration", w.Duration, &p.Duration},
		{"duration_low", w.DurationLow, &p.DurationLow}, {"duration_high", w.DurationHigh, &p.DurationHigh},
		{"time_lost", w.TimeLost, &p.TimeLost}} {
		if *d.out, err = parseDuration(d.name, d.in); err != nil {
			return err
		}
	}
	*o = Option(p)
	return nil
}

// durationField is a duration's JSON key, its text, and where it is read into.
type durationField struct {
	name, in string
	out      *time.Duration
}

func parseDuration(name, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("plan: %s %q: want a duration such as 12h or 90m: %w", name, excerpt(s), pricing.ErrInvalid)
	}
	return d, nil
}

// exactDecimal writes d exactly, whatever decimal's package settings; "0" for zero.
func exactDecimal(d decimal.Decimal) string {
	if d.IsZero() {
		return "0"
	}
	if e := d.Exponent(); e < -60 || e > 60 {
		return d.Coefficient().String() + "e" + fmt.Sprint(e)
	}
	return d.String()
}

// excerpt shortens an input quoted in a message to at most 32 runes.
func excerpt(s string) string {
	if r := []rune(s); len(r) > 32 {
		return string(r[:32]) + "…"
	}
	return s
}
