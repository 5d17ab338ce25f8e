package gpuplan_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxSeed bounds each seed of a fuzz target: a fuzzer given a large seed spends
// its runs shrinking it rather than exploring (a price list's fuzz target ran 10
// inputs in 30 s on whole sample files). Large inputs belong in ordinary tests.
const maxSeed = 5 << 10

// TestFuzzSeedsSmall holds every fuzz seed in the repository under maxSeed: the
// corpus files under testdata/fuzz, the string literals of every Fuzz function
// and the test helpers it calls (f.Add's arguments among them), and every file a
// Fuzz function reads for seeds, found from the literal paths and glob patterns
// it (or a helper) passes to os.ReadFile, os.Open or filepath.Glob. A file read
// whose path the test cannot resolve from literals fails too: name seed files by
// literal paths.
func TestFuzzSeedsSmall(t *testing.T) {
	dirs := map[string][]*ast.File{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "vendor"):
			return filepath.SkipDir
		case !d.IsDir() && strings.Contains(filepath.ToSlash(path), "/testdata/fuzz/"):
			if info, err := d.Info(); err == nil && info.Size() > maxSeed {
				t.Errorf("%s: a corpus file of %d bytes, over %d", path, info.Size(), maxSeed)
			}
		case !d.IsDir() && strings.HasSuffix(path, "_test.go"):
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	targets := 0
	for dir, files := range dirs {
		funcs := map[string]*ast.FuncDecl{}
		for _, f := range files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
					funcs[fd.Name.Name] = fd
				}
			}
		}
		for name, fd := range funcs {
			if !strings.HasPrefix(name, "Fuzz") {
				continue
			}
			targets++
			s := seedScan{t: t, dir: dir, target: name, funcs: funcs, seen: map[string]bool{}, reported: map[string]bool{}}
			s.scan(fd, map[string][]string{})
		}
	}
	if targets < 10 {
		t.Errorf("found %d fuzz targets, want the repository's (more than 10)", targets)
	}
}

// seedScan walks a fuzz target and the helpers it calls.
type seedScan struct {
	t      *testing.T
	dir    string
	target string
	funcs  map[string]*ast.FuncDecl
	seen   map[string]bool // the helpers being scanned
	// reported holds the files already reported as too large.
	reported map[string]bool
}

// isCall reports whether c calls pkg.name.
func isCall(c *ast.CallExpr, pkg, name string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == name
}

// scan checks fd's body, with vars the string values its identifiers may hold.
func (s *seedScan) scan(fd *ast.FuncDecl, vars map[string][]string) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && len(v) > maxSeed {
				s.t.Errorf("%s: %s: a string literal of %d bytes, over %d", s.dir, s.target, len(v), maxSeed)
			}
		case *ast.RangeStmt:
			if id, ok := n.Value.(*ast.Ident); ok {
				switch x := n.X.(type) {
				case *ast.CompositeLit:
					vs := []string{}
					for _, e := range x.Elts {
						vs = append(vs, s.values(e, vars)...)
					}
					vars[id.Name] = vs
				case *ast.Ident:
					vars[id.Name] = vars[x.Name]
				}
			}
		case *ast.AssignStmt:
			// paths, _ := filepath.Glob(pattern): paths holds the files matched.
			if c, ok := n.Rhs[0].(*ast.CallExpr); ok && len(n.Rhs) == 1 && isCall(c, "filepath", "Glob") && len(c.Args) == 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					matched := []string{} // known, if empty
					for _, p := range s.values(c.Args[0], vars) {
						m, _ := filepath.Glob(filepath.Join(s.dir, filepath.FromSlash(p)))
						for _, f := range m {
							if rel, err := filepath.Rel(s.dir, f); err == nil {
								matched = append(matched, filepath.ToSlash(rel))
							}
						}
					}
					vars[id.Name] = matched
				}
			}
		case *ast.CallExpr:
			s.call(n, vars)
		}
		return true
	})
}

// call checks a file read or descends into a helper of the package.
func (s *seedScan) call(c *ast.CallExpr, vars map[string][]string) {
	switch fun := c.Fun.(type) {
	case *ast.SelectorExpr:
		pkg, ok := fun.X.(*ast.Ident)
		if !ok || len(c.Args) == 0 {
			return
		}
		read := pkg.Name == "os" && (fun.Sel.Name == "ReadFile" || fun.Sel.Name == "Open")
		glob := pkg.Name == "filepath" && fun.Sel.Name == "Glob"
		if !read && !glob {
			return
		}
		paths := s.values(c.Args[0], vars)
		if paths == nil {
			s.t.Errorf("%s: %s reads a seed file by a path the test cannot resolve: name it by a literal", s.dir, s.target)
		}
		for _, p := range paths {
			p = filepath.Join(s.dir, filepath.FromSlash(p))
			matches := []string{p}
			if glob {
				matches, _ = filepath.Glob(p)
			}
			for _, m := range matches {
				if info, err := os.Stat(m); err == nil && info.Size() > maxSeed && !s.reported[m] {
					s.reported[m] = true
					s.t.Errorf("%s: %s seeds %s of %d bytes, over %d: put it in an ordinary test", s.dir, s.target, m, info.Size(), maxSeed)
				}
			}
		}
	case *ast.Ident:
		fd := s.funcs[fun.Name]
		if fd == nil || s.seen[fun.Name] {
			return
		}
		s.seen[fun.Name] = true // on the stack: no recursion
		defer delete(s.seen, fun.Name)
		bound := map[string][]string{}
		i := 0
		for _, field := range fd.Type.Params.List {
			for _, name := range field.Names {
				if i < len(c.Args) {
					bound[name.Name] = s.values(c.Args[i], vars)
				}
				i++
			}
		}
		s.scan(fd, bound)
	}
}

// values returns the strings e may be: a literal, a variable bound to literals,
// or a + of such; nil when it cannot tell (an empty, non-nil slice when it may be
// none: a glob that matched nothing).
func (s *seedScan) values(e ast.Expr, vars map[string][]string) []string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if v, err := strconv.Unquote(e.Value); err == nil && e.Kind == token.STRING {
			return []string{v}
		}
	case *ast.Ident:
		return vars[e.Name]
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return nil
		}
		xs, ys := s.values(e.X, vars), s.values(e.Y, vars)
		if xs == nil || ys == nil {
			return nil
		}
		out := []string{}
		for _, a := range xs {
			for _, b := range ys {
				out = append(out, a+b)
			}
		}
		return out
	}
	return nil
}
