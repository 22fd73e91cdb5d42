#!/usr/bin/env bash
# Side-by-side workload comparison (issue 9): starts each system in turn on this machine, runs
# the same YCSB-style workloads against it through the stock HBase client
# (dev.basalt.bench.workload.WorkloadRunner, or YCSB's own core with CLIENT=ycsb), measures the
# server's start-up time, resident memory and CPU time per operation of each phase from outside its
# JVM, and writes the comparison table (Markdown) to
# $OUT/comparison.md, and to docs/PERFORMANCE.md with --update-docs.
#
#   basalt-bench/scripts/compare-hbase.sh [--update-docs] [--skip-build]
#
# Systems, in the order they run:
#   HBase  - a real Apache HBase 2.6.1 mini cluster (hbase-testing-util, built by its own Maven
#            project basalt-bench/hbase-minicluster, outside the reactor): ZooKeeper, 1 master,
#            1 region server, local filesystem, loopback only, web UIs off
#            (dev.basalt.bench.minicluster.HBaseMiniClusterMain).
#   Basalt - `bin/basalt standalone` on free ports over a fresh directory under $OUT.
#
# Settings (environment variables, defaults in brackets): RECORDS [100000], OPERATIONS [1000000]
# per workload, THREADS [8] client threads, REGIONS [8] pre-split regions, WARMUP [10] seconds
# per workload, MAX_SECONDS [30] measured per workload (whichever of the two ends first; the
# load always inserts every record; windows of 100,000 operations, 2-3 s, swung by a third),
# WORKLOADS [load,a,b,c,f,d,reload,e: YCSB's procedure, which deletes the table and loads it again
# before E], HEAP [4g] server heap limit (the same for both), HBASE_FS
# [local|hdfs], OUT [basalt-bench/target/compare], SYSTEMS [hbase,basalt] the systems to run
# (one left out reuses its results in $OUT, if any),
# RUNNER_OPTS [-Xms2g -Xmx2g -XX:+AlwaysPreTouch] the workload runner's JVM options (a fixed heap
# touched at start, so the client's own heap growth is not measured as server latency),
# BASALT_SETTINGS [none] space-separated key=value settings passed to Basalt as `-D key=value`,
# BASALT_OPTS [none] Basalt's extra JVM options (read by bin/basalt), OP_LOG [unset] any value: also
# write every measured operation to $OUT/<system>-ops.csv (summarise with OpLogSummary),
# CLIENT [runner|ycsb]: runner = basalt-bench's WorkloadRunner, one client JVM for all phases;
# ycsb = YCSB 0.17.0's own site.ycsb.Client with dev.basalt.bench.ycsb.HBaseBinding (the stock
# client) and basalt-bench/ycsb/workloads, one client JVM per phase (as YCSB is run), the same
# records, threads, regions and phases (OP_LOG does not apply; WARMUP runs the phase's workload
# for that long in a client JVM of its own first, unmeasured; the load never warms up).
# WORKLOADS may be any order of phases after the load: load,e (E right after the load),
# load,a,b,c,e (E after A-C), ...
# Server CPU per operation: utime + stime of the whole server process (every thread, ended ones
# included) from /proc/<pid>/stat, read just before and just after each phase's measured window
# (runner: by the runner itself, after its warm-up; ycsb: around the phase's client JVM, so it
# includes that JVM's connection set-up), divided by the window's operations.
# Needs JDK 17 (the stock HBase 2.x client does not run on JDK 23+) and Maven.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"

UPDATE_DOCS=false
BUILD=true
for arg in "$@"; do
  case "$arg" in
    --update-docs) UPDATE_DOCS=true ;;
    --skip-build) BUILD=false ;;
    -h | --help) sed -n '2,43p' "$0"; exit 0 ;;
    *) echo "unknown argument: $arg (see --help)" >&2; exit 2 ;;
  esac
done

RECORDS=${RECORDS:-100000}
OPERATIONS=${OPERATIONS:-1000000}
THREADS=${THREADS:-8}
REGIONS=${REGIONS:-8}
WARMUP=${WARMUP:-10}
MAX_SECONDS=${MAX_SECONDS:-30}
WORKLOADS=${WORKLOADS:-load,a,b,c,f,d,reload,e}
HEAP=${HEAP:-4g}
HBASE_FS=${HBASE_FS:-local}
OUT=${OUT:-$ROOT/basalt-bench/target/compare}
JAVA=${JAVA:-java}
READY_TIMEOUT=${READY_TIMEOUT:-300}
SYSTEMS=${SYSTEMS:-hbase,basalt}
RUNNER_OPTS=${RUNNER_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch}
BASALT_SETTINGS=${BASALT_SETTINGS:-}
CLIENT=${CLIENT:-runner}
case "$CLIENT" in
  runner | ycsb) ;;
  *) echo "CLIENT=$CLIENT: expected runner or ycsb" >&2; exit 2 ;;
esac
if [ "$CLIENT" = ycsb ] && [[ ",$WORKLOADS," != ",load,"* ]]; then
  echo "CLIENT=ycsb: WORKLOADS must start with load (YCSB's client never creates its table)" >&2
  exit 2
fi
CLK_TCK=$(getconf CLK_TCK)

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

java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
if [ "${java_major%%.*}" -gt 22 ]; then
  echo "JDK $java_major: the stock HBase 2.x client needs JDK 22 or older (17 is tested)" >&2
  exit 2
fi

if $BUILD; then
  echo "building (the first build of basalt-bench/hbase-minicluster downloads HBase)..."
  mvn -B -q -DskipTests package
  mvn -B -q -f "$ROOT/basalt-bench/hbase-minicluster/pom.xml" package
fi
BENCH_JAR=$ROOT/basalt-bench/target/benchmarks.jar
MINI=$ROOT/basalt-bench/hbase-minicluster/target
MINI_CP=$MINI/classes:$(cat "$MINI/minicluster.classpath")

# Only the systems that run lose their earlier results (a system left out reuses them).
mkdir -p "$OUT"
for key in ${SYSTEMS//,/ }; do
  rm -rf "${OUT:?}/$key" "$OUT/$key.json" "$OUT/$key.log" "$OUT/$key.server.properties"
done
rm -f "$OUT/comparison.md" "$OUT/notes.md"

SERVER_PID=
CONNECT=()
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID"
    for _ in $(seq 1 60); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 1
    done
    kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}
trap stop_server EXIT

proc_kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
# CPU milliseconds the process has spent so far, every thread (utime + stime of /proc/PID/stat,
# the fields after the command name, which may hold spaces), or -1 when it cannot be read.
proc_cpu_ms() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo -1; return; }
  # shellcheck disable=SC2086 # split the fields after "(comm) "
  set -- ${stat##*) }
  echo $(((${12} + ${13}) * 1000 / CLK_TCK))
}
now_ms() { date +%s%3N; }

# Each start_* function starts one server process in the background, sets SERVER_PID and
# CONNECT (the runner's connection options), STORAGE and HEAP_NOTE, and returns once the
# server answers; or returns 1 when the system cannot be started (its column stays pending).

start_hbase() {
  local dir=$OUT/hbase
  mkdir -p "$dir"
  local fs_opt=()
  [ "$HBASE_FS" = hdfs ] && fs_opt=(--hdfs)
  "$JAVA" "${HBASE_JVM_OPTS[@]}" -Xmx"$HEAP" -cp "$MINI_CP" \
    dev.basalt.bench.minicluster.HBaseMiniClusterMain \
    --dir "$dir/data" --ready-file "$dir/ready" "${fs_opt[@]}" >"$dir/server.log" 2>&1 &
  SERVER_PID=$!
  local deadline=$((SECONDS + READY_TIMEOUT))
  until [ -f "$dir/ready" ]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "the HBase mini cluster exited; see $dir/server.log" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "HBase did not answer within ${READY_TIMEOUT}s; see $dir/server.log" >&2
      return 1
    fi
    sleep 0.2
  done
  CONNECT=(--zookeeper "$(awk -F= '$1 == "zookeeper" {print $2}' "$dir/ready")")
  if [ "$HBASE_FS" = hdfs ]; then
    STORAGE="mini HDFS (1 datanode)"
  else
    STORAGE="local filesystem"
  fi
  HEAP_NOTE="-Xmx$HEAP"
}

# bin/basalt rebuilds the server when its sources changed: done before the start-up clock runs.
prepare_basalt() {
  JAVA="$JAVA" "$ROOT/bin/basalt" standalone --help >/dev/null
}

start_basalt() {
  local dir=$OUT/basalt
  mkdir -p "$dir"
  local settings=()
  for kv in $BASALT_SETTINGS; do
    settings+=(-D "$kv")
  done
  # Free ports, like the mini cluster: the ready file says which were chosen.
  BASALT_HEAP="$HEAP" JAVA="$JAVA" "$ROOT/bin/basalt" standalone --root "$dir/data" \
    --ready-file "$dir/ready" -D hbase.master.port=0 -D hbase.regionserver.port=0 \
    -D hbase.zookeeper.property.clientPort=0 ${settings[@]+"${settings[@]}"} \
    >"$dir/server.log" 2>&1 &
  SERVER_PID=$!
  local deadline=$((SECONDS + READY_TIMEOUT))
  until [ -f "$dir/ready" ]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "Basalt exited; see $dir/server.log" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "Basalt did not answer within ${READY_TIMEOUT}s; see $dir/server.log" >&2
      return 1
    fi
    sleep 0.05
  done
  CONNECT=(--zookeeper "$(awk -F= '$1 == "zookeeper" {print $2}' "$dir/ready")")
  STORAGE="local filesystem"
  HEAP_NOTE="-Xmx$HEAP, never shrunk (bin/basalt)"
}

# run_ycsb KEY: runs $WORKLOADS with YCSB's own client, one client JVM per phase, against the
# server CONNECT names; reads the server's CPU time around each phase's client JVM; writes the
# outputs to $OUT/KEY-ycsb/ and the results, as the runner's JSON, to $OUT/KEY.json.
run_ycsb() {
  local key=$1 dir=$OUT/$1-ycsb n=0 phase lc before after cpu
  local zk=${CONNECT[1]}
  local results=()
  mkdir -p "$dir"
  local common=(-db dev.basalt.bench.ycsb.HBaseBinding -threads "$THREADS"
    -p "hbase.zookeeper.quorum=$zk" -p columnfamily=family -p table=usertable
    -p "recordcount=$RECORDS" -p hdrhistogram.percentiles=50,95,99,99.9)
  for phase in ${WORKLOADS//,/ }; do
    n=$((n + 1))
    lc=$(echo "$phase" | tr '[:upper:]' '[:lower:]')
    local mode=()
    case "$lc" in
      load | reload)
        "$JAVA" -cp "$BENCH_JAR" dev.basalt.bench.workload.TableSetup "${CONNECT[@]}" \
          --regions "$REGIONS" 2>&1 | grep -v '^SLF4J'
        mode=(-load -P "$ROOT/basalt-bench/ycsb/workloads/workloada")
        ;;
      a | b | c | d | e | f)
        mode=(-t -P "$ROOT/basalt-bench/ycsb/workloads/workload$lc" -p "operationcount=$OPERATIONS")
        if [ "$WARMUP" -gt 0 ]; then
          # shellcheck disable=SC2086 # RUNNER_OPTS is a list of JVM options
          "$JAVA" $RUNNER_OPTS -cp "$BENCH_JAR" site.ycsb.Client "${mode[@]}" "${common[@]}" \
            -p "maxexecutiontime=$WARMUP" >"$dir/$n-$lc-warmup.txt" 2>&1
        fi
        mode+=(-p "maxexecutiontime=$MAX_SECONDS")
        ;;
      *) echo "CLIENT=ycsb: unknown phase '$phase' in WORKLOADS" >&2; return 1 ;;
    esac
    before=$(proc_cpu_ms "$SERVER_PID")
    # shellcheck disable=SC2086 # RUNNER_OPTS is a list of JVM options
    "$JAVA" $RUNNER_OPTS -cp "$BENCH_JAR" site.ycsb.Client "${mode[@]}" "${common[@]}" \
      >"$dir/$n-$lc.txt" 2>"$dir/$n-$lc.err"
    after=$(proc_cpu_ms "$SERVER_PID")
    cpu=-1
    [ "$before" -ge 0 ] && [ "$after" -ge 0 ] && cpu=$((after - before))
    results+=(--phase "$lc" "$dir/$n-$lc.txt" "$cpu")
    echo "[$key $lc] YCSB: $(grep -h '^\[OVERALL\]' "$dir/$n-$lc.txt" | cut -d, -f2- | paste -sd';'), server CPU $cpu ms"
  done
  "$JAVA" -cp "$BENCH_JAR" dev.basalt.bench.workload.YcsbResults --label "$key" \
    --threads "$THREADS" --records "$RECORDS" --json "$OUT/$key.json" "${results[@]}"
}

# run_system KEY NAME: starts the system, runs the workloads, stops it, writes
# $OUT/KEY.json and $OUT/KEY.server.properties; returns 1 if the system could not be started.
run_system() {
  local key=$1 name=$2
  echo
  echo "=== $name ==="
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  STORAGE=
  HEAP_NOTE=
  if declare -f "prepare_$key" >/dev/null; then
    "prepare_$key"
  fi
  local t0
  t0=$(now_ms)
  if ! "start_$key"; then
    stop_server
    return 1
  fi
  local startup_ms=$(($(now_ms) - t0))
  local rss_idle
  rss_idle=$(proc_kib "$SERVER_PID" VmRSS)
  echo "$name answered after $((startup_ms / 1000)).$(((startup_ms % 1000) / 100)) s, resident ${rss_idle} KiB"
  if [ "$CLIENT" = ycsb ]; then
    run_ycsb "$key" 2>&1 | grep --line-buffered -v '^SLF4J' | tee "$OUT/$key.log"
  else
    # shellcheck disable=SC2086 # RUNNER_OPTS is a list of JVM options
    "$JAVA" $RUNNER_OPTS -cp "$BENCH_JAR" dev.basalt.bench.workload.WorkloadRunner "${CONNECT[@]}" \
      --label "$key" --workloads "$WORKLOADS" --records "$RECORDS" --operations "$OPERATIONS" \
      --threads "$THREADS" --regions "$REGIONS" --warmup "$WARMUP" --max-seconds "$MAX_SECONDS" \
      --server-pid "$SERVER_PID" --recreate-table --json "$OUT/$key.json" \
      ${OP_LOG:+--op-log "$OUT/$key-ops.csv"} 2>&1 | grep --line-buffered -v '^SLF4J' | tee "$OUT/$key.log"
  fi
  local rss_after peak
  rss_after=$(proc_kib "$SERVER_PID" VmRSS)
  peak=$(proc_kib "$SERVER_PID" VmHWM)
  stop_server
  {
    echo "startupSeconds=$(awk -v ms="$startup_ms" 'BEGIN {printf "%.1f", ms / 1000}')"
    echo "rssIdleKiB=$rss_idle"
    echo "rssAfterKiB=$rss_after"
    echo "peakRssKiB=$peak"
    echo "storage=$STORAGE"
    echo "heap=$HEAP_NOTE"
    echo "loadAverageAfter=$(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$OUT/$key.server.properties"
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# run_or_reuse KEY NAME: runs the system when SYSTEMS names it, else reuses the results an earlier
# run left in $OUT (for trying a change on one side; a published comparison runs both).
run_or_reuse() {
  local key=$1 name=$2
  if [[ ",$SYSTEMS," == *",$key,"* ]]; then
    run_system "$key" "$name" || return 1
  elif [ -f "$OUT/$key.json" ]; then
    echo
    echo "=== $name: results of an earlier run reused ($OUT/$key.json) ==="
    REUSED="$REUSED $name"
  else
    return 1
  fi
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
REUSED=
HBASE_ARGS=("HBase 2.6.1" pending)
if run_or_reuse hbase "HBase 2.6.1"; then
  HBASE_ARGS=("HBase 2.6.1" "$OUT/hbase.json" "$OUT/hbase.server.properties")
fi
BASALT_ARGS=(Basalt pending)
if run_or_reuse basalt Basalt; then
  BASALT_ARGS=(Basalt "$OUT/basalt.json" "$OUT/basalt.server.properties")
fi
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "Measured $(date -u +%Y-%m-%d) with"
  echo
  echo '```'
  echo "RECORDS=$RECORDS OPERATIONS=$OPERATIONS THREADS=$THREADS REGIONS=$REGIONS WARMUP=$WARMUP \\"
  echo "  MAX_SECONDS=$MAX_SECONDS WORKLOADS=$WORKLOADS HEAP=$HEAP HBASE_FS=$HBASE_FS \\"
  echo "  RUNNER_OPTS=\"$RUNNER_OPTS\" CLIENT=$CLIENT \\"
  echo "  basalt-bench/scripts/compare-hbase.sh $*"
  echo '```'
  echo
  echo "$RECORDS records of 10 fields x 100 B; each workload measured for $MAX_SECONDS s or $OPERATIONS"
  if [ "$CLIENT" = ycsb ]; then
    echo "operations, whichever ends first, after ${WARMUP} s of warm-up in a client JVM of its own;"
    echo "YCSB 0.17.0's own client (site.ycsb.Client, dev.basalt.bench.ycsb.HBaseBinding over the stock"
    echo "client), one client JVM per phase with $THREADS threads,"
  else
    echo "operations, whichever ends first, after ${WARMUP} s of warm-up; $THREADS client threads in one"
    echo "client JVM (basalt-bench's WorkloadRunner),"
  fi
  echo "table pre-split into $REGIONS regions, no client write buffer, client JVM options"
  echo "\`$RUNNER_OPTS\`. Machine: $(nproc) CPUs ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)),"
  echo "$(awk '/MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo) GiB, $("$JAVA" -version 2>&1 | head -1);"
  echo "client and server share the CPUs. Load average (1/5/15 min) at the start: $LOAD_START;"
  echo "at the end: $LOAD_END."
  case ",$WORKLOADS," in
    *,reload,*)
      echo "\`reload\` drops and re-creates the table and loads the records again, as YCSB's procedure"
      echo "does before E (so E reads freshly loaded rows, not rows aged by the other workloads' updates)."
      ;;
  esac
  if [ -n "$REUSED" ]; then
    echo
    echo "Not measured in this run, results of an earlier run reused:$REUSED."
  fi
} >"$OUT/notes.md"

REPORT_ARGS=(--baseline "${HBASE_ARGS[@]}" --candidate "${BASALT_ARGS[@]}" --notes "$OUT/notes.md"
  --out "$OUT/comparison.md")
$UPDATE_DOCS && REPORT_ARGS+=(--update "$ROOT/docs/PERFORMANCE.md")
echo
"$JAVA" -cp "$BENCH_JAR" dev.basalt.bench.workload.ComparisonReport "${REPORT_ARGS[@]}"
echo
echo "written: $OUT/comparison.md$($UPDATE_DOCS && echo " and docs/PERFORMANCE.md")"
