package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// compare runs the script runs times with each protocol, cooperative and
// eager alternately (so that both meet the same machine load), each run
// bounded by timeout, and prints each run's row of the table, then each
// protocol's medians with the smallest and largest value seen.
func compare(o options, runs int, timeout time.Duration) error {
	fmt.Printf("%d runs of each protocol, alternately: %s\n\n%s\n", runs, o.describe(), tableHeader())
	byProtocol := map[bool][]summary{}
	for i := range runs {
		for _, eager := range []bool{false, true} {
			o := o
			o.eager, o.log = eager, io.Discard
			o.group = fmt.Sprintf("%s-%s-%d", o.group, o.protocol(), i+1) // a fresh group on a shared cluster
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			s, err := run(ctx, o)
			cancel()
			if err != nil {
				return fmt.Errorf("run %d, %s: %w", i+1, o.protocol(), err)
			}
			fmt.Println(s.row())
			byProtocol[eager] = append(byProtocol[eager], s)
		}
	}
	fmt.Printf("\nmedians of %d runs (smallest–largest):\n\n%s\n", runs, tableHeader())
	for _, eager := range []bool{false, true} {
		fmt.Println(medianRow(byProtocol[eager]))
	}
	return nil
}

// medianRow is the row of the table for several runs of one protocol:
// each figure's median, then the smallest and largest values in brackets.
func medianRow(runs []summary) string {
	cells := []string{runs[0].protocol, runs[0].warmup.String()}
	for _, c := range columns {
		values := make([]float64, len(runs))
		for i, s := range runs {
			values[i] = c.value(s)
		}
		slices.Sort(values)
		cells = append(cells, fmt.Sprintf("%s%s (%s–%s)",
			c.format(median(values)), c.unit, c.format(values[0]), c.format(values[len(values)-1])))
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

// median is the middle of sorted values, or the mean of the middle two.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
