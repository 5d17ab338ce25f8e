package sizing

import (
	"errors"
	"testing"
)

func TestTaskNames(t *testing.T) {
	for k := Inference; k < numTasks; k++ {
		got, err := ParseTask(k.String())
		if err != nil || got != k {
			t.Errorf("ParseTask(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	tests := []struct {
		in   string
		want Task
	}{
		{"Inference", Inference}, {"serve", Inference}, {"TRAINING", Training}, {"full-finetune", Training},
		{"pretrain", Training}, {"LoRA", LoRA}, {"q-lora", QLoRA}, {"QLoRA", QLoRA},
	}
	for _, tt := range tests {
		if got, err := ParseTask(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseTask(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := ParseTask("render"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseTask(render) error = %v, want ErrInvalid", err)
	}
	if _, err := ParseTask("unset"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseTask(unset) error = %v, want ErrInvalid", err)
	}
	if got := Task(0).String(); got != "unset" {
		t.Errorf("Task(0) = %q, want unset", got)
	}
	if got := Task(99).String(); got != "Task(99)" {
		t.Errorf("Task(99) = %q, want Task(99)", got)
	}
}

func TestOptimizerNames(t *testing.T) {
	for o := SGD; o < numOptimizers; o++ {
		got, err := ParseOptimizer(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOptimizer(%q) = %v, %v; want %v", o.String(), got, err, o)
		}
	}
	tests := []struct {
		in   string
		want Optimizer
	}{
		{"AdamW", AdamW}, {"adam", Adam}, {"adam-8bit", Adam8bit}, {"paged_adamw_8bit", Adam8bit},
		{"SGD", SGD}, {"sgd-momentum", Momentum}, {"Adafactor", Adafactor}, {"Lion", Lion},
		// Hugging Face Trainer's optim names (TrainingArguments.optim).
		{"adamw_torch", AdamW}, {"adamw_torch_fused", AdamW}, {"adamw_hf", AdamW}, {"paged_adamw_32bit", AdamW},
		{"adamw_bnb_8bit", Adam8bit}, {"adamw_8bit", Adam8bit}, {"lion_32bit", Lion}, {"paged_lion_32bit", Lion},
	}
	for _, tt := range tests {
		if got, err := ParseOptimizer(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseOptimizer(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	var pe *ParseError
	if _, err := ParseOptimizer("rmsprop"); !errors.Is(err, ErrInvalid) || !errors.As(err, &pe) || pe.Func != "ParseOptimizer" {
		t.Errorf("ParseOptimizer(rmsprop) error = %v, want *ParseError wrapping ErrInvalid", err)
	}
	if got := Optimizer(0).String(); got != "unset" {
		t.Errorf("Optimizer(0) = %q, want unset", got)
	}
}

func TestRecomputeNames(t *testing.T) {
	for r := NoRecompute; r < numRecomputes; r++ {
		got, err := ParseRecompute(r.String())
		if err != nil || got != r {
			t.Errorf("ParseRecompute(%q) = %v, %v; want %v", r.String(), got, err, r)
		}
	}
	if got, err := ParseRecompute(" Selective "); err != nil || got != SelectiveRecompute {
		t.Errorf("ParseRecompute(Selective) = %v, %v", got, err)
	}
	if _, err := ParseRecompute("partial"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseRecompute(partial) error = %v, want ErrInvalid", err)
	}
	if got := Recompute(7).String(); got != "Recompute(7)" {
		t.Errorf("Recompute(7) = %q", got)
	}
}

func TestParseErrorMessage(t *testing.T) {
	err := &ParseError{Func: "ParseBytes", Input: "x\"y", Err: ErrInvalid}
	if got, want := err.Error(), `sizing: ParseBytes "x\"y": invalid input`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	long := &ParseError{Func: "F", Input: string(make([]byte, 100)), Err: ErrInvalid}
	if n := len(long.Error()); n > 400 {
		t.Errorf("long input message is %d bytes, want it cut short", n)
	}
}
