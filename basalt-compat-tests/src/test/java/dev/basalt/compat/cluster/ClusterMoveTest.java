package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * S2: ten {@code Admin.move} calls while a probe writes and reads every 50 ms. No client operation
 * fails, and the client finds each moved region through the old server's RegionMovedException
 * rather than hbase:meta: about one meta lookup per move at most.
 */
@ExtendWith(SharedCluster.class)
class ClusterMoveTest {
  private static final TableName TABLE = TableName.valueOf("s2_moves");
  private static final int REGIONS = 12;
  private static final int MOVES = 10;

  /**
   * Lookups allowed beyond one per move. The client's lookups after a move come from answers that
   * clear its cache (NotServingRegionException while the old server flushes and closes the region;
   * HBase answers the same in that window).
   */
  private static final int LOOKUP_SLACK = 2;

  /** The probe's longest wait; the design asks for under 1 s, this leaves room for a busy host. */
  private static final long MAX_GAP_MILLIS = 5_000;

  @AfterAll
  static void dropTable() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.drop(admin, TABLE);
    }
  }

  @Test
  void tenMovesUnderLoadFailNothingAndCostAboutOneMetaLookupEach() throws Exception {
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin()) {
      ClusterTables.create(admin, TABLE, REGIONS);
      List<ServerName> servers = new ArrayList<>();
      for (LocalClusterNode rs : SharedCluster.cluster().regionServers()) {
        servers.add(ServerName.valueOf(rs.serverName().toString()));
      }
      try (Probe probe =
          Probe.start(
              SharedCluster.clientConf(SharedCluster.cluster()),
              TABLE,
              ClusterTables.rowPerRegion(REGIONS, "probe"))) {
        probe.awaitRound();
        List<HRegionLocation> before = ClusterTables.locations(c, TABLE);
        List<Long> moveMillis = new ArrayList<>();
        for (int i = 0; i < MOVES; i++) {
          HRegionLocation l = before.get(i);
          ServerName from = l.getServerName();
          ServerName to = servers.get((servers.indexOf(from) + 1) % servers.size());
          long t0 = System.nanoTime();
          admin.move(l.getRegion().getEncodedNameAsBytes(), to);
          moveMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
          probe.awaitRound(); // the probe has been to the moved region since
        }
        Probe.Stats stats = probe.finish();
        System.out.printf("S2: %d moves took %s ms; probe: %s%n", MOVES, moveMillis, stats);

        List<HRegionLocation> after = ClusterTables.locations(c, TABLE);
        for (int i = 0; i < MOVES; i++) {
          ServerName from = before.get(i).getServerName();
          ServerName to = servers.get((servers.indexOf(from) + 1) % servers.size());
          assertThat(after.get(i).getServerName()).as("region %d", i).isEqualTo(to);
          assertThat(after.get(i).getSeqNum())
              .as("open sequence number of region %d grows with the move", i)
              .isGreaterThan(before.get(i).getSeqNum());
        }
        assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
        assertThat(stats.warmUpMetaScans())
            .as("the client counts its meta scans (it looked up its regions once)")
            .isPositive();
        assertThat(stats.metaScans())
            .as("meta lookups of the probe's client: %s", stats)
            .isLessThanOrEqualTo(MOVES + LOOKUP_SLACK);
        assertThat(stats.maxGapMillis())
            .as("longest probe gap: %s", stats)
            .isLessThan(MAX_GAP_MILLIS);
      }
    }
  }
}
