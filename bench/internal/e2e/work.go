package e2e

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Work is what a franz-go member pays to process records, as a real
// consumer does. The zero value costs nothing: records are processed as
// soon as they are polled.
type Work struct {
	// PerRecord is the time one record takes to process. A member
	// processes its records one at a time, so its capacity is one record
	// per PerRecord across all its partitions.
	PerRecord time.Duration
	// Takeover is the time a member needs before it can process the first
	// record of a partition that is new to it (a cache to warm, a state to
	// restore). The partition's records wait meanwhile; its other
	// partitions go on. A partition is new to the member unless it held it
	// in its previous assignment: an eager member that gets a partition
	// back after revoking everything does not pay again (the cheapest
	// reading for eager; a consumer that drops its state on every revoke
	// pays on every partition at every eager rebalance).
	Takeover time.Duration
}

// worker is a franz-go member's processing state: the records polled but
// not yet processed, per partition, and when each partition new to the
// member can start. Guarded by the member's mu; the processing itself (the
// sleeps) happens outside it.
type worker struct {
	queue   map[TP][]*kgo.Record
	readyAt map[TP]time.Time // partitions still warming up
	// warm holds the partitions of the member's previous assignment and
	// its current one; assigned partitions outside it pay Takeover.
	warm map[TP]bool
	busy time.Time // when the record being processed is done
}

func newWorker() worker {
	return worker{queue: map[TP][]*kgo.Record{}, readyAt: map[TP]time.Time{}, warm: map[TP]bool{}}
}

// assignedLocked starts the take-over of every assigned partition that is
// not warm and makes the warm set the member's holdings. m.mu must be held.
func (m *Member) assignedLocked(assigned []TP, now time.Time) {
	for _, tp := range assigned {
		if !m.work.warm[tp] && m.h.opts.Work.Takeover > 0 {
			m.work.readyAt[tp] = now.Add(m.h.opts.Work.Takeover)
		}
	}
	m.work.warm = maps.Clone(m.owned)
}

// revokedLocked drops the polled records of tp (their offsets were never
// marked, so the next owner fetches them again) and its take-over. tp stays
// warm until the next assignment. m.mu must be held.
func (m *Member) revokedLocked(tp TP) {
	delete(m.work.queue, tp)
	delete(m.work.readyAt, tp)
}

// enqueue queues polled records for processing.
func (m *Member) enqueue(fetches kgo.Fetches) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fetches.EachRecord(func(r *kgo.Record) {
		tp := TP{r.Topic, r.Partition}
		if m.owned[tp] {
			m.work.queue[tp] = append(m.work.queue[tp], r)
		}
	})
}

// nextRecord returns the next record to process: the oldest queued record
// of the ready partition that comes first (by topic and partition), or nil
// and the time the earliest warming partition with queued records is
// ready (zero if none).
func (m *Member) nextRecord(now time.Time) (*kgo.Record, time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var wake time.Time
	for _, tp := range slices.SortedFunc(maps.Keys(m.work.queue), compareTP) {
		q := m.work.queue[tp]
		if len(q) == 0 {
			delete(m.work.queue, tp)
			continue
		}
		if at, warming := m.work.readyAt[tp]; warming {
			if now.Before(at) {
				if wake.IsZero() || at.Before(wake) {
					wake = at
				}
				continue
			}
			delete(m.work.readyAt, tp)
		}
		m.work.queue[tp] = q[1:]
		return q[0], time.Time{}
	}
	return nil, wake
}

// maxPoll is how many records a member polls, and processes at most,
// between two AllowRebalance calls: at KIP848Work's 2 ms per record, 200 ms
// of work, well inside the short timings' 1.5 s session (kgo sends no
// heartbeat while a reassignment waits for AllowRebalance).
const maxPoll = 100

// drain processes queued records of ready partitions, each costing
// Work.PerRecord, marking each for commit, until none is ready, maxPoll are
// done or ctx ends. It returns when the first still-warming partition with
// queued records becomes ready (zero if none), or now if ready records
// remain.
func (m *Member) drain(ctx context.Context, cl *kgo.Client) time.Time {
	cost := m.h.opts.Work.PerRecord
	for range maxPoll {
		if ctx.Err() != nil {
			break
		}
		r, wake := m.nextRecord(time.Now())
		if r == nil {
			return wake
		}
		if cost > 0 {
			m.work.busy = maxTime(m.work.busy, time.Now()).Add(cost)
			time.Sleep(time.Until(m.work.busy))
		}
		if m.process(TP{r.Topic, r.Partition}, r.Offset) {
			cl.MarkCommitRecords(r)
		}
	}
	return time.Now()
}

// pollLoop is a franz-go member's consumer loop: poll (at most until the
// next warming partition is ready), queue, process what is ready, then let
// a pending rebalance go on (BlockRebalanceOnPoll).
func (m *Member) pollLoop(ctx context.Context, cl *kgo.Client) {
	var wake time.Time
	for ctx.Err() == nil {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if !wake.IsZero() {
			pctx, cancel = context.WithDeadline(ctx, wake)
		}
		fetches := cl.PollRecords(pctx, maxPoll)
		cancel()
		m.enqueue(fetches)
		wake = m.drain(ctx, cl)
		cl.AllowRebalance()
	}
}

func compareTP(a, b TP) int {
	if a.Topic != b.Topic {
		if a.Topic < b.Topic {
			return -1
		}
		return 1
	}
	return int(a.Partition) - int(b.Partition)
}
