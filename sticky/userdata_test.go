package sticky

import (
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

func TestSubscriptionUserDataRoundTrip(t *testing.T) {
	a := New()
	b, err := a.SubscriptionUserData(assignor.MemberState{
		Topics:     []string{"t", "u"},
		Owned:      []assignor.TopicPartitions{{Topic: "u", Partitions: []int32{3, 1}}, {Topic: "t", Partitions: []int32{0}}},
		Generation: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	u, err := wire.DecodeStickyUserData(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := assignor.FormatTopicPartitions(u.Owned), "t[0] u[1 3]"; got != want || u.Generation != 7 {
		t.Fatalf("decoded %s at generation %d, want %s at 7", got, u.Generation, want)
	}
}

// TestUserDataHistory pins how eager history is read: user data counts only
// for members that send no owned partitions, malformed bytes are no history,
// and IgnoreUserData turns it off.
func TestUserDataHistory(t *testing.T) {
	owned := []assignor.TopicPartitions{{Topic: "t", Partitions: []int32{0, 1, 2}}}
	good := wire.StickyUserData{Owned: owned, Generation: 3}.AppendTo(nil)
	group := func(userData []byte) assignor.Group {
		return assignor.Group{
			Topics: []assignor.Topic{{Name: "t", Partitions: assignor.Partitions(4)}},
			Members: []assignor.Member{
				{ID: "a", Topics: []string{"t"}, Generation: assignor.NoGeneration},
				{ID: "b", Topics: []string{"t"}, Generation: assignor.NoGeneration, UserData: userData},
			},
		}
	}
	tests := []struct {
		name  string
		cfg   Config
		data  []byte
		wantB string
	}{
		{name: "history kept", data: good, wantB: "t[0 1]"},
		{name: "ignored by config", cfg: Config{IgnoreUserData: true}, data: good, wantB: "t[1 3]"},
		{name: "malformed is no history", data: good[:7], wantB: "t[1 3]"},
		{name: "cooperative generation bytes are no history", data: wire.CooperativeUserData(5), wantB: "t[1 3]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := group(tc.data)
			a, _ := NewWithConfig(tc.cfg)
			plan, err := a.Assign(g)
			if err != nil {
				t.Fatal(err)
			}
			if g.Members[1].Owned != nil {
				t.Fatal("Assign mutated the group")
			}
			if mp, _ := plan.Member("b"); assignor.FormatTopicPartitions(mp.Assigned) != tc.wantB {
				t.Fatalf("b got %s, want %s\n%s", assignor.FormatTopicPartitions(mp.Assigned), tc.wantB, plan)
			}
		})
	}
}
