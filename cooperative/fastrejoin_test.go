package cooperative

import (
	"bytes"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/wire"
)

// hooklessCooperative declares the cooperative protocol but builds no
// subscription user data: a sarama member would copy its assignment user
// data into its next subscription.
type hooklessCooperative struct{ planAssignor }

func (hooklessCooperative) Protocols() []assignor.Protocol {
	return []assignor.Protocol{assignor.Cooperative}
}

// eagerFollowUp is an eager assignor whose plans claim a follow-up (no
// eager assignor should; the mark must not follow it).
type eagerFollowUp struct{ planAssignor }

func (e eagerFollowUp) Assign(g assignor.Group) (assignor.Plan, error) {
	p, err := e.planAssignor.Assign(g)
	p.FollowUp = true
	return p, err
}

// TestAssignmentUserDataMarks pins when a leader marks an assignment for
// fast re-join (design step 2.6): only a cooperative plan that withholds
// something, from an assignor that builds its members' subscription user
// data, with the adapter's switch on; the inner user data rides inside.
func TestAssignmentUserDataMarks(t *testing.T) {
	followUp := assignor.Plan{FollowUp: true, Members: []assignor.MemberPlan{{Member: "m0", UserData: []byte("inner")}}}
	settled := assignor.Plan{Members: followUp.Members}
	tests := []struct {
		name   string
		a      assignor.Assignor
		plan   assignor.Plan
		on     bool // the adapter's switch
		marks  bool // MarksRejoin
		marked bool // what is sent
	}{
		{"a wrapped plan that withholds is marked", Wrap(roundrobin.New()), followUp, true, true, true},
		{"a settled plan is not", Wrap(roundrobin.New()), settled, true, false, false},
		{"the adapter's switch off: not marked", Wrap(roundrobin.New()), followUp, false, true, false},
		{"never in an eager plan", eagerFollowUp{}, followUp, true, false, false},
		{"not for a cooperative assignor whose members echo assignment user data (no subscription hook)", hooklessCooperative{}, followUp, true, false, false},
		{"no assignor", nil, followUp, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MarksRejoin(tt.a, tt.plan); got != tt.marks {
				t.Errorf("MarksRejoin = %v, want %v", got, tt.marks)
			}
			b := AssignmentUserData(tt.a, tt.plan, tt.plan.Members[0], tt.on)
			e, err := wire.DecodeRejoinEnvelope(b)
			if err != nil || e.Rejoin != tt.marked || string(e.UserData) != "inner" {
				t.Fatalf("sent % x, read %+v, %v; want marked=%v around the inner user data", b, e, err, tt.marked)
			}
			if !tt.marked && !bytes.Equal(b, []byte("inner")) {
				t.Errorf("unmarked user data is % x, want the inner bytes as they are", b)
			}
		})
	}
}

// A member joining a wrapped group: the plan withholds what moves, so every
// assignment of that round is marked, and the follow-up round's are not.
func TestWrappedPlanMarksEveryMemberUntilSettled(t *testing.T) {
	a := Wrap(roundrobin.New())
	g := assignor.Group{
		Topics:  []assignor.Topic{topic("t", 4)},
		Members: []assignor.Member{member("m0", 7, "t", "t[0 1 2 3]"), member("m1", -1, "t", "")},
	}
	plan, err := a.Assign(g)
	if err != nil || !plan.FollowUp {
		t.Fatalf("plan %v, %v: want a follow-up", plan, err)
	}
	for _, mp := range plan.Members {
		if e, _ := wire.DecodeRejoinEnvelope(AssignmentUserData(a, plan, mp, true)); !e.Rejoin {
			t.Errorf("%s: not marked", mp.Member)
		}
	}
	// m0 revoked t[1 3]; the follow-up hands them to m1 and settles.
	g.Members = []assignor.Member{member("m0", 8, "t", "t[0 2]"), member("m1", 8, "t", "")}
	plan, err = a.Assign(g)
	if err != nil || plan.FollowUp {
		t.Fatalf("follow-up plan %v, %v: want settled", plan, err)
	}
	for _, mp := range plan.Members {
		if b := AssignmentUserData(a, plan, mp, true); b != nil {
			t.Errorf("%s: settled assignment carries user data % x", mp.Member, b)
		}
	}
}
