package catalog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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

// maxDevices bounds the GPUs one listing may hold, with or without an index
// column: nvidia-smi lists the GPUs of one machine, and no node holds more (the
// topology matrix has the same bound).
const maxDevices = maxTopoGPUs

// maxLine bounds one line of nvidia-smi output.
const maxLine = 64 << 10

// smiQuery is the command whose output ParseSMI reads, for messages that suggest it.
const smiQuery = "nvidia-smi --query-gpu=index,name,memory.total --format=csv"

// ParseSMI reads the output of
//
//	nvidia-smi --query-gpu=index,name,memory.total --format=csv
//	nvidia-smi --query-gpu=name,memory.total --format=csv
//
// each with or without the noheader and nounits options. With a header
// ("index, name, memory.total [MiB]") the columns are found by name and others are
// ignored; without one a row is index, name, memory.total or name, memory.total,
// as the first row sets. Where no index is given the devices are numbered 0, 1, 2 …
// in row order, as nvidia-smi lists them. Memory is "81920 MiB" or, with nounits,
// "81920" (MiB, as the header says). A leading UTF-8 byte order mark, blank lines,
// surrounding spaces, CRLF line ends and nvidia-smi's warning lines
// ("WARNING: infoROM is corrupted at gpu 0000:81:00.0") are skipped.
//
// Errors wrap ErrInvalid; a problem on one line is a *ParseError with its line
// number and the line quoted: missing columns, an index that is not a small
// non-negative integer or repeats, an empty name, memory that is not a positive
// number of MiB or is more than 4 TiB, more than 1024 GPUs, or a line longer than
// 64 KiB. Errors quote at most the first 80 bytes of a line or field. Output with
// no GPU ("No devices were found"), nvidia-smi's failure messages (no driver, a GPU
// it cannot reach: "Unable to determine the device handle for GPU…"), its other
// outputs (the default table, nvidia-smi -L, nvidia-smi -q) and text saved as
// UTF-16 are errors that say so and, for the other outputs, name the command to run.
func ParseSMI(r io.Reader) ([]Device, error) {
	lr := newLineReader("ParseSMI", r)
	var (
		col   [3]int // positions of index (−1 when absent), name and memory.total
		ncols int    // columns a row needs; 0 until the header or first row sets it
		exact bool   // without a header a row has exactly ncols columns
		devs  []Device
		seen  map[int]bool
	)
	for lr.scan() {
		line := strings.TrimSpace(lr.text())
		if line == "" || smiWarning(line) {
			continue
		}
		fail := func(format string, args ...any) error {
			return &ParseError{Func: "ParseSMI", Line: lr.no, Input: line,
				Err: fmt.Errorf(format+": %w", append(args, ErrInvalid)...)}
		}
		if msg := smiFailure(line); msg != "" {
			return nil, fail("nvidia-smi %s", msg)
		}
		if isUTF16(line) {
			return nil, fail(utf16Text)
		}
		if what := smiOtherOutput(line); what != "" {
			return nil, fail("this is %s, not the CSV of a query; run %s", what, smiQuery)
		}
		fields := strings.Split(line, ",")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if ncols == 0 {
			if isSMIHeader(fields) {
				var msg string
				if col, msg = smiHeader(fields); msg != "" {
					return nil, fail("%s", msg)
				}
				ncols = len(fields)
				continue
			}
			switch len(fields) {
			case 3:
				col = [3]int{0, 1, 2}
			case 2:
				col = [3]int{-1, 0, 1}
			default:
				return nil, fail("want 3 columns (index, name, memory.total) or 2 (name, memory.total), got %d", len(fields))
			}
			ncols, exact = len(fields), true
		}
		if len(fields) < ncols || exact && len(fields) > ncols {
			if exact && ncols == 2 {
				return nil, fail("want 2 columns (name, memory.total) as on the first row, got %d", len(fields))
			}
			if exact {
				return nil, fail("want 3 columns (index, name, memory.total) as on the first row, got %d", len(fields))
			}
			return nil, fail("want %d columns as the header names, got %d", ncols, len(fields))
		}
		if len(devs) == maxDevices {
			return nil, fail("more than %d GPUs listed: no machine has so many; is this the output of one machine?", maxDevices)
		}
		idx := len(devs)
		if col[0] >= 0 {
			var err error
			idx, err = strconv.Atoi(fields[col[0]])
			if err != nil || idx < 0 || idx > 1<<16 {
				return nil, fail("index %s is not a GPU index", quote(fields[col[0]]))
			}
			if seen == nil {
				seen = make(map[int]bool)
			}
			if seen[idx] {
				return nil, fail("GPU index %d listed twice", idx)
			}
			seen[idx] = true
		}
		name := fields[col[1]]
		if name == "" {
			return nil, fail("empty GPU name")
		}
		if exact && ncols == 2 && isDigits(name) {
			// index, memory.total: without a header, the only reading of a number here.
			return nil, fail("name %s is a number; want name, memory.total (or index, name, memory.total)", quote(name))
		}
		mem, err := parseMiB(fields[col[2]])
		if err != nil {
			return nil, fail("memory.total %s: %v", quote(fields[col[2]]), err)
		}
		devs = append(devs, Device{Index: idx, Name: name, Memory: mem})
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if len(devs) == 0 {
		return nil, &ParseError{Func: "ParseSMI", Err: fmt.Errorf("no GPU listed: %w", ErrInvalid)}
	}
	return devs, nil
}

// isSMIHeader reports whether the first row is a header: it names a column
// nvidia-smi's query can give ("index", "name", "memory.total [MiB]"), which no
// device row holds.
func isSMIHeader(fields []string) bool {
	for _, f := range fields {
		lf := strings.ToLower(f)
		if lf == "index" || lf == "name" || strings.HasPrefix(lf, "memory.total") {
			return true
		}
	}
	return false
}

// smiHeader finds the index (−1 when absent), name and memory.total columns of a
// header, or says what the header lacks.
func smiHeader(fields []string) (col [3]int, msg string) {
	col = [3]int{-1, -1, -1}
	unit := false
	for i, f := range fields {
		lf := strings.ToLower(f)
		switch {
		case lf == "index" && col[0] < 0:
			col[0] = i
		case lf == "name" && col[1] < 0:
			col[1] = i
		case strings.HasPrefix(lf, "memory.total") && col[2] < 0:
			col[2] = i
			unit = strings.Contains(lf, "[mib]")
		}
	}
	switch {
	case col[1] < 0 && col[2] < 0:
		return col, "header has no name and no memory.total column"
	case col[1] < 0:
		return col, "header has no name column"
	case col[2] < 0:
		return col, "header has no memory.total column"
	case !unit:
		return col, "header gives memory.total without a unit"
	}
	return col, ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
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

// smiFailure recognises the messages nvidia-smi prints instead of its output when
// it sees no GPU, cannot reach the driver or cannot reach one GPU, so that the
// parsers say what happened rather than reporting a malformed row. The message
// follows "nvidia-smi ".
func smiFailure(line string) string {
	l := strings.ToLower(line)
	switch {
	case strings.Contains(l, "no devices were found"):
		return "found no GPUs (\"No devices were found\"): the machine shows none to the driver"
	case strings.Contains(l, "couldn't communicate with the nvidia driver"), strings.Contains(l, "has failed"):
		return "failed: the NVIDIA driver is not loaded or not reachable"
	case strings.Contains(l, "failed to initialize nvml"):
		return "failed (\"Failed to initialize NVML\"): the NVIDIA driver is not loaded or differs in version from its library"
	case strings.Contains(l, "device handle for gpu"), strings.Contains(l, "gpu is lost"):
		// "Unable to determine the device handle for GPU0000:81:00.0: Unknown Error",
		// or "Unable to detect …" on Windows: the driver lost a GPU it knows of.
		return "cannot reach a GPU: it is broken or lost from the PCIe bus (the machine needs a reboot or repair)"
	case strings.Contains(l, "nvidia-smi") && strings.Contains(l, "command not found"):
		return "is not installed (\"command not found\")"
	}
	return ""
}

// smiWarning reports whether a line is a warning nvidia-smi prints among its
// output ("WARNING: infoROM is corrupted at gpu 0000:81:00.0"); it names no device.
func smiWarning(line string) bool {
	return len(line) >= len("WARNING:") && strings.EqualFold(line[:len("WARNING:")], "WARNING:")
}

// smiOtherOutput names the output a line comes from when it is one of nvidia-smi's
// other forms rather than what the parsers read: the default table (with the
// timestamp above it), the -L list or the -q report.
func smiOtherOutput(line string) string {
	switch {
	case strings.HasPrefix(line, "+-"), strings.HasPrefix(line, "+="), strings.HasPrefix(line, "|"):
		return "nvidia-smi's default table"
	case isTimestamp(line):
		return "the timestamp above nvidia-smi's default table"
	case isListLine(line):
		return "nvidia-smi -L output"
	case strings.Contains(line, "NVSMI LOG"):
		return "nvidia-smi -q output"
	}
	return ""
}

// utf16Text is the error for output saved as UTF-16, as Windows PowerShell's >
// saves it: the parsers read UTF-8.
const utf16Text = "input is UTF-16 text (as Windows PowerShell's > saves it); save it as UTF-8"

// isUTF16 reports whether a line starts with a UTF-16 byte order mark and holds
// the zero bytes of UTF-16 text.
func isUTF16(line string) bool {
	return (strings.HasPrefix(line, "\xff\xfe") || strings.HasPrefix(line, "\xfe\xff")) && strings.Contains(line, "\x00")
}

// isTimestamp reports whether a line is the date nvidia-smi prints above its
// table: "Wed Jun  7 14:26:08 2023".
func isTimestamp(line string) bool {
	f := strings.Fields(line)
	return len(f) == 5 && len(f[0]) == 3 && len(f[1]) == 3 &&
		strings.Contains("Mon Tue Wed Thu Fri Sat Sun", f[0]) &&
		strings.Contains("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", f[1]) &&
		strings.Count(f[3], ":") == 2 && isDigits(f[4])
}

// isListLine reports whether a line is one of nvidia-smi -L:
// "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-…)".
func isListLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "GPU ")
	if !ok {
		return false
	}
	num, _, ok := strings.Cut(rest, ":")
	return ok && isDigits(num)
}

// maxHead is how much of a line too long to read is kept for the error; maxQuote
// is how much of it the error quotes: quote (errors.go) keeps 80 bytes, so a start
// cut here to whole characters stays whole.
const (
	maxHead  = 256
	maxQuote = 80
)

// utf8BOM is the byte order mark some Windows tools write before UTF-8 text.
const utf8BOM = "\ufeff"

// lineReader reads nvidia-smi output a line at a time for both parsers. It drops a
// UTF-8 byte order mark before the first line and the line ends (LF or CRLF),
// counts lines, and keeps the start of a line longer than maxLine so that the
// error can quote it.
type lineReader struct {
	fn   string // the parser, for errors
	sc   *bufio.Scanner
	no   int    // number of the line last read, from 1
	head []byte // the start of the line the scanner waits to see the end of
}

func newLineReader(fn string, r io.Reader) *lineReader {
	lr := &lineReader{fn: fn, sc: bufio.NewScanner(r)}
	lr.sc.Buffer(make([]byte, 0, 4096), maxLine)
	lr.sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		adv, tok, err := bufio.ScanLines(data, atEOF)
		if adv == 0 && tok == nil && err == nil {
			// No line end yet: the scanner reads on, or stops with
			// bufio.ErrTooLong, and then this is the line to quote.
			lr.head = append(lr.head[:0], data[:min(len(data), maxHead)]...)
		}
		return adv, tok, err
	})
	return lr
}

// scan reads the next line; it reports false at the end of the input or on an
// error, which err returns.
func (lr *lineReader) scan() bool {
	if !lr.sc.Scan() {
		return false
	}
	lr.no++
	return true
}

// text returns the line scan read, without its line end or, on the first line, a
// byte order mark.
func (lr *lineReader) text() string {
	if lr.no == 1 {
		return strings.TrimPrefix(lr.sc.Text(), utf8BOM)
	}
	return lr.sc.Text()
}

// err returns nil at the end of the input, else a *ParseError: for a line longer
// than maxLine, its number and its start; for a failed read, the read's error.
func (lr *lineReader) err() error {
	err := lr.sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		head := lr.head
		if lr.no == 0 {
			head = bytes.TrimPrefix(head, []byte(utf8BOM))
		}
		return &ParseError{Func: lr.fn, Line: lr.no + 1, Input: clip(bytes.TrimLeft(head, " \t")),
			Err: fmt.Errorf("line longer than %d KiB: %w", maxLine>>10, ErrInvalid)}
	}
	return &ParseError{Func: lr.fn, Err: fmt.Errorf("reading line %d: %w: %w", lr.no+1, err, ErrInvalid)}
}

// clip returns the start of a line too long to read, cut at a character boundary
// to fit maxQuote with "..." after it.
func clip(b []byte) string {
	cut := min(len(b), maxQuote-len("..."))
	for cut > 0 && cut < len(b) && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "..."
}
