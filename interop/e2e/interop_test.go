package e2e

import (
	"testing"
)

// rolling starts members in order, then restarts each in the same order, settling after every
// step. With "g1" first, our sarama member leads until it is restarted itself; with "j1" first,
// Java leads until then.
func rolling(t *testing.T, members ...string) report {
	s := newScenario(t, scenarioConfig{})
	for _, id := range members {
		s.start(id)
		s.settle()
	}
	for _, id := range members {
		s.stop(id)
		s.start(id)
		s.settle()
	}
	return s.finish()
}

// TestMixedRollingOursLeads: our sarama member joins first and leads while both Java members
// are restarted in turn, then every sarama member is restarted (leadership moves).
func TestMixedRollingOursLeads(t *testing.T) {
	r := rolling(t, "g1", "j1", "g2", "j2")
	if r.oursLed == 0 {
		t.Errorf("our assignor led no rebalance")
	}
}

// TestMixedRollingJavaLeads: a Java member joins first and leads while both sarama members
// are restarted in turn, then every Java member is restarted.
func TestMixedRollingJavaLeads(t *testing.T) {
	r := rolling(t, "j1", "g1", "j2", "g2")
	if r.javaLed == 0 {
		t.Errorf("Java led no rebalance")
	}
}
