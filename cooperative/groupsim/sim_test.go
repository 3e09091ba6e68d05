package groupsim_test

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/cooperative/groupsim"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of the scripts in testdata/")

// factories are the assignors the scripts may name.
func factories() map[string]groupsim.Factory {
	return map[string]groupsim.Factory{
		"roundrobin":             roundrobin.New,
		"cooperative-roundrobin": func() assignor.Assignor { return cooperative.Wrap(roundrobin.New()) },
		"sticky":                 func() assignor.Assignor { return sticky.New() },
		"cooperative-sticky":     func() assignor.Assignor { return cooperative.Wrap(sticky.New()) },
	}
}

// block is one command of a script and its expected output; comments are
// the lines before it.
type block struct {
	comments []string
	command  string
	want     string
	line     int
}

func parseScript(t *testing.T, path string) (blocks []block, trailer []string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var pending []string
	n := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		n++
		return sc.Text(), true
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			pending = append(pending, line)
			continue
		}
		b := block{comments: pending, command: line, line: n}
		pending = nil
		if sep, ok := next(); !ok || sep != "----" {
			t.Fatalf("%s:%d: want ---- after %q", path, n, line)
		}
		var out strings.Builder
		for {
			l, ok := next()
			if !ok || l == "" {
				break
			}
			out.WriteString(l + "\n")
		}
		b.want = out.String()
		blocks = append(blocks, b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks, pending
}

// TestScripts runs every golden script in testdata/. A script fails on a
// malformed command, on output that differs from the expected one, and on
// any invariant violation (a FAILURE line), expected or not.
func TestScripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			blocks, trailer := parseScript(t, path)
			sim := groupsim.New(groupsim.Config{}, factories())
			var out strings.Builder
			for _, b := range blocks {
				got, err := sim.Exec(b.command)
				if err != nil {
					t.Fatalf("%s:%d: %v", path, b.line, err)
				}
				if strings.Contains(got, "FAILURE") {
					t.Errorf("%s:%d: %s: invariant violated:\n%s", path, b.line, b.command, got)
				}
				if !*rewrite && got != b.want {
					t.Errorf("%s:%d: %s\n got:\n%s\nwant:\n%s", path, b.line, b.command, got, b.want)
				}
				for _, c := range b.comments {
					out.WriteString(c + "\n")
				}
				out.WriteString(b.command + "\n----\n" + got + "\n")
			}
			for _, c := range trailer {
				out.WriteString(c + "\n")
			}
			if *rewrite {
				text := strings.TrimRight(out.String(), "\n") + "\n"
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
