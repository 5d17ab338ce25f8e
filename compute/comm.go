package compute

import (
	"fmt"
	"math"
	"time"

	"github.com/gpuplan/gpuplan/internal/checked"
	"github.com/gpuplan/gpuplan/sizing"
)

// Link is the interconnect between the devices of a job, as each device sees it.
//
// Bandwidth is per direction: the bytes per second one device can send while it
// receives as much (NVIDIA's NVLink totals count both directions, so an A100's
// "600 GB/s" is 300 GB/s here; NVLink converts). Latency is the fixed cost of one
// step of a ring collective (a ring all-reduce over n devices takes 2·(n−1) steps);
// zero ignores it, which is fair for large gradient buckets and optimistic for the
// small activation all-reduces of tensor parallelism.
//
// The constructors give raw figures; what collectives reach is lower (NCCL's bus
// bandwidth on NVLink is commonly 75–85% of the per-direction figure, and PCIe loses
// a further 10–20% to packet headers), so scale Bandwidth down for a measured figure.
type Link struct {
	Bandwidth Bandwidth     `json:"bandwidth_bytes_per_second"`
	Latency   time.Duration `json:"latency"`
}

// NVLink returns the link of a device whose NVLink bandwidth, totalled over both
// directions as NVIDIA's datasheets print it, is total: Bandwidth = total / 2. The
// A100 SXM4's 600 GB/s is 300 GB/s per direction, the H100 SXM's 900 GB/s is 450,
// the H800's 400 GB/s is 200.
func NVLink(total Bandwidth) Link { return Link{Bandwidth: total / 2} }

// PCIe returns the per-direction bandwidth of an x16 PCI Express link of the given
// generation after line encoding, from the PCI-SIG base specifications' transfer
// rates: Gen1 2.5 GT/s and Gen2 5 GT/s with 8b/10b encoding (4 and 8 GB/s), Gen3
// 8 GT/s, Gen4 16 GT/s and Gen5 32 GT/s with 128b/130b encoding (15.75, 31.5 and
// 63 GB/s, more exactly 15.75, 31.51 and 63.02: the "16, 32, 64 GB/s" usually
// quoted). Transaction-layer overhead leaves
// roughly 80–90% of that for data. Other generations return ErrInvalid.
func PCIe(gen int) (Bandwidth, error) {
	const lanes = 16
	var gts, enc float64
	switch gen {
	case 1:
		gts, enc = 2.5e9, 8.0/10
	case 2:
		gts, enc = 5e9, 8.0/10
	case 3:
		gts, enc = 8e9, 128.0/130
	case 4:
		gts, enc = 16e9, 128.0/130
	case 5:
		gts, enc = 32e9, 128.0/130
	default:
		return 0, fmt.Errorf("compute: PCIe generation %d, want 1 to 5: %w", gen, ErrInvalid)
	}
	return Bandwidth(gts * enc * lanes / 8), nil
}

// PCIeLink returns Link{Bandwidth: PCIe(gen)}: devices talking over PCIe x16, as
// GeForce cards without NVLink do.
func PCIeLink(gen int) (Link, error) {
	b, err := PCIe(gen)
	return Link{Bandwidth: b}, err
}

// Validate reports a link whose bandwidth is not positive and finite or whose
// latency is negative, wrapping ErrInvalid.
func (l Link) Validate() error {
	if err := positive("link bandwidth", float64(l.Bandwidth)); err != nil {
		return err
	}
	if l.Latency < 0 {
		return fmt.Errorf("compute: link latency %v is negative: %w", l.Latency, ErrInvalid)
	}
	return nil
}

// AllReduce returns the time of a ring all-reduce of size bytes over n devices on
// this link: 2·(n−1)·Latency + 2·(n−1)/n · size / Bandwidth. In a ring each device
// sends and receives 2·(n−1) chunks of size/n, half in the reduce-scatter and half
// in the all-gather (Patarasuk and Yuan 2009; Thakur et al. 2005). One device takes
// no time. size must be non-negative and n at least 1 (ErrInvalid); ErrRange past
// time.Duration's range.
func (l Link) AllReduce(size sizing.Bytes, n int) (time.Duration, error) {
	if err := l.Validate(); err != nil {
		return 0, err
	}
	if size < 0 {
		return 0, fmt.Errorf("compute: all-reduce of %d bytes, want 0 or more: %w", size, ErrInvalid)
	}
	if n < 1 {
		return 0, fmt.Errorf("compute: all-reduce over %d devices, want at least 1: %w", n, ErrInvalid)
	}
	return seconds(l.allReduce(float64(size), n))
}

// allReduce is AllReduce in seconds, for valid inputs.
func (l Link) allReduce(size float64, n int) float64 {
	if n <= 1 {
		return 0
	}
	steps := 2 * float64(n-1)
	return steps*l.Latency.Seconds() + steps/float64(n)*size/float64(l.Bandwidth)
}

// AllReduceTime returns the time of a ring all-reduce of size bytes over n devices
// joined by a link of per-direction bandwidth link, without latency:
// 2·(n−1)/n · size / link. link is per direction: for an NVLink figure printed as a
// two-way total (a catalog card's NVLink field), pass NVLink(total).Bandwidth. See
// Link.AllReduce for the latency term and the errors.
func AllReduceTime(size sizing.Bytes, n int, link Bandwidth) (time.Duration, error) {
	return Link{Bandwidth: link}.AllReduce(size, n)
}

// Exposed returns the part of comm that compute does not hide: comm − min(overlap ·
// comm, compute). overlap is the fraction of the communication that can run
// concurrently with compute (0: none, as a plain all-reduce after the backward pass;
// PyTorch DDP's bucketed all-reduce during the backward pass hides much of it), and
// no more communication hides than there is compute to hide it behind. overlap
// outside [0, 1], NaN or negative durations give ErrInvalid.
func Exposed(comm, compute time.Duration, overlap float64) (time.Duration, error) {
	if !(overlap >= 0 && overlap <= 1) {
		return 0, fmt.Errorf("compute: overlap %v is outside [0, 1]: %w", overlap, ErrInvalid)
	}
	if comm < 0 || compute < 0 {
		return 0, fmt.Errorf("compute: negative duration (comm %v, compute %v): %w", comm, compute, ErrInvalid)
	}
	return seconds(exposed(comm.Seconds(), compute.Seconds(), overlap))
}

func exposed(comm, compute, overlap float64) float64 {
	return comm - math.Min(overlap*comm, compute)
}

// Efficiency returns the scaling efficiency compute / (compute + exposed): the
// fraction of each step a device spends computing, always in [0, 1]. With no
// exposed communication it is 1; with nothing to compute, 0. Negative durations,
// which Exposed and DataParallelStep never produce, are read as zero: a negative
// compute gives 0 and a negative exposed time (with positive compute) gives 1.
func Efficiency(compute, exposed time.Duration) float64 {
	return efficiency(compute.Seconds(), exposed.Seconds())
}

func efficiency(compute, exposed float64) float64 {
	if compute <= 0 {
		return 0
	}
	if exposed <= 0 {
		return 1
	}
	return compute / (compute + exposed)
}

// Step is one data-parallel training step: each device computes its micro-batch,
// then the replicas all-reduce their gradients.
type Step struct {
	Compute time.Duration `json:"compute"`
	Comm    time.Duration `json:"comm"`    // the whole gradient all-reduce
	Exposed time.Duration `json:"exposed"` // the part compute does not hide
	Total   time.Duration `json:"total"`   // Compute + Exposed
	// Efficiency is Compute / Total, the scaling efficiency of the data-parallel group.
	Efficiency float64 `json:"efficiency"`
}

// DataParallelStep returns the step of data-parallel training on data replicas:
// compute per device, then a ring all-reduce of grads bytes of gradients over the
// replicas on link (Link.AllReduce), of which overlap is hidden behind compute
// (Exposed; PyTorch DDP and DeepSpeed start all-reducing gradient buckets while the
// backward pass still runs). Errors: ErrInvalid for negative compute or gradients,
// data < 1, a bad link or overlap outside [0, 1]; ErrRange when the all-reduce or
// Total (compute plus exposed communication) is past time.Duration's range.
func DataParallelStep(compute time.Duration, grads sizing.Bytes, data int, link Link, overlap float64) (Step, error) {
	if compute < 0 {
		return Step{}, fmt.Errorf("compute: negative compute time %v: %w", compute, ErrInvalid)
	}
	comm, err := link.AllReduce(grads, data)
	if err != nil {
		return Step{}, err
	}
	exp, err := Exposed(comm, compute, overlap)
	if err != nil {
		return Step{}, err
	}
	total, ok := checked.Add(int64(compute), int64(exp))
	if !ok {
		return Step{}, fmt.Errorf("compute: step of %v compute plus %v exposed communication is beyond time.Duration's range: %w", compute, exp, ErrRange)
	}
	return Step{Compute: compute, Comm: comm, Exposed: exp, Total: time.Duration(total), Efficiency: Efficiency(compute, exp)}, nil
}

// tpAllReduces returns the activation all-reduces per layer for one micro-batch,
// forward and backward (Shoeybi et al. 2019, §3: two in the forward pass, after the
// attention and the MLP blocks, and two in the backward pass); full recomputation
// repeats the forward pair.
func tpAllReduces(r sizing.Recompute) float64 {
	if r == sizing.FullRecompute {
		return 6
	}
	return 4
}

// TensorParallelComm returns the communication time of one training step (forward
// and backward of one micro-batch) under tensor parallelism of degree tensor: per
// layer, 4 all-reduces (6 under full recomputation) of the s·b·h activations at p's
// compute width (p.ComputeBits(): 16 bits for formats narrower than 16) over the tensor-parallel group (Shoeybi et al. 2019, §3). It is not
// overlapped with compute: each all-reduce sits on the critical path. One-way tensor
// parallelism takes no time. The model needs layers and hidden size, and must pass
// sizing.Model.Validate (ErrInvalid).
func TensorParallelComm(m sizing.Model, batch, seqLen, tensor int, p sizing.Precision, r sizing.Recompute, link Link) (time.Duration, error) {
	if err := checkModel(m); err != nil {
		return 0, err
	}
	s, err := tpComm(m, batch, seqLen, tensor, p, r, link)
	if err != nil {
		return 0, err
	}
	return seconds(s)
}

func tpComm(m sizing.Model, batch, seqLen, tensor int, p sizing.Precision, r sizing.Recompute, link Link) (float64, error) {
	if tensor < 1 || batch < 1 || seqLen < 1 {
		return 0, fmt.Errorf("compute: tensor %d, batch %d and sequence length %d must be at least 1: %w", tensor, batch, seqLen, ErrInvalid)
	}
	if tensor == 1 {
		return 0, nil
	}
	if !m.HasArchitecture() {
		return 0, fmt.Errorf("compute: tensor-parallel communication needs layers and hidden size: %w", ErrInvalid)
	}
	if !p.Valid() {
		return 0, fmt.Errorf("compute: activation precision %v is not a known precision: %w", p, ErrInvalid)
	}
	if err := link.Validate(); err != nil {
		return 0, err
	}
	// Activations travel at the compute width: 16 bits for FP8 and quantized formats.
	size := float64(seqLen) * float64(batch) * float64(m.Hidden) * p.ComputeBits() / 8
	return tpAllReduces(r) * float64(m.Layers) * link.allReduce(size, tensor), nil
}
