#!/usr/bin/env bash
# The failover chaos soak (issue 28; distributed-mode notes S12): a cluster of child processes on
# 127.0.0.1 (ZooKeeper, 2 masters, 3 region servers; LocalCluster), linked-list writers and a
# probe through the stock HBase client, and fault actions at random (kill -9 of region servers and
# masters, SIGSTOP, restarts on the same port, masters and region servers halting at fault points)
# with moves, splits, merges, balances, flushes and compactions between them, until the time, the
# cycle count or the kill targets are reached. After every action the invariants are checked; at
# the end the verifier scans the table. Prints one line per action and a summary; exit status 0
# passed, 1 failed (a lost write, an invariant broken, a stuck recovery), 2 bad arguments.
# dev.basalt.bench.chaos.ChaosSoak.
#
#   basalt-bench/scripts/chaos-soak.sh [--skip-build] [ChaosSoak options]
#
# The issue's targets (>= 50 region server and 20 master kill -9 cycles):
#   basalt-bench/scripts/chaos-soak.sh --rs-kills 50 --master-kills 20 --minutes 30
# A fixed sequence instead of random faults:
#   basalt-bench/scripts/chaos-soak.sh --plan 'kill-rs-busiest*10,kill-master*5'
# ChaosSoak's options: basalt-bench/scripts/chaos-soak.sh --skip-build --help
#
# Environment: OUT [basalt-bench/target/chaos-soak] where each run's root and logs go (a
# directory per run; the children's logs stay there), MVN [mvn], MVN_FLAGS [none; -o: offline],
# JAVA [java], SOAK_OPTS [-Xmx1g] the soak JVM's options. Needs JDK 17 and Maven.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"

BUILD=true
args=()
for arg in "$@"; do
  case "$arg" in
    --skip-build) BUILD=false ;;
    *) args+=("$arg") ;;
  esac
done

OUT=${OUT:-$ROOT/basalt-bench/target/chaos-soak}
MVN=${MVN:-mvn}
MVN_FLAGS=${MVN_FLAGS:-}
JAVA=${JAVA:-java}
SOAK_OPTS=${SOAK_OPTS:--Xmx1g}

if $BUILD; then
  # The children run on the server's runtime class path (what bin/basalt runs: target/classes and
  # target/lib, made by package); the soak runs on basalt-bench's, written by build-classpath.
  # One reactor, so basalt-bench compiles against these sources, not an installed jar.
  # shellcheck disable=SC2086
  "$MVN" -B -q $MVN_FLAGS -DskipTests -Dmaven.test.skip=true package -pl basalt-server -am
  # shellcheck disable=SC2086
  "$MVN" -B -q $MVN_FLAGS -Dmaven.test.skip=true -Dmdep.outputFile=target/chaos-soak.cp \
    compile dependency:build-classpath -pl basalt-core,basalt-server,basalt-bench
fi
if [[ ! -f basalt-bench/target/chaos-soak.cp || ! -d basalt-server/target/lib ]]; then
  echo "chaos-soak: not built yet (run without --skip-build)" >&2
  exit 2
fi

run_id="run-$(date +%Y%m%d-%H%M%S)"
run_root="$OUT/$run_id"
# A copy of the classes and jars this run uses: other builds in the same tree (bin/basalt
# rebuilds, mvn package) rewrite target/ while the soak starts processes for half an hour.
snap="$OUT/classpath-$run_id"
mkdir -p "$snap/server-lib"
cp -r basalt-server/target/classes "$snap/server-classes"
cp basalt-server/target/lib/*.jar "$snap/server-lib/"
cp -r basalt-core/target/classes "$snap/core-classes"
cp -r basalt-bench/target/classes "$snap/bench-classes"
server_cp="$snap/server-classes:$snap/server-lib/*"
bench_cp=$(sed -e "s#$ROOT/basalt-core/target/classes#$snap/core-classes#" \
  -e "s#$ROOT/basalt-server/target/classes#$snap/server-classes#" basalt-bench/target/chaos-soak.cp)
soak_cp="$snap/bench-classes:$bench_cp"

has_root=false
for a in "${args[@]+"${args[@]}"}"; do
  [[ "$a" == --root ]] && has_root=true
done
extra=(--class-path "$server_cp" --logback "$ROOT/conf/logback.xml")
$has_root || extra+=(--root "$run_root")

# --add-opens: the stock client's fast unaligned-access path (as bin/basalt shell)
# shellcheck disable=SC2086
exec "$JAVA" $SOAK_OPTS --add-opens java.base/java.nio=ALL-UNNAMED \
  -cp "$soak_cp" dev.basalt.bench.chaos.ChaosSoak "${extra[@]}" "${args[@]+"${args[@]}"}"
