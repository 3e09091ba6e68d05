package sticky

import (
	"strconv"
	"testing"

	"github.com/kgroup/assignor"
)

// groupFromBytes builds a small group from fuzz input: every byte is a
// decision (sizes, subscriptions, racks, claims and generations, including
// negative and out-of-range claims), so any input is a group.
func groupFromBytes(data []byte) assignor.Group {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	var g assignor.Group
	nt := 1 + next()%4
	racks := []string{"", "a", "b"}
	for t := range nt {
		n := next() % 9
		topic := assignor.Topic{Name: "t" + strconv.Itoa(t), Partitions: assignor.Partitions(int32(n))}
		if next()%2 == 0 && n > 0 {
			for range n {
				topic.ReplicaRacks = append(topic.ReplicaRacks, []string{racks[next()%3], racks[next()%3]})
			}
		}
		g.Topics = append(g.Topics, topic)
	}
	nm := 1 + next()%6
	for m := range nm {
		mem := assignor.Member{ID: "m" + strconv.Itoa(m), Rack: racks[next()%3], Generation: int32(next()%4) - 2}
		mask := next()
		for t := range nt + 1 { // one unknown topic
			if mask&(1<<t) != 0 {
				mem.Topics = append(mem.Topics, "t"+strconv.Itoa(t))
			}
		}
		for range next() % 5 {
			mem.Owned = append(mem.Owned, assignor.TopicPartitions{Topic: "t" + strconv.Itoa(next()%(nt+1)), Partitions: []int32{int32(next()%12) - 2}})
		}
		g.Members = append(g.Members, mem)
	}
	return g
}

// FuzzAssign checks that any group gets a valid, balanced plan without a
// panic, and that the plan does not depend on the history being read twice
// (determinism). Seeds are committed in the f.Add calls.
func FuzzAssign(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 8, 0, 5, 1, 2, 4, 7, 1, 3, 2, 9, 4, 1, 2, 3})
	f.Add([]byte{2, 8, 0, 1, 1, 0, 1, 2, 2, 1, 0, 2, 1, 1, 2, 0, 1, 4, 3, 1, 7, 2, 2, 3, 3, 1, 1})
	f.Add([]byte("a group of sticky members with racks and stale claims"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := groupFromBytes(data)
		plan, err := New().Assign(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := assignor.CheckPlan(g, plan, assignor.Eager); err != nil {
			t.Fatalf("invalid plan: %v\n%s", err, plan)
		}
		checkBalanced(t, g, plan)
		again, _ := New().Assign(g)
		if again.String() != plan.String() {
			t.Fatal("two runs differ")
		}
	})
}
