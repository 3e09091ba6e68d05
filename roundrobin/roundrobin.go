package roundrobin

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/kgroup/assignor"
)

// Name is the protocol name of the round-robin assignor, the same as Java's
// RoundRobinAssignor ("roundrobin"), sarama's and franz-go's.
const Name = "roundrobin"

// Assignor is the round-robin assignor. It keeps no state: one value may
// serve any number of groups, concurrently; its zero value is ready to
// use.
//
// It is eager and declares itself balanced. Balance holds only when every
// member subscribes to the same topics; with different subscriptions a
// member may get many more partitions than another (see the package
// documentation). It is not sticky: it ignores the members' claims.
type Assignor struct{}

// New returns the round-robin assignor.
func New() *Assignor { return &Assignor{} }

var (
	_ assignor.ProtocolAssignor = (*Assignor)(nil)
	_ assignor.BalancedAssignor = (*Assignor)(nil)
	_ assignor.FlatAssignor     = (*Assignor)(nil)
)

// Name returns "roundrobin" ([Name]).
func (*Assignor) Name() string { return Name }

// Protocols reports that round-robin supports the eager protocol only.
func (*Assignor) Protocols() []assignor.Protocol { return []assignor.Protocol{assignor.Eager} }

// Balanced reports true: with identical subscriptions no member gets more
// than one partition above another. With different subscriptions it is not
// balanced.
func (*Assignor) Balanced() bool { return true }

// Assign places the group's partitions as Java's RoundRobinAssignor does; see
// the package documentation. It returns an error only when [assignor.NewIndex]
// does (an empty or duplicate member ID, a bad topic). It costs
// O(P + S + M log M) for P partitions, S subscription entries and M members.
func (a *Assignor) Assign(g assignor.Group) (assignor.Plan, error) {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return assignor.Plan{}, err
	}
	fp, _ := a.AssignFlat(ix)
	return ix.PlanOf(fp), nil
}

// AssignFlat is Assign on the group ix describes, answered in flat form
// (see [assignor.FlatAssignor]): the holder of each flat partition, no user
// data. It never fails.
func (*Assignor) AssignFlat(ix *assignor.Index) (assignor.FlatPlan, error) {
	ring := javaOrder(ix)
	// ringSubscribers[t] are topic t's subscribers as ring positions,
	// ascending. Walking the ring once appends them in order: O(M + S).
	ringSubscribers := make([][]int32, ix.NumTopics())
	for pos, m := range ring {
		for _, t := range ix.Subscriptions(m) {
			ringSubscribers[t] = append(ringSubscribers[t], int32(pos))
		}
	}

	holder := make([]int32, ix.NumPartitions())
	next := int32(0) // the ring position Java's CircularIterator peeks at
	for t, subs := range ringSubscribers {
		first, end := ix.TopicRange(int32(t))
		if len(subs) == 0 {
			// Nobody subscribes: Java never lists its partitions.
			for p := first; p < end; p++ {
				holder[p] = -1
			}
			continue
		}
		// Java skips members until it finds a subscriber, hands it the
		// partition and steps past it. So within one topic the partitions go
		// to the topic's subscribers in ring order, starting with the first
		// one at or after next; one binary search replaces the skipping.
		i, _ := slices.BinarySearch(subs, next)
		i %= len(subs)
		var last int32
		for p := first; p < end; p++ {
			last = subs[i]
			holder[p] = ring[last]
			i++
			if i == len(subs) {
				i = 0
			}
		}
		if first < end {
			next = (last + 1) % int32(len(ring))
		}
	}
	return assignor.FlatPlan{Holder: holder}, nil
}

// javaOrder returns the member numbers of ix in the order Java's
// AbstractPartitionAssignor.MemberInfo sorts them: static members (with an
// instance ID) first, by instance ID, then dynamic members by member ID, each
// compared as Java compares strings. Two members that share an instance ID (a
// group the coordinator never forms) are ordered by member ID, where Java
// would leave them in hash-map order.
func javaOrder(ix *assignor.Index) []int32 {
	ring := make([]int32, ix.NumMembers())
	for i := range ring {
		ring[i] = int32(i)
	}
	slices.SortFunc(ring, func(a, b int32) int {
		ma, mb := ix.Member(a), ix.Member(b)
		staticA, staticB := ma.InstanceID != "", mb.InstanceID != ""
		switch {
		case staticA && staticB:
			if c := compareJava(ma.InstanceID, mb.InstanceID); c != 0 {
				return c
			}
		case staticA:
			return -1
		case staticB:
			return 1
		}
		return compareJava(ma.ID, mb.ID)
	})
	return ring
}

// compareJava compares a and b as Java's String.compareTo does: by UTF-16
// code units, not by bytes. The two orders differ only where a character
// above U+FFFF (a surrogate pair in UTF-16, 0xD800-0xDBFF first) meets one in
// U+E000-U+FFFF: bytes put the former last, Java first. Strings that decode
// to the same code units (invalid UTF-8 reads as U+FFFD) fall back to byte
// order, so the result is a total order.
func compareJava(a, b string) int {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			return cmp.Compare(utf16Lead(ra), utf16Lead(rb))
		}
		i, j = i+na, j+nb
	}
	// One is a prefix of the other in code units; the shorter sorts first.
	if c := cmp.Compare(utf16Len(a), utf16Len(b)); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// utf16Lead maps r to a key ordered as r's first UTF-16 code unit, with
// ties (two runes sharing a high surrogate) broken by the rune itself.
func utf16Lead(r rune) int64 {
	if r < 0x10000 {
		return int64(r) << 21
	}
	high := 0xD800 + (r-0x10000)>>10
	return int64(high)<<21 | int64(r)
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
