package pricing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gpuplan/gpuplan/internal/text"
)

// jsonMarshal is json.Marshal; every type it meets writes decimals itself.
func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// strictUnmarshal decodes one JSON value into v, rejecting unknown fields and
// trailing data; errors wrap ErrInvalid, and a field's problem is a *FieldError
// naming it.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return invalid("", "trailing data after a JSON value")
	}
	return nil
}

// jsonError is an error of encoding/json in this package's form: a *FieldError
// from a nested UnmarshalJSON as it is, a value of the wrong type as a
// *FieldError naming the field, and anything else (a syntax error, an unknown
// field, a whole value of the wrong type) under the package name, its text cut
// to a short excerpt (encoding/json quotes an unknown field's name whole) and
// said without Go's type names (text.JSONReason), wrapping ErrInvalid.
func jsonError(err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return fe
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return invalid(te.Field, "want a JSON %v, got %s", te.Type, text.Cut(te.Value, 64))
	}
	if errors.Is(err, ErrInvalid) {
		return err // already this package's error, from a nested UnmarshalJSON
	}
	return &FieldError{Err: fmt.Errorf("%s: %w", text.JSONReason(err, 200), ErrInvalid)} // no Go type names
}
