package pricelist

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/pricing"
)

const gib = 1 << 30

// Every reader fills Offer.HostMemory, per GPU, from the figure its format gives.
func TestReadHostMemory(t *testing.T) {
	read := func(t *testing.T, f func(*strings.Reader) ([]pricing.Offer, error), list string) []pricing.Offer {
		t.Helper()
		offers, err := f(strings.NewReader(list))
		if err != nil {
			t.Fatal(err)
		}
		return offers
	}
	csv := func(r *strings.Reader) ([]pricing.Offer, error) { return ReadCSV(r) }
	t.Run("csv per GPU and per instance", func(t *testing.T) {
		offers := read(t, csv, "provider,card,currency,hourly,gpus_per_instance,host_memory_gb\n"+
			"a,RTX 4090,CNY,1.6,,64\n"+ // per GPU
			"b,H100,CNY,80,8,2048GB\n"+ // an instance of 8: 256 GiB a GPU
			"c,A100,CNY,9,,\n") // unknown
		for i, want := range []int64{64 * gib, 256 * gib, 0} {
			if got := offers[i].HostMemory; got != want {
				t.Errorf("offer %d: HostMemory %d, want %d", i, got, want)
			}
		}
	})
	t.Run("chinese heading", func(t *testing.T) {
		offers := read(t, csv, "服务商,卡型,按量,整机卡数,内存(GB)\n示例云,RTX 4090,1.6元/小时,8,512\n")
		if got := offers[0].HostMemory; got != 64*gib {
			t.Errorf("内存 512 GB for 8 GPUs: HostMemory %d, want %d", got, int64(64*gib))
		}
	})
	t.Run("json", func(t *testing.T) {
		offers := read(t, func(r *strings.Reader) ([]pricing.Offer, error) { return ReadJSON(r) },
			`[{"provider":"a","card":"x","host_memory_bytes":1073741824,"tariff":{"currency":"CNY","hourly":"1"}}]`)
		if offers[0].HostMemory != gib {
			t.Errorf("HostMemory %d, want %d", offers[0].HostMemory, int64(gib))
		}
	})
	t.Run("skypilot", func(t *testing.T) {
		f, err := os.Open("../testdata/skypilot/lambda_vms.csv")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		offers, err := ReadSkyPilot(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range offers {
			// gpu_8x_a100: MemoryGiB 1800 for 8 GPUs; gpu_1x_a10: 200 for one.
			if strings.HasPrefix(o.Notes, "instance gpu_8x_a100,") && o.HostMemory != 225*gib ||
				strings.HasPrefix(o.Notes, "instance gpu_1x_a10,") && o.HostMemory != 200*gib || o.HostMemory == 0 {
				t.Errorf("%s (%s): HostMemory %d", o.Card, o.Notes, o.HostMemory)
			}
		}
	})
	t.Run("vast", func(t *testing.T) {
		f, err := os.Open("../testdata/vast/offers_sample.json")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		offers, err := ReadVast(f)
		if err != nil {
			t.Fatal(err)
		}
		// cpu_ram 257829 MiB, an eighth of the machine (gpu_frac 0.125) for one GPU;
		// 2063904 MiB for eight GPUs; no cpu_ram.
		for i, want := range []int64{257829 << 20 / 8, 2063904 << 20 / 8, 0} {
			if got := offers[i].HostMemory; got != want {
				t.Errorf("offer %d: HostMemory %d, want %d", i, got, want)
			}
		}
	})
}

// A negative or absurd host RAM figure is an error naming its line and field.
func TestReadHostMemoryErrors(t *testing.T) {
	for _, tc := range []struct {
		name, field string
		line        int
		read        func() error
	}{
		{"csv negative", "host_memory_gb", 3, func() error {
			_, err := ReadCSV(strings.NewReader("provider,card,currency,hourly,host_memory_gb\na,x,CNY,1,64\nb,x,CNY,1,-1\n"))
			return err
		}},
		{"csv absurd", "host_memory_gb", 2, func() error {
			_, err := ReadCSV(strings.NewReader("provider,card,currency,hourly,host_memory_gb\na,x,CNY,1,1e12\n"))
			return err
		}},
		{"csv not a number", "host_memory_gb", 2, func() error {
			_, err := ReadCSV(strings.NewReader("provider,card,currency,hourly,host_memory_gb\na,x,CNY,1,lots\n"))
			return err
		}},
		{"json negative", "host_memory_bytes", 2, func() error {
			_, err := ReadJSON(strings.NewReader("[\n" + `{"provider":"a","card":"x","host_memory_bytes":-1,"tariff":{"currency":"CNY","hourly":"1"}}]`))
			return err
		}},
		{"skypilot negative", "MemoryGiB", 2, func() error {
			_, err := ReadSkyPilot(strings.NewReader("AcceleratorName,AcceleratorCount,Price,Region,MemoryGiB\nA100,8,1,us,-8\n"))
			return err
		}},
		{"vast absurd", "cpu_ram", 1, func() error {
			_, err := ReadVast(strings.NewReader(`[{"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.4,"cpu_ram":1e15}]`))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) || pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("error %v; want a *ParseError at line %d, field %s", err, tc.line, tc.field)
			}
		})
	}
}
