package runner_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/kgroup/assignor/bench/runner"
	"github.com/kgroup/assignor/sticky"
)

// init registers the assignor in every process of the bench, the parent
// and the children it re-executes; a program's main would do it first
// thing, then call runner.Main():
//
//	func main() {
//		if err := runner.Register(runner.Contender("mine", "my assignor", mypkg.New)); err != nil {
//			log.Fatal(err)
//		}
//		runner.Main()
//	}
//
// and `go run . -contenders mine,ours-coop,franz-coop,sarama-coop -out results`
// prints the table and writes results/results.md and the plots. Here the
// assignor is sticky.New as it is: the constructor may return any concrete
// assignor type (*sticky.Assignor).
func init() {
	if err := runner.Register(runner.Contender("mine", "my assignor", sticky.New)); err != nil {
		panic(err)
	}
}

// Run, as Main does with the command line: here on the smallest shape, the
// fresh scenario, once, against franz-go's cooperative-sticky.
func Example() {
	var table bytes.Buffer
	code := runner.Run([]string{"-shapes", "1k", "-scenarios", "fresh", "-reps", "1", "-scripts=false",
		"-contenders", "mine,mine-core,franz-coop"}, &table, io.Discard)
	fmt.Println("exit status", code)
	// The table's rows for the two contenders Register added, by key: the
	// quality columns (spread, moves, withheld) after the timings.
	for _, line := range strings.Split(table.String(), "\n") {
		f := strings.Fields(line)
		for i, field := range f {
			if (field == "mine" || field == "mine-core") && len(f) >= i+5 {
				fmt.Println(field, strings.Join(f[len(f)-4:], " "))
			}
		}
	}
	// Output:
	// exit status 0
	// mine 0 optimal – –
	// mine-core 0 optimal – –
}
