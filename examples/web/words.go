package main

import "github.com/gpuplan/gpuplan/internal/msg"

// words are the page's own words in one language: the form's labels, the
// answer's headings, and what each field wants when it cannot be read. The
// Chinese uses the terms the seed articles and Chinese rental platforms use.
type words struct {
	Lang, Title, Intro, Other, OtherName string

	Model, Preset, Config, ConfigHelp                  string
	Task, Precision, Context, ContextHelp, Batch       string
	BatchHelp                                          string
	Tasks                                              map[string]string // by sizing's task name
	Kind, Job, Service                                 string
	Tokens, TokensHelp, Deadline, DeadlineHelp         string
	RPS, Prompt, Output, TTFT, TPOT, TargetHelp        string
	Rental, Usage, UsageHelp, Budget, BudgetHelp       string
	Prices, PricesHelp, Submit                         string
	Answer, Best, MemoryTitle, Free                    string
	Weights, Gradients, Optimizer, Activations, KV     string
	Overhead, Reserve                                  string
	Time, TimeBand, Cost, CostRange, Warnings, Curves  string
	NoFit, WouldFit, LeftOut, SampleSource, Considered string
	FixField, BadInput, Busy, Slow, TooLarge, Internal string
	Want                                               map[string]string // by fieldError.Want
	Fields                                             map[string]string // the form's fields, by name, for messages
}

// pageWords are the page's words by language.
var pageWords = map[msg.Lang]*words{msg.EN: &wordsEN, msg.ZH: &wordsZH}

var wordsEN = words{
	Lang:      "en",
	Title:     "gpuplan: which GPUs to rent, how many, for how long, at what price",
	Intro:     "Sizes the memory, turns the work into time and prices the rental, as go run ./examples/plan does.",
	Other:     "zh",
	OtherName: "中文",

	Model:        "Model",
	Preset:       "Preset",
	Config:       "or a config.json",
	ConfigHelp:   "a Hugging Face config.json; replaces the preset",
	Task:         "Task",
	Precision:    "Precision",
	Context:      "Context",
	ContextHelp:  "tokens per sequence; empty: 2048",
	Batch:        "Batch",
	BatchHelp:    "micro-batch per GPU (4), or sequences at once for inference (1)",
	Tasks:        map[string]string{"inference": "inference", "training": "full training", "lora": "LoRA fine-tune", "qlora": "QLoRA fine-tune"},
	Kind:         "Work",
	Job:          "a job: tokens to process",
	Service:      "a service: a traffic target",
	Tokens:       "Tokens",
	TokensHelp:   "training tokens (1e8), or tokens generated (1e6): 500M, 2B",
	Deadline:     "Deadline",
	DeadlineHelp: "finish within: 12h, 3d; empty: none",
	RPS:          "Requests/s",
	Prompt:       "Prompt tokens",
	Output:       "Output tokens",
	TTFT:         "TTFT target",
	TPOT:         "TPOT target",
	TargetHelp:   "time to first token, time per output token: 1s, 50ms; empty: none",
	Rental:       "Rental",
	Usage:        "Rental length",
	UsageHelp:    "30d, 720h; empty: as long as the job (a month of service)",
	Budget:       "Budget",
	BudgetHelp:   "most to spend, in the price list's currency; empty: none",
	Prices:       "Price list",
	PricesHelp:   "gpuplan CSV or JSON, SkyPilot vms.csv, vast.ai JSON; none: the built-in SAMPLE list",
	Submit:       "Plan",

	Answer:       "Options",
	Best:         "Best option",
	MemoryTitle:  "Memory per GPU: %s of %s (%.0f%% free)",
	Free:         "free",
	Weights:      "weights",
	Gradients:    "gradients",
	Optimizer:    "optimizer",
	Activations:  "activations",
	KV:           "KV cache",
	Overhead:     "overhead",
	Reserve:      "reserve",
	Time:         "Time",
	TimeBand:     "%s to %s over the utilization band",
	Cost:         "Cost",
	CostRange:    "%s to %s over the time band",
	Warnings:     "Warnings",
	Curves:       "Throughput and time per output token against concurrency",
	NoFit:        "No option fits.",
	WouldFit:     "What would fit",
	LeftOut:      "Left out",
	SampleSource: "built-in sample price list (SAMPLE PRICES, not quotes)",
	Considered:   "%d candidates considered; the best %d, one per offer, cheapest first (expected cost, interruptions included)",

	FixField: "Check the field “%s”:",
	BadInput: "The planner cannot use this input:",
	Busy:     "The server is busy; try again in a moment.",
	Slow:     "The plan ran past the time limit; narrow the search (fewer offers, a smaller price list) and try again.",
	TooLarge: "The upload is over the limit:",
	Internal: "Something went wrong inside gpuplan (a bug):",
	Want: map[string]string{
		"task":      "want inference, training, lora or qlora",
		"precision": "want a precision such as bf16, fp8, int8 or q4_k_m",
		"preset":    "%s is not a preset",
		"config":    "the file is not a config.json gpuplan reads",
		"whole":     "want a whole number from %d to %d",
		"window":    "past the model's context window of %d tokens",
		"runnable":  "the model cannot run this task at this precision",
		"kind":      "want a job or a service",
		"tokens":    "want a count such as 1e8, 500M or 2B",
		"deadline":  "a deadline needs work to finish: tokens above 0",
		"serveTask": "a service runs inference: choose the task inference",
		"rps":       "want requests per second above 0",
		"duration":  "want a duration such as 12h, 30d or 50ms",
		"budget":    "want an amount above 0, such as 500",
		"prices":    "the file is not a price list gpuplan reads",
		"noOffers":  "the price list holds no offer",
	},
	Fields: map[string]string{
		"model": "Preset", "config": "config.json", "task": "Task", "precision": "Precision", "context": "Context",
		"batch": "Batch", "kind": "Work", "tokens": "Tokens", "deadline": "Deadline", "rps": "Requests/s",
		"prompt": "Prompt tokens", "output": "Output tokens", "ttft": "TTFT target", "tpot": "TPOT target",
		"usage": "Rental length", "budget": "Budget", "prices": "Price list",
	},
}

var wordsZH = words{
	Lang:      "zh",
	Title:     "gpuplan：租哪种 GPU、租几张、租多久、花多少钱",
	Intro:     "先算显存，再把工作量换算成时间，最后为租用定价，与 go run ./examples/plan 的回答相同。",
	Other:     "en",
	OtherName: "English",

	Model:        "模型",
	Preset:       "预设模型",
	Config:       "或上传 config.json",
	ConfigHelp:   "Hugging Face 的 config.json，上传后取代预设模型",
	Task:         "任务",
	Precision:    "精度",
	Context:      "上下文长度",
	ContextHelp:  "每条序列的 token 数，留空为 2048",
	Batch:        "批大小",
	BatchHelp:    "每张卡的微批大小（4），推理时为同时处理的序列数（1）",
	Tasks:        map[string]string{"inference": "推理", "training": "全量训练", "lora": "LoRA 微调", "qlora": "QLoRA 微调"},
	Kind:         "工作量",
	Job:          "一次性任务：按 token 计",
	Service:      "在线服务：按流量目标",
	Tokens:       "Token 数",
	TokensHelp:   "训练 token（1e8）或生成 token（1e6），如 500M、2B",
	Deadline:     "完成期限",
	DeadlineHelp: "如 12h、3d，留空为不限",
	RPS:          "每秒请求数",
	Prompt:       "平均输入 token",
	Output:       "平均输出 token",
	TTFT:         "首 token 延迟目标",
	TPOT:         "每 token 输出时间目标",
	TargetHelp:   "TTFT 与 TPOT，如 1s、50ms，留空为不限",
	Rental:       "租用",
	Usage:        "租用时长",
	UsageHelp:    "如 30d、720h，留空为任务所需时长（在线服务为一个月）",
	Budget:       "预算",
	BudgetHelp:   "最多花费，以价格表的币种计，留空为不限",
	Prices:       "价格表",
	PricesHelp:   "gpuplan CSV 或 JSON、SkyPilot vms.csv、vast.ai JSON；不上传则用内置示例价格表",
	Submit:       "开始规划",

	Answer:       "租用方案",
	Best:         "最佳方案",
	MemoryTitle:  "每张卡的显存：%s / %s（空闲 %.0f%%）",
	Free:         "空闲",
	Weights:      "权重",
	Gradients:    "梯度",
	Optimizer:    "优化器状态",
	Activations:  "激活值",
	KV:           "KV 缓存",
	Overhead:     "运行时开销",
	Reserve:      "预留",
	Time:         "用时",
	TimeBand:     "按利用率区间为 %s 至 %s",
	Cost:         "预计费用",
	CostRange:    "按用时区间为 %s 至 %s",
	Warnings:     "注意",
	Curves:       "吞吐量与每 token 输出时间随并发数的变化",
	NoFit:        "没有满足条件的方案。",
	WouldFit:     "可行的调整",
	LeftOut:      "未纳入",
	SampleSource: "内置示例价格表（示例价格，并非报价）",
	Considered:   "共评估 %d 个候选；每个报价取最优的一个，列出最好的 %d 个，按预计费用从低到高（含中断风险）",

	FixField: "请检查「%s」一栏：",
	BadInput: "规划器无法使用这些输入：",
	Busy:     "服务器繁忙，请稍后再试。",
	Slow:     "规划超出了时间限制。请缩小搜索范围（更少的报价、更小的价格表）后再试。",
	TooLarge: "上传的文件超出了限制：",
	Internal: "gpuplan 内部出错（程序缺陷）：",
	Want: map[string]string{
		"task":      "请选择推理、全量训练、LoRA 或 QLoRA",
		"precision": "请填写精度，如 bf16、fp8、int8 或 q4_k_m",
		"preset":    "%s 不是预设模型",
		"config":    "这个文件不是 gpuplan 能读取的 config.json",
		"whole":     "请填写 %d 到 %d 之间的整数",
		"window":    "超出了模型 %d token 的上下文窗口",
		"runnable":  "该模型无法以这个精度运行这个任务",
		"kind":      "请选择一次性任务或在线服务",
		"tokens":    "请填写数量，如 1e8、500M 或 2B",
		"deadline":  "设置完成期限需要有工作量：token 数须大于 0",
		"serveTask": "在线服务只做推理：请把任务选为推理",
		"rps":       "请填写大于 0 的每秒请求数",
		"duration":  "请填写时长，如 12h、30d 或 50ms",
		"budget":    "请填写大于 0 的金额，如 500",
		"prices":    "这个文件不是 gpuplan 能读取的价格表",
		"noOffers":  "价格表里没有任何报价",
	},
	Fields: map[string]string{
		"model": "预设模型", "config": "config.json", "task": "任务", "precision": "精度", "context": "上下文长度",
		"batch": "批大小", "kind": "工作量", "tokens": "Token 数", "deadline": "完成期限", "rps": "每秒请求数",
		"prompt": "平均输入 token", "output": "平均输出 token", "ttft": "首 token 延迟目标", "tpot": "每 token 输出时间目标",
		"usage": "租用时长", "budget": "预算", "prices": "价格表",
	},
}
