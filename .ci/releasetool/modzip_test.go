package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// entries writes each file under dir and returns the module's entries.
func entries(t *testing.T, dir string, files map[string]string) []zipEntry {
	t.Helper()
	var out []zipEntry
	for _, p := range slices.Sorted(mapKeys(files)) {
		src := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, zipEntry{Path: p, Src: src})
	}
	return out
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func keptPaths(kept []zipEntry) []string {
	var out []string
	for _, e := range kept {
		out = append(out, e.Path)
	}
	return out
}

// TestSelectFilesOmits: what the go command leaves out of a module zip
// is left out, the rest kept.
func TestSelectFilesOmits(t *testing.T) {
	dir := t.TempDir()
	files := entries(t, dir, map[string]string{
		"go.mod":                    "module example.com/m\n\ngo 1.24\n",
		"a.go":                      "package m\n",
		".ci/run":                   "#!/bin/sh\n",
		"sub/go.mod":                "module example.com/m/sub\n",
		"sub/x.go":                  "package sub\n",
		"sub/deeper/y.go":           "package deeper\n",
		"vendor/modules.txt":        "# vendored\n",
		"vendor/example.com/v/v.go": "package v\n",
		"pkg/vendor/vendor.go":      "package vendor\n", // a package named vendor, not vendored (go 1.24+)
		"pkg/vendor/lib/l.go":       "package lib\n",
		".hg_archival.txt":          "repo: x\n",
	})
	if err := os.Symlink("a.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	files = append(files, zipEntry{Path: "link.go", Src: filepath.Join(dir, "link.go")})

	kept, omitted, err := selectFiles(files, "1.24")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keptPaths(kept), []string{".ci/run", "a.go", "go.mod", "pkg/vendor/vendor.go"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	why := map[string]string{}
	for _, o := range omitted {
		why[o.Path] = o.Why
	}
	for p, w := range map[string]string{
		"sub/go.mod":                "in a nested module",
		"sub/deeper/y.go":           "in a nested module",
		"vendor/modules.txt":        "vendored package",
		"vendor/example.com/v/v.go": "vendored package",
		"pkg/vendor/lib/l.go":       "vendored package",
		".hg_archival.txt":          "hg archive file",
		"link.go":                   "symbolic link",
	} {
		if why[p] != w {
			t.Errorf("%s: left out for %q, want %q", p, why[p], w)
		}
	}

	// Before go 1.24, vendor/modules.txt stays and the go command's old
	// reading of "/vendor/" (golang.org/issue/37397) leaves out
	// pkg/vendor/vendor.go.
	kept, _, err = selectFiles(files, "1.23")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keptPaths(kept), []string{".ci/run", "a.go", "go.mod", "vendor/modules.txt"}; !slices.Equal(got, want) {
		t.Errorf("go 1.23: kept %v, want %v", got, want)
	}
}

// TestSelectFilesRefuses: each file the go command would refuse makes the
// module unpublishable, and the error names it.
func TestSelectFilesRefuses(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		bad   string // a path the error names
		why   string
	}{
		{"case-insensitive collision", map[string]string{"README.md": "", "readme.md": ""}, "readme.md", "collision"},
		{"file and directory under case folding", map[string]string{"Docs": "", "docs/a.md": ""}, "docs/a.md", "collision"},
		{"go.mod in the wrong case", map[string]string{"GO.MOD": ""}, "GO.MOD", "go.mod must be spelled go.mod"},
		{"shell character", map[string]string{"a*b.go": ""}, "a*b.go", "not allowed"},
		{"quote", map[string]string{`it's.txt`: ""}, `it's.txt`, "not allowed"},
		{"Windows reserved name", map[string]string{"aux.go": ""}, "aux.go", "reserved on Windows"},
		{"trailing dot", map[string]string{"dir./a.go": ""}, "dir./a.go", "ends in a dot"},
		{"not clean", map[string]string{"a/../b.go": ""}, "a/../b.go", "not clean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []zipEntry
			for p, c := range tt.files {
				files = append(files, zipEntry{Path: p, Data: []byte(c)})
			}
			slices.SortFunc(files, func(a, b zipEntry) int { return strings.Compare(a.Path, b.Path) })
			_, _, err := selectFiles(files, "1.26")
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.bad+":") || !strings.Contains(err.Error(), tt.why) {
				t.Errorf("error %q does not name %s (%s)", err, tt.bad, tt.why)
			}
		})
	}
}

func TestSelectFilesSizeLimits(t *testing.T) {
	defer func(m, g, l int64) { maxModuleSize, maxGoModSize, maxLicenseSz = m, g, l }(maxModuleSize, maxGoModSize, maxLicenseSz)
	maxModuleSize, maxGoModSize, maxLicenseSz = 100, 20, 30
	big := strings.Repeat("x", 25)
	tests := []struct {
		name  string
		files map[string]string
		want  string // "" for accepted
	}{
		{"within every limit", map[string]string{"go.mod": "module m", "LICENSE": big, "a": big}, ""},
		{"go.mod over its limit", map[string]string{"go.mod": big}, "go.mod is 25 bytes"},
		{"LICENSE over its limit", map[string]string{"LICENSE": big + big}, "LICENSE is 50 bytes"},
		{"a LICENSE elsewhere has no own limit", map[string]string{"sub/LICENSE": big + big}, ""},
		{"the module over its limit", map[string]string{"a": big + big, "b": big + big, "c": big}, "total 125 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []zipEntry
			for _, p := range slices.Sorted(mapKeys(tt.files)) {
				files = append(files, zipEntry{Path: p, Data: []byte(tt.files[p])})
			}
			_, _, err := selectFiles(files, "1.26")
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	for _, pair := range [][2]string{{"README", "readme"}, {"Straße", "STRASSE"}, {"K", "\u212a"}} {
		same := strings.EqualFold(pair[0], pair[1])
		if got := fold(pair[0]) == fold(pair[1]); got != same {
			t.Errorf("fold(%q) == fold(%q) is %v, strings.EqualFold says %v", pair[0], pair[1], got, same)
		}
	}
}
