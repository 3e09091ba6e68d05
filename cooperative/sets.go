package cooperative

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/kgroup/assignor"
)

// Sets is KIP-429's view of one cooperative rebalance, as the leader works it
// out: the owned partitions (every partition some member claims) and the
// assigned partitions (the inner assignor's plan) split into three exclusive
// sets, each partition with its fate this round. Each set is sorted by
// topic, then partition. Partitions nobody claims and the inner assignor
// leaves out are in no set.
type Sets struct {
	// MaybeRevoking = owned ∩ assigned: partitions some member claims that
	// the inner assignor assigns. Each is [Kept] or [Withheld].
	MaybeRevoking []Partition
	// ReadyToMigrate = assigned − owned: partitions nobody claims (new ones,
	// or ones their owner revoked last round). Each is [Handed].
	ReadyToMigrate []Partition
	// UnknownButOwned = owned − assigned: partitions some member claims that
	// the inner assignor does not assign (outside the leader's metadata, or
	// left out). Each is [GivenBack] or [Revoked].
	UnknownButOwned []Partition
}

// Partition is one partition of [Sets] and what happens to it this round.
type Partition struct {
	Topic     string
	Partition int32
	// Claimants are the members that claim the partition, highest
	// generation first, then by member ID; nil if nobody claims it.
	Claimants []Claimant
	// Owner is the member ID of the valid owner (the unique
	// highest-generation claimant), or "" when the partition has none: no
	// claimant, a tie at the highest generation (contested), or a negative
	// partition.
	Owner string
	// Target is the member the inner assignor gave the partition, or ""
	// (unknown-but-owned).
	Target string
	// Outside says why the partition is outside the leader's metadata, or
	// is 0 when it is inside.
	Outside assignor.OutsideReason
	// Fate is what this round does with it.
	Fate Fate
}

// Claimant is one member's claim on a partition.
type Claimant struct {
	Member     string
	Generation int32
}

// Fate is what one cooperative rebalance does with a partition.
type Fate uint8

const (
	// Kept: maybe-revoking, and the inner assignor leaves it with its valid
	// owner, which keeps it; any other claimant revokes it.
	Kept Fate = iota + 1
	// Withheld: maybe-revoking, and the inner assignor gives it to a member
	// that is not its valid owner. Nobody gets it this round; every claimant
	// revokes it, and the follow-up rebalance hands it over.
	Withheld
	// Handed: ready-to-migrate; its target gets it now.
	Handed
	// GivenBack: unknown-but-owned; its valid owner keeps it (it still
	// subscribes to the topic, and the partition could exist).
	GivenBack
	// Revoked: unknown-but-owned; every claimant revokes it.
	Revoked
)

func (f Fate) String() string {
	switch f {
	case Kept:
		return "kept"
	case Withheld:
		return "withheld"
	case Handed:
		return "handed"
	case GivenBack:
		return "given back"
	case Revoked:
		return "revoked"
	}
	return "fate(" + strconv.Itoa(int(f)) + ")"
}

// Split runs one cooperative rebalance of g around inner with the default
// [Config], exactly as Wrap(inner).Assign(g) does, and also returns the three
// sets. See [SplitWithConfig].
func Split(g assignor.Group, inner assignor.Assignor) (Sets, assignor.Plan, error) {
	return SplitWithConfig(g, inner, Config{})
}

// SplitWithConfig runs one cooperative rebalance of g around inner, exactly
// as WrapWithConfig(inner, cfg).Assign(g) does (same plan, same errors), and
// also returns KIP-429's three sets with each partition's fate, for tools
// and tests. Building the sets costs O(P + C log C) and allocates per claimed
// or assigned partition; Assign does not build them. On error the sets are
// empty.
func SplitWithConfig(g assignor.Group, inner assignor.Assignor, cfg Config) (Sets, assignor.Plan, error) {
	w := &wrapper{inner: inner, cfg: cfg, name: "cooperative-"}
	if inner != nil {
		w.name += inner.Name()
	}
	return w.split(g, true)
}

// sets builds the Sets from the decided rebalance.
func (r *rebalance) sets() Sets {
	ix := r.ix
	claimants := make([][]Claimant, ix.NumPartitions())
	for m := range int32(ix.NumMembers()) {
		for _, p := range ix.Claims(m) {
			claimants[p] = append(claimants[p], Claimant{Member: ix.Member(m).ID, Generation: ix.Generation(m)})
		}
	}
	byGeneration := func(a, b Claimant) int {
		return cmp.Or(cmp.Compare(b.Generation, a.Generation), cmp.Compare(a.Member, b.Member))
	}
	member := func(m int32) string {
		if m < 0 {
			return ""
		}
		return ix.Member(m).ID
	}
	var s Sets
	for t := range int32(ix.NumTopics()) {
		first, end := ix.TopicRange(t)
		for p := first; p < end; p++ {
			cs := claimants[p]
			to, owner := r.target[p], ix.Owner(p)
			if len(cs) == 0 && to < 0 {
				continue
			}
			slices.SortFunc(cs, byGeneration)
			topic, id := ix.Partition(p)
			e := Partition{Topic: topic, Partition: id, Claimants: cs, Owner: member(owner), Target: member(to)}
			switch {
			case len(cs) == 0:
				e.Fate = Handed
				s.ReadyToMigrate = append(s.ReadyToMigrate, e)
			case to >= 0:
				e.Fate = Kept
				if r.final[p] < 0 {
					e.Fate = Withheld
				}
				s.MaybeRevoking = append(s.MaybeRevoking, e)
			default:
				e.Fate = Revoked
				if r.final[p] >= 0 {
					e.Fate = GivenBack
				}
				s.UnknownButOwned = append(s.UnknownButOwned, e)
			}
		}
	}
	s.addOutside(r)
	key := func(a, b Partition) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	}
	slices.SortFunc(s.MaybeRevoking, key)
	slices.SortFunc(s.UnknownButOwned, key)
	return s
}

// addOutside adds the claims outside the metadata, one entry per topic and
// partition with every claimant.
func (s *Sets) addOutside(r *rebalance) {
	ix := r.ix
	outside := ix.Outside()
	order := make([]int, len(outside))
	for i := range order {
		order[i] = i
	}
	// By topic, partition, then generation descending and member, so the
	// valid claim of each partition comes first.
	slices.SortFunc(order, func(a, b int) int {
		x, y := outside[a], outside[b]
		return cmp.Or(cmp.Compare(x.Topic, y.Topic), cmp.Compare(x.Partition, y.Partition), cmp.Compare(y.Generation, x.Generation), cmp.Compare(x.Member, y.Member))
	})
	for i := 0; i < len(order); {
		first := outside[order[i]]
		e := Partition{Topic: first.Topic, Partition: first.Partition, Outside: first.Reason, Fate: Revoked}
		if first.Valid {
			e.Owner = ix.Member(first.Member).ID
		}
		j := i
		for ; j < len(order) && outside[order[j]].Topic == first.Topic && outside[order[j]].Partition == first.Partition; j++ {
			oc := outside[order[j]]
			e.Claimants = append(e.Claimants, Claimant{Member: ix.Member(oc.Member).ID, Generation: oc.Generation})
			if r.innerBack != nil && r.innerBack[order[j]] {
				e.Target, e.Fate = e.Owner, Kept
			}
			if r.back[order[j]] && e.Fate != Kept {
				e.Fate = GivenBack
			}
		}
		if e.Fate == Kept {
			s.MaybeRevoking = append(s.MaybeRevoking, e)
		} else {
			s.UnknownButOwned = append(s.UnknownButOwned, e)
		}
		i = j
	}
}

// String renders the sets one partition a line, for logs and golden tests:
//
//	maybe-revoking t0/1 owner m0 -> m2 withheld
//	ready-to-migrate t0/2 -> m2 handed
//	unknown-but-owned t9/0 owner m1 given back (unknown topic)
func (s Sets) String() string {
	var b strings.Builder
	write := func(set string, ps []Partition) {
		for _, p := range ps {
			b.WriteString(set)
			b.WriteString(" ")
			b.WriteString(p.Topic)
			b.WriteString("/")
			b.WriteString(strconv.Itoa(int(p.Partition)))
			if p.Owner != "" {
				b.WriteString(" owner ")
				b.WriteString(p.Owner)
			} else if len(p.Claimants) > 0 {
				b.WriteString(" no owner (")
				for i, c := range p.Claimants {
					if i > 0 {
						b.WriteString(" ")
					}
					b.WriteString(c.Member)
					b.WriteString("@")
					b.WriteString(strconv.Itoa(int(c.Generation)))
				}
				b.WriteString(")")
			}
			if p.Target != "" {
				b.WriteString(" -> ")
				b.WriteString(p.Target)
			}
			b.WriteString(" ")
			b.WriteString(p.Fate.String())
			if p.Outside != 0 {
				b.WriteString(" (")
				b.WriteString(p.Outside.String())
				b.WriteString(")")
			}
			b.WriteString("\n")
		}
	}
	write("maybe-revoking", s.MaybeRevoking)
	write("ready-to-migrate", s.ReadyToMigrate)
	write("unknown-but-owned", s.UnknownButOwned)
	return b.String()
}
