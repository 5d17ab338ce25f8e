package msg

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every message has both languages, and the two take the same arguments: the
// same verbs for the same argument numbers (a translation may reorder them with
// %[n]).
func TestBothLanguages(t *testing.T) {
	for key, e := range en {
		z, ok := zh[key]
		if !ok {
			t.Errorf("%q has no Chinese", key)
			continue
		}
		if ev, zv := verbs(e), verbs(z); !slices.Equal(ev, zv) {
			t.Errorf("%q: English takes %q, Chinese %q", key, ev, zv)
		}
		if strings.TrimSpace(z) == "" && strings.TrimSpace(e) != "" {
			t.Errorf("%q: empty in Chinese", key)
		}
	}
	for key := range zh {
		if _, ok := en[key]; !ok {
			t.Errorf("%q has no English", key)
		}
	}
}

// verbs lists a format's verbs by argument number, "1:s", "2:d", sorted, as
// fmt numbers them: in order, or by an explicit [n]. A % before anything but a
// letter (a literal "52%)" in a message that is no format) is no verb.
func verbs(format string) []string {
	var out []string
	arg := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.IndexByte("+-#0123456789.*", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '[' {
			end := strings.IndexByte(format[i:], ']')
			n, _ := strconv.Atoi(format[i+1 : i+end])
			arg = n
			i += end + 1
			// fmt takes an index only right before the verb: "%.1[2]f", never
			// "%[2].1f", which it prints as %!f(BADINDEX).
			if i < len(format) && !('a' <= format[i] && format[i] <= 'z' || 'A' <= format[i] && format[i] <= 'Z') {
				out = append(out, "BADINDEX")
			}
		}
		if i < len(format) && ('a' <= format[i] && format[i] <= 'z' || 'A' <= format[i] && format[i] <= 'Z') {
			out = append(out, strconv.Itoa(arg)+":"+string(format[i]))
			arg++
		}
	}
	slices.Sort(out)
	return out
}

// Every key the commands and their helpers use, as the literal first argument
// of T or F, is in the tables, and every key in the tables is used: a message
// is never printed as "!key", and none is left over.
func TestKeysUsed(t *testing.T) {
	used := map[string]string{}
	for _, root := range []string{"../../examples", "../../internal"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				arg := 0
				switch sel.Sel.Name {
				case "T", "F", "TOr":
				case "N":
					arg = 1
				default:
					return true
				}
				if len(call.Args) <= arg {
					return true
				}
				if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					key, _ := strconv.Unquote(lit.Value)
					if !strings.Contains(key, ".") {
						return true
					}
					if sel.Sel.Name == "N" {
						used[key+".one"], used[key+".many"] = path, path
					} else {
						used[key] = path
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for key, path := range used {
		if _, ok := en[key]; !ok {
			t.Errorf("%s uses %q, which the tables lack", path, key)
		}
	}
	for key := range en {
		if _, ok := used[key]; !ok && !dynamic(key) {
			t.Errorf("%q is in the tables but no command uses it", key)
		}
	}
}

// dynamic reports the keys the commands build rather than write out (a column's
// heading from its name), which TestKeysUsed cannot see used.
func dynamic(key string) bool {
	for _, prefix := range dynamicPrefixes {
		if strings.HasPrefix(key, prefix) {
			return true
		}
	}
	return false
}

// dynamicPrefixes are the families of keys built at run time.
var dynamicPrefixes = []string{"plan.col.", "plan.role.", "plan.colhelp.", "plan.unit.", "plan.item.", "plan.task.", "plan.recompute.", "plan.note.", "plan.order.", "plan.why.", "plan.unitprefix.", "plan.format.", "invoice.item.", "invoice.unit.", "breakeven.price.", "breakeven.col.", "seeds.title."}
