package sizing

import (
	"fmt"
	"strings"
)

// Text forms of the named values, so that a Workload reads and writes as
// {"task":"lora","precision":"BF16","optimizer":"adamw","recompute":"full"} in JSON
// rather than as bare numbers. Each writes what String returns and reads it back
// through the Parse function of its type; the zero value ("unset", or the empty
// string) reads as the zero value, so an unset field round-trips.

// MarshalText writes the task's name ("lora"), "unset" for the zero value.
func (t Task) MarshalText() ([]byte, error) {
	if t >= numTasks {
		return nil, outOfRange("Task", int(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads a task name (see ParseTask); "unset" or "" is the zero value.
func (t *Task) UnmarshalText(b []byte) error { return readNamed(t, b, unsetText(b), ParseTask) }

// MarshalText writes the precision's name ("BF16", "Q4_K_M", "custom(4.650b)"),
// "unset" for the zero value.
func (p Precision) MarshalText() ([]byte, error) {
	if p != 0 && !p.Valid() {
		return nil, outOfRange("Precision", int(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads a precision name (see ParsePrecision); "unset" or "" is the
// zero value.
func (p *Precision) UnmarshalText(b []byte) error {
	return readNamed(p, b, unsetText(b), ParsePrecision)
}

// MarshalText writes the optimizer's name ("adamw"), "unset" for the zero value.
func (o Optimizer) MarshalText() ([]byte, error) {
	if o >= numOptimizers {
		return nil, outOfRange("Optimizer", int(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText reads an optimizer name (see ParseOptimizer); "unset" or "" is the
// zero value.
func (o *Optimizer) UnmarshalText(b []byte) error {
	return readNamed(o, b, unsetText(b), ParseOptimizer)
}

// MarshalText writes "none", "selective" or "full".
func (r Recompute) MarshalText() ([]byte, error) {
	if r >= numRecomputes {
		return nil, outOfRange("Recompute", int(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads "none", "selective" or "full" (see ParseRecompute); ""
// is NoRecompute.
func (r *Recompute) UnmarshalText(b []byte) error {
	return readNamed(r, b, len(b) == 0, ParseRecompute)
}

// readNamed sets *dst from text: the zero value when unset, else parse's answer;
// on error *dst is left unchanged.
func readNamed[T any](dst *T, b []byte, unset bool, parse func(string) (T, error)) error {
	if unset {
		var zero T
		*dst = zero
		return nil
	}
	v, err := parse(string(b))
	if err == nil {
		*dst = v
	}
	return err
}

func unsetText(b []byte) bool { return len(b) == 0 || strings.EqualFold(string(b), "unset") }

// outOfRange reports a value that is not one of its type's named values, which
// MarshalText refuses to write rather than write what could not be read back.
func outOfRange(typ string, v int) error {
	return fmt.Errorf("sizing: %s(%d) is not a named value: %w", typ, v, ErrInvalid)
}

// MarshalText writes the render kind's name ("sdxl"), "unset" for the zero value.
func (k RenderKind) MarshalText() ([]byte, error) {
	if k >= numRenderKinds {
		return nil, outOfRange("RenderKind", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a render kind (see ParseRenderKind); "unset" or "" is the
// zero value.
func (k *RenderKind) UnmarshalText(b []byte) error {
	return readNamed(k, b, unsetText(b), ParseRenderKind)
}
