package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr error
	}{
		{name: "default", args: []string{"-sample", "good"}},
		{name: "bad", args: []string{"-sample", "bad"}, wantErr: errMismatch},
		// In Chinese: the report around the library's findings, which stay English.
		{name: "zh_bad", args: []string{"-lang", "zh", "-sample", "bad"}, wantErr: errMismatch},
		{name: "zh_use", args: []string{"-lang", "zh", "-sample", "good", "-dmon", "testdata/dmon_one_gpu.txt", "-nccl", "testdata/nccl_pcie.txt"}, wantErr: errMismatch},
		{name: "files", args: []string{"-card", "A100 SXM4 80GB", "-gpus", "4",
			"-smi", "testdata/bad_smi.csv", "-topo", "none"}, wantErr: errMismatch},
		{name: "more_than_ordered", args: []string{"-sample", "good", "-gpus", "4"}},
		// One problem: the verdict is singular.
		{name: "fewer_than_ordered", args: []string{"-sample", "good", "-gpus", "9"}, wantErr: errMismatch},
		// A family name, as Verify allows: any H100 with 80 GB.
		{name: "family", args: []string{"-card", "H100 80GB", "-gpus", "8",
			"-smi", "testdata/h100x8.csv", "-topo", "testdata/h100x8-topo.txt"}},
		// The job keeps the GPUs busy and the all-reduce runs at 77% of NVLink.
		{name: "use_busy", args: []string{"-sample", "good", "-dmon", "testdata/dmon_busy.txt",
			"-nccl", "testdata/nccl_a100x8.txt"}},
		// One GPU of eight works; a job at 5% on all eight.
		{name: "use_one_gpu", args: []string{"-sample", "good", "-dmon", "testdata/dmon_one_gpu.txt"}, wantErr: errIdle},
		{name: "use_5pct", args: []string{"-sample", "good", "-dmon", "testdata/dmon_5pct.txt", "-plan-mem", "60GiB"}, wantErr: errIdle},
		// NVLink sold, the all-reduce runs at PCIe speed.
		{name: "nccl_pcie", args: []string{"-sample", "good", "-nccl", "testdata/nccl_pcie.txt"}, wantErr: errMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(&out, tt.args, msg.EN)
			if !errors.Is(err, tt.wantErr) || (err != nil) != (tt.wantErr != nil) {
				t.Fatalf("run(%q) error = %v, want %v", tt.args, err, tt.wantErr)
			}
			checkGolden(t, tt.name, out.String())
		})
	}
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", golden, got, want)
	}
}

// The idle GPUs are named with their utilization, and the all-reduce at PCIe
// speed is held against the A100's NVLink.
func TestUseFindings(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		wantErr error
		want    []string
	}{
		{[]string{"-dmon", "testdata/dmon_one_gpu.txt"}, errIdle, []string{"GPUs 1 (0%), 2 (0%)", "7 (0%) averaged under 30% SM utilization", "keeps 1 of the 8 GPUs busy"}},
		{[]string{"-dmon", "testdata/dmon_5pct.txt"}, errIdle, []string{"GPUs 0 (5%), 1 (5%)", "the job leaves them idle"}},
		{[]string{"-dmon", "testdata/dmon_5pct.txt", "-min-sm", "5"}, nil, nil},
		{[]string{"-nccl", "testdata/nccl_pcie.txt"}, errMismatch, []string{"reached 20.2 GB/s, under half the 300.0 GB/s", "measured 7% of it"}},
	} {
		var out bytes.Buffer
		err := run(&out, append([]string{"-sample", "good"}, tc.args...), msg.EN)
		if tc.want == nil {
			if err != nil {
				t.Errorf("run(%q) = %v, want a pass", tc.args, err)
			}
			continue
		}
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("run(%q) = %v, want %v", tc.args, err, tc.wantErr)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("run(%q) output lacks %q:\n%s", tc.args, w, out.String())
			}
		}
	}
}

// fakePath puts testdata/fakebin, with its stand-in nvidia-smi, alone on PATH.
func fakePath(t *testing.T, which string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in nvidia-smi is a shell script")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "fakebin"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH")) // first, before any real one
	t.Setenv("FAKE_NVIDIA_SMI", which)
}

// Without -smi, verify runs the nvidia-smi on PATH: both commands, and their
// output is what is checked.
func TestRunsNvidiaSMI(t *testing.T) {
	fakePath(t, "good")
	var out bytes.Buffer
	if err := run(&out, []string{"-card", "A100 SXM4 80GB", "-gpus", "8"}, msg.EN); err != nil {
		t.Fatalf("run = %v\n%s", err, out.String())
	}
	for _, want := range []string{
		"Devices (nvidia-smi, nvidia-smi --query-gpu=index,name,memory.total --format=csv):",
		"Links (nvidia-smi topo -m, nvidia-smi topo -m):",
		"28 GPU pairs: 28 over NVLink",
		"Verdict: delivered as advertised.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	fakePath(t, "bad")
	out.Reset()
	if err := run(&out, []string{"-card", "A100 SXM4 80GB", "-gpus", "8"}, msg.EN); !errors.Is(err, errMismatch) {
		t.Errorf("run on the bad machine = %v, want a mismatch", err)
	}

	fakePath(t, "nodriver")
	out.Reset()
	err := run(&out, []string{"-card", "A100 SXM4 80GB", "-gpus", "8"}, msg.EN)
	if err == nil || errors.Is(err, cli.ErrUsage) || errors.Is(err, errMismatch) || !strings.Contains(err.Error(), "driver") {
		t.Errorf("run without a driver = %v, want nvidia-smi's failure", err)
	}
}

// Without nvidia-smi and without -smi, verify refuses: it never passes a machine
// it has not seen.
func TestNoNvidiaSMIRefuses(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var out bytes.Buffer
	err := run(&out, []string{"-card", "A100 SXM4 80GB", "-gpus", "8"}, msg.EN)
	if err == nil || errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), "no nvidia-smi on PATH") {
		t.Fatalf("run = %v, want a refusal", err)
	}
	if strings.Contains(out.String(), "Verdict") {
		t.Errorf("a verdict without a machine:\n%s", out.String())
	}
	var stderr bytes.Buffer
	if got := cli.Exit("verify", err, &stderr, msg.EN); got != 1 || !strings.Contains(stderr.String(), "-smi and -topo") {
		t.Errorf("exit status %d, stderr %q; want 1 and the way out", got, stderr.String())
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-card", "A100 SXM4 80GB", "-gpus", "0"}, "-gpus 0: want 1 or more"},
		{[]string{"-card", "A100 SXM4 80GB", "-gpus", "-1"}, "-gpus -1: want 1 or more"},
		{[]string{"-sample", "good", "-gpus", "-1"}, "-gpus -1: want 1 or more"},
		{[]string{"-card", "A100 SXM4 80GB"}, "-gpus: give the number of GPUs ordered"},
		{[]string{"-gpus", "8"}, "-card: name the card"},
		{[]string{"-card", "no such card", "-gpus", "8"}, `-card no card named "no such card"`},
		{[]string{"-sample", "ugly"}, `-sample "ugly": want good or bad`},
		{[]string{"-sample", "good", "-smi", "x.csv"}, "without -smi and -topo"},
		{[]string{"-sample", "good", "-min-sm", "101"}, "-min-sm 101: want a percentage"},
		{[]string{"-sample", "good", "-plan-mem", "lots"}, `-plan-mem "lots": want a size`},
		{[]string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"-sample", "good", "extra"}, "unexpected arguments"},
	} {
		var out bytes.Buffer
		err := run(&out, tc.args, msg.EN)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("run(%q) error = %v, want a usage error", tc.args, err)
			continue
		}
		var stderr bytes.Buffer
		if got := cli.Exit("verify", err, &stderr, msg.EN); got != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("run(%q): exit %d, stderr %q; want 2 and %q", tc.args, got, stderr.String(), tc.want)
		}
		if strings.Contains(stderr.String(), "usage: ") {
			t.Errorf("run(%q): stderr %q shows the sentinel's text", tc.args, stderr.String())
		}
	}
}

// An order of Ascend NPUs (or AMD GPUs) is refused, never passed: nvidia-smi does
// not see them, and verify does not read npu-smi (or rocm-smi) yet. catalog.Verify
// refuses it, and verify passes its message on as a usage error, from the command
// line alone, with a capture given or the fake nvidia-smi on PATH.
func TestNonNVIDIACardRefused(t *testing.T) {
	fakePath(t, "good")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-card", "910B", "-gpus", "8"}, "verify: -card 910B: the Ascend 910B2 is a Huawei NPU, which nvidia-smi does not see; npu-smi is the tool that checks Ascend machines: invalid input\n"},
		{[]string{"-card", "昇腾910B", "-gpus", "8", "-smi", "testdata/good_smi.csv", "-topo", "none"}, "npu-smi is the tool that checks Ascend machines"},
		{[]string{"-card", "Ascend 910B", "-gpus", "1", "-sample", "good"}, "npu-smi"},
		{[]string{"-card", "MI300X", "-gpus", "8"}, "the Instinct MI300X is an AMD GPU, which nvidia-smi does not see; rocm-smi is the tool"},
	} {
		var out bytes.Buffer
		err := run(&out, tc.args, msg.EN)
		if !errors.Is(err, cli.ErrUsage) {
			t.Errorf("run(%q) = %v, want a usage error", tc.args, err)
			continue
		}
		if out.Len() > 0 {
			t.Errorf("run(%q) wrote a report:\n%s", tc.args, out.String())
		}
		var stderr bytes.Buffer
		if got := cli.Exit("verify", err, &stderr, msg.EN); got != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("run(%q): exit %d, stderr %q; want 2 and %q", tc.args, got, stderr.String(), tc.want)
		}
	}
}

// A capture a flag names that cannot be opened is a usage error naming the flag
// (exit 2); one that opens but does not parse is a failure of the input (exit 1).
func TestMissingFile(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"-card", "T4", "-gpus", "1", "-smi", "testdata/does-not-exist.csv"}, true, "-smi testdata/does-not-exist.csv: cannot open"},
		{[]string{"-sample", "good", "-dmon", "testdata/does-not-exist.txt"}, true, "-dmon testdata/does-not-exist.txt"},
		{[]string{"-card", "T4", "-gpus", "1", "-smi", "testdata/good_smi.csv", "-topo", "testdata"}, true, "-topo testdata: a folder"},
		{[]string{"-sample", "good", "-nccl", "testdata/good_smi.csv"}, false, "testdata/good_smi.csv"}, // not an all_reduce_perf run
	} {
		var out bytes.Buffer
		err := run(&out, tc.args, msg.EN)
		if err == nil || errors.Is(err, cli.ErrUsage) != tc.usage || errors.Is(err, errMismatch) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("run(%q): error = %v, want one naming %q (a usage error: %v)", tc.args, err, tc.want, tc.usage)
		}
	}
}

// -json prints the order, the devices, the links and the report as one JSON
// value, the library's findings one by one; a machine that does not match exits
// 1 after it.
func TestJSON(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, []string{"-sample", "bad", "-json"}, msg.EN)
	if code := cli.Exit("verify", err, io.Discard, msg.EN); code != 1 {
		t.Errorf("-sample bad -json: exit %d, want 1", code)
	}
	var got jsonReport
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON report: %v", err)
	}
	if got.OK || len(got.Devices) != 4 || got.Devices[0].CardID != "a100-sxm4-40gb" || len(got.Problems) != 10 ||
		got.Links == nil || *got.Links != (jsonLinks{Pairs: 6, NVLink: 0, PCIeOnly: 6}) {
		t.Errorf("JSON report %+v: want not OK, 4 A100 40GB, 10 problems, 6 pairs over PCIe only", got)
	}
	out.Reset()
	if err := run(&out, []string{"-sample", "good", "-json"}, msg.EN); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || !got.OK || len(got.Problems) != 0 || got.Problems == nil {
		t.Errorf("-sample good -json: %v, %+v; want OK with an empty list of problems", err, got)
	}
}

// GPUs with the same findings share one entry; a GPU alone keeps its own.
func TestByGPU(t *testing.T) {
	got := byGPU([]string{
		"8 GPUs ordered, 4 delivered.",
		"GPU 0 reports X, not Y.", "GPU 0 has 40 GB.",
		"GPU 1 reports X, not Y.", "GPU 1 has 40 GB.",
		"GPU 2 reports X, not Y.", "GPU 2 has 40 GB.",
		"GPU 5 reports X, not Y.", "GPU 5 has 40 GB.",
		"GPU 6 reports Z, not Y.",
		"6 pairs over PCIe.",
	})
	want := []string{
		"8 GPUs ordered, 4 delivered.",
		"GPUs 0–2, 5, each:\n             reports X, not Y.\n             has 40 GB.",
		"GPU 6 reports Z, not Y.",
		"6 pairs over PCIe.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("byGPU = %q, want %q", got, want)
	}
	if got := indexRanges([]int{0, 1, 3, 4, 5, 7}); got != "0, 1, 3–5, 7" {
		t.Errorf("indexRanges = %q", got)
	}
}

// TestHelp checks that -h says what the command does and its exit statuses.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-h"}, msg.EN); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run(-h) error = %v, want flag.ErrHelp", err)
	}
	help := out.String()
	for _, want := range []string{
		"Usage: verify -card NAME -gpus N [flags]",
		"Checks a rented GPU machine against the order",
		"nvidia-smi topo -m > topo.txt",
		"Exit status: 0 delivered as advertised",
		"1 the machine does not match the\norder",
		"the job leaves GPUs idle",
		"or there is no nvidia-smi to run; 2 usage error",
		"-smi file",
		"-dmon file",
		"-nccl file",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("-h output lacks %q:\n%s", want, help)
		}
	}
}

// No Go identifier reaches what a reader sees: the reports speak of the machine.
func TestNoGoIdentifiers(t *testing.T) {
	ident := regexp.MustCompile(`\b(catalog|compute|sizing)\.[A-Z]|\bLookup\b|\bVerify\b|\(s\)`)
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if len(goldens) == 0 {
		t.Fatal("no golden files")
	}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if m := ident.Find(b); m != nil {
			t.Errorf("%s shows %q", g, m)
		}
	}
	var out bytes.Buffer
	_ = run(&out, []string{"-h"}, msg.EN)
	if m := ident.FindString(out.String()); m != "" {
		t.Errorf("-h shows %q", m)
	}
}
