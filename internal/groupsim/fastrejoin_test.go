package groupsim_test

import (
	"slices"
	"testing"
)

// TestFastRejoinChangesOnlyWhen pins what fast re-join does to the rolling
// restart and scale scripts at Java's timings: the same plans (rebalances,
// partitions moved, withheld and revoked, nothing lost, the same final
// assignment), but a shorter wait for the second round: less partition
// time without an owner, and no event settles later than without it.
func TestFastRejoinChangesOnlyWhen(t *testing.T) {
	for _, sc := range fastRejoinScripts {
		for _, as := range []string{"cooperative-sticky", "cooperative-roundrobin"} {
			t.Run(sc.name+"/"+as, func(t *testing.T) {
				on, off := runEvents(t, javaDefaults, sc, as, true), runEvents(t, javaDefaults, sc, as, false)
				a, b := on.stats, off.stats
				if a.Rebalances != b.Rebalances || a.Moved != b.Moved || a.Withheld != b.Withheld || a.Revoked != b.Revoked || a.Lost+b.Lost != 0 {
					t.Errorf("fast re-join changed the plans: on %+v\noff %+v", a, b)
				}
				if a.Unowned >= b.Unowned {
					t.Errorf("partition-time without owner: %v with fast re-join, %v without", a.Unowned, b.Unowned)
				}
				if on.median() > off.median() || slices.Max(on.settles) > slices.Max(off.settles) {
					t.Errorf("settle per event: with %v, without %v", on.settles, off.settles)
				}
			})
		}
	}
}
