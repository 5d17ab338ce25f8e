package catalog

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Path is the kind of connection nvidia-smi topo -m reports between two GPUs,
// from the closest to the farthest.
type Path uint8

// Paths, as the legend of nvidia-smi topo -m defines them.
const (
	PathUnknown Path = iota // not reported (the zero value)
	PathSelf                // X: the GPU itself
	PathNVLink              // NV#: a bonded set of # NVLinks
	PathPIX                 // at most one PCIe bridge
	PathPXB                 // several PCIe bridges, without the host bridge
	PathPHB                 // a PCIe host bridge (the CPU)
	PathNode                // PCIe and the links between host bridges of one NUMA node
	PathSYS                 // PCIe and the SMP link between NUMA nodes (QPI/UPI); older drivers say SOC
)

// String returns the legend's abbreviation ("NV", "PIX", "SYS").
func (p Path) String() string {
	switch p {
	case PathSelf:
		return "X"
	case PathNVLink:
		return "NV"
	case PathPIX:
		return "PIX"
	case PathPXB:
		return "PXB"
	case PathPHB:
		return "PHB"
	case PathNode:
		return "NODE"
	case PathSYS:
		return "SYS"
	}
	return "unknown"
}

// Link is the connection between two GPUs.
type Link struct {
	Path  Path // the kind of connection
	Links int  // number of bonded NVLinks for PathNVLink ("NV12" is 12); zero otherwise
}

// String returns the matrix cell: "NV12", "PIX", "X".
func (l Link) String() string {
	if l.Path == PathNVLink {
		return "NV" + strconv.Itoa(l.Links)
	}
	return l.Path.String()
}

// Topology is the GPU-to-GPU part of nvidia-smi topo -m: for each pair of GPUs,
// the connection between them. The zero value has no GPUs. It is read-only.
type Topology struct {
	n     int
	links []Link // n×n, row-major
}

// GPUs returns the number of GPUs in the matrix.
func (t Topology) GPUs() int { return t.n }

// Link returns the connection from GPU i to GPU j, and false if either is not in
// the matrix. A Topology from ParseTopology gives the same link both ways.
func (t Topology) Link(i, j int) (Link, bool) {
	if i < 0 || j < 0 || i >= t.n || j >= t.n {
		return Link{}, false
	}
	return t.links[i*t.n+j], true
}

// NVLinked reports whether GPUs i and j are joined directly by NVLink.
func (t Topology) NVLinked(i, j int) bool {
	l, ok := t.Link(i, j)
	return ok && l.Path == PathNVLink
}

// maxTopoGPUs bounds the matrix: no node holds more GPUs.
const maxTopoGPUs = 1024

// ParseTopology reads the output of nvidia-smi topo -m. The header row names the
// GPU columns GPU0 … GPUn−1 (further columns, such as NIC0, CPU Affinity, NUMA
// Affinity and GPU NUMA ID, are ignored); each GPUi row gives the connection to
// every GPU: X, NV#, PIX, PXB, PHB, NODE, SYS (or the older SOC). Rows for NICs
// and everything from the "Legend:" line on are skipped, as are a leading UTF-8
// byte order mark, terminal escape codes and nvidia-smi's warning lines
// ("WARNING: infoROM is corrupted at gpu 0000:81:00.0").
//
// nvidia-smi prints a symmetric matrix. Where the two directions of a pair differ
// (GPU0→GPU1 NV12 but GPU1→GPU0 SYS), the input was edited or damaged, and the
// Topology gives both directions the slower of the two: the farther path, or of two
// NVLink connections the one with fewer links. Link(i, j) and Link(j, i) are then
// always equal, and neither overstates the connection.
//
// Errors wrap ErrInvalid and are *ParseError values with the line number: no
// header, GPU columns out of order, a row missing or repeated, a cell that is not a
// known connection, X off the diagonal or a GPU not X to itself, or a line longer
// than 64 KiB. nvidia-smi's failure messages ("No devices were found", no driver, a GPU
// it cannot reach) and its other outputs (the default table, nvidia-smi -L) are
// errors that say so.
func ParseTopology(r io.Reader) (Topology, error) {
	lr := newLineReader("ParseTopology", r)
	n := -1
	var t Topology
	var have []bool
	for lr.scan() {
		line := strings.TrimSpace(stripANSI(lr.text()))
		fail := func(format string, args ...any) error {
			return &ParseError{Func: "ParseTopology", Line: lr.no, Input: line,
				Err: fmt.Errorf(format+": %w", append(args, ErrInvalid)...)}
		}
		if line == "" || smiWarning(line) {
			continue
		}
		if strings.HasPrefix(line, "Legend") {
			break
		}
		if msg := smiFailure(line); msg != "" {
			return Topology{}, fail("nvidia-smi %s", msg)
		}
		if isUTF16(line) {
			return Topology{}, fail(utf16Text)
		}
		if n < 0 {
			if what := smiOtherOutput(line); what != "" {
				return Topology{}, fail("this is %s, not the topology matrix; run nvidia-smi topo -m", what)
			}
		}
		fields := strings.Fields(line)
		if n < 0 {
			// The header: the leading GPUi tokens, in order from GPU0.
			for n = 0; n < len(fields) && n < maxTopoGPUs; n++ {
				k, ok := gpuNumber(fields[n])
				if !ok {
					break
				}
				if k != n {
					return Topology{}, fail("column %d is %s, want GPU%d", n, quote(fields[n]), n)
				}
			}
			if n == 0 {
				return Topology{}, fail("header names no GPU columns")
			}
			t = Topology{n: n, links: make([]Link, n*n)}
			have = make([]bool, n)
			continue
		}
		i, ok := gpuNumber(fields[0])
		if !ok {
			continue // a NIC row or other non-GPU row
		}
		if i >= n {
			return Topology{}, fail("row GPU%d beyond the %d GPU columns", i, n)
		}
		if have[i] {
			return Topology{}, fail("row GPU%d repeated", i)
		}
		have[i] = true
		if len(fields) < n+1 {
			return Topology{}, fail("row GPU%d has %d cells, want %d", i, len(fields)-1, n)
		}
		for j := 0; j < n; j++ {
			l, ok := parseCell(fields[1+j])
			if !ok {
				return Topology{}, fail("cell GPU%d-GPU%d %s is not a known connection", i, j, quote(fields[1+j]))
			}
			if (l.Path == PathSelf) != (i == j) {
				return Topology{}, fail("cell GPU%d-GPU%d is %s: X belongs on the diagonal only", i, j, l)
			}
			t.links[i*n+j] = l
		}
	}
	if err := lr.err(); err != nil {
		return Topology{}, err
	}
	if n < 0 {
		return Topology{}, &ParseError{Func: "ParseTopology", Err: fmt.Errorf("no topology matrix: %w", ErrInvalid)}
	}
	for i, ok := range have {
		if !ok {
			return Topology{}, &ParseError{Func: "ParseTopology", Err: fmt.Errorf("row GPU%d missing: %w", i, ErrInvalid)}
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w := slower(t.links[i*n+j], t.links[j*n+i])
			t.links[i*n+j], t.links[j*n+i] = w, w
		}
	}
	return t, nil
}

// slower returns the slower of two links between GPUs: the farther path (Path
// counts from the closest), or of two NVLink connections the one with fewer links.
func slower(a, b Link) Link {
	switch {
	case a.Path != b.Path:
		if a.Path > b.Path {
			return a
		}
		return b
	case a.Links <= b.Links:
		return a
	}
	return b
}

// gpuNumber reads "GPU12" as 12.
func gpuNumber(s string) (int, bool) {
	rest, ok := strings.CutPrefix(s, "GPU")
	if !ok || rest == "" || len(rest) > 4 {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	if err != nil || k < 0 || rest[0] == '+' || rest[0] == '-' {
		return 0, false
	}
	return k, true
}

func parseCell(s string) (Link, bool) {
	switch s {
	case "X":
		return Link{Path: PathSelf}, true
	case "PIX":
		return Link{Path: PathPIX}, true
	case "PXB":
		return Link{Path: PathPXB}, true
	case "PHB":
		return Link{Path: PathPHB}, true
	case "NODE":
		return Link{Path: PathNode}, true
	case "SYS", "SOC":
		return Link{Path: PathSYS}, true
	}
	if rest, ok := strings.CutPrefix(s, "NV"); ok && rest != "" && len(rest) <= 3 {
		k, err := strconv.Atoi(rest)
		if err == nil && k > 0 && rest[0] != '+' {
			return Link{Path: PathNVLink, Links: k}, true
		}
	}
	return Link{}, false
}

// stripANSI removes terminal escape sequences ("\x1b[4m"), which newer drivers
// print around the header when writing to a terminal.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
