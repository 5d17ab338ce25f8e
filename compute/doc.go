// Package compute turns work into time: how long a training job takes on a set of
// devices, and what a model served on them does.
//
// Most callers want one of three calls. Job.Time answers how long a training job
// takes: give it the model, the work (TrainingFLOPs), the batch, sequence and
// accumulation, the devices with their peak, bandwidth, architecture and links, and
// it returns a Timing with the duration, its band, the MFU and the pipeline bubble.
// Serving.At and Serving.Best answer what a serving replica does for users in a
// closed loop: time to first token, time per output token and tokens per second, or
// the most users it holds within latency targets; Serving.Under does the same for
// requests arriving at random at a rate, with percentiles and queueing. The
// package-level Example shows them.
//
// The times come from a model of each step built from its parts, each part at an
// efficiency cited where it is defined: a training step's matrix multiplies at an
// efficiency that depends on their width and the card, attention at
// FlashAttention's, the memory-bound kernels at the memory bandwidth, the optimizer
// update, the tensor-parallel all-reduces, the 1F1B bubble and the exposed gradient
// all-reduce (Job.Time); a serving step's weight read by weight format and card
// (MemoryEfficiencyFor), its KV read (KVEfficiency), its multiplies
// (PrefillEfficiency), its all-reduces and fixed costs (StepOverhead,
// RequestOverhead). ACCURACY.md holds the model against 160 published measurements
// and gives its error; TrainingError is the band Job.Time draws from it. A
// measurement of one's own carries over: Job.Fit and Serving.Fit return a
// Calibration, which Job.Calibration and Serving.Calibration apply.
//
// The units are FLOPs (an amount of work), FLOPRate (work per second) and Bandwidth
// (bytes per second), all float64 since training runs exceed int64, with decimal
// constants (TFLOPS, GBps) and parsers (ParseFLOPRate("312 TFLOPS"),
// ParseBandwidth("2039GBps")). Durations are time.Duration; a result past its range
// (about 292 years) is an error wrapping ErrRange, never a wrapped-around value;
// DeviceHours answers in float64 hours, without that limit.
//
// The other pieces:
//
//   - Work: SampleFLOPs (samples × FLOPs per sample, as the first seed article
//     counts), TrainingFLOPs (6·N·D plus Kaplan's attention term),
//     TrainingFLOPsRecompute (8·N·D under full recomputation), AdapterTrainingFLOPs
//     (4·N·D for LoRA and QLoRA on a frozen base), InferenceFLOPs (2·N per token),
//     MegatronFLOPs and MegatronTime (Narayanan et al. 2021).
//   - Solver: TimeFor, DeviceHours, RateFor, PeakFor, DevicesFor and TimeBand, with
//     utilization as an input: SeedUtilization (the seed article's 60–80%),
//     PublishedMFU (38–52%, what large runs report) and DefaultUtilization (0.45).
//   - Multi-GPU: Link (per-direction bandwidth and per-step latency), NVLink and PCIe
//     links, ring AllReduceTime, Exposed communication under overlap, Efficiency,
//     DataParallelStep and TensorParallelComm; a Job over several machines
//     (Job.Network, Job.DevicesPerMachine) runs the rings that cross them as NCCL
//     does, its GPUs in each machine sharing their ports.
//   - Decode.Speed and Decode.Prefill: a bare decode loop (gpt-fast, llama.cpp) on
//     one device or a tensor-parallel group, with the serving step's model and no
//     engine around it.
//   - Serving.Prepare validates a replica and works out its quantities once, into a
//     PreparedServing whose MaxConcurrency, At, Best and Under the planner calls for
//     many loads; Serving's methods are shorthand for Prepare and one call.
//   - What deployment planners try on a replica: a prefix cache
//     (Serving.PrefixShare), speculative decoding with a draft (Serving.Speculative,
//     a Speculation whose TokensPerStep is Leviathan et al.'s expected tokens a
//     step) and expert parallelism for a mixture of experts (Serving.Expert); and
//     prefill and decoding on replicas of their own (Disaggregated, after
//     DistServe), with the KV cache crossing a Link, whose Prepare and Under answer
//     as a replica's do.
//
// Card figures (peaks, memory and link bandwidth, architecture) come from package
// catalog; this package takes them as plain values, so it imports only sizing.
//
// Zero values: a zero Band leaves a Job's step to the model (see Job). A zero Link
// has no bandwidth: Link.Validate and AllReduce refuse it, and Job refuses it when
// Devices is over 1 (one device sends nothing, so its Link may stay zero). In a Job
// a zero Tensor, Pipeline or Accumulation means 1, a zero Precision BF16, a zero
// Bandwidth PeakPerDevice × DefaultBytesPerFLOP, an empty Arch a generic card, a
// zero Network one machine, a zero DevicesPerMachine DefaultDevicesPerMachine and
// a zero ZeRO plain data parallelism; a zero Work takes no time; a zero Devices, Batch, SeqLen or PeakPerDevice is
// refused. In a Decode a zero Batch or Devices means 1, a zero KV the weights'
// KVDefault, and a zero MemoryEfficiency or Utilization the defaults for the
// weights and Arch; a zero Weights, Bandwidth or Peak is refused. A zero factor of
// a Calibration is not measured. The zero FLOPs, FLOPRate and Bandwidth are zero;
// rates must be positive where a time is divided by them.
//
// In a Serving a zero Devices means 1, a zero Reserve DefaultServingReserve and a
// zero PrefillChunk sizing.DefaultPrefillChunk; a replica that cannot hold the
// model and one sequence is ErrNoFit, a latency target missed at concurrency 1
// ErrUnreachable; a rate past what the replica sustains is Under's Stable false,
// never an error. A zero PrefixShare is no prefix cache, a nil Speculative no
// draft, a zero Expert tensor parallelism for the experts too. A Disaggregated
// needs a replica on each side and a Link; a rate past either side's capacity is
// Stable false too.
//
// Bad input (negative, zero where a positive value is needed, NaN, Inf, unknown
// units, a measurement faster than the card allows) returns an error wrapping
// ErrInvalid; parse failures are *ParseError. Messages start with "compute: " and
// end with the sentinel's text, which carries no package name of its own; an error
// from package sizing is carried whole after "compute: ". Every value is immutable
// and every function is safe for concurrent use.
package compute
