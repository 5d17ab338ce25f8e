package catalog

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/sizing"
)

// Verify checks the links between the GPUs actually delivered, by their nvidia-smi
// indices: GPUs 3 and 4 of the split box (two NVLinked halves joined by SYS) are
// PCIe-only, although GPUs 0 and 1 are NVLinked.
func TestVerifyLinksByDeviceIndex(t *testing.T) {
	f, err := os.Open("testdata/topo_a100x8_split.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	topo, err := ParseTopology(f)
	if err != nil {
		t.Fatal(err)
	}
	dev := func(i int) Device { return Device{Index: i, Name: "NVIDIA A100-SXM4-80GB", Memory: 81920 * sizing.MiB} }
	for _, tc := range []struct {
		name    string
		devs    []Device
		problem string // a substring of the one problem wanted; empty: none
	}{
		{"NVLinked pair 0-1", []Device{dev(0), dev(1)}, ""},
		{"pair across the halves 3-4", []Device{dev(3), dev(4)}, "GPU3-GPU4 SYS"},
		{"pair 6-7 in the second half", []Device{dev(6), dev(7)}, ""},
		{"index past the matrix", []Device{dev(7), dev(8)}, "not in it: GPU 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Default().Verify("a100-sxm4-80gb", 2, tc.devs, &topo)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(r.Problems, " | ")
			if tc.problem == "" && len(r.Problems) != 0 || tc.problem != "" && !strings.Contains(got, tc.problem) {
				t.Errorf("problems %q, want %q", r.Problems, tc.problem)
			}
		})
	}
}

// nvidia-smi's own failure messages get a clear error, not a malformed-row one.
func TestParseSMIFailures(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"No devices were found\n", "found no GPUs"},
		{"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n", "driver is not loaded"},
	} {
		_, err := ParseSMI(strings.NewReader(tc.in))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSMI(%q) = %v, want an ErrInvalid saying %q", tc.in, err, tc.want)
		}
	}
}
