package catalog

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpuplan/gpuplan/compute"
	"github.com/gpuplan/gpuplan/internal/text"
)

// Catalog is a read-only set of cards with a name index built once when the
// catalog is made. It is safe for concurrent use; the Cards it returns are copies.
// The zero value and a nil *Catalog hold no cards.
type Catalog struct {
	cards  []Card
	index  map[string]entry // normalised name → the cards it names
	names  []name           // every name, for suggestions, in catalog order
	tokens []cardTokens     // per card, for the token match when the index misses
}

// entry lists the cards (by position) one normalised name covers. own is true for
// a card's ID, name or alias, which name that card alone; false for a family name.
type entry struct {
	cards []int
	own   bool
}

type name struct {
	key, display string
}

//go:embed cards.json
var cardsJSON []byte

// defaultCatalog parses the embedded cards.json on first use.
var defaultCatalog = sync.OnceValue(func() *Catalog {
	c, err := Load(bytes.NewReader(cardsJSON))
	if err != nil {
		// The embedded data is part of the source; TestDefault keeps it valid.
		panic("catalog: embedded cards.json is invalid: " + err.Error())
	}
	return c
})

// Default returns the built-in catalog: the cards of the embedded cards.json,
// parsed on first use and shared. It is read-only and safe for concurrent use.
func Default() *Catalog { return defaultCatalog() }

// New builds a catalog from cards, in the order given. It validates each card
// (Card.Validate) and the set: IDs, names and aliases must be unique across cards
// after normalisation (case, spaces, dashes, underscores and vendor words such as
// "NVIDIA", "GeForce", "Tesla" and "Ascend" are ignored), a family name may not equal any
// card's own name, and a card's ReportsAs must be the ID of another card that
// reports as none. Problems are joined with errors.Join, each wrapping ErrInvalid;
// past the first 20, a last error says how many more there are. Names are quoted
// cut to 80 bytes. The work is linear in the number of names.
// The catalog keeps its own copies of the cards.
func New(cards ...Card) (*Catalog, error) {
	c := &Catalog{cards: make([]Card, len(cards)), index: make(map[string]entry),
		tokens: make([]cardTokens, len(cards))}
	var errs []error
	for i, card := range cards {
		c.cards[i] = card.clone()
		c.tokens[i] = tokensOf(card)
		if err := card.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	dup := func(key, display string, i int) {
		errs = append(errs, fmt.Errorf("catalog: card %s: name %s also names card %s: %w",
			quote(cards[i].ID), quote(display), quote(cards[c.index[key].cards[0]].ID), ErrInvalid))
	}
	for i, card := range c.cards {
		for _, n := range append(append([]string{card.Name}, card.Aliases...), card.ID) {
			key := normalize(n)
			if key == "" {
				continue // reported by Validate
			}
			e, seen := c.index[key]
			switch {
			case !seen:
				c.index[key] = entry{cards: []int{i}, own: true}
				c.names = append(c.names, name{key, n})
			case e.cards[0] != i:
				dup(key, n, i)
			}
		}
	}
	for i, card := range c.cards {
		for _, n := range card.Families {
			key := normalize(n)
			if key == "" {
				continue
			}
			e, seen := c.index[key]
			switch {
			case seen && e.own:
				errs = append(errs, fmt.Errorf("catalog: card %s: family name %s is also the name of card %s: %w",
					quote(card.ID), quote(n), quote(cards[e.cards[0]].ID), ErrInvalid))
			case !seen:
				c.index[key] = entry{cards: []int{i}}
				c.names = append(c.names, name{key, n})
			case e.cards[len(e.cards)-1] != i:
				e.cards = append(e.cards, i)
				c.index[key] = e
			}
		}
	}
	for _, card := range c.cards {
		if card.ReportsAs == "" {
			continue
		}
		k := c.byID(card.ReportsAs)
		switch {
		case k < 0:
			errs = append(errs, fmt.Errorf("catalog: card %s: reports as %s, which is no card's ID: %w",
				quote(card.ID), quote(card.ReportsAs), ErrInvalid))
		case c.cards[k].ReportsAs != "":
			errs = append(errs, fmt.Errorf("catalog: card %s: reports as %s, which reports as %s in turn: %w",
				quote(card.ID), quote(card.ReportsAs), quote(c.cards[k].ReportsAs), ErrInvalid))
		}
	}
	if err := joinErrors(errs); err != nil {
		return nil, err
	}
	return c, nil
}

// byID returns the position of the card with ID id, or -1.
func (c *Catalog) byID(id string) int {
	if e, ok := c.index[normalize(id)]; ok && e.own && c.cards[e.cards[0]].ID == id {
		return e.cards[0]
	}
	return -1
}

// Merge returns a catalog of base's cards with cards added, as a user adds their
// own to the built-in catalog: a card whose ID is one of base's replaces that card,
// in its place; the others follow base's cards in the order given. The result is
// built with New, so every rule of New holds across the merged set: a name or alias
// that another card already answers to is an error that names both cards
// ("catalog: card "my-4090": name "RTX 4090" also names card "rtx-4090""), as is
// a family name equal to another card's own name. Two cards given with one ID are
// an error too. Every error wraps ErrInvalid. base is not changed; a nil base is
// an empty catalog.
func Merge(base *Catalog, cards ...Card) (*Catalog, error) {
	var all []Card
	if base != nil {
		all = slices.Clone(base.cards) // New copies each card's slices
	}
	pos := make(map[string]int, len(all))
	for i, c := range all {
		pos[c.ID] = i
	}
	given := make(map[string]bool, len(cards))
	for _, c := range cards {
		if given[c.ID] {
			return nil, fmt.Errorf("catalog: Merge: card %s given twice: %w", quote(c.ID), ErrInvalid)
		}
		given[c.ID] = true
		if i, ok := pos[c.ID]; ok {
			all[i] = c
			continue
		}
		all = append(all, c)
	}
	return New(all...)
}

// maxLoad bounds the JSON Load reads: far beyond any real card list.
const maxLoad = 16 << 20

// Load reads a JSON list of cards in the form of the built-in cards.json (a
// provider's own list, say) and builds a catalog with New. It is strict: unknown
// fields, trailing data, memory that is negative or beyond 16 TiB, and every
// problem New finds are errors wrapping ErrInvalid.
func Load(r io.Reader) (*Catalog, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxLoad+1))
	if err != nil {
		return nil, fmt.Errorf("catalog: Load: %w: %w", err, ErrInvalid)
	}
	if len(data) > maxLoad {
		return nil, fmt.Errorf("catalog: Load: input over %d bytes: %w", maxLoad, ErrInvalid)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var list []cardJSON
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("catalog: Load: %w: %w", jsonError{err}, ErrInvalid)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("catalog: Load: data after the list: %w", ErrInvalid)
	}
	if list == nil {
		return nil, fmt.Errorf("catalog: Load: want a JSON list of cards: %w", ErrInvalid)
	}
	cards := make([]Card, 0, len(list))
	var errs []error
	for _, j := range list {
		card, err := j.card()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cards = append(cards, card)
	}
	if err := joinErrors(errs); err != nil {
		return nil, err
	}
	return New(cards...)
}

// Cards returns copies of every card, in the catalog's order (for the built-in
// catalog, the order of cards.json).
func (c *Catalog) Cards() []Card {
	if c == nil {
		return nil
	}
	out := make([]Card, len(c.cards))
	for i, card := range c.cards {
		out[i] = card.clone()
	}
	return out
}

// Lookup finds the card a name stands for. Names are compared ignoring case,
// spaces, dashes, underscores and other punctuation, and leading vendor words
// ("NVIDIA", "GeForce", "Tesla", "AMD", "Instinct", "Huawei", "Ascend"), so "RTX
// 4090", "GeForce RTX 4090", "rtx4090", "4090" and nvidia-smi's "NVIDIA GeForce RTX
// 4090" all find the rtx-4090, and "910B", "Ascend 910B" and "Ascend910B" the
// Ascend 910B. Fullwidth letters and digits ("ＲＴＸ４０９０", as Chinese input
// methods type them) read as their ASCII forms; other non-ASCII characters are
// ignored, so "昇腾910B" (Ascend's Chinese name) finds it too. A card answers to its ID, its name
// and its aliases, which include the
// names nvidia-smi prints ("NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3") and
// SkyPilot's accelerator names ("A100-80GB", "V100-32GB", with SkyPilot's meaning:
// the SXM boards). nvidia-smi's bare names are the SXM boards too ("NVIDIA H800",
// "NVIDIA H200"), so "H800" alone is the h800-sxm5-80gb. Matching is whole-name,
// so the most specific name wins: "L4", "L40" and "L40S" are three cards, and
// "4090 D" is not the "4090".
//
// Only when no name matches whole does Lookup match words, so that the words of a
// name may come in any order and carry the memory size: "A100 80GB SXM", "T4
// 16GB", "RTX 4090 24GB". The name is split into words at punctuation and spaces,
// vendor words anywhere are dropped, a memory word ("80GB", "80G", "80GiB",
// "80 GB") must equal the card's marketed size (MemoryNominal, in GB), and a
// memory-type word ("HBM3", "HBM2e", "GDDR6X") its MemoryType. First the
// memory words are written "<N>GB" after the other words, and the memory types
// after them, and the whole-name match is tried again, so "A100 80G" and "80GB
// A100" mean what "A100 80GB" means. Otherwise a card matches when every other
// word is one of the words of its ID, name, aliases or form ("SXM" and "HGX"
// stand for any of SXM2, SXM4, SXM5), and all the words of at
// least one of its names, less memory and form, are in the name given. The last
// rule keeps a variant's own word from being left out: "RTX 4090 24GB" is the
// rtx-4090, never the 4090 D, "L40 48GB" the l40, never the L40S, and "RTX 6000
// 24GB" the Turing Quadro RTX 6000, never the RTX 6000 Ada; "H100 80GB HBM2e" is
// the PCIe H100, whose memory is HBM2e. Memory or form words alone ("80GB",
// "SXM") name no card. A card whose every name carries its memory size (the 48 GB
// RTX 4090) needs the size: where the words match other cards whole, "RTX 4090"
// with no size among them, those are the answer. Names over 128 bytes or 12 words
// are not matched by words.
//
// A family name that covers several cards ("A100", "H100", "V100"), or words that
// several cards match ("A100 SXM"), return an *AmbiguousError (errors.Is
// ErrAmbiguous) listing the candidate IDs: in catalog order for a family name,
// sorted for a word match. An unknown name returns a *NotFoundError (errors.Is
// ErrNotFound) with the closest names by edit distance. The returned Card is a
// copy. Candidates reads names the same way and lists every board a name leaves
// open; a planner should use it.
func (c *Catalog) Lookup(name string) (Card, error) {
	hits := c.resolve(name)
	switch len(hits) {
	case 0:
		return Card{}, c.notFound(name)
	case 1:
		return c.cards[hits[0]].clone(), nil
	}
	ids := make([]string, len(hits))
	for i, k := range hits {
		ids[i] = c.cards[k].ID
	}
	return Card{}, &AmbiguousError{Name: name, Candidates: ids}
}

// Candidates returns every card name may denote, slowest first, so that a
// planner can plan on the first and say what the last would change. It reads
// names as Lookup does and is the one place that decides which boards a name
// leaves open:
//
//   - A name that Lookup resolves to one card and that says its board (SXM of any
//     generation, PCIe, NVL or HGX, in any case and spacing: "A100 SXM4 80GB",
//     "NVIDIA A100-PCIE-40GB", "H100 NVL") gives that card alone.
//   - A name that Lookup resolves to one card without saying its board gives that
//     card and its board siblings: the cards of the same vendor that share one of
//     its family names and its marketed memory on another board. So "A100 80GB",
//     which Lookup reads as the SXM4 board by SkyPilot's convention, gives the
//     SXM4 and PCIe A100 80GB, and "H800" (nvidia-smi's name for the SXM5 board,
//     but a price list's for either) both H800s. Vendor words carry no weight, so
//     "NVIDIA H800" reads as "H800". A memory type in the name ("HBM3",
//     "HBM2e", "GDDR6X") keeps only the siblings of that type: nvidia-smi's "NVIDIA
//     H100 80GB HBM3" is the SXM5 H100 alone, as the PCIe board has HBM2e.
//   - A name that Lookup finds ambiguous (a family name such as "H100 80GB" or
//     "A100", or words several cards match, such as "A100 SXM") gives every card
//     Lookup lists.
//
// Slowest first means by lower memory bandwidth, then lower dense 16-bit peak
// (BF16, or FP16 where the card has no BF16 rate), then the weaker link (none,
// then a bridge that joins pairs only, then a link across the board, and within
// a kind the lower bandwidth), then less memory, then ID. The order is total, so
// the same name always gives the same list. The cards are copies. A name no card answers to
// gives Lookup's *NotFoundError (errors.Is ErrNotFound) and no cards.
func (c *Catalog) Candidates(name string) ([]Card, error) {
	hits := c.resolve(name)
	if len(hits) == 0 {
		return nil, c.notFound(name)
	}
	out := make([]Card, 0, len(hits))
	for _, k := range hits {
		out = append(out, c.cards[k].clone())
	}
	if len(hits) == 1 && !saysBoard(name) {
		out = c.appendSiblings(out, hits[0], name)
	}
	slices.SortFunc(out, bySpeed)
	return out, nil
}

// resolve returns the positions of the cards name answers to, as Lookup reads it:
// one card, several (a family name in catalog order, or words several cards
// match, sorted by ID), or none. The slice may be the index's own: read it only.
func (c *Catalog) resolve(name string) []int {
	if c == nil {
		return nil
	}
	name = text.FoldWidth(name)
	var buf [64]byte
	key := appendKey(buf[:0], name)
	if e, ok := c.index[string(key)]; ok {
		return e.cards
	}
	return c.lookupTokens(name, string(key))
}

// notFound is the error for a name no card answers to, with the closest names.
func (c *Catalog) notFound(name string) error {
	return &NotFoundError{Name: name, Suggestions: c.suggest(normalize(text.FoldWidth(name)))}
}

// saysBoard reports whether a card name says its board: SXM (any generation),
// PCIe, NVL or HGX, in any case and with or without separators ("A100-SXM4-80GB",
// "H100PCIe").
func saysBoard(name string) bool {
	key := normalize(text.FoldWidth(name))
	for _, w := range [...]string{"sxm", "pcie", "nvl", "hgx"} {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}

// appendSiblings appends to out the board siblings of the card at position i (see
// Candidates) whose memory type agrees with every memory-type word of name.
func (c *Catalog) appendSiblings(out []Card, i int, name string) []Card {
	card := &c.cards[i]
	if card.MemoryNominal == 0 || len(card.Families) == 0 {
		return out
	}
	q, _ := parseQuery(text.FoldWidth(name)) // a name too long for words says no memory type
	for k := range c.cards {
		s := &c.cards[k]
		if k == i || s.Form == card.Form || s.MemoryNominal != card.MemoryNominal || s.Vendor != card.Vendor ||
			!slices.ContainsFunc(s.Families, func(f string) bool { return contains(card.Families, f) }) {
			continue
		}
		if slices.ContainsFunc(q.memTypes, func(mt string) bool { return !strings.EqualFold(mt, s.MemoryType) }) {
			continue
		}
		out = append(out, s.clone())
	}
	return out
}

// bySpeed orders cards slowest first, as Candidates documents.
func bySpeed(a, b Card) int {
	return cmp.Or(cmp.Compare(a.MemoryBandwidth, b.MemoryBandwidth), cmp.Compare(peak16(a), peak16(b)),
		cmp.Compare(linkReach(a.Link), linkReach(b.Link)), cmp.Compare(a.NVLink, b.NVLink),
		cmp.Compare(a.Memory, b.Memory), strings.Compare(a.ID, b.ID))
}

// linkReach ranks a link by the GPUs it joins: none, pairs (a bridge), the board.
func linkReach(k LinkKind) int {
	switch k {
	case LinkNone:
		return 0
	case LinkNVLinkBridge:
		return 1
	}
	return 2
}

// peak16 is a card's dense 16-bit tensor peak: BF16, else FP16, else zero.
func peak16(c Card) compute.FLOPRate {
	if c.Peaks.BF16.Supported {
		return c.Peaks.BF16.Value
	}
	return c.Peaks.FP16.Value // zero when unsupported
}

// suggest returns up to three names whose keys are closest to key, within an edit
// distance of half the key's length (at least 2).
func (c *Catalog) suggest(key string) []string {
	if c == nil || key == "" {
		return nil
	}
	const maxKey = 64
	if len(key) > maxKey {
		key = key[:maxKey]
	}
	limit := max(2, len(key)/2)
	type cand struct{ d, pos int }
	var cands []cand
	var rows [2][]int
	for pos, n := range c.names {
		d := text.EditDistance(key, n.key, limit, &rows)
		if d > limit {
			continue
		}
		cands = append(cands, cand{d, pos})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	var out []string
	for _, cd := range cands {
		disp := c.names[cd.pos].display
		if contains(out, disp) {
			continue
		}
		out = append(out, disp)
		if len(out) == 3 {
			break
		}
	}
	return out
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// normalize returns the index key of a name; see appendKey.
func normalize(s string) string { return string(appendKey(nil, s)) }

// appendKey appends the key of name s to dst: ASCII letters lowered and digits
// kept, everything else dropped, then leading vendor words removed while something
// remains ("NVIDIA GeForce RTX 4090" → "rtx4090").
func appendKey(dst []byte, s string) []byte {
	start := len(dst)
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z', b >= '0' && b <= '9':
			dst = append(dst, b)
		case b >= 'A' && b <= 'Z':
			dst = append(dst, b+('a'-'A'))
		}
	}
	key := dst[start:]
	for {
		cut := false
		for _, p := range [...]string{"nvidia", "geforce", "tesla", "amd", "instinct", "huawei", "ascend"} {
			if len(key) > len(p) && string(key[:len(p)]) == p {
				key = key[len(p):]
				cut = true
			}
		}
		if !cut {
			break
		}
	}
	n := copy(dst[start:], key)
	return dst[:start+n]
}
