package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * S11, graceful stop: SIGTERM to the region server with the most regions while a probe runs. The
 * server has the master move its regions away before it exits, so once it is gone every region of
 * the table is open on the other servers (none waits for log recovery), and no client operation
 * fails.
 */
@ExtendWith(SharedCluster.class)
class ClusterGracefulStopTest {
  private static final TableName TABLE = TableName.valueOf("s11_graceful");
  private static final int REGIONS = 12;

  /** The design's bound for the probe's longest gap is 2 s; this leaves room for a busy host. */
  private static final long MAX_GAP_MILLIS = 5_000;

  @AfterAll
  static void dropTable() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.drop(admin, TABLE);
    }
  }

  @Test
  void sigtermMovesTheRegionsAwayBeforeTheServerExits() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin()) {
      ClusterTables.create(admin, TABLE, REGIONS);
    }
    Map<ServerName, Integer> before = ClusterTables.regionsPerServer(c, TABLE);
    ServerName busiest =
        before.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    LocalClusterNode victim = SharedCluster.regionServer(busiest);
    try (Probe probe =
        Probe.start(
            SharedCluster.clientConf(cluster), TABLE, ClusterTables.rowPerRegion(REGIONS, "p"))) {
      probe.awaitRound();
      long t0 = System.nanoTime();
      int exit = cluster.stop(victim); // SIGTERM; returns once the process ended
      long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      // at the moment it is gone: every region open elsewhere, none left behind on it
      Map<ServerName, Integer> after = ClusterTables.regionsPerServer(c, TABLE);
      probe.awaitRound();
      Probe.Stats stats = probe.finish();
      System.out.printf(
          "S11: SIGTERM of %s (%d regions) took %d ms (exit status %d), then %s; probe: %s%n",
          busiest, before.get(busiest), stopMillis, exit, after, stats);
      assertThat(after).doesNotContainKey(busiest);
      assertThat(after.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(REGIONS);
      assertThat(ClusterInvariants.readMeta(c).get(TABLE))
          .allSatisfy(row -> assertThat(row.state()).as("%s", row.region()).isEqualTo("OPEN"));
      assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
      assertThat(stats.maxGapMillis())
          .as("longest probe gap: %s", stats)
          .isLessThan(MAX_GAP_MILLIS);
    }
    cluster.addRegionServer(); // back to three for the invariants and the next scenario
  }
}
