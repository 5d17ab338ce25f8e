package catalog

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/sizing"
)

// GPUUse is what an nvidia-smi dmon capture says of one GPU over the time it
// ran: how busy its streaming multiprocessors and its memory were.
type GPUUse struct {
	Index   int `json:"index"`   // nvidia-smi's GPU index
	Samples int `json:"samples"` // rows read for this GPU
	// SMPercent is the mean of the sm column (the share of time at least one kernel
	// ran), rounded to the nearest percent; -1 when no row gave a figure ("-").
	SMPercent int `json:"sm_percent"`
	// MemPercent is the mean of the mem column, the share of time the memory
	// controller was busy (bandwidth use, not memory held); -1 when not given.
	MemPercent int `json:"mem_percent"`
	// MemoryUsed is the most frame-buffer memory the capture saw in use (the fb
	// column, which -s m adds: "nvidia-smi dmon -s pucvm"); -1 when the capture has
	// no such figure.
	MemoryUsed sizing.Bytes `json:"memory_used_bytes"`
}

// ParseDmon reads a capture of
//
//	nvidia-smi dmon -s pucv
//
// (or any other -s selection with u, which gives the sm and mem columns, and with
// or without -o DT's date and time columns) and sums it up per GPU, in index
// order. The columns are found by the header line nvidia-smi prints first and
// repeats ("# gpu pwr gtemp mtemp sm mem …"); the units line under it ("# Idx W C
// …") is skipped, and a repeated header may change the columns. A "-" (a figure
// the GPU does not report) leaves that figure out of the mean. Blank lines, CRLF
// line ends, a UTF-8 byte order mark and nvidia-smi's warning lines are skipped.
//
// Errors wrap ErrInvalid; a bad line is a *ParseError with its number and the
// line quoted (at most 80 bytes): a row before any header, a header without the
// gpu or sm column, a row whose column count differs from its header's, a GPU
// index that is not a small integer, a percentage outside 0 to 100, an fb figure
// that is not a whole number of MiB up to 4 TiB, more than 1024 GPUs, a line over
// 64 KiB, or a capture with no rows. The work and memory are linear in the input
// and bounded per GPU: rows are summed as they are read.
func ParseDmon(r io.Reader) ([]GPUUse, error) {
	type sums struct {
		samples, sm, smN, mem, memN int64
		fb                          int64 // MiB; -1: none seen
	}
	lr := newLineReader("ParseDmon", r)
	var (
		cols   []string // header column names, lower case; nil before the first
		gpuCol = -1
		smCol  = -1
		memCol = -1
		fbCol  = -1
		byGPU  = make(map[int]*sums)
	)
	for lr.scan() {
		line := strings.TrimSpace(lr.text())
		if line == "" || smiWarning(line) {
			continue
		}
		fail := func(format string, args ...any) error {
			return &ParseError{Func: "ParseDmon", Line: lr.no, Input: line,
				Err: fmt.Errorf(format+": %w", append(args, ErrInvalid)...)}
		}
		if msg := smiFailure(line); msg != "" {
			return nil, fail("nvidia-smi %s", msg)
		}
		if isUTF16(line) {
			return nil, fail(utf16Text)
		}
		if strings.HasPrefix(line, "#") {
			fields := strings.Fields(strings.ToLower(strings.TrimPrefix(line, "#")))
			if slices.Contains(fields, "idx") {
				continue // the units line
			}
			gpuCol, smCol = slices.Index(fields, "gpu"), slices.Index(fields, "sm")
			memCol, fbCol = slices.Index(fields, "mem"), slices.Index(fields, "fb")
			if gpuCol < 0 || smCol < 0 {
				return nil, fail("header without the gpu and sm columns; capture nvidia-smi dmon -s pucv")
			}
			cols = fields
			continue
		}
		if what := smiOtherOutput(line); what != "" {
			return nil, fail("this is %s, not a dmon capture; run nvidia-smi dmon -s pucv", what)
		}
		if cols == nil {
			return nil, fail("a row before the header line (# gpu … sm …); capture the whole output of nvidia-smi dmon -s pucv")
		}
		fields := strings.Fields(line)
		if len(fields) != len(cols) {
			return nil, fail("%d columns, want %d as the header names", len(fields), len(cols))
		}
		idx, err := strconv.Atoi(fields[gpuCol])
		if err != nil || idx < 0 || idx > 1<<16 {
			return nil, fail("gpu %s is not a GPU index", quote(fields[gpuCol]))
		}
		s := byGPU[idx]
		if s == nil {
			if len(byGPU) == maxDevices {
				return nil, fail("more than %d GPUs: no machine has so many", maxDevices)
			}
			s = &sums{fb: -1}
			byGPU[idx] = s
		}
		pct := func(col int, sum, n *int64) error {
			if col < 0 || fields[col] == "-" {
				return nil
			}
			v, err := strconv.Atoi(fields[col])
			if err != nil || v < 0 || v > 100 {
				return fail("%s %s is not a percentage", cols[col], quote(fields[col]))
			}
			*sum += int64(v)
			*n++
			return nil
		}
		if err := pct(smCol, &s.sm, &s.smN); err != nil {
			return nil, err
		}
		if err := pct(memCol, &s.mem, &s.memN); err != nil {
			return nil, err
		}
		if fbCol >= 0 && fields[fbCol] != "-" {
			v, err := strconv.ParseInt(fields[fbCol], 10, 64)
			if err != nil || v < 0 || v > int64(maxDeviceMemory/sizing.MiB) {
				return nil, fail("fb %s is not a number of MiB up to 4 TiB", quote(fields[fbCol]))
			}
			s.fb = max(s.fb, v)
		}
		s.samples++
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if len(byGPU) == 0 {
		return nil, &ParseError{Func: "ParseDmon", Err: fmt.Errorf("no GPU rows: %w", ErrInvalid)}
	}
	mean := func(sum, n int64) int {
		if n == 0 {
			return -1
		}
		return int((2*sum + n) / (2 * n)) // to nearest, halves up; sum ≤ 100·n
	}
	out := make([]GPUUse, 0, len(byGPU))
	for idx, s := range byGPU {
		u := GPUUse{Index: idx, Samples: int(s.samples), SMPercent: mean(s.sm, s.smN),
			MemPercent: mean(s.mem, s.memN), MemoryUsed: -1}
		if s.fb >= 0 {
			u.MemoryUsed = sizing.Bytes(s.fb) * sizing.MiB
		}
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b GPUUse) int { return a.Index - b.Index })
	return out, nil
}
