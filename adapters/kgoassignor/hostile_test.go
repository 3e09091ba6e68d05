package kgoassignor

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// One member's malformed or hostile metadata costs that member, never the
// group: the balance succeeds, every member gets one assignment that kgo
// can parse, and the cooperative safety rule holds for every honest
// member's claims.

// honest is a settled group at generation 3: three kgo-style members, each
// owning four of the twelve partitions of "t".
func honest() []kmsg.JoinGroupResponseMember {
	b := CooperativeSticky()
	var ms []kmsg.JoinGroupResponseMember
	for i, id := range []string{"m0", "m1", "m2"} {
		owned := map[string][]int32{"t": {int32(i), int32(i + 3), int32(i + 6), int32(i + 9)}}
		ms = append(ms, member(id, b.JoinGroupMetadata([]string{"t"}, owned, 3)))
	}
	return ms
}

// checkOneBadMember balances the honest group plus member "x" with the
// given metadata, into generation 4, and checks what the group relies on.
func checkOneBadMember(t *testing.T, meta []byte) {
	t.Helper()
	members := append(honest(), member("x", meta))
	sent := slices.Clone(meta)
	defer func() {
		if !bytes.Equal(members[3].ProtocolMetadata, sent) {
			t.Errorf("the balancer rewrote the member's bytes in place (kgo's NewConsumerBalancer does)")
		}
	}()
	var l logs
	b, _ := New(CooperativeSticky().Assignor(), Config{Logger: l.logger()})
	mb, _, err := b.MemberBalancer(members)
	if err != nil {
		t.Fatalf("MemberBalancer: %v", err)
	}
	mb.(kgo.GroupMemberBalancerInfo).SetBalanceInfo(kgo.BalanceInfo{Generation: 4})
	into, err := mb.(kgo.GroupMemberBalancerOrError).BalanceOrError(counts("t", 12))
	if err != nil {
		t.Fatalf("one member's metadata (% x) failed the rebalance: %v", meta, err)
	}
	sas := into.IntoSyncAssignment()
	got := decoded(t, sas)
	if len(got) != 4 {
		t.Fatalf("assignments for %d members, want 4: %s", len(got), render(got))
	}
	for _, sa := range sas {
		if _, err := kgo.ParseConsumerSyncAssignment(sa.MemberAssignment); err != nil {
			t.Fatalf("kgo cannot parse member %q's assignment: %v", sa.MemberID, err)
		}
	}
	type topicPartition struct {
		topic     string
		partition int32
	}
	holder := make(map[topicPartition]string)
	for id, a := range got {
		for _, tp := range a.Partitions {
			for _, p := range tp.Partitions {
				k := topicPartition{tp.Topic, p}
				if prev, ok := holder[k]; ok {
					t.Fatalf("%s/%d given to %s and %s: %s", tp.Topic, p, prev, id, render(got))
				}
				holder[k] = id
				// Outside the leader's metadata only a claimer's own
				// partition may be given back to it (cooperative
				// give-back); honest members claim nothing there.
				if (tp.Topic != "t" || p < 0 || p >= 12) && id != "x" {
					t.Fatalf("%s/%d, outside the metadata, given to %s: %s", tp.Topic, p, id, render(got))
				}
			}
		}
	}
	for p := range int32(12) {
		// Honest m<p%3> owns p at generation 3: only it may hold p now.
		if id, ok := holder[topicPartition{"t", p}]; ok && id != fmt.Sprintf("m%d", p%3) {
			t.Fatalf("t/%d, owned by m%d, handed to %s in the same round: %s", p, p%3, id, render(got))
		}
	}
	if n := len(l.all()); n > 3 {
		t.Fatalf("%d log lines for one member: %q", n, l.all())
	}
}

// valid is a rich v3 subscription: every field present.
func valid() []byte {
	return v3([]string{"t", "u"}, tps("t", []int32{0, 1}, "u", []int32{7}), 2, wire.CooperativeUserData(2), "rack-a")
}

func hostileCases() map[string][]byte {
	be := binary.BigEndian
	cases := map[string][]byte{
		"empty":                          nil,
		"one byte":                       {0},
		"negative version":               append([]byte{0xff, 0xfe}, valid()[2:]...),
		"version 4 with a field after":   append(wire.Subscription{Version: 4, Topics: []string{"t"}, Generation: 1}.AppendTo(nil), 0, 0, 0, 9),
		"version 32767":                  append([]byte{0x7f, 0xff}, valid()[2:]...),
		"trailing bytes":                 append(valid(), 1, 2, 3, 4, 5, 6, 7),
		"topic count bomb":               be.AppendUint32([]byte{0, 3}, 0x7fffffff),
		"topic name length bomb":         be.AppendUint16(be.AppendUint32([]byte{0, 3}, 1), 0x7fff),
		"negative topic count":           be.AppendUint32([]byte{0, 3}, 0xfffffffe),
		"user data length bomb":          be.AppendUint32(be.AppendUint32([]byte{0, 3}, 0), 0x7fffffff),
		"owned count bomb":               be.AppendUint32(wire.Subscription{Topics: []string{"t"}}.AppendTo(nil)[:2+4+2+1+4], 0x7fffffff),
		"claims everything at 2^31-1":    v3([]string{"t"}, tps("t", assignor.Partitions(12)), 0x7fffffff, nil, ""),
		"claims everything at gen 4":     v3([]string{"t"}, tps("t", assignor.Partitions(12)), 4, nil, ""),
		"claims everything via v1 bytes": wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: wire.CooperativeUserData(1 << 30), Owned: tps("t", assignor.Partitions(12))}.AppendTo(nil),
		"empty topic and odd partitions": v3([]string{"", "t"}, tps("t", []int32{-1, 99, 99}), 2, nil, ""),
	}
	// A forged partition count inside the owned partitions.
	owned := v3([]string{"t"}, tps("t", []int32{0}), 2, nil, "")
	at := 2 + 4 + 2 + 1 + 4 + 4 + 2 + 1 // version, topics, null user data, owned count, topic
	cases["partition count bomb"] = be.AppendUint32(slices.Clone(owned[:at]), 0x7fffffff)
	return cases
}

func TestOneBadMember(t *testing.T) {
	for name, meta := range hostileCases() {
		t.Run(name, func(t *testing.T) { checkOneBadMember(t, meta) })
	}
}

func TestOneBadMemberEveryPrefix(t *testing.T) {
	full := valid()
	for n := range len(full) {
		t.Run(fmt.Sprintf("%d of %d bytes", n, len(full)), func(t *testing.T) { checkOneBadMember(t, full[:n]) })
	}
}

func TestOneBadMemberRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 1)) // fixed seed
	for i := range 300 {
		meta := make([]byte, r.IntN(64))
		for j := range meta {
			meta[j] = byte(r.Uint32())
		}
		if len(meta) >= 2 && i%2 == 0 {
			meta[0], meta[1] = 0, byte(r.IntN(5)) // a plausible version
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkOneBadMember(t, meta) })
	}
}

// FuzzMemberBalancer: no metadata makes the leader fail, panic, or break
// the safety rule for honest members. Seeds: the hand-written hostile cases
// and testdata/fuzz/FuzzMemberBalancer.
func FuzzMemberBalancer(f *testing.F) {
	for _, meta := range hostileCases() {
		f.Add(meta)
	}
	f.Add(valid())
	f.Fuzz(func(t *testing.T, meta []byte) { checkOneBadMember(t, meta) })
}
