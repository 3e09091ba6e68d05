package sticky

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRackInterner pins the numbering of rack sets on every path (the mask
// table up to smallRacks member racks, with names told apart by their last
// byte or not; the maps beyond, and past one 64-bit word): equal sets of
// member racks get one number, in first-seen order, and replica racks that
// no member has are ignored.
func TestRackInterner(t *testing.T) {
	formats := []string{
		"rack-%d",   // distinct last bytes up to 10 racks
		"zone-%d-a", // one last byte for all
	}
	for _, n := range []int{1, 3, smallRacks, smallRacks + 1, 70} {
		for _, format := range formats {
			t.Run(fmt.Sprintf("racks=%d/%s", n, format), func(t *testing.T) {
				name := func(k int) string { return fmt.Sprintf(format, k) }
				sol := &solver{rackIDs: map[string]int32{}, rackWords: (n + 63) / 64}
				for k := range n {
					sol.rackIDs[name(k)] = int32(k)
				}
				var interner rackInterner
				interner.init(sol)
				if (interner.byMask != nil) != (n <= smallRacks) {
					t.Fatalf("table path taken: %v", interner.byMask != nil)
				}
				want := map[string]int32{} // the set's member racks, sorted and joined
				rng := rand.New(rand.NewPCG(1, uint64(n)))
				for range 3000 {
					var racks, set []string
					for range rng.IntN(4) {
						name := name(rng.IntN(n + 2)) // two racks no member has
						racks = append(racks, name)
						if _, ok := sol.rackIDs[name]; ok {
							set = append(set, name)
						}
					}
					slices.Sort(set)
					key := strings.Join(slices.Compact(set), ",")
					id, seen := want[key]
					if !seen {
						id = int32(len(want))
						want[key] = id
					}
					if got := interner.id(racks); got != id {
						t.Fatalf("%q: rack set %d, want %d", racks, got, id)
					}
				}
			})
		}
	}
}
