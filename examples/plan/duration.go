package main

import (
	"time"

	"github.com/gpuplan/gpuplan/internal/input"
)

// durationValue is a flag.Value for input.Duration's grammar, printed as
// time.Duration prints.
type durationValue time.Duration

// Set parses s with input.Duration.
func (v *durationValue) Set(s string) error {
	d, err := input.Duration(s)
	if err != nil {
		return err
	}
	*v = durationValue(d)
	return nil
}

// String prints the duration as time.Duration does ("720h0m0s").
func (v *durationValue) String() string { return time.Duration(*v).String() }
