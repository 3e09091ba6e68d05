package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The Go vulnerability database's v1 layout (go.dev/security/vuln/database,
// read by golang.org/x/vuln's client from a file:// URL):
//
//	index/db.json       {"modified": time}: the newest entry's modified time
//	index/modules.json  [{"path", "vulns": [{"id", "modified", "fixed"}]}], by path, vulns by ID
//	ID/<id>.json        the OSV entry
//
// "fixed" is the module's latest fix that no later introduction supersedes,
// without a "v"; the client reads it to skip entries a version is past.

// osvEntry is the part of an OSV report the index needs.
type osvEntry struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
	Affected []struct {
		Package struct {
			Name string `json:"name"`
		} `json:"package"`
		Ranges []osvRange `json:"ranges"`
	} `json:"affected"`
}

type osvRange struct {
	Type   string `json:"type"`
	Events []struct {
		Introduced string `json:"introduced,omitempty"`
		Fixed      string `json:"fixed,omitempty"`
	} `json:"events"`
}

type dbMeta struct {
	Modified time.Time `json:"modified"`
}

type moduleMeta struct {
	Path  string       `json:"path"`
	Vulns []moduleVuln `json:"vulns"`
}

type moduleVuln struct {
	ID       string    `json:"id"`
	Modified time.Time `json:"modified"`
	Fixed    string    `json:"fixed,omitempty"`
}

func runVulndb(args []string) error {
	fs := flag.NewFlagSet("vulndb", flag.ContinueOnError)
	src := fs.String("src", "", "a directory of OSV reports, <ID>.json (golang.org/x/vulndb's data/osv)")
	out := fs.String("out", "", "the database directory to write (govulncheck -db file://DIR)")
	modified := fs.String("modified", "", "RFC 3339 time for index/db.json when no report carries one (the reports in golang.org/x/vulndb's repository have none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *src == "" || *out == "" || fs.NArg() != 0 {
		return errors.New("usage: releasetool vulndb -src OSVDIR -out DIR [-modified TIME]")
	}
	var floor time.Time
	if *modified != "" {
		t, err := time.Parse(time.RFC3339, *modified)
		if err != nil {
			return fmt.Errorf("vulndb: -modified: %w", err)
		}
		floor = t
	}
	n, mods, err := buildVulnDB(*src, *out, floor)
	if err != nil {
		return err
	}
	fmt.Printf("vulndb: %d reports on %d modules in %s\n", n, mods, *out)
	return nil
}

// buildVulnDB writes the v1 layout under out from the OSV reports in src
// and returns the number of reports and of modules. It refuses a report it
// cannot read or whose file is not named after its ID, as the client
// does. db.json's time is the newest report's, or floor if later.
func buildVulnDB(src, out string, floor time.Time) (reports, modules int, err error) {
	names, err := filepath.Glob(filepath.Join(src, "*.json"))
	if err != nil {
		return 0, 0, err
	}
	if len(names) == 0 {
		return 0, 0, fmt.Errorf("vulndb: no OSV reports (*.json) in %s", src)
	}
	if err := os.MkdirAll(filepath.Join(out, "ID"), 0o755); err != nil {
		return 0, 0, err
	}
	if err := os.MkdirAll(filepath.Join(out, "index"), 0o755); err != nil {
		return 0, 0, err
	}
	db := dbMeta{Modified: floor}
	index := map[string]*moduleMeta{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return 0, 0, err
		}
		var e osvEntry
		if err := json.Unmarshal(data, &e); err != nil {
			return 0, 0, fmt.Errorf("vulndb: %s: %w", name, err)
		}
		if e.ID == "" || filepath.Base(name) != e.ID+".json" {
			return 0, 0, fmt.Errorf("vulndb: %s: the report's id is %q; reports are named <id>.json", name, e.ID)
		}
		if e.Modified.After(db.Modified) {
			db.Modified = e.Modified
		}
		for _, a := range e.Affected {
			m := index[a.Package.Name]
			if m == nil {
				m = &moduleMeta{Path: a.Package.Name, Vulns: []moduleVuln{}}
				index[a.Package.Name] = m
			}
			m.Vulns = append(m.Vulns, moduleVuln{ID: e.ID, Modified: e.Modified, Fixed: latestFix(a.Ranges)})
		}
		if err := os.WriteFile(filepath.Join(out, "ID", e.ID+".json"), data, 0o644); err != nil {
			return 0, 0, err
		}
	}
	metas := make([]*moduleMeta, 0, len(index))
	for _, m := range index {
		slices.SortStableFunc(m.Vulns, func(a, b moduleVuln) int { return strings.Compare(a.ID, b.ID) })
		metas = append(metas, m)
	}
	slices.SortFunc(metas, func(a, b *moduleMeta) int { return strings.Compare(a.Path, b.Path) })
	if err := writeJSON(filepath.Join(out, "index", "modules.json"), metas); err != nil {
		return 0, 0, err
	}
	if err := writeJSON(filepath.Join(out, "index", "db.json"), db); err != nil {
		return 0, 0, err
	}
	return len(names), len(metas), nil
}

// latestFix returns the highest fixed version of the SEMVER ranges, or ""
// if a range introduces the vulnerability again after it (no fix then
// covers the latest versions) or nothing is fixed.
func latestFix(ranges []osvRange) string {
	fixed := ""
	for _, r := range ranges {
		if r.Type != "SEMVER" {
			continue
		}
		for _, e := range r.Events {
			if e.Fixed != "" && compareSemver(fixed, e.Fixed) < 0 {
				fixed = e.Fixed
			}
		}
		for _, e := range r.Events {
			if e.Introduced != "" && e.Introduced != "0" && compareSemver(fixed, e.Introduced) < 0 {
				fixed = ""
				break
			}
		}
	}
	return fixed
}

func writeJSON(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}
