package catalog

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

// AllReduceRun is what an nccl-tests all_reduce_perf run reports: its ranks (one
// per GPU) and, per message size, the bus bandwidth. nccl-tests defines the bus
// bandwidth of an all-reduce as the algorithm bandwidth (size / time) times
// 2·(n−1)/n, so that it reads against the per-direction speed of the slowest link
// of the ring whatever the number of GPUs (nccl-tests, doc/PERFORMANCE.md).
type AllReduceRun struct {
	Ranks   []string       `json:"ranks"` // the device of each rank, as "# Using devices" lists it; empty when not listed
	Results []AllReduceRow `json:"results"`
	// AvgBusBandwidth is the "# Avg bus bandwidth" line: the mean over every size,
	// small ones included, so far below the peak; 0 when absent.
	AvgBusBandwidth compute.Bandwidth `json:"avg_bus_bandwidth_bytes_per_second"`
}

// AllReduceRow is one message size of an all_reduce_perf run.
type AllReduceRow struct {
	Size         sizing.Bytes      `json:"size_bytes"`
	BusBandwidth compute.Bandwidth `json:"bus_bandwidth_bytes_per_second"`          // out-of-place busbw
	InPlace      compute.Bandwidth `json:"in_place_bus_bandwidth_bytes_per_second"` // in-place busbw
	Wrong        int               `json:"wrong"`                                   // wrong results, both passes; -1 when not checked (N/A)
}

// PeakBusBandwidth returns the highest bus bandwidth of the run, in place or out
// of place: at the largest sizes, where the link, not latency, sets the time.
func (r AllReduceRun) PeakBusBandwidth() compute.Bandwidth {
	var best compute.Bandwidth
	for _, row := range r.Results {
		best = max(best, row.BusBandwidth, row.InPlace)
	}
	return best
}

// maxNCCLRows bounds the sizes of one run: -f 2 from 8 B to 16 GiB is 32.
const maxNCCLRows = 4096

// ParseAllReducePerf reads the output of nccl-tests' all_reduce_perf, as
//
//	all_reduce_perf -b 8 -e 8G -f 2 -g 8
//
// prints it (launched by mpirun or not): the "# Using devices" list of ranks, the
// table of sizes with, out of place and in place, time, algbw, busbw (GB/s) and
// wrong results ("#wrong", or "error" in older versions, with or without the root
// column), and the "# Avg bus bandwidth" line. Other comment lines, NCCL's INFO
// lines and blank lines are skipped.
//
// Errors wrap ErrInvalid; a bad line is a *ParseError with its number and the
// line quoted (at most 80 bytes): a table row with too few columns, a size that is
// not a whole number of bytes, a bandwidth that is not a finite number of GB/s
// from 0 to 100,000, a wrong count that is not a whole number or N/A, more than
// 4096 sizes or ranks, a line over 64 KiB, or no table row at all.
func ParseAllReducePerf(r io.Reader) (AllReduceRun, error) {
	lr := newLineReader("ParseAllReducePerf", r)
	var run AllReduceRun
	for lr.scan() {
		line := strings.TrimSpace(lr.text())
		fail := func(format string, args ...any) error {
			return &ParseError{Func: "ParseAllReducePerf", Line: lr.no, Input: line,
				Err: fmt.Errorf(format+": %w", append(args, ErrInvalid)...)}
		}
		if line == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "#"); ok {
			rest = strings.TrimSpace(rest)
			if v, ok := strings.CutPrefix(rest, "Avg bus bandwidth"); ok {
				v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				bw, err := gbps(v)
				if err != nil {
					return AllReduceRun{}, fail("average bus bandwidth %s: %v", quote(v), err)
				}
				run.AvgBusBandwidth = bw
			}
			if f := strings.Fields(rest); len(f) >= 2 && f[0] == "Rank" {
				if len(run.Ranks) == maxNCCLRows {
					return AllReduceRun{}, fail("more than %d ranks", maxNCCLRows)
				}
				// "Rank  0 Group  0 Pid 6899 on host device  0 [0000:04:00] NVIDIA H100 80GB HBM3"
				dev := rest
				if _, after, ok := strings.Cut(rest, "]"); ok {
					dev = strings.TrimSpace(after)
				}
				run.Ranks = append(run.Ranks, dev)
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 || !isDigits(f[0]) {
			continue // NCCL INFO lines, mpirun's own output
		}
		if len(f) < 10 {
			return AllReduceRun{}, fail("%d columns, want size, count, type, redop, then time, algbw, busbw and wrong out of place and in place", len(f))
		}
		if len(run.Results) == maxNCCLRows {
			return AllReduceRun{}, fail("more than %d sizes", maxNCCLRows)
		}
		size, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return AllReduceRun{}, fail("size %s is not a whole number of bytes", quote(f[0]))
		}
		n := len(f)
		out, err := gbps(f[n-6])
		if err != nil {
			return AllReduceRun{}, fail("out-of-place busbw %s: %v", quote(f[n-6]), err)
		}
		in, err := gbps(f[n-2])
		if err != nil {
			return AllReduceRun{}, fail("in-place busbw %s: %v", quote(f[n-2]), err)
		}
		wrong := 0
		for _, w := range []string{f[n-5], f[n-1]} {
			if w == "N/A" {
				wrong = -1
				continue
			}
			k, err := strconv.Atoi(w)
			if err != nil || k < 0 {
				return AllReduceRun{}, fail("wrong count %s is not a whole number or N/A", quote(w))
			}
			if wrong >= 0 {
				wrong += min(k, 1<<30)
			}
		}
		run.Results = append(run.Results, AllReduceRow{Size: sizing.Bytes(size), BusBandwidth: out, InPlace: in, Wrong: wrong})
	}
	if err := lr.err(); err != nil {
		return AllReduceRun{}, err
	}
	if len(run.Results) == 0 {
		return AllReduceRun{}, &ParseError{Func: "ParseAllReducePerf",
			Err: fmt.Errorf("no result rows (size, count, type, …, busbw); capture the whole output of all_reduce_perf: %w", ErrInvalid)}
	}
	return run, nil
}

// gbps reads a bandwidth nccl-tests prints in GB/s (10⁹ bytes per second).
func gbps(s string) (compute.Bandwidth, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !finite(v) || v < 0 || v > 100_000 {
		return 0, fmt.Errorf("not a number of GB/s from 0 to 100000")
	}
	return compute.Bandwidth(v) * compute.GBps, nil
}

// AllReduceBaseline returns the bus bandwidth that compute's ring model gives an
// all-reduce over n GPUs of card c in one server, for reading an all_reduce_perf
// run against: the ring of compute.Link.AllReduce on the link the GPUs share (the
// card's NVLink or Infinity Fabric, per direction, or the share of a full mesh's
// links that n GPUs use; an NVLink bridge for a pair only; PCIe of the card's
// generation otherwise; see PeerLink), its time for a large message turned into
// bus bandwidth as nccl-tests does. The model has no latency and no protocol
// overhead, so a healthy machine measures below it: NCCL commonly reaches 75–85%
// of it on NVLink (see compute.Link), and a figure under half means a link slower
// than the card's. It also names the link. n below 2 is ErrInvalid.
func (c Card) AllReduceBaseline(n int) (compute.Bandwidth, string, error) {
	if n < 2 {
		return 0, "", fmt.Errorf("catalog: all-reduce over %d GPUs, want 2 or more: %w", n, ErrInvalid)
	}
	link, kind, err := c.PeerLink(n)
	if err != nil {
		return 0, "", err
	}
	name := fmt.Sprintf("PCIe Gen%d x16 link", c.PCIeGen)
	switch mesh := c.meshLinks(); {
	case kind != LinkNone && mesh > 0:
		name = fmt.Sprintf("%s (%d of its %d links, %s)", kind, min(n-1, mesh), mesh, link.Bandwidth*2)
	case kind != LinkNone:
		name = fmt.Sprintf("%s (%s total)", kind, c.NVLink)
	}
	const size = sizing.GiB << 4 // 16 GiB: long enough that nanosecond rounding is lost
	t, err := link.AllReduce(size, n)
	if err != nil {
		return 0, "", fmt.Errorf("catalog: card %s: %v: %w", quote(c.ID), strings.TrimSuffix(err.Error(), ": "+compute.ErrInvalid.Error()), ErrInvalid)
	}
	algbw := float64(size) / t.Seconds()
	return compute.Bandwidth(algbw * 2 * float64(n-1) / float64(n)), name, nil
}

// PeerLink returns the link n GPUs of card c share inside one server, as compute
// models it, and the kind of direct link it is: the card's NVLink or Infinity
// Fabric when it joins every GPU of the board, the share of a full mesh's links
// that n GPUs use (below), an NVLink bridge for a pair only, and otherwise PCIe of
// the card's generation (kind LinkNone). The link carries no latency; callers that
// model small messages add their own. A PCIe generation compute does not know is
// ErrInvalid.
//
// A full mesh joins each device of an eight-device server to each of its seven
// peers by a link of its own, without a switch, and the card's figure is the total
// over the seven: HCCS between the Ascend NPUs of an Atlas 800T A2, and Infinity
// Fabric between the CDNA 3 OAM GPUs of an AMD UBB (the MI300X's, MI325X's). n
// devices then reach each other over n−1 links each, and an all-reduce that sends
// to every peer at once (HCCL's and RCCL's mesh algorithms) moves data as a ring
// would on one link of n−1 times one link's bandwidth: the time 2·S/(n·b) either
// way, for S bytes and b per link and direction. So n devices get n−1 sevenths of
// the total (8 all of it, 2 one link), and more than 8 no more than 8 do.
func (c Card) PeerLink(n int) (compute.Link, LinkKind, error) {
	if mesh := c.meshLinks(); n > 1 && c.NVLink > 0 && mesh > 0 {
		share := c.NVLink * compute.Bandwidth(min(n-1, mesh)) / compute.Bandwidth(mesh)
		return compute.NVLink(share), c.Link, nil
	}
	if n > 1 && c.NVLink > 0 && (c.Link == LinkNVLink || c.Link == LinkInfinityFabric || c.Link == LinkNVLinkBridge && n == 2) {
		return compute.NVLink(c.NVLink), c.Link, nil
	}
	l, err := compute.PCIeLink(c.PCIeGen)
	if err != nil {
		return compute.Link{}, LinkNone, fmt.Errorf("catalog: card %s: %v: %w", quote(c.ID), strings.TrimSuffix(err.Error(), ": "+compute.ErrInvalid.Error()), ErrInvalid)
	}
	return l, LinkNone, nil
}

// meshLinks returns the number of links each device of card c has in a full mesh
// of its server, one to each peer, over which c.NVLink is the total; 0 when c's
// link is not such a mesh.
//
//   - HCCS: seven, one to each of the other NPUs of an Atlas 800T A2 (npu-smi
//     info -t topo shows HCCS between every pair; 7 × 56 GB/s = 392 GB/s, see
//     Sources' AC-910B).
//   - Infinity Fabric on CDNA 3 OAM GPUs: seven x16 links per GPU fully connect
//     the eight GPUs of an MI300X or MI325X platform, each 16 lanes at up to 32
//     Gb/s, 128 GB/s over both directions, 896 GB/s in all (AMD, "Introducing
//     AMD CDNA 3 Architecture" white paper, Figure 9 and Table 2).
//
// The MI250X's Infinity Fabric (CDNA 2) is no such mesh: AMD's ROCm MI250
// microarchitecture page joins its dies by single, double and quad links, so it
// keeps its total at any count.
func (c Card) meshLinks() int {
	switch {
	case c.Link == LinkHCCS:
		return 7
	case c.Link == LinkInfinityFabric && c.Architecture == "CDNA 3" && c.Form == "OAM":
		return 7
	}
	return 0
}
