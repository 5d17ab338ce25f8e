package compute_test

import (
	"fmt"
	"time"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

// Llama-2-13B on 32 A100s in four DGX A100 servers, each GPU with its own
// 200 Gb/s port (25 GB/s), data parallel and then ZeRO-3, nothing overlapped: the
// gradients' ring leaves each server through its eight ports, 200 GB/s a GPU,
// where NVLink inside gives 300. Machines of one GPU each would push the whole
// ring through one port a GPU.
func ExampleJob_Time_machines() {
	l13 := sizing.Model{Layers: 40, Hidden: 5120, Heads: 40, FFN: 13824, Vocab: 32000, GatedFFN: true}
	work, _ := compute.TrainingFLOPs(l13, 1e9, 4096)
	j := compute.Job{Model: l13, Work: work, Batch: 1, SeqLen: 4096, Devices: 32,
		PeakPerDevice: 312 * compute.TFLOPS, Bandwidth: 2039 * compute.GBps, Arch: "Ampere",
		Link: compute.NVLink(600 * compute.GBps)}
	show := func(name string, j compute.Job) {
		tm, err := j.Time()
		if err != nil {
			fmt.Println(name, err)
			return
		}
		comm := time.Duration(float64(tm.Comm) / tm.Steps)
		fmt.Printf("%-26s %v of communication a step, efficiency %.2f\n", name, comm.Round(time.Millisecond), tm.Efficiency)
	}
	show("one machine (NVLink)", j)
	j.Network = compute.Link{Bandwidth: 25 * compute.GBps}
	show("4 servers of 8", j)
	j.ZeRO = 3
	show("4 servers of 8, ZeRO-3", j)
	j.ZeRO, j.DevicesPerMachine = 0, 1
	show("32 machines of 1", j)
	// Output:
	// one machine (NVLink)       168ms of communication a step, efficiency 0.92
	// 4 servers of 8             252ms of communication a step, efficiency 0.89
	// 4 servers of 8, ZeRO-3     378ms of communication a step, efficiency 0.84
	// 32 machines of 1           2.017s of communication a step, efficiency 0.50
}
