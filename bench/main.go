package main

import "github.com/kgroup/assignor/bench/runner"

func main() { runner.Main() }
