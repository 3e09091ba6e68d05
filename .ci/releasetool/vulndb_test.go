package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLatestFix(t *testing.T) {
	ranges := func(events ...string) []osvRange {
		var r osvRange
		r.Type = "SEMVER"
		for _, e := range events {
			kind, v, _ := strings.Cut(e, "=")
			var ev struct {
				Introduced string `json:"introduced,omitempty"`
				Fixed      string `json:"fixed,omitempty"`
			}
			if kind == "i" {
				ev.Introduced = v
			} else {
				ev.Fixed = v
			}
			r.Events = append(r.Events, ev)
		}
		return []osvRange{r}
	}
	tests := []struct {
		name   string
		ranges []osvRange
		want   string
	}{
		{"one fix", ranges("i=0", "f=0.17.0"), "0.17.0"},
		{"the latest of several fixes", ranges("i=0", "f=1.20.14", "i=1.21.0-0", "f=1.21.7"), "1.21.7"},
		{"reintroduced after the last fix", ranges("i=0", "f=1.2.0", "i=1.3.0"), ""},
		{"introduced, never fixed", ranges("i=1.0.0"), ""},
		{"pseudo-versions", ranges("i=0.0.0-20250721152936-fe86ceb2c3fa", "f=0.0.0-20260626085133-7cb96ac80a6d"), "0.0.0-20260626085133-7cb96ac80a6d"},
		{"no ranges", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := latestFix(tt.ranges); got != tt.want {
				t.Errorf("latestFix = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBuildVulnDB: the layout govulncheck's client reads from a file://
// URL, from reports as golang.org/x/vulndb commits them.
func TestBuildVulnDB(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	reports := map[string]string{
		"GO-2026-0002.json": `{"schema_version":"1.3.1","id":"GO-2026-0002","modified":"2026-03-01T00:00:00Z",
			"affected":[{"package":{"name":"golang.org/x/net","ecosystem":"Go"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"0.60.0"}]}]},
			            {"package":{"name":"stdlib","ecosystem":"Go"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"1.26.9"}]}]}]}`,
		"GO-2026-0001.json": `{"schema_version":"1.3.1","id":"GO-2026-0001","modified":"0001-01-01T00:00:00Z",
			"affected":[{"package":{"name":"golang.org/x/net","ecosystem":"Go"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0.5.0"}]}]}]}`,
		"notes.txt": "not a report",
	}
	for name, body := range reports {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, mods, err := buildVulnDB(src, out, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || mods != 2 {
		t.Errorf("%d reports on %d modules, want 2 on 2", n, mods)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := read("index/db.json"), `{"modified":"2026-03-01T00:00:00Z"}`; got != want {
		t.Errorf("db.json %s, want %s", got, want)
	}
	want := `[{"path":"golang.org/x/net","vulns":[{"id":"GO-2026-0001","modified":"0001-01-01T00:00:00Z"},{"id":"GO-2026-0002","modified":"2026-03-01T00:00:00Z","fixed":"0.60.0"}]},` +
		`{"path":"stdlib","vulns":[{"id":"GO-2026-0002","modified":"2026-03-01T00:00:00Z","fixed":"1.26.9"}]}]`
	if got := read("index/modules.json"); got != want {
		t.Errorf("modules.json\n%s\nwant\n%s", got, want)
	}
	if got := read("ID/GO-2026-0001.json"); got != reports["GO-2026-0001.json"] {
		t.Errorf("ID/GO-2026-0001.json is not the report as committed")
	}
	var v any
	if err := json.Unmarshal([]byte(read("index/modules.json")), &v); err != nil {
		t.Error(err)
	}
}

func TestBuildVulnDBRefuses(t *testing.T) {
	tests := []struct {
		name, file, body, want string
	}{
		{"a file not named after its id", "GO-2026-0001.json", `{"id":"GO-2026-0009"}`, `the report's id is "GO-2026-0009"`},
		{"not JSON", "GO-2026-0001.json", `{`, "GO-2026-0001.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := t.TempDir()
			if err := os.WriteFile(filepath.Join(src, tt.file), []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := buildVulnDB(src, t.TempDir(), time.Time{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
	if _, _, err := buildVulnDB(t.TempDir(), t.TempDir(), time.Time{}); err == nil || !strings.Contains(err.Error(), "no OSV reports") {
		t.Errorf("empty source: error %v", err)
	}
}
