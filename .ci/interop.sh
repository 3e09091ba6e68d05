#!/usr/bin/env bash
# interop.sh: the real-Kafka interop suite (bench/interop/e2e), as CI runs it.
#
# Installs what it needs (Java 17+ and Maven from Debian if absent; Apache Kafka 4.4.0 and the
# Java client from Maven Central into ~/.m2, once per machine), builds the Java consumer, runs the
# suite against a single-node KRaft broker with a hard timeout, and ends with one summary line:
#   interop: N passed, N failed
# Environment: INTEROP_TIMEOUT (seconds for the Go suite, default 240), INTEROP_STRATEGY
# ("ours", the default, or "sarama" for sarama's built-in cooperative-sticky).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
	echo "interop: installing Java and Maven"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless maven >/dev/null
fi
java_major=$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')
if [ "${java_major%%.*}" -lt 17 ]; then
	echo "interop: Java $java_major found; Apache Kafka 4.x needs Java 17 or newer"
	exit 1
fi

start=$SECONDS
bench/interop/kafka.sh fetch
bench/interop/kafka.sh build
echo "interop: Kafka jars and Java consumer ready in $((SECONDS - start))s"

log=$(mktemp)
report=$(mktemp)
trap 'rm -f "$log" "$report"' EXIT
rc=0
ASSIGNOR_INTEROP=1 INTEROP_REPORT="$report" timeout --kill-after=10 "${INTEROP_TIMEOUT:-240}" \
	go test -count=1 -v -timeout "$((${INTEROP_TIMEOUT:-240} - 5))s" ./bench/interop/e2e/ 2>&1 | tee "$log" || rc=$?

echo "== interop summary"
cat "$report" 2>/dev/null || true
passed=$(grep -c -- '^--- PASS' "$log" || true)
failed=$(grep -c -- '^--- FAIL' "$log" || true)
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1 # a timeout or a broker that did not start fails without a --- FAIL line
	[ "$rc" -eq 124 ] && echo "interop: the suite exceeded ${INTEROP_TIMEOUT:-240}s"
fi
echo "interop: $passed passed, $failed failed"
exit "$rc"
