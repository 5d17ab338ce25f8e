package main

import (
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/sizing"
)

// The model comes from the flags internal/cli's ModelFlags reads (-model, -config,
// -gguf, -safetensors, -params), which examples/serve reads too.

// modelNotes are the lines the report prints about the model: what is
// approximated (approxNote), which weight precision inference plans and why, and
// what reading the model's files assumed (sizing.Model.Notes).
func modelNotes(m sizing.Model, w sizing.Workload, l msg.Lang) []string {
	var notes []string
	if n := approxNote(m, l); n != "" {
		notes = append(notes, n)
	}
	if s := m.StoredPrecision; s != 0 && w.Task == sizing.Inference {
		switch {
		case s == w.Precision && s.Bits() < 16: // a 16-bit format is -precision's default anyway
			notes = append(notes, l.F("plan.note.stored", s))
		case s.Bits() != w.Precision.Bits():
			notes = append(notes, l.F("plan.note.planned", w.Precision, s))
		}
	}
	if m.Notes != "" {
		notes = append(notes, m.Notes)
	}
	return notes
}

// approxNote says, for a model without its architecture, what gave it (-params,
// or weight files: a safetensors header holds tensors, not the architecture),
// what is assumed, and the flag that makes it exact; "" for a model with one.
func approxNote(m sizing.Model, l msg.Lang) string {
	if m.HasArchitecture() {
		return ""
	}
	if m.StoredBytes > 0 {
		return l.T("plan.note.approxfile")
	}
	return l.T("plan.note.approx")
}
