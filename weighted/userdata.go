package weighted

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// userDataVersion is the version of the weighted subscription user data
// without a report; reportVersion is the version with one (a [Meter]).
const (
	userDataVersion int16 = 0
	reportVersion   int16 = 1
)

// userDataSize is the size of version 0 of the user data, and of the
// prefix every version shares.
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
// partitions (v1 and later), never here.
//
// With a [Config.Meter], version 1 appends the meter's [Report] of the
// member's partitions (see [Meter.Report] for its size and when it
// changes):
//
//	int32 topics, then per topic, by name:
//	  int16 name length, name bytes
//	  int32 n, then n × (int32 partition, uint16 quantised weight), by partition
//	  int32 rest, uint16 quantised mean weight of the rest
//
// It fails only when the meter's report cannot be encoded (a topic name
// over 32767 bytes).
func (a *Assignor) SubscriptionUserData(s assignor.MemberState) ([]byte, error) {
	if a.cfg.Meter != nil {
		return a.cfg.Meter.userData(s)
	}
	return userDataPrefix(s.Generation, userDataVersion), nil
}

// userDataPrefix is the prefix every version shares.
func userDataPrefix(generation int32, version int16) []byte {
	b := wire.StickyUserData{Generation: generation}.AppendTo(make([]byte, 0, userDataSize))
	return binary.BigEndian.AppendUint16(b, uint16(version))
}

// CarriesGeneration returns true: SubscriptionUserData writes the claim
// generation into the weighted layout, so the cooperative wrapper sends
// this user data instead of the 4-byte cooperative-sticky user data (see
// cooperative.GenerationCarrier).
func (*Assignor) CarriesGeneration() bool { return true }

// DecodeUserData reads the claim generation and the layout version from
// weighted subscription user data. Empty user data is
// [assignor.NoGeneration], version 0, no error. Bytes of another layout,
// a malformed report, or a version above the ones this package writes,
// are an error wrapping [ErrUserData].
func DecodeUserData(b []byte) (generation int32, version int16, err error) {
	r, version, err := decode(b)
	return r.Generation, version, err
}

// DecodeReport reads the member's [Report] from weighted subscription user
// data: empty for version 0. Errors as for [DecodeUserData].
func DecodeReport(b []byte) (Report, error) {
	r, _, err := decode(b)
	return r, err
}

func decode(b []byte) (Report, int16, error) {
	none := Report{Generation: assignor.NoGeneration}
	if len(b) == 0 {
		return none, 0, nil
	}
	if len(b) < userDataSize || binary.BigEndian.Uint32(b) != 0 {
		return none, 0, fmt.Errorf("%w: %d bytes, not the weighted layout", ErrUserData, len(b))
	}
	gen := max(int32(binary.BigEndian.Uint32(b[4:])), assignor.NoGeneration)
	switch version := int16(binary.BigEndian.Uint16(b[8:])); {
	case version == userDataVersion && len(b) == userDataSize:
		return Report{Generation: gen}, version, nil
	case version == reportVersion:
		r, err := readReport(b[userDataSize:], gen)
		if err != nil {
			return none, version, err
		}
		return r, version, nil
	default:
		return none, version, fmt.Errorf("%w: version %d in %d bytes", ErrUserData, version, len(b))
	}
}

// errTopicName is the error for a topic name the layout cannot carry.
func errTopicName(topic string) error {
	return fmt.Errorf("weighted: topic name of %d bytes in a report, above 32767", len(topic))
}
