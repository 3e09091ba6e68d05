#!/usr/bin/env bash
# kafka.sh: an Apache Kafka broker (single node, KRaft, 127.0.0.1) from Maven Central.
#
#   bench/interop/kafka.sh fetch               resolve the broker and its dependencies into the local
#                                        Maven repository (~/.m2) and write its classpath
#   bench/interop/kafka.sh build               build the Java consumer (bench/interop/javaconsumer)
#   bench/interop/kafka.sh run DIR PORT CTRL   format DIR and run the broker in the foreground (exec)
#   bench/interop/kafka.sh start DIR [PORT CTRL]
#                                        the same in the background; waits until it serves,
#                                        writes DIR/broker.pid, prints the bootstrap address
#   bench/interop/kafka.sh stop DIR            stop the broker started in DIR and remove DIR
#
# The Go suite (bench/interop/e2e) calls `run` itself and owns the process; `start`/`stop` are for
# people. Versions: KAFKA_VERSION in bench/interop/broker/pom.xml (4.4.0). The JVM heap is -Xmx512m
# unless KAFKA_HEAP_OPTS says otherwise. Everything is downloaded once: later runs resolve
# offline from ~/.m2.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
broker_pom="$here/broker"
consumer_pom="$here/javaconsumer"
broker_cp="$broker_pom/target/classpath.txt"
consumer_cp="$consumer_pom/target/classpath.txt"
consumer_jar="$consumer_pom/target/interop-consumer.jar"

die() { echo "kafka.sh: $*" >&2; exit 1; }

need() {
	command -v java >/dev/null || die "java not found (Kafka 4.x needs Java 17+)"
	command -v mvn >/dev/null || die "mvn not found"
}

# classpath_ok FILE: every jar the classpath file names still exists.
classpath_ok() {
	[[ -s "$1" ]] || return 1
	local jar
	for jar in $(tr ':' ' ' <"$1"); do [[ -f "$jar" ]] || return 1; done
}

# resolve POMDIR OUT: write the runtime classpath of POMDIR to OUT; offline first, so a machine
# downloads from Maven Central once.
resolve() {
	local dir="$1" out="$2"
	classpath_ok "$out" && [[ "$out" -nt "$dir/pom.xml" ]] && return 0
	local args=(-B -q -f "$dir/pom.xml" dependency:build-classpath
		"-Dmdep.outputFile=$out" -Dmdep.includeScope=runtime)
	mvn -o "${args[@]}" >/dev/null 2>&1 || mvn "${args[@]}" >&2 || die "maven could not resolve $dir/pom.xml"
	classpath_ok "$out" || die "maven wrote no usable classpath to $out"
}

fetch() { need; resolve "$broker_pom" "$broker_cp"; }

build() {
	need
	resolve "$consumer_pom" "$consumer_cp"
	if [[ -f "$consumer_jar" ]] && [[ -z "$(find "$consumer_pom/src" "$consumer_pom/pom.xml" -newer "$consumer_jar" -print -quit)" ]]; then
		return 0
	fi
	local args=(-B -q -f "$consumer_pom/pom.xml" package)
	mvn -o "${args[@]}" >/dev/null 2>&1 || mvn "${args[@]}" >&2 || die "maven could not build $consumer_pom"
	[[ -f "$consumer_jar" ]] || die "no $consumer_jar after the build"
}

# cluster_id: a random base64url UUID (22 characters), as `kafka-storage.sh random-uuid` prints,
# without starting a JVM.
cluster_id() {
	local id
	id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
	# Kafka reserves the all-zero UUID and the one that starts with 0 bits only; retry on them.
	[[ "$id" == AAAAAAAAAAAAAAAAAAAAA* ]] && id="$(cluster_id)"
	echo "$id"
}

# write_config DIR PORT CTRL: DIR/server.properties for a one-node broker+controller tuned for
# fast group tests. The KIP-848 consumer protocol keeps Kafka's defaults (heartbeat 5 s, session
# 45 s); its minimums are lowered so that a group may set short ones as group configs
# (consumer.heartbeat.interval.ms, consumer.session.timeout.ms).
write_config() {
	local dir="$1" port="$2" ctrl="$3"
	cat >"$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$ctrl
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$ctrl
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data
auto.create.topics.enable=false
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=500
group.max.session.timeout.ms=60000
group.consumer.min.heartbeat.interval.ms=100
group.consumer.min.session.timeout.ms=500
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=4194304
PROPS
}

java_opts() {
	# shellcheck disable=SC2206
	local heap=(${KAFKA_HEAP_OPTS:--Xmx512m -Xms128m})
	echo "${heap[*]} -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -Djava.awt.headless=true"
}

run() {
	[[ $# -eq 3 ]] || die "usage: kafka.sh run DIR PORT CONTROLLER_PORT"
	local dir="$1" port="$2" ctrl="$3"
	fetch
	mkdir -p "$dir/data"
	write_config "$dir" "$port" "$ctrl"
	local cp opts
	cp="$(cat "$broker_cp")"
	# shellcheck disable=SC2207
	opts=($(java_opts))
	local log=(-Dorg.slf4j.simpleLogger.logFile="$dir/broker.log" -Dorg.slf4j.simpleLogger.showDateTime=true
		-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS -Dorg.slf4j.simpleLogger.defaultLogLevel=info
		-Dorg.slf4j.simpleLogger.log.org.apache.kafka.common.utils.AppInfoParser=warn)
	java "${opts[@]}" "${log[@]}" -cp "$cp" kafka.tools.StorageTool format \
		-t "$(cluster_id)" -c "$dir/server.properties" --ignore-formatted >"$dir/format.log" 2>&1 ||
		die "formatting $dir failed: $(tail -5 "$dir/format.log")"
	exec java "${opts[@]}" "${log[@]}" -cp "$cp" kafka.Kafka "$dir/server.properties"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start() {
	[[ $# -eq 1 || $# -eq 3 ]] || die "usage: kafka.sh start DIR [PORT CONTROLLER_PORT]"
	local dir="$1" port="${2:-$(free_port)}" ctrl="${3:-$(free_port)}"
	mkdir -p "$dir"
	fetch
	local t0=$SECONDS
	setsid "$0" run "$dir" "$port" "$ctrl" >"$dir/stdout.log" 2>&1 </dev/null &
	echo $! >"$dir/broker.pid"
	local i
	for ((i = 0; i < 1200; i++)); do
		if grep -q "Kafka Server started" "$dir/broker.log" 2>/dev/null; then
			echo "127.0.0.1:$port"
			echo "kafka.sh: broker ready in $((SECONDS - t0)) s (pid $(cat "$dir/broker.pid"), logs in $dir)" >&2
			return 0
		fi
		kill -0 "$(cat "$dir/broker.pid")" 2>/dev/null || die "broker exited: $(tail -20 "$dir/stdout.log" "$dir/broker.log" 2>/dev/null)"
		sleep 0.1
	done
	stop "$dir"
	die "broker not ready after 120 s"
}

stop() {
	[[ $# -eq 1 ]] || die "usage: kafka.sh stop DIR"
	local dir="$1" pid i
	if [[ -f "$dir/broker.pid" ]]; then
		pid="$(cat "$dir/broker.pid")"
		kill -TERM "$pid" 2>/dev/null || true
		for ((i = 0; i < 200; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	[[ -f "$dir/server.properties" ]] && rm -rf -- "$dir"
	return 0
}

cmd="${1:-}"
shift || true
case "$cmd" in
fetch) fetch "$@" ;;
build) build "$@" ;;
run) run "$@" ;;
start) start "$@" ;;
stop) stop "$@" ;;
*) die "usage: kafka.sh fetch|build|run|start|stop (see the header)" ;;
esac
