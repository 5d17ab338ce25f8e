package main

import (
	"strings"

	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/report"
	"github.com/gpuplan/gpuplan/sizing"
)

// words are the page's own words in one language, from the message tables
// (internal/msg, keys "web."): the form's labels, the answer's headings that
// examples/plan has no words for, and what each field wants when it cannot be
// read. The answer itself speaks in the messages examples/plan prints.
type words struct {
	Lang     msg.Lang
	HTMLLang string            // the page's lang attribute: "en" or "zh-CN"
	Other    string            // the other language's code, for the link to it
	Tasks    []choice          // the task select's options, in the report's names
	NoFit    string            // examples/plan's "No option fits."
	WouldFit string            // and "What would fit:"
	Others   string            // "Warnings on the other options shown:"
	Want     map[string]string // what a field wants, by fieldError.Want
	Fields   map[string]string // the form's fields' labels, by name, for messages

	Title, Intro, OtherName, Model, Preset, Config, ConfigHelp, Task, Precision, Context, ContextHelp, Batch, BatchHelp, Kind, Job, Service, Tokens, TokensHelp, Deadline, DeadlineHelp, RPS, Prompt, Output, TTFT, TPOT, TargetHelp, Rental, Usage, UsageHelp, Budget, BudgetHelp, Prices, PricesHelp, Submit, Answer, Work, NoWork, Rented, MemoryTitle, Free, Weights, Gradients, Optimizer, Activations, KV, Overhead, Reserve, Warnings, LeftOut, FixField, BadInput, Busy, Slow, TooLarge, Internal string
}

// pageWords are the page's words by language, built once.
var pageWords = map[msg.Lang]*words{msg.EN: newWords(msg.EN), msg.ZH: newWords(msg.ZH)}

// newWords reads the page's words in l from the message tables.
func newWords(l msg.Lang) *words {
	w := &words{Lang: l, HTMLLang: "en", Other: "zh"}
	if l == msg.ZH {
		w.HTMLLang, w.Other = "zh-CN", "en"
	}
	w.Title = l.T("web.title")
	w.Intro = l.T("web.intro")
	w.OtherName = l.T("web.othername")
	w.Model = l.T("web.model")
	w.Preset = l.T("web.preset")
	w.Config = l.T("web.config")
	w.ConfigHelp = l.T("web.confighelp")
	w.Task = l.T("web.task")
	w.Precision = l.T("web.precision")
	w.Context = l.T("web.context")
	w.ContextHelp = l.T("web.contexthelp")
	w.Batch = l.T("web.batch")
	w.BatchHelp = l.T("web.batchhelp")
	w.Kind = l.T("web.kind")
	w.Job = l.T("web.job")
	w.Service = l.T("web.service")
	w.Tokens = l.T("web.tokens")
	w.TokensHelp = l.T("web.tokenshelp")
	w.Deadline = l.T("web.deadline")
	w.DeadlineHelp = l.T("web.deadlinehelp")
	w.RPS = l.T("web.rps")
	w.Prompt = l.T("web.prompt")
	w.Output = l.T("web.output")
	w.TTFT = l.T("web.ttft")
	w.TPOT = l.T("web.tpot")
	w.TargetHelp = l.T("web.targethelp")
	w.Rental = l.T("web.rental")
	w.Usage = l.T("web.usage")
	w.UsageHelp = l.T("web.usagehelp")
	w.Budget = l.T("web.budget")
	w.BudgetHelp = l.T("web.budgethelp")
	w.Prices = l.T("web.prices")
	w.PricesHelp = l.T("web.priceshelp")
	w.Submit = l.T("web.submit")
	w.Answer = l.T("web.answer")
	w.Work = l.T("web.work")
	w.NoWork = l.T("web.nowork")
	w.Rented = l.T("web.rented")
	w.MemoryTitle = l.T("web.memorytitle")
	w.Free = l.T("web.free")
	w.Weights = l.T("web.weights")
	w.Gradients = l.T("web.gradients")
	w.Optimizer = l.T("web.optimizer")
	w.Activations = l.T("web.activations")
	w.KV = l.T("web.kv")
	w.Overhead = l.T("web.overhead")
	w.Reserve = l.T("web.reserve")
	w.Warnings = l.T("web.warnings")
	w.LeftOut = l.T("web.leftout")
	w.FixField = l.T("web.fixfield")
	w.BadInput = l.T("web.badinput")
	w.Busy = l.T("web.busy")
	w.Slow = l.T("web.slow")
	w.TooLarge = l.T("web.toolarge")
	w.Internal = l.T("web.internal")
	heading := func(s string) string { return strings.TrimRight(s, ":：") }
	w.NoFit, w.WouldFit, w.Others = l.T("plan.nofit"), heading(l.T("plan.nofit.would")), heading(l.T("plan.warnings.others"))
	for _, t := range []sizing.Task{sizing.Inference, sizing.Training, sizing.LoRA, sizing.QLoRA} {
		w.Tasks = append(w.Tasks, choice{t.String(), report.TaskName(l, t)})
	}
	w.Want = map[string]string{
		"task":      l.T("web.want.task"),
		"precision": l.T("web.want.precision"),
		"preset":    l.T("web.want.preset"),
		"config":    l.T("web.want.config"),
		"whole":     l.T("web.want.whole"),
		"window":    l.T("web.want.window"),
		"runnable":  l.T("web.want.runnable"),
		"kind":      l.T("web.want.kind"),
		"tokens":    l.T("web.want.tokens"),
		"deadline":  l.T("web.want.deadline"),
		"serveTask": l.T("web.want.servetask"),
		"rps":       l.T("web.want.rps"),
		"duration":  l.T("web.want.duration"),
		"budget":    l.T("web.want.budget"),
		"prices":    l.T("web.want.prices"),
		"noOffers":  l.T("web.want.nooffers"),
	}
	w.Fields = map[string]string{
		"model": w.Preset, "config": "config.json", "task": w.Task, "precision": w.Precision, "context": w.Context,
		"batch": w.Batch, "kind": w.Kind, "tokens": w.Tokens, "deadline": w.Deadline, "rps": w.RPS, "prompt": w.Prompt,
		"output": w.Output, "ttft": w.TTFT, "tpot": w.TPOT, "usage": w.Usage, "budget": w.Budget, "prices": w.Prices,
	}
	return w
}
