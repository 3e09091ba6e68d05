package assignortest

import (
	"errors"
	"slices"

	"github.com/kgroup/assignor"
)

// What the kit's own tests need beyond Run and Check.

// CheckExcept is Check without the named cases: the broken assignors need
// not pay for the big group.
func CheckExcept[A assignor.Assignor](newAssignor func() A, skip ...string) error {
	var errs []error
	for _, c := range cases {
		if !slices.Contains(skip, c.name) {
			found, _ := c.check(erase(newAssignor))
			for _, ce := range found {
				errs = append(errs, ce)
			}
		}
	}
	return errors.Join(errs...)
}

// CaseInfo is a case's name, rule, fix and the capability it needs (""
// for none).
type CaseInfo struct{ Name, Rule, Fix, Needs string }

// CaseInfos lists the cases in the order they run.
func CaseInfos() []CaseInfo {
	out := make([]CaseInfo, len(cases))
	for i, c := range cases {
		out[i] = CaseInfo{Name: c.name, Rule: c.rule, Fix: c.fix}
		if c.needs != nil {
			out[i].Needs = c.needs.name
		}
	}
	return out
}

// Applies reports whether the named case applies to a.
func Applies(name string, a assignor.Assignor) bool {
	i := slices.IndexFunc(cases, func(c testCase) bool { return c.name == name })
	return i >= 0 && cases[i].appliesTo(a)
}

// Judge is what Benchmark reports of a plan: spread, moves, withheld.
func Judge(g assignor.Group, plan assignor.Plan) (spread, moves, withheld int) {
	q := judge(g, plan)
	return q.spread, q.moves, q.withheld
}
