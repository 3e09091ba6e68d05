package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAPIName(t *testing.T) {
	for line, want := range map[string]string{
		"func NewIndex(g Group) (*Index, error)":                   "NewIndex",
		"func Run[A Assignor](t *testing.T, newA func() A)":        "Run",
		"const Contested int32 = -2":                               "Contested",
		"var ErrNoName = errors.New(\"x\")":                        "ErrNoName",
		"method (*Index) Claims(m int32) []int32":                  "Index.Claims",
		"method (Plan) String() string":                            "Plan.String",
		"method (*Set[K]) Add(k K)":                                "Set.Add",
		"type Index struct":                                        "Index",
		"type Stats = rebalance.Stats":                             "Stats",
		"type Protocol int8":                                       "Protocol",
		"type Config struct, Logger *slog.Logger":                  "Config.Logger",
		"type Config struct, embedded Base":                        "Config.Base",
		"type Strategy interface, embedded sarama.BalanceStrategy": "Strategy.BalanceStrategy",
		"type Assignor interface, Assign(Group) (Plan, error)":     "Assignor.Assign",
		"type Balancer struct":                                     "Balancer",
	} {
		if got := apiName(line); got != want {
			t.Errorf("apiName(%q) = %q, want %q", line, got, want)
		}
	}
}

func golden(pkg, name string, lines ...string) goldenFile {
	return goldenFile{Package: pkg, Name: name, Lines: lines}
}

func TestDiffGolden(t *testing.T) {
	was := golden("example.com/rt/sticky", "sticky",
		"func New() *Assignor",
		"func Old() int",
		"type Assignor struct",
		"type Config struct",
		"type Config struct, Racks bool",
		"type Gone struct",
		"type Gone struct, F int",
		"method (*Gone) M()",
		"type Observer interface",
		"type Observer interface, Observe(int)",
	)
	now := golden("example.com/rt/sticky", "sticky",
		"func New() *Assignor",
		"func NewWithConfig(Config) *Assignor", // added: compatible
		"type Assignor struct",
		"type Config struct",
		"type Config struct, Racks string", // changed type
		"type Config struct, Weights bool", // added field: compatible
		"type Observer interface",
		"type Observer interface, Observe(int)",
		"type Observer interface, Flush() error", // added to an interface: incompatible
		"type Fresh interface",
		"type Fresh interface, F()", // a new interface: compatible
	)
	var got []string
	for _, c := range diffGolden("example.com/rt", "v0.1.0", was, now) {
		sign := "-"
		if c.Added {
			sign = "+"
		}
		got = append(got, sign+c.Name)
	}
	want := []string{"-sticky.Old", "-sticky.Config.Racks", "-sticky.Gone", "-sticky.Gone", "-sticky.Gone", "+sticky.Observer.Flush"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
}

func TestMentions(t *testing.T) {
	text := "- Changed: `sticky.Config.Racks` is a string.\n- Removed sticky.Old.\n- assignor.Index.PlanOf takes a FlatPlan\n"
	for name, want := range map[string]bool{
		"sticky.Config.Racks":   true,
		"sticky.Old":            true, // before a full stop
		"assignor.Index.PlanOf": true,
		"sticky.Config":         false, // only as part of a longer name
		"sticky.O":              false,
		"Config.Racks":          false, // unqualified
		"assignor.Index":        false,
	} {
		if got := mentions(text, name); got != want {
			t.Errorf("mentions(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestUnreleasedSection(t *testing.T) {
	log := "# Changelog\n\n## [Unreleased]\n\n- Removed `sticky.Old`.\n\n## [0.1.0] - 2026-12-05\n\n- Added `sticky.New`.\n"
	got := unreleasedSection(log)
	if !strings.Contains(got, "sticky.Old") || strings.Contains(got, "sticky.New") {
		t.Errorf("unreleased section %q", got)
	}
}

func TestReleasedVersion(t *testing.T) {
	for text, want := range map[string]string{
		"# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2026-12-05\n": "0.1.0",
		"## [Unreleased]\n## [v1.2.0-rc.1]\n":                         "v1.2.0-rc.1",
		"## [Unreleased]\n\n- nothing yet\n":                          "",
	} {
		if got := releasedVersion(text); got != want {
			t.Errorf("releasedVersion(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestLastTags(t *testing.T) {
	mods := []repoModule{
		{Dir: ".", Mod: &modFile{Module: "example.com/rt"}},
		{Dir: "adapters/a", Mod: &modFile{Module: "example.com/rt/adapters/a"}},
		{Dir: "bench", Mod: &modFile{Module: "example.com/rt/bench"}},
	}
	tags := []string{"v0.1.0", "v0.10.0", "v0.9.0", "v1.0.0-rc.1", "adapters/a/v0.1.0", "adapters/a/v0.2.0-rc.1", "adapters/a/x/v9.0.0", "release-1", "bench"}
	got := lastTags(mods, tags)
	want := map[string]string{"example.com/rt": "v1.0.0-rc.1", "example.com/rt/adapters/a": "adapters/a/v0.2.0-rc.1"}
	if len(got) != len(want) || got["example.com/rt"] != want["example.com/rt"] || got["example.com/rt/adapters/a"] != want["example.com/rt/adapters/a"] {
		t.Errorf("last tags %v, want %v", got, want)
	}
}

// TestAPICompatAgainstTag: the whole check on a repository: nothing to do
// without a tag; an incompatible change after the tag fails until
// CHANGELOG.md's Unreleased section names it; a module with no tag is not
// compared.
func TestAPICompatAgainstTag(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	header := func(pkg, name string) string {
		return "# " + pkg + " (package " + name + "): generated by go test ./internal/apicheck -update; do not edit\n"
	}
	write("go.work", "go 1.26.0\n\nuse (\n\t.\n\t./adapters/a\n)\n")
	write("go.mod", "module example.com/rt\n")
	write("adapters/a/go.mod", "module example.com/rt/adapters/a\n")
	write("api/root.txt", header("example.com/rt", "rt")+"func New() int\nfunc Old() int\n")
	write("api/adapters.a.txt", header("example.com/rt/adapters/a", "a")+"func Wrap() int\n")
	write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n\n- First.\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "init")

	run := func() error { return runAPICompat([]string{"-repo", root}) }
	if err := run(); err != nil {
		t.Fatalf("no tag: %v", err)
	}

	git("tag", "-a", "-m", "v0.1.0", "v0.1.0")
	// The adapter's API changes too, but it has no tag: not compared.
	write("api/root.txt", header("example.com/rt", "rt")+"func New() int\nfunc Newer() int\n")
	write("api/adapters.a.txt", header("example.com/rt/adapters/a", "a")+"func Wrap(int) int\n")
	err := run()
	if err == nil || !strings.Contains(err.Error(), "rt.Old") || strings.Contains(err.Error(), "Wrap") {
		t.Fatalf("removed rt.Old, unnamed: error %v", err)
	}
	write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n- Removed: `rt.Old` (use `rt.Newer`).\n\n## [0.1.0]\n\n- First.\n")
	if err := run(); err != nil {
		t.Fatalf("removed rt.Old, named: %v", err)
	}
	// Named only under a released version: not enough.
	write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n\n- rt.Old\n")
	if err := run(); err == nil {
		t.Fatal("named only under 0.1.0: passed")
	}
}
