package cli_test

import (
	"context"
	"fmt"
	"os"

	"github.com/kgroup/assignor/cmd/assignor/cli"
	"github.com/kgroup/assignor/roundrobin"
	"github.com/kgroup/assignor/sticky"
)

// Register an assignor of your own, then run the command: here, whatif's
// list of the assignors it can plan with. A program would call cli.Main()
// instead of Run, and `whatif -assignor strict-sticky` would plan with it.
func ExampleRegister() {
	strict := func() *sticky.Assignor {
		a, _ := sticky.NewWithConfig(sticky.Config{IgnoreUserData: true}) // every sticky Config is valid
		return a
	}
	if err := cli.Register(cli.Assignor("strict-sticky", "sticky that ignores eager user data", strict)); err != nil {
		fmt.Println(err)
		return
	}
	// The same key twice is refused.
	fmt.Println(cli.Register(cli.Assignor("strict-sticky", "", roundrobin.New)))
	code := cli.Run(context.Background(), []string{"whatif", "-list"}, os.Stdout, os.Stderr)
	fmt.Println("exit status", code)
	// Output:
	// cli: key "strict-sticky" is taken (see whatif -list)
	// assignor              what it is
	// sticky                eager sticky: count-balanced, fewest moves (package sticky)
	// cooperative-sticky    cooperative.Wrap(sticky.New()): sticky, incremental (KIP-429)
	// round-robin           Java-compatible round-robin (package roundrobin)
	// weighted              eager load-aware: balances measured records/s within a count bound (package weighted)
	// cooperative-weighted  cooperative.Wrap(weighted.New()): load-aware, incremental (KIP-429)
	// strict-sticky         sticky that ignores eager user data
	// exit status 0
}
