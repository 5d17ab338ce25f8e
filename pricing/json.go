package pricing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jsonMarshal is json.Marshal; every type it meets writes decimals itself.
func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// strictUnmarshal decodes one JSON value into v, rejecting unknown fields and
// trailing data; errors wrap ErrInvalid.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return fe
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return &fieldError{te.Field, "", fmt.Errorf("want a JSON %v, got %s: %w", te.Type, te.Value, ErrInvalid)}
		}
		if errors.Is(err, ErrInvalid) {
			return err // already this package's error, from a nested UnmarshalJSON
		}
		return fmt.Errorf("pricing: %s: %w", strings.TrimPrefix(err.Error(), "json: "), ErrInvalid)
	}
	if dec.More() {
		return fmt.Errorf("pricing: trailing data after a JSON value: %w", ErrInvalid)
	}
	return nil
}
