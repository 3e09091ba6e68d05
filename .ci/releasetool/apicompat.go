package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The API check compares the golden files api/*.txt (one line per exported
// name, method, field and interface method, written by the core's
// internal/apicheck, whose test keeps them equal to the code) at HEAD with
// the same files at each published module's last release tag. A line at the
// tag that HEAD lacks is an incompatible change (a name removed, a
// signature, type or value changed); so is a method or embedded interface
// added to an interface that existed at the tag (its implementations
// outside the module break). Added names, fields and packages are
// compatible. Under v0 incompatible changes are allowed, but each must be
// named in CHANGELOG.md's "## [Unreleased]" section as package.Name (or
// package.Type.Member; a removed package by its import path).

// apiChange is one incompatible change.
type apiChange struct {
	Module, Tag string // the module and the tag compared against
	Package     string // import path
	Line        string // the golden line, as at the tag (removed) or at HEAD (added)
	Added       bool
	Name        string // what CHANGELOG.md must name
}

func (c apiChange) String() string {
	sign := "-"
	if c.Added {
		sign = "+"
	}
	return fmt.Sprintf("%s (since %s): %s %s", c.Package, c.Tag, sign, c.Line)
}

func runAPICompat(args []string) error {
	fs := flag.NewFlagSet("apicompat", flag.ContinueOnError)
	repo := fs.String("repo", ".", "the repository root")
	changelog := fs.String("changelog", "CHANGELOG.md", "the changelog, relative to -repo")
	skip := fs.String("skip", "examples", "comma-separated workspace module directories that are not published")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mods, err := workspaceModules(*repo, strings.Split(*skip, ","))
	if err != nil {
		return err
	}
	tags, err := gitOutput(*repo, "tag", "-l")
	if err != nil {
		return err
	}
	last := lastTags(mods, strings.Fields(tags))
	if len(last) == 0 {
		fmt.Println("apicompat: no release tag yet; nothing to compare")
		text, _ := os.ReadFile(filepath.Join(*repo, *changelog))
		if v := releasedVersion(string(text)); v != "" {
			fmt.Printf("apicompat: WARNING: %s has a section for %s, but this clone has no release tag: fetch the tags (git fetch --tags) for this check to compare\n", *changelog, v)
		}
		return nil
	}
	for _, m := range mods {
		if t, ok := last[m.Mod.Module]; ok {
			fmt.Printf("apicompat: %s against %s\n", m.Mod.Module, t)
		} else {
			fmt.Printf("apicompat: %s has no release tag yet; nothing to compare\n", m.Mod.Module)
		}
	}
	changes, err := apiChanges(*repo, mods, last)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		fmt.Println("apicompat: no incompatible change")
		return nil
	}
	text, err := os.ReadFile(filepath.Join(*repo, *changelog))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	unreleased := unreleasedSection(string(text))
	var missing []apiChange
	for _, c := range changes {
		note := "named in " + *changelog
		if !mentions(unreleased, c.Name) {
			note = "NOT named in " + *changelog + "'s ## [Unreleased] section"
			missing = append(missing, c)
		}
		fmt.Printf("apicompat: incompatible: %s  [%s: %s]\n", c, c.Name, note)
	}
	if len(missing) > 0 {
		var names []string
		for _, c := range missing {
			names = append(names, c.Name)
		}
		slices.Sort(names)
		return fmt.Errorf("apicompat: %d incompatible change(s) not named in %s under ## [Unreleased]: %s (a line naming each, for example \"- Changed: `%s` ...\")",
			len(missing), *changelog, strings.Join(slices.Compact(names), ", "), missing[0].Name)
	}
	fmt.Printf("apicompat: %d incompatible change(s), each named in %s\n", len(changes), *changelog)
	return nil
}

// lastTags returns, for each module that has one, its highest release tag:
// vX.Y.Z[-pre] for the root module, DIR/vX.Y.Z[-pre] for the module in DIR.
func lastTags(mods []repoModule, tags []string) map[string]string {
	last := map[string]string{}
	for _, m := range mods {
		prefix := m.Dir + "/"
		if m.Dir == "." {
			prefix = ""
		}
		best := ""
		for _, t := range tags {
			v, ok := strings.CutPrefix(t, prefix)
			if !ok || strings.Contains(v, "/") || !canonicalVersion(v) {
				continue
			}
			if best == "" || compareSemver(v, strings.TrimPrefix(best, prefix)) > 0 {
				best = t
			}
		}
		if best != "" {
			last[m.Mod.Module] = best
		}
	}
	return last
}

// goldenFile is one api/*.txt: the package it lists and its lines.
type goldenFile struct {
	Package, Name string // import path, package name
	Lines         []string
}

// parseGolden reads a golden file: a header "# <import path> (package
// <name>): ..." and one line per exported item.
func parseGolden(file, text string) (goldenFile, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var g goldenFile
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "# ") {
		return g, fmt.Errorf("apicompat: %s: no header line", file)
	}
	f := strings.Fields(lines[0])
	if len(f) < 4 || f[2] != "(package" {
		return g, fmt.Errorf("apicompat: %s: header %q is not \"# <import path> (package <name>): ...\"", file, lines[0])
	}
	g.Package, g.Name = f[1], strings.TrimRight(f[3], "):")
	for _, l := range lines[1:] {
		if l != "" && !strings.HasPrefix(l, "#") {
			g.Lines = append(g.Lines, l)
		}
	}
	return g, nil
}

// apiChanges lists the incompatible changes of every package of a tagged
// module between its tag's golden files and the work tree's.
func apiChanges(repo string, mods []repoModule, last map[string]string) ([]apiChange, error) {
	head, err := goldenAt(repo, "")
	if err != nil {
		return nil, err
	}
	var changes []apiChange
	byTag := map[string][]string{} // tag -> modules tagged by it
	for mod, tag := range last {
		byTag[tag] = append(byTag[tag], mod)
	}
	for _, tag := range sortedKeys(byTag) {
		old, err := goldenAt(repo, tag)
		if err != nil {
			return nil, err
		}
		for _, pkg := range sortedKeys(old) {
			mod := moduleOf(mods, pkg)
			if !slices.Contains(byTag[tag], mod) {
				continue
			}
			was := old[pkg]
			now, ok := head[pkg]
			if !ok {
				changes = append(changes, apiChange{Module: mod, Tag: tag, Package: pkg, Line: "package " + pkg, Name: pkg})
				continue
			}
			changes = append(changes, diffGolden(mod, tag, was, now)...)
		}
	}
	return changes, nil
}

// diffGolden returns the incompatible changes from was to now.
// A removed type's members are named by the type.
func diffGolden(mod, tag string, was, now goldenFile) []apiChange {
	var out []apiChange
	var removed []string
	goneTypes := map[string]bool{}
	for _, l := range was.Lines {
		if slices.Contains(now.Lines, l) {
			continue
		}
		removed = append(removed, l)
		if strings.HasPrefix(l, "type ") && !strings.Contains(l, ", ") {
			goneTypes[apiName(l)] = true
		}
	}
	for _, l := range removed {
		name := apiName(l)
		if t, _, ok := strings.Cut(name, "."); ok && goneTypes[t] {
			name = t
		}
		out = append(out, apiChange{Module: mod, Tag: tag, Package: was.Package, Line: l, Name: was.Name + "." + name})
	}
	for _, l := range now.Lines {
		if slices.Contains(was.Lines, l) {
			continue
		}
		// "type T interface, M(...)" or "type T interface, embedded E"
		// on an interface T the tag has.
		head, _, member := strings.Cut(l, ", ")
		if member && strings.HasSuffix(head, " interface") && slices.Contains(was.Lines, head) {
			out = append(out, apiChange{Module: mod, Tag: tag, Package: now.Package, Line: l, Added: true, Name: now.Name + "." + apiName(l)})
		}
	}
	return out
}

// apiName is the name a golden line declares, as CHANGELOG.md writes it:
// Name for a function, constant, variable or type; Type.Member for a
// method, a field or an interface method (Type.Embedded for an embedded
// type).
func apiName(line string) string {
	kind, rest, _ := strings.Cut(line, " ")
	switch kind {
	case "method": // method (*T[K]) M(...) ...
		recv, after, _ := strings.Cut(strings.TrimPrefix(rest, "("), ") ")
		recv = strings.TrimPrefix(strings.TrimSpace(recv), "*")
		if i := strings.LastIndex(recv, " "); i >= 0 { // a named receiver
			recv = strings.TrimPrefix(recv[i+1:], "*")
		}
		return ident(recv) + "." + ident(after)
	case "type":
		name := ident(rest)
		if _, member, ok := strings.Cut(rest, ", "); ok {
			member = strings.TrimPrefix(member, "embedded ")
			member = strings.TrimPrefix(member, "*")
			if i := strings.LastIndex(ident(member), "."); i >= 0 { // embedded pkg.T
				return name + "." + ident(member)[i+1:]
			}
			return name + "." + ident(member)
		}
		return name
	default: // func, const, var
		return ident(rest)
	}
}

// ident returns the leading identifier of s (letters, digits, _ and, for a
// qualified embedded type, dots).
func ident(s string) string {
	for i, r := range s {
		if !(r == '_' || r == '.' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r > 0x7f) {
			return s[:i]
		}
	}
	return s
}

// goldenAt reads api/*.txt at a tag ("" for the work tree), by import path.
func goldenAt(repo, tag string) (map[string]goldenFile, error) {
	var names []string
	var read func(name string) (string, error)
	if tag == "" {
		matches, err := filepath.Glob(filepath.Join(repo, "api", "*.txt"))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			names = append(names, "api/"+filepath.Base(m))
		}
		read = func(name string) (string, error) {
			b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(name)))
			return string(b), err
		}
	} else {
		out, err := gitOutput(repo, "ls-tree", "--name-only", tag+":api/")
		if err != nil {
			return nil, fmt.Errorf("apicompat: %s has no api/ directory: %w", tag, err)
		}
		for _, n := range strings.Fields(out) {
			if strings.HasSuffix(n, ".txt") {
				names = append(names, "api/"+n)
			}
		}
		read = func(name string) (string, error) { return gitOutput(repo, "show", tag+":"+name) }
	}
	golden := map[string]goldenFile{}
	for _, name := range names {
		text, err := read(name)
		if err != nil {
			return nil, err
		}
		g, err := parseGolden(name, text)
		if err != nil {
			return nil, err
		}
		golden[g.Package] = g
	}
	return golden, nil
}

// moduleOf returns the module of the longest path that prefixes pkg.
func moduleOf(mods []repoModule, pkg string) string {
	best := ""
	for _, m := range mods {
		p := m.Mod.Module
		if (pkg == p || strings.HasPrefix(pkg, p+"/")) && len(p) > len(best) {
			best = p
		}
	}
	return best
}

// unreleasedSection returns the lines of the "## [Unreleased]" section of
// a Keep a Changelog file, up to the next "## " heading.
func unreleasedSection(text string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "## ") {
			in = strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(l, "## ")), "[Unreleased]")
			continue
		}
		if in {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// releasedVersion returns the first released version a Keep a Changelog
// file has a section for ("## [0.1.0] - date"), or "".
func releasedVersion(text string) string {
	for _, l := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(l, "## [")
		if !ok {
			continue
		}
		v, _, ok := strings.Cut(rest, "]")
		if ok && canonicalVersion("v"+strings.TrimPrefix(v, "v")) {
			return v
		}
	}
	return ""
}

// mentions reports whether text names name as a whole: not part of a
// longer identifier or dotted name on either side.
func mentions(text, name string) bool {
	isIdent := func(b byte) bool {
		return b == '_' || b == '.' || b == '/' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		before := start == 0 || !isIdent(text[start-1])
		after := end == len(text) || !isIdent(text[end]) || text[end] == '.' && (end+1 == len(text) || !isIdent(text[end+1]))
		if before && after {
			return true
		}
		i = start + 1
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func gitOutput(repo string, args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), exitDetail(err))
	}
	return string(out), nil
}
