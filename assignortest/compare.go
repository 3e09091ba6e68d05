package assignortest

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/kgroup/assignor"
)

// diffPlans returns one error per difference between plans want and got,
// each wrapping sentinel and naming the member and partition: a member entry
// in one plan only, a partition assigned (or revoked) in one only, different
// user data, a different follow-up flag. Nil and empty slices are the same.
func diffPlans(want, got assignor.Plan, sentinel error) []error {
	var errs []error
	gotByID := make(map[string]assignor.MemberPlan, len(got.Members))
	for _, mp := range got.Members {
		gotByID[mp.Member] = mp
	}
	wantIDs := make(map[string]bool, len(want.Members))
	for _, w := range want.Members {
		wantIDs[w.Member] = true
		g, ok := gotByID[w.Member]
		if !ok {
			errs = append(errs, &assignor.MemberError{Member: w.Member, Err: fmt.Errorf("%w: member entry missing the second time", sentinel)})
			continue
		}
		for _, field := range []struct {
			name      string
			want, got []assignor.TopicPartitions
		}{{"assigned", w.Assigned, g.Assigned}, {"revoked", w.Revoked, g.Revoked}} {
			errs = append(errs, partitionErrors(w.Member, assignor.SubtractTopicPartitions(field.want, field.got), fmt.Errorf("%w: %s the first time, not the second", sentinel, field.name))...)
			errs = append(errs, partitionErrors(w.Member, assignor.SubtractTopicPartitions(field.got, field.want), fmt.Errorf("%w: %s the second time, not the first", sentinel, field.name))...)
		}
		if !bytes.Equal(w.UserData, g.UserData) {
			errs = append(errs, &assignor.MemberError{Member: w.Member, Err: fmt.Errorf("%w: assignment user data differs", sentinel)})
		}
	}
	for _, g := range got.Members {
		if !wantIDs[g.Member] {
			errs = append(errs, &assignor.MemberError{Member: g.Member, Err: fmt.Errorf("%w: member entry only the second time", sentinel)})
		}
	}
	if want.FollowUp != got.FollowUp {
		errs = append(errs, fmt.Errorf("%w: follow-up %v the first time, %v the second", sentinel, want.FollowUp, got.FollowUp))
	}
	return errs
}

// partitionErrors returns one error per partition of tps, in tps's order,
// naming member and the partition, each wrapping err.
func partitionErrors(member string, tps []assignor.TopicPartitions, err error) []error {
	var errs []error
	for _, tp := range tps {
		for _, id := range tp.Partitions {
			errs = append(errs, &assignor.PartitionError{Member: member, Topic: tp.Topic, Partition: id, Generation: assignor.NoGeneration, Err: err})
		}
	}
	return errs
}

// diffGroups returns one error per member or topic of want that differs in
// got, wrapping sentinel and naming the field; want and got must both come
// from [assignor.Group.Clone] (so nil and empty slices match up).
func diffGroups(want, got assignor.Group, sentinel error) []error {
	var errs []error
	if len(want.Members) != len(got.Members) || len(want.Topics) != len(got.Topics) {
		return []error{fmt.Errorf("%w: %d members and %d topics became %d and %d", sentinel, len(want.Members), len(want.Topics), len(got.Members), len(got.Topics))}
	}
	for i, w := range want.Members {
		g := got.Members[i]
		if w.ID != g.ID {
			// Reordered or replaced: the other fields say nothing more.
			errs = append(errs, &assignor.MemberError{Member: w.ID, Err: fmt.Errorf("%w: Members[%d] is now member %q", sentinel, i, g.ID)})
			continue
		}
		for _, f := range []struct {
			name string
			same bool
		}{
			{"InstanceID", w.InstanceID == g.InstanceID},
			{"Rack", w.Rack == g.Rack},
			{"Topics", reflect.DeepEqual(w.Topics, g.Topics)},
			{"Owned", reflect.DeepEqual(w.Owned, g.Owned)},
			{"Generation", w.Generation == g.Generation},
			{"UserData", reflect.DeepEqual(w.UserData, g.UserData)},
		} {
			if !f.same {
				errs = append(errs, &assignor.MemberError{Member: w.ID, Err: fmt.Errorf("%w: Members[%d].%s changed", sentinel, i, f.name)})
			}
		}
	}
	for i, w := range want.Topics {
		g := got.Topics[i]
		for _, f := range []struct {
			name string
			same bool
		}{
			{"Name", w.Name == g.Name},
			{"Partitions", reflect.DeepEqual(w.Partitions, g.Partitions)},
			{"ReplicaRacks", reflect.DeepEqual(w.ReplicaRacks, g.ReplicaRacks)},
		} {
			if !f.same {
				errs = append(errs, &assignor.TopicError{Topic: w.Name, Err: fmt.Errorf("%w: Topics[%d].%s changed", sentinel, i, f.name)})
			}
		}
	}
	return errs
}

// scribble overwrites everything plan's slices hold, so that any memory the
// plan shares with its input shows up as a change in the input.
func scribble(plan assignor.Plan) {
	for i := range plan.Members {
		mp := &plan.Members[i]
		for _, tps := range [][]assignor.TopicPartitions{mp.Assigned, mp.Revoked} {
			for j := range tps {
				tps[j].Topic = "\x00scribbled"
				for k := range tps[j].Partitions {
					tps[j].Partitions[k] = -1 << 30
				}
			}
		}
		for k := range mp.UserData {
			mp.UserData[k] ^= 0xff
		}
	}
}

// checkBalanced reports a member of plan given two or more partitions more
// than another; the plan's members must have identical subscriptions.
func checkBalanced(plan assignor.Plan) []error {
	if len(plan.Members) == 0 {
		return nil
	}
	most, least := plan.Members[0], plan.Members[0]
	for _, mp := range plan.Members[1:] {
		if mp.NumAssigned() > most.NumAssigned() {
			most = mp
		}
		if mp.NumAssigned() < least.NumAssigned() {
			least = mp
		}
	}
	if most.NumAssigned()-least.NumAssigned() <= 1 {
		return nil
	}
	return []error{&assignor.MemberError{Member: most.Member, Err: fmt.Errorf("%w: %d partitions, but member %q has %d",
		ErrUnbalanced, most.NumAssigned(), least.Member, least.NumAssigned())}}
}

// checkMoves reports the partitions an assignor declared sticky moved
// without need, between the valid ownership of g and plan (of a group whose
// members have identical subscriptions; a member of plan missing from g owns
// nothing).
//
// A member that owned o partitions and ends with f must lose at least
// max(0, o-f) of them; losing more is churn. And with balanced final counts
// (each member floor(P/M) or one more), the fewest losses are had by giving
// the larger counts to the members that owned most:
//
//	owned a:4 b:4 c:4, d joins, 12 partitions: quotas 3 each, 3 moves
//	owned a:6 b:3 c:1, 10 partitions: a:4 b:3 c:3 (2 moves), not a:3 b:4 c:3 (3)
func checkMoves(g assignor.Group, plan assignor.Plan) []error {
	ix, err := assignor.NewIndex(g)
	if err != nil {
		return []error{err}
	}
	owned := make(map[string][]assignor.TopicPartitions)
	for p := range int32(ix.NumPartitions()) {
		m := ix.Owner(p)
		if m < 0 {
			continue
		}
		id := ix.Member(m).ID
		topic, pid := ix.Partition(p)
		owned[id] = append(owned[id], assignor.TopicPartitions{Topic: topic, Partitions: []int32{pid}})
	}
	var errs []error
	moves, total := 0, 0
	ownedCounts := make([]int, 0, len(plan.Members))
	for _, mp := range plan.Members {
		o := assignor.NormalizeTopicPartitions(owned[mp.Member])
		lost := assignor.SubtractTopicPartitions(o, mp.Assigned)
		had, keeps, lostCount := assignor.CountPartitions(o), mp.NumAssigned(), assignor.CountPartitions(lost)
		need := max(0, had-keeps)
		if lostCount > need {
			errs = append(errs, partitionErrors(mp.Member, lost, fmt.Errorf("%w: moved away, though the member owned %d and keeps %d, so at most %d had to go", ErrNotSticky, had, keeps, need))...)
		}
		moves += lostCount
		total += keeps
		ownedCounts = append(ownedCounts, had)
	}
	if len(errs) > 0 || len(plan.Members) == 0 {
		return errs
	}
	if least := minimumMoves(ownedCounts, total); moves > least {
		errs = append(errs, fmt.Errorf("%w: %d partitions moved, balance requires only %d", ErrNotSticky, moves, least))
	}
	return errs
}

// minimumMoves is the fewest partitions members owning owned[i] must give
// up so that total partitions end balanced among them: the total mod M
// members owning most keep one more than the rest.
func minimumMoves(owned []int, total int) int {
	sorted := slices.Clone(owned)
	slices.SortFunc(sorted, func(a, b int) int { return cmp.Compare(b, a) })
	base, extra := total/len(sorted), total%len(sorted)
	moves := 0
	for i, o := range sorted {
		quota := base
		if i < extra {
			quota++
		}
		moves += max(0, o-quota)
	}
	return moves
}
