package sizing

import (
	"strconv"
	"strings"
)

// Task is the kind of job whose memory is estimated. The zero value is unset.
type Task uint8

// Tasks.
const (
	Inference Task = iota + 1 // forward passes with a KV cache
	Training                  // full training or fine-tuning of every parameter
	LoRA                      // low-rank adapters on a frozen base at Precision
	QLoRA                     // LoRA on a base quantized to NF4
	numTasks
)

var taskNames = [numTasks]string{Inference: "inference", Training: "training", LoRA: "lora", QLoRA: "qlora"}

// String returns the task's lower-case name, "unset" for the zero value.
func (t Task) String() string { return enumString(taskNames[:], int(t), "Task") }

// ParseTask reads a task name, case-insensitively ("training", "LoRA"); "train",
// "finetune" and "full" mean Training, "infer" and "serve" mean Inference.
func ParseTask(s string) (Task, error) {
	switch normKey(s) {
	case "train", "finetune", "full", "fullfinetune", "pretrain":
		return Training, nil
	case "infer", "serve", "serving", "generate":
		return Inference, nil
	}
	i, err := enumParse(taskNames[:], s, "ParseTask")
	return Task(i), err
}

// Optimizer is the training optimizer, which sets the state kept per trainable
// parameter. The zero value means AdamW for training.
type Optimizer uint8

// Optimizers.
const (
	SGD       Optimizer = iota + 1 // no state
	Momentum                       // SGD with momentum: one FP32 buffer
	Adam                           // two FP32 moments
	AdamW                          // two FP32 moments (decoupled weight decay)
	Adam8bit                       // bitsandbytes 8-bit Adam: two 8-bit moments
	Adafactor                      // factored second moment, no first moment
	Lion                           // one FP32 momentum buffer
	numOptimizers
)

var optimizerNames = [numOptimizers]string{SGD: "sgd", Momentum: "momentum", Adam: "adam", AdamW: "adamw",
	Adam8bit: "adam8bit", Adafactor: "adafactor", Lion: "lion"}

// String returns the optimizer's lower-case name, "unset" for the zero value.
func (o Optimizer) String() string { return enumString(optimizerNames[:], int(o), "Optimizer") }

// ParseOptimizer reads an optimizer name, case-insensitively, ignoring '-', '_' and
// spaces ("AdamW", "adam-8bit"). It also reads the names Hugging Face's Trainer
// gives its optim argument for these optimizers: "adamw_torch" (its default),
// "adamw_torch_fused", "adamw_hf", "adamw_apex_fused", "paged_adamw" and
// "paged_adamw_32bit" (the QLoRA recipe's) are AdamW; "adamw_bnb_8bit",
// "adamw_8bit" and "paged_adamw_8bit" are Adam8bit; "lion_32bit" and
// "paged_lion_32bit" are Lion. Paging moves state to host memory only when the GPU
// runs short, so the state's size is the same.
func ParseOptimizer(s string) (Optimizer, error) {
	switch normKey(s) {
	case "adamwtorch", "adamwtorchfused", "adamwhf", "adamwapexfused", "pagedadamw", "pagedadamw32bit":
		return AdamW, nil
	case "adamw8bit", "adamwbnb8bit", "pagedadamw8bit", "pagedadam8bit", "8bitadam":
		return Adam8bit, nil
	case "lion32bit", "pagedlion32bit":
		return Lion, nil
	case "sgdm", "sgdmomentum":
		return Momentum, nil
	}
	i, err := enumParse(optimizerNames[:], s, "ParseOptimizer")
	return Optimizer(i), err
}

// Recompute is the activation recomputation (checkpointing) strategy of
// Korthikanti et al. 2022. The zero value is NoRecompute.
type Recompute uint8

// Recomputation strategies.
const (
	NoRecompute        Recompute = iota // keep every activation
	SelectiveRecompute                  // recompute the attention core (softmax, dropout, scores)
	FullRecompute                       // keep only each layer's input; recompute the rest
	numRecomputes
)

var recomputeNames = [numRecomputes]string{NoRecompute: "none", SelectiveRecompute: "selective", FullRecompute: "full"}

// String returns "none", "selective" or "full".
func (r Recompute) String() string {
	if int(r) < len(recomputeNames) {
		return recomputeNames[r]
	}
	return "Recompute(" + strconv.Itoa(int(r)) + ")"
}

// ParseRecompute reads "none", "selective" or "full", case-insensitively.
func ParseRecompute(s string) (Recompute, error) {
	for i, n := range recomputeNames {
		if normKey(s) == n {
			return Recompute(i), nil
		}
	}
	return 0, &ParseError{Func: "ParseRecompute", Input: s, Err: newInvalidReason("want none, selective or full")}
}

func normKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

func enumString(names []string, i int, typ string) string {
	if i == 0 {
		return "unset"
	}
	if i > 0 && i < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}

func enumParse(names []string, s, fn string) (int, error) {
	k := normKey(s)
	for i, n := range names {
		if i > 0 && k == n {
			return i, nil
		}
	}
	return 0, &ParseError{Func: fn, Input: s, Err: newInvalidReason("want one of " + strings.Join(names[1:], ", "))}
}
