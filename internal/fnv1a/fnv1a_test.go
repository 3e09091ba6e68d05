package fnv1a

import (
	"hash/fnv"
	"testing"
)

// TestString pins String to the standard library's FNV-1a, so that the
// values the simulator and the benchmark derive from names never change.
func TestString(t *testing.T) {
	for _, s := range []string{"", "a", "m-1", "fresh10x100/50 (1k)", "\x00\xff"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := String(s), h.Sum64(); got != want {
			t.Errorf("String(%q) = %#x, want %#x", s, got, want)
		}
	}
}

// TestWords pins the word-wise hashes: one step per element, so they differ
// from the byte-wise hash of the same bytes, and negative int32s hash as
// their 32-bit pattern (not sign-extended).
func TestWords(t *testing.T) {
	step := func(h, x uint64) uint64 { return (h ^ x) * Prime }
	tests := []struct {
		name string
		got  uint64
		want uint64
	}{
		{"empty int32s is the offset basis", Int32s(nil), Offset},
		{"empty uint64s is the offset basis", Uint64s(nil), Offset},
		{"one int32 is one step", Int32s([]int32{7}), step(Offset, 7)},
		{"two int32s are two steps", Int32s([]int32{1, 2}), step(step(Offset, 1), 2)},
		{"a negative int32 is its 32-bit pattern", Int32s([]int32{-1}), step(Offset, 0xffffffff)},
		{"int32s and uint64s agree on small values", Int32s([]int32{3, 9}), Uint64s([]uint64{3, 9})},
		{"one uint64 is one step", Uint64s([]uint64{1 << 40}), step(Offset, 1<<40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %#x, want %#x", tt.got, tt.want)
			}
		})
	}
	if Int32s([]int32{1, 2}) == Int32s([]int32{2, 1}) {
		t.Error("order does not change the hash")
	}
}
