// Package cli holds what the example commands share: the usage error that exits 2,
// and writing a command's error to standard error under the command's name, once.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrUsage marks a command line that is wrong in itself (exit status 2, as the
// flag package exits). Wrap it with Usagef.
var ErrUsage = errors.New("usage error")

// Usagef returns a usage error whose message, once Exit has dropped ErrUsage's
// text, is the formatted reason: name the flag at fault.
func Usagef(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUsage}, args...)...)
}

// Exit writes err to stderr under the command's name and returns the exit status
// it calls for: 0 for none or -h (flag.ErrHelp: the usage was printed; asking for
// help is not a failure), 2 for a usage error, with a line saying -h lists the
// flags, and 1 otherwise.
func Exit(name string, err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		Print(stderr, name, err)
		fmt.Fprintln(stderr, name+": -h lists the flags")
		return 2
	}
	Print(stderr, name, err)
	return 1
}

// Print writes err's message to w, each line under the command's name: "plan: "
// and then the line. A line that names a package already ("plan: ", or
// "pricing: " when the command is named pricing) keeps its name and is not given
// a second one, and a usage error's "usage error: " is dropped.
func Print(w io.Writer, name string, err error) {
	msg := strings.TrimPrefix(err.Error(), ErrUsage.Error()+": ")
	prefix := name + ": "
	var b strings.Builder
	for _, l := range strings.Split(msg, "\n") {
		if !strings.HasPrefix(l, prefix) {
			b.WriteString(prefix)
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	io.WriteString(w, b.String())
}

// Parse parses args with fs and returns the names of the flags given. It returns
// flag.ErrHelp as it is, for the command to print its usage, and a usage error for
// a bad flag or for arguments after the flags, which none of the commands takes.
func Parse(fs *flag.FlagSet, args []string) (map[string]bool, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, Usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return nil, Usagef("unexpected arguments %q", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, nil
}

// FlagSet returns a command's flag set: it returns errors (Parse sorts them) and
// writes nothing itself; -h is printed with Usage.
func FlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// Usage writes a command's -h text to w: header (what the command does, its exit
// statuses, ending in "Flags:") and then every flag of fs. fs keeps writing
// nothing of its own.
func Usage(w io.Writer, fs *flag.FlagSet, header string) {
	io.WriteString(w, header)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
