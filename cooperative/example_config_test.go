package cooperative_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/wire"
)

// WrapWithConfig takes the options of Config. RevokeUnknown: m0 owns
// audit/0, a topic the leader's metadata does not know yet; by default it
// is given back to m0 (still subscribed, the valid owner), with
// RevokeUnknown it is revoked, as Java does. InnerUserData: members send the
// inner assignor's user data (sticky's: the assignment, then the
// generation) instead of the 4-byte generation; below subscription v2 only
// this module's leaders read the generation from it (see
// saramaassignor.CheckConfig).
func ExampleWrapWithConfig() {
	g := assignor.Group{
		Members: []assignor.Member{
			{ID: "m0", Topics: []string{"orders", "audit"}, Generation: 4, Owned: []assignor.TopicPartitions{
				{Topic: "audit", Partitions: []int32{0}}, {Topic: "orders", Partitions: []int32{0, 1}}}},
		},
		Topics: []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(2)}},
	}
	for _, cfg := range []cooperative.Config{{}, {RevokeUnknown: true}} {
		plan, err := cooperative.WrapWithConfig(sticky.New(), cfg).Assign(g)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("RevokeUnknown %v: %s", cfg.RevokeUnknown, plan)
	}

	state := assignor.MemberState{Topics: []string{"orders"}, Generation: 4,
		Owned: []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 1}}}}
	for _, cfg := range []cooperative.Config{{}, {InnerUserData: true}} {
		w := cooperative.WrapWithConfig(sticky.New(), cfg).(assignor.SubscriptionUserDataAssignor)
		data, _ := w.SubscriptionUserData(state)
		gen, _ := wire.UserDataGeneration(data)
		fmt.Printf("InnerUserData %v: %d bytes, generation %d\n", cfg.InnerUserData, len(data), gen)
	}
	// Output:
	// RevokeUnknown false: m0: audit[0] orders[0 1]
	// RevokeUnknown true: m0: orders[0 1] revoke audit[0]
	// InnerUserData false: 4 bytes, generation 4
	// InnerUserData true: 28 bytes, generation 4
}
