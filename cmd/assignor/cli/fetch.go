package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
)

// admin is the command's one connection to the cluster: read-only admin
// requests (ListGroups, DescribeGroups, ConsumerGroupDescribe, Metadata,
// OffsetFetch, ListOffsets). It never joins a group and never commits.
type admin struct {
	brokers []string
	cl      *kgo.Client
	adm     *kadm.Client
	// topics caches the metadata of the topics last asked for.
	topics map[string]topicMeta
	ids    map[[16]byte]string
}

// errUnknownGroup is wrapped by the error for a group the cluster does
// not know.
var errUnknownGroup = errors.New("unknown group")

// dial connects to brokers and checks that one answers within timeout.
func dial(ctx context.Context, brokers []string, timeout time.Duration) (*admin, error) {
	if len(brokers) == 0 {
		return nil, errors.New("no brokers: give -brokers host:port[,host:port…], or -demo for an embedded one")
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.RetryTimeout(timeout), kgo.DialTimeout(min(timeout, 5*time.Second)),
		kgo.MetadataMinAge(100*time.Millisecond))
	if err != nil {
		return nil, fmt.Errorf("brokers %s: %w", strings.Join(brokers, ","), err)
	}
	a := &admin{brokers: brokers, cl: cl, adm: kadm.NewClient(cl), topics: map[string]topicMeta{}, ids: map[[16]byte]string{}}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, err := a.adm.ListBrokers(pctx); err != nil {
		cl.Close()
		return nil, fmt.Errorf("no broker answers at %s within %v (check -brokers and that the cluster is up): %w", strings.Join(brokers, ","), timeout, err)
	}
	return a, nil
}

func (a *admin) close() { a.cl.Close() }

// describeGroup fills s with the group as the broker describes it: a
// KIP-848 group through ConsumerGroupDescribe, a classic one through
// DescribeGroups (raw bytes, decoded later with package wire).
func (a *admin) describeGroup(ctx context.Context, group string, s *snapshot) error {
	s.Group = group
	ok, err := a.describeConsumer(ctx, group, s)
	if err != nil || ok {
		return err
	}
	req := kmsg.NewPtrDescribeGroupsRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(ctx, a.cl)
	if err != nil {
		return fmt.Errorf("DescribeGroups %s: %w", group, err)
	}
	if len(resp.Groups) != 1 {
		return fmt.Errorf("DescribeGroups %s: %d groups in the response", group, len(resp.Groups))
	}
	g := resp.Groups[0]
	if err := kerr.ErrorForCode(g.ErrorCode); err != nil {
		if errors.Is(err, kerr.GroupIDNotFound) {
			return a.unknownGroup(ctx, group)
		}
		return fmt.Errorf("DescribeGroups %s: %w", group, err)
	}
	if g.State == "Dead" { // what brokers before DescribeGroups v6 say of a group they do not know
		return a.unknownGroup(ctx, group)
	}
	s.Type, s.State, s.ProtocolType, s.Protocol = typeClassic, g.State, g.ProtocolType, g.Protocol
	if g.ProtocolType != "" && g.ProtocolType != "consumer" {
		return fmt.Errorf("group %s has protocol type %q, not a consumer group: this command reads consumer groups only", group, g.ProtocolType)
	}
	for _, m := range g.Members {
		r := rawMember{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost, MemberType: -1,
			Metadata: m.ProtocolMetadata, Assignment: m.MemberAssignment}
		if m.InstanceID != nil {
			r.InstanceID = *m.InstanceID
		}
		s.Members = append(s.Members, r)
	}
	return nil
}

// describeConsumer describes group as a KIP-848 group; it reports false,
// with no error, when the group is not one (or the brokers predate
// KIP-848).
func (a *admin) describeConsumer(ctx context.Context, group string, s *snapshot) (bool, error) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{group}
	resp, err := req.RequestWith(ctx, a.cl)
	if err != nil || len(resp.Groups) != 1 {
		return false, nil // no KIP-848 on these brokers: a classic group, if any
	}
	g := resp.Groups[0]
	if g.ErrorCode != 0 {
		return false, nil // GROUP_ID_NOT_FOUND for a classic group too
	}
	s.Type, s.State, s.Epoch, s.AssignmentEpoch, s.AssignorName = typeConsumer, g.State, g.Epoch, g.AssignmentEpoch, g.AssignorName
	s.ProtocolType = "consumer"
	resolve := func(as kmsg.Assignment) ([]assignor.TopicPartitions, int) {
		var out []assignor.TopicPartitions
		missing := 0
		for _, t := range as.TopicPartitions {
			name := t.Topic
			if name == "" {
				name = a.ids[t.TopicID]
			}
			if name == "" {
				missing++
				continue
			}
			out = append(out, assignor.TopicPartitions{Topic: name, Partitions: slices.Clone(t.Partitions)})
		}
		return out, missing
	}
	// Brokers may name assigned topics by ID only: learn the names first.
	for _, m := range g.Members {
		for _, t := range append(slices.Clone(m.Assignment.TopicPartitions), m.TargetAssignment.TopicPartitions...) {
			if t.Topic == "" && a.ids[t.TopicID] == "" {
				if err := a.learnTopicIDs(ctx); err != nil {
					return true, err
				}
				break
			}
		}
	}
	for _, m := range g.Members {
		r := rawMember{MemberID: m.MemberID, ClientID: m.ClientID, ClientHost: m.ClientHost, MemberEpoch: m.MemberEpoch,
			MemberType: m.MemberType, SubscribedTopics: slices.Clone(m.SubscribedTopics)}
		if m.InstanceID != nil {
			r.InstanceID = *m.InstanceID
		}
		if m.RackID != nil {
			r.Rack = *m.RackID
		}
		if m.SubscribedTopicRegex != nil {
			r.SubscribedRegex = *m.SubscribedTopicRegex
		}
		var n1, n2 int
		r.Assigned, n1 = resolve(m.Assignment)
		r.Target, n2 = resolve(m.TargetAssignment)
		r.UnresolvedTopicNames = n1 + n2
		s.Members = append(s.Members, r)
	}
	return true, nil
}

// learnTopicIDs maps every topic's ID to its name.
func (a *admin) learnTopicIDs(ctx context.Context) error {
	md, err := a.adm.Metadata(ctx)
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	for name, t := range md.Topics {
		a.ids[t.ID] = name
	}
	return nil
}

// unknownGroup is the error for a group the cluster does not know, with
// the groups it does know.
func (a *admin) unknownGroup(ctx context.Context, group string) error {
	listed, err := a.adm.ListGroups(ctx)
	if err != nil {
		return fmt.Errorf("%w %q on %s (listing groups failed too: %v)", errUnknownGroup, group, strings.Join(a.brokers, ","), err)
	}
	names := listed.Groups()
	if slices.Contains(names, group) {
		return fmt.Errorf("group %q is listed but could not be described (being created or deleted right now): try again", group)
	}
	switch {
	case len(names) == 0:
		return fmt.Errorf("%w %q: the cluster at %s has no groups (check -group, and -brokers)", errUnknownGroup, group, strings.Join(a.brokers, ","))
	case len(names) > 20:
		names = append(names[:20], fmt.Sprintf("… (%d in all)", len(listed)))
	}
	return fmt.Errorf("%w %q: the cluster at %s has %s (check -group)", errUnknownGroup, group, strings.Join(a.brokers, ","), strings.Join(names, ", "))
}

// loadTopics fills s.Topics with the metadata of the topics its members
// subscribe to or are assigned: partitions and, when some broker has a
// rack, each partition's replica racks.
func (a *admin) loadTopics(ctx context.Context, s *snapshot, topics []string) error {
	if len(topics) == 0 {
		return nil
	}
	md, err := a.adm.Metadata(ctx, topics...)
	if err != nil {
		return fmt.Errorf("metadata of %s: %w", strings.Join(topics, ","), err)
	}
	racks := map[int32]string{}
	anyRack := false
	for _, b := range md.Brokers {
		if b.Rack != nil && *b.Rack != "" {
			racks[b.NodeID], anyRack = *b.Rack, true
		}
	}
	for _, name := range topics {
		td, ok := md.Topics[name]
		if !ok || td.Err != nil {
			continue // reported as a topic the metadata does not know
		}
		t := topicMeta{Name: name}
		for _, p := range td.Partitions.Sorted() {
			t.Partitions = append(t.Partitions, p.Partition)
			if anyRack {
				var rs []string
				for _, r := range p.Replicas {
					if rack, ok := racks[r]; ok {
						rs = append(rs, rack)
					}
				}
				t.Racks = append(t.Racks, rs)
			}
		}
		a.ids[td.ID] = name
		s.Topics = append(s.Topics, t)
	}
	return nil
}

// committed reads the group's committed offsets.
func (a *admin) committed(ctx context.Context, group string) (map[tp]int64, error) {
	resp, err := a.adm.FetchOffsets(ctx, group)
	if err != nil {
		return nil, fmt.Errorf("committed offsets of %s: %w", group, err)
	}
	out := map[tp]int64{}
	resp.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			out[tp{o.Topic, o.Partition}] = o.At
		}
	})
	return out, nil
}

// endOffsets reads the end offsets of topics, and when they were read.
func (a *admin) endOffsets(ctx context.Context, topics []string) (map[tp]int64, time.Time, error) {
	out := map[tp]int64{}
	if len(topics) == 0 {
		return out, time.Now(), nil
	}
	listed, err := a.adm.ListEndOffsets(ctx, topics...)
	at := time.Now()
	if err != nil {
		return nil, at, fmt.Errorf("end offsets of %s: %w", strings.Join(topics, ","), err)
	}
	listed.Each(func(o kadm.ListedOffset) {
		if o.Err == nil && o.Offset >= 0 {
			out[tp{o.Topic, o.Partition}] = o.Offset
		}
	})
	return out, at, nil
}

// snap takes one snapshot of group: its description, the metadata of the
// topics its members subscribe to, its committed offsets and their end
// offsets, sampled twice window apart to measure each partition's rate
// (window 0: no rates). prev, if not nil, is an earlier snapshot whose end
// offsets serve as the first sample instead (watch).
func (a *admin) snap(ctx context.Context, group string, window time.Duration, prev *snapshot) (snapshot, error) {
	var s snapshot
	if err := a.describeGroup(ctx, group, &s); err != nil {
		return s, err
	}
	topics := subscribedTopics(s)
	if err := a.loadTopics(ctx, &s, topics); err != nil {
		return s, err
	}
	var first map[tp]int64
	var firstAt time.Time
	if prev == nil && window > 0 && len(topics) > 0 {
		var err error
		if first, firstAt, err = a.endOffsets(ctx, topics); err != nil {
			return s, err
		}
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-time.After(window):
		}
	}
	// Committed offsets, then end offsets: lag is never negative for a
	// member that keeps up.
	var err error
	if s.Committed, err = a.committed(ctx, group); err != nil {
		return s, err
	}
	if s.End, s.At, err = a.endOffsets(ctx, topics); err != nil {
		return s, err
	}
	switch {
	case prev != nil && prev.End != nil:
		s.Rates, s.Window = rates(prev.End, s.End, s.At.Sub(prev.At)), s.At.Sub(prev.At)
	case first != nil:
		s.Rates, s.Window = rates(first, s.End, s.At.Sub(firstAt)), s.At.Sub(firstAt)
	}
	return s, nil
}

// subscribedTopics returns every topic the members of s subscribe to or
// are assigned, sorted. Classic members' subscriptions are read here
// already, leniently: what does not decode is reported later.
func subscribedTopics(s snapshot) []string {
	set := map[string]bool{}
	for _, r := range s.Members {
		var m member
		if s.Type == typeConsumer {
			m = decodeConsumer(r)
		} else {
			m = decodeClassic(r, s.Protocol)
		}
		for _, t := range m.Topics {
			set[t] = true
		}
		for _, t := range m.Assigned {
			set[t.Topic] = true
		}
	}
	return sortedKeys(set)
}

// rates returns records/s per partition between two end-offset samples dt
// apart. A partition missing from either sample, or whose end went down
// (truncated or recreated), is left out. Pure.
func rates(before, after map[tp]int64, dt time.Duration) map[tp]float64 {
	out := map[tp]float64{}
	if dt <= 0 {
		return out
	}
	for k, e1 := range after {
		e0, ok := before[k]
		if !ok || e1 < e0 {
			continue
		}
		out[k] = float64(e1-e0) / dt.Seconds()
	}
	return out
}
