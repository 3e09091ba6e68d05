package source

import (
	"context"
	"sync"
	"time"

	"github.com/kgroup/assignor"
)

// Fetch returns the current weights of the partitions of topics, as topic
// → partition → weight, in the caller's unit (records/s, bytes/s, lag…).
// Partitions it leaves out are unknown. It must return soon after ctx is
// done; it runs on its own goroutine, one at a time.
type Fetch func(ctx context.Context, topics []assignor.TopicPartitions) (map[string]map[int32]int64, error)

// Config tunes a [Source]. The zero value of each field is its default.
type Config struct {
	// Deadline bounds how long Weights waits for a fetch (and the fetch's
	// context). Default 1 s: well under the rebalance timeout, which every
	// member waits out.
	Deadline time.Duration
	// MaxAge is how long fetched weights serve without a new fetch.
	// Default 30 s.
	MaxAge time.Duration
	// StaleAge is how long fetched weights still serve when a newer fetch
	// fails or misses the deadline. Default 10 min; below MaxAge it is
	// MaxAge.
	StaleAge time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Logf receives one line per failed or late fetch; it may be called
	// from the fetch goroutine, so it must be safe for concurrent use.
	// Default: none.
	Logf func(format string, args ...any)
}

// Source is a cached, deadline-bound weight supplier. It is safe for
// concurrent use.
type Source struct {
	fetch Fetch
	cfg   Config

	mu       sync.Mutex
	cache    map[string]entry
	inflight chan struct{} // closed when the running fetch ends; nil when none runs
}

// entry is one topic's cached weights.
type entry struct {
	weights map[int32]int64
	at      time.Time
}

// New returns a Source in front of fetch, with cfg's defaults filled in.
func New(fetch Fetch, cfg Config) *Source {
	if cfg.Deadline <= 0 {
		cfg.Deadline = time.Second
	}
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = 30 * time.Second
	}
	if cfg.StaleAge <= 0 {
		cfg.StaleAge = 10 * time.Minute
	}
	cfg.StaleAge = max(cfg.StaleAge, cfg.MaxAge)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Source{fetch: fetch, cfg: cfg, cache: map[string]entry{}}
}

// Weights is weighted.Config.Weights: one entry per topic, nil for a
// topic with no usable weights, else one weight per partition
// ([assignor.UnknownWeight] for an unknown one). It waits for a fetch at
// most Config.Deadline; see the package documentation.
func (s *Source) Weights(topics []assignor.TopicPartitions) [][]int64 {
	if need := s.stale(topics); len(need) > 0 {
		s.refresh(need)
	}
	return s.answer(topics)
}

// stale returns the topics whose cached weights are missing or older
// than MaxAge.
func (s *Source) stale(topics []assignor.TopicPartitions) []assignor.TopicPartitions {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	var need []assignor.TopicPartitions
	for _, tp := range topics {
		if e, ok := s.cache[tp.Topic]; !ok || now.Sub(e.at) >= s.cfg.MaxAge {
			need = append(need, tp)
		}
	}
	return need
}

// refresh starts a fetch of need unless one is running, and waits for the
// running one at most Deadline.
func (s *Source) refresh(need []assignor.TopicPartitions) {
	s.mu.Lock()
	if s.inflight == nil {
		s.inflight = make(chan struct{})
		go s.run(assignor.CloneTopicPartitions(need), s.inflight)
	}
	done := s.inflight
	s.mu.Unlock()
	timer := time.NewTimer(s.cfg.Deadline)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		s.logf("weighted/source: fetch of %d topics still running after %v; answering from the cache", len(need), s.cfg.Deadline)
	}
}

// run fetches topics, stores what came back, and closes done.
func (s *Source) run(topics []assignor.TopicPartitions, done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Deadline)
	got, err := s.fetch(ctx, topics)
	cancel()
	now := s.cfg.Now()
	s.mu.Lock()
	if err == nil {
		for topic, ws := range got {
			s.cache[topic] = entry{weights: ws, at: now}
		}
	}
	s.inflight = nil
	s.mu.Unlock()
	if err != nil {
		s.logf("weighted/source: fetch of %d topics: %v; answering from the cache", len(topics), err)
	}
	close(done)
}

// answer reads the cache: entries older than StaleAge are unknown.
func (s *Source) answer(topics []assignor.TopicPartitions) [][]int64 {
	now := s.cfg.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]int64, len(topics))
	for i, tp := range topics {
		e, ok := s.cache[tp.Topic]
		if !ok || now.Sub(e.at) >= s.cfg.StaleAge {
			continue
		}
		ws := make([]int64, len(tp.Partitions))
		for j, p := range tp.Partitions {
			w, ok := e.weights[p]
			if !ok || w < 0 {
				w = assignor.UnknownWeight
			}
			ws[j] = w
		}
		out[i] = ws
	}
	return out
}

func (s *Source) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}
