package e2e

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// recordingBalancer wraps a franz-go balancer and tells the ledger which generations its
// member led. kgo calls MemberBalancer on the leader only, then ParseSyncAssignment with the
// member's own assignment once SyncGroup succeeded, and at the next join JoinGroupMetadata with
// the generation of that assignment: a leader's plan followed by a sync means the member led the
// generation the next join names. (A member's last generation, if it leaves right after leading
// it, stays unattributed.)
type recordingBalancer struct {
	kgo.GroupBalancer
	member string
	ledger *ledger

	mu      sync.Mutex
	planned bool // MemberBalancer ran since the last JoinGroupMetadata
	led     bool // and the sync that followed succeeded
}

func (b *recordingBalancer) JoinGroupMetadata(interests []string, current map[string][]int32, generation int32) []byte {
	b.mu.Lock()
	if b.led {
		b.ledger.ledBy(generation, b.member, kindFranz)
	}
	b.planned, b.led = false, false
	b.mu.Unlock()
	return b.GroupBalancer.JoinGroupMetadata(interests, current, generation)
}

func (b *recordingBalancer) MemberBalancer(members []kmsg.JoinGroupResponseMember) (kgo.GroupMemberBalancer, map[string]struct{}, error) {
	mb, topics, err := b.GroupBalancer.MemberBalancer(members)
	if err == nil {
		b.mu.Lock()
		b.planned = true
		b.mu.Unlock()
	}
	return mb, topics, err
}

func (b *recordingBalancer) ParseSyncAssignment(assignment []byte) (map[string][]int32, error) {
	b.mu.Lock()
	b.led = b.planned
	b.mu.Unlock()
	return b.GroupBalancer.ParseSyncAssignment(assignment)
}

// franzMember is one franz-go consumer-group member with kgo.CooperativeStickyBalancer or
// (kind ours-kgo) ours through adapters/kgoassignor. It
// blocks rebalances while it processes a poll (BlockRebalanceOnPoll), commits after every poll
// and, for what is left, in OnPartitionsRevoked.
type franzMember struct {
	name   string
	cl     *kgo.Client
	ledger *ledger
	cancel context.CancelFunc
	done   chan struct{}
}

func startFranzMember(l *ledger, c goMemberConfig) (*franzMember, error) {
	if c.kind == "" {
		c.kind = kindFranz
	}
	l.member(c.name, c.kind)
	m := &franzMember{name: c.name, ledger: l, done: make(chan struct{})}
	opts, err := franzOptions(l, c)
	if err != nil {
		return nil, err
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	m.cl = cl
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	go m.poll(ctx)
	return m, nil
}

// franzOptions configures a cooperative-sticky franz-go member c that
// records its claims, revocations and losses in l.
func franzOptions(l *ledger, c goMemberConfig) ([]kgo.Opt, error) {
	end := func(parts map[string][]int32) {
		now := time.Now()
		for topic, ps := range parts {
			for _, p := range ps {
				l.claimEnd(c.name, topicPartition{topic, p}, now)
			}
		}
	}
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.bootstrap),
		kgo.ClientID(c.name),
		kgo.ConsumerGroup(c.group),
		kgo.ConsumeTopics(c.topics...),
		kgo.SessionTimeout(c.session),
		kgo.HeartbeatInterval(c.heartbeat),
		kgo.RebalanceTimeout(c.rebalance),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(100 * time.Millisecond),
		kgo.RetryBackoffFn(func(int) time.Duration { return 100 * time.Millisecond }),
		kgo.DisableAutoCommit(),
		kgo.BlockRebalanceOnPoll(),
		kgo.OnPartitionsAssigned(func(_ context.Context, cl *kgo.Client, parts map[string][]int32) {
			_, gen := cl.GroupMetadata()
			now := time.Now()
			for topic, ps := range parts {
				for _, p := range ps {
					l.claimStart(c.name, topicPartition{topic, p}, gen, now)
				}
			}
		}),
		kgo.OnPartitionsRevoked(func(ctx context.Context, cl *kgo.Client, parts map[string][]int32) {
			if err := cl.CommitUncommittedOffsets(ctx); err != nil {
				l.note("%s: commit on revoke: %v", c.name, err)
			}
			end(parts)
		}),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, parts map[string][]int32) {
			end(parts)
			l.problem("%s lost %v", c.name, parts)
		}),
	}
	if c.instance != "" {
		opts = append(opts, kgo.InstanceID(c.instance))
	}
	balancer, err := franzBalancer(l, c)
	return append(opts, balancer...), err
}

// poll consumes until ctx ends or the client closes, recording every record
// and committing after each poll; it closes m.done when it returns.
func (m *franzMember) poll(ctx context.Context) {
	defer close(m.done)
	cl, l := m.cl, m.ledger
	for {
		fetches := cl.PollFetches(ctx)
		if ctx.Err() != nil || fetches.IsClientClosed() {
			cl.AllowRebalance()
			return
		}
		fetches.EachError(func(topic string, p int32, err error) {
			if !errors.Is(err, context.Canceled) {
				l.problem("%s: fetch %s/%d: %v", m.name, topic, p, err)
			}
		})
		_, gen := cl.GroupMetadata()
		now := time.Now()
		fetches.EachPartition(func(p kgo.FetchTopicPartition) {
			if len(p.Records) == 0 {
				return
			}
			offsets := make([]int64, len(p.Records))
			for i, r := range p.Records {
				offsets[i] = r.Offset
			}
			l.consume(m.name, topicPartition{p.Topic, p.Partition}, gen, offsets, now)
		})
		if err := cl.CommitUncommittedOffsets(ctx); err != nil && ctx.Err() == nil {
			l.note("%s: commit after poll: %v", m.name, err)
		}
		cl.AllowRebalance()
	}
}

// stop stops polling and closes the client, which leaves the group (a static member does
// not), revoking and committing first.
func (m *franzMember) stop() {
	m.cancel()
	<-m.done
	m.cl.Close()
	m.ledger.memberGone(m.name, time.Now())
}
