package weighted

// Two-step chains for the heaviest member. With subscriptions that differ,
// the heaviest member a may have no single move or swap that lowers it,
// yet a chain does: a passes x to b, which passes y to c. Example: A holds
// t1[0]:1000 and t1[1]:200 (topic t1: A and B), B holds t0[0]:1000 (topic
// t0: B and C), C holds nothing. A→B or B→C alone only trades places; A
// passes t1[1] to B while B passes t0[0] to C, and the heaviest load falls
// from 1200 to 1000.

// chainPartners is how many members c each b tries.
const chainPartners = 4

// lowerTopByChain applies the best two-step chain (a move from a to b, a
// swap if a is at its minimum count, then a move or a swap between b and
// c) that leaves a, b and c all below
// a's load, a being the heaviest member; it reports whether it found one.
// The best leaves the largest of the three loads the smallest.
func (sr *search) lowerTopByChain() bool {
	pl := sr.pl
	a := sr.top()
	if a < 0 || pl.load[a] <= sr.s.lowerBound {
		return false
	}
	atMin := pl.count[a] <= sr.s.minCount[a]
	la := pl.load[a]
	var best [2]op
	bestMax := la
	tried := 0
	for i := 0; i < len(sr.byLoad) && tried < topPartners && sr.budget > 0; i++ {
		b := sr.byLoad[i]
		if b == a || pl.load[b] >= la || !sr.shares(a, b) || !sr.lists(a, b) {
			continue
		}
		// At its minimum, a swaps: b gives back its lightest partition a may
		// take.
		back := int32(-1)
		if atMin {
			if len(sr.ys) == 0 {
				continue
			}
			back = sr.ys[len(sr.ys)-1]
		}
		tried++
		xs := append(sr.chainXs[:0], sr.xs...)
		sr.chainXs = xs
		found := 0
		for j := 0; j < len(sr.byLoad) && found < chainPartners && sr.budget > 0; j++ {
			c := sr.byLoad[j]
			if pl.load[c] >= la-1 {
				break
			}
			if c == a || c == b || !sr.shares(b, c) || !sr.lists(b, c) {
				continue
			}
			found++
			ys := append(sr.chainYs[:0], sr.xs...)
			sr.chainYs = ys
			if pair, top, ok := sr.bestChain(a, b, c, back, xs, ys); ok && top < bestMax {
				best, bestMax = pair, top
			}
		}
	}
	if bestMax == la {
		return false
	}
	sr.apply(best[0])
	sr.apply(best[1])
	return true
}

// bestChain returns the best chain a→b (x from xs), b→c (y from ys, and,
// for a swap, z from c back to b): for each y, the move if c has room and
// the swap with the lightest z that keeps c below a's load; then x nearest
// halving what is left between a and b. The b→c step may leave b and c no
// better off (a lateral step): it only has to make room for x.
func (sr *search) bestChain(a, b, c, back int32, xs, ys []int32) ([2]op, int64, bool) {
	pl := sr.pl
	la, lb, lc := pl.load[a], pl.load[b], pl.load[c]
	var wBack int64
	if back >= 0 {
		wBack = pl.weight[back]
	}
	var zs []int32 // c's partitions b may take
	if sr.lists(c, b) {
		zs = append(sr.chainZs[:0], sr.xs...)
		sr.chainZs = zs
	}
	var best [2]op
	bestMax, found := la, false
	try := func(y, z int32) {
		wy := pl.weight[y]
		if z >= 0 {
			wy -= pl.weight[z]
		}
		if wy <= 0 || lc+wy >= la {
			return
		}
		i := sr.firstAtMost(xs, (la-lb+wy)/2+wBack)
		for h := max(0, i-1); h < min(len(xs), i+1); h++ {
			x := xs[h]
			wx := pl.weight[x] - wBack
			if wx <= 0 {
				continue
			}
			top := max(la-wx, lb+wx-wy, lc+wy)
			first, second := op{a, b, x, back, wx}, op{b, c, y, z, wy}
			if top < bestMax && sr.safe(first) && sr.safe(second) {
				best, bestMax, found = [2]op{first, second}, top, true
			}
		}
	}
	for _, y := range ys {
		wy := pl.weight[y]
		if wy == 0 || sr.budget <= 0 {
			break
		}
		if y == back {
			continue
		}
		sr.budget--
		// Counts: a move from a (back < 0) takes one from a and gives one
		// to b; a move on to c passes one from b to c.
		s := sr.s
		if pl.count[c] < s.maxCount[c] && (back < 0 || pl.count[b] > s.minCount[b]) {
			try(y, -1)
		}
		// The lightest z with lc + wy − w(z) < la.
		if k := sr.firstAtMost(zs, lc+wy-la); k > 0 && (back >= 0 || pl.count[b] < s.maxCount[b]) {
			try(y, zs[k-1])
		}
	}
	return best, bestMax, found
}
