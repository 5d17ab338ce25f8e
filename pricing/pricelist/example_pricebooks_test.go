package pricelist_test

import (
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

// Two rows of Lambda's SkyPilot catalog (catalogs/v8/lambda/vms.csv): a CPU-only
// instance, left out, and eight A100 40GB sold as one instance.
func ExampleReadSkyPilot() {
	catalog := `InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice
cpu_4x_general,,,4.0,16.0,0.2,us-east-1,,
gpu_8x_a100,A100,8.0,124.0,1800.0,15.92,us-east-1,"{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 40960}",
`
	offers, err := pricelist.ReadSkyPilot(strings.NewReader(catalog))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range offers {
		fmt.Printf("line %d: %s in %s, %d GPUs an instance at %s %s/h (%s)\n",
			o.Line, o.Card, o.Region, o.GPUsPerInstance, o.Tariff.Currency, o.Tariff.Hourly, o.Notes)
	}
	// Output:
	// line 3: A100 40GB in us-east-1, 8 GPUs an instance at USD 15.92/h (instance gpu_8x_a100)
}

// A price list pasted from a Chinese provider's page: the format is detected,
// the headings are Chinese, the currency is CNY by default and the cells carry
// their units.
func ExampleRead() {
	list := `服务商,地域,卡型,显存,卡数,按量,包月
示例云,华东-杭州,RTX 4090,24GB,8,1.60元/小时,"¥900"
`
	offers, format, err := pricelist.Read(strings.NewReader(list))
	if err != nil {
		fmt.Println(err)
		return
	}
	o := offers[0]
	fmt.Println(format, o.Provider, o.Card, o.Tariff.Currency, o.Tariff.Hourly, o.Tariff.Monthly)
	// Output:
	// csv 示例云 RTX 4090 24GB CNY 1.6 900
}
