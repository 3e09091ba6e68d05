package cooperative

import (
	"errors"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
)

// TestSplit pins every branch of the split and of the safety rule on small
// groups: the plan (Plan.String, with revocations and the follow-up line)
// and the three sets (Sets.String) are the spec here.
func TestSplit(t *testing.T) {
	t0x2 := []assignor.Topic{topic("t0", 2)}
	tests := []struct {
		name     string
		members  []assignor.Member
		topics   []assignor.Topic
		inner    planAssignor
		cfg      Config
		want     string
		wantSets string
	}{
		{
			name: "new member gets a claimed partition -> withheld, owner revokes it (KIP-429)",
			members: []assignor.Member{
				member("m0", 1, "t0", "t0[0 1]"),
				member("m1", assignor.NoGeneration, "t0", ""),
			},
			topics: t0x2,
			inner:  planAssignor{"m0": "t0[0]", "m1": "t0[1]"},
			want:   "m0: t0[0] revoke t0[1]\nm1:\nfollow-up rebalance\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\n" +
				"maybe-revoking t0/1 owner m0 -> m1 withheld\n",
		},
		{
			name: "stale claimant given a partition its valid owner holds -> withheld from both (sarama's bug, KIP-792)",
			members: []assignor.Member{
				member("m0", 2, "t0", "t0[0 1]"),
				member("m1", 1, "t0", "t0[1]"),
			},
			topics: t0x2,
			inner:  planAssignor{"m0": "t0[0]", "m1": "t0[1]"},
			want:   "m0: t0[0] revoke t0[1]\nm1: revoke t0[1]\nfollow-up rebalance\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\n" +
				"maybe-revoking t0/1 owner m0 -> m1 withheld\n",
		},
		{
			name: "stale claimant, valid owner keeps it -> stale claimant revokes, no follow-up",
			members: []assignor.Member{
				member("m0", 2, "t0", "t0[0 1]"),
				member("m1", 1, "t0", "t0[1]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0 1]"},
			want:     "m0: t0[0 1]\nm1: revoke t0[1]\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\nmaybe-revoking t0/1 owner m0 -> m0 kept\n",
		},
		{
			name: "contested partition given to one of its claimants -> withheld from all claimants",
			members: []assignor.Member{
				member("m0", 3, "t0", "t0[0 1]"),
				member("m1", 3, "t0", "t0[1]"),
			},
			topics: t0x2,
			inner:  planAssignor{"m0": "t0[0 1]"},
			want:   "m0: t0[0] revoke t0[1]\nm1: revoke t0[1]\nfollow-up rebalance\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\n" +
				"maybe-revoking t0/1 no owner (m0@3 m1@3) -> m0 withheld\n",
		},
		{
			name: "contested partition given to a third member -> withheld",
			members: []assignor.Member{
				member("m0", assignor.NoGeneration, "t0", "t0[0]"),
				member("m1", assignor.NoGeneration, "t0", "t0[0]"),
				member("m2", assignor.NoGeneration, "t0", ""),
			},
			topics:   []assignor.Topic{topic("t0", 1)},
			inner:    planAssignor{"m2": "t0[0]"},
			want:     "m0: revoke t0[0]\nm1: revoke t0[0]\nm2:\nfollow-up rebalance\n",
			wantSets: "maybe-revoking t0/0 no owner (m0@-1 m1@-1) -> m2 withheld\n",
		},
		{
			name: "valid owner no longer subscribes, partition goes to another member -> withheld",
			members: []assignor.Member{
				member("m0", 1, "t1", "t0[0]"),
				member("m1", 1, "t0", ""),
			},
			topics:   []assignor.Topic{topic("t0", 1), topic("t1", 0)},
			inner:    planAssignor{"m1": "t0[0]"},
			want:     "m0: revoke t0[0]\nm1:\nfollow-up rebalance\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m1 withheld\n",
		},
		{
			name: "ready-to-migrate: unclaimed partition handed to the new member now",
			members: []assignor.Member{
				member("m0", 1, "t0", "t0[0]"),
				member("m1", assignor.NoGeneration, "t0", ""),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0]", "m1": "t0[1]"},
			want:     "m0: t0[0]\nm1: t0[1]\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\nready-to-migrate t0/1 -> m1 handed\n",
		},
		{
			name: "give-back: topic missing from the leader's metadata (new, or deleted)",
			members: []assignor.Member{
				member("m0", 4, "t0 t9", "t0[0] t9[3]"),
			},
			topics:   []assignor.Topic{topic("t0", 1)},
			inner:    planAssignor{"m0": "t0[0]"},
			want:     "m0: t0[0] t9[3]\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\nunknown-but-owned t9/3 owner m0 given back (unknown topic)\n",
		},
		{
			name: "give-back: partition at or beyond the topic's known count (unseen expansion)",
			members: []assignor.Member{
				member("m0", 4, "t0", "t0[0 2 7]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0 1]"},
			want:     "m0: t0[0 1 2 7]\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\nready-to-migrate t0/1 -> m0 handed\nunknown-but-owned t0/2 owner m0 given back (unknown partition)\nunknown-but-owned t0/7 owner m0 given back (unknown partition)\n",
		},
		{
			name: "give-back: known partition the inner assignor left out",
			members: []assignor.Member{
				member("m0", 4, "t0", "t0[1]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0]"},
			want:     "m0: t0[0 1]\n",
			wantSets: "ready-to-migrate t0/0 -> m0 handed\nunknown-but-owned t0/1 owner m0 given back\n",
		},
		{
			name: "give-back to the valid owner only; the stale claimer revokes",
			members: []assignor.Member{
				member("m0", 4, "t0 t9", "t0[1] t9[0]"),
				member("m1", 3, "t0 t9", "t0[1] t9[0]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0]"},
			want:     "m0: t0[0 1] t9[0]\nm1: revoke t0[1] t9[0]\n",
			wantSets: "ready-to-migrate t0/0 -> m0 handed\nunknown-but-owned t0/1 owner m0 given back\nunknown-but-owned t9/0 owner m0 given back (unknown topic)\n",
		},
		{
			name: "no give-back: negative partition, which cannot exist",
			members: []assignor.Member{
				member("m0", 4, "t0", "t0[-1 0]"),
			},
			topics:   []assignor.Topic{topic("t0", 1)},
			inner:    planAssignor{"m0": "t0[0]"},
			want:     "m0: t0[0] revoke t0[-1]\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\nunknown-but-owned t0/-1 no owner (m0@4) revoked (negative partition)\n",
		},
		{
			name: "no give-back: a gap in the known partition list",
			members: []assignor.Member{
				member("m0", 4, "t0", "t0[1]"),
			},
			topics:   []assignor.Topic{{Name: "t0", Partitions: []int32{0, 2}}},
			inner:    planAssignor{"m0": "t0[0 2]"},
			want:     "m0: t0[0 2] revoke t0[1]\n",
			wantSets: "ready-to-migrate t0/0 -> m0 handed\nready-to-migrate t0/2 -> m0 handed\nunknown-but-owned t0/1 owner m0 revoked (unknown partition)\n",
		},
		{
			name: "no give-back: the claimer no longer subscribes to the topic",
			members: []assignor.Member{
				member("m0", 4, "t0", "t9[0] t1[0]"),
			},
			topics:   []assignor.Topic{topic("t0", 1), topic("t1", 1)},
			inner:    planAssignor{"m0": "t0[0]"},
			want:     "m0: t0[0] revoke t1[0] t9[0]\n",
			wantSets: "ready-to-migrate t0/0 -> m0 handed\nunknown-but-owned t1/0 owner m0 revoked\nunknown-but-owned t9/0 owner m0 revoked (unknown topic)\n",
		},
		{
			name: "no give-back: contested claimers, inside and outside the metadata",
			members: []assignor.Member{
				member("m0", 2, "t0 t9", "t0[1] t9[0]"),
				member("m1", 2, "t0 t9", "t0[1] t9[0]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0]"},
			want:     "m0: t0[0] revoke t0[1] t9[0]\nm1: revoke t0[1] t9[0]\n",
			wantSets: "ready-to-migrate t0/0 -> m0 handed\nunknown-but-owned t0/1 no owner (m0@2 m1@2) revoked\nunknown-but-owned t9/0 no owner (m0@2 m1@2) revoked (unknown topic)\n",
		},
		{
			name: "revoke-instead option: unknown-but-owned partitions are revoked",
			members: []assignor.Member{
				member("m0", 4, "t0 t9", "t0[1 5] t9[0]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0]"},
			cfg:      Config{RevokeUnknown: true},
			want:     "m0: t0[0] revoke t0[1 5] t9[0]\n",
			wantSets: "ready-to-migrate t0/0 -> m0 handed\nunknown-but-owned t0/1 owner m0 revoked\nunknown-but-owned t0/5 owner m0 revoked (unknown partition)\nunknown-but-owned t9/0 owner m0 revoked (unknown topic)\n",
		},
		{
			name: "the inner assignor may itself give back an outside claim to its valid owner",
			members: []assignor.Member{
				member("m0", 4, "t0 t9", "t9[0]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0 1] t9[0]"},
			cfg:      Config{RevokeUnknown: true},
			want:     "m0: t0[0 1] t9[0]\n",
			wantSets: "maybe-revoking t9/0 owner m0 -> m0 kept (unknown topic)\nready-to-migrate t0/0 -> m0 handed\nready-to-migrate t0/1 -> m0 handed\n",
		},
		{
			name: "Revoked lists the raw claims minus the assignment, deduplicated and sorted",
			members: []assignor.Member{
				member("m0", 1, "t0", "t9[2] t0[1 1 0] t9[1]"),
				member("m1", assignor.NoGeneration, "t0", ""),
			},
			topics: t0x2,
			inner:  planAssignor{"m1": "t0[0 1]"},
			cfg:    Config{RevokeUnknown: true},
			want:   "m0: revoke t0[0 1] t9[1 2]\nm1:\nfollow-up rebalance\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m1 withheld\nmaybe-revoking t0/1 owner m0 -> m1 withheld\n" +
				"unknown-but-owned t9/1 owner m0 revoked (unknown topic)\nunknown-but-owned t9/2 owner m0 revoked (unknown topic)\n",
		},
		{
			name: "settled group: the plan keeps every claim, no revocation, no follow-up",
			members: []assignor.Member{
				member("m0", 5, "t0", "t0[0]"),
				member("m1", 5, "t0", "t0[1]"),
			},
			topics:   t0x2,
			inner:    planAssignor{"m0": "t0[0]", "m1": "t0[1]"},
			want:     "m0: t0[0]\nm1: t0[1]\n",
			wantSets: "maybe-revoking t0/0 owner m0 -> m0 kept\nmaybe-revoking t0/1 owner m1 -> m1 kept\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := assignor.Group{Members: tt.members, Topics: tt.topics}
			sets, plan, err := SplitWithConfig(g, tt.inner, tt.cfg)
			if err != nil {
				t.Fatalf("SplitWithConfig: %v", err)
			}
			if got := plan.String(); got != tt.want {
				t.Errorf("plan:\n%s\nwant:\n%s", got, tt.want)
			}
			if got := sets.String(); got != tt.wantSets {
				t.Errorf("sets:\n%s\nwant:\n%s", got, tt.wantSets)
			}
			if err := assignor.CheckPlan(g, plan, assignor.Cooperative); err != nil {
				t.Errorf("CheckPlan: %v", err)
			}
			viaAssign, err := WrapWithConfig(tt.inner, tt.cfg).Assign(g)
			if err != nil || viaAssign.String() != plan.String() {
				t.Errorf("Assign = %q, %v; want the Split plan", viaAssign.String(), err)
			}
		})
	}
}

// TestSplitErrors pins what the wrapper refuses: a group that cannot be
// indexed, a failing inner assignor, and inner plans that break the
// Assignor contract, each caught and named.
func TestSplitErrors(t *testing.T) {
	two := []assignor.Member{member("m0", 1, "t0", "t0[0]"), member("m1", 1, "t0", "")}
	tests := []struct {
		name    string
		members []assignor.Member
		inner   assignor.Assignor
		want    error
		wantMsg string
	}{
		{
			name:    "duplicate member IDs: NewIndex's error",
			members: []assignor.Member{member("m0", 1, "t0", ""), member("m0", 1, "t0", "")},
			inner:   hashAssignor{},
			want:    assignor.ErrDuplicateMember,
		},
		{name: "nil inner", members: two, inner: nil, want: ErrNoInner},
		{name: "inner fails", members: two, inner: errAssignor{}, want: errInner},
		{
			name:    "inner assigns a partition twice",
			members: two,
			inner:   planAssignor{"m0": "t0[0 1]", "m1": "t0[1]"},
			want:    assignor.ErrAssignedTwice,
			wantMsg: `t0/1: member "m1"`,
		},
		{
			name:    "inner assigns to a non-subscriber",
			members: []assignor.Member{member("m0", 1, "t0", ""), member("m1", 1, "t1", "")},
			inner:   planAssignor{"m0": "t0[0 1]", "m1": "t0[2]"},
			want:    assignor.ErrNotSubscribed,
			wantMsg: `t0/2: member "m1"`,
		},
		{
			name:    "inner assigns outside the metadata, not a give-back",
			members: two,
			inner:   planAssignor{"m0": "t0[0 1 2 9]"},
			want:    assignor.ErrOutsideMetadata,
			wantMsg: `t0/9: member "m0" (generation 1)`,
		},
		{
			name:    "inner drops an unclaimed subscribed partition (caught by the self-check)",
			members: two,
			inner:   planAssignor{"m0": "t0[0 1]"},
			want:    assignor.ErrUnassigned,
			wantMsg: "t0/2",
		},
		{
			name:    "AssignFlat: a partition given to a non-subscriber",
			members: []assignor.Member{member("m0", 1, "t0", ""), member("m1", 1, "t1", "")},
			inner: indexedHash{spoil: func(_ *assignor.Index, h []int32) ([]int32, [][]byte) {
				h[0] = 1
				return h, nil
			}},
			want:    assignor.ErrNotSubscribed,
			wantMsg: `t0/0: member "m1"`,
		},
		{
			name:    "AssignFlat: a member number out of range",
			members: two,
			inner: indexedHash{spoil: func(_ *assignor.Index, h []int32) ([]int32, [][]byte) {
				h[2] = 2
				return h, nil
			}},
			want:    assignor.ErrFlatPlan,
			wantMsg: "t0/2 given to member number 2 of 2",
		},
		{
			name:    "AssignFlat: wrong length",
			members: two,
			inner: indexedHash{spoil: func(_ *assignor.Index, h []int32) ([]int32, [][]byte) {
				return h[:1], nil
			}},
			want:    assignor.ErrFlatPlan,
			wantMsg: "1 holders for 4 partitions",
		},
		{
			name:    "AssignFlat: wrong number of user data entries",
			members: two,
			inner: indexedHash{spoil: func(_ *assignor.Index, h []int32) ([]int32, [][]byte) {
				return h, [][]byte{nil}
			}},
			want:    assignor.ErrFlatPlan,
			wantMsg: "1 user data entries for 2 members",
		},
		{
			name:    "inner plan names a member not in the group",
			members: two,
			inner:   extraMember{hashAssignor{}},
			want:    assignor.ErrUnknownMember,
			wantMsg: `member "zz"`,
		},
		{
			name:    "inner plan has no entry for a member",
			members: two,
			inner:   dropMember{hashAssignor{}},
			want:    assignor.ErrMissingMember,
			wantMsg: `member "m1"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := assignor.Group{Members: tt.members, Topics: []assignor.Topic{topic("t0", 3), topic("t1", 1)}}
			_, err := WrapWithConfig(tt.inner, Config{}).Assign(g)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Assign error = %v, want %v", err, tt.want)
			}
			if tt.wantMsg != "" && !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not name %q", err, tt.wantMsg)
			}
			var ce *Error
			if tt.inner != nil && tt.want != assignor.ErrDuplicateMember && (!errors.As(err, &ce) || ce.Assignor != "cooperative-"+tt.inner.Name()) {
				t.Errorf("error %v is not a *cooperative.Error naming the wrapper", err)
			}
			if _, _, serr := Split(g, tt.inner); serr == nil || serr.Error() != err.Error() {
				t.Errorf("Split error %v differs from Assign's %v", serr, err)
			}
		})
	}
}

// extraMember adds a plan entry for member "zz".
type extraMember struct{ assignor.Assignor }

func (e extraMember) Assign(g assignor.Group) (assignor.Plan, error) {
	plan, err := e.Assignor.Assign(g)
	plan.Members = append(plan.Members, assignor.MemberPlan{Member: "zz"})
	return plan, err
}

// dropMember drops the last member's plan entry.
type dropMember struct{ assignor.Assignor }

func (d dropMember) Assign(g assignor.Group) (assignor.Plan, error) {
	plan, err := d.Assignor.Assign(g)
	plan.Members = plan.Members[:len(plan.Members)-1]
	return plan, err
}
