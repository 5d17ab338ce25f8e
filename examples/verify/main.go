// Command verify checks a rented GPU machine against the order, as the second
// seed article advises: run nvidia-smi on the machine before the job, and compare
// the cards, their memory and their links with what was advertised (some providers
// label a card 80 GB and deliver 40 GB, or sell an NVLink board wired over PCIe).
// Then, once the job runs, read how busy the GPUs are and how fast they all-reduce.
//
// On the rented machine, run it as it is:
//
//	go run ./examples/verify -card "A100 SXM4 80GB" -gpus 8
//
// It runs nvidia-smi itself (the one on PATH):
//
//	nvidia-smi --query-gpu=index,name,memory.total --format=csv
//	nvidia-smi topo -m
//
// and refuses, with exit status 1, when there is no nvidia-smi: it never passes a
// machine it has not seen. Elsewhere, give captures of those two commands with
// -smi and -topo. Two more captures, made while the job or a test runs, are read
// against the order:
//
//	nvidia-smi dmon -s pucv -c 60 > dmon.txt     # -dmon dmon.txt
//	all_reduce_perf -b 8 -e 8G -f 2 -g 8 > nccl.txt  # -nccl nccl.txt
//
// -dmon flags GPUs whose streaming multiprocessors are busy less than -min-sm
// percent of the time (a job at 5% on an 8-GPU order pays for idle GPUs) and,
// with -plan-mem, memory use far from the plan's; -nccl holds the bus bandwidth
// nccl-tests measured against the one the library's ring model gives the card's
// link. -sample good or -sample bad checks an embedded demonstration instead of a
// machine: an 8× A100 SXM4 80GB HGX board as advertised, or four 40 GB cards on
// PCIe sold as eight 80 GB NVLink ones.
//
// Findings that several GPUs share (four 40 GB cards sold as 80 GB) are written
// once for them all. -json prints the report as JSON instead, each finding on its
// own; -o FILE writes what would be printed to FILE.
//
// Exit status:
//
//	0  delivered as advertised (or -h)
//	1  the machine does not match the order, or the job leaves GPUs idle (after
//	   the report); a capture cannot be read or parsed, or there is no nvidia-smi
//	   to run
//	2  usage error: a bad flag or flag value, a capture file that cannot be
//	   opened, a card name the catalog does not know, or a card nvidia-smi does not see (AMD's GPUs and Huawei's Ascend
//	   NPUs, which rocm-smi and npu-smi check; verify does not read them yet)
//
// Run with -h for every flag.
package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/catalog"
	"github.com/gpuplan/gpuplan/internal/cli"
	"github.com/gpuplan/gpuplan/internal/msg"
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/sizing"
)

// samples holds the embedded nvidia-smi captures: <name>_smi.csv and <name>_topo.txt.
//
//go:embed testdata/*_smi.csv testdata/*_topo.txt
var samples embed.FS

// errMismatch is returned, after the report is written, when the machine does not
// match the order.
var errMismatch = errors.New("the machine does not match the order")

// errIdle is returned, after the report is written, when the machine matches the
// order but the dmon capture shows the job leaving GPUs idle.
var errIdle = errors.New("the job leaves GPUs it pays for idle")

func main() {
	os.Exit(cli.Main("verify", run, os.Args[1:], msg.FromEnv(os.Getenv), os.Stdout, os.Stderr))
}

// The commands run on the machine when no capture is given.
var (
	smiArgs  = []string{"--query-gpu=index,name,memory.total", "--format=csv"}
	topoArgs = []string{"topo", "-m"}
)

// run is the command: it writes the report (or the -h text) to w, and returns
// errMismatch after the report when the machine does not match the order.
func run(w io.Writer, args []string, lang msg.Lang) error {
	l := cli.LangOf(args, lang) // the words of the flags and the output
	fs := cli.FlagSet("verify")
	card := fs.String("card", "", l.T("verify.flag.card"))
	gpus := fs.Int("gpus", 0, l.T("verify.flag.gpus"))
	sample := fs.String("sample", "", l.T("verify.flag.sample"))
	smiPath := fs.String("smi", "", l.T("verify.flag.smi"))
	topoPath := fs.String("topo", "", l.T("verify.flag.topo"))
	dmonPath := fs.String("dmon", "", l.T("verify.flag.dmon"))
	minSM := fs.Int("min-sm", 30, l.T("verify.flag.min-sm"))
	planMem := fs.String("plan-mem", "", l.T("verify.flag.plan-mem"))
	ncclPath := fs.String("nccl", "", l.T("verify.flag.nccl"))
	catalogFile := fs.String("catalog", "", l.T("cli.flag.catalog"))
	asJSON := fs.Bool("json", false, l.T("verify.flag.json"))
	out := fs.String("o", "", l.T("verify.flag.o"))
	cli.LangFlag(fs, &l)
	set, err := cli.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		cli.Usage(w, fs, l.T("verify.usage"), l)
	}
	if err != nil {
		return err
	}
	c := check{lang: l, catalog: *catalogFile, card: *card, gpus: *gpus, sample: *sample, smi: *smiPath, topo: *topoPath, dmon: *dmonPath,
		minSM: *minSM, planMem: *planMem, nccl: *ncclPath, set: set}
	return cli.To(w, *out, func(w io.Writer) error {
		if !*asJSON {
			return c.run(w, nil)
		}
		var j jsonReport
		err := c.run(io.Discard, &j)
		switch {
		case err == nil, errors.Is(err, errMismatch), errors.Is(err, errIdle):
			if werr := cli.WriteJSON(w, j); werr != nil {
				return werr
			}
			if err != nil {
				return &cli.Reported{Code: 1, Err: err}
			}
			return nil
		}
		return cli.FailJSON(w, err, nil)
	})
}

// check is the command line, parsed.
type check struct {
	lang                          msg.Lang
	catalog                       string // -catalog
	card                          string
	gpus                          int
	sample, smi, topo, dmon, nccl string
	minSM                         int
	planMem                       string
	set                           map[string]bool
}

// jsonReport is what -json prints: the order, what the machine has, and the
// report. Problems and notes are the library's sentences, one a finding.
type jsonReport struct {
	Card       string                `json:"card"` // as ordered
	GPUs       int                   `json:"gpus"` // ordered
	Candidates []string              `json:"candidates"`
	Devices    []jsonDevice          `json:"devices"`
	Links      *jsonLinks            `json:"links"`      // null: not checked
	Use        []catalog.GPUUse      `json:"use"`        // null without -dmon
	AllReduce  *catalog.AllReduceRun `json:"all_reduce"` // null without -nccl
	Problems   []string              `json:"problems"`
	Notes      []string              `json:"notes"`
	Job        []string              `json:"job"` // the job's problems, from -dmon
	OK         bool                  `json:"ok"`  // delivered as advertised, and no GPU left idle
}

// jsonDevice is a GPU nvidia-smi reported, and the catalog card its name denotes.
type jsonDevice struct {
	catalog.Device
	CardID string `json:"card_id"` // empty: a name the catalog does not know, or several cards
}

// jsonLinks counts the pairs of GPUs by link.
type jsonLinks struct {
	Pairs    int `json:"pairs"`
	NVLink   int `json:"nvlink"`
	PCIeOnly int `json:"pcie_only"`
}

// run checks the machine, writes the text report to w and, when j is not nil,
// fills it for -json.
func (c check) run(w io.Writer, j *jsonReport) error {
	l := c.lang
	switch {
	case c.sample != "" && c.sample != "good" && c.sample != "bad":
		return cli.Usagef("-sample %q: %s", c.sample, l.T("verify.err.sample"))
	case c.sample != "" && (c.set["smi"] || c.set["topo"]):
		return cli.Usagef("-sample: %s", l.T("verify.err.samplefiles"))
	case c.sample == "" && c.card == "":
		return cli.Usagef("-card: %s", l.T("verify.err.card"))
	case c.sample == "" && !c.set["gpus"]:
		return cli.Usagef("-gpus: %s", l.T("verify.err.gpus"))
	case c.gpus < 0 || c.set["gpus"] && c.gpus == 0:
		return cli.Usagef("-gpus %d: %s", c.gpus, l.T("verify.err.gpusmin"))
	case c.minSM < 0 || c.minSM > 100:
		return cli.Usagef("-min-sm %d: %s", c.minSM, l.T("verify.err.minsm"))
	}
	if c.sample != "" {
		if c.card == "" {
			c.card = "A100 SXM4 80GB"
		}
		if !c.set["gpus"] {
			c.gpus = 8
		}
	}
	var plan sizing.Bytes
	if c.planMem != "" {
		b, err := sizing.ParseBytes(c.planMem)
		if err != nil || b <= 0 {
			return cli.Usagef("-plan-mem %q: %s", c.planMem, l.T("verify.err.planmem"))
		}
		plan = b
	}

	cat, err := cli.Catalog(c.catalog)
	if err != nil {
		return err
	}
	// Verify reads the order before any machine is looked at: a card or a family
	// of cards. A name the catalog does not know is a usage error, and so is a
	// card Verify refuses, one nvidia-smi does not list (its message names the
	// tool that does).
	if _, err := cat.Verify(c.card, c.gpus, nil, nil); err != nil {
		msg := strings.TrimPrefix(err.Error(), "catalog: ")
		if m, ok := strings.CutPrefix(msg, "Verify: "); ok {
			msg = c.card + ": " + m
		}
		if errors.Is(err, catalog.ErrNotFound) {
			msg += "; " + l.T("cli.unknowncard")
		}
		return cli.Usagef("-card %s", msg)
	}

	// What nvidia-smi says the machine has.
	var src source
	switch {
	case c.sample != "":
		src = embedded{c.sample, l}
	case c.smi != "":
		src = files{smi: c.smi, topo: c.topo}
	default:
		bin, err := exec.LookPath("nvidia-smi")
		if err != nil {
			return fmt.Errorf("%s", l.T("verify.err.nosmi"))
		}
		src = live{bin: bin, topo: c.topo}
	}
	smiText, smiFrom, err := src.readSMI()
	if err != nil {
		return err
	}
	devs, err := catalog.ParseSMI(bytes.NewReader(smiText))
	if err != nil {
		return fmt.Errorf("%s: %w", smiFrom, err)
	}
	var topo *catalog.Topology
	topoText, topoFrom, err := src.readTopo()
	if err != nil {
		return err
	}
	if topoText != nil {
		t, err := catalog.ParseTopology(bytes.NewReader(topoText))
		if err != nil {
			return fmt.Errorf("%s: %w", topoFrom, err)
		}
		topo = &t
	}
	var uses []catalog.GPUUse
	var job []string // problems of the job, not the machine
	if c.dmon != "" {
		if uses, err = parseFile("dmon", c.dmon, catalog.ParseDmon); err != nil {
			return err
		}
	}
	var nccl *catalog.AllReduceRun
	if c.nccl != "" {
		r, err := parseFile("nccl", c.nccl, catalog.ParseAllReducePerf)
		if err != nil {
			return err
		}
		nccl = &r
	}

	report, err := cat.Verify(c.card, c.gpus, devs, topo)
	if err != nil {
		return err
	}
	ordered := orderedCard(cat, report)

	fmt.Fprintln(w, text.Wrap(l.F("verify.order", c.gpus, orderText(l, cat, report)), 0, 100, "  "))
	fmt.Fprintf(w, "\n%s\n", l.F("verify.devices", smiFrom))
	t := text.Table{Indent: "  ", Align: []text.Align{text.Left, text.Left, text.Right, text.Left}}
	for _, d := range devs {
		t.Row(fmt.Sprintf("GPU %d", d.Index), d.Name, fmt.Sprintf("%d MiB", d.Memory/(1<<20)), identify(l, cat, d.Name))
	}
	if err := t.Write(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", l.F("verify.links", topoFrom))
	if topo == nil {
		fmt.Fprintln(w, "  "+l.T("verify.notchecked"))
	} else {
		writeLinks(w, *topo, l)
	}
	if uses != nil {
		fmt.Fprintf(w, "\n%s\n", l.F("verify.use", c.dmon))
		job = checkUse(w, &report, devs, c.gpus, uses, c.minSM, plan, l)
	}
	if nccl != nil {
		fmt.Fprintf(w, "\n%s\n", l.F("verify.allreduce", c.nccl))
		if err := checkAllReduce(w, &report, linkCard(cat, ordered, devs), c.gpus, *nccl, l); err != nil {
			return err
		}
	}

	if j != nil {
		*j = jsonReport{Card: c.card, GPUs: c.gpus, Candidates: report.Candidates, Use: uses, AllReduce: nccl,
			Problems: nonNil(report.Problems), Notes: nonNil(report.Notes), Job: nonNil(job), OK: report.OK() && len(job) == 0}
		for _, d := range devs {
			jd := jsonDevice{Device: d}
			if c, err := cat.Lookup(d.Name); err == nil {
				jd.CardID = c.ID
			}
			j.Devices = append(j.Devices, jd)
		}
		if topo != nil {
			l := jsonLinks{}
			for a := 0; a < topo.GPUs(); a++ {
				for b := a + 1; b < topo.GPUs(); b++ {
					l.Pairs++
					if topo.NVLinked(a, b) {
						l.NVLink++
					} else {
						l.PCIeOnly++
					}
				}
			}
			j.Links = &l
		}
	}

	problems, notes := byGPU(report.Problems), byGPU(report.Notes)
	fmt.Fprintf(w, "\n%s\n", l.T("verify.report"))
	if len(problems)+len(notes)+len(job) == 0 {
		fmt.Fprintln(w, "  "+l.T("verify.clean"))
	}
	label := func(key string) string {
		return text.PadRight(l.T(key), max(text.Width(l.T("verify.problem")), text.Width(l.T("verify.note")), text.Width(l.T("verify.job"))))
	}
	for _, p := range problems {
		fmt.Fprintf(w, "  %s %s\n", label("verify.problem"), p)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "  %s %s\n", label("verify.note"), n)
	}
	for _, p := range job {
		fmt.Fprintf(w, "  %s %s\n", label("verify.job"), p)
	}
	switch {
	case report.OK() && len(job) == 0:
		fmt.Fprintf(w, "\n%s\n", l.T("verify.verdict.ok"))
		return nil
	case report.OK():
		fmt.Fprintf(w, "\n%s\n", l.T("verify.verdict.idle"))
		return &cli.Advised{Err: errIdle, Advice: l.T("verify.advice.idle")}
	}
	fmt.Fprintf(w, "\n%s\n", l.N(len(problems), "verify.verdict.problems"))
	return &cli.Advised{Err: errMismatch, Advice: l.T("verify.advice.mismatch")}
}

// nonNil makes an absent list print as [] in JSON.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// perGPU matches a finding about one GPU: "GPU 3 has 40960 MiB of memory; ...".
var perGPU = regexp.MustCompile(`^GPU (\d+) (.+)$`)

// byGPU groups the findings about single GPUs: GPUs with the same findings (the
// same card delivered short, say) share one entry, "GPUs 0–3, each:" and the
// findings on lines of their own, in place of the first GPU's; the other
// findings, and those of a GPU alone in its group, stay as they are.
func byGPU(findings []string) []string {
	type gpu struct {
		index int
		rest  []string
		first int // the position of its first finding
	}
	var gpus []*gpu
	byIndex := map[int]*gpu{}
	for i, f := range findings {
		m := perGPU.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		g := byIndex[n]
		if g == nil {
			g = &gpu{index: n, first: i}
			byIndex[n] = g
			gpus = append(gpus, g)
		}
		g.rest = append(g.rest, m[2])
	}
	groups := map[string][]int{} // the findings, joined, to the GPUs that have them
	for _, g := range gpus {
		key := strings.Join(g.rest, "\n")
		groups[key] = append(groups[key], g.index)
	}
	var out []string
	done := map[string]bool{}
	for i, f := range findings {
		m := perGPU.FindStringSubmatch(f)
		if m == nil {
			out = append(out, f)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		g := byIndex[n]
		key := strings.Join(g.rest, "\n")
		switch idx := groups[key]; {
		case len(idx) == 1:
			out = append(out, f)
		case g.first == i && !done[key]:
			done[key] = true
			out = append(out, fmt.Sprintf("GPUs %s, each:\n             %s", indexRanges(idx), strings.Join(g.rest, "\n             ")))
		}
	}
	return out
}

// indexRanges writes GPU indices with runs as ranges: "0–3", "0, 2, 5–7".
func indexRanges(idx []int) string {
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, strconv.Itoa(idx[i]))
		case j == i+1:
			parts = append(parts, strconv.Itoa(idx[i]), strconv.Itoa(idx[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d–%d", idx[i], idx[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// orderedCard returns the card the order is checked as: the advertised card, or
// for a family the first of its cards.
func orderedCard(cat *catalog.Catalog, r catalog.Report) catalog.Card {
	c, err := cat.Lookup(r.Candidates[0])
	if err != nil {
		panic("verify: a card Verify named is not in the catalog: " + err.Error())
	}
	return c
}

// linkCard returns the card whose link an all-reduce is held to: the card every
// GPU delivered is, when it is one of the cards the order allows, else the card
// the order is checked as.
func linkCard(cat *catalog.Catalog, ordered catalog.Card, devs []catalog.Device) catalog.Card {
	var got catalog.Card
	for i, d := range devs {
		c, err := cat.Lookup(d.Name)
		if err != nil || i > 0 && c.ID != got.ID {
			return ordered
		}
		got = c
	}
	if got.ID == "" || got.Vendor != ordered.Vendor || got.Architecture != ordered.Architecture {
		return ordered
	}
	return got
}

// orderText describes the card or cards the order allows.
func orderText(l msg.Lang, cat *catalog.Catalog, r catalog.Report) string {
	if len(r.Candidates) == 1 {
		c := orderedCard(cat, r)
		return l.F("verify.ordercard", c.Name, c.ID, c.Memory/(1<<20), linkText(l, c))
	}
	return l.F("verify.orderfamily", r.Advertised, strings.Join(r.Candidates, ", "))
}

// checkUse prints what the dmon capture says of each GPU ordered and returns the
// job's problems: GPUs left idle and GPUs missing from the capture. Memory use
// far from the plan's goes to the report's notes.
func checkUse(w io.Writer, r *catalog.Report, devs []catalog.Device, gpus int, uses []catalog.GPUUse, minSM int, plan sizing.Bytes, l msg.Lang) (job []string) {
	byIndex := map[int]catalog.GPUUse{}
	for _, u := range uses {
		byIndex[u.Index] = u
	}
	var idle, missing, busy []string
	var over, under []string
	for _, d := range devs[:min(gpus, len(devs))] {
		u, ok := byIndex[d.Index]
		if !ok {
			missing = append(missing, strconv.Itoa(d.Index))
			fmt.Fprintf(w, "  GPU %d  %s\n", d.Index, l.T("verify.use.missing"))
			continue
		}
		fmt.Fprintf(w, "  GPU %d  %s\n", d.Index, l.F("verify.use.gpu", percent(l, u.SMPercent), percent(l, u.MemPercent), used(l, u.MemoryUsed), u.Samples))
		switch {
		case u.SMPercent >= 0 && u.SMPercent < minSM:
			idle = append(idle, fmt.Sprintf("%d (%d%%)", d.Index, u.SMPercent))
		case u.SMPercent >= 0:
			busy = append(busy, strconv.Itoa(d.Index))
		}
		if plan > 0 && u.MemoryUsed >= 0 {
			switch {
			case u.MemoryUsed > plan:
				over = append(over, strconv.Itoa(d.Index))
			case u.MemoryUsed < plan/2:
				under = append(under, strconv.Itoa(d.Index))
			}
		}
	}
	ordered := min(gpus, len(devs))
	if len(idle) > 0 {
		what := l.T("verify.idle.all")
		if len(busy) > 0 {
			what = l.F("verify.idle.some", len(busy), ordered)
		}
		job = append(job, l.F("verify.idle", strings.Join(idle, ", "), minSM, what))
	}
	if len(missing) > 0 {
		job = append(job, l.F("verify.missing", strings.Join(missing, ", ")))
	}
	if len(over) > 0 {
		r.Notes = append(r.Notes, l.F("verify.over", strings.Join(over, ", "), plan.String()))
	}
	if len(under) > 0 {
		r.Notes = append(r.Notes, l.F("verify.under", strings.Join(under, ", "), plan.String()))
	}
	if plan > 0 && uses[0].MemoryUsed < 0 {
		r.Notes = append(r.Notes, l.T("verify.nofb"))
	}
	return job
}

// checkAllReduce prints the bus bandwidth the run measured and the baseline of the
// card's link, and adds a problem when the run reached less than half of it.
func checkAllReduce(w io.Writer, r *catalog.Report, card catalog.Card, gpus int, run catalog.AllReduceRun, l msg.Lang) error {
	n := gpus
	if len(run.Ranks) > 0 {
		n = len(run.Ranks)
	}
	peak := run.PeakBusBandwidth()
	fmt.Fprintf(w, "  %s\n", l.F("verify.ar.peak", n, peak.GBps(), run.Results[len(run.Results)-1].Size.String()))
	if n < 2 {
		fmt.Fprintf(w, "  %s\n", l.T("verify.ar.one"))
		return nil
	}
	base, link, err := card.AllReduceBaseline(n)
	if err != nil {
		return err
	}
	ratio := float64(peak) / float64(base)
	fmt.Fprintf(w, "  %s\n", l.F("verify.ar.model", card.Name, link, base.GBps(), 100*ratio))
	for _, row := range run.Results {
		if row.Wrong > 0 {
			r.Problems = append(r.Problems, l.F("verify.ar.wrong", row.Size.String(), row.Wrong))
			break
		}
	}
	switch {
	case n > gpus:
		r.Notes = append(r.Notes, l.F("verify.ar.more", n, gpus))
	case ratio < 0.5:
		r.Problems = append(r.Problems, l.F("verify.ar.slow", peak.GBps(), base.GBps(), card.Name, link))
	case ratio < 0.7:
		r.Notes = append(r.Notes, l.F("verify.ar.low", 100*ratio, base.GBps()))
	}
	return nil
}

func percent(l msg.Lang, p int) string {
	if p < 0 {
		return l.T("verify.notreported")
	}
	return strconv.Itoa(p) + "%"
}

func used(l msg.Lang, b sizing.Bytes) string {
	if b < 0 {
		return l.T("verify.notcaptured")
	}
	return fmt.Sprintf("%d MiB", b/sizing.MiB)
}

// parseFile reads and parses the capture at path.
func parseFile[T any](flag, path string, parse func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := cli.Open(flag, path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// source gives the nvidia-smi output to check and says where it came from.
// readTopo returns nil text when links are not to be checked.
type source interface {
	readSMI() ([]byte, string, error)
	readTopo() ([]byte, string, error)
}

// embedded is a demonstration capture in testdata, named in lang.
type embedded struct {
	name string
	lang msg.Lang
}

func (e embedded) readSMI() ([]byte, string, error) {
	b, err := samples.ReadFile("testdata/" + e.name + "_smi.csv")
	return b, e.lang.F("verify.embedded", e.name+"_smi.csv"), err
}

func (e embedded) readTopo() ([]byte, string, error) {
	b, err := samples.ReadFile("testdata/" + e.name + "_topo.txt")
	return b, e.lang.F("verify.embedded", e.name+"_topo.txt"), err
}

// files are captures the user made.
type files struct{ smi, topo string }

func (f files) readSMI() ([]byte, string, error) {
	b, err := cli.ReadFile("smi", f.smi)
	return b, f.smi, err
}

func (f files) readTopo() ([]byte, string, error) {
	switch f.topo {
	case "":
		return nil, "not given (-topo)", nil
	case "none":
		return nil, "not given", nil
	}
	b, err := cli.ReadFile("topo", f.topo)
	return b, f.topo, err
}

// live runs nvidia-smi on this machine.
type live struct{ bin, topo string }

func (l live) readSMI() ([]byte, string, error) {
	return runSMI(l.bin, smiArgs)
}

func (l live) readTopo() ([]byte, string, error) {
	switch l.topo {
	case "":
		return runSMI(l.bin, topoArgs)
	case "none":
		return nil, "not given", nil
	}
	return files{topo: l.topo}.readTopo()
}

// maxOutput bounds what is read of nvidia-smi's output: far beyond any machine's.
const maxOutput = 4 << 20

// runSMI runs nvidia-smi with args, with a time limit, and returns its output. A
// failed run's output is returned for the parsers, which name nvidia-smi's
// failure messages ("NVIDIA-SMI has failed because it couldn't communicate with the
// NVIDIA driver"), unless it printed nothing.
func runSMI(bin string, args []string) ([]byte, string, error) {
	from := "nvidia-smi " + strings.Join(args, " ")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errOut limitedBuffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	text := append(out.Bytes(), errOut.Bytes()...)
	switch {
	case out.over || errOut.over:
		return nil, from, fmt.Errorf("%s: output over %d MiB", from, maxOutput>>20)
	case err != nil && len(bytes.TrimSpace(text)) == 0:
		return nil, from, fmt.Errorf("%s: %v", from, err)
	}
	return text, from, nil
}

// limitedBuffer keeps up to maxOutput bytes and notes more.
type limitedBuffer struct {
	bytes.Buffer
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxOutput {
		b.over = true
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// linkText describes how the card joins its peers.
func linkText(l msg.Lang, c catalog.Card) string {
	switch {
	case c.NVLink > 0 && c.Link == catalog.LinkNVLinkBridge:
		return l.F("verify.link.bridge", c.NVLink.String())
	case c.NVLink > 0:
		return l.F("verify.link.nvlink", c.NVLink.String())
	default:
		return l.F("verify.link.pcie", c.PCIeGen)
	}
}

// identify names the catalog card an nvidia-smi name resolves to.
func identify(l msg.Lang, cat *catalog.Catalog, name string) string {
	c, err := cat.Lookup(name)
	switch {
	case err == nil:
		return "= " + c.ID
	case errors.Is(err, catalog.ErrAmbiguous):
		return l.T("verify.ambiguous")
	default:
		return l.T("verify.unknown")
	}
}

// writeLinks prints the GPU matrix and counts the pairs by kind of link.
func writeLinks(w io.Writer, t catalog.Topology, l msg.Lang) {
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
	fmt.Fprintf(w, "  %s\n", l.F("verify.pairs", n*(n-1)/2, nvlink, pcie))
}
