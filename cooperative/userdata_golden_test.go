package cooperative_test

import (
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/cooperative"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
	"github.com/kgroup/assignor/weighted"
	"github.com/kgroup/assignor/wire"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata/")

// declining is sticky declaring it does not carry the generation: the
// wrapper must treat it as any inner assignor.
type declining struct{ *sticky.Assignor }

func (declining) CarriesGeneration() bool { return false }

// TestSubscriptionUserDataGolden pins, byte for byte, the subscription user
// data every wrapper sends (testdata/subscription-userdata.golden; rewrite
// with -rewrite and review the diff): cooperative-sticky's 4-byte
// generation must never change, with or without a carrier in the build;
// InnerUserData sends the inner layout; a GenerationCarrier (weighted)
// sends its own layout with the generation inside, whatever the Config.
func TestSubscriptionUserDataGolden(t *testing.T) {
	owned := []assignor.TopicPartitions{{Topic: "t1", Partitions: []int32{2, 0}}, {Topic: "t0", Partitions: []int32{5}}}
	wrappers := []struct {
		name string
		a    assignor.Assignor
	}{
		{"cooperative-sticky", cooperative.Wrap(sticky.New())},
		{"cooperative-roundrobin", cooperative.Wrap(roundrobin.New())},
		{"cooperative-sticky declining", cooperative.Wrap(declining{sticky.New()})},
		{"cooperative-sticky InnerUserData", cooperative.WrapWithConfig(sticky.New(), cooperative.Config{InnerUserData: true})},
		{"cooperative-roundrobin InnerUserData", cooperative.WrapWithConfig(roundrobin.New(), cooperative.Config{InnerUserData: true})},
		{"cooperative-weighted", cooperative.Wrap(weighted.New())},
		{"cooperative-weighted InnerUserData", cooperative.WrapWithConfig(weighted.New(), cooperative.Config{InnerUserData: true})},
	}
	var out strings.Builder
	for _, w := range wrappers {
		for _, gen := range []int32{assignor.NoGeneration, 0, 1, 7, 1<<31 - 1} {
			b, err := w.a.(assignor.SubscriptionUserDataAssignor).SubscriptionUserData(assignor.MemberState{
				Topics: []string{"t0", "t1"}, Owned: owned, Generation: gen,
			})
			if err != nil {
				t.Fatalf("%s generation %d: %v", w.name, gen, err)
			}
			fmt.Fprintf(&out, "%s generation=%d: %s\n", w.name, gen, hex.EncodeToString(b))
			if strings.HasPrefix(w.name, "cooperative-sticky") && !strings.Contains(w.name, "InnerUserData") &&
				string(b) != string(wire.CooperativeUserData(gen)) {
				t.Errorf("%s generation %d: %x, want the 4-byte cooperative-sticky user data", w.name, gen, b)
			}
			if got, err := wire.UserDataGeneration(b); len(b) > 0 && (got != gen || err != nil) {
				t.Errorf("%s generation %d: a leader reads generation %d (%v)", w.name, gen, got, err)
			}
		}
	}
	path := filepath.Join("testdata", "subscription-userdata.golden")
	if *rewrite {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if out.String() != string(want) {
		t.Fatalf("subscription user data changed:\n%s\nwant:\n%s", out.String(), want)
	}
}
