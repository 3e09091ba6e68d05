package main

import (
	"bytes"
	"fmt"
	"strings"
)

// modFile is what the release tooling needs of a go.mod file: its module
// path, its go line and its requirements. It is read line by line (the
// go.mod grammar is line-oriented); comments are dropped.
type modFile struct {
	Module   string
	Go       string
	Requires []requirement
}

// requirement is one require line: Line is its 0-based line number in the
// file, so that rewriteRequires can edit it in place.
type requirement struct {
	Path, Version string
	Line          int
}

// parseModFile reads a go.mod file. It reports a file with no module line
// and a require line it cannot read; directives it does not need (replace,
// exclude, toolchain, tool, godebug, retract) are skipped.
func parseModFile(name string, data []byte) (*modFile, error) {
	mf := &modFile{}
	block := "" // the directive of the open "(" block, if any
	for i, raw := range strings.Split(string(data), "\n") {
		line := raw
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if block != "" {
			if f[0] == ")" {
				block = ""
				continue
			}
			if block == "require" {
				r, err := readRequire(f, i)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
				}
				mf.Requires = append(mf.Requires, r)
			}
			continue
		}
		if len(f) == 2 && f[1] == "(" {
			block = f[0]
			continue
		}
		switch f[0] {
		case "module":
			if len(f) != 2 {
				return nil, fmt.Errorf("%s:%d: malformed module line", name, i+1)
			}
			mf.Module = strings.Trim(f[1], `"`)
		case "go":
			if len(f) != 2 {
				return nil, fmt.Errorf("%s:%d: malformed go line", name, i+1)
			}
			mf.Go = f[1]
		case "require":
			r, err := readRequire(f[1:], i)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
			}
			mf.Requires = append(mf.Requires, r)
		}
	}
	if mf.Module == "" {
		return nil, fmt.Errorf("%s: no module line", name)
	}
	return mf, nil
}

func readRequire(f []string, line int) (requirement, error) {
	if len(f) != 2 {
		return requirement{}, fmt.Errorf("malformed require line %q", strings.Join(f, " "))
	}
	return requirement{Path: strings.Trim(f[0], `"`), Version: f[1], Line: line}, nil
}

// rewriteRequires returns data with every requirement of a module in paths
// at version from set to version to, the rest of the file byte for byte as
// it was (comments, replace directives, layout). It reports how many lines
// it changed.
func rewriteRequires(name string, data []byte, paths map[string]bool, from, to string) ([]byte, int, error) {
	mf, err := parseModFile(name, data)
	if err != nil {
		return nil, 0, err
	}
	lines := bytes.Split(data, []byte("\n"))
	n := 0
	for _, r := range mf.Requires {
		if !paths[r.Path] || r.Version != from {
			continue
		}
		l := lines[r.Line]
		// The version is the first occurrence after the path on that line.
		p := bytes.Index(l, []byte(r.Path))
		v := -1
		if p >= 0 {
			v = bytes.Index(l[p+len(r.Path):], []byte(from))
		}
		if v < 0 {
			return nil, 0, fmt.Errorf("%s:%d: cannot find %s %s", name, r.Line+1, r.Path, from)
		}
		at := p + len(r.Path) + v
		lines[r.Line] = append(append(append([]byte{}, l[:at]...), to...), l[at+len(from):]...)
		n++
	}
	return bytes.Join(lines, []byte("\n")), n, nil
}

// goWorkUses returns the directories of a go.work file's use directives,
// as written (relative to the file's directory, "." for the root).
func goWorkUses(data []byte) []string {
	var dirs []string
	inUse := false
	for _, raw := range strings.Split(string(data), "\n") {
		line := raw
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case inUse && f[0] == ")":
			inUse = false
		case inUse:
			dirs = append(dirs, strings.Trim(f[0], `"`))
		case f[0] == "use" && len(f) == 2 && f[1] == "(":
			inUse = true
		case f[0] == "use" && len(f) == 2:
			dirs = append(dirs, strings.Trim(f[1], `"`))
		}
	}
	return dirs
}
