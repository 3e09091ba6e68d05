package weighted

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"
	"time"

	"github.com/kgroup/assignor"
)

// MeterConfig tunes a [Meter]. The zero value of each field is its
// default.
type MeterConfig struct {
	// MaxPartitions is the most partitions a report lists one by one (the
	// heaviest); the member's other partitions are summarised per topic
	// (how many, their mean weight). Default 64: with topic names of 20
	// bytes, a report stays under 1 KiB, so 500 members stay well under
	// the 1 MiB default limit of the group's metadata record (which also
	// holds every subscription and assignment); lower it for larger groups.
	MaxPartitions int
	// MinInterval is the least time between two observations of a
	// partition that count: closer ones are skipped. Default 1 s.
	MinInterval time.Duration
}

// Meter measures, on one member, the load that arrives at its partitions:
// the rate at which each partition's high watermark grows (records/s),
// which an overloaded member measures as well as any (its consumption is
// capped by its capacity; what arrives is not). Feed it from fetch
// responses (kgo: FetchPartition.HighWatermark; sarama:
// PartitionConsumer.HighWaterMarkOffset); give it to the member's
// assignor ([Config.Meter]), which reports it in the subscription user
// data and hands it the weights the leader carries with partitions it
// receives. One Meter per member; safe for concurrent use.
type Meter struct {
	cfg MeterConfig

	mu     sync.Mutex
	parts  map[partitionKey]*metered
	frozen []byte // the last user data, for frozenGen
	gen    int32
}

type partitionKey struct {
	topic     string
	partition int32
}

// metered is one partition's measure.
type metered struct {
	hwm      int64
	at       time.Time
	rate     int64 // records/s, smoothed; valid when measured
	measured bool
	carried  int64 // the weight the leader carried here; valid when hasCarry
	hasCarry bool
}

// NewMeter returns an empty meter.
func NewMeter(cfg MeterConfig) *Meter {
	if cfg.MaxPartitions <= 0 {
		cfg.MaxPartitions = 64
	}
	if cfg.MinInterval <= 0 {
		cfg.MinInterval = time.Second
	}
	return &Meter{cfg: cfg, parts: map[partitionKey]*metered{}}
}

// Observe records partition's high watermark as of at. The rate is the
// growth per second since the last observation that counted, at least
// MinInterval earlier, exact for any growth and interval and at most
// [MaxReportedWeight]; each new rate counts half in the smoothed one. A
// high watermark that went down (a truncated or recreated partition), or
// a time that went back, restarts the measure, and so does the first
// observation of a partition the member was assigned again after losing it
// (the meter forgets a partition when an assignment leaves it out; see
// [Assignor.OnAssignment]).
func (m *Meter) Observe(topic string, partition int32, highWatermark int64, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := partitionKey{topic, partition}
	p := m.parts[k]
	if p == nil {
		m.parts[k] = &metered{hwm: highWatermark, at: at}
		return
	}
	dt := at.Sub(p.at)
	switch {
	case p.at.IsZero() || highWatermark < p.hwm || dt < 0:
		p.hwm, p.at, p.measured = highWatermark, at, false
		return
	case dt < m.cfg.MinInterval || dt == 0:
		return
	}
	rate := perSecond(uint64(highWatermark-p.hwm), dt)
	if p.measured {
		rate = (p.rate + rate) / 2
	}
	p.hwm, p.at, p.rate, p.measured = highWatermark, at, rate, true
}

// perSecond returns growth over dt (> 0) per second, rounded down, at
// most MaxReportedWeight: growth·10^9/dt in 128 bits, so that no growth
// or interval overflows.
func perSecond(growth uint64, dt time.Duration) int64 {
	hi, lo := bits.Mul64(growth, uint64(time.Second))
	if hi >= uint64(dt) {
		return MaxReportedWeight // the quotient does not fit in 64 bits
	}
	q, _ := bits.Div64(hi, lo, uint64(dt))
	return int64(min(q, uint64(MaxReportedWeight)))
}

// Report returns what the meter knows of the partitions in owned and of
// those the leader carried weights for: measured rates, else carried
// weights; partitions with neither are left out (the leader then weighs
// them by default). The heaviest MaxPartitions are listed, the rest
// summarised per topic.
func (m *Meter) Report(generation int32, owned []assignor.TopicPartitions) Report {
	m.mu.Lock()
	defer m.mu.Unlock()
	type entry struct {
		k partitionKey
		w int64
	}
	var entries []entry
	seen := map[partitionKey]bool{}
	add := func(k partitionKey) {
		if seen[k] {
			return
		}
		seen[k] = true
		switch p := m.parts[k]; {
		case p == nil:
		case p.measured:
			entries = append(entries, entry{k, max(p.rate, 0)})
		case p.hasCarry:
			entries = append(entries, entry{k, p.carried})
		}
	}
	for _, tp := range owned {
		for _, id := range tp.Partitions {
			add(partitionKey{tp.Topic, id})
		}
	}
	for k, p := range m.parts {
		if p.hasCarry {
			add(k)
		}
	}
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(b.w, a.w), cmp.Compare(a.k.topic, b.k.topic), cmp.Compare(a.k.partition, b.k.partition))
	})
	byTopic := map[string]*TopicReport{}
	r := Report{Generation: generation}
	for i, e := range entries {
		t := byTopic[e.k.topic]
		if t == nil {
			r.Topics = append(r.Topics, TopicReport{Topic: e.k.topic})
			t = &r.Topics[len(r.Topics)-1]
			byTopic[e.k.topic] = t
		}
		if i < m.cfg.MaxPartitions {
			t.Partitions, t.Weights = append(t.Partitions, e.k.partition), append(t.Weights, e.w)
		} else {
			t.RestWeight += e.w // a sum until divided below
			t.Rest++
		}
	}
	for i := range r.Topics {
		if t := &r.Topics[i]; t.Rest > 0 {
			t.RestWeight /= int64(t.Rest)
		}
	}
	sortReport(&r)
	return r
}

// userData is the version 1 user data for s, frozen per generation: the
// same bytes for every join in one generation, so that a harmless rejoin
// does not become a rebalance.
func (m *Meter) userData(s assignor.MemberState) ([]byte, error) {
	m.mu.Lock()
	if m.frozen != nil && m.gen == s.Generation {
		b := m.frozen
		m.mu.Unlock()
		return slices.Clone(b), nil
	}
	m.mu.Unlock()
	r := m.Report(s.Generation, s.Owned)
	for _, t := range r.Topics {
		if len(t.Topic) > 32767 {
			return nil, errTopicName(t.Topic)
		}
	}
	b := appendReport(userDataPrefix(s.Generation, reportVersion), r)
	m.mu.Lock()
	m.frozen, m.gen = b, s.Generation
	m.mu.Unlock()
	return slices.Clone(b), nil
}

// assigned forgets the partitions that neither assigned (the member's
// assignment) nor r (the weights the leader carried to it) holds, and
// replaces the carried weights with r's.
func (m *Meter) assigned(assigned []assignor.TopicPartitions, r Report) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keep := map[partitionKey]bool{}
	for _, tp := range assigned {
		for _, id := range tp.Partitions {
			keep[partitionKey{tp.Topic, id}] = true
		}
	}
	for _, t := range r.Topics {
		for _, id := range t.Partitions {
			keep[partitionKey{t.Topic, id}] = true
		}
	}
	for k, p := range m.parts {
		if !keep[k] {
			delete(m.parts, k)
			continue
		}
		p.hasCarry = false
	}
	for _, t := range r.Topics {
		for i, id := range t.Partitions {
			k := partitionKey{t.Topic, id}
			p := m.parts[k]
			if p == nil {
				p = &metered{}
				m.parts[k] = p
			}
			p.carried, p.hasCarry = min(t.Weights[i], MaxReportedWeight), true
		}
	}
}
