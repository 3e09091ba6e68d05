// Package runner is the side-by-side comparison of `go run ./bench` as a
// library, so that a program of a few lines compares an assignor of yours
// with ours and the peers' (franz-go's and sarama's), on the same inputs,
// with the same table, results.md and plots:
//
//	package main
//
//	import (
//		"log"
//
//		"github.com/kgroup/assignor/bench/runner"
//		"example.com/mypkg"
//	)
//
//	func main() {
//		err := runner.Register(runner.Contender("mine", "my assignor", mypkg.New))
//		if err != nil {
//			log.Fatal(err)
//		}
//		runner.Main()
//	}
//
// then `go run . -contenders mine,mine-core,ours-coop,franz-coop -out results`.
// mypkg.New may return any concrete assignor type (*mypkg.Assignor), as
// for the kit's assignortest.Run and Benchmark.
// Every flag of `go run ./bench` works (-list, -quick, -shapes,
// -scenarios, -full, -wide, -growth, …).
//
// # What your rows measure
//
// [Register] adds two contenders: KEY does a group leader's unit of work
// bytes to bytes through our codec (every member's encoded JoinGroup
// metadata decoded, Assign, every assignment encoded), as our franz-go
// adapter's leader does; KEY-core is Assign alone on a group decoded
// beforehand. Compare KEY with the peers' leader rows and with the floor,
// KEY-core with ours-coop-core. Quality (balance, moves, withheld, the
// follow-up round of a cooperative plan) is judged as for every contender;
// an invalid plan shows as INVALID.
//
// # Processes
//
// The bench runs every job in a fresh child process: the program
// re-executed with the job on stdin. So Register must run in every process
// before [Main] (in main or an init function), and Main must be what main
// calls. [Run] is Main without the exit, for tests and examples.
//
// For Assign alone under `go test -bench`, see assignortest.Benchmark in
// the core module.
package runner
