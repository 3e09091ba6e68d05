package weighted

// racks answers whether a member is in a rack holding a replica of a
// partition (KIP-881). Rack numbers are the caller's; only the racks of
// members count, so a rack set is kept as a bit mask over member racks.
type racks struct {
	memberRack []int32 // per member: rack number, or -1
	partSet    []int32 // per partition: rack set, or -1
	words      int     // words per mask
	masks      []uint64
}

// newRacks returns nil when racks are not in play: no member has a rack,
// or no partition has a replica in a member's rack.
func newRacks(g *group) *racks {
	if g.memberRack == nil || g.replicaRacks == nil {
		return nil
	}
	top := int32(-1)
	for _, r := range g.memberRack {
		top = max(top, r)
	}
	if top < 0 {
		return nil
	}
	rk := &racks{memberRack: g.memberRack, partSet: g.replicaRacks, words: int(top)/64 + 1}
	rk.masks = make([]uint64, len(g.rackSets)*rk.words)
	found := false
	for i, set := range g.rackSets {
		for _, r := range set {
			if r <= top {
				rk.masks[i*rk.words+int(r)/64] |= 1 << (r % 64)
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	return rk
}

// has reports whether rack r (>= 0) holds a replica of partition p.
func (rk *racks) has(p, r int32) bool { return rk.inSet(rk.partSet[p], r) }

// inSet reports whether rack r (>= 0) is in rack set set (-1: none).
func (rk *racks) inSet(set, r int32) bool {
	if set < 0 || int(r)/64 >= rk.words {
		return false
	}
	return rk.masks[int(set)*rk.words+int(r)/64]&(1<<(r%64)) != 0
}

// local reports whether member m is in a rack holding a replica of p.
func (rk *racks) local(p, m int32) bool {
	r := rk.memberRack[m]
	return r >= 0 && rk.has(p, r)
}

// localGain is the change in rack-local partitions when p goes from member
// from to member to: -1, 0 or 1 (0 with racks out of play).
func (rk *racks) localGain(p, from, to int32) int {
	if rk == nil {
		return 0
	}
	gain := 0
	if rk.local(p, to) {
		gain++
	}
	if rk.local(p, from) {
		gain--
	}
	return gain
}
