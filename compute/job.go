package compute

import (
	"errors"
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
)

// Job is a training job on a set of identical devices, the input of the planner's
// duration estimate. Devices are split into Tensor-way tensor-parallel groups
// (Shoeybi et al. 2019) and Pipeline-way pipeline stages (Narayanan et al. 2021),
// and the Devices / (Tensor × Pipeline) replicas train data parallel, each running
// Accumulation micro-batches of Batch sequences per optimizer step and
// all-reducing their gradients once per step.
//
// Work is the job's total in model FLOPs (TrainingFLOPs, or AdapterTrainingFLOPs
// for LoRA); the job takes Work / (step work × replicas) optimizer steps, the step
// work counted as TrainingFLOPs counts it (AdapterTrainingFLOPs for Adapters). How
// long a step takes comes, in this
// order, from:
//
//   - Utilization, when set: the model FLOPs a device sustains as a fraction of
//     PeakPerDevice (model FLOPs utilization, which absorbs recomputation and the
//     memory-bound work), the band's two ends giving Low and High;
//   - otherwise the step built from its parts (see Time), its on-device time
//     divided by Calibration.Train when a calibration is set;
//   - the band around a modelled step is TrainingError, the model's own measured
//     error (ACCURACY.md).
//
// Link joins the devices of one machine and Network, when set, the machines of
// DevicesPerMachine devices each (see Time for how the collectives use them).
type Job struct {
	Model sizing.Model `json:"model"`
	Work  FLOPs        `json:"work_flop"` // total work of the job; zero takes no time

	// Precision of the compute and of the gradients sent between devices;
	// activations travel at its compute width (Precision.ComputeBits, 16 bits below
	// FP16). Zero: BF16. For FP8 give PeakPerDevice at the FP8 rate: the matrix
	// multiplies run at it, attention and the rest at half of it (the 16-bit rate).
	Precision sizing.Precision `json:"precision"`
	// GradientPrecision is the precision the gradients are all-reduced at; zero:
	// Precision. Mixed-precision stacks that keep an FP32 copy of the gradients
	// often reduce that copy: DeepSpeed's BF16 optimizer reduces its FP32
	// gradients (bf16_optimizer.py, get_grads_for_reduction), Megatron-LM under
	// --accumulate-allreduce-grads-in-fp32, FSDP with reduce_dtype float32.
	GradientPrecision sizing.Precision `json:"gradient_precision"`
	// WeightPrecision is the precision the weights are stored in, which ZeRO-3
	// gathers; zero: Precision. FSDP gathers what it stores: a QLoRA base kept in
	// NF4 under a BF16 Precision (sizing.NF4) moves a quarter of the BF16 bytes
	// (Dettmers et al. 2023 for NF4's 4 bits; Answer.AI's FSDP-QLoRA shards and
	// gathers the quantized storage).
	WeightPrecision sizing.Precision `json:"weight_precision"`
	Recompute       sizing.Recompute `json:"recompute"` // full recompute repeats the forward pass and its all-reduces
	// Adapters marks LoRA or QLoRA on a frozen base (Work from
	// AdapterTrainingFLOPs): the backward pass multiplies the frozen weights once,
	// for the inputs' gradients, not again for their own (Hu et al. 2021, LoRA:
	// the frozen weights need no gradients); the optimizer updates only the
	// adapters, whose update the modelled step leaves out, and the gradients
	// all-reduced are theirs, which are left out too.
	Adapters bool `json:"adapters"`
	// FusedLoss marks a cross-entropy that computes the loss and its gradient from
	// the 16-bit logits in fused kernels (flash-attn's, llm.c's classifier, a
	// compiled loss) rather than through PyTorch's FP32 upcast and log-softmax: the
	// memory-bound work over the vocabulary moves 4 values of the compute width a
	// vocabulary entry and token instead of 3 and 40 bytes besides.
	FusedLoss bool `json:"fused_loss"`

	Batch  int `json:"batch"`   // micro-batch per data-parallel replica, in sequences; at least 1
	SeqLen int `json:"seq_len"` // tokens per sequence; at least 1
	// Accumulation is the micro-batches each replica runs per optimizer step; zero:
	// 1. Gradients are all-reduced once per step, not per micro-batch (ZeRO-3
	// gathers and reduce-scatters for every micro-batch; see Time).
	Accumulation int `json:"accumulation"`

	Devices int `json:"devices"` // 1 to sizing.MaxDevices
	Tensor  int `json:"tensor"`  // tensor-parallel degree; zero: 1; must divide Devices
	// Pipeline is the pipeline-parallel stages (1F1B schedule); zero: 1. Tensor ×
	// Pipeline must divide Devices, and Pipeline is at most the model's layers.
	Pipeline int `json:"pipeline"`

	PeakPerDevice FLOPRate `json:"peak_per_device_flops"` // dense peak at the compute precision
	// Bandwidth is each device's memory bandwidth, for the memory-bound parts of a
	// step (norms, activations, the loss, the optimizer update); zero:
	// PeakPerDevice × DefaultBytesPerFLOP.
	Bandwidth Bandwidth `json:"bandwidth_bytes_per_second"`
	// Link joins the devices of a machine (NVLink, or PCIe): every collective
	// whose devices share a machine takes it, and every collective does when
	// Network is zero. It is needed when Devices > 1.
	Link Link `json:"link"`
	// Network is each device's own link to the other machines (its network
	// port: 25 GB/s for the 200 Gb/s a GPU of an HGX server), for a job of more
	// than DevicesPerMachine devices. Zero: one machine, Link for every
	// collective (give the slowest link on the ring there).
	Network Link `json:"network"`
	// DevicesPerMachine is the devices one machine holds, for a job with a
	// Network; zero: DefaultDevicesPerMachine. Ranks fill the machines in order,
	// tensor-parallel ranks first, then data-parallel, then pipeline stages.
	DevicesPerMachine int `json:"devices_per_machine"`
	// ZeRO is the data-parallel replicas' ZeRO stage, 0 to 3 (Rajbhandari et al.
	// 2020): stage 3, as FSDP's full sharding, reduce-scatters the gradients and
	// gathers the weights before the forward and the backward pass (see Time);
	// 1 and 2 move what plain data parallelism moves.
	ZeRO int `json:"zero"`
	// Arch is the devices' architecture as the catalog names it ("Ampere",
	// "Hopper", "Ada Lovelace"), for the efficiencies that depend on it; empty or
	// unknown: a generic card.
	Arch string `json:"arch"`

	Utilization Band         `json:"utilization"` // zero: the step built from its parts
	Calibration *Calibration `json:"calibration"` // nil: none; see Calibration
	Overlap     float64      `json:"overlap"`     // fraction of the data-parallel collectives hidden behind compute, in [0, 1]
}

// DefaultDevicesPerMachine is the devices a machine holds when a Job with a
// Network leaves DevicesPerMachine zero: the eight GPUs of an HGX or DGX server.
const DefaultDevicesPerMachine = 8

// Timing is the answer to Job.Time. Duration, Step, Steps, Compute, Comm, Bubble,
// Efficiency and MFU are at the middle of the band; Low and High are the
// durations at its fast and slow ends. Low <= Duration <= High always holds
// exactly (each is rounded to the nanosecond, then Low and High are clamped to
// Duration).
type Timing struct {
	Duration time.Duration `json:"duration"`
	Low      time.Duration `json:"low"`  // at Utilization.High, or the model's error
	High     time.Duration `json:"high"` // at Utilization.Low, or the model's error

	Step  time.Duration `json:"step"`  // one optimizer step: its micro-batches, bubble and exposed communication
	Steps float64       `json:"steps"` // optimizer steps the work takes (fractional)

	Compute time.Duration `json:"compute"` // the job's time computing, the pipeline bubble left out
	Comm    time.Duration `json:"comm"`    // the job's exposed communication
	// Bubble is the job's time in pipeline bubbles: under 1F1B each step idles a
	// stage for (Pipeline − 1) micro-batches' forward and backward passes
	// (Narayanan et al. 2021, §2.2.1). Zero without pipeline stages.
	Bubble time.Duration `json:"bubble"`
	// Efficiency is the scaling efficiency Compute / Duration: 1 for one device
	// with no pipeline, less as communication and bubbles take their share.
	Efficiency float64 `json:"efficiency"`
	// MFU is the model FLOPs utilization of the whole job: 6·N + 12·l·s·d_attn
	// FLOPs a token (Chowdhery et al. 2022, appendix B: attention counted without
	// the causal half, as published MFU figures count it; N from MatmulParams;
	// 4·N for Adapters) over Duration × PeakPerDevice × Devices.
	MFU float64 `json:"mfu"`

	Data     int `json:"data"`     // data-parallel degree, Devices / (Tensor × Pipeline)
	Tensor   int `json:"tensor"`   // tensor-parallel degree
	Pipeline int `json:"pipeline"` // pipeline stages
}

// jobLayout is a job's degrees with the zero values resolved.
type jobLayout struct {
	t, p, d, m int
	prec       sizing.Precision
}

func (j *Job) layout() jobLayout {
	l := jobLayout{t: max(j.Tensor, 1), p: max(j.Pipeline, 1), m: max(j.Accumulation, 1), prec: j.Precision}
	if j.Tensor < 0 {
		l.t = j.Tensor
	}
	if j.Pipeline < 0 {
		l.p = j.Pipeline
	}
	if l.prec == 0 {
		l.prec = sizing.BF16
	}
	if l.t > 0 && l.p > 0 {
		l.d = j.Devices / (l.t * l.p)
	}
	return l
}

// Validate reports every problem with the job's fields, joined with errors.Join; each
// wraps ErrInvalid. The model must pass sizing.Model.Validate.
func (j Job) Validate() error {
	l := j.layout()
	var errs []error
	if err := checkModel(j.Model); err != nil {
		errs = append(errs, err)
	}
	if err := nonNegative("work", float64(j.Work)); err != nil {
		errs = append(errs, err)
	}
	if !l.prec.Valid() {
		errs = append(errs, fmt.Errorf("compute: precision %v is not a known precision: %w", l.prec, ErrInvalid))
	}
	if j.GradientPrecision != 0 && !j.GradientPrecision.Valid() {
		errs = append(errs, fmt.Errorf("compute: gradient precision %v is not a known precision: %w", j.GradientPrecision, ErrInvalid))
	}
	if j.WeightPrecision != 0 && !j.WeightPrecision.Valid() {
		errs = append(errs, fmt.Errorf("compute: weight precision %v is not a known precision: %w", j.WeightPrecision, ErrInvalid))
	}
	if j.Recompute > sizing.FullRecompute {
		errs = append(errs, fmt.Errorf("compute: recompute strategy %v is not a known strategy: %w", j.Recompute, ErrInvalid))
	}
	if j.Batch < 1 || j.SeqLen < 1 {
		errs = append(errs, fmt.Errorf("compute: batch %d and sequence length %d must be at least 1: %w", j.Batch, j.SeqLen, ErrInvalid))
	}
	if j.Accumulation < 0 || j.Accumulation > sizing.MaxDevices {
		errs = append(errs, fmt.Errorf("compute: accumulation of %d micro-batches, want 0 to %d: %w", j.Accumulation, sizing.MaxDevices, ErrInvalid))
	}
	if j.Devices < 1 || j.Devices > sizing.MaxDevices {
		errs = append(errs, fmt.Errorf("compute: %d devices, want 1 to %d (sizing.MaxDevices): %w", j.Devices, sizing.MaxDevices, ErrInvalid))
	}
	if l.t < 1 || l.p < 1 || l.t > sizing.MaxDevices || l.p > sizing.MaxDevices ||
		(j.Devices >= 1 && j.Devices%(l.t*l.p) != 0) {
		errs = append(errs, fmt.Errorf("compute: tensor-parallel degree %d × %d pipeline stages do not divide %d devices: %w",
			j.Tensor, j.Pipeline, j.Devices, ErrInvalid))
	}
	if l.t > 1 && !j.Model.HasArchitecture() {
		errs = append(errs, fmt.Errorf("compute: tensor parallelism needs the model's layers and hidden size: %w", ErrInvalid))
	} else if l.t > 1 && j.Model.Heads%l.t != 0 {
		errs = append(errs, fmt.Errorf("compute: tensor-parallel degree %d does not divide %d attention heads: %w", l.t, j.Model.Heads, ErrInvalid))
	}
	if l.p > 1 && !j.Model.HasArchitecture() {
		errs = append(errs, fmt.Errorf("compute: pipeline stages need the model's layers: %w", ErrInvalid))
	} else if l.p > 1 && l.p > j.Model.Layers {
		errs = append(errs, fmt.Errorf("compute: %d pipeline stages for %d layers, want at most a layer a stage: %w", l.p, j.Model.Layers, ErrInvalid))
	}
	if err := positive("peak per device", float64(j.PeakPerDevice)); err != nil {
		errs = append(errs, err)
	}
	if err := nonNegative("memory bandwidth", float64(j.Bandwidth)); err != nil {
		errs = append(errs, err)
	}
	if j.Devices > 1 {
		if err := j.Link.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if j.Network != (Link{}) {
		if err := j.Network.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if j.DevicesPerMachine < 0 || j.DevicesPerMachine > sizing.MaxDevices {
		errs = append(errs, fmt.Errorf("compute: %d devices per machine, want 0 to %d: %w", j.DevicesPerMachine, sizing.MaxDevices, ErrInvalid))
	}
	if j.ZeRO < 0 || j.ZeRO > 3 {
		errs = append(errs, fmt.Errorf("compute: ZeRO stage %d, want 0 to 3: %w", j.ZeRO, ErrInvalid))
	}
	if j.Utilization != (Band{}) {
		if err := j.Utilization.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if j.Calibration != nil {
		if err := j.Calibration.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if !(j.Overlap >= 0 && j.Overlap <= 1) {
		errs = append(errs, fmt.Errorf("compute: overlap %v is outside [0, 1]: %w", j.Overlap, ErrInvalid))
	}
	return errors.Join(errs...)
}

// Time estimates how long the job takes.
//
// One micro-batch on one device is the replica's work split over its Tensor ×
// Pipeline devices. With Utilization set it takes that share of the model FLOPs
// ((6·N + 6·l·s·d_attn)·Batch·SeqLen, TrainingFLOPs' count; 4·N for Adapters) at
// PeakPerDevice × utilization. Otherwise it is built from its parts: the matrix
// multiplies' FLOPs at an efficiency that depends on their width and the card,
// attention's at FlashAttention's, the memory-bound work (norms, activation
// functions, residuals, the loss over the vocabulary) at the memory bandwidth,
// each efficiency cited where train.go defines it; a calibration divides that
// on-device time by Calibration.Train.
//
// Each micro-batch adds the tensor-parallel all-reduces of its activations on the
// critical path (TensorParallelComm, over the stage's layers). An optimizer step
// runs Accumulation micro-batches, the 1F1B pipeline's bubble of Pipeline − 1 more
// (Narayanan et al. 2021, §2.2.1), the optimizer's update of this device's
// parameters at the memory bandwidth (modelled steps only), and the data-parallel
// collectives over the replicas, of which Overlap may hide behind one
// micro-batch's compute (Exposed): one all-reduce of the gradients
// (ParamCount / (Tensor × Pipeline) parameters at GradientPrecision), or under
// ZeRO stage 3 a reduce-scatter of them and two all-gathers of the weights at
// WeightPrecision's width, each half an all-reduce's traffic (NCCL's bus
// bandwidth factors, nccl-tests doc/PERFORMANCE.md), 3Ψ against 2Ψ at one precision
// (Rajbhandari et al. 2020, §7.2). The all-reduce runs once a step; ZeRO-3's
// three run for every micro-batch, each hidden behind that micro-batch by
// Overlap, since stage 3 frees the weights it gathered after each forward and
// backward pass and keeps only its shard of the gradients (Rajbhandari et al.
// 2020, §5.3; FSDP's full sharding likewise). Adapters' gradients are a
// fraction of a percent of the base and left out (their all-reduce pays its
// latency); ZeRO-3 still gathers their frozen base.
//
// Every collective is a ring (Link.AllReduce). Its devices are laid out as
// Megatron-LM ranks them (parallel_state.py: tensor-parallel ranks adjacent, then
// data-parallel, then pipeline stages, adjacent ranks on one machine); a ring
// whose devices all share a machine runs on Link. One that spans machines runs
// as NCCL's rings do: each of its k devices in a machine carries 1/k of the
// traffic that leaves the machine over its own Network port while the rest moves
// over Link, so the ring runs at min(Link, k × Network) per device, with the
// slower of the two latencies a step (k the fewest of its devices any machine
// holds). An NVIDIA engineer reports 192 GB/s of all-reduce bus bandwidth
// between DGX A100 servers of eight 200 Gb/s ports (NVIDIA/nccl issue 812), where
// this gives 8 × 25 GB/s. On two machines NCCL's tree can do up to twice better
// (same issue); the ring is the conservative figure.
//
// It allocates nothing unless it fails, so a planner may call it for every layout of
// every offer. Errors: ErrInvalid for bad fields (see Validate), ErrRange for a
// duration past time.Duration's range.
func (j Job) Time() (Timing, error) {
	if err := j.Validate(); err != nil {
		return Timing{}, err
	}
	l := j.layout()
	sp, err := j.parts(l)
	if err != nil {
		return Timing{}, err
	}
	m, p := float64(l.m), float64(l.p)
	var o stepTime
	var lo, hi float64
	if u := j.Utilization; u != (Band{}) {
		o = sp.at(sp.full/u.Mid(), 0, m, p, j.Overlap)
		lo = sp.at(sp.full/u.High, 0, m, p, j.Overlap).total
		hi = sp.at(sp.full/u.Low, 0, m, p, j.Overlap).total
	} else {
		f := 1.0
		if j.Calibration != nil && j.Calibration.Train > 0 {
			f = j.Calibration.Train
		}
		o = sp.at(sp.device/f, sp.update/f, m, p, j.Overlap)
		lo, hi = o.total*(1-TrainingError), o.total*(1+TrainingError)
	}
	var tm Timing
	tm.Data, tm.Tensor, tm.Pipeline, tm.Steps = l.d, l.t, l.p, sp.steps
	if err := tm.fill(o, sp.steps); err != nil {
		return Timing{}, err
	}
	if o.total > 0 {
		tm.Efficiency = o.compute / o.total
	}
	if d := tm.Duration.Seconds(); d > 0 {
		tm.MFU = sp.mfuWork / (d * float64(j.PeakPerDevice) * float64(j.Devices))
	}
	if tm.Low, err = seconds(sp.steps * lo); err != nil {
		return Timing{}, err
	}
	if tm.High, err = seconds(sp.steps * hi); err != nil {
		return Timing{}, err
	}
	// Each end is rounded on its own; where the step does not depend on the
	// utilization (communication-bound with full overlap) the three can differ by a
	// nanosecond the wrong way. Clamp so that Low <= Duration <= High always holds.
	tm.Low, tm.High = min(tm.Low, tm.Duration), max(tm.High, tm.Duration)
	return tm, nil
}

// fill sets the timing's durations from one optimizer step's parts o, steps times.
func (tm *Timing) fill(o stepTime, steps float64) error {
	var err error
	if tm.Step, err = seconds(o.total); err != nil {
		return err
	}
	if tm.Duration, err = seconds(steps * o.total); err != nil {
		return err
	}
	if tm.Compute, err = seconds(steps * o.compute); err != nil {
		return err
	}
	if tm.Comm, err = seconds(steps * o.comm); err != nil {
		return err
	}
	tm.Bubble, err = seconds(steps * o.bubble)
	return err
}

// Fit returns the calibration under which the modelled job (the step built from
// its parts, Utilization and Calibration ignored) takes step, a measured optimizer
// step of this job: Train is the factor on the modelled on-device speed that
// reproduces it, so that j with that Calibration times its steps at step (to the
// nanosecond's rounding), and another job on the same card carries it over.
//
// A step faster than the card allows is an error wrapping ErrInvalid that names
// it: faster than the step's matrix multiplies and attention at PeakPerDevice with
// nothing else, or than its communication alone. Errors of Validate too.
func (j Job) Fit(step time.Duration) (Calibration, error) {
	j.Utilization, j.Calibration = Band{}, nil
	if err := j.Validate(); err != nil {
		return Calibration{}, err
	}
	if step <= 0 {
		return Calibration{}, fmt.Errorf("compute: a measured step of %v, want more than zero: %w", step, ErrInvalid)
	}
	l := j.layout()
	sp, err := j.parts(l)
	if err != nil {
		return Calibration{}, err
	}
	m, p := float64(l.m), float64(l.p)
	want := step.Seconds()
	if floor := sp.peakFloor * (m + p - 1); want < floor {
		return Calibration{}, fmt.Errorf("compute: a measured step of %v is faster than the %v its matrix multiplies and attention take at the full %v peak: %w",
			step, time.Duration(floor*1e9), j.PeakPerDevice, ErrInvalid)
	}
	if floor := sp.at(0, 0, m, p, j.Overlap).total; want <= floor {
		return Calibration{}, fmt.Errorf("compute: a measured step of %v is no longer than the %v its communication alone takes: %w",
			step, time.Duration(floor*1e9), ErrInvalid)
	}
	f, ok := fitFactor(func(f float64) float64 { return sp.at(sp.device/f, sp.update/f, m, p, j.Overlap).total }, want)
	if !ok {
		return Calibration{}, fmt.Errorf("compute: a measured step of %v is %.3g times the modelled speed, past the factor of %v a calibration allows: %w",
			step, f, maxCalibration, ErrInvalid)
	}
	return Calibration{Train: f}, nil
}

// WithOffload returns tm, the timing of a job whose optimizer runs on the host,
// with what that adds and Job.Time does not model: each step sends this device's
// shard of the gradients (offload, in bytes) to the host and as many bytes of
// updated weights back over host, not overlapped (Ren et al. 2021,
// ZeRO-Offload). It is a lower bound: the CPU's own optimizer step, which
// ZeRO-Offload overlaps with the next step, is not counted. (ZeRO-3's gathers are
// Job.ZeRO's.)
//
// The added time lands on Duration, Low and High alike, and Efficiency and MFU
// fall in proportion. No offload returns tm unchanged. Errors: ErrInvalid for a
// negative offload or a host bandwidth that is not positive when offload is
// set; ErrRange past time.Duration's range.
func (tm Timing) WithOffload(offload sizing.Bytes, host Bandwidth) (Timing, error) {
	if offload < 0 {
		return Timing{}, fmt.Errorf("compute: %d bytes offloaded, want 0 or more: %w", offload, ErrInvalid)
	}
	var extra float64 // seconds
	if offload > 0 && tm.Steps > 0 {
		if err := positive("host bandwidth", float64(host)); err != nil {
			return Timing{}, err
		}
		extra = 2 * float64(offload) / float64(host) * tm.Steps
	}
	if extra == 0 {
		return tm, nil
	}
	out := tm
	var err error
	for _, d := range []*time.Duration{&out.Duration, &out.Low, &out.High} {
		if *d, err = seconds(d.Seconds() + extra); err != nil {
			return Timing{}, err
		}
	}
	scale := float64(tm.Duration) / float64(out.Duration)
	out.Efficiency *= scale
	out.MFU *= scale
	return out, nil
}
