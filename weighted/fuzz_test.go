package weighted

import (
	"errors"
	"testing"
)

// FuzzSolve decodes arbitrary bytes into a group, in range or not, and
// checks that the solver either rejects it with an error or returns a
// valid plan within the count limits: never a panic. The seed corpus is
// below; run go test -fuzz FuzzSolve to explore.
func FuzzSolve(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 5, 7, 9, 200, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{1, 1, 0, 0, 0})
	f.Add([]byte{9, 4, 255, 128, 3, 3, 3, 3, 2, 2, 1, 0, 17, 42, 99, 250, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		g := group{members: next() % 12, subscribers: make([][]int32, 1+next()%4)}
		for tp := range g.subscribers {
			for range next() % 6 {
				g.subscribers[tp] = append(g.subscribers[tp], int32(next()%14)-1)
			}
		}
		withOwners := next()%2 == 0
		for range next() % 24 {
			g.topic = append(g.topic, int32(next()%(len(g.subscribers)+1)))
			g.weight = append(g.weight, int64(next()*next())-10)
			if withOwners {
				g.owner = append(g.owner, int32(next()%14)-2)
			}
		}
		cfg := config{countTolerance: int32(next() % 3), marginPPM: 100_000, bandPPM: int64(next()%30) * 1000}
		holder, err := solve(g, cfg)
		if err != nil {
			if !errors.Is(err, errInput) {
				t.Fatalf("error %v does not wrap errInput", err)
			}
			return
		}
		checkValid(t, &g, holder)
		checkCounts(t, &g, cfg, holder)
	})
}
