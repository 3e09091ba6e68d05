package e2e

import (
	"fmt"
	"os"

	"github.com/IBM/sarama"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/adapters/saramaassignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/sticky"
)

// strategyUnderTest names what the sarama members run; INTEROP_STRATEGY chooses it:
//
//   - "ours" (the default): adapters/saramaassignor over cooperative.Wrap of the inner assignor below,
//     under the protocol name "cooperative-sticky" that Java members use;
//   - "sarama": sarama's own NewBalanceStrategyCooperativeSticky, for comparison.
var strategyUnderTest = func() string {
	if os.Getenv("INTEROP_STRATEGY") == "sarama" {
		return "sarama built-in cooperative-sticky"
	}
	return "ours: adapters/saramaassignor + " + oursDescription
}()

// strategyKind is the ledger kind of the "g" members: ours unless INTEROP_STRATEGY=sarama.
func strategyKind() string {
	if os.Getenv("INTEROP_STRATEGY") == "sarama" {
		return kindSarama
	}
	return kindOurs
}

// newStrategy returns a fresh strategy for one sarama member (the adapter keeps one member's
// history per instance, as sarama's own cooperative-sticky does).
func newStrategy() (sarama.BalanceStrategy, error) {
	if os.Getenv("INTEROP_STRATEGY") == "sarama" {
		return sarama.NewBalanceStrategyCooperativeSticky(), nil
	}
	s, err := saramaassignor.New(cooperative.Wrap(oursInner()), saramaassignor.Config{})
	if err != nil {
		return nil, err
	}
	if s.Name() != sarama.CooperativeStickyBalanceStrategyName {
		return nil, fmt.Errorf("our strategy is named %q, want %q", s.Name(), sarama.CooperativeStickyBalanceStrategyName)
	}
	return s, nil
}

// oursDescription and oursInner: the one-line cooperative-sticky of docs/sarama.md.
const oursDescription = "cooperative.Wrap(sticky.New())"

func oursInner() assignor.Assignor { return sticky.New() }
