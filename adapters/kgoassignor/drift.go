package kgoassignor

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/weighted"
)

// DriftConfig configures [WatchDrift]. Group is required; the zero value
// of every other field is its default.
type DriftConfig struct {
	// Group returns the group as it stands: its members with their
	// subscriptions and what each owns now (Owned, Generation), and the
	// topics with their current weights (or none, for the assignor's
	// Config.Weights to supply). The application builds it, for instance
	// from kadm's DescribeGroups and its weight source.
	Group func(ctx context.Context) (assignor.Group, error)
	// Every is how often the drift is checked. Default 1 min.
	Every time.Duration
	// MinInterval is the least time between two forced rebalances. Each
	// costs the group two rounds of a cooperative rebalance and a wait for
	// every member, so it should be well above the time a rebalance takes.
	// Default 10 min.
	MinInterval time.Duration
	// Logger receives one record per forced rebalance (info) and per failed
	// check (warning). Default: [slog.Default].
	Logger *slog.Logger
}

// WatchDrift makes weights that drift act before the next natural
// rebalance: every cfg.Every it asks a (the assignor the group runs, with
// the same configuration) whether a rebalance would move partitions with
// the group as cfg.Group reports it ([weighted.Assignor.Drift]: only when
// the heaviest member is more than the hysteresis margin above the best
// load), and if so calls cl.ForceRebalance, at most once per
// cfg.MinInterval. It returns when ctx is done (nil), or at once when
// cfg.Group is nil.
//
// kgo's ForceRebalance makes this member rejoin, which starts a rebalance
// of the whole group; run WatchDrift on one member (or a few, as the rate
// limit is per watcher). Without it, weights reach the leader only at the
// next JoinGroup, since a member's rejoin triggers a rebalance only if its
// metadata changed. sarama has no public way to ask for a rebalance.
func WatchDrift(ctx context.Context, cl *kgo.Client, a *weighted.Assignor, cfg DriftConfig) error {
	if cfg.Group == nil {
		return errors.New("kgoassignor: WatchDrift: nil DriftConfig.Group")
	}
	w := newDriftWatcher(a, cfg, cl.ForceRebalance, time.Now)
	ticker := time.NewTicker(w.cfg.Every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
			w.step(ctx)
		}
	}
}

// driftWatcher is WatchDrift's decision, apart from its clock and client.
type driftWatcher struct {
	a      *weighted.Assignor
	cfg    DriftConfig
	force  func()
	now    func() time.Time
	log    *slog.Logger
	forced time.Time // the last forced rebalance; zero before the first
}

func newDriftWatcher(a *weighted.Assignor, cfg DriftConfig, force func(), now func() time.Time) *driftWatcher {
	if cfg.Every <= 0 {
		cfg.Every = time.Minute
	}
	if cfg.MinInterval <= 0 {
		cfg.MinInterval = 10 * time.Minute
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &driftWatcher{a: a, cfg: cfg, force: force, now: now, log: log.With("adapter", "kgoassignor")}
}

// step checks once and forces a rebalance when the drift calls for one
// and the rate limit allows; it reports whether it forced one.
func (w *driftWatcher) step(ctx context.Context) bool {
	now := w.now()
	if !w.forced.IsZero() && now.Sub(w.forced) < w.cfg.MinInterval {
		return false
	}
	g, err := w.cfg.Group(ctx)
	if err != nil {
		w.log.Warn("drift check: reading the group failed", "error", err)
		return false
	}
	d, err := w.a.Drift(g)
	if err != nil {
		w.log.Warn("drift check failed", "error", err)
		return false
	}
	if !d.Rebalance() {
		return false
	}
	w.log.Info("weights drifted; forcing a rebalance", "heaviest", d.Heaviest, "planned", d.Planned, "moves", d.Moves)
	w.forced = now
	w.force()
	return true
}
