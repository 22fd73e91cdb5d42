#!/usr/bin/env bash
# Replication between Apache HBase 2.6.1 and Basalt, both ways (issue 30 item 7): starts a real
# HBase mini cluster (basalt-bench/hbase-minicluster: ZooKeeper, 1 master, 1 region server, local
# filesystem; replication is on, as in every HBase 2.x) and a Basalt standalone server, on free
# loopback ports, and runs dev.basalt.bench.interop.ReplicationInteropMain against the two, which
# prints PASS or FAIL for each check:
#
#   hbase-to-basalt  add_peer on HBase with Basalt's cluster key (127.0.0.1:<zk port>:/hbase),
#                    every kind of edit on HBase (versions, server timestamps, the four delete
#                    markers, a row delete, a put under a newer delete marker, increments,
#                    appends, row mutations, check-and-put, a 3 MB value, a 100-row batch, a
#                    family with REPLICATION_SCOPE 0; NEW_VERSION_BEHAVIOR true, set on both
#                    sides, as the two systems' defaults differ); Basalt's copy
#                    must equal HBase's cell by cell, as read and as stored (raw scan: delete
#                    markers and the cells they mask), and the local family must stay home
#   basalt-to-hbase  the same with the peer on Basalt and the edits made there, and
#                    NEW_VERSION_BEHAVIOR false (an HBase sink applies a shipment's edits of a row
#                    in one batch, and under the new rules a delete then hides a later put of the
#                    same batch; see dev.basalt.bench.interop.InteropChecks)
#   master-master    a peer each way on one table (NEW_VERSION_BEHAVIOR false), the same edits on
#                    both sides (rows of their own), equal copies; then one put
#                    on each side must be shipped once and applied once by each cluster (the
#                    replication figures of Admin.getClusterMetrics, as `status 'replication'`
#                    prints them), and nothing may be shipped in the 10 s after (no loop)
#   cell-ttl         a cell written with Mutation.setTTL, both ways: one written already expired
#                    must stay invisible on the sink, one with an hour to live must arrive
#
#   basalt-bench/scripts/replication-interop.sh [--skip-build] [--keep] [--checks a,b,...]
#
# --skip-build uses what the last build left in target/; --keep leaves both clusters running at
# the end (their ZooKeeper addresses are printed; stop them with kill PID). Settings (environment
# variables, defaults in brackets): OUT [basalt-bench/target/replication-interop] where the
# clusters' data and logs go (emptied first), TIMEOUT [60] seconds each wait may take, HEAP [1g]
# of each server, JAVA [java], HBASE_REGIONSERVERS [1] of the mini cluster, BASALT_REGIONSERVERS
# [0: a standalone server; N: `basalt local-cluster` with one master and N region servers, each a
# process, so that shipments reach region servers that do not hold the table's region and are
# passed on]. Takes about 2 minutes after the build (HBase starts in 15-25 s).
# Exit status 0 when every check passed, 1 when one failed, 2 when a cluster did not start.
#
# Not a CI test: the mini cluster needs hbase-testing-util and Hadoop (hundreds of MB), which the
# default build never downloads, and the run takes longer than a test may.
# Needs JDK 17 to 22 (the stock HBase 2.x client and HBase 2.6 do not run on 23+) and Maven.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"

BUILD=true
KEEP=false
CHECKS=
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) BUILD=false ;;
    --keep) KEEP=true ;;
    --checks)
      CHECKS=${2:?--checks needs a list}
      shift
      ;;
    -h | --help)
      sed -n '2,40p' "$0"
      exit 0
      ;;
    *)
      echo "unknown argument: $1 (see --help)" >&2
      exit 2
      ;;
  esac
  shift
done

OUT=${OUT:-$ROOT/basalt-bench/target/replication-interop}
TIMEOUT=${TIMEOUT:-60}
HEAP=${HEAP:-1g}
JAVA=${JAVA:-java}
HBASE_REGIONSERVERS=${HBASE_REGIONSERVERS:-1}
BASALT_REGIONSERVERS=${BASALT_REGIONSERVERS:-0}

java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
if [ "${java_major%%.*}" -gt 22 ]; then
  echo "JDK $java_major: HBase 2.6 and its client need JDK 22 or older (17 is tested)" >&2
  exit 2
fi

if $BUILD; then
  echo "building (the first build of basalt-bench/hbase-minicluster downloads HBase)..."
  mvn -B -q -DskipTests -Dspotless.check.skip=true package -pl basalt-server,basalt-bench -am
  mvn -B -q -f "$ROOT/basalt-bench/hbase-minicluster/pom.xml" package
fi
MINI=$ROOT/basalt-bench/hbase-minicluster/target
for f in "$ROOT/basalt-server/target/classes" "$ROOT/basalt-server/target/lib" \
  "$ROOT/basalt-bench/target/benchmarks.jar" "$MINI/classes" "$MINI/minicluster.classpath"; do
  if [ ! -e "$f" ]; then
    echo "$f is missing: run without --skip-build" >&2
    exit 2
  fi
done

rm -rf "$OUT"
mkdir -p "$OUT/hbase" "$OUT/basalt" "$OUT/lib"
# Copies of what runs, so that a build in this tree meanwhile cannot change classes under a
# running server (the JVM loads classes lazily).
cp -r "$ROOT/basalt-server/target/classes" "$OUT/lib/server-classes"
cp -r "$ROOT/basalt-server/target/lib" "$OUT/lib/server-lib"
cp "$ROOT/basalt-bench/target/benchmarks.jar" "$ROOT/conf/logback.xml" "$OUT/lib/"
cp -r "$MINI/classes" "$OUT/lib/minicluster-classes"

# HBase 2.6 on JDK 17 (shared/docs/reference-hbase.md).
HBASE_JVM_OPTS=(
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens java.base/java.io=ALL-UNNAMED
  --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.net=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED
  --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
)

HBASE_PID=
BASALT_PID=
stop() {
  local pid
  for pid in $HBASE_PID $BASALT_PID; do
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 30); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
trap 'if ! $KEEP; then stop; fi' EXIT

# await_ready NAME PID FILE LOG: waits for a server's ready file; exits 2 if it dies or is late.
await_ready() {
  local deadline=$((SECONDS + 300))
  until [ -f "$3" ]; do
    if ! kill -0 "$2" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      echo "FAIL: $1 did not start; the end of $4:" >&2
      tail -20 "$4" >&2
      exit 2
    fi
    sleep 0.2
  done
}

t0=$SECONDS
"$JAVA" "${HBASE_JVM_OPTS[@]}" -Xmx"$HEAP" \
  -cp "$OUT/lib/minicluster-classes:$(cat "$MINI/minicluster.classpath")" \
  dev.basalt.bench.minicluster.HBaseMiniClusterMain --dir "$OUT/hbase/data" \
  --ready-file "$OUT/hbase/ready" --regionservers "$HBASE_REGIONSERVERS" \
  >"$OUT/hbase/server.log" 2>&1 &
HBASE_PID=$!
# The options bin/basalt gives a server; ports 0: free ones, written to the ready file.
BASALT_JVM_OPTS=(-Xmx"$HEAP" -XX:+UseG1GC -XX:G1ConcRefinementThreads=0 -XX:MaxHeapFreeRatio=100
  -Dlogback.configurationFile="$OUT/lib/logback.xml"
  -cp "$OUT/lib/server-classes:$OUT/lib/server-lib/*")
if [ "$BASALT_REGIONSERVERS" -gt 0 ]; then
  BASALT_KIND="local cluster (1 master, $BASALT_REGIONSERVERS region servers)"
  # Stops its masters and region servers when stopped itself.
  "$JAVA" "${BASALT_JVM_OPTS[@]}" -Dbasalt.log.name=basalt-local-cluster \
    dev.basalt.server.cluster.LocalClusterMain --root "$OUT/basalt/data" \
    --ready-file "$OUT/basalt/ready" --regionservers "$BASALT_REGIONSERVERS" \
    >"$OUT/basalt/server.out" 2>&1 &
else
  BASALT_KIND=standalone
  "$JAVA" "${BASALT_JVM_OPTS[@]}" -Dbasalt.log.name=basalt-standalone \
    dev.basalt.server.standalone.StandaloneMain --root "$OUT/basalt/data" \
    --ready-file "$OUT/basalt/ready" -D hbase.master.port=0 -D hbase.regionserver.port=0 \
    -D hbase.zookeeper.property.clientPort=0 >"$OUT/basalt/server.out" 2>&1 &
fi
BASALT_PID=$!
await_ready Basalt "$BASALT_PID" "$OUT/basalt/ready" "$OUT/basalt/server.out"
await_ready "the HBase mini cluster" "$HBASE_PID" "$OUT/hbase/ready" "$OUT/hbase/server.log"
HBASE_ZK=$(awk -F= '$1 == "zookeeper" {print $2}' "$OUT/hbase/ready")
BASALT_ZK=$(awk -F= '$1 == "zookeeper" {print $2}' "$OUT/basalt/ready")
echo "HBase 2.6.1 mini cluster, $HBASE_REGIONSERVERS region server(s): ZooKeeper $HBASE_ZK" \
  "(pid $HBASE_PID, log $OUT/hbase/server.log)"
echo "Basalt $BASALT_KIND: ZooKeeper $BASALT_ZK (pid $BASALT_PID, log $OUT/basalt/data/logs/)"
echo "both up after $((SECONDS - t0)) s"
echo

set +e
"$JAVA" --add-opens java.base/java.nio=ALL-UNNAMED -cp "$OUT/lib/benchmarks.jar" \
  dev.basalt.bench.interop.ReplicationInteropMain --hbase "$HBASE_ZK" --basalt "$BASALT_ZK" \
  --timeout-seconds "$TIMEOUT" ${CHECKS:+--checks "$CHECKS"} 2>&1 |
  grep --line-buffered -v '^SLF4J'
status=${PIPESTATUS[0]}
set -e
echo "checks took $((SECONDS - t0)) s in all, start-up included"
if $KEEP; then
  echo "left running: HBase pid $HBASE_PID (ZooKeeper $HBASE_ZK), Basalt pid $BASALT_PID" \
    "(ZooKeeper $BASALT_ZK)"
fi
exit "$status"
