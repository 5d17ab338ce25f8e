package catalog_test

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/sizing"
)

// nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader,nounits
func ExampleParseSMI() {
	out := "0, NVIDIA GeForce RTX 4090, 24564\n1, NVIDIA GeForce RTX 4090, 24564\n"
	devs, err := catalog.ParseSMI(strings.NewReader(out))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range devs {
		fmt.Printf("GPU %d: %s, %d MiB\n", d.Index, d.Name, d.Memory/sizing.MiB)
	}
	// Output:
	// GPU 0: NVIDIA GeForce RTX 4090, 24564 MiB
	// GPU 1: NVIDIA GeForce RTX 4090, 24564 MiB
}

// nvidia-smi topo -m on a box of four GPUs: two NVLinked pairs joined by the CPUs.
func ExampleParseTopology() {
	out := "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\n" +
		"GPU0\t X \tNV4\tSYS\tSYS\t0-31\t0\n" +
		"GPU1\tNV4\t X \tSYS\tSYS\t0-31\t0\n" +
		"GPU2\tSYS\tSYS\t X \tNV4\t32-63\t1\n" +
		"GPU3\tSYS\tSYS\tNV4\t X \t32-63\t1\n" +
		"\nLegend:\n\n  X    = Self\n  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes\n  NV#  = Connection traversing a bonded set of # NVLinks\n"
	topo, err := catalog.ParseTopology(strings.NewReader(out))
	if err != nil {
		fmt.Println(err)
		return
	}
	l, _ := topo.Link(0, 1)
	fmt.Println(topo.GPUs(), "GPUs; 0-1:", l, topo.NVLinked(0, 1), "; 1-2:", topo.NVLinked(1, 2))
	// Output:
	// 4 GPUs; 0-1: NV4 true ; 1-2: false
}
