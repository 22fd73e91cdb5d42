package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failover scenarios of the distributed-mode notes (S4, S5, S7) through the stock client, with a
 * probe (put + get every 50 ms, one row per region) running throughout:
 *
 * <ul>
 *   <li>kill -9 of the region server with the most regions: its port refuses connections, the
 *       master declares it dead, fences and splits its log, and its regions open on the others with
 *       every acknowledged write;
 *   <li>SIGSTOP of a region server (a host-like failure: it keeps its sockets): after its ZooKeeper
 *       session expires the master fences its log by killing it (same host), and its regions open
 *       elsewhere; it never answers again;
 *   <li>kill -9 of the active master: the standby takes over, data operations on cached regions
 *       never fail meanwhile, and DDL works again.
 * </ul>
 *
 * Times are printed (docs/PERFORMANCE.md has the measured figures); the assertions are about
 * safety: no acknowledged write lost, no probe operation failed, every region open on one server
 * (the invariants the shared cluster checks after each test).
 */
@ExtendWith(SharedCluster.class)
class ClusterCrashTest {
  private static final int REGIONS = 12;
  private static final int ROWS = 600;

  /** Generous for a busy two-CPU host; the figures to watch are the printed ones. */
  private static final long MAX_GAP_MILLIS = 30_000;

  private final List<TableName> tables = new ArrayList<>();

  @AfterEach
  void dropTables() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      for (TableName t : tables) {
        ClusterTables.drop(admin, t);
      }
    }
  }

  private TableName createTable(String name) throws Exception {
    TableName t = TableName.valueOf(name);
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      ClusterTables.create(admin, t, REGIONS);
    }
    tables.add(t);
    return t;
  }

  /** Writes ROWS rows across every region; each put is acknowledged before this returns. */
  private static void writeRows(Connection c, TableName t) throws Exception {
    try (Table table = c.getTable(t)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        byte[] row = ClusterTables.rowIn(i % REGIONS, "w" + i);
        puts.add(new Put(row).addColumn(ClusterTables.CF, ClusterTables.Q, Bytes.toBytes(i)));
      }
      table.put(puts);
    }
  }

  private static void assertRows(Connection c, TableName t) throws Exception {
    try (Table table = c.getTable(t)) {
      List<Get> gets = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        gets.add(new Get(ClusterTables.rowIn(i % REGIONS, "w" + i)));
      }
      Result[] results = table.get(gets);
      for (int i = 0; i < ROWS; i++) {
        byte[] v = results[i].getValue(ClusterTables.CF, ClusterTables.Q);
        assertThat(v).as("acknowledged row %d", i).isNotNull();
        assertThat(Bytes.toInt(v)).isEqualTo(i);
      }
    }
  }

  /** Milliseconds until meta names none of the table's regions on {@code gone}, all OPEN. */
  private static long awaitMovedOff(Connection c, TableName t, ServerName gone, long t0)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      List<ClusterInvariants.MetaRow> rows = ClusterInvariants.readMeta(c).get(t);
      boolean done =
          rows != null
              && rows.size() == REGIONS
              && rows.stream()
                  .allMatch(
                      r ->
                          "OPEN".equals(r.state())
                              && r.serverName() != null
                              && !r.serverName().equals(gone.getServerName()));
      if (done) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      }
      Thread.sleep(25);
    }
    throw new AssertionError("the regions of " + gone + " did not open elsewhere within 90 s");
  }

  private static ServerName busiest(Connection c, TableName t) throws Exception {
    Map<ServerName, Integer> per = ClusterTables.regionsPerServer(c, t);
    return per.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
  }

  /** What a scenario does to the region server it picked. */
  private interface Failure {
    void inflict(LocalCluster cluster, LocalClusterNode node) throws Exception;
  }

  /**
   * Writes rows, fails the region server with the most regions under the probe, waits until meta
   * has its regions open elsewhere, and checks that no probe operation failed and every row reads
   * back.
   *
   * @return the probe's figures, with the time until the regions were open elsewhere
   */
  private static String failBusiestRegionServer(String table, Failure failure) throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    Connection c = SharedCluster.connection();
    TableName t = TableName.valueOf(table);
    writeRows(c, t);
    ServerName victim = busiest(c, t);
    LocalClusterNode node = SharedCluster.regionServer(victim);
    String result;
    try (Probe probe =
        Probe.start(
            SharedCluster.clientConf(cluster), t, ClusterTables.rowPerRegion(REGIONS, "p"))) {
      probe.awaitRound();
      long t0 = System.nanoTime();
      failure.inflict(cluster, node);
      long reopened = awaitMovedOff(c, t, victim, t0);
      probe.awaitRound();
      Probe.Stats stats = probe.finish();
      result = victim + ": its regions open elsewhere after " + reopened + " ms; probe: " + stats;
      assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
      assertThat(stats.maxGapMillis()).as("%s", stats).isLessThan(MAX_GAP_MILLIS);
    }
    assertRows(c, t);
    assertThat(node.isAlive()).as("%s is gone", victim).isFalse();
    cluster.addRegionServer();
    return result;
  }

  @Test
  void killingTheBusiestRegionServerLosesNoAcknowledgedWrite() throws Exception {
    createTable("s4_kill_rs");
    String r = failBusiestRegionServer("s4_kill_rs", (cluster, node) -> cluster.kill(node));
    System.out.println("S4: kill -9 of " + r);
  }

  @Test
  void aPausedRegionServerIsFencedAndItsRegionsOpenElsewhere() throws Exception {
    createTable("s5_pause_rs");
    // the master fences its log by killing it once its session expired: gone, not merely paused
    String r = failBusiestRegionServer("s5_pause_rs", (cluster, node) -> cluster.suspend(node));
    System.out.println("S5: SIGSTOP (session timeout 10 s) of " + r);
  }

  @Test
  void killingTheActiveMasterLeavesDataOperationsServed() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    Connection c = SharedCluster.connection();
    TableName t = createTable("s7_kill_master");
    writeRows(c, t);
    LocalClusterNode active = cluster.awaitActiveMaster(Duration.ofSeconds(30));
    try (Probe probe =
        Probe.start(
            SharedCluster.clientConf(cluster), t, ClusterTables.rowPerRegion(REGIONS, "p"))) {
      probe.awaitRound();
      long t0 = System.nanoTime();
      cluster.kill(active);
      LocalClusterNode next = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (next == null && System.nanoTime() < deadline) {
        for (LocalClusterNode m : cluster.masters()) {
          if (m != active && m.isAlive() && m.isActiveMaster()) {
            next = m;
          }
        }
        Thread.sleep(25);
      }
      assertThat(next).as("a standby master took over").isNotNull();
      long tookOver = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      TableName ddl = createTable("s7_after_switch");
      long ddlWorks = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      probe.awaitRound();
      Probe.Stats stats = probe.finish();
      System.out.printf(
          "S7: kill -9 of active master %s: %s active after %d ms, a create table done after %d"
              + " ms; probe: %s%n",
          active.serverName(), next.serverName(), tookOver, ddlWorks, stats);
      assertThat(stats.failures()).as("failed probe operations: %s", stats).isZero();
      assertThat(ClusterTables.regionsPerServer(c, ddl).values().stream().mapToInt(i -> i).sum())
          .isEqualTo(REGIONS);
    }
    assertRows(c, t);
  }
}
