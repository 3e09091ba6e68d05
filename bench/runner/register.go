package runner

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
)

// Assignor is an assignor of yours to compare with ours and the peers',
// made by [Contender] and given to [Register].
type Assignor struct {
	key, name string
	new       func() assignor.Assignor
}

// Contender describes an assignor of yours: key names it on the command
// line (-contenders KEY) and in the results (letters, digits and dashes,
// not one of the built-in keys: see -list); name is what the tables and
// plots show (key if empty); newAssignor returns a fresh assignor and is
// called once per rebalance run. newAssignor may return any concrete type,
// as the kit's assignortest.Run and Benchmark take it:
//
//	runner.Register(runner.Contender("mine", "my assignor", sticky.New)) // sticky.New returns *sticky.Assignor
func Contender[A assignor.Assignor](key, name string, newAssignor func() A) Assignor {
	a := Assignor{key: key, name: name}
	if newAssignor != nil {
		a.new = func() assignor.Assignor {
			if x := newAssignor(); !isNil(x) {
				return x
			}
			return nil
		}
	}
	return a
}

// isNil reports whether a is nil or holds a nil pointer (a constructor of
// a concrete type returning (*T)(nil)).
func isNil(a assignor.Assignor) bool {
	if a == nil {
		return true
	}
	v := reflect.ValueOf(a)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// keyPattern is what a key may hold.
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

// Register adds a as two contenders, in family "yours": KEY, the leader's
// work bytes to bytes through our codec (package wire: every member's
// JoinGroup metadata decoded, Assign, every assignment encoded, as our
// franz-go adapter's leader does), and KEY-core, Assign alone on a group
// decoded beforehand. Its members send what Java's send: subscription v3
// with owned partitions and generation when a supports the cooperative
// protocol ([assignor.Supports]), the user data of its
// [assignor.SubscriptionUserDataAssignor] hook if it has one.
//
// Call Register from main before [Main], in every process (the bench
// re-executes the program for each job). It fails on an empty or
// malformed key, a key taken, or a constructor that is nil or returns nil;
// racks are given to it in the racks scenario.
func Register(a Assignor) error {
	if !keyPattern.MatchString(a.key) {
		return fmt.Errorf("runner: key %q: want letters, digits and dashes", a.key)
	}
	if a.new == nil {
		return fmt.Errorf("runner: %q: the constructor is nil", a.key)
	}
	for _, key := range []string{a.key, a.key + "-core"} {
		if _, taken := contender.Lookup(key); taken {
			return fmt.Errorf("runner: key %q is taken (see -list)", key)
		}
	}
	name := a.name
	if name == "" {
		name = a.key
	}
	probe := a.new()
	if probe == nil {
		return fmt.Errorf("runner: %q: the constructor returned nil", a.key)
	}
	coop := assignor.Supports(probe, assignor.Cooperative)
	order := 50 + 2*len(slices.DeleteFunc(contender.All(), func(c contender.Contender) bool { return c.Family != familyYours }))
	contender.Register(contender.Contender{Key: a.key, Name: name, Family: familyYours, Cooperative: coop, Racks: true, Order: order,
		Timed: "our codec (package wire) decodes every member's subscription into a Group; your Assign; wire encodes every assignment",
		New:   contender.NewOurs(a.new, false)})
	contender.Register(contender.Contender{Key: a.key + "-core", Name: name + " (core Assign only)", Family: familyYours, Cooperative: coop, Racks: true, Core: true, Order: order + 1,
		Timed: "your Assign alone on a Group decoded beforehand; no codec",
		New:   contender.NewOurs(a.new, true)})
	return nil
}

// familyYours is the family of the contenders registered with [Register].
const familyYours = "yours"
