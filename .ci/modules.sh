#!/usr/bin/env bash
# modules.sh PATTERN...: checks the module layout (docs/development.md).
#   1. The patterns (the README's test command) cover every module of go.work.
#   2. Each module builds, vets and is tidy alone (GOWORK=off): the workspace
#      hides a missing require, and go mod tidy ignores it.
#   3. A user's module graph: a throwaway module outside the tree that
#      imports every core package lists the core and at most its test helper
#      (pgregory.net/rapid); one that imports each adapter lists the core, the
#      adapter and the client with the client's own requirements, nothing
#      else (no kfake, plot, progressbar, goleak); one that imports the
#      command's library (cmd/assignor/cli) lists this repository's modules
#      and the graphs of the libraries it names (sarama, franz-go's kgo, kadm
#      and kfake, gonum/plot), nothing else (no progressbar, goleak).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
patterns=" $* "

fail() { echo "modules: $*" >&2; exit 1; }

# 1. Coverage.
mapfile -t modules < <(go list -m -f '{{.Dir}}')
for dir in "${modules[@]}"; do
	rel=$(realpath --relative-to="$root" "$dir")
	want="./$rel/..."
	[ "$rel" = . ] && want="./..."
	case "$patterns" in
	*" $want "*) ;;
	*) fail "the README's test command does not cover module $rel (add $want)" ;;
	esac
done
echo "modules: the test command covers ${#modules[@]} modules"

# 2. Each module alone.

for dir in "${modules[@]}"; do
	rel=$(realpath --relative-to="$root" "$dir")
	(
		cd "$dir"
		GOWORK=off go build -o /dev/null ./... || fail "$rel does not build alone"
		GOWORK=off go vet ./... || fail "$rel does not vet alone"
		GOWORK=off go mod tidy -diff || fail "$rel: go.mod or go.sum is not tidy (run GOWORK=off go mod tidy in $rel)"
	)
	echo "modules: $rel builds, vets and is tidy alone"
done

# 3. Users' module graphs.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# graph DIR MODULE_REQUIRE... : writes a user module in DIR whose main.go
# imports the packages given in $imports, tidies it and prints its
# `go list -m all`, one module path a line.
graph() {
	local dir=$1
	shift
	mkdir -p "$dir"
	{
		echo "module example.com/user"
		echo
		echo "go 1.26"
		for r in "$@"; do echo "replace $r"; done
	} >"$dir/go.mod"
	{
		echo "package main"
		echo
		echo "import ("
		for p in $imports; do echo "	_ \"$p\""; done
		echo ")"
		echo
		echo "func main() {}"
	} >"$dir/main.go"
	(cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 && GOWORK=off go list -m -f '{{.Path}}' all) ||
		fail "a user module importing $imports does not resolve"
}

core_packages=$(GOWORK=off go list ./... | grep -v '/internal/')
imports=$core_packages
core_graph=$(graph "$tmp/core" "github.com/kgroup/assignor => $root")
extra=$(echo "$core_graph" | grep -vxE 'example.com/user|github.com/kgroup/assignor|pgregory.net/rapid' || true)
[ -z "$extra" ] || fail "a core-only user module lists more than the core and its test helper: $extra"
echo "modules: a core-only user's graph is $(echo "$core_graph" | wc -l) modules: $(echo "$core_graph" | tr '\n' ' ')"

# adapter_graph NAME CLIENT_PACKAGE: the adapter's user graph against the
# client's own graph.
adapter_graph() {
	local name=$1 client=$2
	imports="github.com/kgroup/assignor/adapters/$name"
	local user
	user=$(graph "$tmp/$name" "github.com/kgroup/assignor => $root" "github.com/kgroup/assignor/adapters/$name => $root/adapters/$name")
	imports=$client
	local alone
	alone=$(graph "$tmp/$name-client")
	local extra
	extra=$(comm -23 <(echo "$user" | sort) <(echo "$alone" | sort) |
		grep -vxE "github.com/kgroup/assignor|github.com/kgroup/assignor/adapters/$name|pgregory.net/rapid" || true)
	[ -z "$extra" ] || fail "a user of adapters/$name gets modules beyond the core, the adapter and $client's own graph: $extra"
	echo "modules: a user of adapters/$name gets $(echo "$user" | wc -l) modules ($client alone: $(echo "$alone" | wc -l))"
}

# command_graph: the graph of a user who builds the assignor command with
# assignors of their own (imports cmd/assignor/cli) against the graph of
# the clients and libraries the command names: sarama, franz-go (kgo,
# kadm, kfake for -demo) and gonum/plot. Beyond those, only this
# repository's modules.
command_graph() {
	imports="github.com/kgroup/assignor/cmd/assignor/cli"
	local user
	user=$(graph "$tmp/command" "github.com/kgroup/assignor => $root" \
		"github.com/kgroup/assignor/adapters/saramaassignor => $root/adapters/saramaassignor" \
		"github.com/kgroup/assignor/cmd/assignor => $root/cmd/assignor")
	imports="github.com/IBM/sarama github.com/twmb/franz-go/pkg/kgo github.com/twmb/franz-go/pkg/kadm github.com/twmb/franz-go/pkg/kfake gonum.org/v1/plot"
	local alone
	alone=$(graph "$tmp/command-libraries")
	local extra
	extra=$(comm -23 <(echo "$user" | sort) <(echo "$alone" | sort) |
		grep -vxE "github.com/kgroup/assignor|github.com/kgroup/assignor/adapters/saramaassignor|github.com/kgroup/assignor/cmd/assignor|pgregory.net/rapid" || true)
	[ -z "$extra" ] || fail "a user of cmd/assignor/cli gets modules beyond this repository's and its libraries' own graphs: $extra"
	echo "modules: a user of cmd/assignor/cli gets $(echo "$user" | wc -l) modules (its libraries alone: $(echo "$alone" | wc -l))"
}

# Every published module but the core (checked above) has a graph check.
for dir in "${modules[@]}"; do
	rel=$(realpath --relative-to="$root" "$dir")
	case "$rel" in
	adapters/saramaassignor) adapter_graph saramaassignor github.com/IBM/sarama ;;
	adapters/kgoassignor) adapter_graph kgoassignor github.com/twmb/franz-go/pkg/kgo ;;
	adapters/*) fail "no graph check for $rel: add its client to .ci/modules.sh" ;;
	cmd/assignor) command_graph ;;
	cmd/*) fail "no graph check for $rel: add it to .ci/modules.sh" ;;
	esac
done
