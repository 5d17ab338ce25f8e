package plan

import (
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/pricing"
)

// offerName names an offer as its price list wrote it, for messages: "provider/region
// card", and "(line N)" when it came from a file.
func offerName(o pricing.Offer) string {
	s := o.Provider
	if o.Region != "" {
		s += "/" + o.Region
	}
	s += " " + o.Card
	if strings.TrimSpace(s) == "" {
		s = "offer without provider or card"
	}
	if o.Line > 0 {
		s += " (line " + strconv.Itoa(o.Line) + ")"
	}
	return s
}
