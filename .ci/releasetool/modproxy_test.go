package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testRepo writes a git repository of a workspace like this one: a core
// module, an adapter that requires it at v0.0.0 through a replace, and an
// unpublished examples module; one file is left untracked.
func testRepo(t *testing.T, adapterPath string) string {
	t.Helper()
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/rt\n\ngo 1.24\n",
		"go.work": "go 1.26.0\n\nuse (\n\t.\n\t./adapters/a\n\t./examples\n)\n",
		"rt.go":   "package rt\n\nfunc Hello() string { return \"rt\" }\n",
		"adapters/a/go.mod": "module " + adapterPath + "\n\ngo 1.24\n\nrequire example.com/rt v0.0.0\n\n" +
			"// Consumers ignore this replace.\nreplace example.com/rt => ../..\n",
		"adapters/a/a.go":  "package a\n\nimport \"example.com/rt\"\n\nfunc Hello() string { return \"a+\" + rt.Hello() }\n",
		"examples/go.mod":  "module example.com/rt/examples\n\ngo 1.24\n",
		"examples/main.go": "package main\n\nfunc main() {}\n",
		"docs/guide.md":    "# guide\n",
	}
	entries(t, root, files)
	if err := os.WriteFile(filepath.Join(root, "untracked.go"), []byte("package rt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-11-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-01T10:00:00Z",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for p := range files {
		git("add", p)
	}
	git("commit", "-q", "-m", "init")
	return root
}

// goCmd runs the go command in dir, offline, against the proxy in
// proxyDir with a module cache of its own.
func goCmd(t *testing.T, dir, proxyDir, modCache string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(proxyDir)+",off", "GOSUMDB=off", "GOWORK=off",
		"GOMODCACHE="+modCache, "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestModproxyServesTheGoCommand: the go command downloads every module the
// proxy serves (and so accepts each zip: the same checks as for any
// download) and a consumer builds and runs against them.
func TestModproxyServesTheGoCommand(t *testing.T) {
	root := testRepo(t, "example.com/rt/adapters/a")
	out := t.TempDir()
	mods, err := buildProxy(proxyConfig{Repo: root, Version: "v0.1.0", Out: out, Skip: []string{"examples"}, Rewrite: true})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range mods {
		paths = append(paths, m.Path)
	}
	if want := []string{"example.com/rt", "example.com/rt/adapters/a"}; !slices.Equal(paths, want) {
		t.Fatalf("served %v, want %v (examples is not published)", paths, want)
	}

	// The core's zip: tracked files only, nested modules left out.
	zr, err := zip.OpenReader(mods[0].Zip)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	zr.Close()
	slices.Sort(names)
	want := []string{"example.com/rt@v0.1.0/docs/guide.md", "example.com/rt@v0.1.0/go.mod", "example.com/rt@v0.1.0/go.work", "example.com/rt@v0.1.0/rt.go"}
	if !slices.Equal(names, want) {
		t.Errorf("core zip holds %v, want %v", names, want)
	}

	// The adapter's .mod: its go.mod with the requirement rewritten, the
	// replace and comments kept.
	mod, err := os.ReadFile(filepath.Join(out, "example.com/rt/adapters/a/@v/v0.1.0.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "require example.com/rt v0.1.0\n") || !strings.Contains(string(mod), "replace example.com/rt => ../..") {
		t.Errorf("adapter .mod:\n%s", mod)
	}
	info, _ := os.ReadFile(filepath.Join(out, "example.com/rt/@v/v0.1.0.info"))
	if got := strings.TrimSpace(string(info)); got != `{"Version":"v0.1.0","Time":"2026-11-01T10:00:00Z"}` {
		t.Errorf(".info %s", got)
	}

	// A consumer outside the tree: go get at the version, build, run.
	user, cache := t.TempDir(), t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/user\n\ngo 1.24\n",
		"main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/rt/adapters/a\"\n)\n\nfunc main() { fmt.Println(a.Hello()) }\n",
	}
	entries(t, user, files)
	goCmd(t, user, out, cache, "get", "example.com/rt/adapters/a@v0.1.0")
	if got := goCmd(t, user, out, cache, "run", "."); got != "a+rt\n" {
		t.Errorf("the consumer printed %q, want \"a+rt\\n\"", got)
	}
	if got := goCmd(t, user, out, cache, "list", "-m", "all"); got != "example.com/user\nexample.com/rt v0.1.0\nexample.com/rt/adapters/a v0.1.0\n" {
		t.Errorf("the consumer's modules:\n%s", got)
	}

	// A second version in the same directory: list names both.
	if _, err := buildProxy(proxyConfig{Repo: root, Version: "v0.1.1", Out: out, Skip: []string{"examples"}, Rewrite: true}); err != nil {
		t.Fatal(err)
	}
	list, _ := os.ReadFile(filepath.Join(out, "example.com/rt/@v/list"))
	if string(list) != "v0.1.0\nv0.1.1\n" {
		t.Errorf("list %q", list)
	}
}

func TestModproxyRefuses(t *testing.T) {
	tests := []struct {
		name    string
		adapter string // the adapter's module path
		cfg     proxyConfig
		want    string
	}{
		{"a requirement the proxy does not serve", "example.com/rt/adapters/a",
			proxyConfig{Version: "v0.1.0"}, "requires example.com/rt v0.0.0, but this proxy serves v0.1.0 (before the release commit, -rewrite-requires"},
		{"a module path that is not its directory", "example.com/rt/a",
			proxyConfig{Version: "v0.1.0", Rewrite: true}, "the module in adapters/a is example.com/rt/a; a tag adapters/a/v0.1.0 would serve example.com/rt/adapters/a"},
		{"a version that is not canonical", "example.com/rt/adapters/a",
			proxyConfig{Version: "0.1.0", Rewrite: true}, "is not vMAJOR.MINOR.PATCH"},
		{"v2 without a /v2 path", "example.com/rt/adapters/a",
			proxyConfig{Version: "v2.0.0", Rewrite: true}, "needs the suffix /v2"},
	}
	t.Run("export-ignore in .gitattributes", func(t *testing.T) {
		root := testRepo(t, "example.com/rt/adapters/a")
		entries(t, root, map[string]string{".gitattributes": "docs/ export-ignore\n"})
		if out, err := exec.Command("git", "-C", root, "add", ".gitattributes").CombinedOutput(); err != nil {
			t.Fatalf("git add: %v\n%s", err, out)
		}
		_, err := buildProxy(proxyConfig{Repo: root, Version: "v0.1.0", Out: t.TempDir(), Skip: []string{"examples"}, Rewrite: true})
		if err == nil || !strings.Contains(err.Error(), ".gitattributes uses export-ignore") {
			t.Fatalf("error %v", err)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testRepo(t, tt.adapter)
			cfg := tt.cfg
			cfg.Repo, cfg.Out, cfg.Skip = root, t.TempDir(), []string{"examples"}
			_, err := buildProxy(cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
			if left, _ := os.ReadDir(cfg.Out); len(left) != 0 {
				t.Errorf("wrote %d entries before refusing", len(left))
			}
		})
	}
}
