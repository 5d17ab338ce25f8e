package gpuplan_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPricingImports holds what the README says of vendoring pricing: besides
// the standard library and decimal, it imports only internal/checked and
// internal/text, which import only the standard library; in particular no price
// list reader (pricing/pricelist) and nothing of sizing, compute or catalog.
func TestPricingImports(t *testing.T) {
	allowed := map[string][]string{
		"pricing":          {"github.com/shopspring/decimal", "github.com/gpuplan/gpuplan/internal/checked", "github.com/gpuplan/gpuplan/internal/text"},
		"internal/checked": nil,
		"internal/text":    nil,
	}
	for dir, extra := range allowed {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v, %d files", dir, err, len(files))
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				if !strings.Contains(first, ".") { // the standard library
					continue
				}
				ok := false
				for _, e := range extra {
					ok = ok || path == e
				}
				if !ok {
					t.Errorf("%s imports %s; vendoring %s would take it along", file, path, dir)
				}
			}
		}
	}
}
