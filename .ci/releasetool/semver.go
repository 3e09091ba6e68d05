package main

import (
	"strings"
)

// semver is a parsed semantic version (semver.org 2.0.0) as Go modules
// write it: vMAJOR.MINOR.PATCH, an optional -prerelease and an optional
// build suffix after a plus sign (ignored in comparisons).
type semver struct {
	major, minor, patch string // decimal, no leading zeros
	pre                 string
	build               string
}

// parseSemver parses v, which may start with "v" or "go" or neither (the
// vulnerability database writes versions without a prefix). Unlike Go's
// module versions, it requires all three numbers.
func parseSemver(v string) (semver, bool) {
	v = strings.TrimPrefix(v, "v")
	v = strings.TrimPrefix(v, "go")
	var s semver
	if i := strings.IndexByte(v, '+'); i >= 0 {
		s.build, v = v[i+1:], v[:i]
		if !dotted(s.build, false) {
			return semver{}, false
		}
	}
	if i := strings.IndexByte(v, '-'); i >= 0 {
		s.pre, v = v[i+1:], v[:i]
		if !dotted(s.pre, true) {
			return semver{}, false
		}
	}
	nums := strings.Split(v, ".")
	if len(nums) != 3 {
		return semver{}, false
	}
	for _, n := range nums {
		if !isNum(n) || len(n) > 1 && n[0] == '0' {
			return semver{}, false
		}
	}
	s.major, s.minor, s.patch = nums[0], nums[1], nums[2]
	return s, true
}

// canonicalVersion reports whether v is a version a module may be tagged
// and served at: vX.Y.Z or vX.Y.Z-pre, no build suffix.
func canonicalVersion(v string) bool {
	s, ok := parseSemver(v)
	return ok && strings.HasPrefix(v, "v") && s.build == ""
}

// dotted reports whether s is a dot-separated list of non-empty
// identifiers of [0-9A-Za-z-]; in a prerelease, numeric identifiers have no
// leading zero.
func dotted(s string, pre bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		for _, r := range id {
			if !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '-') {
				return false
			}
		}
		if pre && isNum(id) && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}

func isNum(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// compareSemver orders a and b by semver precedence: -1, 0 or +1. As Go's
// golang.org/x/mod/semver does, an invalid version sorts before every valid
// one, and invalid versions are equal to each other.
func compareSemver(a, b string) int {
	sa, okA := parseSemver(a)
	sb, okB := parseSemver(b)
	switch {
	case !okA && !okB:
		return 0
	case !okA:
		return -1
	case !okB:
		return 1
	}
	if c := compareNum(sa.major, sb.major); c != 0 {
		return c
	}
	if c := compareNum(sa.minor, sb.minor); c != 0 {
		return c
	}
	if c := compareNum(sa.patch, sb.patch); c != 0 {
		return c
	}
	return comparePre(sa.pre, sb.pre)
}

// compareNum compares two decimal strings without leading zeros.
func compareNum(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// comparePre compares prereleases: none sorts after any; identifiers
// compare left to right, numeric ones numerically and before alphanumeric
// ones; a shorter list that is a prefix of a longer one sorts first.
func comparePre(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := as[i], bs[i]
		if x == y {
			continue
		}
		nx, ny := isNum(x), isNum(y)
		switch {
		case nx && ny:
			return compareNum(x, y)
		case nx:
			return -1
		case ny:
			return 1
		default:
			return strings.Compare(x, y)
		}
	}
	switch {
	case len(as) < len(bs):
		return -1
	case len(as) > len(bs):
		return 1
	}
	return 0
}

// majorOf returns v's major version number as written ("0", "1", "2").
func majorOf(v string) string {
	s, _ := parseSemver(v)
	return s.major
}
