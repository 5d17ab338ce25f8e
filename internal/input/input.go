// Package input reads the quantities the example commands and the web page take
// as text from a user: durations with a count of days in front ("30d12h"), and
// counts with a suffix for thousands to trillions ("500M"); and it holds the job
// both plan when the user says no more. It is shared so that a flag and a form
// field read the same text the same way and default to the same job.
package input

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	dec "github.com/shopspring/decimal"
)

// The job plan and the page plan when the user says no more: a LoRA fine-tune
// of Llama-2-7B in BF16, a micro-batch of 4 sequences of 2048 tokens per GPU
// on 1e8 training tokens (about a hundred thousand 1k-token examples); for
// inference one sequence at a time generating 1e6 tokens (a thousand answers
// of a thousand tokens); for a service, requests of 1000 prompt and 300 output
// tokens.
const (
	DefaultModel       = "llama-2-7b"
	DefaultTask        = "lora"
	DefaultPrecision   = "bf16"
	DefaultContext     = 2048
	DefaultTrainBatch  = 4
	DefaultTrainTokens = 1e8
	DefaultInferTokens = 1e6
	DefaultPrompt      = 1000
	DefaultOutput      = 300
)

// ErrDuration is the error for a duration Duration cannot read; a command puts
// the flag or field and the value in front of it.
var ErrDuration = errors.New("want a duration such as 720h, 90m or 30d (units ns, us, ms, s, m, h, and d for 24h)")

// ErrDurationRange is the message for a count of days past what time.Duration
// holds.
var ErrDurationRange = errors.New("out of range: at most about 106751d (292 years)")

// day is the length the "d" suffix stands for: 24 hours, as the rental tariffs
// count a day (pricing's daily package is 24 hours of use).
const day = 24 * time.Hour

// Duration reads a duration as a user types it on a command line or in a form. The grammar is Go's time.ParseDuration,
// with one addition: a leading count of days, a decimal number followed by "d",
// which may be followed by a Go duration:
//
//	duration = [ "+" | "-" ] ( days [ goduration ] | goduration )
//	days     = decimal "d"            (e.g. 30d, 1.5d, .5d)
//	decimal  = digits [ "." [ digits ] ] | "." digits
//
// so "30d", "1.5d" and "30d12h" are 720h, 36h and 732h. Days are converted
// exactly (1.5d is 36h), then cut to a whole nanosecond as time.ParseDuration
// does. A bad value is ErrDuration, and so is a Go duration past
// time.Duration's range (time.ParseDuration's errors do not tell the two apart);
// a value with days past the range is ErrDurationRange.
func Duration(s string) (time.Duration, error) {
	body, neg := s, false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body, neg = body[1:], body[0] == '-'
	}
	num := 0
	for num < len(body) && (body[num] == '.' || ('0' <= body[num] && body[num] <= '9')) {
		num++
	}
	if num == len(body) || body[num] != 'd' {
		// No day count: Go's own grammar, sign included.
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, ErrDuration // its errors do not tell overflow from bad syntax
		}
		return d, nil
	}
	days, ok := decimal(body[:num])
	if !ok {
		return 0, ErrDuration
	}
	var rest time.Duration
	if tail := body[num+1:]; tail != "" {
		if tail[0] == '+' || tail[0] == '-' {
			return 0, ErrDuration // one sign, in front
		}
		var err error
		if rest, err = time.ParseDuration(tail); err != nil {
			return 0, ErrDuration // a second day count ("1d2d") lands here too
		}
	}
	ns := new(big.Rat).Mul(days, new(big.Rat).SetInt64(int64(day)))
	whole := new(big.Int).Quo(ns.Num(), ns.Denom()) // toward zero; days ≥ 0
	if !whole.IsInt64() || whole.Int64() > math.MaxInt64-int64(rest) {
		return 0, ErrDurationRange
	}
	d := time.Duration(whole.Int64()) + rest
	if neg {
		d = -d
	}
	return d, nil
}

// decimal reads an unsigned decimal number without exponent: "30", "1.5",
// ".5", "2." (big.Rat's own SetString also takes fractions and exponents).
func decimal(s string) (*big.Rat, bool) {
	digits, dots := 0, 0
	for _, c := range s {
		switch {
		case c == '.':
			dots++
		case '0' <= c && c <= '9':
			digits++
		default:
			return nil, false
		}
	}
	if digits == 0 || dots > 1 {
		return nil, false
	}
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// Count reads a count as a user types it: a number (7000000000, 7e9, 1.5e9) or
// one with a suffix for thousands, millions, billions or trillions, either case
// (7B, 70b, 1.5B, 500M, 1.8T). It must be finite and not negative.
func Count(s string) (float64, error) {
	num, scale := strings.TrimSpace(s), 1.0
	if n := len(num); n > 0 {
		switch num[n-1] {
		case 'k', 'K':
			scale = 1e3
		case 'm', 'M':
			scale = 1e6
		case 'b', 'B':
			scale = 1e9
		case 't', 'T':
			scale = 1e12
		}
		if scale != 1 {
			num = num[:n-1]
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f*scale, 0) || f < 0 {
		return 0, fmt.Errorf("want a count such as 7B, 500M, 1.5e9 or 7000000000")
	}
	return f * scale, nil
}

// Amount reads an amount of money as a user types it, a budget: a plain
// decimal ("500", "1200.50"), after an optional currency sign (¥, ￥, $, €, £)
// and spaces, as price lists write prices ("¥500"). The currency is the
// caller's to give. It must be more than zero.
func Amount(s string) (dec.Decimal, error) {
	t := strings.TrimSpace(s)
	for _, sign := range []string{"¥", "￥", "$", "€", "£"} {
		if rest, ok := strings.CutPrefix(t, sign); ok {
			t = strings.TrimSpace(rest)
			break
		}
	}
	d, err := dec.NewFromString(t)
	if err != nil || strings.ContainsAny(t, "eE") || len(t) > 40 {
		return dec.Decimal{}, ErrAmount
	}
	if !d.IsPositive() {
		return dec.Decimal{}, ErrAmountPositive
	}
	return d, nil
}

// ErrAmount and ErrAmountPositive are Amount's errors; a command puts the flag
// or field and the value in front of them.
var (
	ErrAmount         = errors.New("not a decimal amount: write the number, such as 500 or ¥500")
	ErrAmountPositive = errors.New("want more than 0")
)
