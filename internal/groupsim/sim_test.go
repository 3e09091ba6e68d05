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
	"github.com/kgroup/assignor/internal/groupsim"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of the scripts in testdata/")

// factories are the assignors the scripts may name.
func factories() map[string]groupsim.Factory {
	return map[string]groupsim.Factory{
		"roundrobin":             func() assignor.Assignor { return roundrobin.New() },
		"cooperative-roundrobin": func() assignor.Assignor { return cooperative.Wrap(roundrobin.New()) },
		"sticky":                 func() assignor.Assignor { return sticky.New() },
		"cooperative-sticky":     func() assignor.Assignor { return cooperative.Wrap(sticky.New()) },
		"weighted":               func() assignor.Assignor { return weighted.New() },
		"cooperative-weighted":   func() assignor.Assignor { return cooperative.Wrap(weighted.New()) },
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
			t.Parallel() // each script has its own simulator
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

// TestExecErrors pins how a failed command reads: the package named once,
// the cause, then the line that failed.
func TestExecErrors(t *testing.T) {
	tests := []struct {
		name string
		line string
		want string
	}{
		{"an impossible command", "leave m9", `groupsim: member "m9" is not running: in "leave m9"`},
		{"an unknown command", "dance m0", `groupsim: unknown command: in "dance m0"`},
		{"a malformed argument", "run for=soon", `groupsim: bad duration for="soon": in "run for=soon"`},
		{"a failover needs a duration", "failover", `groupsim: failover needs a positive duration, got 0s: in "failover"`},
		{"a foreign cause comes last", "topic create t partitions=x", `groupsim: bad partitions: strconv.ParseInt: parsing "x": invalid syntax: in "topic create t partitions=x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim := groupsim.New(groupsim.Config{}, nil)
			_, err := sim.Exec(tt.line)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Exec(%q) = %v, want %s", tt.line, err, tt.want)
			}
		})
	}
}
