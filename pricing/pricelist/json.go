package pricelist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
)

// ReadJSON reads a price list: a JSON array of offers, each as
// pricing.Offer.UnmarshalJSON reads it:
//
//	{"provider": "example-cloud", "region": "cn-hangzhou", "card": "RTX 4090",
//	 "max_gpus": 8, "tier": "T3", "support": "24x7", "interruptible": false,
//	 "interruptions_per_day": 0, "notes": "",
//	 "tariff": {"currency": "CNY", "hourly": "1.60", "daily": "35", "weekly": "",
//	            "monthly": "900", "hours_per_month": 730, "granularity": "1s",
//	            "minimum": "", "terms": [{"months": 3, "monthly": "850"}],
//	            "after_package": "hourly", "rounding": "half_up"}}
//
// Prices are JSON strings holding plain decimals (a JSON number is an error, so no
// price passes through a float); an empty or absent price is not offered.
// Durations use Go's syntax ("1s", "1m", "1h"); empty is the default. Every field
// but provider, card and the tariff's currency and one price may be left out.
// Unknown fields are errors. "gpus_per_instance" sets Offer.GPUsPerInstance. Every
// offer is validated (Offer.Validate); its currency must be an ISO 4217 code in use
// (pricing.KnownCurrency) and its tier, when given, a datacenter tier label
// (pricing.SiteAvailability reads it, or it has a "+" after one: "T3+"). Each
// offer's Line is the line its object starts on, whatever a "line" field says. The
// bounds and checks of ReadCSV apply: at most 32 MiB, refused early when the size
// is known, and UTF-8 only. Errors are *ParseError values with the line of the
// offending offer (or of the syntax error) and, where known, the field, wrapping
// pricing.ErrInvalid.
func ReadJSON(r io.Reader) ([]pricing.Offer, error) {
	return readJSON(r, "offers", false, func(raw json.RawMessage, line int) (pricing.Offer, error) {
		var o pricing.Offer
		if err := o.UnmarshalJSON(raw); err != nil {
			return o, err
		}
		o.Line = line
		if err := o.Validate(); err != nil {
			return o, err
		}
		return o, checkListed(o)
	})
}

// checkListed holds an offer read to what a price list must say beyond
// Validate: a currency ISO 4217 knows and a datacenter tier label (tierLabel).
func checkListed(o pricing.Offer) error {
	if err := knownCurrency(o.Tariff.Currency); err != nil {
		return &cellError{"tariff.currency", o.Tariff.Currency, err}
	}
	return checkTier("tier", o.Tier)
}

// checkTier refuses a tier that is not a datacenter tier label (tierLabel); ""
// says none. field names the column or field.
func checkTier(field, tier string) error {
	if tier != "" && !tierLabel(tier) {
		return &cellError{field, tier, invalidf("not a datacenter tier: want T1 to T4, Tier I to Tier IV, or T3+")}
	}
	return nil
}

// tierLabel reports whether a price list's tier is one a reader can take at its
// word: a label pricing.SiteAvailability reads, or one with a "+" after it ("T3+",
// as Chinese datacenters advertise a site built beyond Tier III without a Tier IV
// certification), which SiteAvailability does not read and the planner treats as
// a site of unknown availability.
func tierLabel(tier string) bool {
	_, ok := pricing.SiteAvailability(strings.TrimSuffix(strings.TrimSpace(text.FoldWidth(tier)), "+"))
	return ok
}

// readJSON reads a JSON array of offer objects (readList), handing each
// object's text and line to offer, which makes and checks its offer; what names the
// offers in messages. vast is vast.ai's form: numbers kept as text (json.Number),
// the array also as the "offers" of an object (its API's form), and what follows
// the array ignored.
func readJSON(r io.Reader, what string, vast bool,
	offer func(raw json.RawMessage, line int) (pricing.Offer, error)) ([]pricing.Offer, error) {
	data, err := readList(r)
	if err != nil {
		return nil, err
	}
	lines := lineCounter{data: data}
	dec := json.NewDecoder(bytes.NewReader(data))
	if vast {
		dec.UseNumber()
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, lines.parseError(dec.InputOffset(), fmt.Errorf("want a JSON array of %s: %w", what, err))
	}
	if d, ok := tok.(json.Delim); vast && ok && d == '{' {
		// The API's form: {"offers": [...]}, other keys ignored.
		for {
			if !dec.More() {
				return nil, lines.parseError(0, fmt.Errorf("a JSON object without \"offers\": want vast.ai's offers"))
			}
			key, err := dec.Token()
			if err != nil {
				return nil, lines.parseError(dec.InputOffset(), err)
			}
			if key == "offers" {
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, lines.parseError(dec.InputOffset(), err)
			}
		}
		if tok, err = dec.Token(); err != nil {
			return nil, lines.parseError(dec.InputOffset(), &cellError{"offers", "", err})
		}
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, lines.parseError(0, fmt.Errorf("want a JSON array of %s", what))
	}
	var out []pricing.Offer
	for dec.More() {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, lines.parseError(start, err)
		}
		if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
			return nil, lines.parseError(start, fmt.Errorf("offer %d: want a JSON object, got %s", len(out)+1, jsonKind(t)))
		}
		o, err := offer(raw, lines.at(start))
		if err != nil {
			return nil, lines.parseError(start, err)
		}
		out = append(out, o)
	}
	if _, err := dec.Token(); err != nil {
		return nil, lines.parseError(dec.InputOffset(), fmt.Errorf("unterminated array: %w", err))
	}
	if _, err := dec.Token(); !vast && err != io.EOF {
		return nil, lines.parseError(dec.InputOffset(), fmt.Errorf("data after the array"))
	}
	return nonNil(out), nil
}

// lineCounter gives the 1-based line of offsets into data, counting newlines
// from the last offset asked when offsets come in ascending order, so that the
// lines of a whole list cost one pass over it.
type lineCounter struct {
	data []byte
	off  int64 // offset counted up to
	line int   // newlines before off
}

// at returns the line of the first non-space byte at or after off.
func (c *lineCounter) at(off int64) int {
	n := int64(len(c.data))
	off = min(max(off, 0), n)
	for off < n && strings.IndexByte(" \t\r\n,", c.data[off]) >= 0 {
		off++
	}
	if off < c.off {
		c.off, c.line = 0, 0
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return 1 + c.line
}

// parseError is parseErr for err met at byte offset off of a JSON list: at the
// line of off, or of the offset of a JSON syntax error that err wraps.
func (c *lineCounter) parseError(off int64, err error) *ParseError {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	return parseErr(c.at(off), "", "", err, nil)
}

// jsonKind names the kind of JSON value raw starts with, for messages.
func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
