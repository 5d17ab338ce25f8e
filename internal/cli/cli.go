// Package cli holds what the example commands share: the usage error that exits 2,
// a failure already reported on the output, the files a flag names, the -json
// and -o output, and writing a command's error to standard error under the
// command's name, once.
package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/internal/msg"
)

// ErrUsage marks a command line that is wrong in itself (exit status 2, as the
// flag package exits). Wrap it with Usagef.
var ErrUsage = errors.New("usage error")

// Usagef returns a usage error whose message, once Exit has dropped ErrUsage's
// text, is the formatted reason: name the flag at fault.
func Usagef(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUsage}, args...)...)
}

// Main runs a command as its main function does: run with the command line args
// and the language of the locale (main reads it: msg.FromEnv(os.Getenv)), its
// error written to stderr by Exit in the language the command line chose, and
// the exit status returned for os.Exit.
func Main(name string, run func(w io.Writer, args []string, lang msg.Lang) error, args []string, lang msg.Lang, stdout, stderr io.Writer) int {
	return Exit(name, run(stdout, args, lang), stderr, LangOf(args, lang))
}

// Exit writes err to stderr under the command's name and returns the exit status
// it calls for: 0 for none or -h (flag.ErrHelp: the usage was printed; asking for
// help is not a failure), a Reported error's Code without writing it, 2 for a
// usage error, with a line saying -h lists the flags, and 1 otherwise. In
// Chinese the message, the library's English included, is followed by a
// sentence saying what to do (an Advised error's own).
func Exit(name string, err error, stderr io.Writer, lang msg.Lang) int {
	var rep *Reported
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &rep):
		return rep.Code
	case errors.Is(err, ErrUsage):
		Print(stderr, name, err)
		fmt.Fprintln(stderr, name+": "+lang.T("cli.usage"))
		return 2
	}
	Print(stderr, name, err)
	var ad *Advised
	switch {
	case lang != msg.ZH:
	case errors.As(err, &ad):
		if ad.Advice != "" {
			fmt.Fprintln(stderr, name+": "+ad.Advice)
		}
	default:
		fmt.Fprintln(stderr, name+": "+lang.T("cli.failed"))
	}
	return 1
}

// Advised is an error that is no fault of the input, whose command says what to
// do about it (a machine that does not match its order: raise it with the
// provider): Exit writes its message, and in Chinese Advice in place of the
// general sentence that says to correct the input.
type Advised struct {
	Err    error
	Advice string // in the output's language; empty: none
}

func (a *Advised) Error() string { return a.Err.Error() }
func (a *Advised) Unwrap() error { return a.Err }

// Print writes err's message to w, each line under the command's name: "plan: "
// and then the line. A line that names a package already ("plan: ", or
// "pricing: " when the command is named pricing) keeps its name and is not given
// a second one, and a usage error's "usage error: " is dropped.
func Print(w io.Writer, name string, err error) {
	msg := Message(err)
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
// statuses, ending in "Flags:") and then every flag of fs in order of name, as
// flag.PrintDefaults writes them, its default in lang.
func Usage(w io.Writer, fs *flag.FlagSet, header string, lang msg.Lang) {
	var b strings.Builder
	b.WriteString(header)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		b.WriteString("  -" + f.Name)
		if name != "" {
			b.WriteString(" " + name)
		}
		b.WriteString("\n    \t")
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
		if !isZero(f) {
			def := f.DefValue
			if fmt.Sprintf("%T", f.Value) == "*flag.stringValue" {
				def = strconv.Quote(def)
			}
			b.WriteString(lang.F("cli.default", def))
		}
		b.WriteString("\n")
	})
	io.WriteString(w, b.String())
}

// isZero reports a flag whose default is its type's zero value, which Usage
// does not print, as the flag package does not.
func isZero(f *flag.Flag) bool {
	switch f.DefValue {
	case "", "0", "false", "0s", "[]", "<nil>":
		return true
	}
	return false
}

// LangOf is the language -lang asks for in args ("-lang zh", "--lang=en"), or
// def when args give none, or one that does not read (the flag reports that).
// Flags after "--" are not read, as the flag package reads none. A word that
// is not a flag is passed over, not taken for the end of the flags: it is
// most often a flag's value ("-sample bad -lang zh"), and the commands take no
// other arguments.
func LangOf(args []string, def msg.Lang) msg.Lang {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "lang" {
			continue
		}
		if !has {
			if i+1 >= len(args) {
				break
			}
			value = args[i+1]
		}
		if l, err := msg.ParseLang(value); err == nil {
			def = l
		}
	}
	return def
}

// LangFlag defines -lang on fs, set to lang, which it holds.
func LangFlag(fs *flag.FlagSet, lang *msg.Lang) {
	fs.Var((*langValue)(lang), "lang", lang.T("cli.flag.lang"))
}

// langValue is -lang's flag.Value.
type langValue msg.Lang

func (v *langValue) String() string { return msg.Lang(*v).String() }

func (v *langValue) Set(s string) error {
	l, err := msg.ParseLang(s)
	if err != nil {
		return err
	}
	*v = langValue(l)
	return nil
}

// Reported is a failure the command already wrote to its output (a no-fit report,
// a verdict, -json's error object): Exit returns Code and writes nothing more.
type Reported struct {
	Code int
	Err  error
}

func (r *Reported) Error() string { return r.Err.Error() }
func (r *Reported) Unwrap() error { return r.Err }

// ReadFile reads the file that flag (its name without the dash) names. A file
// that cannot be opened is a usage error naming the flag and the path, since
// the command line named it: exit status 2.
func ReadFile(flag, path string) ([]byte, error) {
	f, err := Open(flag, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("-%s %s: %w", flag, path, err)
	}
	return b, nil
}

// Open opens the file that flag names, as ReadFile does; the caller closes it.
func Open(flag, path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is named once, by the message below
		}
		return nil, Usagef("-%s %s: cannot open the file: %v", flag, path, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, Usagef("-%s %s: a folder, not a file", flag, path)
	}
	return f, nil
}

// WriteJSON writes v to w as indented JSON with a final newline: what -json
// prints, and nothing else.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ErrorJSON is what -json prints on standard output when a command fails after
// its flags parse: the message, as Exit would write it less the command's name.
type ErrorJSON struct {
	Error string `json:"error"`
}

// FailJSON writes -json's error object for err on w, v or, when v is nil,
// ErrorJSON{Message(err)}, and returns err as Reported, with the exit status Exit
// gives it (2 for a usage error, else 1), so that standard output holds one JSON
// value whatever the outcome. A Reported error (the command wrote its own JSON
// already) comes back as it is.
func FailJSON(w io.Writer, err error, v any) error {
	var rep *Reported
	if err == nil || errors.As(err, &rep) || errors.Is(err, flag.ErrHelp) {
		return err
	}
	code := 1
	if errors.Is(err, ErrUsage) {
		code = 2
	}
	if v == nil {
		v = ErrorJSON{Error: Message(err)}
	}
	if werr := WriteJSON(w, v); werr != nil {
		return fmt.Errorf("%w (writing the JSON error object failed: %v)", err, werr)
	}
	return &Reported{Code: code, Err: err}
}

// Message is err's message as Exit writes it, less the command's name: a usage
// error without "usage error: ".
func Message(err error) string { return strings.TrimPrefix(err.Error(), ErrUsage.Error()+": ") }

// To runs write with w, or, when path (the -o flag) is not empty, with a buffer
// it then writes to path, even when write fails (a report of why nothing fits
// is output too). A file that cannot be written is an error naming it.
func To(w io.Writer, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(w)
	}
	var b bytes.Buffer
	err := write(&b)
	if b.Len() > 0 || err == nil {
		if werr := WriteFile(path, b.Bytes()); werr != nil {
			return werr
		}
	}
	return err
}

// WriteFile writes b to path (the -o flag's file), replacing what was there.
func WriteFile(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	return nil
}
