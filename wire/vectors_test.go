package wire_test

import (
	"encoding/hex"
	"strings"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/wire"
)

// mustHex decodes hand-written hex; spaces and "|" separate fields for the
// reader and are ignored.
func mustHex(s string) []byte {
	s = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func tps(kv ...any) []assignor.TopicPartitions {
	var out []assignor.TopicPartitions
	for i := 0; i < len(kv); i += 2 {
		out = append(out, assignor.TopicPartitions{Topic: kv[i].(string), Partitions: kv[i+1].([]int32)})
	}
	return out
}

// wantErr describes an expected *wire.DecodeError.
type wantErr struct {
	is     error
	field  string
	offset int
}

type subscriptionVector struct {
	name string
	in   []byte
	want wire.Subscription
	// canonical: encoding want gives back exactly in.
	canonical bool
	err       *wantErr
}

const noGen = assignor.NoGeneration

// Hand-written vectors. Byte groups: version | topics count | topic ... |
// user data | owned count | topic | partitions count | partitions |
// generation | rack.
var subscriptionVectors = []subscriptionVector{
	{
		name:      "v0: topics then null user data",
		in:        mustHex("0000 | 00000002 | 0001 61 | 0002 6262 | ffffffff"),
		want:      wire.Subscription{Version: 0, Topics: []string{"a", "bb"}, Generation: noGen},
		canonical: true,
	},
	{
		name:      "v0: empty user data is not null",
		in:        mustHex("0000 | 00000001 | 0001 61 | 00000000"),
		want:      wire.Subscription{Topics: []string{"a"}, UserData: []byte{}, Generation: noGen},
		canonical: true,
	},
	{
		name:      "v0: no topics decodes as nil",
		in:        mustHex("0000 | 00000000 | 00000002 beef"),
		want:      wire.Subscription{UserData: []byte{0xbe, 0xef}, Generation: noGen},
		canonical: true,
	},
	{
		name: "v1: owned partitions after user data (KIP-429)",
		in:   mustHex("0001 | 00000001 | 0001 74 | 00000001 07 | 00000002 | 0001 74 | 00000002 00000000 00000002 | 0001 75 | 00000000"),
		want: wire.Subscription{Version: 1, Topics: []string{"t"}, UserData: []byte{7},
			Owned: tps("t", []int32{0, 2}, "u", []int32(nil)), Generation: noGen},
		canonical: true,
	},
	{
		name:      "v1 cut short after user data decodes with no owned partitions (kafka-go, franz-go #493)",
		in:        mustHex("0001 | 00000001 | 0001 74 | ffffffff"),
		want:      wire.Subscription{Version: 1, Topics: []string{"t"}, Generation: noGen},
		canonical: false, // re-encodes with an empty owned list
	},
	{
		name: "v2: generation after owned partitions (KIP-792)",
		in:   mustHex("0002 | 00000001 | 0001 74 | ffffffff | 00000001 | 0001 74 | 00000001 00000003 | 00000009"),
		want: wire.Subscription{Version: 2, Topics: []string{"t"},
			Owned: tps("t", []int32{3}), Generation: 9},
		canonical: true,
	},
	{
		name:      "v2: generation -1 is NoGeneration",
		in:        mustHex("0002 | 00000000 | ffffffff | 00000000 | ffffffff"),
		want:      wire.Subscription{Version: 2, Generation: noGen},
		canonical: true,
	},
	{
		name: "v2 missing its generation decodes as NoGeneration",
		in:   mustHex("0002 | 00000000 | ffffffff | 00000001 | 0001 74 | 00000001 00000003"),
		want: wire.Subscription{Version: 2, Owned: tps("t", []int32{3}), Generation: noGen},
	},
	{
		name:      "v2 missing owned partitions and generation decodes with neither",
		in:        mustHex("0002 | 00000001 | 0001 74 | ffffffff"),
		want:      wire.Subscription{Version: 2, Topics: []string{"t"}, Generation: noGen},
		canonical: false,
	},
	{
		name:      "v3: rack after generation (KIP-881)",
		in:        mustHex("0003 | 00000001 | 0001 74 | ffffffff | 00000000 | 00000004 | 0002 7231"),
		want:      wire.Subscription{Version: 3, Topics: []string{"t"}, Generation: 4, Rack: "r1"},
		canonical: true,
	},
	{
		name:      "v3: null rack is empty",
		in:        mustHex("0003 | 00000000 | ffffffff | 00000000 | 00000004 | ffff"),
		want:      wire.Subscription{Version: 3, Generation: 4},
		canonical: true,
	},
	{
		name: "v3: empty rack is empty",
		in:   mustHex("0003 | 00000000 | ffffffff | 00000000 | 00000004 | 0000"),
		want: wire.Subscription{Version: 3, Generation: 4},
	},
	{
		name: "v3 missing its rack decodes as empty",
		in:   mustHex("0003 | 00000000 | ffffffff | 00000000 | 00000004"),
		want: wire.Subscription{Version: 3, Generation: 4},
	},
	{
		name:      "v4 decodes as its v3 prefix, newer fields ignored (Java forward compatibility)",
		in:        mustHex("0004 | 00000001 | 0001 74 | ffffffff | 00000000 | 00000004 | 0002 7231 | 0123456789"),
		want:      wire.Subscription{Version: 4, Topics: []string{"t"}, Generation: 4, Rack: "r1"},
		canonical: false, // trailing bytes are not re-encoded
	},
	{
		name: "v0 trailing bytes are ignored",
		in:   mustHex("0000 | 00000001 | 0001 74 | ffffffff | 00000001 0002"),
		want: wire.Subscription{Topics: []string{"t"}, Generation: noGen},
	},
	{
		name: "null topics array reads as empty",
		in:   mustHex("0000 | ffffffff | ffffffff"),
		want: wire.Subscription{Generation: noGen},
	},
	{
		name: "null topic string reads as empty",
		in:   mustHex("0000 | 00000001 | ffff | ffffffff"),
		want: wire.Subscription{Topics: []string{""}, Generation: noGen},
	},
	{
		name: "null owned partitions and partitions arrays read as empty",
		in:   mustHex("0001 | 00000000 | ffffffff | 00000001 | 0001 74 | ffffffff"),
		want: wire.Subscription{Version: 1, Owned: tps("t", []int32(nil)), Generation: noGen},
	},
	{
		name: "empty input: version truncated",
		in:   []byte{},
		err:  &wantErr{wire.ErrTruncated, "version", 0},
	},
	{
		name: "one byte: version truncated",
		in:   mustHex("00"),
		err:  &wantErr{wire.ErrTruncated, "version", 0},
	},
	{
		name: "negative version is unsupported",
		in:   mustHex("ffff | 00000000 | ffffffff"),
		err:  &wantErr{wire.ErrUnsupportedVersion, "version", 0},
	},
	{
		name: "v0 with no topics count: truncated",
		in:   mustHex("0000 | 0000"),
		err:  &wantErr{wire.ErrTruncated, "topics", 2},
	},
	{
		name: "topics count bomb: 2^31-1 topics in 6 bytes is truncated, not allocated",
		in:   mustHex("0000 | 7fffffff | 0001 74 | ffffffff"),
		err:  &wantErr{wire.ErrTruncated, "topics", 2},
	},
	{
		name: "topics count below -1 is a negative length",
		in:   mustHex("0000 | fffffffe | ffffffff"),
		err:  &wantErr{wire.ErrNegativeLength, "topics", 2},
	},
	{
		name: "topic string longer than the input: truncated, names the topic",
		in:   mustHex("0000 | 00000002 | 0001 74 | 0005 7475"),
		err:  &wantErr{wire.ErrTruncated, "topics[1]", 9},
	},
	{
		name: "topic length below -1 is a negative length",
		in:   mustHex("0000 | 00000001 | 8000 | ffffffff"),
		err:  &wantErr{wire.ErrNegativeLength, "topics[0]", 6},
	},
	{
		name: "v0 without user data: truncated (user data is not optional)",
		in:   mustHex("0000 | 00000001 | 0001 74"),
		err:  &wantErr{wire.ErrTruncated, "user_data", 9},
	},
	{
		name: "user data length bomb: truncated",
		in:   mustHex("0000 | 00000000 | 7fffffff | 00"),
		err:  &wantErr{wire.ErrTruncated, "user_data", 6},
	},
	{
		name: "user data length below -1 is a negative length",
		in:   mustHex("0000 | 00000000 | 80000000"),
		err:  &wantErr{wire.ErrNegativeLength, "user_data", 6},
	},
	{
		name: "v1 owned count cut mid-way: truncated",
		in:   mustHex("0001 | 00000000 | ffffffff | 0000"),
		err:  &wantErr{wire.ErrTruncated, "owned_partitions", 10},
	},
	{
		name: "owned entries bomb: truncated",
		in:   mustHex("0001 | 00000000 | ffffffff | 7fffffff | 0001 74 00000000"),
		err:  &wantErr{wire.ErrTruncated, "owned_partitions", 10},
	},
	{
		name: "owned partitions bomb: 2^31-1 int32 in 8 bytes is truncated, names the entry",
		in:   mustHex("0001 | 00000000 | ffffffff | 00000001 | 0001 74 | 7fffffff | 00000000 00000001"),
		err:  &wantErr{wire.ErrTruncated, "owned_partitions[0].partitions", 17},
	},
	{
		name: "owned topic cut: truncated",
		in:   mustHex("0001 | 00000000 | ffffffff | 00000002 | 0001 74 | 00000000 | 0009 74757677"),
		err:  &wantErr{wire.ErrTruncated, "owned_partitions[1].topic", 21},
	},
	{
		name: "owned partitions count below -1 is a negative length",
		in:   mustHex("0001 | 00000000 | ffffffff | 00000001 | 0001 74 | fffffff0"),
		err:  &wantErr{wire.ErrNegativeLength, "owned_partitions[0].partitions", 17},
	},
	{
		name: "v2 generation cut mid-way: truncated",
		in:   mustHex("0002 | 00000000 | ffffffff | 00000000 | 000000"),
		err:  &wantErr{wire.ErrTruncated, "generation_id", 14},
	},
	{
		name: "v3 rack cut: truncated",
		in:   mustHex("0003 | 00000000 | ffffffff | 00000000 | 00000001 | 0004 72"),
		err:  &wantErr{wire.ErrTruncated, "rack_id", 18},
	},
	{
		name: "v3 rack length below -1 is a negative length",
		in:   mustHex("0003 | 00000000 | ffffffff | 00000000 | 00000001 | fffe"),
		err:  &wantErr{wire.ErrNegativeLength, "rack_id", 18},
	},
}

type assignmentVector struct {
	name      string
	in        []byte
	want      wire.Assignment
	canonical bool
	err       *wantErr
}

// Byte groups: version | assigned count | topic | partitions count |
// partitions | user data.
var assignmentVectors = []assignmentVector{
	{
		name:      "v0: assigned partitions then null user data",
		in:        mustHex("0000 | 00000002 | 0001 61 | 00000002 00000000 00000001 | 0001 62 | 00000001 00000007 | ffffffff"),
		want:      wire.Assignment{Partitions: tps("a", []int32{0, 1}, "b", []int32{7})},
		canonical: true,
	},
	{
		name:      "v1: same layout, with user data",
		in:        mustHex("0001 | 00000000 | 00000003 010203"),
		want:      wire.Assignment{Version: 1, UserData: []byte{1, 2, 3}},
		canonical: true,
	},
	{
		name:      "v3: same layout, empty user data is not null",
		in:        mustHex("0003 | 00000001 | 0001 61 | 00000000 | 00000000"),
		want:      wire.Assignment{Version: 3, Partitions: tps("a", []int32(nil)), UserData: []byte{}},
		canonical: true,
	},
	{
		name: "v4 decodes as the shared layout, trailing bytes ignored",
		in:   mustHex("0004 | 00000000 | ffffffff | 00112233"),
		want: wire.Assignment{Version: 4},
	},
	{
		name: "null assigned array and null partitions read as empty",
		in:   mustHex("0000 | 00000001 | 0001 61 | ffffffff | ffffffff"),
		want: wire.Assignment{Partitions: tps("a", []int32(nil))},
	},
	{
		name: "empty input: version truncated",
		in:   nil,
		err:  &wantErr{wire.ErrTruncated, "version", 0},
	},
	{
		name: "negative version is unsupported",
		in:   mustHex("8000 | 00000000 | ffffffff"),
		err:  &wantErr{wire.ErrUnsupportedVersion, "version", 0},
	},
	{
		name: "assigned count bomb: truncated",
		in:   mustHex("0000 | 7fffffff | ffffffff"),
		err:  &wantErr{wire.ErrTruncated, "assigned_partitions", 2},
	},
	{
		name: "partitions bomb: truncated, names the entry",
		in:   mustHex("0000 | 00000001 | 0001 61 | 10000000 | ffffffff"),
		err:  &wantErr{wire.ErrTruncated, "assigned_partitions[0].partitions", 9},
	},
	{
		name: "partitions count below -1 is a negative length",
		in:   mustHex("0000 | 00000001 | 0001 61 | fffffffe | ffffffff"),
		err:  &wantErr{wire.ErrNegativeLength, "assigned_partitions[0].partitions", 9},
	},
	{
		name: "topic cut: truncated",
		in:   mustHex("0000 | 00000001 | 00ff 6162636465"),
		err:  &wantErr{wire.ErrTruncated, "assigned_partitions[0].topic", 6},
	},
	{
		name: "missing user data: truncated (every field of the shared layout is required)",
		in:   mustHex("0000 | 00000000"),
		err:  &wantErr{wire.ErrTruncated, "user_data", 6},
	},
	{
		name: "user data cut: truncated",
		in:   mustHex("0000 | 00000000 | 00000004 0102"),
		err:  &wantErr{wire.ErrTruncated, "user_data", 6},
	},
}

type stickyVector struct {
	name      string
	in        []byte
	want      wire.StickyUserData
	canonical bool
	err       *wantErr
}

// Byte groups: assignment count | topic | partitions count | partitions |
// generation.
var stickyVectors = []stickyVector{
	{
		name:      "v1: assignment then generation (KIP-341)",
		in:        mustHex("00000002 | 0001 61 | 00000002 00000000 00000002 | 0001 62 | 00000001 00000001 | 00000005"),
		want:      wire.StickyUserData{Owned: tps("a", []int32{0, 2}, "b", []int32{1}), Generation: 5},
		canonical: true,
	},
	{
		name:      "v1 with NoGeneration is written as -1, as Java does",
		in:        mustHex("00000000 | ffffffff"),
		want:      wire.StickyUserData{Generation: noGen},
		canonical: true,
	},
	{
		name: "v0: no generation decodes as NoGeneration",
		in:   mustHex("00000001 | 0001 61 | 00000001 00000003"),
		want: wire.StickyUserData{Owned: tps("a", []int32{3}), Generation: noGen},
	},
	{
		name: "bytes after the generation are ignored (Java, franz-go)",
		in:   mustHex("00000000 | 00000007 | 0000"),
		want: wire.StickyUserData{Generation: 7},
	},
	{
		name: "null assignment array reads as empty",
		in:   mustHex("ffffffff | 00000007"),
		want: wire.StickyUserData{Generation: 7},
	},
	{
		name: "empty input: truncated",
		in:   nil,
		err:  &wantErr{wire.ErrTruncated, "previous_assignment", 0},
	},
	{
		name: "assignment count bomb: truncated",
		in:   mustHex("7fffffff | 00000007"),
		err:  &wantErr{wire.ErrTruncated, "previous_assignment", 0},
	},
	{
		name: "partitions bomb: truncated, names the entry",
		in:   mustHex("00000001 | 0001 61 | 7fffffff | 00000007"),
		err:  &wantErr{wire.ErrTruncated, "previous_assignment[0].partitions", 7},
	},
	{
		name: "topic length below -1 is a negative length",
		in:   mustHex("00000001 | ff00 | 00000000"),
		err:  &wantErr{wire.ErrNegativeLength, "previous_assignment[0].topic", 4},
	},
	{
		name: "generation cut mid-way: truncated (sarama, franz-go)",
		in:   mustHex("00000000 | 0000"),
		err:  &wantErr{wire.ErrTruncated, "generation", 4},
	},
}
