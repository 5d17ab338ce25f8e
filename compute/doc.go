// Package compute turns work into time: how long a training job takes on a set of
// devices, and how fast a model serves.
//
// Most callers want one of two calls. Job.Time answers how long a training job
// takes: give it the model, the work (TrainingFLOPs), the batch and sequence, the
// devices with their peak and link, and it returns a Timing with the duration and
// its band. Serving.At and Serving.Best answer what a serving replica does at a
// load: time to first token, time per output token and tokens per second, or the
// most users it holds within latency targets. The package-level Example shows both.
//
// The units are FLOPs (an amount of work), FLOPRate (work per second) and Bandwidth
// (bytes per second), all float64 since training runs exceed int64, with decimal
// constants (TFLOPS, GBps) and parsers (ParseFLOPRate("312 TFLOPS"),
// ParseBandwidth("2039GBps")). Durations are time.Duration; a result past its range
// (about 292 years) is an error wrapping ErrRange, never a wrapped-around value.
//
// The main pieces:
//
//   - Work: SampleFLOPs (samples × FLOPs per sample, as the first seed article
//     counts), TrainingFLOPs (6·N·D plus Kaplan's attention term),
//     TrainingFLOPsRecompute (8·N·D under full recomputation), AdapterTrainingFLOPs
//     (4·N·D for LoRA and QLoRA on a frozen base), InferenceFLOPs (2·N per token),
//     MegatronFLOPs and MegatronTime (Narayanan et al. 2021).
//   - Solver: TimeFor, RateFor, PeakFor, DevicesFor and TimeBand, with utilization as
//     an input: SeedUtilization (the seed article's 60–80%), PublishedMFU (38–52%, what
//     large runs report) and DefaultUtilization (0.45).
//   - Multi-GPU: Link (per-direction bandwidth and per-step latency), NVLink and PCIe
//     links, ring AllReduceTime, Exposed communication under overlap, Efficiency,
//     DataParallelStep and TensorParallelComm.
//   - Job.Time: the planner's entry point. A training job on Devices devices split
//     into tensor- and data-parallel groups gives a Timing with the duration, its
//     low/high band, and the scaling efficiency. It does not allocate.
//   - Decode.Speed and Decode.Prefill: memory-bound decode tokens/s capped by
//     compute, on one device or a tensor-parallel group, and compute-bound prefill.
//   - Serving: one replica under continuous batching; MaxConcurrency (the KV cache
//     beside the weights), At (TTFT, TPOT and tokens/s at a concurrency) and Best
//     (the most concurrency within latency targets). Serving.Prepare validates it
//     and works out the per-replica quantities once, into a PreparedServing with
//     the same methods, for many loads. Decode and Serving time their steps with
//     one model.
//
// Card figures (peaks, memory and link bandwidth) come from package catalog; this
// package takes them as plain values, so it imports only sizing.
//
// A short use:
//
//	work, _ := compute.TrainingFLOPs(sizing.Model{Params: 7e9}, 1e9, 0) // 4.2e19 FLOP
//	d, _ := compute.TimeFor(work, 312*compute.TFLOPS*compute.DefaultUtilization)
//	fmt.Println(d.Round(time.Minute)) // 83h6m0s on one A100 at 45% of peak
//
// (ExampleTimeFor runs it.)
//
// Zero values: a zero Band is unset, and Job reads it as PublishedMFU. A zero Link
// has no bandwidth: Link.Validate and AllReduce refuse it, and Job refuses it when
// Devices is over 1 (one device sends nothing, so its Link may stay zero). In a Job
// a zero Tensor means 1 and a zero Precision BF16; a zero Work takes no time; a zero
// Devices, Batch, SeqLen or PeakPerDevice is refused. In a Decode a zero Batch or Devices means
// 1, a zero KV the weights' KVDefault, and a zero MemoryEfficiency or Utilization the
// package defaults; a zero Weights, Bandwidth or Peak is refused. The zero FLOPs,
// FLOPRate and Bandwidth are zero; rates must be positive where a time is divided by
// them.
//
// In a Serving a zero Devices means 1, a zero Reserve DefaultServingReserve and a
// zero PrefillChunk sizing.DefaultPrefillChunk; a replica that cannot hold the
// model and one sequence is ErrNoFit, a latency target missed at concurrency 1
// ErrUnreachable.
//
// Bad input (negative, zero where a positive value is needed, NaN, Inf, unknown
// units) returns an error wrapping ErrInvalid; parse failures are *ParseError.
// Messages start with "compute: ", quote the input once and end with the sentinel's
// text, which carries no package name of its own. Every value is immutable and every
// function is safe for concurrent use.
package compute
