// Package sticky is the reference sticky assignor (KIP-54): optimal
// balance, then rack locality, then the fewest moves, then a deterministic
// spread.
package sticky
