package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/sizing"
)

// Report is what Verify found. Problems are what a renter should raise with the
// provider; Notes are what Verify could not check or what is worth knowing. An
// empty Problems means the machine was delivered as advertised, as far as the
// inputs show.
type Report struct {
	// Advertised is the advertised card's ID; for a listing that names a family
	// ("H100 80GB"), the name as given, with the cards it covers in Candidates.
	Advertised string   `json:"advertised"`
	Candidates []string `json:"candidates"` // IDs of the cards the listing allows
	GPUs       int      `json:"gpus"`       // GPUs ordered
	Problems   []string `json:"problems"`   // human sentences, one per problem
	Notes      []string `json:"notes"`      // checks skipped and other remarks
}

// OK reports whether no problem was found.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// memoryTolerance is the share of a card's exact memory a delivered GPU may lack
// before Verify reports it. Drivers differ in what they reserve: a V100 16GB shows
// 16144 to 16384 MiB and an A100 80GB 81251 to 81920 MiB in published nvidia-smi
// output, within 1.5%; ECC on GDDR cards takes about 6%, so 8% covers that and still
// catches a 40 GB card sold as 80 GB or a 24 GB card sold as 48 GB.
const memoryTolerance = 0.08

// Verify checks a machine against what was advertised, as the second seed
// article's checklist does with nvidia-smi: advertised names the card (any name
// Lookup accepts), gpus the number ordered, devs what
// nvidia-smi --query-gpu=index,name,memory.total reported (ParseSMI), and topo what
// nvidia-smi topo -m reported (ParseTopology), or nil when it was not run.
//
// Problems reported: fewer GPUs than ordered; a GPU whose name resolves to another
// card or to none (a name several cards print, as the 24 and 48 GB RTX 4090 do,
// is read as the one whose memory is nearest the GPU's); less memory than the advertised card has (its exact memory less
// 8% for what drivers reserve and ECC takes); and, for two or more
// GPUs of a card sold on an NVLink baseboard (SXM), pairs of GPUs joined only by
// PCIe. PCIe cards with an NVLink bridge join pairs only, so missing bridges are a
// note, not a problem. With topo nil, the links are noted as unchecked.
//
// A listing is held to what it says. One that names a family Lookup finds
// ambiguous ("H100 80GB", "A100") allows any card of it: each GPU must be one of
// them and have that card's memory, and the links are checked for the card
// delivered. One that does not name the board ("A100 80GB", which Lookup reads as
// the SXM4 board, as SkyPilot does) allows the same model and memory on another
// board ("A100 80GB PCIe"): that is a note to take up with the provider, not a
// problem, and the links are checked for the board delivered.
//
// The error is non-nil only for bad arguments: an advertised name Lookup does not
// know (ErrNotFound), gpus below one (ErrInvalid), or a card nvidia-smi does not
// list, whose machines Verify cannot check (ErrInvalid, naming the tool that
// does: npu-smi for Huawei's Ascend NPUs, rocm-smi for AMD's GPUs).
func (c *Catalog) Verify(advertised string, gpus int, devs []Device, topo *Topology) (Report, error) {
	allowed, family, err := c.advertisedCards(advertised)
	if err != nil {
		return Report{}, err
	}
	if gpus < 1 {
		return Report{}, fmt.Errorf("catalog: Verify: %d GPUs ordered, want at least 1: %w", gpus, ErrInvalid)
	}
	for _, a := range allowed {
		if a.Vendor != "nvidia" {
			return Report{}, unseenError(a)
		}
	}
	card := allowed[0] // the card Lookup reads the listing as, when it is not a family
	r := Report{Advertised: card.ID, GPUs: gpus}
	for _, a := range allowed {
		r.Candidates = append(r.Candidates, a.ID)
	}
	if family {
		r.Advertised = advertised
	}
	problem := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	note := func(format string, args ...any) { r.Notes = append(r.Notes, fmt.Sprintf(format, args...)) }
	if family {
		note("%s names a family (%s); any of them is as advertised.", quote(advertised), strings.Join(r.Candidates, ", "))
	}

	switch {
	case len(devs) < gpus:
		problem("%d GPUs ordered, %d delivered.", gpus, len(devs))
	case len(devs) > gpus:
		note("%d GPUs visible, %d ordered.", len(devs), gpus)
	}

	// linkCard is the card whose links are checked: the one delivered when every
	// GPU is the same allowed card, else the advertised one.
	var delivered []Card // the allowed cards of the GPUs ordered (the first gpus devices)
	for i, d := range devs {
		got, err := c.deviceCard(d)
		want := card // the card this GPU's memory is held to
		if family {
			want = smallest(allowed)
		}
		switch {
		case err == nil && containsCard(allowed, got.ID):
			want = got
			if got.ID != card.ID && !family {
				note("GPU %d is the %s; the listing %s does not name the board, which the catalog reads as the %s. Ask which the price is for.",
					d.Index, got.Name, quote(advertised), card.Name)
			}
			if i < gpus {
				delivered = append(delivered, got)
			}
		case err == nil:
			problem("GPU %d reports %s (%s), not the advertised %s.", d.Index, d.Name, got.ID, advertisedName(card, advertised, allowed, family))
		case errors.Is(err, ErrAmbiguous):
			note("GPU %d reports %s, which could be several cards; its model was not checked.", d.Index, quote(d.Name))
		default:
			problem("GPU %d reports %s, which is not the advertised %s.", d.Index, quote(d.Name), advertisedName(card, advertised, allowed, family))
		}
		if d.Memory < sizing.Bytes(float64(want.Memory)*(1-memoryTolerance)) {
			whose := "the advertised " + want.Name
			if want.ID != card.ID || family {
				whose = "the " + want.Name + " it reports" // one of the cards the listing allows
				if err != nil || !containsCard(allowed, got.ID) {
					whose = "the smallest card advertised, the " + want.Name + ","
				}
			}
			problem("GPU %d has %s of memory; %s has %s (%s sold, %s delivered).",
				d.Index, mib(d.Memory), whose, mib(want.Memory), gbLabel(want.Memory, want.MemoryNominal), gbLabel(d.Memory, 0))
		}
	}

	if len(delivered) > 1 && !sameCard(delivered) {
		var kinds []string
		for i, k := range delivered {
			if i == 0 || !containsCard(delivered[:i], k.ID) {
				kinds = append(kinds, k.ID)
			}
		}
		problem("The GPUs are not all the same card (%s): a set is sold as one card.", strings.Join(kinds, ", "))
	}
	if gpus >= 2 {
		linkCard := card
		if len(delivered) > 0 && len(delivered) == min(gpus, len(devs)) && sameCard(delivered) {
			linkCard = delivered[0]
		} else if family {
			note("GPU links were checked as for the %s, the first card of the family.", card.Name)
		}
		r.checkLinks(linkCard, devs[:min(gpus, len(devs))], topo)
	}
	return r, nil
}

// deviceCard returns the card a GPU is: the card Lookup finds by its name, or,
// where other cards report as that one (Card.ReportsAs: the 48 GB RTX 4090 prints
// the 24 GB card's name), whichever of them has the memory nearest the GPU's.
func (c *Catalog) deviceCard(d Device) (Card, error) {
	got, err := c.Lookup(d.Name)
	if err != nil {
		return got, err
	}
	dist := func(k *Card) sizing.Bytes {
		if k.Memory > d.Memory {
			return k.Memory - d.Memory
		}
		return d.Memory - k.Memory
	}
	named, best := got.ID, dist(&got)
	for i := range c.cards {
		k := &c.cards[i]
		if k.ReportsAs == named && dist(k) < best {
			got, best = k.clone(), dist(k)
		}
	}
	return got, nil
}

// unseenError is Verify's error for an order of card c, which nvidia-smi does not
// list: it names the tool that lists such cards.
func unseenError(c Card) error {
	kind, tool := "not an NVIDIA GPU", "its vendor's tools check such machines"
	switch c.Vendor {
	case "amd":
		kind, tool = "an AMD GPU", "rocm-smi is the tool that checks AMD machines"
	case "huawei":
		kind, tool = "a Huawei NPU", "npu-smi is the tool that checks Ascend machines"
	}
	return fmt.Errorf("catalog: Verify: the %s is %s, which nvidia-smi does not see; %s: %w", c.Name, kind, tool, ErrInvalid)
}

// advertisedCards returns the cards a listing allows (Candidates), the card Lookup
// reads it as first, then the others slowest first; for a name Lookup finds
// ambiguous (family true), the first card Lookup lists comes first.
func (c *Catalog) advertisedCards(advertised string) (cards []Card, family bool, err error) {
	cards, err = c.Candidates(advertised)
	if err != nil {
		return nil, false, err
	}
	card, err := c.Lookup(advertised)
	first := card.ID
	var amb *AmbiguousError
	if errors.As(err, &amb) {
		first, family = amb.Candidates[0], true
	}
	i := slices.IndexFunc(cards, func(k Card) bool { return k.ID == first })
	k := cards[i]
	copy(cards[1:i+1], cards[:i])
	cards[0] = k
	return cards, family, nil
}

func containsCard(cards []Card, id string) bool {
	for _, k := range cards {
		if k.ID == id {
			return true
		}
	}
	return false
}

func sameCard(cards []Card) bool {
	for _, k := range cards[1:] {
		if k.ID != cards[0].ID {
			return false
		}
	}
	return true
}

// smallest returns the card with the least memory.
func smallest(cards []Card) Card {
	s := cards[0]
	for _, k := range cards[1:] {
		if k.Memory < s.Memory {
			s = k
		}
	}
	return s
}

// advertisedName is how a problem names what was advertised: the card, or the
// family as written with the cards it covers.
func advertisedName(card Card, advertised string, allowed []Card, family bool) string {
	if !family {
		return card.Name
	}
	ids := make([]string, len(allowed))
	for i, k := range allowed {
		ids[i] = k.ID
	}
	return strconv.Quote(advertised) + " (" + strings.Join(ids, " or ") + ")"
}

// checkLinks checks the links between the delivered devices, by their nvidia-smi
// indices, which number the GPUs in topo -m's matrix too (both enumerate in the
// same PCI bus order).
func (r *Report) checkLinks(card Card, devs []Device, topo *Topology) {
	if topo == nil {
		r.Notes = append(r.Notes, "GPU links were not checked (no nvidia-smi topo -m output given).")
		return
	}
	var idx []int
	var missing []string
	for _, d := range devs {
		if d.Index < 0 || d.Index >= topo.GPUs() {
			missing = append(missing, fmt.Sprintf("GPU %d", d.Index))
			continue
		}
		idx = append(idx, d.Index)
	}
	if len(missing) > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("The topology lists %d GPUs; %d were delivered (not in it: %s).",
			topo.GPUs(), len(devs), listUpTo(missing, 4)))
	}
	n := len(idx)
	var pcie []string
	linked := 0
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			i, j := idx[a], idx[b]
			if topo.NVLinked(i, j) {
				linked++
				continue
			}
			l, _ := topo.Link(i, j)
			pcie = append(pcie, fmt.Sprintf("GPU%d-GPU%d %s", i, j, l))
		}
	}
	switch card.Link {
	case LinkNVLink:
		if len(pcie) > 0 {
			r.Problems = append(r.Problems, fmt.Sprintf(
				"%d of %d GPU pairs are joined by PCIe only, not NVLink as the %s's baseboard provides: %s.",
				len(pcie), n*(n-1)/2, card.Name, listUpTo(pcie, 4)))
		}
	case LinkNVLinkBridge:
		if linked == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("No NVLink bridges: the %s GPUs talk over PCIe only.", card.Name))
		}
	case LinkNone:
		r.Notes = append(r.Notes, fmt.Sprintf("The %s has no NVLink; multi-GPU traffic goes over PCIe.", card.Name))
	}
}

func listUpTo(s []string, k int) string {
	if len(s) <= k {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:k], ", ") + fmt.Sprintf(" and %d more", len(s)-k)
}

// mib formats whole MiB as nvidia-smi does ("40960 MiB").
func mib(b sizing.Bytes) string { return fmt.Sprintf("%d MiB", b/sizing.MiB) }

// gbLabel gives the marketed size ("80 GB"): nominal where known, else memory
// rounded to whole GiB, as vendors label cards.
func gbLabel(mem, nominal sizing.Bytes) string {
	if nominal > 0 {
		return fmt.Sprintf("%d GB", nominal/sizing.GB)
	}
	return fmt.Sprintf("%.0f GB", mem.GiB())
}
