package runner

import (
	"strings"
	"time"
)

// The contenders of the comparison with Kafka's own assignors.
const (
	keyUniform     = "kafka-uniform"
	keyUniformHash = "kafka-uniform-hashmaps"
	keyRange       = "kafka-range"
	keyJavaCoop    = "java-coop-sticky"
	keyStickyOwned = "ours-sticky-owned-core"
	keyCoopCore    = "ours-coop-core"
	keyTouch       = "touch-floor"
)

// kafkaSection renders the comparison with Kafka's assignors, or "" when
// the run has neither uniform row.
func kafkaSection(res *results) string {
	var b strings.Builder
	for _, cl := range res.Cells {
		u, uh := find(cl, keyUniform), find(cl, keyUniformHash)
		if !measured(u) && !measured(uh) {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(kafkaIntro)
			b.WriteString(mdHeader([]string{"shape", "scenario", "uniform", "uniform, HashMaps", "range", "Java coop-sticky", "ours sticky (owned)", "ours coop-sticky", "touch floor",
				"sticky ÷ uniform", "sticky ÷ (uniform + floor)", "coop ÷ (uniform + floor)"}))
		}
		ref := fastest(u, uh)
		touch := find(cl, keyTouch)
		sticky, coop := find(cl, keyStickyOwned), find(cl, keyCoopCore)
		withFloor := time.Duration(0)
		if ref > 0 && measured(touch) {
			withFloor = ref + touch.Median
		}
		b.WriteString(mdRow([]string{cl.Shape.String(), string(cl.Scenario), short(u), short(uh), short(find(cl, keyRange)), short(find(cl, keyJavaCoop)),
			short(sticky), short(coop), short(touch),
			ratio(over(sticky, ref)), ratio(over(sticky, withFloor)), ratio(over(coop, withFloor))}))
	}
	return b.String()
}

const kafkaIntro = "\n## Kafka's own assignors\n\n" +
	"Apache Kafka 4.4.0's broker assignors (KIP-848: `uniform`, the default, and `range`) and the Java client's `CooperativeStickyAssignor`, each timed in a JVM of its own on the same groups as ours: `assign()` alone, on what Kafka hands it (the coordinator keeps the members' target assignments and the partition → owner map between rebalances; see \"What each contender times\"). " +
	"Ours: `Assign` alone on a `Group` decoded beforehand (sticky on members that send their owned partitions; cooperative-sticky's first round), and the touch floor, the least work of reading that `Group` and writing a `Plan` of the same shape. " +
	"Ratios take the faster of the two uniform rows (the owners in the coordinator's timeline maps, or in HashMaps as Kafka's jmh benchmark builds them). " +
	"Their plans are judged with every other contender's in Plan quality below.\n\n"

// measured reports whether r has a median.
func measured(r *row) bool { return r != nil && r.Median > 0 }

// fastest returns the smaller median of the measured rows, or 0.
func fastest(rs ...*row) time.Duration {
	var best time.Duration
	for _, r := range rs {
		if measured(r) && (best == 0 || r.Median < best) {
			best = r.Median
		}
	}
	return best
}

// over returns r's median ÷ d, or 0 when either is missing.
func over(r *row, d time.Duration) float64 {
	if !measured(r) || d <= 0 {
		return 0
	}
	return float64(r.Median) / float64(d)
}
