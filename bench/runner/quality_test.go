package runner

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kgroup/assignor/bench/internal/contender"
	"github.com/kgroup/assignor/bench/internal/measure"
	"github.com/kgroup/assignor/workload"
)

// TestBalanceVerdict: a plan's balance is judged against the group's
// optimum, computed, whichever contenders ran.
func TestBalanceVerdict(t *testing.T) {
	shape := workload.Shapes()[0] // 10x100/50: a join makes 51 members for 1,000 partitions
	opt := optimum(shape, workload.Join, workload.DefaultSeed)
	if want := (measure.Balance{SumSq: 31*20*20 + 20*19*19, Spread: 1}); opt == nil || *opt != want {
		t.Fatalf("optimum of %s join = %+v, want %+v (31 members of 20, 20 of 19)", shape, opt, want)
	}
	cl := &cell{Shape: shape, Scenario: workload.Join, Opt: opt}
	tests := []struct {
		name string
		q    measure.Quality
		want string
	}{
		{"ceil and floor is optimal", measure.Quality{Valid: true, Spread: 1, SumSq: opt.SumSq}, "1 optimal"},
		{"range's spread 10 on join is not optimal, even alone", measure.Quality{Valid: true, Spread: 10, SumSq: opt.SumSq + 600}, "10 NOT optimal (optimum 1)"},
		{"spread 1 with a member left empty is not optimal", measure.Quality{Valid: true, Spread: 1, SumSq: opt.SumSq + 40, Empty: 1}, "1 NOT optimal (optimum 1), 1 empty"},
		{"a cooperative first round that withholds", measure.Quality{Valid: true, Spread: 20, SumSq: opt.SumSq - 400, Withheld: 19, Empty: 1}, "20 (withholding), 1 empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := balance(cl, &row{Q: &tt.q}); got != tt.want {
				t.Errorf("balance = %q, want %q", got, tt.want)
			}
		})
	}
	mixed := optimum(shape, workload.Mixed, workload.DefaultSeed)
	if mixed == nil || mixed.Spread != 0 {
		t.Errorf("optimum of %s mixed = %+v, want spread 0 (half the members on half the topics can still take 20 each)", shape, mixed)
	}
}

// A range assignor run alone is judged against the optimum: on 6 topics of
// 10 partitions with 8 members after the join it gives the first two
// members of every topic its extra partitions (12 against 6), so its plan
// is NOT optimal although no contender did better.
func TestRangeAloneIsNotOptimal(t *testing.T) {
	rng, _ := contender.Lookup("sarama-range")
	cfg := config{shapes: tiny[1:], scenarios: []workload.Scenario{workload.Join}, contenders: []contender.Contender{rng}, reps: 1, cap: 10 * time.Second, seed: 1}
	res := run(cfg, inProcess, &bytes.Buffer{})
	var out bytes.Buffer
	writeTable(&out, res, false)
	if !strings.Contains(out.String(), "NOT optimal (optimum 1)") || strings.Contains(out.String(), "best seen") {
		t.Errorf("range alone on %s join:\n%s", tiny[1], out.String())
	}
}
