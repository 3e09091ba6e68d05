package saramaassignor_test

import (
	"errors"
	"slices"
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
		name     string
		change   func(t *testing.T, c *sarama.Config)
		opts     saramaassignor.CheckOptions
		field    string // the Field of the one finding, or "" for none
		severity saramaassignor.Severity
		says     []string
	}{
		{name: "the recommended config", change: func(*testing.T, *sarama.Config) {}},
		{
			name: "ours appended to sarama.NewConfig's range (issue 17): range assigns, eager",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = append(sarama.NewConfig().Consumer.Group.Rebalance.GroupStrategies, saramaassignor.CooperativeSticky())
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Error,
			says: []string{"range comes first and cooperative-sticky after it", "eager", "set the list instead of appending", "GroupStrategies = []sarama.BalanceStrategy{cooperative-sticky}"},
		},
		{
			name: "ours then sarama's eager sticky (KIP-429's first deploy), not acknowledged: eager",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky(), sarama.NewBalanceStrategySticky()}
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Error,
			says: []string{"sticky supports only the eager protocol", "CheckConfigWith(c, CheckOptions{Migrating: true}) acknowledges", "in the second, list cooperative-sticky alone"},
		},
		{
			name: "ours then sarama's eager sticky, acknowledged as KIP-429's first deploy",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky(), sarama.NewBalanceStrategySticky()}
			},
			opts: saramaassignor.CheckOptions{Migrating: true},
		},
		{
			name: "ours then range and roundrobin, acknowledged as KIP-429's first deploy",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky(), sarama.NewBalanceStrategyRange(), sarama.NewBalanceStrategyRoundRobin()}
			},
			opts: saramaassignor.CheckOptions{Migrating: true},
		},
		{
			name: "range first, though acknowledged as a migration: range keeps assigning",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{sarama.NewBalanceStrategyRange(), saramaassignor.CooperativeSticky()}
			},
			opts:  saramaassignor.CheckOptions{Migrating: true},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Error,
			says: []string{"range comes first"},
		},
		{
			name:   "acknowledged as a migration after the second deploy: nothing to excuse, nothing found",
			change: func(*testing.T, *sarama.Config) {},
			opts:   saramaassignor.CheckOptions{Migrating: true},
		},
		{
			name: "ours then sarama's cooperative-sticky: one name, two strategies, ours runs",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = append(c.Consumer.Group.Rebalance.GroupStrategies, sarama.NewBalanceStrategyCooperativeSticky())
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Error,
			says: []string{"cooperative-sticky names 2 strategies of different implementations (GroupStrategies[0] (saramaassignor's) and GroupStrategies[1] (*sarama.", "so GroupStrategies[0] runs", "keep GroupStrategies[0] (saramaassignor's) and remove GroupStrategies[1]"},
		},
		{
			name: "sarama's cooperative-sticky then ours: sarama's runs, keep ours",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{sarama.NewBalanceStrategyCooperativeSticky(), saramaassignor.CooperativeSticky()}
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Error,
			says: []string{"so GroupStrategies[0] runs and the others never do", "keep GroupStrategies[1] (saramaassignor's) and remove GroupStrategies[0]"},
		},
		{
			name: "the same strategy listed twice",
			change: func(_ *testing.T, c *sarama.Config) {
				s := saramaassignor.CooperativeSticky()
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{s, s}
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Warning,
			says: []string{"cooperative-sticky is listed twice (GroupStrategies[0] and GroupStrategies[1], the same strategy)", "only the first entry is used", "remove GroupStrategies[1]"},
		},
		{
			name: "two of ours under one name",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{saramaassignor.CooperativeSticky(), saramaassignor.CooperativeSticky(), saramaassignor.CooperativeSticky()}
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Warning,
			says: []string{"listed 3 times (GroupStrategies[0], GroupStrategies[1] and GroupStrategies[2], each saramaassignor's)", "remove GroupStrategies[1] and GroupStrategies[2]"},
		},
		{
			name: "two values of a type that is not comparable, under one name: compared without a panic",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{valueStrategy{name: "x", extra: []string{"a"}}, valueStrategy{name: "x", extra: []string{"a"}}}
			},
			field: "Consumer.Group.Rebalance.GroupStrategies", severity: saramaassignor.Warning,
			says: []string{"each saramaassignor_test.valueStrategy"},
		},
		{
			name: "the deprecated Strategy hides GroupStrategies",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Rebalance.Strategy = valueStrategy{name: "legacy", extra: []string{"x"}}
				c.Consumer.Group.Rebalance.GroupStrategies = append(c.Consumer.Group.Rebalance.GroupStrategies, valueStrategy{name: "legacy"})
			},
			field: "Consumer.Group.Rebalance.Strategy", severity: saramaassignor.Error,
			says: []string{"ignores GroupStrategies (cooperative-sticky)", "leave Strategy nil"},
		},
		{
			name: "InnerUserData below V3_2_0_0 (subscription v1): Java misreads the generation",
			change: func(t *testing.T, c *sarama.Config) {
				c.Version = sarama.V2_8_0_0
				c.Consumer.Group.Rebalance.GroupStrategies = []sarama.BalanceStrategy{strategy(t, cooperative.Config{InnerUserData: true})}
			},
			field: "Version", severity: saramaassignor.Error,
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
			field: "Version", severity: saramaassignor.Error,
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
			field: "Consumer.Group.Rebalance.Retry.Backoff", severity: saramaassignor.Warning,
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
			field: "Consumer.Group.Heartbeat.Interval", severity: saramaassignor.Warning,
			says: []string{"4s is above a third of Consumer.Group.Session.Timeout (10s)", "at most 3.333333333s"},
		},
		{
			name: "MaxWaitTime above the heartbeat (docs/sarama.md's 300ms heartbeat, 3s session, 500ms default)",
			change: func(_ *testing.T, c *sarama.Config) {
				c.Consumer.Group.Heartbeat.Interval = 300 * time.Millisecond
				c.Consumer.Group.Session.Timeout = 3 * time.Second
			},
			field: "Consumer.MaxWaitTime", severity: saramaassignor.Warning,
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
			err := saramaassignor.CheckConfigWith(c, tt.opts)
			if tt.opts == (saramaassignor.CheckOptions{}) {
				if plain := saramaassignor.CheckConfig(c); (plain == nil) != (err == nil) || (err != nil && plain.Error() != err.Error()) {
					t.Errorf("CheckConfig = %v, but CheckConfigWith with no options = %v", plain, err)
				}
			}
			if tt.field == "" {
				if err != nil {
					t.Fatalf("CheckConfigWith(%+v): %v", tt.opts, err)
				}
				return
			}
			var ce *saramaassignor.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("CheckConfigWith = %v, want a *ConfigError", err)
			}
			if len(ce.Findings) != 1 {
				t.Fatalf("%d findings, want 1:\n%v", len(ce.Findings), err)
			}
			f := ce.Findings[0]
			if f.Field != tt.field || f.Severity != tt.severity {
				t.Errorf("finding on %q, %v; want %q, %v", f.Field, f.Severity, tt.field, tt.severity)
			}
			if f.Problem == "" || f.Fix == "" {
				t.Errorf("Problem %q, Fix %q: want both", f.Problem, f.Fix)
			}
			text := err.Error()
			if want := "saramaassignor: " + tt.field + " (" + tt.severity.String() + "): " + f.Problem + "; " + f.Fix; text != want {
				t.Errorf("the text is\n%s\nwant the field, severity, problem and fix:\n%s", text, want)
			}
			for _, s := range tt.says {
				if !strings.Contains(text, s) {
					t.Errorf("the finding does not say %q:\n%s", s, text)
				}
			}
		})
	}
}

// TestCheckConfigFindings: several findings come in one *ConfigError, in
// the order the checks run, one line each in its text; a nil config is an
// error, not a panic.
func TestCheckConfigFindings(t *testing.T) {
	t.Parallel()
	c := sarama.NewConfig()
	c.Consumer.Group.Rebalance.GroupStrategies = append(c.Consumer.Group.Rebalance.GroupStrategies, saramaassignor.CooperativeSticky(), sarama.NewBalanceStrategyCooperativeSticky())
	c.Consumer.Group.Heartbeat.Interval = 300 * time.Millisecond
	c.Consumer.Group.Session.Timeout = 3 * time.Second
	err := saramaassignor.CheckConfig(c)
	var ce *saramaassignor.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("CheckConfig = %v, want a *ConfigError", err)
	}
	var got []string
	for _, f := range ce.Findings {
		got = append(got, f.Field+" "+f.Severity.String())
	}
	want := []string{
		"Consumer.Group.Rebalance.GroupStrategies error", // two strategies named cooperative-sticky
		"Consumer.Group.Rebalance.GroupStrategies error", // range first
		"Consumer.MaxWaitTime warning",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if fix := ce.Findings[1].Fix; !strings.HasSuffix(fix, "GroupStrategies = []sarama.BalanceStrategy{cooperative-sticky}") {
		t.Errorf("the fix for range first lists a name twice or not at all: %s", fix)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(ce.Findings) {
		t.Fatalf("%d lines for %d findings:\n%v", len(lines), len(ce.Findings), err)
	}
	for i, f := range ce.Findings {
		if lines[i] != "saramaassignor: "+f.String() {
			t.Errorf("line %d is %q, want the finding's String", i, lines[i])
		}
	}
	if err := saramaassignor.CheckConfig(nil); err == nil || errors.As(err, &ce) {
		t.Errorf("CheckConfig(nil) = %v, want an error that is not a *ConfigError", err)
	}
}

// TestSeverityString: the severities print as words, an unknown one as its
// number.
func TestSeverityString(t *testing.T) {
	t.Parallel()
	for s, want := range map[saramaassignor.Severity]string{saramaassignor.Warning: "warning", saramaassignor.Error: "error", 0: "Severity(0)"} {
		if got := s.String(); got != want {
			t.Errorf("Severity(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}
