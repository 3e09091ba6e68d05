package wire_test

import (
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// A member's subscription goes out as bytes and comes back, on the leader,
// as an assignor.Member.
func Example() {
	sub := wire.Subscription{
		Version:    2,
		Topics:     []string{"orders"}, // sorted, as Java sends them
		UserData:   wire.CooperativeUserData(7),
		Owned:      []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 2}}},
		Generation: 7,
	}
	b := sub.AppendTo(nil)
	fmt.Printf("% x\n", b)

	got, err := wire.DecodeSubscription(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := got.Member("consumer-1", "")
	fmt.Println(m.ID, m.Topics, m.Owned, m.Generation)
	// Output:
	// 00 02 00 00 00 01 00 06 6f 72 64 65 72 73 00 00 00 04 00 00 00 07 00 00 00 01 00 06 6f 72 64 65 72 73 00 00 00 02 00 00 00 00 00 00 00 02 00 00 00 07
	// consumer-1 [orders] [{orders [0 2]}] 7
}

// Decoding errors name the message, the field and its byte offset, and wrap
// a sentinel.
func ExampleDecodeAssignment_error() {
	// Version 0, one assigned topic "t" claiming 2^31-1 partitions in 4 bytes.
	b := []byte{0, 0, 0, 0, 0, 1, 0, 1, 't', 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0}
	_, err := wire.DecodeAssignment(b)
	fmt.Println(err)
	// Output:
	// wire: input truncated: assignment assigned_partitions[0].partitions at byte 9
}

// Eager sticky user data carries the member's assignment and generation.
func ExampleStickyUserData() {
	b := wire.StickyUserData{
		Owned:      []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{1, 3}}},
		Generation: 4,
	}.AppendTo(nil)
	u, err := wire.DecodeStickyUserData(b)
	fmt.Println(u.Owned, u.Generation, err)
	// Output:
	// [{orders [1 3]}] 4 <nil>
}

// A leader that feeds an assignor.IndexBuilder reads the owned partitions
// straight from the metadata, into one scratch array, without building
// []assignor.TopicPartitions.
func ExampleSubscriptionDecoder() {
	var d wire.SubscriptionDecoder
	for _, owned := range [][]int32{{0, 2}, {1}} {
		b := wire.Subscription{
			Version: 3, Topics: []string{"orders"},
			Owned: []assignor.TopicPartitions{{Topic: "orders", Partitions: owned}},
		}.AppendTo(nil)
		v, err := d.Decode(b)
		if err != nil {
			fmt.Println(err)
			return
		}
		scratch := make([]int32, v.OwnedCount())
		for topic, ps := range v.OwnedPartitions(scratch) {
			fmt.Println(v.Topics, v.OwnedCount(), topic, ps)
		}
	}
	// Output:
	// [orders] 2 orders [0 2]
	// [orders] 1 orders [1]
}
