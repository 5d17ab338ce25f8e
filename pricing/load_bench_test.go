package pricing

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// bigCSV is a price list of about n bytes in the own CSV format, rows like the
// sample's.
func bigCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("provider,region,card,max_gpus,currency,hourly,daily,weekly,monthly,term_3m,hours_per_month,granularity,tier,support,notes\n")
	row := "sample-cloud-a,cn-hangzhou,RTX 4090,8,CNY,1.60,35,220,900,850,730,1s,T3,24x7," + strings.Repeat("n", 100) + "\n"
	for b.Len()+len(row) <= n {
		b.WriteString(row)
	}
	return b.Bytes()
}

// BenchmarkLoadOffersCSV30MiB loads a 30 MiB list; -benchmem reports the
// allocations, which the loader keeps within a small multiple of the input, and
// live/input the heap the loaded offers hold per byte of input.
func BenchmarkLoadOffersCSV30MiB(b *testing.B) {
	benchLoad(b, bigCSV(30<<20), LoadOffersCSV)
}

func benchLoad(b *testing.B, data []byte, load func(io.Reader) ([]Offer, error)) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var live float64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		offers, err := load(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(data))
		runtime.KeepAlive(offers)
	}
	b.ReportMetric(live, "live/input")
}
