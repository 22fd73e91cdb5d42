package dev.basalt.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.LocalCluster;
import dev.basalt.server.cluster.LocalClusterNode;
import dev.basalt.server.standalone.StandaloneServer;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replication with a cluster on either side (the shared one: child JVMs, three region servers) and
 * a standalone server in this JVM: every region server ships its own log, a sink that receives rows
 * of regions served elsewhere passes them on, a region server killed with edits its peer has not
 * received hands its queue to a live one, which ships them, and a serial peer gets a region's edits
 * in order across a move and the death of its first server.
 */
@ExtendWith(SharedCluster.class)
class ClusterReplicationTest {
  private static final int REGIONS = 12;
  private static final Duration CONVERGE = Duration.ofSeconds(90);

  private static Path dir;
  private static StandaloneServer standalone;
  private static Connection sc;
  private final List<TableName> tables = new ArrayList<>();
  private final List<String> clusterPeers = new ArrayList<>();

  @BeforeAll
  static void startStandalone() throws IOException {
    dir = Files.createTempDirectory("basalt-cluster-replication");
    standalone =
        StandaloneServer.start(
            Config.builder()
                .set(StandaloneSettings.ROOT_DIR.key(), dir.resolve("data").toString())
                .set(StandaloneSettings.MASTER_PORT.key(), "0")
                .set(StandaloneSettings.REGIONSERVER_PORT.key(), "0")
                .set(StandaloneSettings.ZOOKEEPER_PORT.key(), "0")
                .set(StandaloneSettings.BIND_ADDRESS.key(), "127.0.0.1")
                .set("basalt.replication.peer.refresh", "200")
                .build());
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", standalone.zooKeeperPort());
    conf.setInt("hbase.client.operation.timeout", 60_000);
    sc = ConnectionFactory.createConnection(conf);
  }

  @AfterAll
  static void stopStandalone() throws IOException {
    if (sc != null) {
      sc.close();
    }
    if (standalone != null) {
      standalone.close();
    }
  }

  /** The scenarios kill or stop region servers: each starts with all three again. */
  @BeforeEach
  void threeRegionServers() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    int missing = SharedCluster.REGION_SERVERS - cluster.regionServers().size();
    if (missing > 0) {
      cluster.addRegionServers(missing);
    }
  }

  @AfterEach
  void cleanUp() throws Exception {
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      for (String p : clusterPeers) {
        admin.removeReplicationPeer(p);
      }
      for (TableName t : tables) {
        ClusterTables.drop(admin, t);
      }
    }
  }

  private static String standaloneKey() {
    return "127.0.0.1:" + standalone.zooKeeperPort() + ":/hbase";
  }

  private static String clusterKey(LocalCluster c) {
    return c.zooKeeperQuorum() + ":" + c.zooKeeperPort() + ":/hbase";
  }

  /** The table, family cf replicated, on the cluster (12 regions) and the standalone server. */
  private void createOnBoth(TableName t) throws IOException {
    ColumnFamilyDescriptorBuilder cf =
        ColumnFamilyDescriptorBuilder.newBuilder(ClusterTables.CF)
            .setScope(HConstants.REPLICATION_SCOPE_GLOBAL);
    byte[][] splits = new byte[REGIONS - 1][];
    for (int i = 1; i < REGIONS; i++) {
      splits[i - 1] = Bytes.toBytes(String.format("r%03d", i));
    }
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t).setColumnFamily(cf.build()).build(), splits);
    }
    tables.add(t);
    try (Admin admin = sc.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(cf.build()).build());
    }
  }

  private static ReplicationPeerConfig peerTo(String key, TableName t) {
    Map<TableName, List<String>> cfs = new HashMap<>();
    cfs.put(t, null);
    return ReplicationPeerConfig.newBuilder()
        .setClusterKey(key)
        .setReplicateAllUserTables(false)
        .setTableCFsMap(cfs)
        .build();
  }

  private static void write(Connection c, TableName t, String suffix, int n) throws IOException {
    try (Table table = c.getTable(t)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        puts.add(
            new Put(ClusterTables.rowIn(i % REGIONS, suffix + i))
                .addColumn(ClusterTables.CF, ClusterTables.Q, Bytes.toBytes(i)));
      }
      table.put(puts);
    }
  }

  private static TreeSet<String> rows(Connection c, TableName t) {
    TreeSet<String> out = new TreeSet<>();
    try (Table table = c.getTable(t);
        ResultScanner rs = table.getScanner(new Scan())) {
      for (Result r : rs) {
        out.add(
            Bytes.toString(r.getRow())
                + "="
                + Bytes.toInt(r.getValue(ClusterTables.CF, ClusterTables.Q)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static void awaitSame(Connection from, Connection to, TableName t, int expected)
      throws InterruptedException {
    TreeSet<String> want = rows(from, t);
    assertThat(want).hasSize(expected);
    long deadline = System.nanoTime() + CONVERGE.toNanos();
    TreeSet<String> got = rows(to, t);
    while (!got.equals(want)) {
      if (System.nanoTime() > deadline) {
        TreeSet<String> missing = new TreeSet<>(want);
        missing.removeAll(got);
        throw new AssertionError(
            missing.size()
                + " of "
                + want.size()
                + " rows did not arrive, e.g. "
                + missing.first());
      }
      Thread.sleep(100);
      got = rows(to, t);
    }
  }

  @Test
  void everyRegionServerShipsAndTheSinkPassesRowsOnToTheirRegions() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    TableName t = TableName.valueOf("repl_both_ways");
    createOnBoth(t);
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      admin.addReplicationPeer("tostandalone", peerTo(standaloneKey(), t));
      clusterPeers.add("tostandalone");
    }
    write(SharedCluster.connection(), t, "c", 600);
    awaitSame(SharedCluster.connection(), sc, t, 600);

    // The other way: the standalone server ships to a random region server of the cluster, which
    // applies what it serves and sends the rest to the servers of their regions.
    TableName back = TableName.valueOf("repl_into_cluster");
    createOnBoth(back);
    try (Admin admin = sc.getAdmin()) {
      admin.addReplicationPeer("tocluster", peerTo(clusterKey(cluster), back));
    }
    try {
      write(sc, back, "s", 600);
      awaitSame(sc, SharedCluster.connection(), back, 600);
    } finally {
      try (Admin admin = sc.getAdmin()) {
        admin.removeReplicationPeer("tocluster");
      }
    }
  }

  @Test
  void aGracefullyStoppedRegionServersUnshippedEditsAreShippedByAnother() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    TableName t = TableName.valueOf("repl_stop");
    createOnBoth(t);
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      admin.addReplicationPeer("stopped", peerTo(standaloneKey(), t));
      clusterPeers.add("stopped");
      admin.disableReplicationPeer("stopped");
      write(SharedCluster.connection(), t, "held", 240);
      ServerName victim =
          ClusterTables.regionsPerServer(SharedCluster.connection(), t).keySet().iterator().next();
      // SIGTERM: the server hands its regions over and stops; its log still holds edits its
      // source never shipped (the peer is disabled).
      cluster.stop(SharedCluster.regionServer(victim)); // exits 143 after its shutdown hook
      admin.enableReplicationPeer("stopped");
      awaitSame(SharedCluster.connection(), sc, t, 240);
    }
  }

  @Test
  void aSerialPeerGetsARegionsEditsInOrderAcrossAMove() throws Exception {
    TableName t = TableName.valueOf("repl_serial");
    createOnBoth(t);
    byte[] row = ClusterTables.rowIn(0, "serial");
    long ts = 1_000_000L; // one timestamp: the edit applied last on the peer wins
    Connection c = SharedCluster.connection();
    try (Admin admin = c.getAdmin();
        Table table = c.getTable(t)) {
      admin.addReplicationPeer(
          "serial",
          ReplicationPeerConfig.newBuilder(peerTo(standaloneKey(), t)).setSerial(true).build());
      clusterPeers.add("serial");
      admin.disableReplicationPeer("serial");
      for (int v = 1; v <= 40; v++) {
        table.put(new Put(row).addColumn(ClusterTables.CF, ClusterTables.Q, ts, Bytes.toBytes(v)));
      }
      HRegionLocation before = c.getRegionLocator(t).getRegionLocation(row, true);
      ServerName to = null;
      for (LocalClusterNode rs : SharedCluster.cluster().regionServers()) {
        ServerName s = ServerName.valueOf(rs.serverName().toString());
        if (!s.equals(before.getServerName())) {
          to = s;
        }
      }
      admin.move(before.getRegion().getEncodedNameAsBytes(), to);
      assertThat(c.getRegionLocator(t).getRegionLocation(row, true).getServerName()).isEqualTo(to);
      for (int v = 41; v <= 80; v++) {
        table.put(new Put(row).addColumn(ClusterTables.CF, ClusterTables.Q, ts, Bytes.toBytes(v)));
      }
      // The first life's edits now wait in a dead server's log until another server takes its
      // queue over, while the second life's queue could ship at once: only the serial rule keeps
      // them in order.
      SharedCluster.cluster().kill(SharedCluster.regionServer(before.getServerName()));
      admin.enableReplicationPeer("serial");
    }
    long deadline = System.nanoTime() + CONVERGE.toNanos();
    try (Table peer = sc.getTable(t)) {
      while (true) {
        byte[] v = peer.get(new Get(row)).getValue(ClusterTables.CF, ClusterTables.Q);
        if (v != null && Bytes.toInt(v) == 80) {
          break;
        }
        assertThat(System.nanoTime())
            .as("the peer's value, last %s", v == null ? null : Bytes.toInt(v))
            .isLessThan(deadline);
        Thread.sleep(100);
      }
      Thread.sleep(2_000); // anything still in flight would land now, out of order
      assertThat(Bytes.toInt(peer.get(new Get(row)).getValue(ClusterTables.CF, ClusterTables.Q)))
          .as("the edits of the region's first life arrived before those of its second")
          .isEqualTo(80);
    }
  }

  @Test
  void aKilledRegionServersUnshippedEditsAreShippedByTheServerThatTakesItsQueue() throws Exception {
    LocalCluster cluster = SharedCluster.cluster();
    TableName t = TableName.valueOf("repl_kill");
    createOnBoth(t);
    try (Admin admin = SharedCluster.connection().getAdmin()) {
      admin.addReplicationPeer("killed", peerTo(standaloneKey(), t));
      clusterPeers.add("killed");
      write(SharedCluster.connection(), t, "before", 240);
      awaitSame(SharedCluster.connection(), sc, t, 240);
      // Held back: these edits exist only in the region servers' logs and queues.
      admin.disableReplicationPeer("killed");
      write(SharedCluster.connection(), t, "held", 360);
      ServerName victim =
          ClusterTables.regionsPerServer(SharedCluster.connection(), t).keySet().iterator().next();
      LocalClusterNode node = SharedCluster.regionServer(victim);
      long t0 = System.nanoTime();
      cluster.kill(node);
      admin.enableReplicationPeer("killed");
      awaitSame(SharedCluster.connection(), sc, t, 600);
      System.out.printf(
          "the rows of killed region server %s arrived %d ms after the kill%n",
          victim, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }
  }
}
