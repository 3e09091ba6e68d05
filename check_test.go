package assignor_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
)

// checkGroup: a and b subscribe to t0 (3 partitions); only b to t1 (1);
// a owns t0/0 at generation 2, and t9/5 (a topic the leader does not know),
// and t0/-1; b and c tie over t0/2; c is new and subscribes to t0.
func checkGroup() assignor.Group {
	return assignor.Group{
		Members: []assignor.Member{
			{ID: "a", Topics: []string{"t0", "t9"}, Generation: 2, Owned: []assignor.TopicPartitions{tp("t0", 0, -1), tp("t9", 5)}},
			{ID: "b", Topics: []string{"t0", "t1"}, Generation: 2, Owned: []assignor.TopicPartitions{tp("t0", 2)}},
			{ID: "c", Topics: []string{"t0"}, Generation: 2, Owned: []assignor.TopicPartitions{tp("t0", 2)}},
		},
		Topics: []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(3)}, {Name: "t1", Partitions: assignor.Partitions(1)}},
	}
}

func plan(entries ...assignor.MemberPlan) assignor.Plan { return assignor.Plan{Members: entries} }

func entry(member string, assigned ...assignor.TopicPartitions) assignor.MemberPlan {
	return assignor.MemberPlan{Member: member, Assigned: assigned}
}

// violation renders one CheckPlan error by its fields: "a t0/1 assigned twice".
func violation(err error) string {
	var pe *assignor.PartitionError
	var me *assignor.MemberError
	kind := "?"
	for _, k := range []struct {
		err  error
		name string
	}{
		{assignor.ErrAssignedTwice, "assigned twice"}, {assignor.ErrNotSubscribed, "not subscribed"},
		{assignor.ErrUnknownMember, "unknown member"}, {assignor.ErrMissingMember, "missing member"},
		{assignor.ErrOutsideMetadata, "outside metadata"}, {assignor.ErrUnassigned, "unassigned"},
		{assignor.ErrNotOwner, "not owner"}, {assignor.ErrUnsorted, "unsorted"}, {assignor.ErrDuplicateMember, "duplicate member"},
	} {
		if errors.Is(err, k.err) {
			kind = k.name
		}
	}
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("%s %s/%d %s", pe.Member, pe.Topic, pe.Partition, kind)
	case errors.As(err, &me):
		return fmt.Sprintf("%s %s", me.Member, kind)
	}
	return fmt.Sprintf("%T %v", err, err)
}

func violations(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		out = append(out, violation(e))
	}
	slices.Sort(out)
	return out
}

// TestCheckPlan pins each kind of violation CheckPlan reports, and the
// plans it accepts, under both protocols.
func TestCheckPlan(t *testing.T) {
	t.Parallel()
	complete := []assignor.MemberPlan{entry("a", tp("t0", 0)), entry("b", tp("t0", 2), tp("t1", 0)), entry("c", tp("t0", 1))}
	// notSubscribed: a no longer subscribes to t9; contestedOutside: a and
	// b tie over t9/5.
	notSubscribed, contestedOutside := checkGroup(), checkGroup()
	notSubscribed.Members[0].Topics = []string{"t0"}
	contestedOutside.Members[1].Owned = append(contestedOutside.Members[1].Owned, tp("t9", 5))
	tests := []struct {
		name  string
		group *assignor.Group // checkGroup() when nil
		plan  assignor.Plan
		proto assignor.Protocol
		want  []string
	}{
		{name: "a complete plan passes the eager rules", plan: plan(complete...), proto: assignor.Eager},
		{
			name:  "the cooperative rules forbid a contested partition to anyone (KIP-429 safety)",
			plan:  plan(complete...),
			proto: assignor.Cooperative,
			want:  []string{"b t0/2 not owner"},
		},
		{
			name:  "cooperative: claimed partitions may be withheld, given back to the valid owner, even outside the metadata",
			plan:  plan(entry("a", tp("t0", 0), tp("t9", 5)), entry("b", tp("t1", 0)), entry("c", tp("t0", 1))),
			proto: assignor.Cooperative,
		},
		{
			name:  "cooperative: no give-back outside the metadata to an owner that no longer subscribes",
			group: &notSubscribed,
			plan:  plan(entry("a", tp("t0", 0), tp("t9", 5)), entry("b", tp("t1", 0)), entry("c", tp("t0", 1))),
			proto: assignor.Cooperative,
			want:  []string{"a t9/5 outside metadata"},
		},
		{
			name:  "cooperative: no give-back outside the metadata when the claim is contested",
			group: &contestedOutside,
			plan:  plan(entry("a", tp("t0", 0), tp("t9", 5)), entry("b", tp("t1", 0)), entry("c", tp("t0", 1))),
			proto: assignor.Cooperative,
			want:  []string{"a t9/5 outside metadata"},
		},
		{
			name:  "eager: nothing outside the metadata, not even to its claimant",
			plan:  plan(entry("a", tp("t0", 0), tp("t9", 5)), entry("b", tp("t0", 2), tp("t1", 0)), entry("c", tp("t0", 1))),
			proto: assignor.Eager,
			want:  []string{"a t9/5 outside metadata"},
		},
		{
			name:  "outside the metadata: a partition beyond the known ones, a negative one, an unknown topic",
			plan:  plan(entry("a", tp("t0", -1, 0, 3), tp("t8", 0)), entry("b", tp("t0", 2), tp("t1", 0)), entry("c", tp("t0", 1))),
			proto: assignor.Cooperative,
			want:  []string{"a t0/-1 outside metadata", "a t0/3 outside metadata", "a t8/0 outside metadata", "b t0/2 not owner"},
		},
		{
			name:  "a partition assigned to two members",
			plan:  plan(entry("a", tp("t0", 0, 1)), entry("b", tp("t0", 2), tp("t1", 0)), entry("c", tp("t0", 1))),
			proto: assignor.Eager,
			want:  []string{"c t0/1 assigned twice"},
		},
		{
			name:  "a partition given to a member that does not subscribe to its topic",
			plan:  plan(entry("a", tp("t0", 0), tp("t1", 0)), entry("b", tp("t0", 2)), entry("c", tp("t0", 1))),
			proto: assignor.Eager,
			want:  []string{"a t1/0 not subscribed"},
		},
		{
			name:  "cooperative: a claimed partition given to a member that is not its valid owner",
			plan:  plan(entry("a", tp("t0", 1)), entry("b", tp("t1", 0)), entry("c", tp("t0", 0))),
			proto: assignor.Cooperative,
			want:  []string{"c t0/0 not owner"},
		},
		{
			name:  "eager: a subscribed partition left unassigned",
			plan:  plan(entry("a", tp("t0", 0)), entry("b", tp("t0", 2)), entry("c", tp("t0", 1))),
			proto: assignor.Eager,
			want:  []string{" t1/0 unassigned"},
		},
		{
			name:  "cooperative: an unclaimed partition left unassigned",
			plan:  plan(entry("a", tp("t0", 0)), entry("b"), entry("c")),
			proto: assignor.Cooperative,
			want:  []string{" t0/1 unassigned", " t1/0 unassigned"},
		},
		{
			name:  "plan entries: unknown member, missing member, duplicate entry",
			plan:  plan(entry("a", tp("t0", 0, 1)), entry("b", tp("t0", 2), tp("t1", 0)), entry("b"), entry("z")),
			proto: assignor.Eager,
			want:  []string{"b duplicate member", "b unsorted", "c missing member", "z unknown member"},
		},
		{
			name:  "unsorted: members, topics, partitions, duplicates within a list",
			plan:  plan(entry("b", tp("t1", 0), tp("t0", 2)), entry("a", tp("t0", 0, 0)), entry("c", tp("t0", 1))),
			proto: assignor.Eager,
			want:  []string{"a t0/-1 unsorted", "a unsorted", "b t0/-1 unsorted"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := checkGroup()
			if tt.group != nil {
				g = *tt.group
			}
			err := assignor.CheckPlan(g, tt.plan, tt.proto)
			if got := violations(err); !slices.Equal(got, tt.want) {
				t.Errorf("violations:\n%q\nwant:\n%q\nerror:\n%v", got, tt.want, err)
			}
		})
	}
}

func TestCheckPlanInvalidGroup(t *testing.T) {
	t.Parallel()
	g := assignor.Group{Members: []assignor.Member{{ID: "a"}, {ID: "a"}}}
	if err := assignor.CheckPlan(g, assignor.Plan{}, assignor.Eager); !errors.Is(err, assignor.ErrDuplicateMember) {
		t.Errorf("CheckPlan on a group with a duplicate member ID = %v, want ErrDuplicateMember", err)
	}
}

// TestCheckPlanErrorText pins that each violation names the rule first
// (with the assignor: prefix, once), then the partition, the member and the
// claim's generation, and for a partition assigned twice both members.
func TestCheckPlanErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		plan  assignor.Plan
		want  string
		other string
	}{
		{
			name: "the safety rule",
			plan: plan(entry("a", tp("t0", 1)), entry("b", tp("t1", 0)), entry("c", tp("t0", 0))),
			want: `assignor: claimed partition assigned to a member that is not its valid owner: t0/0: member "c" (generation 2)`,
		},
		{
			name:  "assigned twice names both members",
			plan:  plan(entry("a", tp("t0", 0, 1)), entry("b", tp("t0", 1), tp("t1", 0))),
			want:  `assignor: partition assigned to more than one member: t0/1: member "b" (generation 2) and member "a"`,
			other: "a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := checkGroup()
			if tt.other != "" {
				g.Members = g.Members[:2] // without c, b validly owns t0/2
			}
			err := assignor.CheckPlan(g, tt.plan, assignor.Cooperative)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error:\n%v\nwant:\n%s", err, tt.want)
			}
			var pe *assignor.PartitionError
			if !errors.As(err, &pe) || pe.Other != tt.other {
				t.Errorf("PartitionError %+v: Other = %q, want %q", pe, pe.Other, tt.other)
			}
		})
	}
}

// TestPartitionErrorPrintable: a topic name read from the wire may hold
// anything; the error stays one printable line, the name quoted when it
// needs to be.
func TestPartitionErrorPrintable(t *testing.T) {
	for _, tc := range []struct{ topic, want string }{
		{"orders", "orders/3"},
		{"a\nb", `"a\nb"/3`},
		{"with space", `"with space"/3`},
		{"", `""/3`},
	} {
		err := &assignor.PartitionError{Err: assignor.ErrNotSubscribed, Topic: tc.topic, Partition: 3, Member: "m"}
		if got := err.Error(); !strings.Contains(got, tc.want) || strings.ContainsAny(got, "\n\x00") {
			t.Errorf("topic %q: %q, want it to contain %q on one line", tc.topic, got, tc.want)
		}
	}
}
