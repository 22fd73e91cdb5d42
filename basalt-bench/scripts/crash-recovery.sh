#!/usr/bin/env bash
# Standalone crash recovery time (docs/PERFORMANCE.md section 3): loads RECORDS YCSB records
# (10 fields x 100 B) into REGIONS pre-split regions of a standalone server whose memstores never
# flush (flush size 512 MB), kills it with SIGKILL, starts it again on the same directory and times
# launch -> ready file: JVM start, WAL read, replay into each region and its flush, RPC and
# ZooKeeper up. Repeats RUNS times (a fresh directory each time) and prints one line per run.
#
#   basalt-bench/scripts/crash-recovery.sh            # RECORDS=100000 REGIONS=4 RUNS=3
#   RECORDS=20000 RUNS=5 basalt-bench/scripts/crash-recovery.sh
#
# Needs `mvn -B -DskipTests package` first. The server and bench classes are copied to a
# temporary directory, so that a build running meanwhile does not change what is measured. The
# server runs with bin/basalt's JVM options and -Xmx${HEAP:-3g}; ports are ZK_PORT [2391],
# MASTER_PORT [16391], RS_PORT [16491] on 127.0.0.1.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RECORDS=${RECORDS:-100000}
REGIONS=${REGIONS:-4}
RUNS=${RUNS:-3}
HEAP=${HEAP:-3g}
ZK_PORT=${ZK_PORT:-2391}
MASTER_PORT=${MASTER_PORT:-16391}
RS_PORT=${RS_PORT:-16491}

for f in "$ROOT/basalt-server/target/classes" "$ROOT/basalt-server/target/lib" \
  "$ROOT/basalt-bench/target/benchmarks.jar"; do
  if [[ ! -e "$f" ]]; then
    echo "crash-recovery: $f is missing; run mvn -B -DskipTests package first" >&2
    exit 2
  fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/basalt-recovery.XXXXXX")
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then kill -9 "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
cp -r "$ROOT/basalt-server/target/classes" "$WORK/classes"
cp -r "$ROOT/basalt-server/target/lib" "$WORK/lib"
cp "$ROOT/basalt-bench/target/benchmarks.jar" "$ROOT/conf/logback.xml" "$WORK/"

# starts the server on $WORK/data in the background (SERVER_PID: the JVM itself); $1 = ready file
start_server() {
  java -Xmx"$HEAP" -XX:+UseG1GC -XX:G1ConcRefinementThreads=0 -XX:MaxHeapFreeRatio=100 \
    -Dlogback.configurationFile="$WORK/logback.xml" -Dbasalt.log.name=basalt-standalone \
    -cp "$WORK/classes:$WORK/lib/*" dev.basalt.server.standalone.StandaloneMain \
    --root "$WORK/data" --ready-file "$1" \
    -D hbase.zookeeper.property.clientPort="$ZK_PORT" -D hbase.master.port="$MASTER_PORT" \
    -D hbase.regionserver.port="$RS_PORT" -D hbase.hregion.memstore.flush.size=536870912 \
    -D hbase.regionserver.global.memstore.size=0.5 -D hfile.block.cache.size=0.2 \
    >>"$WORK/server.out" 2>&1 &
  SERVER_PID=$!
}

await_file() {
  local deadline=$((SECONDS + 300))
  while [[ ! -f "$1" ]]; do
    if ((SECONDS > deadline)) || ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "crash-recovery: the server did not become ready; see $WORK/server.out" >&2
      tail -20 "$WORK/server.out" >&2
      trap - EXIT
      exit 1
    fi
    sleep 0.02
  done
}

echo "records=$RECORDS regions=$REGIONS heap=$HEAP load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$RUNS"); do
  rm -rf "$WORK/data" "$WORK"/ready*
  start_server "$WORK/ready-load"
  await_file "$WORK/ready-load"
  java -cp "$WORK/benchmarks.jar" dev.basalt.bench.workload.WorkloadRunner \
    --zookeeper "127.0.0.1:$ZK_PORT" --workloads load --records "$RECORDS" --threads 4 \
    --regions "$REGIONS" >"$WORK/load.out" 2>&1
  wal=$(du -sm "$WORK/data/WALs" | cut -f1)
  kill -9 "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  t0=$(date +%s%N)
  start_server "$WORK/ready-restart"
  await_file "$WORK/ready-restart"
  t1=$(date +%s%N)
  cells=$(grep -h "recovered .* cells of region" "$WORK"/data/logs/*.log |
    awk '{s += $(NF-9)} END {print s + 0}')
  echo "run $run: WAL ${wal} MB, ${cells} cells replayed; kill -9 -> restart -> ready" \
    "$(((t1 - t0) / 1000000)) ms (load average $(cut -d' ' -f1 /proc/loadavg))"
  kill "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
done
