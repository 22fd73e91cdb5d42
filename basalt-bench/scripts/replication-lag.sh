#!/usr/bin/env bash
# Replication's figures (docs/PERFORMANCE.md, "Replication"; issue 30's targets): two Basalt
# standalone servers on this machine, A replicating the workload runner's table to B.
# dev.basalt.bench.replication.ReplicationMeasure measures
#   - lag as a user sees it (a marker put to A every 100 ms, looked for on B every 10 ms) while idle
#     and under the workload runner's load and A phases, with the source's own figures;
#   - catch-up after an outage: B stopped (SIGTERM; --outage-mode pause: SIGSTOP) for 2 minutes
#     while A takes 1,000 rows/s, then the time from B's return until it has every row;
#   - a row-by-row comparison of the table on A and B;
#   - the cost on the source: phase A with and without the peer, alternating, 3 runs each.
#
#   basalt-bench/scripts/replication-lag.sh [--skip-build] [ReplicationMeasure options]
#   basalt-bench/scripts/replication-lag.sh --skip-build --stages lag --records 20000
#
# ReplicationMeasure --help lists its options (records, threads, heap, outage length and rate, cost
# runs, stages). The servers run on a copy of the built server (an unpacked distribution under
# $OUT/dist: bin/basalt, conf/, lib/), so a build running meanwhile does not change what is
# measured, and bin/basalt never rebuilds during a run. Needs JDK 17 and Maven (offline:
# MVN_FLAGS=-o). About 12 minutes with the defaults. Results: $OUT/report.md; the servers' output
# in $OUT/a.out and $OUT/b.out, the runner's in $OUT/runner.log.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/basalt-replication-$(date +%Y%m%d-%H%M%S)}
MVN_FLAGS=${MVN_FLAGS:-}
MEASURE_OPTS=${MEASURE_OPTS:--Xmx1g}

build=1
if [[ "${1:-}" == "--skip-build" ]]; then
  build=0
  shift
fi
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi

cd "$ROOT"
if ((build)); then
  # shellcheck disable=SC2086
  mvn -B -q $MVN_FLAGS -DskipTests -Dspotless.check.skip=true package \
    -pl basalt-server,basalt-bench -am
fi
for f in basalt-server/target/classes basalt-server/target/lib basalt-bench/target/benchmarks.jar; do
  if [[ ! -e "$f" ]]; then
    echo "replication-lag: $f is missing; run without --skip-build" >&2
    exit 2
  fi
done

# An unpacked distribution of the server as bin/basalt expects it: bin/basalt, conf/, lib/*.jar.
mkdir -p "$OUT/dist/bin" "$OUT/dist/conf" "$OUT/dist/lib"
cp bin/basalt "$OUT/dist/bin/"
cp conf/logback.xml "$OUT/dist/conf/"
cp basalt-server/target/lib/*.jar "$OUT/dist/lib/"
jar cf "$OUT/dist/lib/basalt-server.jar" -C basalt-server/target/classes .
cp basalt-bench/target/benchmarks.jar "$OUT/dist/"
# what is measured (a copy made with git archive has no .git: then only the output directory)
if commit=$(git rev-parse --short HEAD 2>/dev/null); then
  changes=$(git status --porcelain -- basalt-core/src basalt-server/src | wc -l)
  echo "replication-lag: commit $commit ($changes uncommitted files in basalt-core/basalt-server)"
fi
echo "replication-lag: output in $OUT"

# shellcheck disable=SC2086
exec java $MEASURE_OPTS -cp "$OUT/dist/benchmarks.jar" \
  dev.basalt.bench.replication.ReplicationMeasure --root "$OUT" --basalt "$OUT/dist/bin/basalt" "$@"
