package catalog_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

func ExampleCatalog_Lookup() {
	cat := catalog.Default()
	card, err := cat.Lookup("NVIDIA GeForce RTX 4090") // as nvidia-smi prints it
	if err != nil {
		panic(err)
	}
	bf16, _ := card.Peak(sizing.BF16)
	fmt.Printf("%s: %d MiB, BF16 %.1f TFLOPS dense, link %s\n",
		card.ID, card.Memory/sizing.MiB, float64(bf16/compute.TFLOPS), card.Link)

	_, err = cat.Lookup("A100")
	var amb *catalog.AmbiguousError
	if errors.As(err, &amb) {
		fmt.Println("A100 could be:", strings.Join(amb.Candidates, ", "))
	}

	_, err = cat.Lookup("H100")
	if errors.As(err, &amb) {
		fmt.Println("H100 could be:", strings.Join(amb.Candidates, ", "))
	}

	a10g, _ := cat.Lookup("A10G") // SkyPilot's name; "A10" is the A10
	_, hasBF16 := a10g.Peak(sizing.BF16)
	fmt.Printf("%s: %d MiB, BF16 rate published: %v\n", a10g.ID, a10g.Memory/sizing.MiB, hasBF16)

	_, err = cat.Lookup("RTX 4070")
	fmt.Println(errors.Is(err, catalog.ErrNotFound))
	// Output:
	// rtx-4090: 24564 MiB, BF16 165.2 TFLOPS dense, link none
	// A100 could be: a100-pcie-40gb, a100-sxm4-40gb, a100-pcie-80gb, a100-sxm4-80gb
	// H100 could be: h100-sxm5-80gb, h100-pcie-80gb, h100-nvl-94gb
	// a10g: 23028 MiB, BF16 rate published: false
	// true
}

func ExampleCatalog_Candidates() {
	cat := catalog.Default()
	for _, name := range []string{"NVIDIA H100 80GB HBM3", "H100 80GB", "A100 80GB", "H800 80GB HBM3"} {
		cards, err := cat.Candidates(name)
		if err != nil {
			panic(err)
		}
		var ids []string
		for _, c := range cards {
			ids = append(ids, c.ID)
		}
		fmt.Printf("%-22s %s\n", name, strings.Join(ids, ", ")) // slowest first
	}
	// Output:
	// NVIDIA H100 80GB HBM3  h100-sxm5-80gb
	// H100 80GB              h100-pcie-80gb, h100-sxm5-80gb
	// A100 80GB              a100-pcie-80gb, a100-sxm4-80gb
	// H800 80GB HBM3         h800-sxm5-80gb
}

func ExampleMerge() {
	// A provider's own card: a 4090 with its power limit cut to 300 W, say.
	mine, err := catalog.Default().Lookup("rtx-4090")
	if err != nil {
		panic(err)
	}
	mine.ID, mine.Name, mine.Aliases, mine.TDP = "rtx-4090-300w", "RTX 4090 300W", []string{"4090 300W"}, 300
	cat, err := catalog.Merge(catalog.Default(), mine)
	if err != nil {
		panic(err)
	}
	card, _ := cat.Lookup("4090 300W")
	fmt.Println(card.ID, card.TDP)

	// An alias another card answers to is refused, naming both cards.
	mine.ID, mine.Aliases = "my-4090", []string{"RTX 4090"}
	_, err = catalog.Merge(catalog.Default(), mine)
	fmt.Println(err)
	// Output:
	// rtx-4090-300w 300
	// catalog: card "my-4090": name "RTX 4090" also names card "rtx-4090": invalid input
}

func ExampleCard_FP64() {
	for _, name := range []string{"A100-80GB", "H800 SXM", "RTX 4090"} {
		card, _ := catalog.Default().Lookup(name)
		fp64, _ := card.FP64()
		fmt.Printf("%-16s FP64 %5.1f TFLOPS\n", card.Name, float64(fp64/compute.TFLOPS))
	}
	// Output:
	// A100 SXM4 80GB   FP64  19.5 TFLOPS
	// H800 SXM5 80GB   FP64   1.0 TFLOPS
	// GeForce RTX 4090 FP64   1.3 TFLOPS
}

func ExampleCatalog_Verify() {
	// What the provider's machine printed for
	// nvidia-smi --query-gpu=index,name,memory.total --format=csv
	smi := `index, name, memory.total [MiB]
0, NVIDIA A100-SXM4-40GB, 40960 MiB
1, NVIDIA A100-SXM4-40GB, 40960 MiB
`
	// and for nvidia-smi topo -m.
	topo := "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n" +
		"GPU0\t X \tSYS\t0-31\t0\n" +
		"GPU1\tSYS\t X \t32-63\t1\n"

	devs, err := catalog.ParseSMI(strings.NewReader(smi))
	if err != nil {
		panic(err)
	}
	t, err := catalog.ParseTopology(strings.NewReader(topo))
	if err != nil {
		panic(err)
	}
	report, err := catalog.Default().Verify("A100 80GB", 4, devs, &t)
	if err != nil {
		panic(err)
	}
	fmt.Println("OK:", report.OK())
	for _, p := range report.Problems {
		fmt.Println("-", p)
	}
	// Output:
	// OK: false
	// - 4 GPUs ordered, 2 delivered.
	// - GPU 0 reports NVIDIA A100-SXM4-40GB (a100-sxm4-40gb), not the advertised A100 SXM4 80GB.
	// - GPU 0 has 40960 MiB of memory; the advertised A100 SXM4 80GB has 81920 MiB (80 GB sold, 40 GB delivered).
	// - GPU 1 reports NVIDIA A100-SXM4-40GB (a100-sxm4-40gb), not the advertised A100 SXM4 80GB.
	// - GPU 1 has 40960 MiB of memory; the advertised A100 SXM4 80GB has 81920 MiB (80 GB sold, 40 GB delivered).
	// - 1 of 1 GPU pairs are joined by PCIe only, not NVLink as the A100 SXM4 80GB's baseboard provides: GPU0-GPU1 SYS.
}
