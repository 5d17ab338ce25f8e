package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
	"github.com/shopspring/decimal"
)

// marketThreshold is the planner's default for Request.MarketThreshold, as its
// doc gives it: 30% away from the median.
var marketThreshold = decimal.New(3, -1)

// servingOnly are the workload's keys a serving request leaves out of -json's
// echo: the training settings, and the batch, sequence length and layout, which
// the planner picks for a service (plan.Request's doc). The one use of
// omitempty's idea in the output, done on the encoded request so that its keys
// keep their order.
var servingOnly = map[string]bool{"grad_precision": true, "state_precision": true, "master": true, "chunked_loss": true,
	"optimizer": true, "recompute": true, "lora_rank": true, "lora_targets": true, "batch": true, "seq_len": true, "parallel": true}

// echo is the request as the planner used it, for -json: each field the command
// line left to a default written with the default's value, and those fields'
// dotted JSON keys in defaults; the model's parameter count filled in; a serving
// request without the workload's training fields. given holds the flags given.
// The echo decodes back into a plan.Request that plans the same.
func echo(r plan.Request, given map[string]bool) (json.RawMessage, []string, error) {
	var defaults []string
	mark := func(key string) { defaults = append(defaults, key) }
	if r.Model.Params == 0 {
		r.Model.Params = r.Model.ParamCount()
	}
	serving := r.Serving != nil
	if !serving { // the command's own defaults: the work, the micro-batch, the context
		for _, f := range [...]struct{ flag, key string }{{"tokens", "tokens"}, {"batch", "workload.batch"}, {"context", "workload.seq_len"}} {
			if !given[f.flag] {
				mark(f.key)
			}
		}
	}
	if r.Headroom == 0 {
		r.Headroom = plan.DefaultHeadroom
		if serving {
			r.Headroom = compute.DefaultServingReserve
		}
		mark("headroom")
	}
	if !serving {
		// A zero utilization and band are not filled in: they mean compute's
		// model of the step, which the echo must keep to plan the same.
		if r.Checkpoint == 0 {
			r.Checkpoint = plan.DefaultCheckpoint
			mark("checkpoint")
		}
		if r.Restart == 0 {
			r.Restart = plan.DefaultRestart
			mark("restart")
		}
	}
	if r.Usage == 0 && r.Rental.Days == 0 && r.Rental.Duration == 0 {
		switch {
		case serving && len(r.Serving.Daily) > 0: // a daily profile rents whole days
			r.Usage = plan.DefaultServingDays * 24 * time.Hour
			mark("usage")
		case serving:
			r.Usage = plan.DefaultServingUsage
			mark("usage")
		case r.Tokens == 0:
			r.Usage = plan.DefaultDemoHour
			mark("usage")
		}
	}
	if r.MarketThreshold.IsZero() {
		r.MarketThreshold = marketThreshold
		mark("market_threshold")
	}
	if r.Limit == 0 {
		r.Limit = plan.DefaultLimit
		mark("limit")
	}
	if r.Rank == plan.RankCost {
		mark("rank")
	}
	w := &r.Workload
	if w.KVPrecision == 0 && w.Task == sizing.Inference {
		w.KVPrecision = w.Precision.KVDefault()
		mark("workload.kv_precision")
	}
	if w.Task != sizing.Inference && !serving {
		if w.Optimizer == 0 {
			w.Optimizer = sizing.AdamW
			mark("workload.optimizer")
		}
		if w.GradPrecision == 0 {
			w.GradPrecision = w.Precision
			mark("workload.grad_precision")
		}
		if w.StatePrecision == 0 && w.Optimizer != sizing.Adam8bit {
			w.StatePrecision = sizing.FP32
			if w.Precision.Bits() > 32 {
				w.StatePrecision = w.Precision
			}
			mark("workload.state_precision")
		}
		if w.Master == 0 && w.Precision.ComputeBits() < 32 {
			w.Master = sizing.FP32
			mark("workload.master")
		}
		if w.LoRARank == 0 && (w.Task == sizing.LoRA || w.Task == sizing.QLoRA) {
			w.LoRARank = sizing.DefaultLoRARank
			mark("workload.lora_rank")
		}
	}
	if w.Overhead == 0 {
		w.Overhead = sizing.DefaultOverhead
		mark("workload.overhead_bytes")
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, nil, err
	}
	if serving {
		b, err = editObject(b, func(key string, v json.RawMessage) (json.RawMessage, error) {
			if key != "workload" {
				return v, nil
			}
			return editObject(v, func(key string, v json.RawMessage) (json.RawMessage, error) {
				if servingOnly[key] {
					return nil, nil
				}
				return v, nil
			})
		})
	}
	return b, defaults, err
}

// editObject rewrites the JSON object b key by key, in order: edit returns each
// value's replacement, or nil to leave the key out.
func editObject(b []byte, edit func(key string, v json.RawMessage) (json.RawMessage, error)) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("plan: echo: want a JSON object")
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if v, err = edit(key, v); err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}
