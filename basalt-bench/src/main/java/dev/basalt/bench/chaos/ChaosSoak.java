package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.ClusterSettings;
import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterOptions;
import dev.basalt.util.config.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The chaos soak of issue 28 (distributed-mode notes S12): a child-process {@link LocalCluster}
 * (ZooKeeper, 2 masters, 3 region servers on 127.0.0.1), linked-list writers and a probe through
 * the stock client, and fault actions ({@link ChaosActions}) at random by weight, or in the order
 * of {@code --plan}, until the time, the cycle count or the kill targets are reached. After every
 * action: the invariants ({@link ClusterCheck}), the probe's window, the cluster brought back to
 * its shape, the writers seen acknowledging again; in random mode one of the cluster's own
 * operations (move, split, merge, balance, flush, compaction) follows each fault. At the end the
 * writers stop and the verifier scans the table: the run passes with 0 lost, 0 undefined, 0
 * unreferenced nodes and every invariant check held. Prints one line per action and a summary
 * (median and max of each action's times); exit status 0 passed, 1 failed, 2 bad arguments. The
 * root with every process's log stays.
 *
 * <p>Run by basalt-bench/scripts/chaos-soak.sh, which builds and passes the server's class path.
 */
public final class ChaosSoak {
  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final long WRITER_PROGRESS_MILLIS = 90_000;
  private static final TableName LIST = TableName.valueOf("chaos_list");
  private static final TableName PROBE = TableName.valueOf("chaos_probe");
  private static final int PROBE_REGIONS = 6;
  private static final long PROBE_ROUND_MILLIS = 120_000;

  private final SoakOptions o;
  private final SoakSummary summary = new SoakSummary();
  private final long started = System.nanoTime();

  private ChaosSoak(SoakOptions o) {
    this.o = o;
  }

  public static void main(String[] args) throws Exception {
    SoakOptions o;
    try {
      o = SoakOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("ChaosSoak: " + e.getMessage());
      System.err.print(SoakOptions.USAGE);
      System.exit(2);
      return;
    }
    if (o.help) {
      System.out.print(SoakOptions.USAGE);
      return;
    }
    if (o.list) {
      SoakActions.names().forEach(System.out::println);
      return;
    }
    System.exit(new ChaosSoak(o).run() ? 0 : 1);
  }

  private boolean run() throws Exception {
    Path root = o.root != null ? o.root : Files.createTempDirectory("basalt-chaos-soak");
    say("machine: " + SoakSummary.machine());
    say("root and logs: " + root + "; seed " + o.seed);
    LocalClusterOptions.Builder b =
        LocalClusterOptions.builder(root)
            .masters(o.masters)
            .regionServers(o.regionServers)
            .classPath(o.classPath)
            .logbackConfig(o.logback)
            // balancing only when an action asks for it
            .set("hbase.balancer.period", Long.toString(TimeUnit.HOURS.toMillis(1)))
            .startTimeout(Duration.ofSeconds(180))
            .stopTimeout(Duration.ofSeconds(60));
    b.settings(o.settings);
    LocalCluster cluster = LocalCluster.start(b.build());
    try {
      say("cluster up: " + cluster.allNodes());
      Configuration conf = clientConf(cluster);
      try (Connection c = ConnectionFactory.createConnection(conf)) {
        return soak(cluster, c, conf);
      }
    } finally {
      cluster.killAll(); // the root is kept for its logs; nothing to stop cleanly
    }
  }

  private boolean soak(LocalCluster cluster, Connection c, Configuration conf) throws Exception {
    try (Admin admin = c.getAdmin()) {
      NodeKeys.createTable(admin, LIST, o.regions);
      GapProbe.createTable(admin, PROBE, PROBE_REGIONS);
    }
    Random random = new Random(o.seed);
    ChaosActions actions = new ChaosActions(cluster, c, conf, LIST, o.seed, this::say);
    SoakActions soak = new SoakActions(actions, random, sessionMillis());
    LinkedListWriter writer = LinkedListWriter.start(c, LIST, o.writers, o.rate, o.seed);
    GapProbe probe = GapProbe.start(conf, PROBE, PROBE_REGIONS);
    Iterator<String> plan = o.plan == null ? null : o.plan.iterator();
    try {
      writer.awaitAcknowledged(100, WRITER_PROGRESS_MILLIS);
      while (summary.failure == null && !done(plan)) {
        String name = plan != null ? plan.next() : soak.randomFault();
        summary.faultActions++;
        if (!step(name, soak, probe, cluster, c)) {
          break;
        }
        if (!restore(actions, cluster, c, writer)) {
          break;
        }
        if (o.churn() && !step(soak.randomChurn(), soak, probe, cluster, c)) {
          break;
        }
      }
    } finally {
      probe.close();
    }
    LinkedListWriter.Written w = writer.stop();
    LinkedListVerifier.Result verified = LinkedListVerifier.verify(c, LIST, w);
    summary.print(System.out, verified, w);
    say(
        "elapsed "
            + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)
            + " s; logs under "
            + cluster.logDirectory());
    return summary.failure == null && verified.passed();
  }

  private boolean done(Iterator<String> plan) {
    if (plan != null) {
      return !plan.hasNext();
    }
    if (TimeUnit.NANOSECONDS.toMinutes(System.nanoTime() - started) >= o.minutes) {
      return true;
    }
    if (summary.faultActions >= o.cycles) {
      return true;
    }
    return o.rsKillTarget > 0
        && summary.regionServersKilled >= o.rsKillTarget
        && summary.mastersKilled >= Math.max(0, o.masterKillTarget);
  }

  /** One action, then the invariants; false (and the failure noted) when either failed. */
  private boolean step(
      String name, SoakActions soak, GapProbe probe, LocalCluster cluster, Connection c)
      throws InterruptedException {
    probe.window(); // the window starts with the action
    SoakActions.Ran ran;
    try {
      ran = soak.run(name);
    } catch (IOException | RuntimeException e) {
      fail(name + " failed: " + e);
      return false;
    }
    long settle;
    try {
      settle = ClusterCheck.await(c, cluster, SETTLE);
      summary.checksPassed++;
    } catch (IllegalStateException e) {
      summary.checksFailed++;
      fail("after " + ran.report() + ": " + e.getMessage());
      return false;
    }
    try {
      // an operation stalled by the action (a location to look up in meta while no master serves
      // it) ends in this window, not in the next action's
      probe.awaitRound(PROBE_ROUND_MILLIS);
    } catch (IOException e) {
      fail("after " + ran.report() + ": " + e.getMessage());
      return false;
    }
    GapProbe.Window w = probe.window();
    summary.add(ran, w);
    say(
        String.format(
            "#%d %s; probe: %s; invariants held after %d ms",
            summary.faultActions, ran.report(), w, settle));
    return true;
  }

  /** The cluster back to its shape, the invariants, and the writers acknowledging again. */
  private boolean restore(
      ChaosActions actions, LocalCluster cluster, Connection c, LinkedListWriter writer)
      throws InterruptedException {
    try {
      long took = actions.restoreShape(o.masters, o.regionServers);
      ClusterCheck.await(c, cluster, SETTLE);
      summary.checksPassed++;
      writer.awaitAcknowledged(20, WRITER_PROGRESS_MILLIS);
      if (took > 100) {
        say(
            "  shape restored in "
                + took
                + " ms: "
                + cluster.masters().size()
                + " masters, "
                + cluster.regionServers().size()
                + " region servers");
      }
      return true;
    } catch (IllegalStateException e) {
      summary.checksFailed++;
      fail("after restoring the shape: " + e.getMessage());
      return false;
    } catch (IOException | RuntimeException e) {
      fail("restoring the shape: " + e);
      return false;
    }
  }

  private void fail(String why) {
    summary.failure = why;
    say("FAILURE: " + why);
  }

  private long sessionMillis() {
    ConfigKey<Integer> key = ClusterSettings.ZOOKEEPER_SESSION_TIMEOUT;
    String v = o.settings.get(key.key());
    return v == null ? key.defaultValue() : Long.parseLong(v);
  }

  private void say(String line) {
    System.out.println("[" + LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + "] " + line);
  }

  static Configuration clientConf(LocalCluster cluster) {
    Configuration conf = HBaseConfiguration.create();
    cluster.clientSettings().forEach(conf::set);
    conf.setInt("hbase.rpc.timeout", 20_000);
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.setInt("hbase.client.meta.operation.timeout", 60_000);
    return conf;
  }
}
