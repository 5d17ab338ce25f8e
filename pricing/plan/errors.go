package plan

import (
	"github.com/gpuplan/gpuplan/internal/text"
	"github.com/gpuplan/gpuplan/pricing"
)

// offerName names an offer as its price list wrote it, for messages: "provider/region
// card", and "(line N)" when it came from a file.
func offerName(o pricing.Offer) string {
	return text.OfferName(o.Provider, o.Region, o.Card, "offer without provider or card", o.Line)
}
