package pricelist

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
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

// BenchmarkReadCSV30MiB reads a 30 MiB list; -benchmem reports the
// allocations, which the loader keeps within a small multiple of the input, and
// live/input the heap the loaded offers hold per byte of input.
func BenchmarkReadCSV30MiB(b *testing.B) {
	benchLoad(b, bigCSV(30<<20), ReadCSV)
}

func benchLoad(b *testing.B, data []byte, load func(io.Reader) ([]pricing.Offer, error)) {
	// The heap the loaded offers hold, measured once outside the timing.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	offers, err := load(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(data))
	runtime.KeepAlive(offers)
	offers = nil
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := load(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(live, "live/input")
}

// bigSkyPilot is a SkyPilot catalog of about n bytes: the AWS excerpt's rows (CPU
// and GPU) repeated, each repetition in regions of its own so that no row repeats
// another.
func bigSkyPilot(b testing.TB, n int) []byte {
	raw, err := os.ReadFile("../testdata/skypilot/aws_vms_gpu.csv")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var out bytes.Buffer
	out.WriteString(lines[0] + "\n")
	for rep := 0; out.Len() < n; rep++ {
		for _, l := range lines[1:] {
			// Region is the third column from the end.
			i := strings.LastIndexByte(l, ',')
			j := strings.LastIndexByte(l[:i], ',')
			k := strings.LastIndexByte(l[:j], ',')
			out.WriteString(l[:k+1] + l[k+1:j] + "-" + strconv.Itoa(rep) + l[j:] + "\n")
		}
	}
	return out.Bytes()
}

// BenchmarkReadSkyPilot10MB reads a 10 MB catalog; -benchmem reports the
// allocations, and live/input the heap the offers hold per byte of input.
func BenchmarkReadSkyPilot10MB(b *testing.B) {
	benchLoad(b, bigSkyPilot(b, 10e6), ReadSkyPilot)
}

// BenchmarkReadCSVRefused33MiB feeds a 33 MiB list through a reader that
// does not tell its length, so that the loader reads up to the bound before it
// refuses the list; -benchmem reports what that costs.
func BenchmarkReadCSVRefused33MiB(b *testing.B) {
	data := bigCSV(33 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ReadCSV(io.MultiReader(bytes.NewReader(data))); err == nil {
			b.Fatal("a 33 MiB list loaded")
		}
	}
}
