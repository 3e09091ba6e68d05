package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// repoModule is one module of the repository's workspace.
type repoModule struct {
	Dir  string // slash-separated, relative to the repository root; "." for the root
	Mod  *modFile
	Data []byte // its go.mod as committed
}

// proxyConfig is what modproxy builds.
type proxyConfig struct {
	Repo    string   // the repository root (a git work tree)
	Version string   // the version every published module is served at
	Out     string   // the GOPROXY directory to write
	Skip    []string // workspace modules that are not published, by directory
	// Rewrite rewrites requirements of the repository's published modules
	// at v0.0.0 to Version in the go.mod served and zipped, to simulate a
	// release commit before it exists.
	Rewrite bool
}

// proxyModule is one module as served.
type proxyModule struct {
	Path      string
	Dir       string
	Files     int
	Omitted   []omission
	Zip       string
	Rewritten int // requirements served at the version instead of v0.0.0
}

func runModproxy(args []string) error {
	fs := flag.NewFlagSet("modproxy", flag.ContinueOnError)
	var cfg proxyConfig
	var skip string
	fs.StringVar(&cfg.Repo, "repo", ".", "the repository root")
	fs.StringVar(&cfg.Version, "version", "", "the version to serve every published module at (vX.Y.Z)")
	fs.StringVar(&cfg.Out, "out", "", "the GOPROXY directory to write (GOPROXY=file://DIR)")
	fs.StringVar(&skip, "skip", "examples", "comma-separated workspace module directories that are not published")
	fs.BoolVar(&cfg.Rewrite, "rewrite-requires", false, "serve requirements of this repository's modules at v0.0.0 as -version (simulates the release commit)")
	verbose := fs.Bool("v", false, "list the files each zip leaves out")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.Version == "" || cfg.Out == "" || fs.NArg() != 0 {
		return errors.New("usage: releasetool modproxy -version vX.Y.Z -out DIR [-repo DIR] [-rewrite-requires] [-skip dir,dir]")
	}
	if skip != "" {
		cfg.Skip = strings.Split(skip, ",")
	}
	mods, err := buildProxy(cfg)
	if err != nil {
		return err
	}
	for _, m := range mods {
		rewritten := ""
		if m.Rewritten > 0 {
			rewritten = fmt.Sprintf("; go.mod: %d requirement(s) at v0.0.0 served as %s (simulated release)", m.Rewritten, cfg.Version)
		}
		fmt.Printf("modproxy: %s@%s: %d files (%d left out) from %s%s\n", m.Path, cfg.Version, m.Files, len(m.Omitted), m.Dir, rewritten)
		if *verbose {
			for _, o := range m.Omitted {
				fmt.Printf("modproxy:   left out %s (%s)\n", o.Path, o.Why)
			}
		}
	}
	return nil
}

// buildProxy writes, for every published module of the repository's
// workspace, <escaped module path>/@v/{list, VERSION.info, VERSION.mod,
// VERSION.zip} under cfg.Out: the layout of a GOPROXY that the go command
// reads as GOPROXY=file://<Out>. A zip holds the module's tracked files
// (git ls-files, content as in the work tree) under "<module>@<version>/",
// less nested modules and what the go command leaves out; the .mod is the
// module's go.mod as it is (replace directives and all: a consumer ignores
// them), with requirements rewritten only if cfg.Rewrite. Versions already
// listed in Out are kept in list.
//
// It refuses a version that is not canonical semver, a module whose path
// does not match its directory (Go's rule for modules in subdirectories,
// which tags rely on), a major version the path does not carry, and a
// published module that requires another at a version this proxy does not
// serve.
func buildProxy(cfg proxyConfig) ([]proxyModule, error) {
	if !canonicalVersion(cfg.Version) {
		return nil, fmt.Errorf("modproxy: version %q is not vMAJOR.MINOR.PATCH[-prerelease]", cfg.Version)
	}
	root, err := filepath.Abs(cfg.Repo)
	if err != nil {
		return nil, err
	}
	tracked, err := gitLsFiles(root)
	if err != nil {
		return nil, err
	}
	// The go command builds a module zip from a tag with git archive,
	// which applies export-ignore and export-subst from .gitattributes;
	// this tool does not, so it refuses a tree that uses them rather than
	// serve different files.
	for _, t := range tracked {
		if path.Base(t) != ".gitattributes" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(t)))
		if err != nil {
			return nil, err
		}
		if bytes.Contains(data, []byte("export-ignore")) || bytes.Contains(data, []byte("export-subst")) {
			return nil, fmt.Errorf("modproxy: %s uses export-ignore or export-subst, which git archive (and so the go command) applies and this tool does not", t)
		}
	}
	mods, err := workspaceModules(root, cfg.Skip)
	if err != nil {
		return nil, err
	}
	published := map[string]bool{}
	for _, m := range mods {
		published[m.Mod.Module] = true
	}
	rootPath := ""
	for _, m := range mods {
		if m.Dir == "." {
			rootPath = m.Mod.Module
		}
	}
	commitTime, err := gitCommitTime(root)
	if err != nil {
		return nil, err
	}

	// Check and select every module's files before writing anything.
	type plan struct {
		m     repoModule
		gomod []byte
		kept  []zipEntry
		left  []omission
		n     int // requirements rewritten
	}
	var plans []plan
	for _, m := range mods {
		if err := checkModulePath(m, rootPath, cfg.Version); err != nil {
			return nil, err
		}
		gomod, rewritten := m.Data, 0
		if cfg.Rewrite {
			if gomod, rewritten, err = rewriteRequires(m.Dir+"/go.mod", gomod, published, "v0.0.0", cfg.Version); err != nil {
				return nil, err
			}
		}
		served, err := parseModFile(m.Dir+"/go.mod", gomod)
		if err != nil {
			return nil, err
		}
		for _, r := range served.Requires {
			if published[r.Path] && r.Version != cfg.Version {
				hint := ""
				if r.Version == "v0.0.0" && !cfg.Rewrite {
					hint = " (before the release commit, -rewrite-requires serves it as " + cfg.Version + ")"
				}
				return nil, fmt.Errorf("modproxy: %s/go.mod requires %s %s, but this proxy serves %s%s", m.Dir, r.Path, r.Version, cfg.Version, hint)
			}
		}

		var files []zipEntry
		prefix := m.Dir + "/"
		if m.Dir == "." {
			prefix = ""
		}
		for _, t := range tracked {
			rel, ok := strings.CutPrefix(t, prefix)
			if !ok {
				continue
			}
			e := zipEntry{Path: rel, Src: filepath.Join(root, filepath.FromSlash(t))}
			if rel == "go.mod" {
				e.Data = gomod
			}
			files = append(files, e)
		}
		kept, omitted, err := selectFiles(files, served.Go)
		if err != nil {
			return nil, fmt.Errorf("modproxy: %s cannot be published:\n%w", m.Mod.Module, err)
		}
		if !slices.ContainsFunc(kept, func(e zipEntry) bool { return e.Path == "go.mod" }) {
			return nil, fmt.Errorf("modproxy: %s: go.mod is not tracked by git", m.Dir)
		}
		plans = append(plans, plan{m, gomod, kept, omitted, rewritten})
	}
	var out []proxyModule
	for _, p := range plans {
		zipPath, err := writeVersion(cfg.Out, p.m.Mod.Module, cfg.Version, commitTime, p.gomod, p.kept)
		if err != nil {
			return nil, err
		}
		out = append(out, proxyModule{Path: p.m.Mod.Module, Dir: p.m.Dir, Files: len(p.kept), Omitted: p.left, Zip: zipPath, Rewritten: p.n})
	}
	return out, nil
}

// workspaceModules reads go.work at root and returns its modules but those
// whose directory is in skip, in go.work's order.
func workspaceModules(root string, skip []string) ([]repoModule, error) {
	work, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		return nil, fmt.Errorf("modproxy: %w", err)
	}
	var mods []repoModule
	for _, d := range goWorkUses(work) {
		dir := path.Clean(filepath.ToSlash(d))
		if slices.Contains(skip, dir) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("modproxy: %w", err)
		}
		mf, err := parseModFile(dir+"/go.mod", data)
		if err != nil {
			return nil, fmt.Errorf("modproxy: %w", err)
		}
		mods = append(mods, repoModule{Dir: dir, Mod: mf, Data: data})
	}
	if len(mods) == 0 {
		return nil, errors.New("modproxy: go.work lists no published module")
	}
	return mods, nil
}

// checkModulePath checks that a module in a subdirectory has the root
// module's path plus that directory (so that the tag DIR/vX.Y.Z serves it),
// and that the path carries version's major version from v2 on.
func checkModulePath(m repoModule, rootPath, version string) error {
	p := m.Mod.Module
	base, major := splitMajor(p)
	switch mj := majorOf(version); {
	case major == "" && mj != "0" && mj != "1":
		return fmt.Errorf("modproxy: %s at %s needs the suffix /v%s on its module path", p, version, mj)
	case major != "" && major != mj:
		return fmt.Errorf("modproxy: %s is major version v%s, not %s", p, major, version)
	}
	if m.Dir == "." || rootPath == "" {
		return nil
	}
	rootBase, _ := splitMajor(rootPath)
	if want := rootBase + "/" + m.Dir; base != want {
		return fmt.Errorf("modproxy: the module in %s is %s; a tag %s/%s would serve %s", m.Dir, p, m.Dir, version, want)
	}
	return nil
}

// splitMajor splits a module path into its path without a major version
// suffix and that suffix's number ("" for none: v0 or v1).
func splitMajor(p string) (base, major string) {
	if i := strings.LastIndex(p, "/v"); i >= 0 {
		if n, err := strconv.Atoi(p[i+2:]); err == nil && n >= 2 && strconv.Itoa(n) == p[i+2:] {
			return p[:i], p[i+2:]
		}
	}
	return p, ""
}

// writeVersion writes one module version into the proxy directory and
// returns the zip's path.
func writeVersion(out, modPath, version string, t time.Time, gomod []byte, files []zipEntry) (string, error) {
	esc, err := escapePath(modPath)
	if err != nil {
		return "", err
	}
	escVer, err := escapePath(version)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(out, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, t.UTC()})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, escVer+".info"), append(info, '\n'), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, escVer+".mod"), gomod, 0o644); err != nil {
		return "", err
	}
	var zbuf bytes.Buffer
	if err := writeZip(&zbuf, modPath, version, files); err != nil {
		return "", fmt.Errorf("modproxy: %s: %w", modPath, err)
	}
	if int64(zbuf.Len()) > maxModuleSize {
		return "", fmt.Errorf("modproxy: %s: the zip is %d bytes, over the limit of %d", modPath, zbuf.Len(), maxModuleSize)
	}
	zipPath := filepath.Join(dir, escVer+".zip")
	if err := os.WriteFile(zipPath, zbuf.Bytes(), 0o644); err != nil {
		return "", err
	}
	// list: every version served, one a line, in semver order.
	versions := []string{version}
	if old, err := os.ReadFile(filepath.Join(dir, "list")); err == nil {
		versions = append(versions, strings.Fields(string(old))...)
	}
	slices.SortFunc(versions, compareSemver)
	versions = slices.Compact(versions)
	return zipPath, os.WriteFile(filepath.Join(dir, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}

// escapePath escapes a module path or version for a proxy's URL and file
// names as the go command does: each upper-case letter becomes "!" and its
// lower case.
func escapePath(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '!' || r >= 0x80:
			return "", fmt.Errorf("modproxy: cannot escape %q", s)
		case unicode.IsUpper(r):
			b.WriteByte('!')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}

// gitLsFiles lists the files git tracks under root, slash-separated.
func gitLsFiles(root string) ([]string, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("modproxy: git ls-files in %s: %w", root, exitDetail(err))
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// gitCommitTime is HEAD's committer time: the time the proxy's .info files
// give every version (proxy.golang.org gives a tag's commit time).
func gitCommitTime(root string) (time.Time, error) {
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%ct", "HEAD").Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("modproxy: git log in %s: %w", root, exitDetail(err))
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("modproxy: HEAD's commit time %q: %w", out, err)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// exitDetail adds a failed command's standard error to its error.
func exitDetail(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return err
}
