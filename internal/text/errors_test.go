package text

import (
	"errors"
	"slices"
	"testing"
)

func TestUnprefixed(t *testing.T) {
	err := errors.New("pricing: offer: a\nplan: b\nsizing: offer: c\nd")
	if got, want := Unprefixed(err, ""), []string{"offer: a", "b", "offer: c", "d"}; !slices.Equal(got, want) {
		t.Errorf("Unprefixed(_, \"\") = %q, want %q", got, want)
	}
	if got, want := Unprefixed(err, "offer: "), []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("Unprefixed(_, \"offer: \") = %q, want %q", got, want)
	}
	if got, want := Reason(err), "offer: a; b; offer: c; d"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
}

func TestContextError(t *testing.T) {
	inner := errors.New("compute: offer: zero layers\nsizing: bad dtype")
	also := errors.New("invalid input")
	e := &ContextError{Pkg: "pricing", Context: "offer 2 (acme RTX 4090)", Drop: "offer: ", Err: inner, Also: also}
	want := "pricing: offer 2 (acme RTX 4090): zero layers\npricing: offer 2 (acme RTX 4090): bad dtype"
	if got := e.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, inner) || !errors.Is(e, also) {
		t.Error("errors.Is misses Err or Also")
	}
	if got := (&ContextError{Pkg: "plan", Context: "rates", Err: inner}).Unwrap(); len(got) != 1 || got[0] != inner {
		t.Errorf("Unwrap without Also = %v", got)
	}
}
