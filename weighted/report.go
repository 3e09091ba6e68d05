package weighted

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// Report is what one member measured of its partitions' load, as it
// travels in its subscription user data (version 1): per topic, the
// partitions reported one by one (the heaviest, up to the meter's cap)
// and a summary of the rest (how many, and their mean weight). Weights are
// quantised to 16 bits (see [Quantise]).
type Report struct {
	// Generation is the generation the member reported in.
	Generation int32
	// Topics are sorted by name.
	Topics []TopicReport
}

// TopicReport is one topic of a [Report].
type TopicReport struct {
	Topic string
	// Partitions and Weights are parallel, sorted by partition.
	Partitions []int32
	Weights    []int64
	// Rest is how many more of the member's partitions of this topic the
	// report summarises, and RestWeight their mean weight.
	Rest       int32
	RestWeight int64
}

// Quantise rounds w (>= 0) to what 16 bits carry: exact below 1024, else a
// 10-bit mantissa and a 6-bit exponent, a relative error below 0.1%, well
// inside the assignor's 1% band. Negative weights are 0.
func Quantise(w int64) int64 { return dequantise(quantise(w)) }

func quantise(w int64) uint16 {
	if w <= 0 {
		return 0
	}
	w = min(w, maxTotal)
	if w < 1024 {
		return uint16(w)
	}
	e := bits.Len64(uint64(w)) - 10
	m := (uint64(w) + 1<<(e-1)) >> e // round to nearest
	if m == 1024 {
		m, e = 512, e+1
	}
	return uint16(e)<<10 | uint16(m)
}

func dequantise(q uint16) int64 {
	e, m := int(q>>10), uint64(q&1023)
	if m != 0 && bits.Len64(m)+e > 62 {
		return maxTotal
	}
	return min(int64(m<<e), maxTotal)
}

// appendReport appends version 1's report fields.
func appendReport(b []byte, r Report) []byte {
	be := binary.BigEndian
	b = be.AppendUint32(b, uint32(len(r.Topics)))
	for _, t := range r.Topics {
		b = be.AppendUint16(b, uint16(len(t.Topic)))
		b = append(b, t.Topic...)
		b = be.AppendUint32(b, uint32(len(t.Partitions)))
		for i, p := range t.Partitions {
			b = be.AppendUint32(b, uint32(p))
			b = be.AppendUint16(b, quantise(t.Weights[i]))
		}
		b = be.AppendUint32(b, uint32(t.Rest))
		b = be.AppendUint16(b, quantise(t.RestWeight))
	}
	return b
}

// readReport reads version 1's report fields from b, which must hold
// nothing else. Every count is checked against the bytes left, so
// hostile bytes cost no more than their size.
func readReport(b []byte, gen int32) (Report, error) {
	r := Report{Generation: gen}
	bad := func(what string) (Report, error) {
		return Report{}, fmt.Errorf("%w: report: %s", ErrUserData, what)
	}
	be := binary.BigEndian
	if len(b) < 4 {
		return bad("truncated topic count")
	}
	n := be.Uint32(b)
	b = b[4:]
	if uint64(n)*12 > uint64(len(b)) {
		return bad(fmt.Sprintf("%d topics in %d bytes", n, len(b)))
	}
	for range n {
		if len(b) < 2 || len(b) < 2+int(be.Uint16(b)) {
			return bad("truncated topic name")
		}
		t := TopicReport{Topic: string(b[2 : 2+int(be.Uint16(b))])}
		b = b[2+len(t.Topic):]
		if len(b) < 4 || uint64(be.Uint32(b))*6+10 > uint64(len(b)) {
			return bad(fmt.Sprintf("topic %q: truncated partitions", t.Topic))
		}
		k := be.Uint32(b)
		b = b[4:]
		for range k {
			p := int32(be.Uint32(b))
			if len(t.Partitions) > 0 && p <= t.Partitions[len(t.Partitions)-1] || p < 0 {
				return bad(fmt.Sprintf("topic %q: partition %d out of order", t.Topic, p))
			}
			t.Partitions = append(t.Partitions, p)
			t.Weights = append(t.Weights, dequantise(be.Uint16(b[4:])))
			b = b[6:]
		}
		t.Rest, t.RestWeight = int32(be.Uint32(b)), dequantise(be.Uint16(b[4:]))
		b = b[6:]
		if t.Rest < 0 {
			return bad(fmt.Sprintf("topic %q: rest %d", t.Topic, t.Rest))
		}
		if len(r.Topics) > 0 && t.Topic <= r.Topics[len(r.Topics)-1].Topic {
			return bad(fmt.Sprintf("topic %q out of order", t.Topic))
		}
		r.Topics = append(r.Topics, t)
	}
	if len(b) > 0 {
		return bad(fmt.Sprintf("%d trailing bytes", len(b)))
	}
	return r, nil
}

// sortReport sorts r's topics by name and each topic's partitions.
func sortReport(r *Report) {
	slices.SortFunc(r.Topics, func(a, b TopicReport) int {
		switch {
		case a.Topic < b.Topic:
			return -1
		case a.Topic > b.Topic:
			return 1
		}
		return 0
	})
	for i := range r.Topics {
		t := &r.Topics[i]
		idx := make([]int, len(t.Partitions))
		for j := range idx {
			idx[j] = j
		}
		slices.SortFunc(idx, func(a, b int) int { return int(t.Partitions[a]) - int(t.Partitions[b]) })
		ps, ws := make([]int32, len(idx)), make([]int64, len(idx))
		for j, k := range idx {
			ps[j], ws[j] = t.Partitions[k], t.Weights[k]
		}
		t.Partitions, t.Weights = ps, ws
	}
}
