package cli

import (
	"bytes"
	"fmt"

	"github.com/gpuplan/gpuplan/catalog"
)

// CatalogFlag is what -catalog says in every command that takes a card.
const CatalogFlag = "a JSON `file` of your own cards, in the form of catalog/cards.json, added to the built-in catalog (a card with a built-in ID replaces it)"

// Catalog is the catalog a command plans with: the built-in one, with the cards
// of the -catalog file added (catalog.Merge) when path is not empty. A file that
// cannot be opened is a usage error; one that does not read as cards, or whose
// cards clash with the built-in ones, an error naming it.
func Catalog(path string) (*catalog.Catalog, error) {
	if path == "" {
		return catalog.Default(), nil
	}
	b, err := ReadFile("catalog", path)
	if err != nil {
		return nil, err
	}
	own, err := catalog.Load(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("-catalog %s: %w", path, err)
	}
	c, err := catalog.Merge(catalog.Default(), own.Cards()...)
	if err != nil {
		return nil, fmt.Errorf("-catalog %s: %w", path, err)
	}
	return c, nil
}

// UnknownCardHint says how to plan with a card the catalog does not know.
const UnknownCardHint = "add a card the catalog does not know with -catalog FILE: a JSON list of cards in the form of catalog/cards.json (id, name, aliases, memory, bandwidth, peaks)"
