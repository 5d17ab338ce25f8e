package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/pricing/plan"
	"github.com/gpuplan/gpuplan/sizing"
)

// measurement is what -calibrate reads: one run timed on a card, in JSON:
//
//	{"card": "RTX 4090", "step": "1.9s"}
//	{"card": "H100 SXM", "tpot": "28ms", "concurrency": 16}
//
// step is a measured optimizer step of a training run, tpot a measured time per
// output token of a served model with concurrency users decoding at once. The
// run is the job the flags describe (model, task, precision, micro-batch,
// context; for tpot, -prompt and -output), on gpus GPUs (data parallel for a
// step, tensor parallel for tpot), unless model, batch or context name another.
type measurement struct {
	Card         string `json:"card"`          // a name the catalog knows
	GPUs         int    `json:"gpus"`          // 0: 1
	Step         string `json:"step"`          // a duration, "1.9s"
	TPOT         string `json:"tpot"`          // a duration, "28ms"
	Concurrency  int    `json:"concurrency"`   // 0: 1
	Model        string `json:"model"`         // a preset or a model's folder; empty: the flags'
	Batch        int    `json:"batch"`         // micro-batch per GPU of a step; 0: the flags'
	Context      int    `json:"context"`       // tokens per sequence of a step; 0: the flags'
	PromptTokens int    `json:"prompt_tokens"` // of a served request; 0: -prompt
	OutputTokens int    `json:"output_tokens"` // of a served request; 0: -output
}

// calibration is what -calibrate makes of its file: the card's factor, by
// catalog card ID, for plan.Planner.Calibrations, and the line that heads the
// report with it.
type calibration struct {
	byCard map[string]compute.Calibration
	line   string
}

// calibrate reads -calibrate's file and fits the speed it measured
// (compute.Job.Fit for a step, compute.Serving.Fit for a TPOT) to a
// calibration of its card. A measurement of training for a plan of inference,
// or the reverse, is a usage error: the planner would not use it.
func (o options) calibrate(r plan.Request) (calibration, error) {
	if o.calibration == "" {
		return calibration{}, nil
	}
	l, file := o.lang, o.calibration
	b, err := cli.ReadFile("calibrate", file)
	if err != nil {
		return calibration{}, err
	}
	var m measurement
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return calibration{}, fmt.Errorf("-calibrate %s: %v; %s", file, err, l.T("plan.calib.example"))
	}
	bad := func(why string) (calibration, error) {
		return calibration{}, fmt.Errorf("-calibrate %s: %s", file, why)
	}
	card, err := o.cat.Lookup(m.Card)
	switch {
	case m.Card == "":
		return bad(l.T("plan.calib.nocard"))
	case err != nil:
		return calibration{}, fmt.Errorf("-calibrate %s: %w; %s", file, err, l.T("cli.unknowncard"))
	case (m.Step == "") == (m.TPOT == ""):
		return bad(l.T("plan.calib.one"))
	case m.GPUs < 0 || m.Concurrency < 0 || m.Batch < 0 || m.Context < 0 || m.PromptTokens < 0 || m.OutputTokens < 0:
		return bad(l.T("plan.calib.count"))
	}
	if o.set["utilization"] {
		return calibration{}, cli.Usagef("-calibrate: %s", l.T("plan.calib.utilization"))
	}
	decode := m.TPOT != ""
	if decode != (r.Workload.Task == sizing.Inference) {
		return calibration{}, cli.Usagef("-calibrate %s: %s", file, l.T("plan.calib.task"))
	}
	model, wl := r.Model, r.Workload
	if m.Model != "" {
		if model, err = (cli.ModelFlags{Model: m.Model}).Read(map[string]bool{"model": true}, l); err != nil {
			// The file's content, not the command line: "model ...", exit 1.
			return calibration{}, fmt.Errorf("-calibrate %s: %s", file, strings.TrimPrefix(cli.Message(err), "-"))
		}
	}
	wl.Batch, wl.SeqLen = cmp.Or(m.Batch, wl.Batch), cmp.Or(m.Context, wl.SeqLen)
	gpus := max(m.GPUs, 1)
	peak, ok := peakOf(card, wl.Precision)
	if !ok {
		return bad(l.F("plan.calib.nopeak", card.Name, wl.Precision))
	}
	link, _, err := card.PeerLink(gpus)
	if err != nil {
		link, _ = compute.PCIeLink(4)
	}
	var c compute.Calibration
	var measured string
	if decode {
		tpot, err := time.ParseDuration(m.TPOT)
		if err != nil {
			return bad(l.F("plan.calib.duration", "tpot", m.TPOT))
		}
		users := max(m.Concurrency, 1)
		s := compute.Serving{Model: model, Weights: wl.Precision, KV: wl.KVPrecision, Devices: gpus, Memory: card.Memory,
			Bandwidth: card.MemoryBandwidth, Peak: peak, Link: link, Arch: card.Architecture,
			PromptTokens: cmp.Or(m.PromptTokens, o.serve.prompt), OutputTokens: cmp.Or(m.OutputTokens, o.serve.output)}
		if c, err = s.Fit(users, tpot); err != nil {
			return calibration{}, fmt.Errorf("-calibrate %s: %w", file, err)
		}
		measured = l.F("plan.calib.tpot", tpot, l.N(users, "plan.n.user"), l.N(gpus, "plan.n.gpu"), factor(c.Decode))
	} else {
		step, err := time.ParseDuration(m.Step)
		if err != nil {
			return bad(l.F("plan.calib.duration", "step", m.Step))
		}
		j := compute.Job{Model: model, Precision: wl.Precision, Recompute: wl.Recompute,
			Adapters: wl.Task == sizing.LoRA || wl.Task == sizing.QLoRA, Batch: wl.Batch, SeqLen: wl.SeqLen,
			Devices: gpus, PeakPerDevice: peak, Bandwidth: card.MemoryBandwidth, Link: link, Arch: card.Architecture}
		if c, err = j.Fit(step); err != nil {
			return calibration{}, fmt.Errorf("-calibrate %s: %w", file, err)
		}
		measured = l.F("plan.calib.step", step, model.Name, wl.Batch, wl.SeqLen, l.N(gpus, "plan.n.gpu"), factor(c.Train))
	}
	return calibration{
		byCard: map[string]compute.Calibration{card.ID: c},
		line:   l.F("plan.calib.line", card.Name, file, measured),
	}, nil
}

// peakOf is the card's dense peak at a precision as the planner times it: a
// card without BF16 at its FP16 rate, one with no published rate for the
// precision at its FP32 rate.
func peakOf(card catalog.Card, p sizing.Precision) (compute.FLOPRate, bool) {
	if p == sizing.FP64 {
		return card.FP64()
	}
	if r, ok := card.Peak(p); ok {
		return r, true
	}
	if r, ok := card.Peak(sizing.FP16); ok && p == sizing.BF16 {
		return r, true
	}
	if p.Bits() <= 32 {
		return card.Peak(sizing.FP32)
	}
	return 0, false
}

// factor writes a calibration factor to three figures: "0.83".
func factor(f float64) string { return strconv.FormatFloat(f, 'g', 3, 64) }
