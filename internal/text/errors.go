package text

import "strings"

// prefixes are the package names a gpuplan message line may start with.
var prefixes = [...]string{"plan: ", "pricing: ", "sizing: ", "compute: ", "catalog: "}

// Unprefixed returns the lines of err's message, each less the gpuplan package name
// at its start ("pricing: ", "plan: " and the like) and then less drop, when drop is
// not empty.
func Unprefixed(err error, drop string) []string {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		for _, p := range prefixes {
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

// Reason is err's message as one line for a list of reasons: its lines, each less
// the package name, joined by "; ".
func Reason(err error) string { return strings.Join(Unprefixed(err, ""), "; ") }

// ContextError puts Err under a context ("offer 2 (acme RTX 4090)"): each line of
// its message reads `<Pkg>: <Context>: <Err's line>`, the line less its package
// name and less Drop (the "offer: " that Offer.Validate starts with, say), so a
// package is named once. Unwrap returns Err and, when Also is set, Also: an error
// from compute or sizing carried under pricing's ErrInvalid reads once and answers
// errors.Is for both sentinels.
type ContextError struct {
	Pkg     string // the package that names the message: "pricing", "plan"
	Context string
	Drop    string // a prefix to drop from each line of Err's message; may be empty
	Err     error
	Also    error // a sentinel to add; may be nil
}

func (e *ContextError) Error() string {
	lines := Unprefixed(e.Err, e.Drop)
	for i, l := range lines {
		lines[i] = e.Pkg + ": " + e.Context + ": " + l
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns Err, and Also when it is set.
func (e *ContextError) Unwrap() []error {
	if e.Also == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Also}
}
