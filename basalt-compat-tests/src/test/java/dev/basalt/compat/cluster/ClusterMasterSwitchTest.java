package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A clean master switch (S13's master part): SIGTERM to the active master; the standby becomes
 * active, the client's Admin finds it (ZooKeeper's master znode) and DDL works again, and data
 * operations, which do not go through the master, never fail.
 */
@ExtendWith(SharedCluster.class)
class ClusterMasterSwitchTest {
  private static final TableName DATA = TableName.valueOf("switch_data");
  private static final TableName CREATED = TableName.valueOf("switch_created_after");

  @AfterAll
  static void dropTables() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.drop(admin, DATA);
      ClusterTables.drop(admin, CREATED);
    }
  }

  @Test
  void theStandbyTakesOverAndDdlWorksAfterwards() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin()) {
      ClusterTables.create(admin, DATA, 3);
    }
    LocalClusterNode active = cluster.awaitActiveMaster(Duration.ofSeconds(30));
    LocalClusterNode standby =
        cluster.masters().stream().filter(m -> m != active).findFirst().orElseThrow();
    try (Probe probe =
        Probe.start(SharedCluster.clientConf(cluster), DATA, ClusterTables.rowPerRegion(3, "p"))) {
      probe.awaitRound();
      long t0 = System.nanoTime();
      cluster.stop(active);
      LocalClusterNode next = cluster.awaitActiveMaster(Duration.ofSeconds(60));
      long switchMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertThat(next).isSameAs(standby);

      long t1 = System.nanoTime();
      try (Admin admin = c.getAdmin()) {
        assertThat(admin.getClusterMetrics().getMasterName())
            .isEqualTo(ServerName.valueOf(standby.serverName().toString()));
        ClusterTables.create(admin, CREATED, 4);
        assertThat(ClusterTables.locations(c, CREATED)).hasSize(4);
      }
      long ddlMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);
      try (Table t = c.getTable(CREATED)) {
        byte[] row = ClusterTables.rowIn(2, "after");
        t.put(new Put(row).addColumn(ClusterTables.CF, ClusterTables.Q, Bytes.toBytes("v")));
        assertThat(t.get(new Get(row)).getValue(ClusterTables.CF, ClusterTables.Q))
            .isEqualTo(Bytes.toBytes("v"));
      }
      probe.awaitRound();
      Probe.Stats stats = probe.finish();
      System.out.printf(
          "master switch: stop of %s to %s active %d ms, first DDL after it %d ms; probe: %s%n",
          active.id(), next.id(), switchMillis, ddlMillis, stats);
      assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
    }
    cluster.addMaster(); // two masters again
  }
}
