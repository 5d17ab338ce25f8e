package compute

import (
	"errors"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/sizing"
	"pgregory.net/rapid"
)

// dataComm returns the seconds one optimizer step of j spends in its
// data-parallel collectives, with nothing hidden and no tensor parallelism.
func dataComm(t *testing.T, j Job) float64 {
	t.Helper()
	j.Overlap, j.Tensor, j.Pipeline = 0, 1, 1
	j.Utilization = PublishedMFU()
	tm := mustTime(t, j)
	return tm.Comm.Seconds() / tm.Steps
}

// The all-reduce bus bandwidth NCCL's maintainers report between machines
// (measured, or what a setup should get; large buffers, NCCL's ring): the bus
// bandwidth is 2·(n−1)/n × size / time
// (nccl-tests doc/PERFORMANCE.md), which the data-parallel all-reduce of
// Llama-2-7B's BF16 gradients over two machines reproduces within 5%.
func TestBusBandwidthBetweenMachines(t *testing.T) {
	for _, tc := range []struct {
		name        string
		link        Link
		network     Bandwidth // each GPU's share of its machine's ports
		machine     int
		measured    Bandwidth
		fromMachine Bandwidth // what the model gives: min(Link, machine × network)
	}{
		// NVIDIA/nccl issue 812 (2023-03-31, an NVIDIA engineer): a DGX A100,
		// eight 200 Gb/s InfiniBand ports for its eight GPUs, measures 192 GB/s.
		{"DGX A100, 8 × 200 Gb/s", NVLink(a100NVLink), 25 * GBps, 8, 192 * GBps, 200 * GBps},
		// NVIDIA/nccl-tests issue 29 (2019-12-06, an NVIDIA engineer): a DGX-1
		// gets 48 GB/s through its four 100 Gb/s adapters for eight V100s (NVLink
		// 300 GB/s both ways).
		{"DGX-1, 4 × 100 Gb/s", NVLink(300 * GBps), 4 * 12.5 * GBps / 8, 8, 48 * GBps, 50 * GBps},
		// NVIDIA/nccl issue 412 (2023-04-24, an NVIDIA engineer): eight A800s
		// (NVLink 400 GB/s) with one 200 Gb/s HDR port should get 24 GB/s
		// between machines.
		{"8 × A800, 1 × 200 Gb/s", NVLink(h800NVLink), 25 * GBps / 8, 8, 24 * GBps, 25 * GBps},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const devices = 16
			j := Job{Model: llama27B, Work: 1e20, Batch: 1, SeqLen: 4096, Devices: devices, PeakPerDevice: a100Peak,
				Link: tc.link, Network: Link{Bandwidth: tc.network}, DevicesPerMachine: tc.machine}
			size := float64(llama27B.ParamCount()) * 2
			bus := Bandwidth(2 * (devices - 1) / float64(devices) * size / dataComm(t, j))
			if !within(float64(bus), float64(tc.fromMachine), 1e-6) {
				t.Errorf("bus bandwidth %v, want min(link, %d × network) = %v", bus, tc.machine, tc.fromMachine)
			}
			if !within(float64(bus), float64(tc.measured), 0.05) {
				t.Errorf("bus bandwidth %v, measured %v: want within 5%%", bus, tc.measured)
			}
		})
	}
}

// Which link each ring of a job spanning machines runs at, by its layout.
func TestRingsAcrossMachines(t *testing.T) {
	link, net := NVLink(a100NVLink), Link{Bandwidth: 25 * GBps, Latency: 5 * time.Microsecond}
	across := func(k int) Link {
		return Link{Bandwidth: min(link.Bandwidth, Bandwidth(k)*net.Bandwidth), Latency: net.Latency}
	}
	for _, tc := range []struct {
		name                       string
		devices, tensor, pipe, per int
		network                    Link
		wantTensor, wantData       Link
	}{
		{"no network: one machine", 64, 1, 1, 8, Link{}, link, link},
		{"the whole job in one machine", 8, 2, 1, 8, net, link, link},
		// Two machines of eight, data parallel: each machine's eight ports.
		{"16 data parallel", 16, 1, 1, 8, net, link, across(8)},
		// Tensor 8 fills a machine: each device's data-parallel peers are all in
		// other machines, one port each (the flat ring of before).
		{"TP 8 × DP 4", 32, 8, 1, 8, net, link, across(1)},
		// Tensor 2 leaves four data-parallel peers in each machine.
		{"TP 2 × DP 16", 32, 2, 1, 8, net, link, across(4)},
		// A pipeline stage's two replicas fit in a machine with another stage's.
		{"TP 2 × DP 2 × PP 4", 16, 2, 4, 8, net, link, link},
		// Tensor 16 on machines of 8: its rings cross, eight ports a machine.
		{"TP 16", 32, 16, 1, 8, net, across(8), across(1)},
		// Five GPUs on machines of two: the machine holding one carries it alone.
		{"5 over machines of 2", 5, 1, 1, 2, net, link, across(1)},
		// Tensor 4 on machines of 6: a group straddles with 2 in each.
		{"TP 4 on machines of 6", 12, 4, 1, 6, net, across(2), across(1)},
		{"default machine of 8", 16, 1, 1, 0, net, link, across(8)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := Job{Devices: tc.devices, Tensor: tc.tensor, Pipeline: tc.pipe, Link: link, Network: tc.network, DevicesPerMachine: tc.per}
			tp, dp := j.rings(j.layout())
			if tp != tc.wantTensor || dp != tc.wantData {
				t.Errorf("rings: tensor %+v, data %+v; want %+v, %+v", tp, dp, tc.wantTensor, tc.wantData)
			}
		})
	}
}

// ZeRO-3 reduce-scatters the gradients and gathers the weights twice: 1.5 times
// the all-reduce's traffic at one precision (Rajbhandari et al. 2020, §7.2: 3Ψ
// against 2Ψ), and the same traffic as an all-reduce of FP32 gradients when the
// weights travel at 16 bits. Stages 1 and 2 move what data parallelism moves.
func TestZeROVolume(t *testing.T) {
	// No latency: a reduce-scatter and two all-gathers take 3(n−1) steps to an
	// all-reduce's 2(n−1), which would blur the FP32 case's ratio.
	j := Job{Model: llama27B, Work: 1e20, Batch: 1, SeqLen: 4096, Devices: 32, PeakPerDevice: a100Peak,
		Link: NVLink(a100NVLink), Network: Link{Bandwidth: 25 * GBps}}
	plain := dataComm(t, j)
	for _, tc := range []struct {
		stage int
		grads sizing.Precision
		want  float64
	}{{1, 0, 1}, {2, 0, 1}, {3, 0, 1.5}, {3, sizing.FP32, 1}} {
		z := j
		z.ZeRO, z.GradientPrecision = tc.stage, tc.grads
		base := plain
		if tc.grads == sizing.FP32 {
			f := j
			f.GradientPrecision = sizing.FP32
			base = dataComm(t, f)
		}
		if got := dataComm(t, z) / base; !within(got, tc.want, 1e-6) {
			t.Errorf("stage %d, gradients %v: %.4f × the all-reduce, want %v", tc.stage, tc.grads, got, tc.want)
		}
	}
	// With four micro-batches a step the all-reduce still runs once, but
	// ZeRO-3 gathers the weights and reduce-scatters the gradients for each
	// (stage 3 keeps only its shards between passes): four times its traffic.
	for _, stage := range []int{0, 3} {
		once := j
		once.ZeRO = stage
		four := once
		four.Accumulation = 4
		want := 1.0
		if stage == 3 {
			want = 4
		}
		if got := dataComm(t, four) / dataComm(t, once); !within(got, want, 1e-6) {
			t.Errorf("stage %d, 4 micro-batches: %.4f × one micro-batch's traffic, want %v", stage, got, want)
		}
	}
	// Adapters' gradients are left out, but ZeRO-3 still gathers the base:
	// two thirds of its traffic.
	a := j
	a.Adapters = true
	if got := dataComm(t, a); got != 0 {
		t.Errorf("adapters: %v s of data-parallel traffic, want none", got)
	}
	a.ZeRO = 3
	if got := dataComm(t, a) / plain; !within(got, 1, 1e-6) {
		t.Errorf("adapters under ZeRO-3: %.4f × the all-reduce, want the weights' two gathers, 1", got)
	}
	// A QLoRA base stored in NF4 is gathered as stored: its 4 bits and their
	// quantization constants (NF4.Bits()), about a quarter of the BF16 gathers.
	a.WeightPrecision = sizing.NF4
	if got, want := dataComm(t, a)/plain, sizing.NF4.Bits()/16; !within(got, want, 1e-6) {
		t.Errorf("an NF4 base under ZeRO-3: %.4f × the all-reduce, want %.4f", got, want)
	}
	a.WeightPrecision = 99
	if _, err := a.Time(); !errors.Is(err, ErrInvalid) {
		t.Errorf("weight precision 99: %v, want ErrInvalid", err)
	}
}

// Tensor-parallel groups inside a machine keep its link when the job spans
// machines: the tensor-parallel time of a TP-8 job is the same on one machine
// or on four.
func TestTensorParallelStaysInMachine(t *testing.T) {
	j := Job{Model: llama27B, Work: 1e20, Batch: 1, SeqLen: 4096, Devices: 8, Tensor: 8, PeakPerDevice: a100Peak,
		Link: NVLink(a100NVLink), Utilization: PublishedMFU()}
	one := mustTime(t, j)
	j.Devices, j.Network = 32, Link{Bandwidth: 25 * GBps}
	four := mustTime(t, j)
	if a, b := one.Comm.Seconds()/one.Steps, four.Comm.Seconds()/four.Steps; four.Comm <= 0 || b < a || !within(a, mustTP(t, j), 1e-6) {
		t.Errorf("TP 8: %v s a step on one machine, %v on four; want the tensor-parallel time %v on one and at least it on four", a, b, mustTP(t, j))
	}
	j.Overlap = 1 // the gradients hide behind compute: what is left is tensor-parallel
	if b := mustTime(t, j); !within(b.Comm.Seconds()/b.Steps, mustTP(t, j), 1e-6) {
		t.Errorf("TP 8 on four machines, gradients hidden: %v s a step, want the tensor-parallel %v", b.Comm.Seconds()/b.Steps, mustTP(t, j))
	}
}

// mustTP returns the tensor-parallel seconds of one micro-batch of j on its Link.
func mustTP(t *testing.T, j Job) float64 {
	t.Helper()
	d, err := TensorParallelComm(j.Model, j.Batch, j.SeqLen, j.Tensor, sizing.BF16, j.Recompute, j.Link)
	if err != nil {
		t.Fatal(err)
	}
	return d.Seconds()
}

func TestJobMachineFieldsValidate(t *testing.T) {
	base := Job{Model: llama27B, Work: 1e20, Batch: 1, SeqLen: 4096, Devices: 16, PeakPerDevice: a100Peak,
		Link: NVLink(a100NVLink), Network: Link{Bandwidth: 25 * GBps}}
	for _, bad := range []func(*Job){
		func(j *Job) { j.DevicesPerMachine = -1 },
		func(j *Job) { j.DevicesPerMachine = sizing.MaxDevices + 1 },
		func(j *Job) { j.ZeRO = 4 },
		func(j *Job) { j.ZeRO = -1 },
		func(j *Job) { j.Network.Bandwidth = -1 },
	} {
		j := base
		bad(&j)
		if _, err := j.Time(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Time(%+v) error = %v, want ErrInvalid", j, err)
		}
	}
}

// genNetworkJob draws a job of genJob's on machines of a drawn size, with a
// network and a ZeRO stage.
func genNetworkJob(t *rapid.T) Job {
	j := genJob(t)
	j.DevicesPerMachine = rapid.IntRange(1, 16).Draw(t, "per_machine")
	j.ZeRO = rapid.IntRange(0, 3).Draw(t, "zero")
	j.Network = Link{
		Bandwidth: Bandwidth(rapid.Float64Range(1e9, 1e12).Draw(t, "network")),
		Latency:   time.Duration(rapid.Int64Range(0, 20000).Draw(t, "network_latency_ns")),
	}
	return j
}

// However the machines split it, a job communicates no less per step than the
// same job in one machine, where every ring runs on Link.
func TestPropMachinesNeverCheaper(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genNetworkJob(t)
		one := j
		one.Network = Link{}
		a, err := one.Time()
		if err != nil {
			t.Fatal(err)
		}
		b, err := j.Time()
		if errors.Is(err, ErrRange) {
			t.Skip("the job runs past time.Duration's range")
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Comm < a.Comm || b.Step < a.Step || b.Duration < a.Duration {
			t.Fatalf("over machines of %d: comm %v, step %v; in one machine: comm %v, step %v",
				j.DevicesPerMachine, b.Comm, b.Step, a.Comm, a.Step)
		}
	})
}

// A faster network never slows a job.
func TestPropFasterNetworkNeverSlower(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genNetworkJob(t)
		fast := j
		fast.Network.Bandwidth *= Bandwidth(rapid.Float64Range(1, 100).Draw(t, "speedup"))
		a, err := j.Time()
		if errors.Is(err, ErrRange) {
			t.Skip("the job runs past time.Duration's range")
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := fast.Time()
		if err != nil {
			t.Fatal(err)
		}
		if b.Step > a.Step || b.Duration > a.Duration || b.Comm > a.Comm {
			t.Fatalf("faster network: step %v, comm %v; slower: step %v, comm %v", b.Step, b.Comm, a.Step, a.Comm)
		}
	})
}

// A job that fits in one machine takes what it takes without a network, and on
// machines of one device with no tensor parallelism and a network no faster than
// Link the gradients take one ring over the network alone, as a Job with the
// network for its Link does.
func TestPropOneMachineAsBefore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genNetworkJob(t)
		j.DevicesPerMachine = j.Devices + rapid.IntRange(0, 8).Draw(t, "spare")
		none := j
		none.Network = Link{}
		a, err := j.Time()
		if err != nil {
			t.Fatal(err)
		}
		b, err := none.Time()
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Fatalf("in one machine with a network %+v, without %+v", a, b)
		}

		flat := genNetworkJob(t)
		flat.Tensor, flat.Devices, flat.DevicesPerMachine = 1, flat.Devices/flat.Tensor, 1
		flat.Network.Bandwidth = min(flat.Network.Bandwidth, flat.Link.Bandwidth)
		flat.Network.Latency = max(flat.Network.Latency, flat.Link.Latency)
		ring := flat
		ring.Link, ring.Network = flat.Network, Link{}
		c, err := flat.Time()
		if errors.Is(err, ErrRange) {
			t.Skip("the job runs past time.Duration's range")
		}
		if err != nil {
			t.Fatal(err)
		}
		d, err := ring.Time()
		if err != nil {
			t.Fatal(err)
		}
		if c != d {
			t.Fatalf("machines of one %+v, one ring on the network %+v", c, d)
		}
	})
}

// ZeRO-3's gathers only add to a step: the same job without them, at any other
// stage, takes no longer. The planner relies on it to rule out a ZeRO-3 layout
// by the time of the same layout without it.
func TestPropZeRO3NeverFaster(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genNetworkJob(t)
		j.ZeRO = 3
		plain := j
		plain.ZeRO = rapid.IntRange(0, 2).Draw(t, "plain_stage")
		a, err := plain.Time()
		if errors.Is(err, ErrRange) {
			t.Skip("the job runs past time.Duration's range")
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := j.Time()
		if errors.Is(err, ErrRange) {
			return // longer than time.Duration holds: no shorter
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.Duration < a.Duration || b.Step < a.Step {
			t.Fatalf("ZeRO-3: step %v, %v in all; stage %d: step %v, %v", b.Step, b.Duration, plain.ZeRO, a.Step, a.Duration)
		}
	})
}
