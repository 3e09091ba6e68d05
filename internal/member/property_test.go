package member

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kgroup/assignor"
)

// TestRandomEvents feeds random event sequences to a machine and checks the
// invariants every caller relies on:
//   - the partitions the actions deliver (StartDelivery minus StopDelivery)
//     are exactly what the machine owns;
//   - an eager member never claims anything in a JoinGroup;
//   - a step that sends a JoinGroup has stopped, revoked and committed (or
//     declared lost) every partition it gave up before the JoinGroup;
//   - a stopped machine emits nothing, and Stop is the last action;
//   - a coordinator error never loses a partition or stops the member, and
//     while the coordinator is looked up no JoinGroup or SyncGroup goes
//     out; every backoff is within Config's bounds.
func TestRandomEvents(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		proto := rapid.SampledFrom([]assignor.Protocol{assignor.Eager, assignor.Cooperative}).Draw(rt, "protocol")
		instance := rapid.SampledFrom([]string{"", "i1"}).Draw(rt, "instance")
		m := New(Config{InstanceID: instance, Topics: []string{"t0", "t1"}, Protocol: proto})
		delivering := map[[2]any]bool{}
		m.Step(Start{})
		for range rapid.IntRange(1, 60).Draw(rt, "steps") {
			wasStopped := m.Phase() == Stopped
			before := m.Owned()
			ev := drawEvent(rt, m)
			acts := m.Step(ev)
			if wasStopped && len(acts) > 0 {
				rt.Fatalf("stopped machine emitted %v", acts)
			}
			checkActions(rt, proto, before, acts, delivering)
			checkCoordinator(rt, m, ev, acts)
			var owned []assignor.TopicPartitions
			for k := range delivering {
				owned = append(owned, assignor.TopicPartitions{Topic: k[0].(string), Partitions: []int32{k[1].(int32)}})
			}
			if got, want := assignor.FormatTopicPartitions(assignor.NormalizeTopicPartitions(owned)), assignor.FormatTopicPartitions(m.Owned()); got != want {
				rt.Fatalf("delivering %q, machine owns %q after %v", got, want, acts)
			}
		}
	})
}

// drawAssigned draws an assignment over t0, t1 and t2 (which m does not
// subscribe to at first).
var drawAssigned = rapid.Custom(func(rt *rapid.T) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, topic := range []string{"t0", "t1", "t2"} {
		ps := rapid.SliceOfDistinct(rapid.Int32Range(0, 5), rapid.ID[int32]).Draw(rt, "partitions")
		out = append(out, assignor.TopicPartitions{Topic: topic, Partitions: ps})
	}
	return out
})

// randomCodes are the error codes answers draw from, mostly None.
var randomCodes = []ErrorCode{None, None, None, None, None, None, IllegalGeneration, UnknownMemberID, RebalanceInProgress, RebalanceInProgress,
	MemberIDRequired, 7, FencedInstanceID, NotCoordinator, CoordinatorNotAvailable, CoordinatorLoadInProgress}

// drawEvent draws the next event for m: mostly the answer its phase waits
// for (a JoinGroup answer while joining, a FindCoordinator answer while it
// looks for its coordinator), otherwise any event, so that stray and late
// answers are covered too. Answers mostly carry the generation the machine
// waits for, so sequences reach stable ownership often.
func drawEvent(rt *rapid.T, m *Machine) Event {
	gen := rapid.SampledFrom([]int32{m.joined, m.joined, m.generation, m.generation - 1, m.joined + 1}).Draw(rt, "gen")
	code := rapid.SampledFrom(randomCodes).Draw(rt, "code")
	if rapid.IntRange(0, 2).Draw(rt, "expected") > 0 {
		switch {
		case m.FindingCoordinator():
			return FindCoordinatorResponse{Err: rapid.SampledFrom([]ErrorCode{None, None, CoordinatorNotAvailable}).Draw(rt, "found")}
		case m.Phase() == Joining:
			return JoinResponse{Err: code, MemberID: "m1", Generation: m.generation + 1}
		case m.Phase() == Syncing:
			return SyncResponse{Generation: gen, Err: code, Assigned: drawAssigned.Draw(rt, "assigned"), Rejoin: rapid.Bool().Draw(rt, "rejoin")}
		case m.Phase() == Stable:
			return HeartbeatResponse{Generation: gen, Err: code}
		}
	}
	// Leave and FENCED_INSTANCE_ID end a machine; keep them rare.
	switch rapid.IntRange(0, 30).Draw(rt, "kind") {
	case 0:
		return Start{}
	case 1:
		return Leave{}
	case 2, 3:
		return SubscriptionChanged{Topics: rapid.SliceOfDistinct(rapid.SampledFrom([]string{"t0", "t1", "t2"}), rapid.ID[string]).Draw(rt, "topics")}
	case 4, 5:
		return MetadataChanged{}
	case 6, 7, 8, 9:
		return HeartbeatResponse{Generation: gen, Err: code}
	case 10, 11, 12:
		return CommitResponse{Generation: gen, Err: code}
	case 13, 14, 15, 16, 17, 18:
		return JoinResponse{Err: code, MemberID: "m1", Generation: m.generation + 1}
	case 19, 20, 21:
		return FindCoordinatorResponse{Err: rapid.SampledFrom([]ErrorCode{None, None, CoordinatorNotAvailable}).Draw(rt, "found")}
	default:
		return SyncResponse{Generation: gen, Err: code, Assigned: drawAssigned.Draw(rt, "assigned"), Rejoin: rapid.Bool().Draw(rt, "rejoin")}
	}
}

// checkActions checks one step's actions, given what the machine owned
// before (before), and applies their deliveries to delivering: no partition
// starts twice; an eager member claims nothing in a JoinGroup; a JoinGroup
// comes after the revocation (or loss) of everything the member gave up,
// and a step sends at most one (a revoking member that is also marked for
// fast re-join rejoins once); Stop comes last.
func checkActions(rt *rapid.T, proto assignor.Protocol, before []assignor.TopicPartitions, acts []Action, delivering map[[2]any]bool) {
	released := map[[2]any]bool{}
	joins := 0
	for i, a := range acts {
		if _, ok := a.(SendJoin); ok {
			if joins++; joins > 1 {
				rt.Fatalf("two JoinGroups in one step: %v", acts)
			}
		}
		switch a := a.(type) {
		case StopDelivery:
			for _, k := range flattenKeys(a.Partitions) {
				delete(delivering, k)
			}
		case StartDelivery:
			for _, k := range flattenKeys(a.Partitions) {
				if delivering[k] {
					rt.Fatalf("%s/%d started twice", k[0], k[1])
				}
				delivering[k] = true
			}
		case OnRevoked:
			for _, k := range flattenKeys(a.Partitions) {
				released[k] = true
			}
		case OnLost:
			for _, k := range flattenKeys(a.Partitions) {
				released[k] = true
			}
		case SendJoin:
			if proto == assignor.Eager && len(a.Owned) > 0 {
				rt.Fatalf("eager member claims %v", a.Owned)
			}
			for _, k := range flattenKeys(assignor.SubtractTopicPartitions(before, a.Owned)) {
				if !released[k] && !startedIn(acts[:i], k) {
					rt.Fatalf("gave up %v before JoinGroup without revoking or losing it: %v", k, acts)
				}
			}
		case Stop:
			if i != len(acts)-1 {
				rt.Fatalf("Stop is not the last action: %v", acts)
			}
		}
	}
}

// checkCoordinator checks one step against the coordinator rules: an event
// carrying a coordinator error loses nothing and never stops the member;
// while the machine looks for its coordinator, it sends no JoinGroup or
// SyncGroup; backoffs stay within the defaults' bounds.
func checkCoordinator(rt *rapid.T, m *Machine, ev Event, acts []Action) {
	var code ErrorCode
	switch ev := ev.(type) {
	case HeartbeatResponse:
		code = ev.Err
	case CommitResponse:
		code = ev.Err
	case JoinResponse:
		code = ev.Err
	case SyncResponse:
		code = ev.Err
	case FindCoordinatorResponse:
		code = ev.Err
	}
	coordinatorCode := code == NotCoordinator || code == CoordinatorNotAvailable || code == CoordinatorLoadInProgress
	for _, a := range acts {
		switch a := a.(type) {
		case OnLost, Stop:
			if coordinatorCode {
				rt.Fatalf("%v after %v: a coordinator error cost the member its partitions: %v", a, ev, acts)
			}
		case SendJoin, SendSync:
			if m.FindingCoordinator() {
				rt.Fatalf("%v sent while the coordinator is being looked up: %v", a, acts)
			}
			if j, ok := a.(SendJoin); ok && (j.Backoff < 0 || j.Backoff > DefaultRetryBackoffMax) {
				rt.Fatalf("join backoff %v out of bounds", j.Backoff)
			}
		case FindCoordinator:
			if a.Backoff < DefaultRetryBackoff || a.Backoff > DefaultRetryBackoffMax || a.Attempt < 1 || !m.FindingCoordinator() {
				rt.Fatalf("%v out of bounds (finding=%v)", a, m.FindingCoordinator())
			}
		}
	}
}

func flattenKeys(tps []assignor.TopicPartitions) [][2]any {
	var out [][2]any
	for _, tp := range tps {
		for _, p := range tp.Partitions {
			out = append(out, [2]any{tp.Topic, p})
		}
	}
	return out
}

// startedIn reports whether k was assigned within acts (then it is not
// something the member gave up).
func startedIn(acts []Action, k [2]any) bool {
	for _, a := range acts {
		if s, ok := a.(StartDelivery); ok && slices.Contains(flattenKeys(s.Partitions), k) {
			return true
		}
	}
	return false
}
