package assignor_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/kgroup/assignor"
)

func tp(topic string, ids ...int32) assignor.TopicPartitions {
	return assignor.TopicPartitions{Topic: topic, Partitions: ids}
}

// TestIndexPlanOf pins that Index.PlanOf sorts, groups by topic, copies,
// and merges the given-back claims into their claimer's lists.
func TestIndexPlanOf(t *testing.T) {
	t.Parallel()
	g := assignor.Group{
		Members: []assignor.Member{{ID: "b", Topics: []string{"t0", "t1", "t9"}, Generation: 2, Owned: []assignor.TopicPartitions{tp("t9", 7, 3)}}, {ID: "a", Topics: []string{"t0"}}},
		Topics:  []assignor.Topic{{Name: "t1", Partitions: []int32{4, 8}}, {Name: "t0", Partitions: assignor.Partitions(3)}},
	}
	ix, err := assignor.NewIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	// Flat: t0/0..2 = 0..2, t1/4 = 3, t1/8 = 4. Outside: b's t9/3, t9/7.
	plan := ix.PlanOf(assignor.FlatPlan{Holder: []int32{1, 0, 1, 1, 1}, GivenBack: []bool{true, false}, UserData: [][]byte{nil, []byte("b")}, FollowUp: true})
	if got, want := plan.String(), "a: t0[1]\nb: t0[0 2] t1[4 8] t9[3] userdata=1B\nfollow-up rebalance\n"; got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}
	plan.Members[1].Assigned[1].Partitions[0] = 99
	if g.Topics[0].Partitions[0] != 4 {
		t.Error("the plan aliases the group's partition list")
	}
}

// TestNewIndexErrors pins the groups that cannot be assigned at all: typed
// errors naming the culprit, matched by errors.Is and errors.As.
func TestNewIndexErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		g      assignor.Group
		want   error
		member string
		topic  string
	}{
		{"empty member ID", assignor.Group{Members: []assignor.Member{{ID: "a"}, {ID: ""}}}, assignor.ErrEmptyMemberID, "", ""},
		{"duplicate member ID", assignor.Group{Members: []assignor.Member{{ID: "b"}, {ID: "a"}, {ID: "b"}}}, assignor.ErrDuplicateMember, "b", ""},
		{"empty topic name", assignor.Group{Topics: []assignor.Topic{{Name: ""}}}, assignor.ErrEmptyTopicName, "", ""},
		{"duplicate topic", assignor.Group{Topics: []assignor.Topic{{Name: "t0"}, {Name: "t1"}, {Name: "t0", Partitions: []int32{1}}}}, assignor.ErrDuplicateTopic, "", "t0"},
		{"weights that do not match the partitions", assignor.Group{Topics: []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(2), Weights: []int64{5}}}}, assignor.ErrWeights, "", "t0"},
		{"a weight below UnknownWeight", assignor.Group{Topics: []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(2), Weights: []int64{5, -2}}}}, assignor.ErrWeights, "", "t0"},
		{"replica racks that do not match the partitions", assignor.Group{Topics: []assignor.Topic{{Name: "t0", Partitions: assignor.Partitions(2), ReplicaRacks: [][]string{{"r"}}}}}, assignor.ErrReplicaRacks, "", "t0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ix, err := assignor.NewIndex(tt.g)
			if ix != nil || !errors.Is(err, tt.want) {
				t.Fatalf("NewIndex = %v, %v; want nil, %v", ix, err, tt.want)
			}
			var me *assignor.MemberError
			var te *assignor.TopicError
			switch {
			case errors.As(err, &me):
				if me.Member != tt.member || tt.topic != "" {
					t.Errorf("MemberError names member %q; want member %q, topic %q", me.Member, tt.member, tt.topic)
				}
			case errors.As(err, &te):
				if te.Topic != tt.topic {
					t.Errorf("TopicError names topic %q, want %q", te.Topic, tt.topic)
				}
			default:
				t.Errorf("error %T is neither a *MemberError nor a *TopicError", err)
			}
			if msg := err.Error(); len(msg) < 10 || msg[:10] != "assignor: " {
				t.Errorf("error %q lacks the assignor: prefix", msg)
			}
		})
	}
}

// TestGroupClone pins that Clone's copy equals the original (nil stays nil,
// empty stays empty) and shares no memory with it.
func TestGroupClone(t *testing.T) {
	t.Parallel()
	groups := []assignor.Group{
		{},
		{Members: []assignor.Member{}, Topics: []assignor.Topic{}},
		{
			Members: []assignor.Member{
				{ID: "a", InstanceID: "i", Rack: "r", Topics: []string{"t0"}, Generation: 3, Owned: []assignor.TopicPartitions{tp("t0", 1, 2)}, UserData: []byte{1}},
				{ID: "b", Topics: []string{}, Owned: []assignor.TopicPartitions{}, UserData: []byte{}},
			},
			Topics: []assignor.Topic{{Name: "t0", Partitions: []int32{0, 1, 2}, ReplicaRacks: [][]string{{"r"}, nil, {}}, Weights: []int64{7, 0, assignor.UnknownWeight}}, {Name: "t1"}},
		},
	}
	for i, g := range groups {
		c := g.Clone()
		if !reflect.DeepEqual(c, g) {
			t.Errorf("group %d: Clone() = %#v, want %#v", i, c, g)
		}
		if len(c.Members) == 0 || len(c.Topics) == 0 {
			continue
		}
		c.Members[0].Topics[0] = "x"
		c.Members[0].Owned[0].Partitions[0] = 9
		c.Members[0].UserData[0] = 9
		c.Topics[0].Partitions[0] = 9
		c.Topics[0].ReplicaRacks[0][0] = "x"
		c.Topics[0].Weights[0] = 9
		if g.Members[0].Topics[0] != "t0" || g.Members[0].Owned[0].Partitions[0] != 1 || g.Members[0].UserData[0] != 1 ||
			g.Topics[0].Partitions[0] != 0 || g.Topics[0].ReplicaRacks[0][0] != "r" || g.Topics[0].Weights[0] != 7 {
			t.Errorf("group %d: changing the clone changed the original", i)
		}
	}
}

// TestIndexAccessors pins the read-only view a custom assignor works on:
// numbering by member ID and topic name, flat ranges, subscriptions both
// ways, claims, generations and owners.
func TestIndexAccessors(t *testing.T) {
	t.Parallel()
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "b", Rack: "r1", Topics: []string{"orders", "clicks"}, Generation: 4, Owned: []assignor.TopicPartitions{tp("orders", 1), tp("clicks", 0)}},
			{ID: "a", Topics: []string{"orders", "gone"}, Generation: 4, Owned: []assignor.TopicPartitions{tp("orders", 1)}},
			{ID: "c", Topics: []string{"clicks"}, Generation: 2, Owned: []assignor.TopicPartitions{tp("clicks", 0)}},
		},
		Topics: []assignor.Topic{{Name: "orders", Partitions: []int32{2, 0, 1}}, {Name: "clicks", Partitions: assignor.Partitions(1)}},
	}
	ix, err := assignor.NewIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	if ix.NumMembers() != 3 || ix.Member(0).ID != "a" || ix.Member(1).Rack != "r1" {
		t.Errorf("members: %d, %q, %q", ix.NumMembers(), ix.Member(0).ID, ix.Member(1).Rack)
	}
	if m, ok := ix.MemberNumber("c"); !ok || m != 2 {
		t.Errorf("MemberNumber(c) = %d, %v", m, ok)
	}
	// Topics by name: clicks (flat 0), orders (flat 1..3).
	if ix.NumTopics() != 2 || ix.Topic(1).Name != "orders" || !reflect.DeepEqual(ix.Topic(1).Partitions, []int32{0, 1, 2}) {
		t.Errorf("topics: %d, %+v", ix.NumTopics(), ix.Topic(1))
	}
	if first, end := ix.TopicRange(1); first != 1 || end != 4 || ix.NumPartitions() != 4 {
		t.Errorf("TopicRange(orders) = %d, %d of %d", first, end, ix.NumPartitions())
	}
	if p, ok := ix.Flat(1, 2); !ok || p != 3 || ix.TopicOf(3) != 1 {
		t.Errorf("Flat(orders, 2) = %d, %v; TopicOf(3) = %d", p, ok, ix.TopicOf(3))
	}
	if got := ix.Subscriptions(0); !reflect.DeepEqual(got, []int32{1}) {
		t.Errorf("Subscriptions(a) = %v, want [1] (gone is not in the metadata)", got)
	}
	if got := ix.Subscribers(0); !reflect.DeepEqual(got, []int32{1, 2}) || !ix.Subscribes(2, 0) || ix.Subscribes(2, 1) {
		t.Errorf("Subscribers(clicks) = %v", got)
	}
	// orders/1 (flat 2): a and b tie at generation 4; clicks/0 (flat 0): b
	// at 4 beats c at 2.
	if ix.Owner(2) != assignor.Contested || ix.Owner(0) != 1 || ix.Owner(1) != assignor.Unclaimed {
		t.Errorf("owners: %d %d %d", ix.Owner(2), ix.Owner(0), ix.Owner(1))
	}
	if got := ix.Claims(1); !reflect.DeepEqual(got, []int32{0, 2}) || ix.Generation(2) != 2 {
		t.Errorf("Claims(b) = %v, Generation(c) = %d", got, ix.Generation(2))
	}
	if got := ix.Group(); !reflect.DeepEqual(got, g) {
		t.Error("Group() is not the group the index was built from")
	}
}
