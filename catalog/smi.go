package catalog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/sizing"
)

// Device is one GPU as nvidia-smi lists it.
type Device struct {
	Index  int          `json:"index"`        // nvidia-smi's GPU index
	Name   string       `json:"name"`         // as printed: "NVIDIA A100-SXM4-80GB"
	Memory sizing.Bytes `json:"memory_bytes"` // memory.total
}

// maxDeviceMemory bounds memory.total: larger figures are garbage, not cards.
const maxDeviceMemory = 4 * sizing.TiB

// maxLine bounds one line of nvidia-smi output.
const maxLine = 64 << 10

// ParseSMI reads the output of
//
//	nvidia-smi --query-gpu=index,name,memory.total --format=csv
//
// with or without the noheader and nounits options. With a header
// ("index, name, memory.total [MiB]") the columns are found by name and others are
// ignored; without one they must be index, name, memory.total in that order.
// Memory is "81920 MiB" or, with nounits, "81920" (MiB, as the header says).
// Blank lines, surrounding spaces and CRLF line ends are accepted.
//
// Errors wrap ErrInvalid; a problem on one line is a *ParseError with its line
// number: missing columns, an index that is not a small non-negative integer or
// repeats, an empty name, memory that is not a positive number of MiB, or more
// than 4 TiB. Output with no GPU ("No devices were found") is an error.
func ParseSMI(r io.Reader) ([]Device, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	col := [3]int{0, 1, 2} // positions of index, name, memory.total
	ncols := 3
	unitsInHeader := false
	var devs []Device
	seen := make(map[int]bool)
	lineNo := 0
	first := true
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		fail := func(format string, args ...any) error {
			return &ParseError{Func: "ParseSMI", Line: lineNo, Input: line,
				Err: fmt.Errorf(format+": %w", append(args, ErrInvalid)...)}
		}
		if msg := smiFailure(line); msg != "" {
			return nil, fail("nvidia-smi %s", msg)
		}
		fields := strings.Split(line, ",")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if first {
			first = false
			if strings.EqualFold(fields[0], "index") || strings.HasPrefix(strings.ToLower(line), "index,") ||
				strings.Contains(strings.ToLower(line), "memory.total") {
				col = [3]int{-1, -1, -1}
				for i, f := range fields {
					lf := strings.ToLower(f)
					switch {
					case lf == "index":
						col[0] = i
					case lf == "name":
						col[1] = i
					case strings.HasPrefix(lf, "memory.total"):
						col[2] = i
						unitsInHeader = strings.Contains(lf, "[mib]")
					}
				}
				if col[0] < 0 || col[1] < 0 || col[2] < 0 {
					return nil, fail("header lacks index, name or memory.total")
				}
				if !unitsInHeader {
					return nil, fail("header gives memory.total without a unit")
				}
				ncols = len(fields)
				continue
			}
		}
		if len(fields) < ncols {
			return nil, fail("want %d columns, got %d", ncols, len(fields))
		}
		if ncols == 3 && len(fields) > 3 {
			return nil, fail("want 3 columns (index, name, memory.total), got %d", len(fields))
		}
		idx, err := strconv.Atoi(fields[col[0]])
		if err != nil || idx < 0 || idx > 1<<16 {
			return nil, fail("index %q is not a GPU index", fields[col[0]])
		}
		if seen[idx] {
			return nil, fail("GPU index %d listed twice", idx)
		}
		seen[idx] = true
		name := fields[col[1]]
		if name == "" {
			return nil, fail("empty GPU name")
		}
		mem, err := parseMiB(fields[col[2]])
		if err != nil {
			return nil, fail("memory.total %q: %v", fields[col[2]], err)
		}
		devs = append(devs, Device{Index: idx, Name: name, Memory: mem})
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Func: "ParseSMI", Line: lineNo + 1, Err: fmt.Errorf("%v: %w", err, ErrInvalid)}
	}
	if len(devs) == 0 {
		return nil, &ParseError{Func: "ParseSMI", Err: fmt.Errorf("no GPU listed: %w", ErrInvalid)}
	}
	return devs, nil
}

// parseMiB reads "81920 MiB", "81920MiB" or "81920" as MiB.
func parseMiB(s string) (sizing.Bytes, error) {
	num := strings.TrimSpace(strings.TrimSuffix(s, "MiB"))
	if num == "" || strings.ContainsAny(num, " \t") {
		return 0, errors.New("want a number of MiB")
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, errors.New("not a whole number of MiB")
	}
	if n <= 0 {
		return 0, errors.New("not positive")
	}
	if n > int64(maxDeviceMemory/sizing.MiB) {
		return 0, errors.New("over 4 TiB")
	}
	return sizing.Bytes(n) * sizing.MiB, nil
}

// smiFailure recognises the messages nvidia-smi prints instead of a table when it
// sees no GPU or cannot reach the driver, so that ParseSMI says what happened
// rather than reporting a malformed row.
func smiFailure(line string) string {
	l := strings.ToLower(line)
	switch {
	case strings.Contains(l, "no devices were found"):
		return "found no GPUs (\"No devices were found\"): the machine shows none to the driver"
	case strings.Contains(l, "couldn't communicate with the nvidia driver"), strings.Contains(l, "has failed"):
		return "failed: the NVIDIA driver is not loaded or not reachable"
	}
	return ""
}
