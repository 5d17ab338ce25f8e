package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gpuplan/gpuplan/sizing"
)

// Report is what Verify found. Problems are what a renter should raise with the
// provider; Notes are what Verify could not check or what is worth knowing. An
// empty Problems means the machine was delivered as advertised, as far as the
// inputs show.
type Report struct {
	Advertised string   `json:"advertised"` // the advertised card's ID
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
// card or to none; less memory than the advertised card has (its exact memory less
// a tolerance for driver reservation, see memoryTolerance); and, for two or more
// GPUs of a card sold on an NVLink baseboard (SXM), pairs of GPUs joined only by
// PCIe. PCIe cards with an NVLink bridge join pairs only, so missing bridges are a
// note, not a problem. With topo nil, the links are noted as unchecked.
//
// The error is non-nil only for bad arguments: an advertised name Lookup cannot
// resolve to one card (ErrNotFound, ErrAmbiguous) or gpus below one (ErrInvalid).
func (c *Catalog) Verify(advertised string, gpus int, devs []Device, topo *Topology) (Report, error) {
	card, err := c.Lookup(advertised)
	if err != nil {
		return Report{}, err
	}
	if gpus < 1 {
		return Report{}, fmt.Errorf("catalog: Verify: %d GPUs ordered, want at least 1: %w", gpus, ErrInvalid)
	}
	r := Report{Advertised: card.ID, GPUs: gpus}
	problem := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	note := func(format string, args ...any) { r.Notes = append(r.Notes, fmt.Sprintf(format, args...)) }

	switch {
	case len(devs) < gpus:
		problem("%d GPUs ordered, %d delivered.", gpus, len(devs))
	case len(devs) > gpus:
		note("%d GPUs visible, %d ordered.", len(devs), gpus)
	}

	minMemory := sizing.Bytes(float64(card.Memory) * (1 - memoryTolerance))
	for _, d := range devs {
		got, err := c.Lookup(d.Name)
		switch {
		case err == nil && got.ID != card.ID:
			problem("GPU %d reports %s (%s), not the advertised %s.", d.Index, d.Name, got.ID, card.Name)
		case errors.Is(err, ErrAmbiguous):
			note("GPU %d reports %q, which could be several cards; its model was not checked.", d.Index, d.Name)
		case err != nil:
			problem("GPU %d reports %q, which is not the advertised %s.", d.Index, d.Name, card.Name)
		}
		if d.Memory < minMemory {
			problem("GPU %d has %s of memory; the advertised %s has %s (%s sold, %s delivered).",
				d.Index, mib(d.Memory), card.Name, mib(card.Memory), gbLabel(card.Memory, card.MemoryNominal), gbLabel(d.Memory, 0))
		}
	}

	if gpus >= 2 {
		r.checkLinks(card, devs[:min(gpus, len(devs))], topo)
	}
	return r, nil
}

// checkLinks checks the links between the delivered devices, by their nvidia-smi
// indices, which number the GPUs in topo -m's matrix too (both enumerate in the
// same PCI bus order).
func (r *Report) checkLinks(card Card, devs []Device, topo *Topology) {
	if topo == nil {
		r.Notes = append(r.Notes, "GPU links were not checked (no nvidia-smi topo -m output given).")
		return
	}
	if card.Vendor != "nvidia" {
		r.Notes = append(r.Notes, "GPU links were not checked: nvidia-smi topo -m does not report "+card.Vendor+" links.")
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
