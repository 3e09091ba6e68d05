// Package apicheck lists the exported API of this repository's published
// packages, one line per exported name, method and field, signatures only
// (as the Go repository's api/*.txt files do), so that every change to the
// API shows as a reviewed diff of the golden files in api/. Its test
// compares them with the code and checks the rules the API keeps: no line
// names an internal package, no module but the core imports the core's
// internal packages, and no init function in the core module sets another
// package's variables.
//
// It reads source files with go/parser, without type-checking: a line is
// what the declaration says, as gofmt prints it.
package apicheck

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Module is the core module's path; the repository's other modules live
// under it.
const Module = "github.com/kgroup/assignor"

// Package is one package of the repository.
type Package struct {
	Dir        string // relative to the repository root, "." for the root
	ImportPath string
	Name       string
	files      []*ast.File // its non-test files
	fset       *token.FileSet
}

// Published reports whether the package is part of a published API: not
// internal, not a command, not an example or test data, and exporting
// something.
func (p *Package) Published() bool {
	if p.Name == "main" || strings.HasSuffix(p.Name, "_test") || len(p.API()) == 0 {
		return false
	}
	for _, part := range strings.Split(p.Dir, "/") {
		if part == "internal" || part == "testdata" || part == "examples" {
			return false
		}
	}
	return true
}

// Packages returns every package of the repository rooted at root, with its
// non-test files parsed, sorted by directory.
func Packages(root string) ([]*Package, error) {
	var pkgs []*Package
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "out") {
			return filepath.SkipDir
		}
		p, err := parseDir(root, path)
		if err != nil || p == nil {
			return err
		}
		pkgs = append(pkgs, p)
		return nil
	})
	slices.SortFunc(pkgs, func(a, b *Package) int { return cmp.Compare(a.Dir, b.Dir) })
	return pkgs, err
}

// parseDir parses the non-test Go files of dir, or returns nil when it has
// none.
func parseDir(root, dir string) (*Package, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, err
	}
	p := &Package{Dir: filepath.ToSlash(rel), fset: token.NewFileSet()}
	p.ImportPath = Module
	if p.Dir != "." {
		p.ImportPath += "/" + p.Dir
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if excludedByBuildTag(f) {
			continue
		}
		p.files = append(p.files, f)
		p.Name = f.Name.Name
	}
	if len(p.files) == 0 {
		return nil, nil
	}
	return p, nil
}

// excludedByBuildTag reports whether f builds only under a tag (ignore, or
// a tool's own), so that it is no part of the package's API.
func excludedByBuildTag(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// API returns the package's exported API, one line a name, sorted.
func (p *Package) API() []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for _, f := range p.files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				p.funcLines(d, add)
			case *ast.GenDecl:
				p.genLines(d, add)
			}
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

func (p *Package) funcLines(d *ast.FuncDecl, add func(string, ...any)) {
	if !d.Name.IsExported() {
		return
	}
	sig := strings.TrimPrefix(p.node(d.Type), "func")
	if d.Recv == nil {
		add("func %s%s", d.Name.Name, sig)
		return
	}
	recv := d.Recv.List[0].Type
	if base := baseType(recv); base == nil || !base.IsExported() {
		return // a method of an unexported type is no API
	}
	add("method (%s) %s%s", p.node(recv), d.Name.Name, sig)
}

func (p *Package) genLines(d *ast.GenDecl, add func(string, ...any)) {
	var inherited ast.Expr // a const group's type, carried to the specs that repeat it
	for _, spec := range d.Specs {
		switch s := spec.(type) {
		case *ast.TypeSpec:
			p.typeLines(s, add)
		case *ast.ValueSpec:
			typ := s.Type
			if d.Tok == token.CONST {
				if typ == nil && len(s.Values) == 0 {
					typ = inherited
				}
				inherited = typ
			}
			for i, name := range s.Names {
				if !name.IsExported() {
					continue
				}
				line := d.Tok.String() + " " + name.Name
				if typ != nil {
					line += " " + p.node(typ)
				}
				if i < len(s.Values) && (d.Tok == token.CONST || typ == nil) {
					if v := p.node(s.Values[i]); !strings.Contains(v, "iota") {
						line += " = " + v
					}
				}
				add("%s", line)
			}
		}
	}
}

func (p *Package) typeLines(s *ast.TypeSpec, add func(string, ...any)) {
	if !s.Name.IsExported() {
		return
	}
	name := s.Name.Name
	if s.TypeParams != nil {
		name += "[" + p.fieldList(s.TypeParams) + "]"
	}
	if s.Assign.IsValid() {
		add("type %s = %s", name, p.node(s.Type))
		return
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		add("type %s struct", name)
		for _, f := range t.Fields.List {
			typ := p.node(f.Type)
			if len(f.Names) == 0 { // embedded
				if base := baseType(f.Type); base != nil && base.IsExported() {
					add("type %s struct, embedded %s", name, typ)
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					add("type %s struct, %s %s", name, n.Name, typ)
				}
			}
		}
	case *ast.InterfaceType:
		add("type %s interface", name)
		for _, m := range t.Methods.List {
			if len(m.Names) == 0 {
				add("type %s interface, embedded %s", name, p.node(m.Type))
				continue
			}
			for _, n := range m.Names {
				if n.IsExported() {
					add("type %s interface, %s%s", name, n.Name, strings.TrimPrefix(p.node(m.Type), "func"))
				}
			}
		}
	default:
		add("type %s %s", name, p.node(s.Type))
	}
}

func (p *Package) fieldList(fl *ast.FieldList) string {
	var parts []string
	for _, f := range fl.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		parts = append(parts, strings.TrimSpace(strings.Join(names, ", ")+" "+p.node(f.Type)))
	}
	return strings.Join(parts, ", ")
}

// node prints n as gofmt does, on one line.
func (p *Package) node(n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, p.fset, n); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// baseType returns the identifier naming a (possibly pointer or generic)
// receiver or embedded type, or nil.
func baseType(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t
		case *ast.SelectorExpr:
			return t.Sel
		default:
			return nil
		}
	}
}

// InternalNames returns the API lines that name a package imported from an
// internal path (a selector whose package is such an import).
func (p *Package) InternalNames() []string {
	internal := map[string]bool{}
	for _, f := range p.files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains("/"+path+"/", "/internal/") {
				continue
			}
			name := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			internal[name] = true
		}
	}
	var out []string
	for _, line := range p.API() {
		for name := range internal {
			if strings.Contains(line, name+".") {
				out = append(out, line)
			}
		}
	}
	return out
}

// File is the golden file of a published package: api/<dir>.txt, with the
// directory's slashes as dots ("root" for the root package).
func (p *Package) File() string {
	name := strings.ReplaceAll(p.Dir, "/", ".")
	if name == "." {
		name = "root"
	}
	return filepath.Join("api", name+".txt")
}

// Golden is the content of the package's golden file: a header naming the
// package, then its API lines.
func (p *Package) Golden() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (package %s): generated by go test ./internal/apicheck -update; do not edit\n", p.ImportPath, p.Name)
	for _, line := range p.API() {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
