package pricelist

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpuplan/gpuplan/pricing"
)

func loadSkyFile(t *testing.T, name string) ([]pricing.Offer, []Skip) {
	t.Helper()
	f, err := os.Open("../testdata/skypilot/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	offers, skipped, err := readSkyPilot(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return offers, skipped
}

// The dated catalog excerpts load as their rows say (testdata/skypilot/README.md).
func TestReadSkyPilotSnapshots(t *testing.T) {
	type row struct {
		Line          int
		Region, Card  string
		Count         int
		Hourly        string
		Interruptible bool
	}
	view := func(offers []pricing.Offer) []row {
		var out []row
		for _, o := range offers {
			if o.Provider != SkyPilotProvider || o.MaxGPUs != 0 || o.Tariff.Currency != "USD" {
				t.Errorf("line %d: provider %q, max %d, currency %s", o.Line, o.Provider, o.MaxGPUs, o.Tariff.Currency)
			}
			out = append(out, row{o.Line, o.Region, o.Card, o.GPUsPerInstance, o.Tariff.Hourly.String(), o.Interruptible})
		}
		return out
	}
	lambda, skipped := loadSkyFile(t, "lambda_vms.csv")
	// catalogs/v8/lambda/vms.csv: gpu_8x_a100, eight A100 with 40960 MiB each
	// for 15.92 USD an hour; the A100-80GB name keeps its own memory; no spot.
	want := []row{
		{4, "us-east-1", "V100 16GB", 8, "6.32", false},
		{5, "us-east-1", "V100 16GB", 8, "6.32", false},
		{6, "us-east-1", "A6000 48GB", 4, "4.36", false},
		{7, "us-east-1", "A6000 48GB", 2, "2.18", false},
		{8, "us-east-1", "A6000 48GB", 1, "1.09", false},
		{9, "europe-central-1", "A100 40GB", 8, "15.92", false},
		{10, "us-east-1", "A100 40GB", 8, "15.92", false},
		{11, "us-east-1", "A100 40GB", 4, "7.96", false},
		{12, "us-east-1", "A100 40GB", 2, "3.98", false},
		{13, "us-east-1", "A100 40GB", 1, "1.99", false},
		{14, "us-east-1", "A100 40GB", 1, "1.99", false},
		{15, "us-east-1", "RTX6000 24GB", 1, "0.69", false},
		{16, "us-east-1", "A10 24GB", 1, "1.29", false},
		{17, "us-east-1", "A100-80GB", 8, "22.32", false},
		{18, "us-east-1", "H100 80GB", 1, "3.29", false},
		{19, "europe-central-1", "H100 80GB", 1, "4.29", false},
	}
	if diff := cmp.Diff(want, view(lambda)); diff != "" {
		t.Errorf("Lambda (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Skip{{"no GPUs", 2, 2}}, skipped); diff != "" {
		t.Errorf("Lambda skipped (-want +got):\n%s", diff)
	}
	if lambda[5].Notes != "instance gpu_8x_a100" {
		t.Errorf("notes %q", lambda[5].Notes)
	}

	// catalogs/v8/runpod/vms.csv: SizeInMiB holds 80 (GB) for the A100 80GB,
	// SpotPrice equals Price (no cheaper spot offer); the two US zones of each
	// instance are one offer.
	runpod, _ := loadSkyFile(t, "runpod_vms.csv")
	if len(runpod) != 10 || runpod[0].Card != "A100-80GB" || runpod[0].Tariff.Hourly.String() != "1.39" ||
		runpod[0].Notes != "instance 1x_A100-80GB_SECURE, zone AP-IN-1" || runpod[9].GPUsPerInstance != 2 {
		t.Errorf("RunPod: %d offers, first %+v", len(runpod), runpod[0])
	}
	for _, o := range runpod {
		if o.Interruptible {
			t.Errorf("RunPod line %d: a spot offer at the on-demand price", o.Line)
		}
	}

	// catalogs/v8/aws/vms.csv, GPU rows: p5.48xlarge in us-east-1 at 55.04 USD
	// an hour on demand (two zones, kept once), spot 10.2397 and 19.2531.
	aws, skipped := loadSkyFile(t, "aws_vms_gpu.csv")
	var got []row
	for _, r := range view(aws) {
		if r.Region == "us-east-1" {
			got = append(got, r)
		}
	}
	want = []row{
		{6, "us-east-1", "A100-80GB", 8, "27.44705", false},
		{6, "us-east-1", "A100-80GB", 8, "9.9734", true},
		{11, "us-east-1", "H100 80GB", 8, "55.04", false},
		{11, "us-east-1", "H100 80GB", 8, "10.2397", true},
		{12, "us-east-1", "H100 80GB", 8, "19.2531", true},
		{18, "us-east-1", "H100 80GB", 1, "6.88", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AWS us-east-1 (-want +got):\n%s", diff)
	}
	wantSkips := []Skip{{"no GPUs", 2, 2}, {"the same on-demand offer in another zone of its region", 1, 12}}
	if diff := cmp.Diff(wantSkips, skipped); diff != "" {
		t.Errorf("AWS skipped (-want +got):\n%s", diff)
	}
	if len(aws) != 21 {
		t.Errorf("AWS: %d offers, want 21 (15 GPU rows less 1 repeat, and 7 spot prices below on demand)", len(aws))
	}
}

func TestMemoryGB(t *testing.T) {
	for _, tc := range []struct {
		mib  float64
		want int64
	}{
		{40960, 40}, {81920, 80}, {16384, 16}, {24576, 24}, {49152, 48},
		{22888, 24}, // AWS's L4: 24e9 bytes in MiB
		{45776, 48}, // AWS's L40S
		{81559, 80}, // nvidia-smi's H100 80GB
		{80, 80},    // RunPod writes GB
		{15360, 15},
	} {
		if got := memoryGB(tc.mib); got != tc.want {
			t.Errorf("memoryGB(%v) = %d, want %d", tc.mib, got, tc.want)
		}
	}
}

func TestReadSkyPilotErrors(t *testing.T) {
	const head = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo,SpotPrice\n"
	const info = `"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 40960}}]}"`
	tests := []struct {
		name, in string
		line     int
		field    string
	}{
		{"empty", "", 1, ""},
		{"no price column", "InstanceType,AcceleratorName,AcceleratorCount,Region\n", 1, "Price"},
		{"missing price", head + "x,A100,8," + ",us," + info + ",\n", 2, "Price"},
		{"negative price", head + "x,A100,8,-1,us," + info + ",\n", 2, "Price"},
		{"float price", head + "x,A100,8,1e3,us," + info + ",\n", 2, "Price"},
		{"count zero", head + "cpu,,,1,us,,\nx,A100,0,1,us," + info + ",\n", 3, "AcceleratorCount"},
		{"count missing", head + "x,A100,,1,us," + info + ",\n", 2, "AcceleratorCount"},
		{"count without a name", head + "x,,8,1,us,,\n", 2, "AcceleratorCount"},
		{"GpuInfo unbalanced", head + "x,A100,8,1,us,\"{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}\",\n", 2, "GpuInfo"},
		{"GpuInfo without size", head + "x,A100,8,1,us,\"{'Gpus': []}\",\n", 2, "GpuInfo"},
		{"GpuInfo zero size", head + "x,A100,8,1,us,\"{'SizeInMiB': 0}\",\n", 2, "GpuInfo"},
		{"bad spot", head + "x,A100,8,1,us," + info + ",cheap\n", 2, "SpotPrice"},
		{"short row", head + "x,A100,8\n", 2, ""},
		{"semicolons", "InstanceType;AcceleratorName;Price\n", 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadSkyPilot(strings.NewReader(tc.in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, pricing.ErrInvalid) {
				t.Fatalf("error = %v, want a *ParseError wrapping ErrInvalid", err)
			}
			if pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("error at line %d field %q (%v), want line %d field %q", pe.Line, pe.Field, err, tc.line, tc.field)
			}
		})
	}
	// A fraction of a GPU is left out, not an error; GCP's bare-name GpuInfo
	// gives no memory.
	offers, skipped, err := readSkyPilot(strings.NewReader(head + "nv4,MI25,0.125,0.2,eastus,,\n,T4,1,0.35,us-central1,T4,0.14\n"))
	if err != nil || len(offers) != 2 || offers[0].Card != "T4" || !offers[1].Interruptible ||
		!strings.Contains(offers[0].Notes, "host VM") || len(skipped) != 1 || skipped[0].Reason != "a fraction of a GPU" {
		t.Errorf("fraction and GCP row: %+v, %v, %v", offers, skipped, err)
	}
}

func FuzzReadSkyPilot(f *testing.F) {
	f.Add("AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\nA100,8,1,us,\"{'SizeInMiB': 1}\"\n")
	f.Add("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n" +
		"m7i.large,,,2.0,8.0,,0.1008,0.0443,us-east-1,use1-az1\n" +
		"p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 81920}}]}\",32.93,13.75,ap-southeast-1,apse1-az2\n" +
		"p4de.24xlarge,A100-80GB,8.0,96.0,1152.0,\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 81920}}]}\",32.93,13.80,ap-southeast-1,apse1-az1\n" +
		",T4,1,,,T4,0.35,0.14,us-central1,\n")
	f.Fuzz(func(t *testing.T, in string) {
		offers, err := ReadSkyPilot(strings.NewReader(in))
		checkLoaded(t, offers, err)
		for _, o := range offers {
			if o.GPUsPerInstance < 1 || o.Line < 2 {
				t.Fatalf("offer %+v", o)
			}
		}
	})
}

// below orders two prices as decimals: by their floats where those differ, and
// exactly where two decimals round to one float.
func TestBelow(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"10.2397", "55.04", true}, {"68.800000", "68.8", false}, {"68.8", "68.800000", false},
		{"68.799999", "68.8", true}, {"0.09999999999999999999", "0.1", true},
		{"0.10000000000000000001", "0.1", false}, {"0.1", "0.10000000000000000001", true},
	} {
		a, err := parseSkyPrice(c.a, true)
		if err != nil {
			t.Fatal(err)
		}
		b, err := parseSkyPrice(c.b, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := below(c.a, c.b, a, b); got != c.want {
			t.Errorf("below(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A catalog whose rows are mostly CPU instances keeps its few offers in a list
// of their own size, not in the room read for two offers a row.
func TestReadSkyPilotKeepsNoRoom(t *testing.T) {
	var b strings.Builder
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,MemoryGiB,Price,SpotPrice,Region\n")
	for i := range 100 {
		fmt.Fprintf(&b, "m7i.large,,,8.0,0.1008,0.0443,region-%d\n", i)
	}
	b.WriteString("g5.xlarge,A10G,1.0,16.0,1.006,0.4,us-east-1\n")
	offers, err := ReadSkyPilot(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) != 2 || cap(offers) != 2 {
		t.Errorf("%d offers in room for %d; want 2 in 2 (on-demand and spot)", len(offers), cap(offers))
	}
}
