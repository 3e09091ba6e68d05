package e2e

import (
	"fmt"
	"sync"
	"time"

	"github.com/kgroup/assignor"
)

// TP names one partition.
type TP struct {
	Topic     string
	Partition int32
}

func (tp TP) String() string { return fmt.Sprintf("%s/%d", tp.Topic, tp.Partition) }

// Claim is one interval in which a member held a partition: from the moment
// its handler started (sarama ConsumeClaim, franz-go OnPartitionsAssigned) to
// the moment it stopped (the handler returned, OnPartitionsRevoked or Lost
// ran, or the member crashed). End is zero while the claim is open.
type Claim struct {
	Member     string // the member's name in the script
	MemberID   string // the coordinator's member ID
	TP         TP
	Generation int32 // the generation in which the member got the partition
	Start, End time.Time
}

// leaderSync is one leader's SyncGroup request as the broker saw it: the plan of a
// generation.
type leaderSync struct {
	At         time.Time
	Generation int32
	Leader     string // member ID
	Protocol   string
	Plan       map[string][]assignor.TopicPartitions // member ID → assigned partitions, canonical
	Undecoded  []string                              // member IDs whose assignment bytes did not decode
}

// recorder collects what the members and the broker did; safe for
// concurrent use.
type recorder struct {
	mu        sync.Mutex
	claims    []*Claim
	open      map[string]map[TP]*Claim // member → open claims
	consumed  map[TP]map[int64]int     // offset → times consumed
	processed map[string][]time.Time   // member → times it processed a record
	// producedAt maps each acknowledged record to when its produce was
	// acknowledged; firstAt to when it was first processed; byMemberTP
	// lists, per member and partition, when it processed a record of it.
	producedAt map[TP]map[int64]time.Time
	firstAt    map[TP]map[int64]time.Time
	byMemberTP map[string]map[TP][]time.Time
	syncs      map[int32][]leaderSync // generation → every leader SyncGroup for it
	lastSync   leaderSync
	memberIDs  map[string]string // member ID → member name
	// received maps a generation to what each sarama member (by name) was
	// given in it, from OnAssignment.
	received map[int32]map[string][]assignor.TopicPartitions
}

func newRecorder() *recorder {
	return &recorder{
		open:       map[string]map[TP]*Claim{},
		consumed:   map[TP]map[int64]int{},
		processed:  map[string][]time.Time{},
		producedAt: map[TP]map[int64]time.Time{},
		firstAt:    map[TP]map[int64]time.Time{},
		byMemberTP: map[string]map[TP][]time.Time{},
		syncs:      map[int32][]leaderSync{},
		memberIDs:  map[string]string{brokerLeader: brokerLeader},
		received:   map[int32]map[string][]assignor.TopicPartitions{},
	}
}

// receive records the canonical set of partitions member name was given in
// generation gen.
func (r *recorder) receive(name string, gen int32, tps []assignor.TopicPartitions) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.received[gen] == nil {
		r.received[gen] = map[string][]assignor.TopicPartitions{}
	}
	r.received[gen][name] = tps
}

func (r *recorder) seenMemberID(name, id string) {
	if id == "" {
		return
	}
	r.mu.Lock()
	r.memberIDs[id] = name
	r.mu.Unlock()
}

func (r *recorder) claimStart(name, memberID string, tp TP, gen int32, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open[name] == nil {
		r.open[name] = map[TP]*Claim{}
	}
	if c := r.open[name][tp]; c != nil { // a second start without an end: close the first
		c.End = at
	}
	c := &Claim{Member: name, MemberID: memberID, TP: tp, Generation: gen, Start: at}
	r.open[name][tp] = c
	r.claims = append(r.claims, c)
	if memberID != "" {
		r.memberIDs[memberID] = name
	}
}

func (r *recorder) claimEnd(name string, tp TP, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.open[name][tp]; c != nil {
		c.End = at
		delete(r.open[name], tp)
	}
}

// endAll closes every open claim of a member (a crash, or the member's exit).
func (r *recorder) endAll(name string, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for tp, c := range r.open[name] {
		c.End = at
		delete(r.open[name], tp)
	}
}

func (r *recorder) consume(name string, tp TP, offset int64, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.consumed[tp] == nil {
		r.consumed[tp] = map[int64]int{}
	}
	r.consumed[tp][offset]++
	r.processed[name] = append(r.processed[name], at)
	if r.firstAt[tp] == nil {
		r.firstAt[tp] = map[int64]time.Time{}
	}
	if _, seen := r.firstAt[tp][offset]; !seen {
		r.firstAt[tp][offset] = at
	}
	if r.byMemberTP[name] == nil {
		r.byMemberTP[name] = map[TP][]time.Time{}
	}
	r.byMemberTP[name][tp] = append(r.byMemberTP[name][tp], at)
}

// produced notes that the record at offset of tp was acknowledged at at.
func (r *recorder) produced(tp TP, offset int64, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.producedAt[tp] == nil {
		r.producedAt[tp] = map[int64]time.Time{}
	}
	r.producedAt[tp][offset] = at
}

func (r *recorder) sync(s leaderSync) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.syncs[s.Generation] = append(r.syncs[s.Generation], s)
	r.lastSync = s
}

// nameOf returns the script name of the member with memberID, or "?" and the
// ID when no member reported it.
func (r *recorder) nameOf(memberID string) string {
	if n, ok := r.memberIDs[memberID]; ok {
		return n
	}
	return "?" + memberID
}

// held reports, for each member name, the partitions it holds now.
func (r *recorder) held() map[string][]TP {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]TP{}
	for name, open := range r.open {
		for tp := range open {
			out[name] = append(out[name], tp)
		}
	}
	return out
}
