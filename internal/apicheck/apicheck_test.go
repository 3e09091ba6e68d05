package apicheck

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in api/")

// root is the repository root, from this package's directory.
const root = "../.."

func packages(t *testing.T) []*Package {
	t.Helper()
	pkgs, err := Packages(root)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestAPIGolden: every published package's exported API is its golden
// file, and every golden file is a published package's: an API change is a
// reviewed diff of api/. Run with -update to rewrite them.
func TestAPIGolden(t *testing.T) {
	want := map[string]bool{}
	for _, p := range packages(t) {
		if !p.Published() {
			continue
		}
		path := filepath.Join(root, p.File())
		want[filepath.Base(path)] = true
		golden := p.Golden()
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(golden), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no golden file %s (go test ./internal/apicheck -update writes it)", p.ImportPath, p.File())
			continue
		}
		if string(got) != golden {
			t.Errorf("%s: the API differs from %s; review the diff of go test ./internal/apicheck -update:\n%s", p.ImportPath, p.File(), diff(string(got), golden))
		}
	}
	files, err := os.ReadDir(filepath.Join(root, "api"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !want[f.Name()] {
			if *update {
				os.Remove(filepath.Join(root, "api", f.Name()))
				continue
			}
			t.Errorf("api/%s names no published package", f.Name())
		}
	}
}

// diff lists the lines only in want (-) and only in got (+).
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for _, l := range w {
		if !slices.Contains(g, l) {
			out = append(out, "- "+l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

// TestNoInternalNamesInAPI: nothing exported names or is defined by an
// internal package.
func TestNoInternalNamesInAPI(t *testing.T) {
	for _, p := range packages(t) {
		if !p.Published() {
			continue
		}
		for _, line := range p.InternalNames() {
			t.Errorf("%s: the API names an internal package: %s", p.ImportPath, line)
		}
	}
}

// moduleRoots returns the directories (relative to the root) of the
// repository's modules other than the core.
func moduleRoots(t *testing.T) []string {
	var mods []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.Name() == "go.mod" && filepath.Dir(path) != root {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			mods = append(mods, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

// TestNoInternalImportsOutsideCore: Go's internal rule goes by import path,
// so the other modules of this repository could import the core's internal
// packages; none does, tests included (they build as users' code).
func TestNoInternalImportsOutsideCore(t *testing.T) {
	mods := moduleRoots(t)
	if len(mods) < 4 {
		t.Fatalf("found the modules %v: the walk misses some", mods)
	}
	for _, mod := range mods {
		err := filepath.WalkDir(filepath.Join(root, mod), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasPrefix(p, Module+"/internal/") || p == Module+"/internal" {
					t.Errorf("%s imports the core's %s", path, p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoInitSetsOtherPackages: no init function of the core module assigns
// another package's variables (one package wiring another behind the
// reader's back).
func TestNoInitSetsOtherPackages(t *testing.T) {
	mods := moduleRoots(t)
	for _, p := range packages(t) {
		if slices.ContainsFunc(mods, func(m string) bool { return p.Dir == m || strings.HasPrefix(p.Dir, m+"/") }) {
			continue // another module
		}
		for _, f := range p.files {
			imported := map[string]bool{}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				name := path[strings.LastIndex(path, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				imported[name] = true
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || fn.Name.Name != "init" {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					as, ok := n.(*ast.AssignStmt)
					if !ok {
						return true
					}
					for _, lhs := range as.Lhs {
						if sel, ok := lhs.(*ast.SelectorExpr); ok {
							if x, ok := sel.X.(*ast.Ident); ok && imported[x.Name] {
								t.Errorf("%s: init sets %s.%s", p.ImportPath, x.Name, sel.Sel.Name)
							}
						}
					}
					return true
				})
			}
		}
	}
}
