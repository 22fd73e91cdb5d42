package dev.basalt.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationLoadSink;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication between three Basalt standalone servers in this JVM (each with its own ports,
 * ZooKeeper and root), driven through the stock client's Admin API as an HBase operator would:
 * one-way with a replicated and a local family, master-master, a ring of three, a peer down for a
 * while, peers kept across a restart, and the refusals of bad peers. Each test uses its own tables
 * and peers limited to them (and removes its peers), so the tests share the three servers.
 */
class StockClientReplicationTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  private static final byte[] LOCAL = Bytes.toBytes("local");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final Duration CONVERGE = Duration.ofSeconds(60);

  @TempDir static Path dir;
  static StandaloneCluster a;
  static StandaloneCluster b;
  static StandaloneCluster c;
  static Connection ca;
  static Connection cb;
  static Connection cc;

  @BeforeAll
  static void start() throws IOException {
    Map<String, String> fast = Map.of("basalt.replication.peer.refresh", "200");
    a = StandaloneCluster.start(dir.resolve("a"), fast);
    b = StandaloneCluster.start(dir.resolve("b"), fast);
    c = StandaloneCluster.start(dir.resolve("c"), fast);
    ca = ConnectionFactory.createConnection(a.zooKeeperClientConf());
    cb = ConnectionFactory.createConnection(b.zooKeeperClientConf());
    cc = ConnectionFactory.createConnection(c.zooKeeperClientConf());
  }

  @AfterAll
  static void stop() throws IOException {
    for (Connection conn : new Connection[] {ca, cb, cc}) {
      if (conn != null) {
        conn.close();
      }
    }
    for (StandaloneCluster s : new StandaloneCluster[] {a, b, c}) {
      if (s != null) {
        s.close();
      }
    }
  }

  static String key(StandaloneCluster s) {
    return "127.0.0.1:" + s.zooKeeperPort() + ":/hbase";
  }

  /** A table with a replicated family {@code cf} and a local one, created on each connection. */
  static void createEverywhere(TableName t, Connection... on) throws IOException {
    for (Connection conn : on) {
      try (Admin admin = conn.getAdmin()) {
        admin.createTable(
            TableDescriptorBuilder.newBuilder(t)
                .setColumnFamily(
                    ColumnFamilyDescriptorBuilder.newBuilder(CF)
                        .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                        .setMaxVersions(5)
                        .build())
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(LOCAL))
                .build());
      }
    }
  }

  /** A peer of {@code from} to {@code to}, limited to {@code tables}. */
  static void addPeer(Connection from, String id, StandaloneCluster to, TableName... tables)
      throws IOException {
    Map<TableName, List<String>> tableCfs = new HashMap<>();
    for (TableName t : tables) {
      tableCfs.put(t, null);
    }
    try (Admin admin = from.getAdmin()) {
      admin.addReplicationPeer(
          id,
          ReplicationPeerConfig.newBuilder()
              .setClusterKey(key(to))
              .setReplicateAllUserTables(false)
              .setTableCFsMap(tableCfs)
              .build());
    }
  }

  static void removePeers(Connection conn, String... ids) {
    try (Admin admin = conn.getAdmin()) {
      for (String id : ids) {
        admin.removeReplicationPeer(id);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void put(Connection conn, TableName t, String row, byte[] family, String value)
      throws IOException {
    try (Table table = conn.getTable(t)) {
      table.put(new Put(Bytes.toBytes(row)).addColumn(family, Q, Bytes.toBytes(value)));
    }
  }

  /** Every cell of the table as "row/family:qualifier/timestamp=value", in order. */
  static List<String> cells(Connection conn, TableName t) {
    List<String> out = new ArrayList<>();
    try (Table table = conn.getTable(t);
        ResultScanner rs = table.getScanner(new Scan().readAllVersions())) {
      for (Result r : rs) {
        for (Cell cell : r.rawCells()) {
          out.add(
              Bytes.toString(CellUtil.cloneRow(cell))
                  + "/"
                  + Bytes.toString(CellUtil.cloneFamily(cell))
                  + ":"
                  + Bytes.toString(CellUtil.cloneQualifier(cell))
                  + "/"
                  + cell.getTimestamp()
                  + "="
                  + Bytes.toString(CellUtil.cloneValue(cell)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  static long shippedOps(StandaloneCluster s) {
    return s.server().replication().stats().stream().mapToLong(st -> st.shippedOps()).sum();
  }

  @Test
  void oneWayShipsTheReplicatedFamilyWithTimestampsAndDeletes() throws Exception {
    TableName t = TableName.valueOf("oneway");
    createEverywhere(t, ca, cb);
    addPeer(ca, "oneway", b, t);
    try {
      for (int i = 0; i < 50; i++) {
        put(ca, t, "r" + i, CF, "v" + i);
        put(ca, t, "r" + i, LOCAL, "only-a" + i);
      }
      try (Table table = ca.getTable(t)) {
        table.delete(new Delete(Bytes.toBytes("r7")));
        table.delete(new Delete(Bytes.toBytes("r8")).addColumns(CF, Q));
      }
      List<String> expected = cells(ca, t).stream().filter(s -> s.contains("/cf:")).toList();
      assertThat(expected).hasSize(48);
      StockClients.await(
          "the peer to hold the replicated family", CONVERGE, () -> cells(cb, t).equals(expected));
      // The local family (scope 0) never left A.
      try (Table table = cb.getTable(t)) {
        assertThat(table.get(new Get(Bytes.toBytes("r1")).addFamily(LOCAL)).isEmpty()).isTrue();
      }
      // A per-cell TTL travels with its cell (HBase's TTL tag): the copy expires it too.
      long now = System.currentTimeMillis();
      try (Table table = ca.getTable(t)) {
        Put shortLived =
            new Put(Bytes.toBytes("ttl")).addColumn(CF, Q, now, Bytes.toBytes("brief"));
        shortLived.setTTL(1_500);
        table.put(shortLived);
        table.put(new Put(Bytes.toBytes("ttm")).addColumn(CF, Q, now, Bytes.toBytes("stays")));
      }
      try (Table copy = cb.getTable(t)) {
        StockClients.await(
            "the row after the short-lived one",
            CONVERGE,
            () -> {
              try {
                return !copy.get(new Get(Bytes.toBytes("ttm"))).isEmpty();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
        Thread.sleep(Math.max(0, now + 1_600 - System.currentTimeMillis()));
        assertThat(copy.get(new Get(Bytes.toBytes("ttl"))).isEmpty())
            .as("the short-lived cell expired on the copy too")
            .isTrue();
      }
      // The figures status 'replication' prints: A's source for the peer, B's sink.
      try (Admin admin = ca.getAdmin()) {
        List<ReplicationLoadSource> sources =
            admin
                .getClusterMetrics()
                .getLiveServerMetrics()
                .values()
                .iterator()
                .next()
                .getReplicationLoadSourceList();
        ReplicationLoadSource source =
            sources.stream().filter(s -> s.getPeerID().equals("oneway")).findFirst().orElseThrow();
        assertThat(source.getOPsShipped()).isGreaterThanOrEqualTo(50);
        assertThat(source.getQueueId())
            .as("HBase names a normal queue after its peer")
            .isEqualTo("oneway");
      }
      try (Admin admin = cb.getAdmin()) {
        ReplicationLoadSink sink =
            admin
                .getClusterMetrics()
                .getLiveServerMetrics()
                .values()
                .iterator()
                .next()
                .getReplicationLoadSink();
        assertThat(sink.getTimestampsOfLastAppliedOp()).isPositive();
      }
    } finally {
      removePeers(ca, "oneway");
    }
  }

  @Test
  void masterMasterConvergesWithoutLooping() throws Exception {
    TableName t = TableName.valueOf("mm");
    createEverywhere(t, ca, cb);
    addPeer(ca, "mmab", b, t);
    addPeer(cb, "mmba", a, t);
    try {
      for (int i = 0; i < 30; i++) {
        put(ca, t, "a" + i, CF, "from-a");
        put(cb, t, "b" + i, CF, "from-b");
      }
      put(ca, t, "both", CF, "1");
      put(cb, t, "both", CF, "2");
      StockClients.await(
          "both sides to hold all 62 cells",
          CONVERGE,
          () -> cells(ca, t).size() == 62 && cells(ca, t).equals(cells(cb, t)));
      long shipped = shippedOps(a) + shippedOps(b);
      Thread.sleep(1_500);
      assertThat(shippedOps(a) + shippedOps(b))
          .as("nothing ships once converged: no loop")
          .isEqualTo(shipped);
      assertThat(cells(ca, t)).isEqualTo(cells(cb, t));
    } finally {
      removePeers(ca, "mmab");
      removePeers(cb, "mmba");
    }
  }

  @Test
  void aRingOfThreeConvergesWithoutLooping() throws Exception {
    TableName t = TableName.valueOf("ring");
    createEverywhere(t, ca, cb, cc);
    addPeer(ca, "ringab", b, t);
    addPeer(cb, "ringbc", c, t);
    addPeer(cc, "ringca", a, t);
    try {
      for (int i = 0; i < 20; i++) {
        put(ca, t, "a" + i, CF, "x");
        put(cb, t, "b" + i, CF, "y");
        put(cc, t, "c" + i, CF, "z");
      }
      StockClients.await(
          "all three to hold all 60 cells",
          CONVERGE,
          () -> {
            List<String> onA = cells(ca, t);
            return onA.size() == 60 && onA.equals(cells(cb, t)) && onA.equals(cells(cc, t));
          });
      long shipped = shippedOps(a) + shippedOps(b) + shippedOps(c);
      Thread.sleep(1_500);
      assertThat(shippedOps(a) + shippedOps(b) + shippedOps(c)).isEqualTo(shipped);
    } finally {
      removePeers(ca, "ringab");
      removePeers(cb, "ringbc");
      removePeers(cc, "ringca");
    }
  }

  @Test
  void aPeerDownForAWhileGetsEverythingWhenItReturnsAndPeersSurviveARestart() throws Exception {
    TableName t = TableName.valueOf("outage");
    createEverywhere(t, ca, cb);
    addPeer(ca, "outage", b, t);
    try {
      put(ca, t, "before", CF, "1");
      StockClients.await("the first row", CONVERGE, () -> cells(cb, t).size() == 1);
      b.stopKeepingPorts();
      for (int i = 0; i < 200; i++) {
        put(ca, t, "during" + i, CF, "v" + i);
      }
      Thread.sleep(3_000); // the source retries meanwhile
      long now = System.currentTimeMillis();
      assertThat(
              a.server().replication().stats().stream()
                  .filter(st -> st.peerId().equals("outage"))
                  .mapToLong(st -> st.replicationLag(now))
                  .max()
                  .orElse(0))
          .as("the lag status 'replication' shows grows while the peer is down")
          .isGreaterThanOrEqualTo(2_500);
      long t0 = System.nanoTime();
      b.startOnKeptPorts();
      List<String> expected = cells(ca, t).stream().filter(s -> s.contains("/cf:")).toList();
      assertThat(expected).hasSize(201);
      StockClients.await("the peer to catch up", CONVERGE, () -> cells(cb, t).equals(expected));
      System.out.printf(
          "peer caught up %d ms after it came back%n", (System.nanoTime() - t0) / 1_000_000);

      // The source side restarts: the peer is still there and its queue goes on where it was.
      a.restartOnSamePorts();
      try (Admin admin = ca.getAdmin()) {
        assertThat(admin.listReplicationPeers())
            .extracting(ReplicationPeerDescription::getPeerId)
            .contains("outage");
      }
      put(ca, t, "after", CF, "2");
      StockClients.await(
          "a row written after the restart", CONVERGE, () -> cells(cb, t).size() == 202);
    } finally {
      removePeers(ca, "outage");
    }
  }

  @Test
  void aTableMissingOnTheSinkStallsOnlyItsPeerAndNothingIsLost() throws Exception {
    TableName missing = TableName.valueOf("missingonc");
    TableName fine = TableName.valueOf("fineonb");
    createEverywhere(missing, ca);
    createEverywhere(fine, ca, cb);
    addPeer(ca, "stalls", c, missing);
    addPeer(ca, "goeson", b, fine);
    try {
      for (int i = 0; i < 20; i++) {
        put(ca, missing, "m" + i, CF, "x");
        put(ca, fine, "f" + i, CF, "y");
      }
      StockClients.await("the other peer's rows", CONVERGE, () -> cells(cb, fine).size() == 20);
      createEverywhere(missing, cc); // the operator creates it: the stalled peer catches up
      StockClients.await(
          "the stalled peer's rows", CONVERGE, () -> cells(cc, missing).size() == 20);
    } finally {
      removePeers(ca, "stalls", "goeson");
    }
  }

  /**
   * The point-in-time-recovery copy of the seeds' article: a peer whose table keeps deleted cells
   * (KEEP_DELETED_CELLS, MIN_VERSIONS, a TTL) receives the source's deletes as markers, yet a read
   * as of a time before a delete still returns what was deleted, also after a major compaction; the
   * peer lags on purpose (disabled while the source works, enabled later).
   */
  @Test
  void aDelayedPeerThatKeepsDeletedCellsCanReadBackWhatTheSourceDeleted() throws Exception {
    TableName t = TableName.valueOf("pitr");
    try (Admin admin = ca.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(CF)
                      .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                      .build())
              .build());
    }
    try (Admin admin = cb.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(CF)
                      .setScope(HConstants.REPLICATION_SCOPE_GLOBAL)
                      .setKeepDeletedCells(KeepDeletedCells.TRUE)
                      .setMinVersions(1)
                      .setMaxVersions(10)
                      .setTimeToLive(86_400)
                      .build())
              .build());
    }
    addPeer(ca, "pitr", b, t);
    try (Admin admin = ca.getAdmin()) {
      admin.disableReplicationPeer("pitr"); // the delayed copy
    }
    try {
      long now = System.currentTimeMillis();
      try (Table table = ca.getTable(t)) {
        table.put(
            new Put(Bytes.toBytes("acct")).addColumn(CF, Q, now - 3_000, Bytes.toBytes("100")));
        table.put(
            new Put(Bytes.toBytes("acct")).addColumn(CF, Q, now - 2_000, Bytes.toBytes("250")));
        table.delete(new Delete(Bytes.toBytes("acct"), now - 1_000)); // the mistake
        table.put(new Put(Bytes.toBytes("other")).addColumn(CF, Q, now - 500, Bytes.toBytes("x")));
        assertThat(table.get(new Get(Bytes.toBytes("acct"))).isEmpty()).isTrue();
      }
      try (Admin admin = ca.getAdmin()) {
        admin.enableReplicationPeer("pitr");
      }
      StockClients.await("the delayed copy to catch up", CONVERGE, () -> cells(cb, t).size() == 1);
      try (Table copy = cb.getTable(t);
          Admin admin = cb.getAdmin()) {
        assertThat(copy.get(new Get(Bytes.toBytes("acct"))).isEmpty())
            .as("the delete reached the copy")
            .isTrue();
        admin.flush(t);
        admin.majorCompact(t);
        Thread.sleep(1_000);
        Result asOfBefore =
            copy.get(new Get(Bytes.toBytes("acct")).setTimeRange(0, now - 1_500).readAllVersions());
        assertThat(asOfBefore.getColumnCells(CF, Q))
            .extracting(c -> Bytes.toString(CellUtil.cloneValue(c)))
            .as("the copy still reads what the source deleted, as of before the delete")
            .containsExactly("250", "100");
      }
    } finally {
      removePeers(ca, "pitr");
    }
  }

  @Test
  void peersAreListedConfiguredAndRefusedAsHBaseDoes() throws Exception {
    try (Admin admin = ca.getAdmin()) {
      assertThatThrownBy(
              () ->
                  admin.addReplicationPeer(
                      "bad-id", ReplicationPeerConfig.newBuilder().setClusterKey(key(b)).build()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Found invalid peer name: bad-id");
      assertThatThrownBy(
              () ->
                  admin.addReplicationPeer(
                      "badkey",
                      ReplicationPeerConfig.newBuilder()
                          .setClusterKey("localhost:notaport:/hbase")
                          .build()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Invalid cluster key");
      assertThatThrownBy(
              () ->
                  admin.addReplicationPeer(
                      "self", ReplicationPeerConfig.newBuilder().setClusterKey(key(a)).build()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("should not replicate to itself");
      assertThatThrownBy(
              () ->
                  admin.addReplicationPeer(
                      "unreachable",
                      ReplicationPeerConfig.newBuilder()
                          .setClusterKey("127.0.0.1:1:/hbase")
                          .build()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("Can't get peerClusterId for clusterKey=127.0.0.1:1:/hbase");
      assertThatThrownBy(() -> admin.removeReplicationPeer("nosuch"))
          .hasMessageContaining("nosuch");

      admin.addReplicationPeer(
          "listed",
          ReplicationPeerConfig.newBuilder()
              .setClusterKey(key(b))
              .setReplicateAllUserTables(false)
              .setTableCFsMap(Map.of(TableName.valueOf("nothere"), List.of("cf")))
              .setBandwidth(1_000_000)
              .build(),
          false);
      try {
        List<ReplicationPeerDescription> peers = admin.listReplicationPeers();
        assertThat(peers).extracting(ReplicationPeerDescription::getPeerId).contains("listed");
        ReplicationPeerConfig got = admin.getReplicationPeerConfig("listed");
        assertThat(got.getClusterKey()).isEqualTo(key(b));
        assertThat(got.getBandwidth()).isEqualTo(1_000_000);
        assertThat(got.replicateAllUserTables()).isFalse();
        assertThat(got.getTableCFsMap()).containsKey(TableName.valueOf("nothere"));
        assertThat(
                peers.stream()
                    .filter(p -> p.getPeerId().equals("listed"))
                    .findFirst()
                    .get()
                    .isEnabled())
            .isFalse();
        admin.enableReplicationPeer("listed");
        assertThatThrownBy(() -> admin.enableReplicationPeer("listed"))
            .hasMessageContaining("has already been enabled");
        admin.updateReplicationPeerConfig(
            "listed", ReplicationPeerConfig.newBuilder(got).setBandwidth(2_000_000).build());
        assertThat(admin.getReplicationPeerConfig("listed").getBandwidth()).isEqualTo(2_000_000);
        assertThatThrownBy(
                () ->
                    admin.updateReplicationPeerConfig(
                        "listed",
                        ReplicationPeerConfig.newBuilder(got).setClusterKey(key(c)).build()))
            .hasMessageContaining("Changing the cluster key on an existing peer is not allowed");
      } finally {
        admin.removeReplicationPeer("listed");
      }
      assertThat(admin.listReplicationPeers())
          .extracting(ReplicationPeerDescription::getPeerId)
          .doesNotContain("listed");
    }
  }
}
