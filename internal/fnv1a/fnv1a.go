// Package fnv1a is the 64-bit FNV-1a hash for the few places that need a
// cheap, deterministic hash of a name or a short list of numbers without an
// allocation: a simulated member's heartbeat phase, a benchmark workload's
// seed, the interning of subscriber sets and member classes
// (internal/balance.Interner, for sticky and weighted) and of sticky's rack
// sets.
//
// [String] is the standard FNV-1a of the string's bytes (the same value as
// hash/fnv's New64a). [Int32s] and [Uint64s] take one xor-and-multiply step
// per element instead of one per byte: faster, well spread for the sets
// they key, and not the standard hash of the elements' bytes.
package fnv1a

const (
	// Offset is the 64-bit FNV offset basis, the hash of nothing.
	Offset uint64 = 14695981039346656037
	// Prime is the 64-bit FNV prime.
	Prime uint64 = 1099511628211
)

// String returns the FNV-1a hash of s's bytes.
func String(s string) uint64 {
	h := Offset
	for i := range len(s) {
		h = (h ^ uint64(s[i])) * Prime
	}
	return h
}

// Int32s returns the word-wise FNV-1a hash of xs: one step per element,
// each element taken as its 32-bit two's complement pattern.
func Int32s(xs []int32) uint64 {
	h := Offset
	for _, x := range xs {
		h = (h ^ uint64(uint32(x))) * Prime
	}
	return h
}

// Uint64s returns the word-wise FNV-1a hash of xs: one step per element.
func Uint64s(xs []uint64) uint64 {
	h := Offset
	for _, x := range xs {
		h = (h ^ x) * Prime
	}
	return h
}
