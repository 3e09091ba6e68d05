#!/usr/bin/env bash
# kafka.sh: Kafka's own assignors as bench contenders (bench/kafka, bench/internal/kafka), as CI
# runs them: a smoke test, small on purpose.
#
# Installs what it needs (Java 17+ and Maven from Debian if absent; Kafka 4.4.0's
# kafka-group-coordinator and kafka-clients from Maven Central into ~/.m2, once per machine), then
#   1. builds the Java harness and runs each Kafka assignor (uniform, uniform with HashMaps, range,
#      the Java client's CooperativeStickyAssignor) on tiny and 1k groups of the bench's scenarios,
#      checking every plan in Go: valid, balanced where subscriptions are identical, fewest moves
#      (bench/internal/kafka's tests, ASSIGNOR_KAFKA=1);
#   2. runs the same contenders through the bench itself, one repetition of the 1k join, in the
#      bench's child processes, and fails on an invalid plan, an error or a contender not run.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
	echo "kafka: installing Java and Maven"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless maven >/dev/null
fi

start=$SECONDS
ASSIGNOR_KAFKA=1 go test -count=1 -timeout 150s -run '^(TestPlans|TestDeterministic|TestCapAndHeap|TestBudgets)$' ./bench/internal/kafka/
echo "kafka: harness built and plans checked in $((SECONDS - start))s"

contenders=kafka-uniform,kafka-uniform-hashmaps,kafka-range,java-coop-sticky
out=$(go run ./bench -quick -scenarios join -scripts=false -contenders "$contenders" 2>&1) || {
	echo "$out"
	exit 1
}
echo "$out" | grep -E '^(1k|\s+(kafka|java))' || true
if grep -qE 'INVALID \(|ERROR|not running' <<<"$out"; then
	echo "$out"
	echo "kafka: the bench run reports a problem"
	exit 1
fi
for c in ${contenders//,/ }; do
	grep -qE "(^|\s)$c\s+[0-9.]+(µs|ms|s)\s" <<<"$out" || {
		echo "$out"
		echo "kafka: no time for $c"
		exit 1
	}
done
echo "kafka: bench run of $contenders ok; $((SECONDS - start))s in all"
