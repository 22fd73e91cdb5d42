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
 * S3, rebalancing after a server joins: with two region servers a 12-region table sits 6 + 6; a
 * third server starts and {@code Admin.balance()} brings every server to 4 ± 1 (within 10 s), while
 * a probe's operations all succeed.
 */
@ExtendWith(SharedCluster.class)
class ClusterBalanceTest {
  private static final TableName TABLE = TableName.valueOf("s3_balance");
  private static final int REGIONS = 12;

  @AfterAll
  static void dropTable() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.drop(admin, TABLE);
    }
  }

  @Test
  void aJoiningServerGetsItsShareOnBalance() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    Connection c = SharedCluster.connection();
    SharedCluster.dropAllTables(); // the balancer counts every table's regions
    LocalClusterNode leaving = cluster.regionServers().get(0);
    cluster.stop(leaving); // holds no region now: it just leaves
    ClusterInvariants.assertHold(c, cluster);
    try (Admin admin = c.getAdmin()) {
      ClusterTables.create(admin, TABLE, REGIONS);
      assertThat(ClusterTables.regionsPerServer(c, TABLE).values()).containsExactly(6, 6);
      try (Probe probe =
          Probe.start(
              SharedCluster.clientConf(cluster), TABLE, ClusterTables.rowPerRegion(REGIONS, "p"))) {
        probe.awaitRound();
        LocalClusterNode joined = cluster.addRegionServer();
        ServerName joinedName = ServerName.valueOf(joined.serverName().toString());
        long t0 = System.nanoTime();
        assertThat(admin.balance()).as("the balancer ran").isTrue();
        Map<ServerName, Integer> per = ClusterTables.regionsPerServer(c, TABLE);
        long balanceMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        probe.awaitRound();
        Probe.Stats stats = probe.finish();
        System.out.printf("S3: balance took %d ms, now %s; probe: %s%n", balanceMillis, per, stats);
        assertThat(balanceMillis).isLessThan(10_000);
        assertThat(per).containsKey(joinedName).hasSize(3);
        assertThat(per.values()).allSatisfy(n -> assertThat(n).isBetween(3, 5));
        assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
      }
    }
  }
}
