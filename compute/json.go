package compute

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// JSON: durations are written as Go duration strings ("10h28m39s") under keys
// without a unit suffix, the rest as the struct tags say; reading rejects unknown
// fields and malformed durations with errors wrapping ErrInvalid.

// duration is a time.Duration written as its String.
type duration time.Duration

func (d duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("compute: duration %s: want a Go duration such as 1h30m0s: %w", quote(string(b)), ErrInvalid)
	}
	*d = duration(v)
	return nil
}

// strictUnmarshal decodes one JSON value into v, rejecting unknown fields and
// trailing data; errors wrap ErrInvalid.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, ErrInvalid) {
			return err // a field's own UnmarshalJSON or UnmarshalText has said it
		}
		if errors.Is(err, sizing.ErrInvalid) {
			return &sizingError{err} // a sizing field's (a Model's), which names its package and ends with the sentinel's text
		}
		return fmt.Errorf("compute: %s: %w", text.JSONReason(err, 200), ErrInvalid) // no Go type names
	}
	if dec.More() {
		return fmt.Errorf("compute: trailing data after a JSON value: %w", ErrInvalid)
	}
	return nil
}

type timingWire struct {
	Duration   duration `json:"duration"`
	Low        duration `json:"low"`
	High       duration `json:"high"`
	Step       duration `json:"step"`
	Steps      float64  `json:"steps"`
	Compute    duration `json:"compute"`
	Comm       duration `json:"comm"`
	Bubble     duration `json:"bubble"`
	Efficiency float64  `json:"efficiency"`
	MFU        float64  `json:"mfu"`
	Data       int      `json:"data"`
	Tensor     int      `json:"tensor"`
	Pipeline   int      `json:"pipeline"`
}

// MarshalJSON writes the timing with its durations as Go duration strings.
func (t Timing) MarshalJSON() ([]byte, error) {
	return json.Marshal(timingWire{duration(t.Duration), duration(t.Low), duration(t.High), duration(t.Step), t.Steps,
		duration(t.Compute), duration(t.Comm), duration(t.Bubble), t.Efficiency, t.MFU, t.Data, t.Tensor, t.Pipeline})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (t *Timing) UnmarshalJSON(b []byte) error {
	var w timingWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*t = Timing{Duration: time.Duration(w.Duration), Low: time.Duration(w.Low), High: time.Duration(w.High),
		Step: time.Duration(w.Step), Steps: w.Steps, Compute: time.Duration(w.Compute), Comm: time.Duration(w.Comm),
		Bubble: time.Duration(w.Bubble), Efficiency: w.Efficiency, MFU: w.MFU, Data: w.Data, Tensor: w.Tensor, Pipeline: w.Pipeline}
	return nil
}

type stepWire struct {
	Compute    duration `json:"compute"`
	Comm       duration `json:"comm"`
	Exposed    duration `json:"exposed"`
	Total      duration `json:"total"`
	Efficiency float64  `json:"efficiency"`
}

// MarshalJSON writes the step with its durations as Go duration strings.
func (s Step) MarshalJSON() ([]byte, error) {
	return json.Marshal(stepWire{duration(s.Compute), duration(s.Comm), duration(s.Exposed), duration(s.Total), s.Efficiency})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (s *Step) UnmarshalJSON(b []byte) error {
	var w stepWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*s = Step{time.Duration(w.Compute), time.Duration(w.Comm), time.Duration(w.Exposed), time.Duration(w.Total), w.Efficiency}
	return nil
}

type spanWire struct {
	Low  duration `json:"low"`
	High duration `json:"high"`
}

// MarshalJSON writes {"low":"1h0m0s","high":"2h0m0s"}.
func (s Span) MarshalJSON() ([]byte, error) {
	return json.Marshal(spanWire{duration(s.Low), duration(s.High)})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (s *Span) UnmarshalJSON(b []byte) error {
	var w spanWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*s = Span{time.Duration(w.Low), time.Duration(w.High)}
	return nil
}

type linkWire struct {
	Bandwidth Bandwidth `json:"bandwidth_bytes_per_second"`
	Latency   duration  `json:"latency"`
}

// MarshalJSON writes {"bandwidth_bytes_per_second":...,"latency":"5µs"}.
func (l Link) MarshalJSON() ([]byte, error) {
	return json.Marshal(linkWire{l.Bandwidth, duration(l.Latency)})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (l *Link) UnmarshalJSON(b []byte) error {
	var w linkWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*l = Link{w.Bandwidth, time.Duration(w.Latency)}
	return nil
}

type decodeSpeedWire struct {
	PerSequence TokenRate    `json:"per_sequence_tokens_per_second"`
	Total       TokenRate    `json:"total_tokens_per_second"`
	Step        duration     `json:"step"`
	BytesRead   sizing.Bytes `json:"bytes_read"`
	MemoryBound bool         `json:"memory_bound"`
	Comm        duration     `json:"comm"`
	Approx      bool         `json:"approx"`
}

// MarshalJSON writes the speed with its step and all-reduce time as Go duration
// strings.
func (s DecodeSpeed) MarshalJSON() ([]byte, error) {
	return json.Marshal(decodeSpeedWire{s.PerSequence, s.Total, duration(s.Step), s.BytesRead, s.MemoryBound, duration(s.Comm), s.Approx})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (s *DecodeSpeed) UnmarshalJSON(b []byte) error {
	var w decodeSpeedWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*s = DecodeSpeed{w.PerSequence, w.Total, time.Duration(w.Step), w.BytesRead, w.MemoryBound, time.Duration(w.Comm), w.Approx}
	return nil
}

// UnmarshalJSON reads a job strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; Time does.
func (j *Job) UnmarshalJSON(b []byte) error {
	type plain Job
	return strictUnmarshal(b, (*plain)(j))
}

// UnmarshalJSON reads a decode strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; Speed does.
func (d *Decode) UnmarshalJSON(b []byte) error {
	type plain Decode
	return strictUnmarshal(b, (*plain)(d))
}

// UnmarshalJSON reads a calibration strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; the Job or Serving that holds it does.
func (c *Calibration) UnmarshalJSON(b []byte) error {
	type plain Calibration
	return strictUnmarshal(b, (*plain)(c))
}

// UnmarshalJSON reads a band strictly: unknown fields are errors wrapping
// ErrInvalid.
func (b *Band) UnmarshalJSON(data []byte) error {
	type plain Band
	return strictUnmarshal(data, (*plain)(b))
}

// UnmarshalJSON reads a serving strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; Prepare does.
func (s *Serving) UnmarshalJSON(b []byte) error {
	type plain Serving
	return strictUnmarshal(b, (*plain)(s))
}

type servingPointWire struct {
	Concurrency int       `json:"concurrency"`
	TTFT        duration  `json:"ttft"`
	TPOT        duration  `json:"tpot"`
	Throughput  TokenRate `json:"throughput_tokens_per_second"`
	PerUser     TokenRate `json:"per_user_tokens_per_second"`
	Requests    float64   `json:"requests_per_second"`
	Approx      bool      `json:"approx"`
}

// MarshalJSON writes the point with TTFT and TPOT as Go duration strings.
func (p ServingPoint) MarshalJSON() ([]byte, error) {
	return json.Marshal(servingPointWire{p.Concurrency, duration(p.TTFT), duration(p.TPOT), p.Throughput, p.PerUser, p.Requests, p.Approx})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (p *ServingPoint) UnmarshalJSON(b []byte) error {
	var w servingPointWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*p = ServingPoint{w.Concurrency, time.Duration(w.TTFT), time.Duration(w.TPOT), w.Throughput, w.PerUser, w.Requests, w.Approx}
	return nil
}

type percentilesWire struct {
	Mean duration `json:"mean"`
	P50  duration `json:"p50"`
	P90  duration `json:"p90"`
	P99  duration `json:"p99"`
}

// MarshalJSON writes the percentiles as Go duration strings.
func (p Percentiles) MarshalJSON() ([]byte, error) {
	return json.Marshal(percentilesWire{duration(p.Mean), duration(p.P50), duration(p.P90), duration(p.P99)})
}

// UnmarshalJSON reads what MarshalJSON writes, strictly.
func (p *Percentiles) UnmarshalJSON(b []byte) error {
	var w percentilesWire
	if err := strictUnmarshal(b, &w); err != nil {
		return err
	}
	*p = Percentiles{time.Duration(w.Mean), time.Duration(w.P50), time.Duration(w.P90), time.Duration(w.P99)}
	return nil
}

// UnmarshalJSON reads a load point strictly: unknown fields are errors wrapping
// ErrInvalid.
func (lp *LoadPoint) UnmarshalJSON(b []byte) error {
	type plain LoadPoint
	return strictUnmarshal(b, (*plain)(lp))
}
