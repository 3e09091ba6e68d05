// Package weighted is the load-aware (weighted) assignor's solver: it
// balances partitions by weight, not by count, within a bound on each
// member's partition count (issue 16). Its API comes in a later step; this
// package holds the pure, internal solver.
package weighted
