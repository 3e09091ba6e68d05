package main

import (
	"slices"
	"strings"
	"testing"
)

const adapterMod = `module example.com/rt/adapters/a

go 1.26.0

require example.com/rt v0.0.0 // the core

require (
	example.com/other v1.2.3
	example.com/rt/adapters/b v0.0.0
	example.com/rt/adapters/c v0.1.0
)

// The replaces stay: consumers ignore them.
replace (
	example.com/rt => ../..
	example.com/rt/adapters/b => ../b
)
`

func TestParseModFile(t *testing.T) {
	mf, err := parseModFile("go.mod", []byte(adapterMod))
	if err != nil {
		t.Fatal(err)
	}
	if mf.Module != "example.com/rt/adapters/a" || mf.Go != "1.26.0" {
		t.Errorf("module %q go %q", mf.Module, mf.Go)
	}
	var got []string
	for _, r := range mf.Requires {
		got = append(got, r.Path+"@"+r.Version)
	}
	want := []string{"example.com/rt@v0.0.0", "example.com/other@v1.2.3", "example.com/rt/adapters/b@v0.0.0", "example.com/rt/adapters/c@v0.1.0"}
	if !slices.Equal(got, want) {
		t.Errorf("requires %v, want %v", got, want)
	}

	for name, bad := range map[string]string{
		"no module line":        "go 1.26\n",
		"malformed require":     "module m\nrequire x\n",
		"malformed in block":    "module m\nrequire (\n\tx v1 extra\n)\n",
		"module with two words": "module a b\n",
	} {
		if _, err := parseModFile(name, []byte(bad)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

func TestRewriteRequires(t *testing.T) {
	paths := map[string]bool{"example.com/rt": true, "example.com/rt/adapters/b": true, "example.com/rt/adapters/c": true}
	out, n, err := rewriteRequires("go.mod", []byte(adapterMod), paths, "v0.0.0", "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("rewrote %d lines, want 2", n)
	}
	want := strings.NewReplacer(
		"require example.com/rt v0.0.0 // the core", "require example.com/rt v0.1.0 // the core",
		"example.com/rt/adapters/b v0.0.0", "example.com/rt/adapters/b v0.1.0",
	).Replace(adapterMod)
	if string(out) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", out, want)
	}
	// Idempotent: after the release commit there is nothing to rewrite.
	again, n, err := rewriteRequires("go.mod", out, paths, "v0.0.0", "v0.1.0")
	if err != nil || n != 0 || string(again) != string(out) {
		t.Errorf("second rewrite changed %d lines (err %v)", n, err)
	}
}

func TestGoWorkUses(t *testing.T) {
	work := "go 1.26.0\n\nuse (\n\t.\n\t./adapters/a // the adapter\n\t\"./bench\"\n)\n\nuse ./examples\n"
	got := goWorkUses([]byte(work))
	want := []string{".", "./adapters/a", "./bench", "./examples"}
	if !slices.Equal(got, want) {
		t.Errorf("uses %v, want %v", got, want)
	}
}
