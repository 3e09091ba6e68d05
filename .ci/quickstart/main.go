// The program .ci/quickstart.sh builds in a throwaway module outside the
// repository, against a checkout (go.work or replace directives) and
// against a module proxy, as the README's quick start tells a user to.
// main.go uses the core; part_sarama.go and part_franzgo.go, copied in when
// the README's block brings in their adapter, use the adapters. Each file
// prints what its want-*.txt holds.
package main

import (
	"fmt"
	"log"
	"slices"

	"github.com/kgroup/assignor"
	"github.com/kgroup/assignor/sticky"
)

// parts are the adapters' parts copied in, by name; they run in name order.
var parts = map[string]func(){}

func main() {
	// The core: the sticky assignor on a group of two members.
	plan, err := sticky.New().Assign(assignor.Group{
		Members: []assignor.Member{
			{ID: "m0", Topics: []string{"orders"}},
			{ID: "m1", Topics: []string{"orders"}},
		},
		Topics: []assignor.Topic{{Name: "orders", Partitions: assignor.Partitions(4)}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print("core sticky:\n", plan)

	names := make([]string, 0, len(parts))
	for name := range parts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		parts[name]()
	}
}
