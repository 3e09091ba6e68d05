package cli

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
)

func TestRunCommandLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substrings
		stderr string
	}{
		{name: "no command", args: nil, code: 2, stderr: "usage: assignor <command>"},
		{name: "help says read-only", args: []string{"help"}, code: 0, stdout: "never joins\nthe group and never commits offsets"},
		{name: "unknown command", args: []string{"explain"}, code: 2, stderr: `unknown command "explain"`},
		{name: "no brokers", args: []string{"describe", "-group", "g"}, code: 2, stderr: "-brokers is required (or -demo"},
		{name: "no group", args: []string{"watch", "-brokers", "h:1"}, code: 2, stderr: "-group is required"},
		{name: "no assignor", args: []string{"whatif", "-brokers", "h:1", "-group", "g"}, code: 2, stderr: "-assignor is required: one of sticky, cooperative-sticky"},
		{name: "unknown assignor", args: []string{"whatif", "-brokers", "h:1", "-group", "g", "-assignor", "range"}, code: 2, stderr: `unknown assignor "range"`},
		{name: "list", args: []string{"whatif", "-list"}, code: 0, stdout: "cooperative-weighted"},
		{name: "stray argument", args: []string{"describe", "-brokers", "h:1", "-group", "g", "extra"}, code: 2, stderr: "unexpected arguments"},
		{name: "flag help names the command's flags", args: []string{"watch", "-h"}, code: 2, stderr: "-interval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), tc.args, &out, &errb)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out.String())
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb.String())
			}
		})
	}
}

// TestRunNoSuchBroker: a port nobody listens on is an error saying what
// to check.
func TestRunNoSuchBroker(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"describe", "-brokers", addr, "-group", "g", "-timeout", "1s"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no broker answers at "+addr) || !strings.Contains(errb.String(), "check -brokers") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
