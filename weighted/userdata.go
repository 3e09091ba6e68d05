package weighted

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// userDataVersion is the version of the weighted subscription user data
// this package writes.
const userDataVersion int16 = 0

// userDataSize is the size of version 0 of the user data.
const userDataSize = 10

// ErrUserData is wrapped by [DecodeUserData]'s errors.
var ErrUserData = errors.New("weighted: malformed subscription user data")

// SubscriptionUserData returns the weighted subscription user data of a
// member in state s. Version 0, 10 bytes, big-endian:
//
//	int32 0            an empty eager sticky previous_assignment
//	int32 generation   s.Generation (-1 for none)
//	int16 version      0
//
// The first eight bytes are the eager sticky layout with no partitions (its
// version 1), so a leader that reads the claim generation of a subscription
// v0 or v1 from sticky's layout, as this module's adapters do
// ([wire.UserDataGeneration]), reads this one's too; later versions only
// append. The member's claims travel in the subscription's owned
// partitions (v1 and later), never here. It never fails and keeps no
// state.
func (*Assignor) SubscriptionUserData(s assignor.MemberState) ([]byte, error) {
	b := wire.StickyUserData{Generation: s.Generation}.AppendTo(make([]byte, 0, userDataSize))
	return binary.BigEndian.AppendUint16(b, uint16(userDataVersion)), nil
}

// CarriesGeneration returns true: SubscriptionUserData writes the claim
// generation into the weighted layout, so the cooperative wrapper sends
// this user data instead of the 4-byte cooperative-sticky user data (see
// cooperative.GenerationCarrier).
func (*Assignor) CarriesGeneration() bool { return true }

// DecodeUserData reads the claim generation and the layout version from
// weighted subscription user data. Empty user data is
// [assignor.NoGeneration], version 0, no error. Bytes of another layout,
// or a version above the one this package writes, are an error wrapping
// [ErrUserData]; a later version's appended fields are accepted when the
// version is known.
func DecodeUserData(b []byte) (generation int32, version int16, err error) {
	if len(b) == 0 {
		return assignor.NoGeneration, 0, nil
	}
	if len(b) < userDataSize || binary.BigEndian.Uint32(b) != 0 {
		return assignor.NoGeneration, 0, fmt.Errorf("%w: %d bytes, not the weighted layout", ErrUserData, len(b))
	}
	version = int16(binary.BigEndian.Uint16(b[8:]))
	if version != userDataVersion || len(b) != userDataSize {
		return assignor.NoGeneration, version, fmt.Errorf("%w: version %d in %d bytes", ErrUserData, version, len(b))
	}
	return max(int32(binary.BigEndian.Uint32(b[4:])), assignor.NoGeneration), version, nil
}
