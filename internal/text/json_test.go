package text

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestJSONReason holds the messages of values of the wrong JSON type to JSON's
// words: no Go type name reaches them.
func TestJSONReason(t *testing.T) {
	type inner struct {
		Batch int `json:"batch"`
	}
	type plain struct {
		Name  string   `json:"name"`
		Inner inner    `json:"workload"`
		Tags  []string `json:"tags"`
		Flag  bool     `json:"flag"`
	}
	for _, tc := range []struct{ in, want string }{
		{`"llama-2-7b"`, "want an object, got string"},
		{`{"name": 7}`, "field name: want a string, got number"},
		{`{"workload": {"batch": "4"}}`, "field batch: want a number, got string"},
		{`{"tags": {}}`, "field tags: want an array, got object"},
		{`{"flag": "yes"}`, "field flag: want true or false, got string"},
	} {
		var p plain
		err := json.Unmarshal([]byte(tc.in), &p)
		if got := JSONReason(err, 200); got != tc.want {
			t.Errorf("JSONReason(Unmarshal(%s)) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := JSONReason(errors.New("json: unknown field \"x\""), 11); got != Cut("json: unknown field \"x\"", 11) {
		t.Errorf("JSONReason(other error, 11) = %q, want the message cut by Cut", got)
	}
}
