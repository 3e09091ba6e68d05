package balance

import "github.com/kgroup/assignor"

// MemberRacks numbers the members' racks in member order: rack[m] is member
// m's rack number, or -1 for a member without a rack, and ids maps each
// rack name to its number.
func MemberRacks(ix *assignor.Index) (rack []int32, ids map[string]int32) {
	ids = map[string]int32{}
	rack = make([]int32, ix.NumMembers())
	for m := range rack {
		rack[m] = -1
		name := ix.Member(int32(m)).Rack
		if name == "" {
			continue
		}
		id, ok := ids[name]
		if !ok {
			id = int32(len(ids))
			ids[name] = id
		}
		rack[m] = id
	}
	return rack, ids
}

// HasReplicaRacks reports whether some topic carries replica racks.
func HasReplicaRacks(ix *assignor.Index) bool {
	for t := range int32(ix.NumTopics()) {
		if ix.Topic(t).ReplicaRacks != nil {
			return true
		}
	}
	return false
}

// HasClaims reports whether some member claims a partition inside the
// metadata.
func HasClaims(ix *assignor.Index) bool {
	for m := range int32(ix.NumMembers()) {
		if len(ix.Claims(m)) > 0 {
			return true
		}
	}
	return false
}
