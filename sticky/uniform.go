package sticky

// uniform reports whether the fast path applies: one hub (every subscribed
// topic has the same subscribers and, if racks are in play, the same rack
// set) on which every subscriber has the same rack cost.
func (sol *solver) uniform() bool {
	if len(sol.hubSet) != 1 {
		return false
	}
	if !sol.rackAware {
		return true
	}
	set := sol.sets[sol.hubSet[0]]
	r := sol.hubRack[0]
	first := sol.local(r, set[0])
	for _, m := range set[1:] {
		if sol.local(r, m) != first {
			return false
		}
	}
	return true
}

// solveUniform fills the flows of the one-hub case directly, in O(C + M)
// for C classes and M members.
//
// With N partitions over k subscribers, every optimal plan gives q = N/k to
// each member and one more to r = N mod k of them (criterion 1). To keep the
// most partitions with their owners (criterion 3), the r "ceil" slots go to
// members that own more than q, as many as possible; who gets which slot
// among equals is decided by member position alone, never by how much a
// member owns beyond that:
//
//   - must: the members owning at least q+1, by position;
//   - if there are r or more of them, the first r get the slots;
//   - otherwise all of them do, and the remaining slots go to the first
//     other members by position.
//
// This rule is what makes the plan stable: let P be the plan for some
// ownership, and let the members now own P minus any of the partitions P
// did not leave with their valid owner (a cooperative round withholds those
// P moved). A must member kept q+1 of its own in P and still owns them, so
// it is a must member again; every other member owns at most what P gave
// it, so the members owning q+1 now are P's slot holders that stayed full,
// and the first-by-position fill of the rest is what remains of P's fill.
// The slots land where they did. Preferring whoever owns most (Java's and
// franz-go's heap order) would move a slot to a member that happens to
// still own more, and the follow-up round of a cooperative rebalance would
// not land where the first round aimed.
//
// Each owner keeps min(owned, quota); the rest of what it owns, and every
// unowned partition, goes to the pool, and each member takes quota − kept
// from it.
func (sol *solver) solveUniform() *flows {
	f := sol.newFlows()
	set := sol.sets[sol.hubSet[0]]
	k := int32(len(set))
	pos := make([]int32, sol.members)
	for i, m := range set {
		pos[m] = int32(i)
	}
	own := make([]int32, k)
	ownClass := make([]int32, k)
	for i := range ownClass {
		ownClass[i] = -1
	}
	var n int32
	for c, size := range sol.classSize {
		n += size
		if o := sol.classOwner[c]; o >= 0 {
			own[pos[o]] = size
			ownClass[pos[o]] = int32(c)
		}
	}
	q, r := n/k, n%k
	quota := make([]int32, k)
	for i := range quota {
		quota[i] = q
	}
	for i := int32(0); i < k && r > 0; i++ {
		if own[i] > q { // a must member
			quota[i]++
			r--
		}
	}
	for i := int32(0); i < k && r > 0; i++ {
		if own[i] <= q {
			quota[i]++
			r--
		}
	}
	for i := range k {
		kept := min(own[i], quota[i])
		if c := ownClass[i]; c >= 0 {
			f.keep[c] = kept
		}
		f.give[i] = quota[i] - kept
	}
	return f
}
