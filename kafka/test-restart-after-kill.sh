#!/usr/bin/env bash
# A broker SIGKILLed and restarted one second later must start the first time (`kafka/broker start` once
# mistook the dying JVM, still in the process table, for the new one and reported that it "exited during
# start-up"). How long the kernel takes to tear a JVM down varies, so the test also makes that moment
# certain: after the SIGKILL, a stand-in with the broker's command line that lives 3 more seconds takes the
# pid file, as the dying JVM would. Runs a second broker of its own (a temporary home, ports 29092/29093),
# never the default one.
# Exit status: 0 passed; 1 failed (the output says which step).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="$(mktemp -d -t kafka-restart-test.XXXXXX)"
export KAFKA_HOME_DIR="$home" KAFKA_PORT="${TEST_KAFKA_PORT:-29092}" KAFKA_CONTROLLER_PORT="${TEST_KAFKA_CONTROLLER_PORT:-29093}"
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx256m}"
cleanup() {
  "$here/broker" stop >/dev/null 2>&1 || true
  rm -rf "$home"
}
trap cleanup EXIT

fail() { echo "test-restart-after-kill: FAILED: $*" >&2; exit 1; }

"$here/broker" start >/dev/null || fail "the first start"
pid=$(<"$home/run/kafka.pid")
kill -KILL "$pid"
# The dying JVM as `start` may find it: alive for a moment, with the broker's command line.
bash -c 'sleep 3; exit 0' stand-in kafka.Kafka "$home/run/server.properties" &
stand_in=$!
echo "$stand_in" >"$home/run/kafka.pid"
sleep 1
"$here/broker" start || fail "the start one second after SIGKILL of pid $pid"
wait "$stand_in" 2>/dev/null || true
new=$(<"$home/run/kafka.pid")
[[ $new != "$pid" && $new != "$stand_in" ]] || fail "the pid file still names the killed broker ($new)"
"$here/broker" status >/dev/null || fail "status after the restart"
echo "test-restart-after-kill: passed (killed pid $pid, restarted as pid $new on the first try)"
