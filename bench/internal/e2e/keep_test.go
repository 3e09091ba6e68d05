package e2e

import (
	"slices"
	"testing"
)

// TestKeep pins how ASSIGNOR_E2E_SCRIPTS filters scripts and kinds with one
// list: a group none of whose names is listed is kept whole.
func TestKeep(t *testing.T) {
	id := func(s string) string { return s }
	for _, tc := range []struct {
		xs, only, want []string
	}{
		{[]string{"a", "b", "c"}, nil, []string{"a", "b", "c"}},
		{[]string{"a", "b", "c"}, []string{"b"}, []string{"b"}},
		{[]string{"a", "b", "c"}, []string{"c", "a", "x"}, []string{"a", "c"}},
		{[]string{"a", "b", "c"}, []string{"x"}, []string{"a", "b", "c"}},
	} {
		if got := keep(tc.xs, tc.only, id); !slices.Equal(got, tc.want) {
			t.Errorf("keep(%v, %v) = %v, want %v", tc.xs, tc.only, got, tc.want)
		}
	}
	names := func(ks []Kind) (out []string) {
		for _, k := range ks {
			out = append(out, k.Name)
		}
		return out
	}
	ks := []Kind{OursKgo, OursKgoNoFastRejoin, KgoCooperativeSticky, KgoSticky}
	if got := names(keep(ks, []string{"scale-out-in", "ours-kgo", "kgo-sticky"}, func(k Kind) string { return k.Name })); !slices.Equal(got, []string{"ours-kgo", "kgo-sticky"}) {
		t.Errorf("kinds kept %v", got)
	}
}
