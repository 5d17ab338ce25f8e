package sizing

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// strictUnmarshal decodes one JSON value into v for fn ("Model.UnmarshalJSON"),
// rejecting unknown fields and trailing data. Errors are *ParseError values that
// wrap ErrInvalid; a field's own error (a precision it cannot read) is returned as
// it is.
func strictUnmarshal(fn string, b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data after a JSON value")
	}
	if err == nil || errors.Is(err, ErrInvalid) {
		return err
	}
	return &ParseError{Func: fn, Input: string(b), Err: newInvalidReason(strings.TrimPrefix(err.Error(), "json: "))}
}

// UnmarshalJSON reads a model strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; Estimate does.
func (m *Model) UnmarshalJSON(b []byte) error {
	type plain Model
	return strictUnmarshal("Model.UnmarshalJSON", b, (*plain)(m))
}

// UnmarshalJSON reads a workload strictly: unknown fields are errors wrapping
// ErrInvalid. It does not validate; Estimate does.
func (w *Workload) UnmarshalJSON(b []byte) error {
	type plain Workload
	return strictUnmarshal("Workload.UnmarshalJSON", b, (*plain)(w))
}

// UnmarshalJSON reads a layout strictly: unknown fields are errors wrapping
// ErrInvalid.
func (p *Parallel) UnmarshalJSON(b []byte) error {
	type plain Parallel
	return strictUnmarshal("Parallel.UnmarshalJSON", b, (*plain)(p))
}

// UnmarshalJSON reads a render job strictly: unknown fields are errors wrapping
// ErrInvalid.
func (r *RenderJob) UnmarshalJSON(b []byte) error {
	type plain RenderJob
	return strictUnmarshal("RenderJob.UnmarshalJSON", b, (*plain)(r))
}
