package main

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The limits the go command enforces on a module zip (golang.org/x/mod/zip):
// 500 MiB for the zip and for its files' total size, 16 MiB for the go.mod
// and the LICENSE at the module's root. Variables so that tests can lower
// them.
var (
	maxModuleSize int64 = 500 << 20
	maxGoModSize  int64 = 16 << 20
	maxLicenseSz  int64 = 16 << 20
)

// zipEntry is one file of a module: Path is slash-separated and relative
// to the module's root; the content is Data if set, else the file at Src.
type zipEntry struct {
	Path string
	Src  string
	Data []byte
	size int64
}

// omission is a file left out of a module zip, and why (as the go command
// leaves it out: nested module, vendored package, symbolic link...).
type omission struct {
	Path, Why string
}

// selectFiles applies the go command's rules for module zips to the files
// of one module (paths relative to its root; Src set) and returns the files
// the zip holds, the files it leaves out, and an error listing every file
// that makes the module unpublishable: a path that is not clean or not
// relative, a character or element the go command refuses, a go.mod in the
// wrong case, two paths equal under case folding (or a path both a file
// and a directory), a go.mod or LICENSE over 16 MiB, more than 500 MiB in
// all. goVersion is the module's go line: from go 1.24 on, vendor/modules.txt
// is left out too.
func selectFiles(files []zipEntry, goVersion string) (kept []zipEntry, omitted []omission, err error) {
	var errs []error
	bad := func(p string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", p, fmt.Sprintf(format, args...)))
	}

	// Directories holding a go.mod (other than the root) are other
	// modules: everything under them is left out.
	nested := map[string]bool{}
	for _, f := range files {
		dir, base := path.Split(f.Path)
		if dir != "" && strings.EqualFold(base, "go.mod") {
			nested[strings.TrimSuffix(dir, "/")] = true
		}
	}
	inNested := func(p string) bool {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if nested[d] {
				return true
			}
		}
		return false
	}

	folded := map[string]string{} // case-folded path -> path, files and directories
	isDir := map[string]bool{}
	var total int64
	for _, f := range files {
		p := f.Path
		switch {
		case p == "" || p != path.Clean(p):
			bad(p, "path is not clean")
			continue
		case path.IsAbs(p) || strings.HasPrefix(p, "../"):
			bad(p, "path is not relative to the module root")
			continue
		case vendored(p, goVersion):
			omitted = append(omitted, omission{p, "vendored package"})
			continue
		case inNested(p):
			omitted = append(omitted, omission{p, "in a nested module"})
			continue
		case p == ".hg_archival.txt":
			omitted = append(omitted, omission{p, "hg archive file"})
			continue
		}
		if e := checkFilePath(p); e != nil {
			bad(p, "%v", e)
			continue
		}
		if strings.EqualFold(p, "go.mod") && p != "go.mod" {
			bad(p, "go.mod must be spelled go.mod")
			continue
		}
		if e := checkCollision(folded, isDir, p, false); e != nil {
			bad(p, "%v", e)
			continue
		}
		size := int64(len(f.Data))
		if f.Data == nil {
			info, e := os.Lstat(f.Src)
			if e != nil {
				bad(p, "%v", e)
				continue
			}
			if info.Mode()&fs.ModeSymlink != 0 {
				omitted = append(omitted, omission{p, "symbolic link"})
				continue
			}
			if !info.Mode().IsRegular() {
				omitted = append(omitted, omission{p, "not a regular file"})
				continue
			}
			size = info.Size()
		}
		total += size
		if p == "go.mod" && size > maxGoModSize {
			bad(p, "go.mod is %d bytes, over the limit of %d", size, maxGoModSize)
			continue
		}
		if p == "LICENSE" && size > maxLicenseSz {
			bad(p, "LICENSE is %d bytes, over the limit of %d", size, maxLicenseSz)
			continue
		}
		f.size = size
		kept = append(kept, f)
	}
	if total > maxModuleSize {
		errs = append(errs, fmt.Errorf("the module's files total %d bytes, over the limit of %d", total, maxModuleSize))
	}
	return kept, omitted, errors.Join(errs...)
}

// vendored reports whether p is in a vendored package, which the go command
// leaves out of module zips: a file in a subdirectory of a directory named
// vendor (vendor/a/x.go, pkg/vendor/a/x.go; not vendor/x.go), and from go
// 1.24 on vendor/modules.txt.
func vendored(p, goVersion string) bool {
	if p == "vendor/modules.txt" && goAtLeast(goVersion, 1, 24) {
		return true
	}
	var rest string
	switch {
	case strings.HasPrefix(p, "vendor/"):
		rest = strings.TrimPrefix(p, "vendor/")
	case strings.Contains(p, "/vendor/"):
		i := strings.Index(p, "/vendor/") + len("/vendor/")
		if !goAtLeast(goVersion, 1, 24) {
			// Before go 1.24 the go command skipped len("/vendor/")
			// bytes from the start of the path, not from the match
			// (golang.org/issue/37397); checksums of old modules keep
			// that.
			i = len("/vendor/")
		}
		rest = p[i:]
	default:
		return false
	}
	return strings.Contains(rest, "/")
}

// goAtLeast reports whether a go line (1.24, 1.24.0, 1.26rc1) is at least
// major.minor; an empty one (no go line) is older than everything.
func goAtLeast(goVersion string, major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(goVersion, "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}

// checkFilePath applies the go command's rule for file paths in module
// zips (golang.org/x/mod/module.CheckFilePath): valid UTF-8; no empty
// element, no element of dots only, none ending in a dot; letters, digits,
// spaces and !#$%&()+,-.=@[]^_{}~ only; no element (before its first dot)
// that Windows reserves (CON, NUL, COM1...).
func checkFilePath(p string) error {
	if !utf8.ValidString(p) {
		return errors.New("path is not valid UTF-8")
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == "" {
			return errors.New("empty path element")
		}
		if strings.Trim(elem, ".") == "" {
			return fmt.Errorf("invalid path element %q", elem)
		}
		if strings.HasSuffix(elem, ".") {
			return fmt.Errorf("path element %q ends in a dot", elem)
		}
		for _, r := range elem {
			if !fileNameRune(r) {
				return fmt.Errorf("character %q is not allowed in module file names", r)
			}
		}
		short, _, _ := strings.Cut(elem, ".")
		if slices.ContainsFunc(windowsReserved, func(w string) bool { return strings.EqualFold(w, short) }) {
			return fmt.Errorf("path element %q is reserved on Windows", elem)
		}
	}
	return nil
}

var windowsReserved = []string{
	"CON", "PRN", "AUX", "NUL",
	"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
	"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
}

func fileNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' ||
			strings.ContainsRune("!#$%&()+,-.=@[]^_{}~ ", r)
	}
	return unicode.IsLetter(r)
}

// checkCollision records p (a file, or a directory when dir) and its parent
// directories in folded and reports a path equal to another under Unicode
// case folding, or one that is both a file and a directory.
func checkCollision(folded map[string]string, isDir map[string]bool, p string, dir bool) error {
	key := fold(p)
	if other, ok := folded[key]; ok {
		switch {
		case other != p:
			return fmt.Errorf("case-insensitive file name collision with %q", other)
		case isDir[key] != dir:
			return errors.New("path is both a file and a directory")
		case !dir:
			return errors.New("file listed twice")
		}
	} else {
		folded[key], isDir[key] = p, dir
	}
	if parent := path.Dir(p); parent != "." {
		return checkCollision(folded, isDir, parent, true)
	}
	return nil
}

// fold maps each rune of s to the smallest rune of its case-folding orbit,
// so that fold(s) == fold(t) exactly when strings.EqualFold(s, t).
func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		b.WriteRune(min)
	}
	return b.String()
}

// writeZip writes the module zip of module modPath at version: each file
// under "modPath@version/", in the order given.
func writeZip(w io.Writer, modPath, version string, files []zipEntry) error {
	zw := zip.NewWriter(w)
	prefix := modPath + "@" + version + "/"
	for _, f := range files {
		out, err := zw.Create(prefix + f.Path)
		if err != nil {
			return err
		}
		if f.Data != nil {
			if _, err := out.Write(f.Data); err != nil {
				return err
			}
			continue
		}
		in, err := os.Open(filepath.FromSlash(f.Src))
		if err != nil {
			return err
		}
		n, err := io.Copy(out, in)
		in.Close()
		if err != nil {
			return err
		}
		if n != f.size {
			return fmt.Errorf("%s changed size while it was zipped (%d bytes, then %d)", f.Path, f.size, n)
		}
	}
	return zw.Close()
}
