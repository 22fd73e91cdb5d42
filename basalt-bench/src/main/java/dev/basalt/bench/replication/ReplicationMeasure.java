package dev.basalt.bench.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;

/**
 * Replication's figures for docs/PERFORMANCE.md (issue 30's targets), between two {@code bin/basalt
 * standalone} servers started here as child processes, A replicating the workload runner's table to
 * B:
 *
 * <ol>
 *   <li><b>lag</b>: {@link LagProbe}'s markers (written to A every 100 ms, looked for on B) while
 *       the probe runs alone, then under the workload runner's load and A phases (a runner JVM of
 *       its own, the published figures' settings), with the source's own figures sampled meanwhile;
 *   <li><b>outage</b>: B stopped (or paused), rows written to A at a bounded rate for 2 minutes, B
 *       back: the time until B has every row;
 *   <li><b>compare</b>: the table on A and on B compared row by row, once B has caught up;
 *   <li><b>cost</b>: phase A against A without a peer and with one, alternating, several times.
 * </ol>
 *
 * Not a test and not run by the build; basalt-bench/scripts/replication-lag.sh runs it on a copy of
 * the built server. Both servers are stopped by PID at the end, also after a failure.
 */
public final class ReplicationMeasure {
  static final TableName TABLE = TableName.valueOf("usertable");
  static final byte[] FAMILY = "family".getBytes(StandardCharsets.UTF_8);
  private static final String PEER = "1";
  private static final long CATCH_UP_TIMEOUT_MILLIS = 600_000;

  private final MeasureOptions o;
  private final Report report = new Report(System.out);
  private ServerProcess a;
  private ServerProcess b;
  private Connection ca;
  private Connection cb;
  private LagProbe probe;
  private SourceSampler sampler;

  private ReplicationMeasure(MeasureOptions options) {
    this.o = options;
  }

  public static void main(String[] args) throws Exception {
    MeasureOptions options;
    try {
      options = MeasureOptions.parse(args);
    } catch (IllegalArgumentException e) {
      boolean help = e.getMessage().equals("help");
      if (!help) {
        System.err.println("error: " + e.getMessage());
      }
      (help ? System.out : System.err).println(MeasureOptions.USAGE);
      System.exit(help ? 0 : 2);
      return;
    }
    new ReplicationMeasure(options).run();
    System.exit(0);
  }

  private void run() throws Exception {
    Path root = o.root() != null ? o.root() : Files.createTempDirectory("basalt-replication");
    Files.createDirectories(root);
    a = new ServerProcess("a", o.launcher(), o.heap(), root, o.serverSettings());
    b = new ServerProcess("b", o.launcher(), o.heap(), root, o.serverSettings());
    Thread stopper = new Thread(this::stopServers, "stop-servers");
    Runtime.getRuntime().addShutdownHook(stopper);
    try {
      header(root);
      a.start();
      b.start();
      a.awaitReady();
      b.awaitReady();
      report.note(
          "A pid %d zookeeper %s; B pid %d zookeeper %s", a.pid(), a.quorum(), b.pid(), b.quorum());
      ca = ConnectionFactory.createConnection(conf(a));
      cb = ConnectionFactory.createConnection(conf(b));
      createTable(cb);
      createTable(ca);
      addPeer(PEER);
      probe = new LagProbe(ca, cb, TABLE, FAMILY, o.probePeriodMillis());
      sampler = new SourceSampler(ca);
      long first = probe.awaitCaughtUp(CATCH_UP_TIMEOUT_MILLIS);
      report.line(
          "The first row written after the peer was added was on B %,d ms after its put.%n", first);
      probe.start();
      sampler.start();
      if (o.runs("lag")) {
        lagStage(root);
      }
      if (o.runs("outage")) {
        outageStage();
      }
      if (o.runs("compare")) {
        compareStage();
      }
      lagReport();
      if (o.runs("cost")) {
        costStage(root);
      }
      report.line("");
      report.line("Load average at the end: %s.", Report.loadAverage());
      report.writeTo(root.resolve("report.md"));
    } finally {
      stopServers();
      Runtime.getRuntime().removeShutdownHook(stopper);
    }
  }

  private void header(Path root) {
    report.line("Replication measurement, %s", java.time.LocalDateTime.now().withNano(0));
    report.line("");
    report.line(
        "Two `%s standalone` servers (A -> B, peer %s), heap %s each%s; work directory %s.",
        o.launcher(),
        PEER,
        o.heap(),
        o.serverSettings().isEmpty() ? "" : ", settings " + o.serverSettings(),
        root);
    report.line(
        "Runner: %,d records, %d threads, %d regions, warm-up %d s, A measured %d s, JVM `%s`."
            + " Machine: %d CPUs; load average at the start %s.",
        o.records(),
        o.threads(),
        o.regions(),
        o.warmupSeconds(),
        o.maxSeconds(),
        o.runnerOpts(),
        Runtime.getRuntime().availableProcessors(),
        Report.loadAverage());
    report.line("");
  }

  /** The probe alone, then under the runner's load and A phases. */
  private void lagStage(Path root) throws Exception {
    stage("idle");
    Thread.sleep(o.idleSeconds() * 1_000);
    stage("load");
    ThreadCpu a0 = ThreadCpu.of(a.pid());
    ThreadCpu b0 = ThreadCpu.of(b.pid());
    long t0 = System.nanoTime();
    RunnerProcess.Result r =
        RunnerProcess.run(
            o.runnerOpts(),
            runnerArgs("load,a", "lag"),
            root.resolve("runner.log"),
            phase -> stage(phase.name().equals("load") ? "A" : "after A"));
    double seconds = (System.nanoTime() - t0) / 1e9;
    ThreadCpu a1 = ThreadCpu.of(a.pid());
    ThreadCpu b1 = ThreadCpu.of(b.pid());
    long drain = probe.awaitCaughtUp(CATCH_UP_TIMEOUT_MILLIS);
    awaitPendingMarkers();
    stage("idle after");
    report.line(
        "Runner (exit %d): load %,.0f inserts/s in %.1f s, A %,.0f ops/s (update p50/p99 %s µs)"
            + " with the peer. B had everything %,d ms after the runner ended. CPU over the"
            + " runner's %.0f s: A %.2f cores (its replication threads %.2f), B %.2f cores.",
        r.exitStatus(),
        r.phase("load").opsPerSecond(),
        r.phase("load").seconds(),
        r.phase("a").opsPerSecond(),
        latency(r, "a", "UPDATE"),
        drain,
        seconds,
        cores(a1.millisSince(a0), seconds),
        cores(a1.millisSince(a0, "replication-"), seconds),
        cores(b1.millisSince(b0), seconds));
    Thread.sleep(o.idleSeconds() * 1_000);
  }

  /** B down for the outage while A takes rows; then how long until B has all of them. */
  private void outageStage() throws Exception {
    awaitPendingMarkers();
    probe.pause();
    Thread.sleep(200); // a poll in flight ends before its connection closes
    stage("outage");
    cb.close();
    long downAt = System.nanoTime();
    if (o.outageMode() == MeasureOptions.OutageMode.STOP) {
      b.stop();
    } else {
      b.pause();
    }
    double stopSeconds = (System.nanoTime() - downAt) / 1e9;
    report.note(
        "B down (%s, %.1f s); writing for %d s", o.outageMode(), stopSeconds, o.outageSeconds());
    OutageWriter.Result w =
        OutageWriter.write(ca, TABLE, FAMILY, o.outageRate(), o.outageThreads(), o.outageSeconds());
    byte[] last = (OutageWriter.PREFIX + "end").getBytes(StandardCharsets.UTF_8);
    try (Table t = ca.getTable(TABLE)) {
      t.put(new Put(last).addColumn(FAMILY, "sent".getBytes(StandardCharsets.UTF_8), last));
    }
    long expected = TableCompare.countRows(ca, TABLE, OutageWriter.PREFIX);
    report.note("%,d rows on A; bringing B back", expected);
    stage("catch-up");
    long back = System.nanoTime();
    if (o.outageMode() == MeasureOptions.OutageMode.STOP) {
      b.start();
      b.awaitReady();
    } else {
      b.resume();
    }
    long ready = System.nanoTime();
    cb = ConnectionFactory.createConnection(conf(b));
    long marker = -1;
    try (Table t = cb.getTable(TABLE)) {
      long deadline = ready + CATCH_UP_TIMEOUT_MILLIS * 1_000_000;
      while (System.nanoTime() < deadline) {
        try {
          if (t.exists(new Get(last))) {
            marker = System.nanoTime();
            break;
          }
        } catch (IOException e) {
          // B's regions may still be opening
        }
        Thread.sleep(LagProbe.POLL_MILLIS);
      }
    }
    long onB = -1;
    long counted = -1;
    long deadline = System.nanoTime() + CATCH_UP_TIMEOUT_MILLIS * 1_000_000;
    while (System.nanoTime() < deadline) {
      onB = TableCompare.countRows(cb, TABLE, OutageWriter.PREFIX);
      if (onB >= expected) {
        counted = System.nanoTime();
        break;
      }
      Thread.sleep(500);
    }
    report.line(
        "Outage: B %s (%.1f s to go down), %,d rows written to A in %.0f s (%,.0f rows/s, %,d"
            + " errors), then B back: %s; the row written last on B %s after that; B's count of"
            + " the outage rows %,d of %,d on A (counted %s after B was back; a count scan takes"
            + " a few seconds).",
        o.outageMode() == MeasureOptions.OutageMode.STOP
            ? "stopped with SIGTERM and started again on the same root and ports"
            : "paused with SIGSTOP and resumed with SIGCONT",
        stopSeconds,
        w.rows(),
        w.seconds(),
        w.rate(),
        w.errors(),
        o.outageMode() == MeasureOptions.OutageMode.STOP
            ? String.format(Locale.ROOT, "launch to ready %.2f s", (ready - back) / 1e9)
            : "resumed",
        marker < 0 ? "NOT SEEN" : String.format(Locale.ROOT, "%.2f s", (marker - ready) / 1e9),
        onB,
        expected,
        counted < 0 ? "never" : String.format(Locale.ROOT, "%.2f s", (counted - ready) / 1e9));
    probe.resume(cb);
    stage("after outage");
    Thread.sleep(o.idleSeconds() * 1_000);
  }

  /** Everything on A is on B, cell by cell, once B has caught up. */
  private void compareStage() throws Exception {
    awaitPendingMarkers();
    probe.pause();
    long t = probe.awaitCaughtUp(CATCH_UP_TIMEOUT_MILLIS);
    long t0 = System.nanoTime();
    TableCompare.Outcome outcome = TableCompare.compare(ca, cb, TABLE);
    report.line(
        "Row-by-row comparison of `usertable` on A and B (after B caught up in %,d ms, %.1f s):"
            + " %s.",
        t, (System.nanoTime() - t0) / 1e9, outcome);
    probe.resume(cb);
  }

  private void lagReport() throws InterruptedException {
    awaitPendingMarkers();
    probe.pause();
    report.line("");
    report.lagTable(probe.lags(), probe.putLatencies(), probe.pollLatencies(), sampler.figures());
    report.line(
        "Markers never seen on B: %d; probe errors %d; sampler errors %d.",
        probe.pendingCount(), probe.errors(), sampler.errors());
    report.line("");
  }

  /** Phase A with and without the peer, alternating which goes first. */
  private void costStage(Path root) throws Exception {
    removePeer(PEER);
    report.line(
        "| run | peer | A ops/s | update p50 / p99 µs | read p50 / p99 µs | A's CPU, cores"
            + " | its replication threads | B's CPU | B had everything after |");
    report.line("| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: |");
    List<Double> without = new ArrayList<>();
    List<Double> with = new ArrayList<>();
    for (int run = 1; run <= o.costRuns(); run++) {
      boolean peerFirst = run % 2 == 0;
      for (int k = 0; k < 2; k++) {
        boolean peer = (k == 0) == peerFirst;
        String id = "cost" + run;
        if (peer) {
          addPeer(id);
        }
        ThreadCpu a0 = ThreadCpu.of(a.pid());
        ThreadCpu b0 = ThreadCpu.of(b.pid());
        long t0 = System.nanoTime();
        RunnerProcess.Result r =
            RunnerProcess.run(
                o.runnerOpts(),
                runnerArgs("a", (peer ? "peer" : "nopeer") + run),
                root.resolve("runner.log"),
                phase -> {});
        double seconds = (System.nanoTime() - t0) / 1e9;
        ThreadCpu a1 = ThreadCpu.of(a.pid());
        ThreadCpu b1 = ThreadCpu.of(b.pid());
        long drain = peer ? probe.awaitCaughtUp(CATCH_UP_TIMEOUT_MILLIS) : -1;
        if (peer) {
          removePeer(id);
        }
        double ops = r.phase("a").opsPerSecond();
        (peer ? with : without).add(ops);
        report.line(
            "| %d | %s | %,.0f | %s | %s | %.2f | %.2f | %.2f | %s |",
            run,
            peer ? "yes" : "no",
            ops,
            latency(r, "a", "UPDATE"),
            latency(r, "a", "READ"),
            cores(a1.millisSince(a0), seconds),
            cores(a1.millisSince(a0, "replication-"), seconds),
            cores(b1.millisSince(b0), seconds),
            peer ? String.format(Locale.ROOT, "%,d ms", drain) : "");
      }
    }
    double w = mean(with);
    double n = mean(without);
    report.line("");
    report.line(
        "A without the peer: mean %,.0f ops/s (%,.0f-%,.0f); with the peer: mean %,.0f ops/s"
            + " (%,.0f-%,.0f); with / without = %.2f.",
        n, min(without), max(without), w, min(with), max(with), w / n);
  }

  private List<String> runnerArgs(String workloads, String label) {
    return List.of(
        "--zookeeper",
        a.quorum(),
        "--workloads",
        workloads,
        "--records",
        Long.toString(o.records()),
        "--operations",
        "100000000",
        "--threads",
        Integer.toString(o.threads()),
        "--regions",
        Integer.toString(o.regions()),
        "--warmup",
        Long.toString(o.warmupSeconds()),
        "--max-seconds",
        Long.toString(o.maxSeconds()),
        "--label",
        label);
  }

  private void stage(String name) {
    probe.stage(name);
    sampler.stage(name);
    report.note("stage %s (load average %s)", name, Report.loadAverage());
  }

  /** Waits (up to 2 minutes) until every marker written so far has been seen on B. */
  private void awaitPendingMarkers() throws InterruptedException {
    long deadline = System.currentTimeMillis() + 120_000;
    while (probe.pendingCount() > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
  }

  /** The runner's table on one cluster, pre-split as the runner splits it, family scope 1. */
  private void createTable(Connection c) throws IOException {
    byte[][] splits = new byte[o.regions() - 1][];
    for (int i = 1; i < o.regions(); i++) { // KeyNames.splitPoints of the runner
      splits[i - 1] =
          ("user" + (1000 + (long) i * (9999 - 1000) / o.regions()))
              .getBytes(StandardCharsets.UTF_8);
    }
    try (Admin admin = c.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                      .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                      .build())
              .build(),
          splits);
    }
  }

  private void addPeer(String id) throws IOException {
    try (Admin admin = ca.getAdmin()) {
      admin.addReplicationPeer(
          id, ReplicationPeerConfig.newBuilder().setClusterKey(b.clusterKey()).build());
    }
  }

  private void removePeer(String id) throws IOException {
    try (Admin admin = ca.getAdmin()) {
      admin.removeReplicationPeer(id);
    }
  }

  /**
   * A client of one server. Short timeouts and few retries: the probe asks B many times a second
   * and must not hang in the client's default retries (minutes) while B is away.
   */
  private static Configuration conf(ServerProcess s) {
    Configuration c = HBaseConfiguration.create();
    c.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
    c.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, s.zooKeeperPort);
    c.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 5);
    c.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 10_000);
    c.setInt(HConstants.HBASE_RPC_TIMEOUT_KEY, 5_000);
    return c;
  }

  private void stopServers() {
    for (ServerProcess s : new ServerProcess[] {a, b}) {
      if (s == null) {
        continue;
      }
      try {
        s.resume(); // a paused server cannot act on SIGTERM
      } catch (Exception e) {
        // not running
      }
      try {
        s.stop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String latency(RunnerProcess.Result r, String phase, String op) {
    long[] l = r.latency(phase, op);
    return l == null ? "?" : String.format(Locale.ROOT, "%,d / %,d", l[0], l[1]);
  }

  private static double cores(long cpuMillis, double seconds) {
    return cpuMillis / 1000.0 / seconds;
  }

  private static double mean(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double min(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double max(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }
}
