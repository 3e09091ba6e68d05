package runner

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/bench/internal/contender"
)

// Assignor is an assignor of yours to compare with ours and the peers'.
type Assignor struct {
	// Key names it on the command line (-contenders KEY) and in the
	// results: letters, digits and dashes, not one of the built-in keys
	// (see -list).
	Key string
	// Name is the name shown in the tables and plots; Key if empty.
	Name string
	// New returns a fresh assignor; it is called once per rebalance run.
	New func() assignor.Assignor
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
// malformed key, a key taken, or a nil New; racks are given to it in the
// racks scenario.
func Register(a Assignor) error {
	if !keyPattern.MatchString(a.Key) {
		return fmt.Errorf("runner: key %q: want letters, digits and dashes", a.Key)
	}
	if a.New == nil {
		return fmt.Errorf("runner: %q: New is nil", a.Key)
	}
	for _, key := range []string{a.Key, a.Key + "-core"} {
		if _, taken := contender.Lookup(key); taken {
			return fmt.Errorf("runner: key %q is taken (see -list)", key)
		}
	}
	name := a.Name
	if name == "" {
		name = a.Key
	}
	probe := a.New()
	if probe == nil {
		return fmt.Errorf("runner: %q: New returned nil", a.Key)
	}
	coop := assignor.Supports(probe, assignor.Cooperative)
	order := 50 + 2*len(slices.DeleteFunc(contender.All(), func(c contender.Contender) bool { return c.Family != familyYours }))
	contender.Register(contender.Contender{Key: a.Key, Name: name, Family: familyYours, Cooperative: coop, Racks: true, Order: order,
		Timed: "our codec (package wire) decodes every member's subscription into a Group; your Assign; wire encodes every assignment",
		New:   contender.NewOurs(a.New, false)})
	contender.Register(contender.Contender{Key: a.Key + "-core", Name: name + " (core Assign only)", Family: familyYours, Cooperative: coop, Racks: true, Core: true, Order: order + 1,
		Timed: "your Assign alone on a Group decoded beforehand; no codec",
		New:   contender.NewOurs(a.New, true)})
	return nil
}

// familyYours is the family of the contenders registered with [Register].
const familyYours = "yours"
