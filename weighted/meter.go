package weighted

import (
	"cmp"
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
// MinInterval earlier; each new rate counts half in the smoothed one. A
// high watermark that went down (a truncated or recreated partition)
// restarts the measure.
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
	case p.at.IsZero() || highWatermark < p.hwm:
		p.hwm, p.at, p.measured = highWatermark, at, false
		return
	case dt < m.cfg.MinInterval:
		return
	}
	rate := (highWatermark - p.hwm) * int64(time.Second) / int64(dt)
	if p.measured {
		rate = (p.rate + rate) / 2
	}
	p.hwm, p.at, p.rate, p.measured = highWatermark, at, rate, true
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

// carry replaces the carried weights with those in r (the weights the
// leader carried with the partitions this member receives).
func (m *Meter) carry(r Report) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.parts {
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
			p.carried, p.hasCarry = t.Weights[i], true
		}
	}
}
