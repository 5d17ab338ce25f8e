package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/sizing"
)

// Rate is a dense peak rate that a card may lack. The zero value is unsupported,
// which is distinct from a supported rate of zero (no card has one; New rejects
// it). Unsupported means the catalog has no rate to plan with: the card has no such
// unit or mode, or the rate is unknown: NVIDIA publishes no tensor-core rates for
// the A10G, Huawei no FP32 rate for the Ascend 910B (the card's Unconfirmed fields
// and sources say which).
type Rate struct {
	Value     compute.FLOPRate // operations per second, dense (never "with sparsity")
	Supported bool             // false: no such unit or mode, or no published rate
}

// RateOf returns a supported rate of r.
func RateOf(r compute.FLOPRate) Rate { return Rate{Value: r, Supported: true} }

// Peaks holds a card's dense peak per precision. FP64 and FP32 are the vector
// (CUDA core) rates; FP64Tensor is the FP64 matrix rate where the card has
// FP64 tensor cores (A100, H100, MI300X); TF32, FP16, BF16, FP8 and INT8 are
// tensor-core rates (INT8 in operations per second). GeForce cards' FP16 and BF16
// rates are those with FP32 accumulation, as training frameworks use them; NVIDIA's
// doubled FP16-accumulate figure is not stored. The P100, without tensor cores, has as
// FP16 its packed half-precision vector rate (twice FP32) and no other 16-bit rate.
// On Huawei's Ascend NPUs FP16 and BF16 are the cube (matrix) unit's rates; Huawei
// publishes no FP32 rate for them, so FP32 is unsupported there, and a job that
// asks for FP32 compute on such a card gets an error rather than a time. FP4 is
// the dense tensor rate of the 4-bit floating-point formats the card computes
// natively (Blackwell's NVFP4 and MXFP4, the MI355X's MXFP4), unsupported on
// cards without FP4 arithmetic.
type Peaks struct {
	FP64, FP64Tensor, FP32, TF32, FP16, BF16, FP8, INT8, FP4 Rate
}

// LinkKind names how a card joins its peers directly, beside PCIe.
type LinkKind string

// Link kinds. NVLink is the SXM/HGX baseboard (every GPU of the board joined);
// NVLinkBridge is a PCIe card's bridge, which joins pairs only; InfinityFabric is
// AMD's OAM baseboard link, on the CDNA 3 cards (MI300X) a full mesh of one link
// from each GPU to each other one; HCCS is Huawei's link between the eight Ascend
// NPUs of an Atlas 800T A2 server, a full mesh of the same shape, with no switch
// (Card.PeerLink says how a mesh is modelled).
const (
	LinkNone           LinkKind = "none"
	LinkNVLink         LinkKind = "nvlink"
	LinkNVLinkBridge   LinkKind = "nvlink-bridge"
	LinkInfinityFabric LinkKind = "infinity-fabric"
	LinkHCCS           LinkKind = "hccs"
)

// String names the link in words ("NVLink", "NVLink bridge", "Infinity Fabric",
// "HCCS"); any other kind as written.
func (k LinkKind) String() string {
	switch k {
	case LinkNVLink:
		return "NVLink"
	case LinkNVLinkBridge:
		return "NVLink bridge"
	case LinkInfinityFabric:
		return "Infinity Fabric"
	case LinkHCCS:
		return "HCCS"
	}
	return string(k)
}

func (k LinkKind) valid() bool {
	switch k {
	case LinkNone, LinkNVLink, LinkNVLinkBridge, LinkInfinityFabric, LinkHCCS:
		return true
	}
	return false
}

// Market says where a card is sold. The China variants cut to meet US export
// rules (A800, H800, H20, L20, RTX 4090 D) are cards of their own; Huawei's Ascend
// NPUs, sold and rented in China, are in the China market too.
type Market string

// Markets.
const (
	MarketGlobal Market = "global"
	MarketChina  Market = "china"
)

func (m Market) valid() bool { return m == MarketGlobal || m == MarketChina }

// Card describes one GPU variant from its datasheet. Figures are dense peaks, never
// the "with sparsity" ones. Use Peak for the rate at a precision and FP64 for the
// best double-precision rate.
//
// Memory is exact, as nvidia-smi reports memory.total (an "80GB" A100 is 81920 MiB,
// an "80GB" H100 81559 MiB); MemoryReported says whether that figure was seen in
// published nvidia-smi output or inferred from a sibling card (MemoryNote says
// which). Unconfirmed lists the JSON fields of this card ("peaks_tflops.fp32",
// "tdp_watts") whose figures rest on secondary sources only.
type Card struct {
	ID           string   // canonical ID with the variant: "a100-sxm4-80gb"
	Name         string   // display name: "A100 SXM4 80GB"
	Aliases      []string // other names that resolve to this card alone (nvidia-smi names, SkyPilot names)
	Families     []string // family names shared with sibling cards ("A100"); Lookup reports them as ambiguous
	Vendor       string   // "nvidia", "amd", "huawei"
	Architecture string   // "Ampere"
	Year         int      // year of release
	Form         string   // "SXM4", "PCIe", "OAM"

	Memory         sizing.Bytes // exact, as nvidia-smi reports it
	MemoryReported bool         // true: seen in nvidia-smi output; false: inferred
	MemoryNote     string       // where the memory figure comes from
	MemoryNominal  sizing.Bytes // the marketed size ("80GB"), in decimal GB
	MemoryType     string       // "HBM2e", "GDDR6X"

	MemoryBandwidth compute.Bandwidth  // peak memory bandwidth
	Peaks           Peaks              // dense peaks per precision
	FP4Formats      []sizing.Precision // the FP4 formats Peaks.FP4 computes: sizing.NVFP4, sizing.MXFP4; none without FP4
	SparsePublished bool               // the vendor prints sparse tensor figures; Peaks holds them halved
	FP32Accumulate  bool               // FP16/BF16 peaks are the FP32-accumulate rates (GeForce)

	Link         LinkKind          // direct GPU-to-GPU link
	NVLink       compute.Bandwidth // of Link (NVLink or another kind): total per GPU, both directions; zero: none; a bridge joins pairs only
	NVLinkDomain int               // GPUs one board-wide link joins (72 in a GB200 NVL72 rack); zero: 8, one server. See LinkDomain
	PCIeGen      int               // PCI Express generation of the host link
	TDP          int               // board power, watts

	Market      Market   // global or china
	Uses        []string // uses the seed articles recommend the card for
	Confidence  string   // "primary", "mixed" or "secondary", as the reference table grades it
	Sources     []string // source keys; see Sources
	Unconfirmed []string // JSON fields resting on secondary sources only

	// ReportsAs is the ID of another card whose name nvidia-smi prints for this
	// one, where the two differ only in what the name does not say: the 48 GB
	// RTX 4090 reports as "NVIDIA GeForce RTX 4090", the 24 GB card's name. Verify
	// tells them apart by memory. Empty for most cards.
	ReportsAs string
	// Caveat is a warning to pass on with any plan on this card, where its figures
	// deserve less trust than a datasheet's (a modified board sold without one).
	// Empty for most cards.
	Caveat string
}

// LinkDomain returns the most GPUs the card's direct link joins: for a link
// across a board or rack (NVLink, Infinity Fabric, HCCS), NVLinkDomain, or 8 (one
// server) where it is zero; 2 for an NVLink bridge, which joins pairs; 1 for a
// card with no direct link.
func (c Card) LinkDomain() int {
	switch {
	case c.Link == LinkNone:
		return 1
	case c.Link == LinkNVLinkBridge:
		return 2
	case c.NVLinkDomain > 0:
		return c.NVLinkDomain
	}
	return 8
}

// Peak returns the card's dense peak for computing at precision p, and false when
// the card cannot compute at it. FP64 gives the vector rate (FP64 method: the
// tensor rate where there is one); FP32 the vector rate; TF32, FP16, BF16, FP8 and
// INT8 the tensor-core rates. MXFP4 and NVFP4 get the FP4 rate on a card that
// computes that format natively (FP4Formats: both on Blackwell, MXFP4 on the
// MI355X); elsewhere FP4 weights are dequantized to 16 bits, as the Marlin and
// Triton MXFP4 kernels do on Hopper and older cards, and get the FP16 rate.
// Weight-only quantized formats (NF4, GPTQ4, AWQ4 and the GGUF types) are
// dequantized to 16 bits before the matrix multiply too, as bitsandbytes, the
// GPTQ/AWQ kernels and llama.cpp's CUDA back end do, so they get the FP16 rate.
// INT4 arithmetic is not recorded and reports unsupported, as do custom and
// unknown precisions.
func (c Card) Peak(p sizing.Precision) (compute.FLOPRate, bool) {
	var r Rate
	switch p {
	case sizing.FP64:
		r = c.Peaks.FP64
	case sizing.FP32:
		r = c.Peaks.FP32
	case sizing.TF32:
		r = c.Peaks.TF32
	case sizing.FP16:
		r = c.Peaks.FP16
	case sizing.BF16:
		r = c.Peaks.BF16
	case sizing.FP8:
		r = c.Peaks.FP8
	case sizing.INT8:
		r = c.Peaks.INT8
	case sizing.MXFP4, sizing.NVFP4:
		r = c.Peaks.FP16
		if slices.Contains(c.FP4Formats, p) {
			r = c.Peaks.FP4
		}
	case sizing.NF4, sizing.GPTQ4, sizing.AWQ4,
		sizing.Q2_K, sizing.Q3_K_M, sizing.Q4_0, sizing.Q4_K_S, sizing.Q4_K_M,
		sizing.Q5_K_M, sizing.Q6_K, sizing.Q8_0:
		r = c.Peaks.FP16
	}
	if !r.Supported {
		return 0, false
	}
	return r.Value, true
}

// FP64 returns the card's best double-precision dense peak: the FP64 tensor-core
// rate where the card has one (A100 19.5 TFLOPS, H100 SXM 67), otherwise the
// vector rate. Dense FP64 matrix work (DGEMM through cuBLAS) reaches the tensor
// rate; other FP64 code gets Peak(sizing.FP64). Consumer cards run FP64 at 1/64
// of FP32, so a double-precision job should check this before choosing a card.
func (c Card) FP64() (compute.FLOPRate, bool) {
	t, v := c.Peaks.FP64Tensor, c.Peaks.FP64
	switch {
	case t.Supported && (!v.Supported || t.Value >= v.Value):
		return t.Value, true
	case v.Supported:
		return v.Value, true
	}
	return 0, false
}

// clone returns c with its slices copied into one fresh backing array, so that
// the caller may change them without touching the catalog's copy.
func (c Card) clone() Card {
	n := len(c.Aliases) + len(c.Families) + len(c.Uses) + len(c.Sources) + len(c.Unconfirmed)
	c.FP4Formats = slices.Clone(c.FP4Formats)
	if n == 0 {
		c.Aliases, c.Families, c.Uses, c.Sources, c.Unconfirmed = nil, nil, nil, nil, nil
		return c
	}
	buf := make([]string, 0, n)
	take := func(s []string) []string {
		if s == nil {
			return nil
		}
		start := len(buf)
		buf = append(buf, s...)
		return buf[start:len(buf):len(buf)]
	}
	c.Aliases = take(c.Aliases)
	c.Families = take(c.Families)
	c.Uses = take(c.Uses)
	c.Sources = take(c.Sources)
	c.Unconfirmed = take(c.Unconfirmed)
	return c
}

// Limits beyond which a figure is taken as a unit mistake rather than a card.
const (
	maxMemory    = 16 * sizing.TiB
	maxBandwidth = 1000 * compute.TBps
	maxRate      = 1000 * compute.PFLOPS
	maxTDP       = 100_000
	maxDomain    = 100_000 // GPUs in one link domain
	// maxNames bounds a card's aliases and its family names, each: real cards
	// have a dozen at most. With it, the work of New per card is bounded.
	maxNames = 256
)

// knownField reports whether Unconfirmed may name f: one of the card's JSON fields
// that carries a figure.
func knownField(f string) bool {
	switch f {
	case "year", "form", "memory_mib", "memory_type", "memory_bandwidth_gb_per_s",
		"peaks_tflops.fp64", "peaks_tflops.fp64_tensor", "peaks_tflops.fp32", "peaks_tflops.tf32",
		"peaks_tflops.fp16", "peaks_tflops.bf16", "peaks_tflops.fp8", "peaks_tflops.int8", "peaks_tflops.fp4",
		"fp4_formats", "link", "nvlink_gb_per_s", "nvlink_domain", "pcie_gen", "tdp_watts":
		return true
	}
	return false
}

// Validate reports the problems with the card's own fields, joined, each wrapping
// ErrInvalid (the first 20, and how many more). A card has at most 256 aliases and
// 256 family names. It does not check names against other cards; New does.
func (c Card) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("catalog: card %s: "+format+": %w", append(append([]any{quote(c.ID)}, args...), ErrInvalid)...))
	}
	if c.ID == "" || strings.TrimFunc(c.ID, func(r rune) bool {
		return (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-'
	}) != "" || c.ID[0] == '-' || c.ID[len(c.ID)-1] == '-' {
		bad("id must be lowercase letters, digits and inner dashes")
	}
	if strings.TrimSpace(c.Name) == "" {
		bad("empty name")
	}
	if len(c.Aliases) > maxNames || len(c.Families) > maxNames {
		bad("%d aliases and %d family names: at most %d of each", len(c.Aliases), len(c.Families), maxNames)
	}
	for _, n := range append(append([]string{c.Name}, c.Aliases...), c.Families...) {
		if normalize(n) == "" {
			bad("name %s has no letters or digits besides vendor words", quote(n))
		}
	}
	if strings.TrimSpace(c.Vendor) == "" {
		bad("empty vendor")
	}
	if c.Year < 1990 || c.Year > 2100 {
		bad("year %d out of range", c.Year)
	}
	if c.Memory <= 0 || c.Memory > maxMemory {
		bad("memory %d bytes out of range (0, 16 TiB]", int64(c.Memory))
	}
	if c.MemoryNominal < 0 || c.MemoryNominal > maxMemory {
		bad("nominal memory %d bytes out of range", int64(c.MemoryNominal))
	}
	if !finite(float64(c.MemoryBandwidth)) || c.MemoryBandwidth <= 0 || c.MemoryBandwidth > maxBandwidth {
		bad("memory bandwidth %v B/s must be positive and finite", float64(c.MemoryBandwidth))
	}
	p := c.Peaks
	for _, r := range []struct {
		name string
		r    Rate
	}{{"fp64", p.FP64}, {"fp64_tensor", p.FP64Tensor}, {"fp32", p.FP32}, {"tf32", p.TF32},
		{"fp16", p.FP16}, {"bf16", p.BF16}, {"fp8", p.FP8}, {"int8", p.INT8}, {"fp4", p.FP4}} {
		if r.r.Supported && (!finite(float64(r.r.Value)) || r.r.Value <= 0 || r.r.Value > maxRate) {
			bad("peak %s %v FLOP/s must be positive and finite", r.name, float64(r.r.Value))
		}
		if !r.r.Supported && r.r.Value != 0 {
			bad("peak %s has a value but is marked unsupported", r.name)
		}
	}
	// FP32 may be absent where the vendor publishes none (the Ascend 910B), but a
	// card needs a rate to time 16- or 32-bit work at.
	if !p.FP32.Supported && !p.FP16.Supported && !p.BF16.Supported {
		bad("no FP32, FP16 or BF16 peak")
	}
	// Tensor cores run 16-bit matrices at least as fast as the vector units run FP32
	// on every card in the datasheets; a lower figure means the columns were mixed up.
	if p.FP32.Supported && p.FP16.Supported && p.FP16.Value < p.FP32.Value {
		bad("FP16 peak below FP32")
	}
	if p.FP32.Supported && p.BF16.Supported && p.BF16.Value < p.FP32.Value {
		bad("BF16 peak below FP32")
	}
	if p.FP8.Supported && p.FP4.Supported && p.FP4.Value < p.FP8.Value {
		bad("FP4 peak below FP8")
	}
	if p.FP4.Supported != (len(c.FP4Formats) > 0) {
		bad("an FP4 peak goes with the FP4 formats it computes, and only with them")
	}
	for i, f := range c.FP4Formats {
		if f != sizing.MXFP4 && f != sizing.NVFP4 || slices.Contains(c.FP4Formats[:i], f) {
			bad("FP4 format %s: want MXFP4 or NVFP4, each once", quote(f.String()))
		}
	}
	if !c.Link.valid() {
		bad("unknown link kind %s", quote(string(c.Link)))
	}
	if !finite(float64(c.NVLink)) || c.NVLink < 0 || c.NVLink > maxBandwidth {
		bad("link bandwidth %v B/s out of range", float64(c.NVLink))
	}
	if (c.Link == LinkNone) != (c.NVLink == 0) {
		bad("link %s with bandwidth %v B/s: none goes with zero and only zero", quote(string(c.Link)), float64(c.NVLink))
	}
	switch {
	case c.NVLinkDomain < 0 || c.NVLinkDomain == 1 || c.NVLinkDomain > maxDomain:
		bad("NVLink domain of %d GPUs: want zero (one server) or 2 to %d", c.NVLinkDomain, maxDomain)
	case c.NVLinkDomain > 0 && (c.Link == LinkNone || c.Link == LinkNVLinkBridge):
		bad("NVLink domain of %d GPUs with link %s: a domain goes with a link across the board", c.NVLinkDomain, quote(string(c.Link)))
	}
	if c.ReportsAs == c.ID && c.ID != "" {
		bad("reports as itself")
	}
	if c.PCIeGen < 1 || c.PCIeGen > 9 {
		bad("PCIe generation %d out of range", c.PCIeGen)
	}
	if c.TDP <= 0 || c.TDP > maxTDP {
		bad("TDP %d W out of range", c.TDP)
	}
	if !c.Market.valid() {
		bad("unknown market %s", quote(string(c.Market)))
	}
	switch c.Confidence {
	case "", "primary", "mixed", "secondary":
	default:
		bad("unknown confidence %s", quote(c.Confidence))
	}
	for _, u := range c.Unconfirmed {
		if !knownField(u) {
			bad("unconfirmed names unknown field %s", quote(u))
		}
	}
	return joinErrors(errs)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// cardJSON is the cards.json form of a Card: memory in MiB, bandwidth in GB/s,
// peaks in TFLOPS (TOPS for INT8), null for an unsupported precision.
type cardJSON struct {
	ID              string    `json:"id"`
	Name            string    `json:"name"`
	Aliases         []string  `json:"aliases"`
	Families        []string  `json:"families"`
	Vendor          string    `json:"vendor"`
	Architecture    string    `json:"architecture"`
	Year            int       `json:"year"`
	Form            string    `json:"form"`
	MemoryMiB       int64     `json:"memory_mib"`
	MemoryReported  bool      `json:"memory_reported"`
	MemoryNote      string    `json:"memory_note"`
	MemoryNominalGB int64     `json:"memory_nominal_gb"`
	MemoryType      string    `json:"memory_type"`
	BandwidthGBps   float64   `json:"memory_bandwidth_gb_per_s"`
	Peaks           peaksJSON `json:"peaks_tflops"`
	FP4Formats      []string  `json:"fp4_formats"`
	SparsePublished bool      `json:"sparse_published"`
	FP32Accumulate  bool      `json:"fp32_accumulate"`
	Link            LinkKind  `json:"link"`
	NVLinkGBps      float64   `json:"nvlink_gb_per_s"`
	NVLinkDomain    int       `json:"nvlink_domain"`
	PCIeGen         int       `json:"pcie_gen"`
	TDPWatts        int       `json:"tdp_watts"`
	Market          Market    `json:"market"`
	Uses            []string  `json:"uses"`
	Confidence      string    `json:"confidence"`
	Sources         []string  `json:"sources"`
	Unconfirmed     []string  `json:"unconfirmed"`
	ReportsAs       string    `json:"reports_as"`
	Caveat          string    `json:"caveat"`
}

type peaksJSON struct {
	FP64       *float64 `json:"fp64"`
	FP64Tensor *float64 `json:"fp64_tensor"`
	FP32       *float64 `json:"fp32"`
	TF32       *float64 `json:"tf32"`
	FP16       *float64 `json:"fp16"`
	BF16       *float64 `json:"bf16"`
	FP8        *float64 `json:"fp8"`
	INT8       *float64 `json:"int8"`
	FP4        *float64 `json:"fp4"`
}

func rateFromTFLOPS(v *float64) Rate {
	if v == nil {
		return Rate{}
	}
	return RateOf(compute.FLOPRate(*v) * compute.TFLOPS)
}

func rateToTFLOPS(r Rate) *float64 {
	if !r.Supported {
		return nil
	}
	v := roundTo(float64(r.Value/compute.TFLOPS), 1e6)
	return &v
}

func roundTo(v, scale float64) float64 {
	if !finite(v) || math.Abs(v) > 1e12 {
		return v
	}
	return math.Round(v*scale) / scale
}

// fromJSON converts, rejecting sizes whose conversion to bytes would overflow.
func (j cardJSON) card() (Card, error) {
	if j.MemoryMiB < 0 || j.MemoryMiB > int64(maxMemory/sizing.MiB) {
		return Card{}, fmt.Errorf("catalog: card %s: memory_mib %d out of range (0, 16 TiB]: %w", quote(j.ID), j.MemoryMiB, ErrInvalid)
	}
	if j.MemoryNominalGB < 0 || j.MemoryNominalGB > int64(maxMemory/sizing.GB) {
		return Card{}, fmt.Errorf("catalog: card %s: memory_nominal_gb %d out of range: %w", quote(j.ID), j.MemoryNominalGB, ErrInvalid)
	}
	var fp4 []sizing.Precision
	for _, f := range j.FP4Formats {
		p, ok := fp4Format(f)
		if !ok {
			return Card{}, fmt.Errorf("catalog: card %s: fp4_formats: %s is not mxfp4 or nvfp4: %w", quote(j.ID), quote(f), ErrInvalid)
		}
		fp4 = append(fp4, p)
	}
	return Card{
		ID: j.ID, Name: j.Name, Aliases: j.Aliases, Families: j.Families, Vendor: j.Vendor,
		Architecture: j.Architecture, Year: j.Year, Form: j.Form,
		Memory: sizing.Bytes(j.MemoryMiB) * sizing.MiB, MemoryReported: j.MemoryReported,
		MemoryNote: j.MemoryNote, MemoryNominal: sizing.Bytes(j.MemoryNominalGB) * sizing.GB,
		MemoryType: j.MemoryType, MemoryBandwidth: compute.Bandwidth(j.BandwidthGBps) * compute.GBps,
		Peaks: Peaks{
			FP64: rateFromTFLOPS(j.Peaks.FP64), FP64Tensor: rateFromTFLOPS(j.Peaks.FP64Tensor),
			FP32: rateFromTFLOPS(j.Peaks.FP32), TF32: rateFromTFLOPS(j.Peaks.TF32),
			FP16: rateFromTFLOPS(j.Peaks.FP16), BF16: rateFromTFLOPS(j.Peaks.BF16),
			FP8: rateFromTFLOPS(j.Peaks.FP8), INT8: rateFromTFLOPS(j.Peaks.INT8),
			FP4: rateFromTFLOPS(j.Peaks.FP4),
		},
		FP4Formats:      fp4,
		SparsePublished: j.SparsePublished, FP32Accumulate: j.FP32Accumulate,
		Link: j.Link, NVLink: compute.Bandwidth(j.NVLinkGBps) * compute.GBps, NVLinkDomain: j.NVLinkDomain,
		PCIeGen: j.PCIeGen, TDP: j.TDPWatts, Market: j.Market, Uses: j.Uses,
		Confidence: j.Confidence, Sources: j.Sources, Unconfirmed: j.Unconfirmed,
		ReportsAs: j.ReportsAs, Caveat: j.Caveat,
	}, nil
}

// fp4Format returns the FP4 format named s ("nvfp4", "MXFP4"), and whether s names one.
func fp4Format(s string) (sizing.Precision, bool) {
	for _, p := range [...]sizing.Precision{sizing.NVFP4, sizing.MXFP4} {
		if strings.EqualFold(s, p.String()) {
			return p, true
		}
	}
	return 0, false
}

func (c Card) toJSON() cardJSON {
	var fp4 []string
	for _, p := range c.FP4Formats {
		fp4 = append(fp4, strings.ToLower(p.String()))
	}
	return cardJSON{
		ID: c.ID, Name: c.Name, Aliases: c.Aliases, Families: c.Families, Vendor: c.Vendor,
		Architecture: c.Architecture, Year: c.Year, Form: c.Form,
		MemoryMiB: int64(c.Memory / sizing.MiB), MemoryReported: c.MemoryReported, MemoryNote: c.MemoryNote,
		MemoryNominalGB: int64(c.MemoryNominal / sizing.GB), MemoryType: c.MemoryType,
		BandwidthGBps: roundTo(float64(c.MemoryBandwidth/compute.GBps), 1e6),
		Peaks: peaksJSON{
			FP64: rateToTFLOPS(c.Peaks.FP64), FP64Tensor: rateToTFLOPS(c.Peaks.FP64Tensor),
			FP32: rateToTFLOPS(c.Peaks.FP32), TF32: rateToTFLOPS(c.Peaks.TF32),
			FP16: rateToTFLOPS(c.Peaks.FP16), BF16: rateToTFLOPS(c.Peaks.BF16),
			FP8: rateToTFLOPS(c.Peaks.FP8), INT8: rateToTFLOPS(c.Peaks.INT8),
			FP4: rateToTFLOPS(c.Peaks.FP4),
		},
		FP4Formats:      fp4,
		SparsePublished: c.SparsePublished, FP32Accumulate: c.FP32Accumulate,
		Link: c.Link, NVLinkGBps: roundTo(float64(c.NVLink/compute.GBps), 1e6), NVLinkDomain: c.NVLinkDomain,
		PCIeGen: c.PCIeGen, TDPWatts: c.TDP, Market: c.Market, Uses: c.Uses,
		Confidence: c.Confidence, Sources: c.Sources, Unconfirmed: c.Unconfirmed,
		ReportsAs: c.ReportsAs, Caveat: c.Caveat,
	}
}

// MarshalJSON writes the card in the cards.json form: memory in MiB, bandwidth
// in GB/s, peaks in TFLOPS with null for unsupported precisions. Memory that is not
// a whole number of MiB is an error, as the form cannot hold it.
func (c Card) MarshalJSON() ([]byte, error) {
	if c.Memory%sizing.MiB != 0 || c.MemoryNominal%sizing.GB != 0 {
		return nil, fmt.Errorf("catalog: card %s: memory is not whole MiB or nominal memory not whole GB: %w", quote(c.ID), ErrInvalid)
	}
	return json.Marshal(c.toJSON())
}

// UnmarshalJSON reads one card in the cards.json form, rejecting unknown fields.
// It does not validate the figures; New and Load do.
func (c *Card) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j cardJSON
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("catalog: card JSON: %w: %w", jsonError{err}, ErrInvalid)
	}
	card, err := j.card()
	if err != nil {
		return err
	}
	*c = card
	return nil
}
