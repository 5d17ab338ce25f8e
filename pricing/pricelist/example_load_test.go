package pricelist_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

// A provider's price list in CSV, as the README describes it (SAMPLE PRICES).
func ExampleReadCSV() {
	list := `provider,region,card,max_gpus,currency,hourly,daily,weekly,monthly,hours_per_month,granularity
my-cloud,cn-hangzhou,RTX 4090,8,CNY,1.60,35,220,900,730,1s
my-cloud,cn-hangzhou,A100 SXM4 80GB,8,CNY,9.90,230,,6500,720,1m
`
	offers, err := pricelist.ReadCSV(strings.NewReader(list))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range offers {
		q, _ := o.Tariff.Cost(300 * time.Hour)
		fmt.Printf("%s: 300 h for %s\n", o.Card, q.Total)
	}
	_, err = pricelist.ReadCSV(strings.NewReader("provider,region,card,max_gpus,currency,hourly\nx,y,RTX 4090,8,CNY,-1\n"))
	fmt.Println(err)
	// Output:
	// RTX 4090: 300 h for CNY 414.20
	// A100 SXM4 80GB: 300 h for CNY 2878.80
	// pricelist: line 2, field hourly: price -1 is negative: invalid input
}
