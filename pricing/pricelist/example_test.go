package pricelist_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

// Read tells the format of a list from its content, here a CSV with Chinese
// headings and units in the cells (SAMPLE PRICES), and the offers it returns are
// ready to price.
func Example() {
	list := `服务商,地域,卡型,按量,包天
示例云,华东,RTX 4090,1.60元/小时,35元/天
样例算力,华北,RTX 4090,¥1.35,
`
	offers, format, err := pricelist.Read(strings.NewReader(list))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(format, len(offers), "offers")
	cmp, _ := pricing.Compare(offers, pricing.Continuous(30*time.Hour), 1)
	for _, c := range cmp {
		fmt.Printf("line %d %s: %s\n", c.Offer.Line, c.Offer.Provider, c.Quote.Total)
	}
	// Output:
	// csv 2 offers
	// line 3 样例算力: CNY 40.50
	// line 2 示例云: CNY 44.60
}
