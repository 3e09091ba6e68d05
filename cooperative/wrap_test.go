package cooperative

import (
	"bytes"
	"slices"
	"testing"

	"github.com/kgroup/assignor"
)

func TestWrapDeclarations(t *testing.T) {
	tests := []struct {
		name         string
		inner        assignor.Assignor
		wantName     string
		wantBalanced bool
		wantSticky   bool
		wantObserver bool
	}{
		{name: "plain inner declares nothing", inner: hashAssignor{}, wantName: "cooperative-hash"},
		{name: "declarations are forwarded", inner: &declaring{}, wantName: "cooperative-declaring", wantBalanced: true, wantSticky: true, wantObserver: true},
		{name: "nil inner", inner: nil, wantName: "cooperative-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Wrap(tt.inner)
			if w.Name() != tt.wantName {
				t.Errorf("Name = %q, want %q", w.Name(), tt.wantName)
			}
			if got := assignor.Protocols(w); !slices.Equal(got, []assignor.Protocol{assignor.Cooperative, assignor.Eager}) {
				t.Errorf("Protocols = %v, want [cooperative eager]", got)
			}
			if assignor.IsBalanced(w) != tt.wantBalanced || assignor.IsSticky(w) != tt.wantSticky {
				t.Errorf("balanced, sticky = %v, %v; want %v, %v", assignor.IsBalanced(w), assignor.IsSticky(w), tt.wantBalanced, tt.wantSticky)
			}
			if _, ok := w.(assignor.AssignmentObserver); ok != tt.wantObserver {
				t.Errorf("is an AssignmentObserver = %v, want %v", ok, tt.wantObserver)
			}
		})
	}
}

func TestOnAssignmentForwarded(t *testing.T) {
	inner := &declaring{}
	w := Wrap(inner).(assignor.AssignmentObserver)
	w.OnAssignment(parseTPs("t0[1]"), nil, 7)
	if !slices.Equal(inner.observed, []int32{7}) {
		t.Errorf("inner saw generations %v, want [7]", inner.observed)
	}
}

// TestSubscriptionUserData pins the cooperative-sticky user data Java's
// CooperativeStickyAssignor sends (the generation as a big-endian int32),
// and the option to send the inner assignor's own.
func TestSubscriptionUserData(t *testing.T) {
	tests := []struct {
		name  string
		inner assignor.Assignor
		cfg   Config
		gen   int32
		want  []byte
	}{
		{name: "generation 5", inner: hashAssignor{}, gen: 5, want: []byte{0, 0, 0, 5}},
		{name: "no generation is -1, as Java's DEFAULT_GENERATION", inner: hashAssignor{}, gen: assignor.NoGeneration, want: []byte{0xff, 0xff, 0xff, 0xff}},
		{name: "big generation", inner: &declaring{}, gen: 0x01020304, want: []byte{1, 2, 3, 4}},
		{name: "inner's own user data", inner: &declaring{}, cfg: Config{InnerUserData: true}, gen: 3, want: []byte("inner:3")},
		{name: "inner has no hook: none", inner: hashAssignor{}, cfg: Config{InnerUserData: true}, gen: 3, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := WrapWithConfig(tt.inner, tt.cfg).(assignor.SubscriptionUserDataAssignor)
			got, err := w.SubscriptionUserData(assignor.MemberState{Topics: []string{"t0"}, Generation: tt.gen})
			if err != nil || !bytes.Equal(got, tt.want) {
				t.Errorf("SubscriptionUserData = %x, %v; want %x", got, err, tt.want)
			}
		})
	}
}

// TestInnerUserDataForwarded: the inner plan's assignment user data reaches
// the wrapped plan, copied.
func TestInnerUserDataForwarded(t *testing.T) {
	g := assignor.Group{Members: []assignor.Member{member("m0", 1, "t0", "")}, Topics: []assignor.Topic{topic("t0", 1)}}
	data := []byte("hello")
	plan, err := Wrap(userDataAssignor{data}).Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	got := plan.Members[0].UserData
	if !bytes.Equal(got, data) || &got[0] == &data[0] {
		t.Errorf("UserData = %q (aliased: %v), want a copy of %q", got, len(got) > 0 && &got[0] == &data[0], data)
	}
}

type userDataAssignor struct{ data []byte }

func (userDataAssignor) Name() string { return "ud" }

func (u userDataAssignor) Assign(g assignor.Group) (assignor.Plan, error) {
	plan, err := hashAssignor{}.Assign(g)
	for i := range plan.Members {
		plan.Members[i].UserData = u.data
	}
	return plan, err
}

// TestIndexUserDataForwarded: the user data of a dense answer (the fast path)
// reaches the plan.
func TestIndexUserDataForwarded(t *testing.T) {
	g := assignor.Group{Members: []assignor.Member{member("m0", 1, "t0", ""), member("m1", 1, "t0", "")}, Topics: []assignor.Topic{topic("t0", 2)}}
	inner := indexedHash{spoil: func(_ *assignor.Index, h []int32) ([]int32, [][]byte) {
		return h, [][]byte{[]byte("zero"), nil}
	}}
	plan, err := Wrap(inner).Assign(g)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.String(); got != "m0: t0[0] userdata=4B\nm1: t0[1]\n" {
		t.Errorf("plan:\n%s", got)
	}
}
