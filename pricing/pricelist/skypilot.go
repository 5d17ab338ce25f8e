package pricelist

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/shopspring/decimal"
)

// SkyPilotProvider is the Provider of the offers ReadSkyPilot reads: a catalog
// file does not name its cloud; a caller that knows it (from the file's path, as
// the examples do) sets it.
const SkyPilotProvider = "skypilot"

// ReadSkyPilot reads a SkyPilot catalog vms.csv (github.com/skypilot-org/
// skypilot-catalog, catalogs/v<N>/<cloud>/vms.csv): a header row naming the
// columns, in any order, then one instance type in one region or zone a row.
// It reads InstanceType, AcceleratorName, AcceleratorCount, Price, SpotPrice,
// Region, AvailabilityZone (older catalogs and some clouds), GpuInfo and
// MemoryGiB, and ignores the others (vCPUs, Arch, ...). Each row with GPUs becomes
// an offer of one whole instance (GPUsPerInstance is the row's AcceleratorCount,
// MaxGPUs zero: any number of instances), priced in USD per instance-hour billed
// per second, Provider SkyPilotProvider, the instance type and zone in Notes, its
// HostMemory the instance's MemoryGiB over its GPUs (zero when the row gives none),
// and Line its row.
//
// The card is named with its memory from GpuInfo, a Python dict as text
// ("{'Gpus': [{'Name': 'A100', ..., 'MemoryInfo': {'SizeInMiB': 40960}}], ...}"),
// so that "A100" with 40960 MiB becomes "A100 40GB", the 40 GB card; a name that
// states its memory already ("A100-80GB") is kept. The size in GB is the MiB count
// over 1024 when that is whole or nearest a whole number, else the MiB count in
// decimal gigabytes (AWS writes the L4's 24 GB as 22888 MiB, 24e9 bytes); a
// figure under 1024 is GB already (RunPod's catalog writes 80 for 80 GB). A
// GpuInfo that is not a dict (GCP writes the accelerator's name) says no memory.
//
// A SpotPrice below Price adds a second, interruptible offer of the same instance
// at that price (one no lower is left out: it buys nothing). An offer repeated in
// consecutive rows, the zones of one instance type in one region at one price
// (AWS lists each zone; the catalogs are sorted so), is kept once, at its first
// line; spot offers, priced per zone, are kept per zone and price.
//
// Rows without GPUs (no AcceleratorName or a count of zero with no name) are not
// offers and are left out, as are rows with a fraction of a GPU (Azure's shared
// GPUs). A row with a GPU and a missing, malformed or negative price, a count of
// zero or a malformed GpuInfo is an error naming its line, a *ParseError wrapping
// pricing.ErrInvalid. GCP's catalog lists each attachable GPU as a row of its own without
// an instance type, priced for the GPU alone: such offers leave out the host VM's
// price, and their Notes say so. The size bound and encoding checks of ReadCSV
// apply. ReadList says how many rows were left out, and why.
func ReadSkyPilot(r io.Reader) ([]pricing.Offer, error) {
	offers, _, err := readSkyPilot(r)
	return offers, err
}

// Skip counts the rows of a price list that were read and left out for one
// reason.
type Skip struct {
	Reason    string `json:"reason"`     // "no GPUs", ...
	Rows      int    `json:"rows"`       // rows left out for it
	FirstLine int    `json:"first_line"` // the first such row's line
}

// skyColumns are the columns ReadSkyPilot reads; the first four are required.
var skyColumns = [...]string{"AcceleratorName", "AcceleratorCount", "Price", "Region", "InstanceType", "SpotPrice", "AvailabilityZone", "GpuInfo", "MemoryGiB"}

const (
	skyAccName = iota
	skyAccCount
	skyPrice
	skyRegion
	skyInstance
	skySpot
	skyZone
	skyGpuInfo
	skyMemory
)

func readSkyPilot(r io.Reader) ([]pricing.Offer, []Skip, error) {
	cr, err := openCSV(r, "catalog")
	if err != nil {
		return nil, nil, err
	}
	header, hline := cr.header, cr.hline
	// At most a row a line, and a row makes at most two offers (one with a spot
	// price): room for that many, so that the offers are never moved as they
	// grow.
	sr := skyReader{skipped: []Skip{}, out: make([]pricing.Offer, 0, 2*(cr.lines-1))}
	for i := range sr.col {
		sr.col[i] = -1
	}
	for i, h := range header {
		for c, name := range skyColumns {
			if strings.EqualFold(strings.TrimSpace(h), name) {
				if sr.col[c] >= 0 {
					return nil, nil, &ParseError{Line: hline, Field: name, Err: invalidf("column repeated")}
				}
				sr.col[c] = i
			}
		}
	}
	for c := skyAccName; c <= skyRegion; c++ {
		if sr.col[c] < 0 {
			return nil, nil, &ParseError{Line: hline, Field: skyColumns[c], Err: invalidf("column missing from the header of a SkyPilot catalog")}
		}
	}
	if err := eachRow(cr, sr.row); err != nil {
		return nil, nil, err
	}
	if len(sr.out) < cap(sr.out)/2 {
		// Most rows made no offer (a catalog of CPU instances and GPU ones):
		// the offers are kept in a list of their own size.
		return slices.Clone(sr.out), sr.skipped, nil
	}
	return slices.Clip(sr.out), sr.skipped, nil
}

// skyReader turns catalog rows into offers. The rows of one instance type in one
// region (its zones) come one after another, and the rows of one instance type
// (its regions) repeat its GPU cells: the reader reads the GPU cells once for
// each run of rows that repeat them, and keeps the prices offered in a group of
// rows, to keep a repeated offer once.
type skyReader struct {
	col     [len(skyColumns)]int
	group   skyGroup     // the cells of the last row with a GPU name
	gpus    int          // read from group.gpu: GPUs an instance; zero for a fraction of one
	card    string       // the card named with its memory
	ram     int64        // host RAM a GPU
	prices  []skyOffered // the prices offered in group
	out     []pricing.Offer
	skipped []Skip
}

// skyGroup is the cells that make a group of rows: an instance type's GPU in a
// region.
type skyGroup struct {
	instance, region string
	gpu              skyGPU
}

// skyGPU is the cells that describe an instance's GPUs.
type skyGPU struct{ name, count, info, memory string }

// skyOffered is a price offered in a group, as the catalog writes it, whether it
// is a spot price, and its value.
type skyOffered struct {
	text  string
	spot  bool
	value decimal.Decimal
}

func (sr *skyReader) get(rec []string, c int) string { return cell(rec, sr.col[c]) }

func (sr *skyReader) fail(rec []string, line, c int, err error) error {
	return parseErr(line, skyColumns[c], sr.get(rec, c), err, nil)
}

// skip counts a row left out for reason.
func (sr *skyReader) skip(reason string, line int) {
	for i := range sr.skipped {
		if sr.skipped[i].Reason == reason {
			sr.skipped[i].Rows++
			return
		}
	}
	sr.skipped = append(sr.skipped, Skip{Reason: reason, Rows: 1, FirstLine: line})
}

// row reads one row: no offer (skipped), one, or two (with a spot price).
func (sr *skyReader) row(rec []string, line int) error {
	g := skyGroup{sr.get(rec, skyInstance), sr.get(rec, skyRegion), skyGPU{sr.get(rec, skyAccName), sr.get(rec, skyAccCount),
		sr.get(rec, skyGpuInfo), sr.get(rec, skyMemory)}}
	if g.gpu.name == "" {
		if g.gpu.count != "" {
			if n, err := strconv.ParseFloat(g.gpu.count, 64); err != nil || n != 0 {
				return sr.fail(rec, line, skyAccCount, invalidf("a GPU count without a GPU name"))
			}
		}
		sr.skip("no GPUs", line)
		return nil
	}
	if g != sr.group {
		if g.gpu != sr.group.gpu {
			if err := sr.readGPU(rec, line, g.gpu); err != nil {
				return err
			}
		}
		sr.group, sr.prices = g, sr.prices[:0]
	}
	if sr.gpus == 0 {
		sr.skip("a fraction of a GPU", line)
		return nil
	}
	var price decimal.Decimal
	var priceText string
	for _, spotOffer := range [...]bool{false, true} {
		c, repeat := skyPrice, "the same on-demand offer in another zone of its region"
		if spotOffer {
			c, repeat = skySpot, "the same spot offer in another zone of its region"
		}
		text := sr.get(rec, c)
		i := slices.IndexFunc(sr.prices, func(p skyOffered) bool { return p.text == text && p.spot == spotOffer })
		if i >= 0 {
			sr.skip(repeat, line)
			price, priceText = sr.prices[i].value, text
			continue
		}
		hourly, err := parseSkyPrice(text, !spotOffer)
		if err != nil {
			return sr.fail(rec, line, c, err)
		}
		if !spotOffer {
			price, priceText = hourly, text
		} else if hourly.IsZero() || !below(text, priceText, hourly, price) {
			break // no spot price, or none below the on-demand one: it buys nothing
		}
		if len(sr.prices) < 64 {
			sr.prices = append(sr.prices, skyOffered{text, spotOffer, hourly}) // holds at most 64 rows' text
		}
		t := pricing.Tariff{Currency: "USD", Hourly: hourly}
		if err := t.Validate(); err != nil {
			return sr.fail(rec, line, c, err)
		}
		sr.out = append(sr.out, pricing.Offer{
			Provider: SkyPilotProvider, Region: g.region, Card: sr.card,
			GPUsPerInstance: sr.gpus, HostMemory: sr.ram, Line: line, Notes: skyNote(g.instance, sr.get(rec, skyZone), spotOffer),
			Tariff: t, Interruptible: spotOffer,
		})
	}
	return nil
}

// readGPU reads the GPU cells g of a row that starts a run of rows with them:
// its GPUs (zero for a fraction of one), its card named with its memory, its
// host RAM.
func (sr *skyReader) readGPU(rec []string, line int, g skyGPU) error {
	gpus, frac, err := gpuCount(g.count)
	if err != nil {
		return sr.fail(rec, line, skyAccCount, err)
	}
	if frac {
		gpus = 0
	}
	ram, err := hostMemory(g.memory, max(gpus, 1))
	if err != nil {
		return sr.fail(rec, line, skyMemory, err)
	}
	mem, err := gpuInfoMemory(g.info)
	if err != nil {
		return sr.fail(rec, line, skyGpuInfo, err)
	}
	card := g.name
	if mem > 0 && !statesMemory(g.name) {
		card = g.name + " " + strconv.FormatInt(mem, 10) + "GB"
	}
	if pricing.CardKey(card) == "" {
		return sr.fail(rec, line, skyAccName, invalidf("a GPU name without letters or digits"))
	}
	sr.gpus, sr.card, sr.ram = gpus, card, ram
	return nil
}

// below reports whether price a, read from text as, is below price b, read
// from bs, both valid (parseSkyPrice). Rounding to float64 is monotone, so
// floats that differ are in the decimals' order; only equal ones are compared
// as decimals, which rescaling one of them to the other's places allocates
// for.
func below(as, bs string, a, b decimal.Decimal) bool {
	x, errA := strconv.ParseFloat(as, 64)
	y, errB := strconv.ParseFloat(bs, 64)
	if errA == nil && errB == nil && x != y {
		return x < y
	}
	return a.LessThan(b)
}

// skyNote is the Notes of an offer of instance in zone: its instance, zone and
// kind.
func skyNote(instance, zone string, spot bool) string {
	var zoneSep, kind string
	if zone != "" {
		zoneSep = ", zone "
	}
	if spot {
		kind = ", spot"
	}
	if instance == "" {
		return "GPU alone: the host VM is priced apart" + zoneSep + zone + kind
	}
	return "instance " + instance + zoneSep + zone + kind
}

// gpuCount reads AcceleratorCount ("8", "8.0"): a whole count of at least one,
// or frac true for a fraction of a GPU (0.25).
func gpuCount(s string) (n int, frac bool, err error) {
	v, perr := strconv.ParseFloat(s, 64)
	switch {
	case s == "" || perr != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, false, invalidf("not a GPU count")
	case v <= 0:
		return 0, false, invalidf("a GPU name with %s GPUs: want 1 or more", s)
	case v > 1_000_000:
		return 0, false, invalidf("GPU count over 1000000")
	case v != math.Trunc(v):
		return 0, true, nil
	}
	return int(v), false, nil
}

// parseSkyPrice reads a catalog price in USD: a plain decimal ("32.7726", "0.256800").
// Empty is an error when need is set, and no price otherwise.
func parseSkyPrice(s string, need bool) (decimal.Decimal, error) {
	if s == "" {
		if need {
			return decimal.Decimal{}, invalidf("no price for a row with GPUs")
		}
		return decimal.Decimal{}, nil
	}
	d, err := pricing.ParseDecimal(s)
	if err != nil {
		return decimal.Decimal{}, invalidf("not a plain decimal such as 12.50")
	}
	if need && d.IsZero() {
		return decimal.Decimal{}, invalidf("a price of zero for a row with GPUs")
	}
	return d, nil
}

// gpuInfoMemory reads the memory of one GPU from a GpuInfo cell, in GB (see
// ReadSkyPilot); 0 when the cell gives none (empty, or not a dict). A dict
// must have balanced brackets and quotes and give MemoryInfo's SizeInMiB as a
// positive number.
func gpuInfoMemory(s string) (int64, error) {
	if !strings.HasPrefix(s, "{") {
		return 0, nil
	}
	// Balance of brackets outside quotes.
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth < 0 {
				return 0, invalidf("GpuInfo: unbalanced brackets")
			}
		}
	}
	if depth != 0 || quote != 0 {
		return 0, invalidf("GpuInfo: unbalanced brackets or quotes")
	}
	i := strings.Index(s, "SizeInMiB")
	if i < 0 {
		return 0, invalidf("GpuInfo without MemoryInfo's SizeInMiB")
	}
	rest := strings.TrimLeft(s[i+len("SizeInMiB"):], "'\" ")
	rest, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return 0, invalidf("GpuInfo: SizeInMiB without a value")
	}
	rest = strings.TrimLeft(rest, " ")
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
		j++
	}
	mib, err := strconv.ParseFloat(rest[:j], 64)
	if err != nil || mib <= 0 || mib > 1<<30 {
		return 0, invalidf("GpuInfo: SizeInMiB %s: want a positive size", strconv.Quote(rest[:j]))
	}
	return memoryGB(mib), nil
}

// memoryGB names a GPU memory of mib MiB in whole GB as cards are marketed: mib
// over 1024 when that is nearer a whole number than mib in decimal gigabytes
// (mib × 2^20 / 10^9) is, else the latter; a figure under 1024 is taken as GB
// (RunPod's catalog). 40960 → 40, 81920 → 80, 22888 → 24, 81559 → 80.
func memoryGB(mib float64) int64 {
	if mib < 1024 {
		return int64(math.Round(mib))
	}
	gib := mib / 1024
	gb := mib * (1 << 20) / 1e9
	if math.Abs(gib-math.Round(gib)) <= math.Abs(gb-math.Round(gb)) {
		return int64(math.Round(gib))
	}
	return int64(math.Round(gb))
}
