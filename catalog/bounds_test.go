package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// aliasCard returns the T4 with n aliases of its own ("t4 alias 0", …).
func aliasCard(t testing.TB, n int) Card {
	c, err := Default().Lookup("t4")
	if err != nil {
		t.Fatal(err)
	}
	c.Aliases = nil
	for i := range n {
		c.Aliases = append(c.Aliases, fmt.Sprintf("t4 alias %d", i))
	}
	return c
}

// The case: 80,000 aliases in one card made Load quadratic (25 s). A card
// may have 256; more are refused before any name is indexed, with a short message.
func TestLoadManyAliases(t *testing.T) {
	for _, tc := range []struct {
		n  int
		ok bool
	}{{maxNames, true}, {maxNames + 1, false}, {80_000, false}} {
		data, err := json.Marshal([]Card{aliasCard(t, tc.n)})
		if err != nil {
			t.Fatal(err)
		}
		cat, err := Load(strings.NewReader(string(data)))
		if !tc.ok {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "at most 256") || len(err.Error()) > 400 {
				t.Errorf("Load(%d aliases) = %.500v, want a short ErrInvalid naming the limit", tc.n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Load(%d aliases) = %v", tc.n, err)
		}
		last := fmt.Sprintf("T4 alias %d", tc.n-1)
		if c, err := cat.Lookup(last); err != nil || c.ID != "t4" {
			t.Errorf("Lookup(%q) = %v, %v; want the t4", last, c.ID, err)
		}
		// The word match still sees every alias's words.
		if c, err := cat.Lookup("alias 16GB t4 255"); err != nil || c.ID != "t4" {
			t.Errorf("word match = %v, %v; want the t4", c.ID, err)
		}
	}
}

// tokensOf keeps each word and each name's word set once, however many aliases
// repeat them.
func TestTokensOfDeduplicates(t *testing.T) {
	c := aliasCard(t, 200)
	for range 3 {
		c.Aliases = append(c.Aliases, "alias t4 7") // the words of "t4 alias 7" in another order
	}
	tok := tokensOf(c)
	// Words: t4, alias, 0…199, pcie (form).
	if got, want := len(tok.words), 2+200+1; got != want {
		t.Errorf("tokensOf: %d words, want %d", got, want)
	}
	// Cores: "t4" (ID, name), and one per alias number; the reordered aliases add none.
	if got, want := len(tok.cores), 1+200; got != want {
		t.Errorf("tokensOf: %d cores, want %d", got, want)
	}
}

// A list with a thousand problems reports twenty and counts the rest.
func TestNewErrorsBounded(t *testing.T) {
	a := aliasCard(t, 0)
	cards := []Card{a}
	for i := range 1000 {
		c := a.clone()
		c.ID = fmt.Sprintf("copy-%d", i)
		cards = append(cards, c)
	}
	_, err := New(cards...)
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("New = %v, want ErrInvalid", err)
	}
	msg := err.Error()
	if n := strings.Count(msg, "also names"); n != maxErrors {
		t.Errorf("New reports %d duplicates, want %d", n, maxErrors)
	}
	// Each copy repeats the name and the alias-free ID-less names: 1000 names.
	if !strings.Contains(msg, "and 980 more problems") {
		t.Errorf("New = %.300s..., want the rest counted", msg)
	}
}

// Error messages quote at most 80 bytes of the input, cut at a character boundary.
func TestErrorsQuoteExcerpt(t *testing.T) {
	huge := strings.Repeat("ＲＴＸ", 1<<20) // 9 MiB of 3-byte characters
	a := aliasCard(t, 0)
	b := a.clone()
	b.ID = "b"
	b.Aliases = []string{"T4"} // "T4" names the t4 already
	b.Market = Market(huge)
	b.Confidence = huge
	c := a.clone()
	c.ID = huge
	checks := map[string]error{}
	_, checks["New"] = New(a, b, c)
	_, checks["Lookup"] = Default().Lookup(huge)
	_, checks["ParseSMI"] = ParseSMI(strings.NewReader("index, name, memory.total [MiB]\n0, " + huge[:60000] + ", x MiB\n"))
	for name, err := range checks {
		if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNotFound) {
			t.Errorf("%s = %v, want an error", name, err)
			continue
		}
		msg := err.Error()
		if len(msg) > 4000 || !strings.Contains(msg, "ＲＴＸ") || !strings.Contains(msg, "...") || strings.ContainsRune(msg, '\uFFFD') {
			t.Errorf("%s: message of %d bytes, want a short excerpt of whole characters: %.300s", name, len(msg), msg)
		}
	}
}

// ParseSMI without an index column numbers rows itself; it stops at 1024 GPUs, as
// it does with one.
func TestParseSMIDeviceLimit(t *testing.T) {
	for _, header := range []string{"name, memory.total [MiB]\n", "", "index, name, memory.total [MiB]\n"} {
		for _, n := range []int{maxDevices, maxDevices + 1} {
			var b strings.Builder
			b.WriteString(header)
			for i := range n {
				if strings.HasPrefix(header, "index") {
					fmt.Fprintf(&b, "%d, ", i)
				}
				b.WriteString("NVIDIA A100-SXM4-80GB, 81920 MiB\n")
			}
			devs, err := ParseSMI(strings.NewReader(b.String()))
			switch {
			case n <= maxDevices && (err != nil || len(devs) != n):
				t.Errorf("ParseSMI(%q + %d rows) = %d devices, %v", header, n, len(devs), err)
			case n > maxDevices && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "more than 1024 GPUs")):
				t.Errorf("ParseSMI(%q + %d rows) = %d devices, %v; want the limit", header, n, len(devs), err)
			}
		}
	}
}

// BenchmarkNewAliases shows New's cost per alias: with the set-based tokensOf it
// stays flat from 16 to 256 aliases a card (the quadratic scan grew 16-fold).
func BenchmarkNewAliases(b *testing.B) {
	for _, n := range []int{16, maxNames} {
		var cards []Card
		for k := range 4096 / n {
			c := aliasCard(b, 0)
			c.ID = fmt.Sprintf("card-%d", k)
			c.Name = c.ID
			for i := range n {
				c.Aliases = append(c.Aliases, fmt.Sprintf("card %d alias %d", k, i))
			}
			cards = append(cards, c)
		}
		b.Run(fmt.Sprintf("aliases=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := New(cards...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
