package saramaassignor_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
)

// recommended is the config docs/sarama.md recommends: no finding.
func recommended() *sarama.Config {
	c := sarama.NewConfig()
	c.Version = sarama.V3_2_0_0
	c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky()}
	c.Consumer.Group.Rebalance.Retry.Backoff = 100 * time.Millisecond
	return c
}

func strategy(t *testing.T, cfg cooperative.Config) saramaassignor.Strategy {
	t.Helper()
	s, err := saramaassignor.New(cooperative.WrapWithConfig(sticky.New(), cfg), saramaassignor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// valueStrategy is a strategy whose dynamic type is not comparable.
type valueStrategy struct {
	name  string
	extra []string
}

func (s valueStrategy) Name() string { return s.name }
func (s valueStrategy) Plan(map[string]sarama.ConsumerGroupMemberMetadata, map[string][]int32) (sarama.BalanceStrategyPlan, error) {
	return nil, nil
}
func (s valueStrategy) AssignmentData(string, map[string][]int32, int32) ([]byte, error) {
	return nil, nil
}

// TestCheckConfig: one row per finding, each on a config sarama's own
// Validate accepts, and the configs that must pass.
func TestCheckConfig(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, c *sarama.Config)
		want   string // the Setting of the one finding, or "" for none
		says   []string
	}{
		{name: "the recommended config", change: func(*testing.T, *sarama.Config) {}},
		{
			name: "ours appended to sarama.NewConfig's range (issue 17): range assigns, eager",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = append(sarama.NewConfig().Consumer.Group.Rebalance.GroupStrategies, saramaassignor.CooperativeSticky())
			},
			want: "Consumer.Group.Rebalance.GroupStrategies",
			says: []string{"range comes first and cooperative-sticky after it", "eager", "set the list instead of appending", "GroupStrategies = []sarama.BalanceStrategy{cooperative-sticky}"},
		},
		{
			name: "ours then sarama's eager sticky (KIP-429's first deploy): eager",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky(), sarama.NewBalanceStrategySticky()}
			},
			want: "Consumer.Group.Rebalance.GroupStrategies",
			says: []string{"sticky supports only the eager protocol", "in the second, list cooperative-sticky alone"},
		},
		{
			name: "ours and sarama's cooperative-sticky: both cooperative",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = append(c.Consumer.Group.Rebalance.GroupStrategies, sarama.NewBalanceStrategyCooperativeSticky())
			},
		},
		{
			name: "the deprecated Strategy hides GroupStrategies",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.Strategy = valueStrategy{name: "legacy", extra: []string{"x"}}
				c.Consumer.Group.Rebalance.GroupStrategies = append(c.Consumer.Group.Rebalance.GroupStrategies, valueStrategy{name: "legacy"})
			},
			want: "Consumer.Group.Rebalance.Strategy",
			says: []string{"ignores GroupStrategies (cooperative-sticky)", "leave Strategy nil"},
		},
		{
			name: "InnerUserData below V3_2_0_0 (subscription v1): Java misreads the generation",
			change: func(t *testing.T, c *sarama.Config) {
				c.Version = sarama.V2_8_0_0
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy(t, cooperative.Config{InnerUserData: true})}
			},
			want: "Version",
			says: []string{"2.8.0", "first 4 bytes as the generation", "set Version to sarama.V3_2_0_0 or later"},
		},
		{
			name: "InnerUserData around an assignor without user data, below V3_2_0_0: no generation at all",
			change: func(t *testing.T, c *sarama.Config) {
				c.Version = sarama.V3_1_0_0
				s, err := saramaassignor.New(cooperative.WrapWithConfig(roundrobin.New(), cooperative.Config{InnerUserData: true}), saramaassignor.Config{})
				if err != nil {
					t.Fatal(err)
				}
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{s}
			},
			want: "Version",
			says: []string{"carries none", "withheld from both"},
		},
		{
			name: "InnerUserData at V3_2_0_0: the subscription carries the generation",
			change: func(t *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy(t, cooperative.Config{InnerUserData: true})}
			},
		},
		{
			name: "cooperative-weighted below V3_2_0_0: its own layout carries the generation, and only our leaders run it",
			change: func(t *testing.T, c *sarama.Config) {
				c.Version = sarama.V2_8_0_0
				w, err := saramaassignor.Weighted(weighted.Config{}, saramaassignor.Config{})
				if err != nil {
					t.Fatal(err)
				}
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{w}
			},
		},
		{
			name: "the default wrapper below V3_2_0_0: the 4-byte generation",
			change: func(t *testing.T, c *sarama.Config) {
				c.Version = sarama.V2_4_0_0
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy(t, cooperative.Config{})}
			},
		},
		{
			name: "sarama's defaults but the strategy: Retry.Backoff 2s",
			change: func(_ *testing.T, c *sarama.Config) {
				*c = *sarama.NewConfig()
				c.Consumer.Group.Rebalance.GroupStrategies = recommended().Consumer.Group.Rebalance.GroupStrategies
			},
			want: "Consumer.Group.Rebalance.Retry.Backoff",
			says: []string{"2s", "second round", "at most 500ms"},
		},
		{
			name: "Retry.Backoff 2s with eager strategies only: no second rounds",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.Retry.Backoff = 2 * time.Second
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{sarama.NewBalanceStrategySticky()}
			},
		},
		{
			name: "heartbeat above a third of the session",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Heartbeat.Interval = 4 * time.Second
			},
			want: "Consumer.Group.Heartbeat.Interval",
			says: []string{"4s is above a third of Consumer.Group.Session.Timeout (10s)", "at most 3.333333333s"},
		},
		{
			name: "MaxWaitTime above the heartbeat (docs/sarama.md's 300ms heartbeat, 3s session, 500ms default)",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Heartbeat.Interval = 300 * time.Millisecond
				c.Consumer.Group.Session.Timeout = 3 * time.Second
			},
			want: "Consumer.MaxWaitTime",
			says: []string{"500ms is above Consumer.Group.Heartbeat.Interval (300ms)", "set it to at most 300ms"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := recommended()
			tt.change(t, c)
			if err := c.Validate(); err != nil {
				t.Fatalf("sarama's Validate rejects the row's config, so it tests nothing beyond it: %v", err)
			}
			err := saramaassignor.CheckConfig(c)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("CheckConfig: %v", err)
				}
				return
			}
			var ce *saramaassignor.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("CheckConfig = %v, want a *ConfigError", err)
			}
			if n := len(err.(interface{ Unwrap() []error }).Unwrap()); n != 1 {
				t.Errorf("%d findings, want 1:\n%v", n, err)
			}
			if ce.Setting != tt.want {
				t.Errorf("Setting %q, want %q", ce.Setting, tt.want)
			}
			if ce.Problem == "" || ce.Fix == "" {
				t.Errorf("Problem %q, Fix %q: want both", ce.Problem, ce.Fix)
			}
			text := err.Error()
			if !strings.HasPrefix(text, "saramaassignor: "+tt.want+": ") || !strings.Contains(text, ce.Fix) {
				t.Errorf("the text names neither the setting first nor the fix: %s", text)
			}
			for _, s := range tt.says {
				if !strings.Contains(text, s) {
					t.Errorf("the finding does not say %q:\n%s", s, text)
				}
			}
		})
	}
}

// TestCheckConfigJoinsFindings: several findings come joined, each a
// *ConfigError; a nil config is an error, not a panic.
func TestCheckConfigJoinsFindings(t *testing.T) {
	t.Parallel()
	c := sarama.NewConfig()
	c.Consumer.Group.Rebalance.GroupStrategies = append(c.Consumer.Group.Rebalance.GroupStrategies, saramaassignor.CooperativeSticky())
	c.Consumer.Group.Heartbeat.Interval = 300 * time.Millisecond
	c.Consumer.Group.Session.Timeout = 3 * time.Second
	err := saramaassignor.CheckConfig(c)
	var settings []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ce *saramaassignor.ConfigError
		if !errors.As(e, &ce) {
			t.Fatalf("not a *ConfigError: %v", e)
		}
		settings = append(settings, ce.Setting)
	}
	if want := "Consumer.Group.Rebalance.GroupStrategies Consumer.MaxWaitTime"; strings.Join(settings, " ") != want {
		t.Errorf("findings for %v, want %s", settings, want)
	}
	if err := saramaassignor.CheckConfig(nil); err == nil {
		t.Error("CheckConfig(nil) = nil")
	}
}
