package text

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// JSONReason returns the message of an error of encoding/json, cut to at most
// n bytes, with a value of the wrong type said in JSON's words: encoding/json's
// own text names the Go type it decoded into ("cannot unmarshal string into Go
// value of type sizing.plain"), which is no name a writer of JSON knows, so a
// *json.UnmarshalTypeError reads "field batch: want a number, got string"
// instead: the last key of the field's path (the path names the Go type of an
// embedded struct too), left out when the value is the whole document.
func JSONReason(err error, n int) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return Cut(err.Error(), n)
	}
	s := "want " + jsonKind(te.Type.Kind()) + ", got " + Cut(te.Value, 64)
	if te.Field != "" {
		s = "field " + te.Field[strings.LastIndexByte(te.Field, '.')+1:] + ": " + s
	}
	return Cut(s, n)
}

// jsonKind names the JSON value a Go kind decodes from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another JSON value"
}
