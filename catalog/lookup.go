package catalog

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/sizing"
)

// The token match is Lookup's fallback for names the exact index does not know:
// words in another order ("A100 80GB SXM") or with the memory size added ("T4
// 16GB"). A name is split into words (tokens) at anything that is not an ASCII
// letter or digit; vendor words are dropped; a memory word ("80gb", "80g",
// "80gib", or "80" followed by "gb") is compared with the card's nominal memory,
// and a memory-type word ("hbm3", "gddr6x") with the card's memory type.

// Bounds on the names the token match looks at; longer names are not card names.
const (
	maxQueryLen    = 128
	maxQueryTokens = 12
	maxMemoryGB    = 1 << 20 // beyond any card; larger numbers are not memory words
)

// cardTokens is what the token match knows of one card, worked out once in New.
type cardTokens struct {
	words    []string   // every non-memory word of the card's ID, name, aliases and form
	cores    [][]string // per name: its words less memory and form words; non-empty
	bare     []bool     // per core: some name with these words has no memory word
	memory   int64      // nominal memory in decimal GB; 0: none recorded
	memTypes []string   // its memory type and any its names carry, lowered ("hbm3")
}

// query is a name split for the token match.
type query struct {
	words    []string // words other than memory and memory-type words, in order
	memory   []int64  // memory words, in GB
	memTypes []string // memory-type words ("hbm3"), in order
}

// vendorWord reports whether w is a word the match ignores, as appendKey does at
// the front of a name.
func vendorWord(w string) bool {
	switch w {
	case "nvidia", "geforce", "tesla", "amd", "instinct", "huawei", "ascend":
		return true
	}
	return false
}

// formWord reports whether w names a board form ("sxm", "sxm4", "pcie", "oam",
// "nvl", "hgx": NVIDIA's SXM baseboard). Form words are matched leniently and never
// count as a model's own word, so "H100 94GB" finds the H100 NVL by its memory.
func formWord(w string) bool {
	if w == "pcie" || w == "oam" || w == "nvl" || w == "hgx" {
		return true
	}
	if !strings.HasPrefix(w, "sxm") {
		return false
	}
	return allDigits(w[3:])
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// memTypeWord reports whether w names a memory type: "hbm" or "gddr" and a
// digit, then anything ("hbm2e", "hbm3", "gddr6x", "gddr7").
func memTypeWord(w string) bool {
	for _, p := range [...]string{"hbm", "gddr"} {
		if len(w) > len(p) && w[:len(p)] == p && w[len(p)] >= '0' && w[len(p)] <= '9' {
			return true
		}
	}
	return false
}

// memoryUnit reports whether u is a memory unit after a number: g, gb or gib.
func memoryUnit(u string) bool { return u == "g" || u == "gb" || u == "gib" }

// memoryWord returns the size in GB of a memory word such as "80gb", "80g" or
// "80gib", and whether w is one.
func memoryWord(w string) (int64, bool) {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i == 0 || !memoryUnit(w[i:]) {
		return 0, false
	}
	return number(w[:i])
}

// number parses a run of digits up to maxMemoryGB.
func number(s string) (int64, bool) {
	if s == "" || len(s) > 7 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	if n == 0 || n > maxMemoryGB {
		return 0, false
	}
	return n, true
}

// splitWords lowers s and splits it at every byte that is not an ASCII letter or
// digit, dropping vendor words. ok is false when s has more than max words.
func splitWords(s string, max int) (words []string, ok bool) {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			b := s[i]
			if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' {
				if start < 0 {
					start = i
				}
				continue
			}
		}
		if start < 0 {
			continue
		}
		w := strings.ToLower(s[start:i])
		start = -1
		if vendorWord(w) {
			continue
		}
		if len(words) == max {
			return nil, false
		}
		words = append(words, w)
	}
	return words, true
}

// parseQuery splits a name into words, memory sizes and memory types, joining a
// number and a following unit ("80 GB") into one memory word. ok is false for
// names too long or with too many words to be a card's.
func parseQuery(s string) (q query, ok bool) {
	if len(s) > maxQueryLen {
		return query{}, false
	}
	words, ok := splitWords(s, maxQueryTokens)
	if !ok {
		return query{}, false
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if gb, ok := memoryWord(w); ok {
			q.memory = append(q.memory, gb)
			continue
		}
		if memTypeWord(w) {
			q.memTypes = append(q.memTypes, w)
			continue
		}
		if i+1 < len(words) && memoryUnit(words[i+1]) {
			if gb, ok := number(w); ok {
				q.memory = append(q.memory, gb)
				i++
				continue
			}
		}
		q.words = append(q.words, w)
	}
	return q, true
}

// tokensOf works out the token-match data of a card. Its work is linear in the
// length of the card's names: sets, not scans, keep words and cores unique, so a
// card with many aliases costs no more per alias than one with few.
func tokensOf(card Card) cardTokens {
	t := cardTokens{}
	if card.MemoryNominal > 0 && card.MemoryNominal%sizing.GB == 0 {
		t.memory = int64(card.MemoryNominal / sizing.GB)
	}
	if mt := strings.ToLower(card.MemoryType); mt != "" {
		t.memTypes = append(t.memTypes, mt)
	}
	words := make(map[string]bool)
	cores := make(map[string]int) // key of a core → its place in t.cores
	var key []byte
	for _, n := range append(append([]string{card.ID, card.Name}, card.Aliases...), card.Form) {
		q, ok := parseQuery(n)
		if !ok {
			continue
		}
		for _, mt := range q.memTypes {
			if !contains(t.memTypes, mt) {
				t.memTypes = append(t.memTypes, mt)
			}
		}
		var core []string
		for _, w := range q.words {
			if !words[w] {
				words[w] = true
				t.words = append(t.words, w)
			}
			if !formWord(w) && !contains(core, w) { // at most maxQueryTokens words
				core = append(core, w)
			}
		}
		if len(core) == 0 {
			continue
		}
		sorted := slices.Clone(core)
		slices.Sort(sorted)
		key = key[:0]
		for _, w := range sorted {
			key = append(append(key, w...), ' ')
		}
		bare := len(q.memory) == 0
		if i, seen := cores[string(key)]; seen {
			t.bare[i] = t.bare[i] || bare
			continue
		}
		cores[string(key)] = len(t.cores)
		t.cores = append(t.cores, core)
		t.bare = append(t.bare, bare)
	}
	return t
}

// subset reports whether every word of a is in b.
func subset(a, b []string) bool {
	for _, w := range a {
		if !contains(b, w) {
			return false
		}
	}
	return true
}

// has reports whether the card has word w, a bare "sxm" or "hgx" matching any SXM
// form.
func (t *cardTokens) has(w string) bool {
	for _, cw := range t.words {
		if cw == w || ((w == "sxm" || w == "hgx") && formWord(cw) && strings.HasPrefix(cw, "sxm")) {
			return true
		}
	}
	return false
}

// matches reports whether the card answers to q: every memory word equals its
// nominal memory, every memory-type word is its memory type (or one its names
// carry), every other word is one of its words, and the words of at least
// one of its names (less memory and form) are all in q, so that a variant's own
// word ("D" of the 4090 D, "Ada" of the RTX 6000 Ada) cannot be left out. full
// reports whether q names the card whole: it has such a name without a memory
// size, or q gives the memory. A card whose every name carries its memory (the
// 48 GB RTX 4090) is matched by "RTX 4090" only in part.
func (t *cardTokens) matches(q query) (ok, full bool) {
	for _, gb := range q.memory {
		if gb != t.memory {
			return false, false
		}
	}
	for _, mt := range q.memTypes {
		if !contains(t.memTypes, mt) {
			return false, false
		}
	}
	for _, w := range q.words {
		if !t.has(w) {
			return false, false
		}
	}
	for i, core := range t.cores {
		if subset(core, q.words) {
			ok = true
			if t.bare[i] || len(q.memory) > 0 {
				return true, true
			}
		}
	}
	return ok, false
}

// lookupTokens is Lookup's fallback after the exact index missed key: it returns
// the positions of the cards name answers to by its words, sorted by ID, or none.
// It first retries the index with the memory words written "<N>gb" after the other
// words and the memory-type words after them, so that "A100 80G" and "80GB A100"
// mean what "A100 80GB" means and "HBM3 H100 80GB" what "H100 80GB HBM3" means;
// then it matches words, keeping the cards the name matches whole where there are
// any, so that "4090 RTX" is the 24 GB card, not also the 48 GB one.
func (c *Catalog) lookupTokens(name, key string) []int {
	q, ok := parseQuery(name)
	if !ok || len(q.words) == 0 {
		return nil
	}
	if len(q.memory)+len(q.memTypes) > 0 {
		var buf [maxQueryLen + 16]byte
		k := buf[:0]
		for _, w := range q.words {
			k = append(k, w...)
		}
		for _, gb := range q.memory {
			k = strconv.AppendInt(k, gb, 10)
			k = append(k, 'g', 'b')
		}
		for _, mt := range q.memTypes {
			k = append(k, mt...)
		}
		if string(k) != key {
			if e, ok := c.index[string(k)]; ok {
				return e.cards
			}
		}
	}
	var hits, part []int // cards q names whole, and cards it names in part
	for i := range c.tokens {
		switch ok, full := c.tokens[i].matches(q); {
		case full:
			hits = append(hits, i)
		case ok:
			part = append(part, i)
		}
	}
	if len(hits) == 0 {
		hits = part
	}
	sort.Slice(hits, func(a, b int) bool { return c.cards[hits[a]].ID < c.cards[hits[b]].ID })
	return hits
}
