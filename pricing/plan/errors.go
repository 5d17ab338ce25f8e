package plan

import (
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/pricing"
)

// unprefixed returns the lines of err's message, each less the package name at its
// start and then less drop, when drop is not empty.
func unprefixed(err error, drop string) []string {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		for _, p := range [...]string{"plan: ", "pricing: ", "sizing: ", "compute: ", "catalog: "} {
			if rest, ok := strings.CutPrefix(l, p); ok {
				l = rest
				break
			}
		}
		if drop != "" {
			l = strings.TrimPrefix(l, drop)
		}
		lines[i] = l
	}
	return lines
}

// contextError puts err under a context ("offer 2 (acme RTX 4090)"): each line of
// its message reads `plan: <context>: <err's line>`, the line less its package
// name and less drop, so the package is named once. Unwrap returns err and, when
// also is set, also: an error from compute or sizing carried under
// pricing.ErrInvalid answers errors.Is for both sentinels.
type contextError struct {
	context, drop string
	err           error
	also          error // a sentinel to add; may be nil
}

func (e *contextError) Error() string {
	lines := unprefixed(e.err, e.drop)
	for i, l := range lines {
		lines[i] = "plan: " + e.context + ": " + l
	}
	return strings.Join(lines, "\n")
}

func (e *contextError) Unwrap() []error {
	if e.also == nil {
		return []error{e.err}
	}
	return []error{e.err, e.also}
}

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
