// Package sample holds the price list the example commands and the web page plan
// against when the user gives none: invented providers with SAMPLE PRICES in
// CNY, set inside the ranges Chinese rental platforms publish, not quotes.
// It is embedded, read-only, and safe for concurrent use.
package sample

import (
	"bytes"
	_ "embed"

	"github.com/gpuplan/gpuplan/pricing"
	"github.com/gpuplan/gpuplan/pricing/pricelist"
)

// JSON is the sample price list in gpuplan's JSON price-list format.
//
//go:embed offers.json
var JSON []byte

// Offers reads the sample price list: a new slice each call, so that a caller
// may change it.
func Offers() ([]pricing.Offer, error) {
	return pricelist.ReadJSON(bytes.NewReader(JSON))
}
