package assignortest

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kgroup/assignor"
)

// violation is one of the kit's findings, worded as a sentence of its own
// that names the culprit where the sentence needs it, over err, an
// [*assignor.MemberError], [*assignor.TopicError] or [*assignor.PartitionError]
// wrapping the kit's sentinel, so that errors.Is and errors.As find them.
type violation struct {
	text string
	err  error
}

func (v *violation) Error() string { return v.text }
func (v *violation) Unwrap() error { return v.err }

// memberViolation returns a violation about member: the sentinel's text,
// then the sentence format and args make.
func memberViolation(member string, sentinel error, format string, args ...any) error {
	return &violation{text: sentinel.Error() + ": " + fmt.Sprintf(format, args...), err: &assignor.MemberError{Member: member, Err: sentinel}}
}

// topicViolation is memberViolation for a topic of the metadata.
func topicViolation(topic string, sentinel error, format string, args ...any) error {
	return &violation{text: sentinel.Error() + ": " + fmt.Sprintf(format, args...), err: &assignor.TopicError{Topic: topic, Err: sentinel}}
}

// partitionViolations returns one violation per partition of tps, in tps's
// order, about member and the partition: the sentinel's text, then the
// sentence say makes of the partition ("t0/3").
func partitionViolations(member string, tps []assignor.TopicPartitions, sentinel error, say func(partition string) string) []error {
	var errs []error
	for _, tp := range tps {
		for _, id := range tp.Partitions {
			errs = append(errs, &violation{
				text: sentinel.Error() + ": " + say(fmt.Sprintf("%s/%d", tp.Topic, id)),
				err:  &assignor.PartitionError{Member: member, Topic: tp.Topic, Partition: id, Generation: assignor.NoGeneration, Err: sentinel},
			})
		}
	}
	return errs
}

// diffPlans returns one error per difference between plans want and got,
// each wrapping sentinel and naming the member and partition: a member entry
// in one plan only, a partition assigned (or revoked) in one only, different
// user data, a different follow-up flag. first and second say where each
// plan came from, as a sentence ends ("in the first call"). Nil and empty
// slices are the same.
func diffPlans(want, got assignor.Plan, sentinel error, first, second string) []error {
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
			errs = append(errs, memberViolation(w.Member, sentinel, "member %q has an entry %s but none %s", w.Member, first, second))
			continue
		}
		for _, field := range []struct {
			verb      string
			want, got []assignor.TopicPartitions
		}{{"goes to", w.Assigned, g.Assigned}, {"is revoked from", w.Revoked, g.Revoked}} {
			errs = append(errs, partitionViolations(w.Member, assignor.SubtractTopicPartitions(field.want, field.got), sentinel, func(p string) string {
				return fmt.Sprintf("%s %s member %q %s but not %s", p, field.verb, w.Member, first, second)
			})...)
			errs = append(errs, partitionViolations(w.Member, assignor.SubtractTopicPartitions(field.got, field.want), sentinel, func(p string) string {
				return fmt.Sprintf("%s %s member %q %s but not %s", p, field.verb, w.Member, second, first)
			})...)
		}
		if !bytes.Equal(w.UserData, g.UserData) {
			errs = append(errs, memberViolation(w.Member, sentinel, "member %q gets assignment user data %s %s and %s %s", w.Member, userData(w.UserData), first, userData(g.UserData), second))
		}
	}
	for _, g := range got.Members {
		if !wantIDs[g.Member] {
			errs = append(errs, memberViolation(g.Member, sentinel, "member %q has an entry %s but none %s", g.Member, second, first))
		}
	}
	if want.FollowUp != got.FollowUp {
		with, without := first, second
		if got.FollowUp {
			with, without = second, first
		}
		errs = append(errs, fmt.Errorf("%w: the plan asks for a follow-up rebalance %s but not %s", sentinel, with, without))
	}
	return errs
}

// userData renders assignment user data for a message: its length and its
// bytes quoted, cut short.
func userData(b []byte) string {
	const show = 16
	if len(b) > show {
		return fmt.Sprintf("%q… (%dB)", b[:show], len(b))
	}
	return fmt.Sprintf("%q (%dB)", b, len(b))
}

// diffGroups returns one error per member or topic of want that differs in
// got, wrapping sentinel and naming the field, what it was and what it
// became; after says when, as a sentence ends ("during Assign"). want and
// got must both come from [assignor.Group.Clone] (so nil and empty slices
// match up).
func diffGroups(want, got assignor.Group, sentinel error, after string) []error {
	if len(want.Members) != len(got.Members) || len(want.Topics) != len(got.Topics) {
		return []error{fmt.Errorf("%w: the group's %d members and %d topics became %d members and %d topics %s",
			sentinel, len(want.Members), len(want.Topics), len(got.Members), len(got.Topics), after)}
	}
	var errs []error
	for i, w := range want.Members {
		g := got.Members[i]
		if w.ID != g.ID {
			// Reordered or replaced: the other fields say nothing more.
			errs = append(errs, memberViolation(w.ID, sentinel, "Members[%d] was member %q and became member %q %s", i, w.ID, g.ID, after))
			continue
		}
		for _, f := range []struct {
			name        string
			same        bool
			was, became any
		}{
			{"InstanceID", w.InstanceID == g.InstanceID, quoted(w.InstanceID), quoted(g.InstanceID)},
			{"Rack", w.Rack == g.Rack, quoted(w.Rack), quoted(g.Rack)},
			{"Topics", reflect.DeepEqual(w.Topics, g.Topics), w.Topics, g.Topics},
			{"Owned", reflect.DeepEqual(w.Owned, g.Owned), ownedText(w.Owned), ownedText(g.Owned)},
			{"Generation", w.Generation == g.Generation, w.Generation, g.Generation},
			{"UserData", reflect.DeepEqual(w.UserData, g.UserData), userData(w.UserData), userData(g.UserData)},
		} {
			if !f.same {
				errs = append(errs, memberViolation(w.ID, sentinel, "Members[%d].%s (member %q) changed %s: %s became %s", i, f.name, w.ID, after, short(f.was), short(f.became)))
			}
		}
	}
	for i, w := range want.Topics {
		g := got.Topics[i]
		for _, f := range []struct {
			name        string
			same        bool
			was, became any
		}{
			{"Name", w.Name == g.Name, quoted(w.Name), quoted(g.Name)},
			{"Partitions", reflect.DeepEqual(w.Partitions, g.Partitions), w.Partitions, g.Partitions},
			{"ReplicaRacks", reflect.DeepEqual(w.ReplicaRacks, g.ReplicaRacks), w.ReplicaRacks, g.ReplicaRacks},
			{"Weights", reflect.DeepEqual(w.Weights, g.Weights), w.Weights, g.Weights},
		} {
			if !f.same {
				errs = append(errs, topicViolation(w.Name, sentinel, "Topics[%d].%s (topic %q) changed %s: %s became %s", i, f.name, w.Name, after, short(f.was), short(f.became)))
			}
		}
	}
	return errs
}

// quoted is s quoted as a Go string literal, as a value in a message.
func quoted(s string) string { return strconv.Quote(s) }

// ownedText renders claims as a message shows them: "t0[0 1] t1[3]", or
// "nothing".
func ownedText(tps []assignor.TopicPartitions) string {
	if len(tps) == 0 {
		return "nothing"
	}
	return strings.TrimPrefix(formatTopicPartitions(tps), " ")
}

// short renders v for a message, cut to 100 bytes.
func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) <= 100 {
		return s
	}
	end := 100
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}

// scribbled is the topic name scribble writes: printable, and no topic of
// the kit's groups.
const scribbled = "overwritten-by-assignortest"

// scribble overwrites everything plan's slices hold, so that any memory the
// plan shares with its input shows up as a change in the input.
func scribble(plan assignor.Plan) {
	for i := range plan.Members {
		mp := &plan.Members[i]
		for _, tps := range [][]assignor.TopicPartitions{mp.Assigned, mp.Revoked} {
			for j := range tps {
				tps[j].Topic = scribbled
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
	return []error{memberViolation(most.Member, ErrUnbalanced, "member %q has %d partitions and member %q %d; with identical subscriptions no two members may be more than one apart",
		most.Member, most.NumAssigned(), least.Member, least.NumAssigned())}
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
			errs = append(errs, partitionViolations(mp.Member, lost, ErrNotSticky, func(p string) string {
				return fmt.Sprintf("%s moved away from member %q, which owned %d partitions and keeps %d, so %s had to move and %d did", p, mp.Member, had, keeps, howMany(need), lostCount)
			})...)
		}
		moves += lostCount
		total += keeps
		ownedCounts = append(ownedCounts, had)
	}
	if len(errs) > 0 || len(plan.Members) == 0 {
		return errs
	}
	if least := minimumMoves(ownedCounts, total); moves > least {
		errs = append(errs, fmt.Errorf("%w: %d partitions moved where balance requires %d", ErrNotSticky, moves, least))
	}
	return errs
}

// howMany says n in a sentence: "none", "only 1", "only 3".
func howMany(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("only %d", n)
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
