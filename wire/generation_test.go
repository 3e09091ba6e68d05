package wire_test

import (
	"errors"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// TestUserDataGeneration: the generation a v0/v1 member carries in its user
// data, in either layout cooperative members send.
func TestUserDataGeneration(t *testing.T) {
	t.Parallel()
	owned := []assignor.TopicPartitions{{Topic: "orders", Partitions: []int32{0, 3}}, {Topic: "audit", Partitions: []int32{1}}}
	stickyV1 := wire.StickyUserData{Owned: owned, Generation: 9}.AppendTo(nil)
	for _, tt := range []struct {
		name     string
		userData []byte
		want     int32
		err      error
	}{
		{name: "none", userData: nil, want: assignor.NoGeneration},
		{name: "empty", userData: []byte{}, want: assignor.NoGeneration},
		{name: "cooperative-sticky (Java, sarama, ours by default)", userData: wire.CooperativeUserData(5), want: 5},
		{name: "cooperative-sticky without generation", userData: wire.CooperativeUserData(-1), want: assignor.NoGeneration},
		{name: "sticky v1 (ours with InnerUserData): its generation, not its topic count", userData: stickyV1, want: 9},
		{name: "sticky v1 without generation", userData: wire.StickyUserData{Owned: owned, Generation: assignor.NoGeneration}.AppendTo(nil), want: assignor.NoGeneration},
		{name: "sticky v1 with a negative generation reads as none", userData: wire.StickyUserData{Owned: owned, Generation: -5}.AppendTo(nil), want: assignor.NoGeneration},
		{name: "sticky v0: no generation", userData: stickyV1[:len(stickyV1)-4], want: assignor.NoGeneration},
		{name: "sticky v1 without partitions (8 bytes)", userData: wire.StickyUserData{Generation: 3}.AppendTo(nil), want: 3},
		{name: "3 bytes: neither", userData: []byte{0, 0, 1}, want: assignor.NoGeneration, err: wire.ErrTruncated},
		{name: "sticky cut in its topic name", userData: stickyV1[:9], want: assignor.NoGeneration, err: wire.ErrTruncated},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := wire.UserDataGeneration(tt.userData)
			if got != tt.want {
				t.Errorf("generation %d, want %d", got, tt.want)
			}
			var de *wire.DecodeError
			switch {
			case tt.err == nil && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.err != nil && (!errors.Is(err, tt.err) || !errors.As(err, &de)):
				t.Errorf("error %v, want a *DecodeError wrapping %v", err, tt.err)
			}
		})
	}
}
