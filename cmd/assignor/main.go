// Command assignor looks at a live Kafka consumer group from outside: its
// assignment, lag and load (describe), what another assignor would do to
// it (whatif), and a timeline of its rebalances (watch). It is read-only.
// Package cli is the same command as a library, for a build with
// assignors of your own.
package main

import "github.com/kgroup/assignor/cmd/assignor/cli"

func main() { cli.Main() }
