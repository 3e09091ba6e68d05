package weighted

import "slices"

// chains walks the exchange graph of a holding: from a member to the sets
// it holds partitions of, to their members.
type chains struct {
	ss        *subscriberSets
	held      []int32 // per slot
	seen      []bool  // per member
	setSeen   []bool  // per set
	parent    []int32 // per member: who passes to it on the chain, -1 at the start
	parentSet []int32
	queue     []int32
}

func newChains(ss *subscriberSets, held []int32, members int) *chains {
	return &chains{
		ss: ss, held: held,
		seen: make([]bool, members), setSeen: make([]bool, len(ss.members)),
		parent: make([]int32, members), parentSet: make([]int32, members),
	}
}

func (x *chains) reset() {
	clear(x.seen)
	clear(x.setSeen)
	x.queue = x.queue[:0]
}

// start queues member m as a starting point.
func (x *chains) start(m int32) {
	x.seen[m] = true
	x.parent[m] = -1
	x.queue = append(x.queue, m)
}

// forward runs a breadth-first search from the queued members over members
// not blocked; it returns the first newly reached member stop accepts, or
// -1.
func (x *chains) forward(blocked []bool, stop func(m int32) bool) int32 {
	ss := x.ss
	for head := 0; head < len(x.queue); head++ {
		u := x.queue[head]
		for k := ss.memberFrom[u]; k < ss.memberFrom[u+1]; k++ {
			s := ss.memberSet[k]
			if x.setSeen[s] || x.held[ss.memberSlot[k]] == 0 {
				continue
			}
			x.setSeen[s] = true
			for _, v := range ss.members[s] {
				if x.seen[v] || (blocked != nil && blocked[v]) {
					continue
				}
				x.seen[v] = true
				x.parent[v], x.parentSet[v] = u, s
				if stop(v) {
					return v
				}
				x.queue = append(x.queue, v)
			}
		}
	}
	return -1
}

// slot returns the slot of member m in set s (m must belong to s).
func (ss *subscriberSets) slot(s, m int32) int32 {
	i, _ := slices.BinarySearch(ss.members[s], m)
	return ss.slotFrom[s] + int32(i)
}
