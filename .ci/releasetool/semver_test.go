package main

import "testing"

func TestCompareSemver(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"equal", "v1.2.3", "v1.2.3", 0},
		{"prefixes are ignored", "1.2.3", "go1.2.3", 0},
		{"numeric, not lexical", "v1.10.0", "v1.9.0", 1},
		{"patch", "v0.1.0", "v0.1.1", -1},
		{"a release after its prerelease", "v1.0.0", "v1.0.0-rc.1", 1},
		{"numeric prerelease identifiers numerically", "v1.0.0-rc.2", "v1.0.0-rc.10", -1},
		{"numeric before alphanumeric", "v1.0.0-1", "v1.0.0-alpha", -1},
		{"shorter prerelease first", "v1.0.0-alpha", "v1.0.0-alpha.1", -1},
		{"pseudo-versions by time", "0.0.0-20250721152936-fe86ceb2c3fa", "0.0.0-20260626085133-7cb96ac80a6d", -1},
		{"build suffix ignored", "v1.0.0+meta", "v1.0.0", 0},
		{"invalid before valid", "", "v0.0.1", -1},
		{"invalid equal to invalid", "x", "", 0},
		{"two numbers are not a version", "v1.2", "v1.2.0", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compareSemver(tt.a, tt.b); got != tt.want {
				t.Errorf("compareSemver(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := compareSemver(tt.b, tt.a); got != -tt.want {
				t.Errorf("compareSemver(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
			}
		})
	}
}

func TestCanonicalVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"v0.1.0":                             true,
		"v1.0.0-rc.1":                        true,
		"v0.0.0-20261105234957-e22db6528018": true,
		"0.1.0":                              false, // no v
		"v0.1":                               false,
		"v0.1.0+build":                       false,
		"v01.0.0":                            false, // leading zero
		"v1.0.0-01":                          false, // leading zero in a numeric prerelease identifier
		"v1.0.0-":                            false,
	} {
		if got := canonicalVersion(v); got != want {
			t.Errorf("canonicalVersion(%q) = %v, want %v", v, got, want)
		}
	}
}
