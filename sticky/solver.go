package sticky

import (
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/internal/balance"
	"github.com/kgroup/assignor/internal/fnv1a"
)

// problem is the dense view the solver works on, built once per Assign from
// the [assignor.Index]. Partitions are flat partition numbers, members are
// member numbers (member ID order), and partitions that are interchangeable
// for every criterion but the tie-break are grouped into classes:
//
//   - a subscriber set is the list of members subscribed to a topic; topics
//     with the same list share one set;
//   - a rack set is the set of member racks among a partition's replica
//     racks (only when racks are in play);
//   - a hub is a (subscriber set, rack set) pair: its partitions can go to
//     the same members at the same rack cost;
//   - a class is a (hub, valid owner) pair, the owner being -1 for
//     partitions nobody validly owns.
//
// With identical subscriptions and no racks there is one hub and one class
// per owner, however many partitions there are.
type solver struct {
	ix      *assignor.Index
	members int

	// Per topic: its subscriber set (-1: no subscribers or no partitions)
	// and its rotation offset (partitions of earlier topics in the same
	// set), so partition j of topic t targets position (j+offset) mod |set|.
	topicSet    []int32
	topicOffset []int32
	sets        [][]int32 // member lists, ascending

	rackAware  bool
	rackIDs    map[string]int32
	memberRack []int32  // rack number of each member, -1 for none
	rackWords  int      // words per rack-set mask
	rackMasks  []uint64 // rack set r: rackMasks[r*rackWords:(r+1)*rackWords]

	hubSet  []int32 // per hub
	hubRack []int32 // per hub: rack set, -1 when racks are not in play

	classHub   []int32
	classOwner []int32 // member number or -1
	classSize  []int32

	partClass []int32 // per flat partition: class, or -1 (nobody subscribes); expand may hand its array to assign

	assign []int32 // result: per flat partition, member or -1
}

func newSolver(ix *assignor.Index, racks bool) *solver {
	sol := &solver{ix: ix, members: ix.NumMembers()}
	sol.indexSets()
	sol.indexRacks(racks)
	sol.indexClasses()
	return sol
}

// indexSets interns the topics' subscriber lists (balance.Interner) and
// gives each topic its rotation offset in its set.
func (sol *solver) indexSets() {
	ix := sol.ix
	sol.topicSet = make([]int32, ix.NumTopics())
	sol.topicOffset = make([]int32, ix.NumTopics())
	var offsets []int32
	var sets balance.Interner
	for t := range int32(ix.NumTopics()) {
		subs := ix.Subscribers(t)
		first, end := ix.TopicRange(t)
		n := end - first
		if len(subs) == 0 || n == 0 {
			sol.topicSet[t] = -1
			continue
		}
		s := sets.Intern(subs)
		if int(s) == len(offsets) {
			offsets = append(offsets, 0)
		}
		sol.topicSet[t] = s
		sol.topicOffset[t] = offsets[s] % int32(len(subs))
		offsets[s] = (offsets[s] + n) % int32(len(subs))
	}
	sol.sets = sets.Lists
}

// indexRacks decides whether racks are in play (enabled, some member has a
// rack and some topic has replica racks) and numbers the member racks.
func (sol *solver) indexRacks(enabled bool) {
	if !enabled {
		return
	}
	ix := sol.ix
	if !balance.HasReplicaRacks(ix) {
		return
	}
	var rackID map[string]int32
	sol.memberRack, rackID = balance.MemberRacks(ix)
	if len(rackID) == 0 {
		sol.memberRack = nil
		return
	}
	sol.rackAware = true
	sol.rackWords = (len(rackID) + 63) / 64
	sol.rackIDs = rackID
}

// local reports whether member m is in rack set r.
func (sol *solver) local(r, m int32) bool {
	if r < 0 || !sol.rackAware {
		return false
	}
	k := sol.memberRack[m]
	if k < 0 {
		return false
	}
	return sol.rackMasks[int(r)*sol.rackWords+int(k/64)]&(1<<(k%64)) != 0
}

// rackInterner numbers the distinct rack sets (member racks among a
// partition's replica racks), in first-seen order. With few member racks
// (the common case: a handful of availability zones), a replica rack is
// found by its name's last byte and a rack set's number by a table indexed
// by its mask; otherwise by maps, where consecutive partitions with equal
// replica rack lists are recognised without hashing.
type rackInterner struct {
	sol     *solver
	masks   []uint64
	byHash  map[uint64][]int32
	scratch []uint64
	prev    []string
	prevID  int32
	// names[k] is member rack k, and byMask[mask] the rack set with that
	// mask plus one (0: not numbered yet), when there are at most
	// smallRacks member racks.
	names  []string
	byMask []int32
	// byLast[b] is the member rack whose name ends in byte b, -1 if none,
	// -2 if several.
	byLast [256]int8
}

// smallRacks is the most member racks the interner handles with a table of
// 2^smallRacks entries.
const smallRacks = 10

func (interner *rackInterner) init(sol *solver) {
	interner.sol = sol
	interner.prevID = -1
	if n := len(sol.rackIDs); n <= smallRacks {
		interner.names = make([]string, n)
		for name, k := range sol.rackIDs {
			interner.names[k] = name
		}
		interner.byMask = make([]int32, 1<<n)
		for b := range interner.byLast {
			interner.byLast[b] = -1
		}
		for k, name := range interner.names {
			last := &interner.byLast[name[len(name)-1]]
			if *last == -1 {
				*last = int8(k)
			} else {
				*last = -2
			}
		}
		return
	}
	interner.byHash = map[uint64][]int32{}
	interner.scratch = make([]uint64, sol.rackWords)
}

func (interner *rackInterner) id(racks []string) int32 {
	if interner.byMask != nil {
		return interner.smallID(racks)
	}
	if interner.prevID >= 0 && slices.Equal(racks, interner.prev) {
		return interner.prevID
	}
	id := interner.mapID(racks)
	interner.prev, interner.prevID = racks, id
	return id
}

// smallID numbers racks' set through the mask table. A name is looked up
// by its last byte, which tells apart the usual rack and zone names
// ("us-east-1a", "us-east-1b") with one string comparison; member racks
// that share a last byte are searched.
func (interner *rackInterner) smallID(racks []string) int32 {
	var mask uint64
	for _, name := range racks {
		n := len(name)
		if n == 0 {
			continue
		}
		switch k := interner.byLast[name[n-1]]; k {
		case -1: // no member rack ends so
		case -2:
			for k, member := range interner.names {
				if member == name {
					mask |= 1 << k
					break
				}
			}
		default:
			if interner.names[k] == name {
				mask |= 1 << k
			}
		}
	}
	if id := interner.byMask[mask]; id > 0 {
		return id - 1
	}
	id := int32(len(interner.masks))
	interner.masks = append(interner.masks, mask) // one word per mask: at most 64 racks
	interner.byMask[mask] = id + 1
	return id
}

// mapID numbers racks' set through the rack name map and a hash of masks.
func (interner *rackInterner) mapID(racks []string) int32 {
	w := interner.sol.rackWords
	clear(interner.scratch)
	for _, name := range racks {
		if k, ok := interner.sol.rackIDs[name]; ok {
			interner.scratch[k/64] |= 1 << (k % 64)
		}
	}
	h := fnv1a.Uint64s(interner.scratch)
	for _, c := range interner.byHash[h] {
		if slices.Equal(interner.masks[int(c)*w:int(c+1)*w], interner.scratch) {
			return c
		}
	}
	id := int32(len(interner.masks) / w)
	interner.masks = append(interner.masks, interner.scratch...)
	interner.byHash[h] = append(interner.byHash[h], id)
	return id
}

// target returns the position, in its topic's subscriber set, of the member
// that flat partition p of topic t is aimed at: the partitions of all topics
// sharing a set are dealt round-robin over it, in flat order, so each topic
// is spread over its subscribers (franz-go issue #795).
func (sol *solver) target(t, p int32) int32 {
	k := int32(len(sol.sets[sol.topicSet[t]]))
	first, _ := sol.ix.TopicRange(t)
	return (p - first + sol.topicOffset[t]) % k
}
