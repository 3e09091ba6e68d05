package e2e

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// brokerLeader stands for the coordinator in a KIP-848 group's plans: the
// broker, not a member, computes them.
const brokerLeader = "(broker)"

// watcher polls the coordinator's view of the group for what no member can
// show: under the KIP-848 consumer protocol, each new target assignment
// (recorded as the plan of its assignment epoch, planned by brokerLeader);
// on an external broker under the classic protocol, the assignments of the
// generation the group is stable in (DescribeGroups; no SyncGroup hook
// there). It runs from Start to Finish or Close.
type watcher struct {
	h      *Harness
	every  time.Duration
	cancel context.CancelFunc
	done   chan struct{}

	mu sync.Mutex
	// consumer: a KIP-848 member joined, so the group is described with
	// ConsumerGroupDescribe; seenConsumer: the coordinator described it as
	// a consumer-protocol group at least once.
	consumer, seenConsumer bool
	topicNames             map[[16]byte]string
	// reconciled: at the last describe, the target assignment was at the
	// group's epoch (computed for the current members).
	reconciled bool
	lastEpoch  int32
	lastTarget string
	// classic is the plan of the stable generation of a classic group on
	// an external broker, by member ID (nil while the group is not stable).
	classic map[string][]assignor.TopicPartitions
}

func (h *Harness) startWatcher() {
	w := &watcher{h: h, every: 20 * time.Millisecond, done: make(chan struct{}), lastEpoch: -1}
	if h.external() {
		w.every = 50 * time.Millisecond
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	h.watch = w
	go w.run(ctx)
}

func (w *watcher) stop() {
	w.cancel()
	<-w.done
}

// consumerProtocol notes that a KIP-848 member joined.
func (w *watcher) consumerProtocol() {
	w.mu.Lock()
	w.consumer = true
	w.mu.Unlock()
}

func (w *watcher) run(ctx context.Context) {
	defer close(w.done)
	tick := time.NewTicker(w.every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w.mu.Lock()
		consumer, seen := w.consumer, w.seenConsumer
		w.mu.Unlock()
		if consumer {
			w.describeConsumer(ctx)
		}
		// A classic group that a consumer-protocol member joins stays
		// classic until the coordinator converts it (or refuses to).
		if w.h.external() && !seen {
			w.describeClassic(ctx)
		}
	}
}

// describeConsumer records the target assignment of a new assignment epoch
// (or a changed one) as a plan.
func (w *watcher) describeConsumer(ctx context.Context) {
	if err := w.loadTopicIDs(ctx); err != nil {
		return
	}
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{w.h.opts.Group}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	resp, err := req.RequestWith(rctx, w.h.admin)
	if err != nil || len(resp.Groups) != 1 || resp.Groups[0].ErrorCode != 0 {
		return
	}
	g := resp.Groups[0]
	plan := map[string][]assignor.TopicPartitions{}
	for _, m := range g.Members {
		plan[m.MemberID] = w.named(m.TargetAssignment)
	}
	key := fmt.Sprint(plan)
	reconciled := g.AssignmentEpoch == g.Epoch
	w.mu.Lock()
	w.seenConsumer = true
	w.reconciled = reconciled
	fresh := g.AssignmentEpoch != w.lastEpoch || key != w.lastTarget
	w.lastEpoch, w.lastTarget = g.AssignmentEpoch, key
	w.mu.Unlock()
	if fresh {
		w.h.rec.sync(leaderSync{At: time.Now(), Generation: g.AssignmentEpoch, Leader: brokerLeader, Protocol: g.AssignorName, Plan: plan})
	}
}

// named turns a described assignment (topic IDs, and names on Kafka) into
// canonical partitions.
func (w *watcher) named(a kmsg.Assignment) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for _, tp := range a.TopicPartitions {
		name := tp.Topic
		if name == "" {
			w.mu.Lock()
			name = w.topicNames[tp.TopicID]
			w.mu.Unlock()
		}
		out = append(out, assignor.TopicPartitions{Topic: name, Partitions: tp.Partitions})
	}
	return assignor.NormalizeTopicPartitions(out)
}

// loadTopicIDs learns the subscribed topics' IDs once.
func (w *watcher) loadTopicIDs(ctx context.Context) error {
	w.mu.Lock()
	loaded := w.topicNames != nil
	w.mu.Unlock()
	if loaded {
		return nil
	}
	req := kmsg.NewPtrMetadataRequest()
	for _, name := range w.h.opts.topicNames() {
		t := kmsg.NewMetadataRequestTopic()
		t.Topic = kmsg.StringPtr(name)
		req.Topics = append(req.Topics, t)
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	resp, err := req.RequestWith(rctx, w.h.admin)
	if err != nil {
		return err
	}
	names := map[[16]byte]string{}
	for _, t := range resp.Topics {
		if t.ErrorCode != 0 || t.Topic == nil {
			return fmt.Errorf("e2e: metadata of %v: error code %d", t.Topic, t.ErrorCode)
		}
		names[t.TopicID] = *t.Topic
	}
	w.mu.Lock()
	w.topicNames = names
	w.mu.Unlock()
	return nil
}

// describeClassic keeps the plan of the generation a classic group on an
// external broker is stable in.
func (w *watcher) describeClassic(ctx context.Context) {
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{w.h.opts.Group}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	resp, err := req.RequestWith(rctx, w.h.admin)
	var plan map[string][]assignor.TopicPartitions
	if err == nil && len(resp.Groups) == 1 && resp.Groups[0].ErrorCode == 0 && resp.Groups[0].State == "Stable" {
		plan = map[string][]assignor.TopicPartitions{}
		for _, m := range resp.Groups[0].Members {
			a, err := wire.DecodeAssignment(m.MemberAssignment)
			if err != nil && len(m.MemberAssignment) > 0 {
				plan = nil
				break
			}
			plan[m.MemberID] = assignor.NormalizeTopicPartitions(a.Partitions)
		}
	}
	w.mu.Lock()
	w.classic = plan
	w.mu.Unlock()
}

// classicPlan returns the described plan of a classic group on an external
// broker by member name, or false while the group is not stable.
func (w *watcher) classicPlan() (map[string][]assignor.TopicPartitions, bool) {
	w.mu.Lock()
	plan := w.classic
	w.mu.Unlock()
	if plan == nil {
		return nil, false
	}
	w.h.rec.mu.Lock()
	defer w.h.rec.mu.Unlock()
	out := map[string][]assignor.TopicPartitions{}
	for id, tps := range plan {
		out[w.h.rec.nameOf(id)] = tps
	}
	return out, true
}

// consumerReconciled reports whether, at the last describe, the consumer
// group's target assignment was computed for its current epoch: a member
// that joined is listed, with nothing, before its target assignment is
// computed (Kafka 4.4 computes it asynchronously, at most once per
// consumer.assignment.interval.ms). Members' own epochs are not required to
// have caught up: one whose partitions do not change acknowledges the new
// epoch at its next heartbeat, which changes nothing it processes, so the
// group counts as settled once every partition is held where the target
// says.
func (w *watcher) consumerReconciled() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reconciled
}

// sawConsumerGroup reports whether the coordinator described the group as
// a KIP-848 consumer group.
func (w *watcher) sawConsumerGroup() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seenConsumer
}

// setGroupTimings sets the group's KIP-848 heartbeat interval and session
// timeout on an external broker (the group configs
// consumer.heartbeat.interval.ms and consumer.session.timeout.ms, which
// must lie within the broker's group.consumer.min/max bounds).
func (h *Harness) setGroupTimings() error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	r := kmsg.NewIncrementalAlterConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeGroupConfig, h.opts.Group
	for name, d := range map[string]time.Duration{
		"consumer.heartbeat.interval.ms": h.opts.ConsumerHeartbeat,
		"consumer.session.timeout.ms":    h.opts.ConsumerSession,
	} {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Value = name, kmsg.StringPtr(fmt.Sprint(d.Milliseconds()))
		r.Configs = append(r.Configs, c)
	}
	if d := h.opts.ConsumerAssignmentInterval; d != 0 {
		c := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		c.Name, c.Value = "consumer.assignment.interval.ms", kmsg.StringPtr(fmt.Sprint(max(0, d.Milliseconds())))
		r.Configs = append(r.Configs, c)
	}
	req.Resources = append(req.Resources, r)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := req.RequestWith(ctx, h.admin)
	if err != nil {
		return fmt.Errorf("e2e: set group %s timings: %w", h.opts.Group, err)
	}
	want := map[string]string{}
	for _, r := range resp.Resources {
		if r.ErrorCode != 0 {
			msg := ""
			if r.ErrorMessage != nil {
				msg = *r.ErrorMessage
			}
			return fmt.Errorf("e2e: set group %s timings: error code %d %s", h.opts.Group, r.ErrorCode, msg)
		}
	}
	for _, c := range req.Resources[0].Configs {
		want[c.Name] = *c.Value
	}
	return h.awaitGroupConfigs(ctx, want)
}

// awaitGroupConfigs waits until the broker describes the group's configs
// as want: a group created before they reach the coordinator would get the
// broker's defaults in its first heartbeat responses.
func (h *Harness) awaitGroupConfigs(ctx context.Context, want map[string]string) error {
	for {
		req := kmsg.NewPtrDescribeConfigsRequest()
		r := kmsg.NewDescribeConfigsRequestResource()
		r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeGroupConfig, h.opts.Group
		req.Resources = append(req.Resources, r)
		resp, err := req.RequestWith(ctx, h.admin)
		if err == nil && len(resp.Resources) == 1 && resp.Resources[0].ErrorCode == 0 {
			matched := 0
			for _, c := range resp.Resources[0].Configs {
				if v, ok := want[c.Name]; ok && c.Value != nil && *c.Value == v {
					matched++
				}
			}
			if matched == len(want) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("e2e: group %s configs %v not in effect: %w", h.opts.Group, want, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
