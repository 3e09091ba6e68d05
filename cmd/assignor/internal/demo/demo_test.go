package demo

import (
	"maps"
	"math"
	"slices"
	"testing"
)

// TestZipfRates pins the demo's skew: the rates add up to Rate, the same
// seed gives the same hot partitions, and the hottest carries its Zipf
// share (1 / H(24, 1.1) of the total, about 31%).
func TestZipfRates(t *testing.T) {
	o := Options{}
	o.defaults()
	r := zipfRates(o)
	if len(r) != 24 {
		t.Fatalf("%d partitions", len(r))
	}
	var sum, h float64
	for _, v := range r {
		sum += v
	}
	for i := 1; i <= 24; i++ {
		h += 1 / math.Pow(float64(i), 1.1)
	}
	if math.Abs(sum-float64(o.Rate)) > 1e-9 {
		t.Errorf("rates add up to %v, want %d", sum, o.Rate)
	}
	top := slices.Max(slices.Collect(maps.Values(r)))
	if math.Abs(top-float64(o.Rate)/h) > 1e-9 {
		t.Errorf("hottest %v, want %v", top, float64(o.Rate)/h)
	}
	if !maps.Equal(r, zipfRates(o)) {
		t.Error("the same seed gave other rates")
	}
	o.Seed = 2
	if maps.Equal(r, zipfRates(o)) {
		t.Error("another seed gave the same rates")
	}
}
