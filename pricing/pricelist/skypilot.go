package pricelist

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

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

// skips gathers Skip counts in the order reasons first appear.
type skips []Skip

func (s *skips) add(reason string, line int) {
	for i := range *s {
		if (*s)[i].Reason == reason {
			(*s)[i].Rows++
			return
		}
	}
	*s = append(*s, Skip{Reason: reason, Rows: 1, FirstLine: line})
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
	size := knownSize(r)
	cr, header, hline, err := openCSV(r, "catalog")
	if err != nil {
		return nil, nil, err
	}
	var col [len(skyColumns)]int
	for i := range col {
		col[i] = -1
	}
	for i, h := range header {
		for c, name := range skyColumns {
			if strings.EqualFold(strings.TrimSpace(h), name) {
				if col[c] >= 0 {
					return nil, nil, &ParseError{Line: hline, Field: name, Err: invalidf("column repeated")}
				}
				col[c] = i
			}
		}
	}
	for c := skyAccName; c <= skyRegion; c++ {
		if col[c] < 0 {
			return nil, nil, &ParseError{Line: hline, Field: skyColumns[c], Err: invalidf("column missing from the header of a SkyPilot catalog")}
		}
	}
	sr := skyReader{col: col, in: interner{}, cards: map[string]skyCard{}, mem: map[string]int64{},
		price: map[string]decimal.Decimal{}, notes: map[skyNoteKey]string{}, skipped: skips{}}
	err = eachRow(cr, func(rec []string, line int) error {
		if err := sr.row(rec, line); err != nil {
			return err
		}
		if n := sr.out.n; size > 0 && n >= 256 && sr.out.full() {
			// Room for the offers of the whole catalog, at the offers per
			// byte read so far and a quarter more, so that they are written
			// once; at most twice the catalog's size in offers (AWS's GPU
			// rows make 1.3 times), past which chunks take the rest.
			est := int64(n)*size/max(cr.InputOffset(), 1) + int64(n/4+64)
			sr.out.reserve(int(min(est, 2*size/int64(unsafe.Sizeof(pricing.Offer{})))))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return sr.out.all(), sr.skipped, nil
}

// skyReader turns catalog rows into offers, remembering what repeats from row to
// row: strings, GpuInfo cells, card names and the offers already made.
type skyReader struct {
	col     [len(skyColumns)]int
	in      interner
	group   skyGroup     // the instance, card and region of the last row with GPUs
	prices  []skyOffered // the prices offered in group
	info    string       // the last GpuInfo cell read, and its memory
	infoMem int64
	cards   map[string]skyCard         // the card name made of each GPU name, by GPU name
	mem     map[string]int64           // GpuInfo cells read, by text
	price   map[string]decimal.Decimal // prices read, by text (catalogs repeat them from region to region)
	notes   map[skyNoteKey]string      // offer notes made, by instance, zone and kind
	out     offerChunks
	skipped skips
}

func (sr *skyReader) get(rec []string, c int) string { return cell(rec, sr.col[c]) }

func (sr *skyReader) fail(rec []string, line, c int, err error) error {
	return parseErr(line, skyColumns[c], sr.get(rec, c), err, nil)
}

// skyCard is the card name made of a GPU name and memory, and whether it names
// a card at all (CardKey is not empty).
type skyCard struct {
	mem   int64
	card  string
	valid bool
}

// row reads one row: no offer (skipped), one, or two (with a spot price).
func (sr *skyReader) row(rec []string, line int) error {
	name, countText := sr.get(rec, skyAccName), sr.get(rec, skyAccCount)
	if name == "" {
		if countText != "" {
			if n, err := strconv.ParseFloat(countText, 64); err != nil || n != 0 {
				return sr.fail(rec, line, skyAccCount, invalidf("a GPU count without a GPU name"))
			}
		}
		sr.skipped.add("no GPUs", line)
		return nil
	}
	count, frac, err := gpuCount(countText)
	if err != nil {
		return sr.fail(rec, line, skyAccCount, err)
	}
	if frac {
		sr.skipped.add("a fraction of a GPU", line)
		return nil
	}
	ram, err := hostMemory(sr.get(rec, skyMemory), count)
	if err != nil {
		return sr.fail(rec, line, skyMemory, err)
	}
	priceText, spotText := sr.get(rec, skyPrice), sr.get(rec, skySpot)
	price, err := sr.parsePrice(priceText, true)
	if err != nil {
		return sr.fail(rec, line, skyPrice, err)
	}
	spot, err := sr.parsePrice(spotText, false)
	if err != nil {
		return sr.fail(rec, line, skySpot, err)
	}
	info := sr.get(rec, skyGpuInfo)
	mem, ok := sr.infoMem, info == sr.info && info != ""
	if !ok {
		mem, ok = sr.mem[info]
	}
	if !ok {
		if mem, err = gpuInfoMemory(info); err != nil {
			return sr.fail(rec, line, skyGpuInfo, err)
		}
		if len(info) <= 1024 && len(sr.mem) < 4096 {
			info = strings.Clone(info)
			sr.mem[info] = mem
		}
	}
	if len(info) <= 1024 {
		sr.info, sr.infoMem = info, mem // a cell of the row's record, or a key of mem
	}
	named, ok := sr.cards[name]
	if !ok || named.mem != mem {
		named = skyCard{mem: mem, card: name}
		if mem > 0 && !statesMemory(name) {
			named.card = name + " " + strconv.FormatInt(mem, 10) + "GB"
		}
		named.valid = pricing.CardKey(named.card) != ""
		if len(sr.cards) < 4096 {
			sr.cards[strings.Clone(name)] = named
		}
	}
	card := named.card
	if !named.valid {
		return sr.fail(rec, line, skyAccName, invalidf("a GPU name without letters or digits"))
	}
	// Repeats: the zones of an instance in a region come in consecutive rows;
	// the prices offered since the instance, GPU or region last changed are kept.
	instance, region, zone := sr.get(rec, skyInstance), sr.get(rec, skyRegion), sr.get(rec, skyZone)
	if g := (skyGroup{instance, card, region}); g == sr.group {
		instance, region = sr.group.instance, sr.group.region // interned already
	} else {
		instance, region = sr.in.get(instance), sr.in.get(region)
		sr.group, sr.prices = skyGroup{instance, card, region}, sr.prices[:0]
	}
	for _, spotOffer := range [...]bool{false, true} {
		p := skyOffered{priceText, false}
		hourly := price
		if spotOffer {
			if spot.IsZero() || spot.Cmp(price) >= 0 {
				break
			}
			p, hourly = skyOffered{spotText, true}, spot
		}
		if slices.Contains(sr.prices, p) {
			if spotOffer {
				sr.skipped.add("the same spot offer in another zone of its region", line)
			} else {
				sr.skipped.add("the same on-demand offer in another zone of its region", line)
			}
			continue
		}
		if len(sr.prices) < 64 {
			sr.prices = append(sr.prices, p) // holds at most 64 rows' text
		}
		o := pricing.Offer{
			Provider: SkyPilotProvider, Region: region, Card: card,
			GPUsPerInstance: count, HostMemory: ram, Line: line, Notes: sr.note(instance, zone, spotOffer),
			Tariff:        pricing.Tariff{Currency: "USD", Hourly: hourly},
			Interruptible: spotOffer,
		}
		if err := o.Validate(); err != nil {
			c := skyPrice
			if spotOffer {
				c = skySpot
			}
			return sr.fail(rec, line, c, err)
		}
		sr.out.add(o)
	}
	return nil
}

// skyGroup is an instance type's GPU in a region: the rows of its zones.
type skyGroup struct{ instance, card, region string }

// skyOffered is a price offered in a group, as the catalog writes it, and whether
// it is a spot price.
type skyOffered struct {
	text string
	spot bool
}

// skyNoteKey is what an offer's Notes say: its instance, zone and kind.
type skyNoteKey struct {
	instance, zone string
	spot           bool
}

// note returns the Notes of an offer of instance in zone, once per distinct
// note while there are at most 4096.
func (sr *skyReader) note(instance, zone string, spot bool) string {
	k := skyNoteKey{instance, zone, spot}
	if n, ok := sr.notes[k]; ok {
		return n
	}
	n := "GPU alone: the host VM is priced apart"
	if instance != "" {
		n = "instance " + instance
	}
	if zone != "" {
		n += ", zone " + zone
	}
	if spot {
		n += ", spot"
	}
	if len(sr.notes) < 4096 && len(zone) <= 128 {
		k.zone = strings.Clone(zone)
		sr.notes[k] = n
	}
	return n
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

// parsePrice is parseSkyPrice, once per distinct text.
func (sr *skyReader) parsePrice(s string, need bool) (decimal.Decimal, error) {
	if d, ok := sr.price[s]; ok && (!need || !d.IsZero()) {
		return d, nil
	}
	d, err := parseSkyPrice(s, need)
	if err == nil && s != "" && len(s) <= 64 && len(sr.price) < 4096 {
		sr.price[strings.Clone(s)] = d
	}
	return d, err
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
