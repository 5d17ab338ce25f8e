// Command verify checks a rented GPU machine against the order, as the second
// seed article advises: run nvidia-smi on the machine before the job, and compare
// the cards, their memory and their links with what was advertised (some providers
// label a card 80 GB and deliver 40 GB, or sell an NVLink board wired over PCIe).
//
// On the rented machine, capture:
//
//	nvidia-smi --query-gpu=index,name,memory.total --format=csv > smi.csv
//	nvidia-smi topo -m > topo.txt
//
// then run:
//
//	go run ./examples/verify -card "A100 SXM4 80GB" -gpus 8 -smi smi.csv -topo topo.txt
//
// Without -smi and -topo it checks an embedded sample: -sample good is an
// 8× A100 SXM4 80GB HGX board as advertised, -sample bad is four 40 GB cards on
// PCIe sold as eight 80 GB NVLink ones. It prints the devices found, the links
// between them and catalog.Verify's report.
//
// Exit status:
//
//	0  delivered as advertised (or -h)
//	1  the machine does not match the order (after the report), or a capture
//	   cannot be read or parsed
//	2  usage error: a bad flag or flag value, or a card name the catalog does
//	   not know or cannot tell apart
//
// Run with -h for every flag.
package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuplan/gpuplan/catalog"
)

// samples holds the embedded nvidia-smi captures: <name>_smi.csv and <name>_topo.txt.
//
//go:embed testdata/*_smi.csv testdata/*_topo.txt
var samples embed.FS

// errMismatch is returned, after the report is written, when the machine does not
// match the order.
var errMismatch = errors.New("the machine does not match the order")

// errUsage marks a bad command line (exit status 2).
var errUsage = errors.New("usage")

func main() {
	err := run(os.Stdout, os.Args[1:])
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		// -h: the usage was printed; asking for help is not a failure.
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "verify:", err)
		fmt.Fprintln(os.Stderr, "verify: -h lists the flags")
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(1)
	}
}

const usageHeader = `Usage: verify [flags]

Checks a rented GPU machine against the order: the cards nvidia-smi reports,
their memory and the links between them (nvidia-smi topo -m), against the card
and GPU count advertised. Without -smi and -topo it checks an embedded sample.
Capture on the rented machine:

  nvidia-smi --query-gpu=index,name,memory.total --format=csv > smi.csv
  nvidia-smi topo -m > topo.txt

Exit status: 0 delivered as advertised (or -h); 1 the machine does not match the
order (after the report), or a capture cannot be read or parsed; 2 usage error (a bad flag,
or a card name the catalog does not know).

Flags:
`

// printUsage writes the -h text: what the command does, its exit statuses and
// every flag.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, usageHeader)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// run is the command: it writes the report (or the -h text) to w, and returns
// errMismatch after the report when the machine does not match the order.
func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	card := fs.String("card", "a100-sxm4-80gb", "advertised card, any name the catalog knows (\"A100 SXM4 80GB\", \"A100-80GB\", \"RTX 4090\")")
	gpus := fs.Int("gpus", 8, "number of GPUs ordered")
	sample := fs.String("sample", "good", "embedded capture to check when -smi or -topo is not given: good or bad")
	smiPath := fs.String("smi", "", "`file` with the output of nvidia-smi --query-gpu=index,name,memory.total --format=csv; empty: the embedded sample")
	topoPath := fs.String("topo", "", "`file` with the output of nvidia-smi topo -m; empty: the embedded sample; \"none\": links not checked")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(w, fs)
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	if *sample != "good" && *sample != "bad" {
		return fmt.Errorf("%w: -sample %q: want good or bad", errUsage, *sample)
	}

	cat := catalog.Default()
	ordered, err := cat.Lookup(*card)
	if err != nil {
		return fmt.Errorf("%w: -card: %v", errUsage, err)
	}
	if *gpus < 1 {
		return fmt.Errorf("%w: -gpus %d: want at least 1", errUsage, *gpus)
	}

	// What nvidia-smi says the machine has.
	smiText, smiFrom, err := input(*smiPath, "testdata/"+*sample+"_smi.csv")
	if err != nil {
		return err
	}
	devs, err := catalog.ParseSMI(bytes.NewReader(smiText))
	if err != nil {
		return fmt.Errorf("%s: %w", smiFrom, err)
	}
	var topo *catalog.Topology
	topoFrom := "not given"
	if *topoPath != "none" {
		text, from, err := input(*topoPath, "testdata/"+*sample+"_topo.txt")
		if err != nil {
			return err
		}
		t, err := catalog.ParseTopology(bytes.NewReader(text))
		if err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		topo, topoFrom = &t, from
	}

	report, err := cat.Verify(*card, *gpus, devs, topo)
	if err != nil {
		return err
	}

	fmt.Fprintf(w, "Order: %d × %s (%s), %d MiB each, %s\n",
		*gpus, ordered.Name, ordered.ID, ordered.Memory/(1<<20), linkText(ordered))
	fmt.Fprintf(w, "\nDevices (nvidia-smi, %s):\n", smiFrom)
	for _, d := range devs {
		fmt.Fprintf(w, "  GPU %d  %-28s %7d MiB  %s\n", d.Index, d.Name, d.Memory/(1<<20), identify(cat, d.Name))
	}
	fmt.Fprintf(w, "\nLinks (nvidia-smi topo -m, %s):\n", topoFrom)
	if topo == nil {
		fmt.Fprintln(w, "  not checked")
	} else {
		writeLinks(w, *topo)
	}

	fmt.Fprintln(w, "\nReport (catalog.Verify):")
	if len(report.Problems)+len(report.Notes) == 0 {
		fmt.Fprintln(w, "  no problems, no notes")
	}
	for _, p := range report.Problems {
		fmt.Fprintf(w, "  problem: %s\n", p)
	}
	for _, n := range report.Notes {
		fmt.Fprintf(w, "  note:    %s\n", n)
	}
	if report.OK() {
		fmt.Fprintln(w, "\nVerdict: delivered as advertised.")
		return nil
	}
	verdict := fmt.Sprintf("%d problems; raise them", len(report.Problems))
	if len(report.Problems) == 1 {
		verdict = "1 problem; raise it"
	}
	fmt.Fprintf(w, "\nVerdict: %s with the provider before paying for the job.\n", verdict)
	return errMismatch
}

// input reads path, or the embedded sample when path is empty, and says where
// the text came from.
func input(path, sample string) ([]byte, string, error) {
	if path == "" {
		b, err := samples.ReadFile(sample)
		return b, "embedded sample " + strings.TrimPrefix(sample, "testdata/"), err
	}
	b, err := os.ReadFile(path)
	return b, path, err
}

// linkText describes how the card joins its peers.
func linkText(c catalog.Card) string {
	switch {
	case c.NVLink > 0 && c.Link == catalog.LinkNVLinkBridge:
		return fmt.Sprintf("NVLink bridge %s (pairs only)", c.NVLink)
	case c.NVLink > 0:
		return fmt.Sprintf("NVLink %s per GPU", c.NVLink)
	default:
		return fmt.Sprintf("no NVLink (PCIe Gen%d)", c.PCIeGen)
	}
}

// identify names the catalog card an nvidia-smi name resolves to.
func identify(cat *catalog.Catalog, name string) string {
	c, err := cat.Lookup(name)
	switch {
	case err == nil:
		return "= " + c.ID
	case errors.Is(err, catalog.ErrAmbiguous):
		return "ambiguous name"
	default:
		return "unknown card"
	}
}

// writeLinks prints the GPU matrix and counts the pairs by kind of link.
func writeLinks(w io.Writer, t catalog.Topology) {
	n := t.GPUs()
	var row strings.Builder
	row.WriteString("       ")
	for j := 0; j < n; j++ {
		fmt.Fprintf(&row, " %-5s", fmt.Sprintf("GPU%d", j))
	}
	fmt.Fprintln(w, strings.TrimRight(row.String(), " "))
	nvlink, pcie := 0, 0
	for i := 0; i < n; i++ {
		row.Reset()
		fmt.Fprintf(&row, "  GPU%-2d", i)
		for j := 0; j < n; j++ {
			l, _ := t.Link(i, j)
			fmt.Fprintf(&row, " %-5s", l)
			if j > i {
				if t.NVLinked(i, j) {
					nvlink++
				} else {
					pcie++
				}
			}
		}
		fmt.Fprintln(w, strings.TrimRight(row.String(), " "))
	}
	fmt.Fprintf(w, "  %d GPU pairs: %d over NVLink, %d over PCIe only.\n", n*(n-1)/2, nvlink, pcie)
}
