package weighted

import "math/bits"

// wide is an unsigned 128-bit integer, for sums of squared loads: a load
// may be up to maxTotal (2^61), its square does not fit in 64 bits.
type wide struct{ hi, lo uint64 }

// square returns x² for 0 <= x.
func square(x int64) wide {
	hi, lo := bits.Mul64(uint64(x), uint64(x))
	return wide{hi, lo}
}

// add returns a + b, saturating at 2^128 − 1.
func (a wide) add(b wide) wide {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	hi, over := bits.Add64(a.hi, b.hi, carry)
	if over != 0 {
		return wide{^uint64(0), ^uint64(0)}
	}
	return wide{hi, lo}
}

// sub returns a − b for a >= b.
func (a wide) sub(b wide) wide {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return wide{hi, lo}
}

// times returns a·k for k >= 0, saturating at 2^128 − 1.
func (a wide) times(k int64) wide {
	carry, lo := bits.Mul64(a.lo, uint64(k))
	over, hi := bits.Mul64(a.hi, uint64(k))
	hi, c := bits.Add64(hi, carry, 0)
	if over != 0 || c != 0 {
		return wide{^uint64(0), ^uint64(0)}
	}
	return wide{hi, lo}
}

func (a wide) less(b wide) bool {
	return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo)
}

// ppm returns ⌊x·k/10^6⌋ for 0 <= x <= maxTotal and 0 <= k <= 10^6,
// without overflow.
func ppm(x, k int64) int64 {
	return x/1e6*k + x%1e6*k/1e6
}

// ppm returns ⌊a·k/10^6⌋ for 0 <= k <= 10^6, saturating as times does.
func (a wide) ppm(k int64) wide {
	q := a.quo(1e6)
	rest := a.sub(q.times(1e6)).lo // below 10^6
	return q.times(k).add(wide{0, rest * uint64(k) / 1e6})
}

// quo returns a/k, rounded down, for k > 0.
func (a wide) quo(k int64) wide {
	hi, r := a.hi/uint64(k), a.hi%uint64(k)
	lo, _ := bits.Div64(r, a.lo, uint64(k))
	return wide{hi, lo}
}
