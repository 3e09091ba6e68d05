// Package rapidseed fixes the seed of pgregory.net/rapid's property tests so
// that every run of a test binary checks the same cases (the house style:
// never seed from the clock). A package's tests use it as their TestMain:
//
//	func TestMain(m *testing.M) { rapidseed.Main(m) }
//
// Pass -rapid.seed=N on the command line to explore another seed.
package rapidseed

import (
	"flag"
	"os"
	"testing"
)

// Seed is the seed used when -rapid.seed is not given.
const Seed = "429"

// Main sets -rapid.seed to [Seed] unless the command line set it, then runs
// the tests and exits with their status.
func Main(m *testing.M) {
	flag.Parse()
	seeded := false
	flag.Visit(func(f *flag.Flag) { seeded = seeded || f.Name == "rapid.seed" })
	if !seeded {
		if f := flag.Lookup("rapid.seed"); f != nil {
			if err := f.Value.Set(Seed); err != nil {
				panic(err)
			}
		}
	}
	os.Exit(m.Run())
}
