package sizing_test

import (
	"errors"
	"fmt"

	"github.com/gpuplan/gpuplan/sizing"
)

func ExampleParseBytes() {
	for _, s := range []string{"80GiB", "24564 MiB", "80GB", "1.5GiB", "12.6 GiB", "-1GB", "8G"} {
		b, err := sizing.ParseBytes(s)
		if err != nil {
			fmt.Println(err, errors.Is(err, sizing.ErrInvalid))
			continue
		}
		fmt.Printf("%-10q %d bytes = %v = %v\n", s, int64(b), b, b.Human())
	}
	// Output:
	// "80GiB"    85899345920 bytes = 80GiB = 80.0 GiB
	// "24564 MiB" 25757220864 bytes = 24564MiB = 24.0 GiB
	// "80GB"     80000000000 bytes = 80GB = 74.5 GiB
	// "1.5GiB"   1610612736 bytes = 1536MiB = 1.5 GiB
	// "12.6 GiB" 13529146982 bytes = 13529146982B = 12.6 GiB
	// sizing: ParseBytes "-1GB": negative size: invalid input true
	// sizing: ParseBytes "8G": unknown unit (want B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB or PiB): invalid input true
}

func ExampleBytes_Human() {
	weights := 2 * sizing.Bytes(6_738_415_616) // Llama-2-7B in FP16
	fmt.Println(weights.Human(), "/", weights.HumanSI())
	// Output: 12.6 GiB / 13.5 GB
}

func ExamplePreset() {
	m, err := sizing.Preset("meta-llama/Llama-2-70b-hf")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Name, m.Layers, "layers,", m.KVHeads, "KV heads,", m.ParamCount(), "parameters")

	mix, _ := sizing.Preset("Mixtral-8x7B-Instruct-v0.1")
	fmt.Println(mix.Name, mix.ParamCount(), "total,", mix.ActiveParams(), "active")

	_, err = sizing.Preset("llama-2-8b")
	fmt.Println(err)
	// Output:
	// llama-2-70b 80 layers, 8 KV heads, 68976648192 parameters
	// mixtral-8x7b 46702792704 total, 12879925248 active
	// sizing: no preset model "llama-2-8b" (did you mean llama-2-7b, llama-3-8b, llama-2-13b?): not found
}

func ExampleRenderMemory() {
	est, _ := sizing.RenderMemory(sizing.RenderJob{Kind: sizing.Cycles, Width: 7680, Height: 4320})
	fmt.Println(est.Memory.HumanSI(), "at least:", est.AtLeast)
	est, _ = sizing.RenderMemory(sizing.RenderJob{Kind: sizing.SDXL})
	fmt.Println(est.Range.Low.HumanSI(), "to", est.Range.High.HumanSI())
	// Output:
	// 24.0 GB at least: true
	// 8.0 GB to 12.0 GB
}

func ExampleThumbArticle() {
	// The first seed article's worked example, 7B in FP16, beside its rules of thumb.
	a, _ := sizing.ThumbArticle(7_000_000_000, sizing.FP16)
	w := a.WorkedExample()
	fmt.Println("article, worked:", w.Low.HumanSI(), "to", w.High.HumanSI())
	inf, _ := sizing.ThumbInference(a.Weights)
	fmt.Println("inference rule: ", inf.Low.HumanSI(), "to", inf.High.HumanSI())
	// Output:
	// article, worked: 30.0 GB to 36.0 GB
	// inference rule:  21.0 GB to 28.0 GB
}
