package pricelist

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/pricing"
)

func TestReadDetects(t *testing.T) {
	for _, tc := range []struct {
		file, format string
		offers       int
	}{
		{"offers_sample.csv", FormatCSV, 9},
		{"offers_sample.json", FormatJSON, 9},
		{"skypilot/lambda_vms.csv", FormatSkyPilot, 16},
		{"skypilot/aws_vms_gpu.csv", FormatSkyPilot, 21},
		{"vast/offers_sample.json", FormatVast, 3},
		{"offers_zh_sample.csv", FormatCSV, 4},
	} {
		b, err := os.ReadFile("../testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		offers, format, err := Read(bytes.NewReader(b))
		if err != nil || format != tc.format || len(offers) != tc.offers {
			t.Errorf("%s: %d offers as %q, %v; want %d as %q", tc.file, len(offers), format, err, tc.offers, tc.format)
		}
	}
	// The API's object form is vast.ai's; an error names the format read.
	if _, format, err := Read(strings.NewReader(`{"offers":[]}`)); format != FormatVast || err != nil {
		t.Errorf("vast object: %q, %v", format, err)
	}
	_, format, err := Read(strings.NewReader("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,A100,0,1,us\n"))
	if format != FormatSkyPilot || !errors.Is(err, pricing.ErrInvalid) || !strings.HasPrefix(err.Error(), "pricelist: read as skypilot-csv: line 2") {
		t.Errorf("bad SkyPilot row: %q, %v", format, err)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("error %v is not the loader's *ParseError", err)
	}
}

func TestReadListSkipped(t *testing.T) {
	b, err := os.ReadFile("../testdata/skypilot/aws_vms_gpu.csv")
	if err != nil {
		t.Fatal(err)
	}
	l, err := ReadList(bytes.NewReader(b))
	want := []Skip{{"no GPUs", 2, 2}, {"the same on-demand offer in another zone of its region", 1, 12}}
	if err != nil || l.Format != FormatSkyPilot || len(l.Offers) != 21 || !cmp.Equal(l.Skipped, want) {
		t.Errorf("LoadList = %s, %d offers, skipped %v, %v", l.Format, len(l.Offers), l.Skipped, err)
	}
	if l, err := ReadList(strings.NewReader("provider,card,currency,hourly\na,x,CNY,1\n")); err != nil || l.Skipped == nil || len(l.Skipped) != 0 {
		t.Errorf("own CSV: skipped %v, %v", l.Skipped, err)
	}
}

func FuzzRead(f *testing.F) {
	// Small seeds, one of each format (the sample files are read by ordinary
	// tests): the fuzzer mutates them rather than spending its runs shrinking.
	for _, s := range []string{
		"provider,region,card,currency,hourly,daily,term_3m\na,cn,RTX 4090,CNY,1.60,35,850\n",
		"服务商,卡型,按量,包月,内存\n示例云,ＲＴＸ４０９０,1.60元/小时,\"¥900\",64\n",
		`[{"provider":"a","card":"x","tariff":{"currency":"CNY","hourly":"1.5"}}]`,
		`[{"id":1,"gpu_name":"RTX 4090","num_gpus":1,"gpu_ram":24564,"cpu_ram":64000,"dph_total":0.4,"reliability2":0.99}]`,
		"InstanceType,AcceleratorName,AcceleratorCount,MemoryGiB,Price,SpotPrice,Region\ng8,A100,8,1152,32.7,13.1,us\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		offers, _, err := Read(strings.NewReader(in))
		checkLoaded(t, offers, err)
	})
}
