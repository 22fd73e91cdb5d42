package dev.basalt.shell.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * bin/basalt verify-replication against two real Basalt servers through the stock client: the
 * counters for each kind of difference, the read options, the re-check of rows in flight, the
 * registries, and the exit code 2 with one line for each bad argument.
 */
class VerifyReplicationTest {
  private static TwoServers servers;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void start() throws IOException {
    servers = TwoServers.start();
    createBoth("vr_kinds", 1, "cf");
    createBoth("vr_opts", 3, "cf", "cf2");
    fillKinds();
    fillOptions();
  }

  @AfterAll
  static void stop() throws IOException {
    if (servers != null) {
      servers.close();
    }
  }

  // ---- data -------------------------------------------------------------------------------

  /** One row of each kind of difference, and five equal rows. */
  private static void fillKinds() throws IOException {
    for (TwoServers.Side side : both()) {
      for (int i = 1; i <= 5; i++) {
        put(side, "vr_kinds", "r0" + i, "cf", "q", 1000, "v" + i);
      }
      put(side, "vr_kinds", "ts", "cf", "q", side == servers.source ? 1000 : 2000, "same");
      put(side, "vr_kinds", "val", "cf", "q", 1000, side == servers.source ? "v" : "w");
      put(side, "vr_kinds", "delrow", "cf", "q", 1000, "v");
      put(side, "vr_kinds", "delcol", "cf", "a", 1000, "v");
      put(side, "vr_kinds", "delcol", "cf", "b", 1000, "v");
    }
    put(servers.source, "vr_kinds", "only-src", "cf", "q", 1000, "v");
    put(servers.source, "vr_kinds", "\\x00\\xFFbin", "cf", "q", 1000, "v");
    put(servers.peer, "vr_kinds", "only-peer", "cf", "q", 1000, "v");
    try (Table t = table(servers.source, "vr_kinds")) {
      t.delete(new Delete(Bytes.toBytes("delrow")));
    }
    try (Table t = table(servers.peer, "vr_kinds")) {
      t.delete(new Delete(Bytes.toBytes("delcol")).addColumns(Bytes.toBytes("cf"), q("b")));
    }
  }

  /**
   * Rows whose verdict depends on the options: a1 differs in cf2 only, a2 at ts 3000 only, b1 in
   * its older version only, d1 in a delete marker only (raw), c1 not at all.
   */
  private static void fillOptions() throws IOException {
    for (TwoServers.Side side : both()) {
      boolean src = side == servers.source;
      put(side, "vr_opts", "a1", "cf", "q", 1000, "x");
      put(side, "vr_opts", "a1", "cf2", "q", 1000, src ? "y" : "z");
      put(side, "vr_opts", "a2", "cf", "q", 3000, src ? "x" : "y");
      put(side, "vr_opts", "b1", "cf", "q", 1000, src ? "old" : "OLD");
      put(side, "vr_opts", "b1", "cf", "q", 2000, "new");
      put(side, "vr_opts", "c1", "cf", "q", 1000, "c");
      put(side, "vr_opts", "d1", "cf", "q", 1000, "d");
    }
    try (Table t = table(servers.source, "vr_opts")) {
      // an exact-version delete below every cell: hides nothing, but a raw scan returns it
      t.delete(new Delete(Bytes.toBytes("d1")).addColumn(Bytes.toBytes("cf"), q("q"), 500));
    }
  }

  // ---- the counters -----------------------------------------------------------------------

  @Test
  void countsEachKindOfDifference() {
    Run r = verify("vr_kinds");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isEqualTo(1);
    assertThat(counters(r))
        .containsExactly(
            "GOODROWS=5",
            "BADROWS=7",
            "ONLY_IN_SOURCE_TABLE_ROWS=2",
            "ONLY_IN_PEER_TABLE_ROWS=2",
            "CONTENT_DIFFERENT_ROWS=3");
    // the bad rows in row order, keys in toStringBinary, with the cells that differ
    assertThat(r.out())
        .contains(
            "  ONLY_IN_SOURCE_TABLE_ROWS \\x00\\xFFbin\n"
                + "      only in source: cf:q/1000/Put value=v\n"
                + "  CONTENT_DIFFERENT_ROWS delcol\n"
                + "      only in source: cf:b/1000/Put value=v\n"
                + "  ONLY_IN_PEER_TABLE_ROWS delrow\n"
                + "      only in peer:   cf:q/1000/Put value=v\n"
                + "  ONLY_IN_PEER_TABLE_ROWS only-peer\n"
                + "      only in peer:   cf:q/1000/Put value=v\n"
                + "  ONLY_IN_SOURCE_TABLE_ROWS only-src\n"
                + "      only in source: cf:q/1000/Put value=v\n"
                + "  CONTENT_DIFFERENT_ROWS ts\n"
                + "      only in peer:   cf:q/2000/Put value=same\n"
                + "      only in source: cf:q/1000/Put value=same\n"
                + "  CONTENT_DIFFERENT_ROWS val\n"
                + "      value differs:  cf:q/1000/Put source=v peer=w\n"
                + "  GOODROWS=5\n")
        .endsWith("DIFFERENT: 7 bad rows in 1 of 1 table\n");
  }

  @Test
  void showBadRowsLimitsTheListNotTheCounters() {
    Run r = verify("--show-bad-rows=2", "vr_kinds");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .contains(
            "  ONLY_IN_SOURCE_TABLE_ROWS \\x00\\xFFbin\n"
                + "      only in source: cf:q/1000/Put value=v\n"
                + "  CONTENT_DIFFERENT_ROWS delcol\n"
                + "      only in source: cf:b/1000/Put value=v\n"
                + "  (5 more bad rows not shown; --show-bad-rows=N shows more)\n"
                + "  GOODROWS=5\n");
  }

  @Test
  void readOptionsNarrowTheComparison() {
    assertThat(counters(verify("vr_opts"))).startsWith("GOODROWS=3", "BADROWS=2");
    assertThat(counters(verify("--families=cf", "vr_opts"))).startsWith("GOODROWS=4", "BADROWS=1");
    // [0, 2000): a2 has no cell in range on either side, b1's newest version there is the older
    assertThat(counters(verify("--endtime=2000", "--families=cf", "vr_opts")))
        .containsExactly(
            "GOODROWS=3",
            "BADROWS=1",
            "ONLY_IN_SOURCE_TABLE_ROWS=0",
            "ONLY_IN_PEER_TABLE_ROWS=0",
            "CONTENT_DIFFERENT_ROWS=1");
    assertThat(counters(verify("--starttime=1500", "--families=cf", "vr_opts")))
        .startsWith("GOODROWS=1", "BADROWS=1");
    assertThat(counters(verify("--versions=2", "--families=cf", "vr_opts")))
        .startsWith("GOODROWS=3", "BADROWS=2");
    Run prefixes = verify("--row-prefixes=c,b", "vr_opts");
    assertThat(prefixes.code()).isZero();
    assertThat(counters(prefixes)).startsWith("GOODROWS=2", "BADROWS=0");
    assertThat(prefixes.out()).endsWith("OK: every row matches (2 rows)\n");
    // cell by cell through one-cell results and one-row round trips: the same verdicts
    assertThat(counters(verify("--batch=1", "--caching=1", "vr_opts")))
        .startsWith("GOODROWS=3", "BADROWS=2");
    assertThat(counters(verify("--row-prefixes=d", "vr_opts"))).startsWith("GOODROWS=1");
    Run raw = verify("--row-prefixes=d", "--raw", "vr_opts");
    assertThat(counters(raw)).startsWith("GOODROWS=0", "BADROWS=1");
    assertThat(raw.out())
        .contains("  CONTENT_DIFFERENT_ROWS d1\n      only in source: cf:q/500/Delete value=\n");
  }

  @Test
  void theVersionsOptionSeesAnOlderVersionThatDiffers() {
    Run r = verify("--versions=3", "--row-prefixes=b", "vr_opts");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .contains(
            "  CONTENT_DIFFERENT_ROWS b1\n"
                + "      value differs:  cf:q/1000/Put source=old peer=OLD\n");
  }

  // ---- the re-check -----------------------------------------------------------------------

  @Test
  void aRowThatArrivesDuringTheSleepBecomesGood() throws IOException {
    createBoth("vr_lag", 1, "cf");
    put(servers.source, "vr_lag", "r1", "cf", "q", 1000, "v");
    put(servers.peer, "vr_lag", "r1", "cf", "q", 1000, "v");
    put(servers.source, "vr_lag", "r2", "cf", "q", 1000, "v"); // arrives late
    put(servers.source, "vr_lag", "r3", "cf", "q", 1000, "v"); // never arrives
    put(servers.source, "vr_lag", "r4", "cf", "q", 1000, "v");
    put(servers.peer, "vr_lag", "r4", "cf", "q", 1000, "v");
    try (Table t = table(servers.source, "vr_lag")) {
      t.delete(new Delete(Bytes.toBytes("r4"))); // its delete reaches the peer late
    }
    // without a re-check all three are bad
    assertThat(counters(verify("vr_lag"))).startsWith("GOODROWS=1", "BADROWS=3");

    List<String> seen = new ArrayList<>();
    TableVerifier.MismatchListener replicate =
        (row, reason) -> {
          String key = Bytes.toStringBinary(row);
          seen.add(reason + " " + key);
          try (Table peer = table(servers.peer, "vr_lag")) {
            if (key.equals("r2")) {
              put(servers.peer, "vr_lag", "r2", "cf", "q", 1000, "v");
            } else if (key.equals("r4")) {
              peer.delete(new Delete(row));
            }
          }
        };
    Run r =
        verify(
            replicate,
            "--recompareSleep=300",
            "--recompareTries=3",
            "--recompareBackoffExponent=0",
            "vr_lag");
    assertThat(seen)
        .containsExactly(
            "ONLY_IN_SOURCE_TABLE_ROWS r2",
            "ONLY_IN_SOURCE_TABLE_ROWS r3",
            "ONLY_IN_PEER_TABLE_ROWS r4");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isEqualTo(1);
    // r2 written during the sleep, r4 gone from both sides: good; r3 bad after three looks
    assertThat(counters(r))
        .containsExactly(
            "GOODROWS=3",
            "BADROWS=1",
            "ONLY_IN_SOURCE_TABLE_ROWS=1",
            "ONLY_IN_PEER_TABLE_ROWS=0",
            "CONTENT_DIFFERENT_ROWS=0");
    assertThat(r.out())
        .contains("  ONLY_IN_SOURCE_TABLE_ROWS r3\n      only in source: cf:q/1000/Put value=v\n")
        .contains("  (re-checks: 5, of which found the row good: 2)\n");
    // and now that the peer caught up, a plain run finds one bad row (r4 is on neither side)
    assertThat(counters(verify("vr_lag"))).startsWith("GOODROWS=2", "BADROWS=1");
  }

  @Test
  void theRecheckWaitsTheSleepAndBacksOff() {
    createBoth("vr_wait", 1, "cf");
    putQuietly(servers.source, "vr_wait", "r", "v");
    long start = System.nanoTime();
    // three looks: after 200, then 400, then 800 ms
    Run r = verify("--recompareSleep=200", "--recompareTries=3", "vr_wait");
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(counters(r)).startsWith("GOODROWS=0", "BADROWS=1");
    assertThat(r.out()).contains("(re-checks: 3, of which found the row good: 0)");
    assertThat(seconds).isGreaterThanOrEqualTo(1.4);
  }

  // ---- clusters and tables ----------------------------------------------------------------

  @Test
  void bootstrapServersAndAPeerTableOfAnotherName() throws IOException {
    create(servers.source, "vr_named", 1, "cf");
    create(servers.peer, "vr_named_copy", 1, "cf");
    put(servers.source, "vr_named", "r", "cf", "q", 1000, "v");
    put(servers.peer, "vr_named_copy", "r", "cf", "q", 1000, "v");
    Run r =
        run(
            TableVerifier.MismatchListener.NONE,
            "--source",
            servers.source.bootstrap(),
            "--peer=" + servers.peer.bootstrap(),
            "--peerTableName=vr_named_copy",
            "vr_named");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .startsWith(
            "Table vr_named on the source ("
                + servers.source.bootstrap()
                + ") against vr_named_copy on the peer ("
                + servers.peer.bootstrap()
                + "):\n")
        .contains("  GOODROWS=1\n");
  }

  @Test
  void severalTablesAddUp() {
    Run r = verify("vr_kinds", "vr_opts");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .contains(
            "All 2 tables:\n"
                + "  GOODROWS=8\n"
                + "  BADROWS=9\n"
                + "  ONLY_IN_SOURCE_TABLE_ROWS=2\n"
                + "  ONLY_IN_PEER_TABLE_ROWS=2\n"
                + "  CONTENT_DIFFERENT_ROWS=5\n")
        .endsWith("DIFFERENT: 9 bad rows in 2 of 2 tables\n");
  }

  // ---- bad arguments: exit 2, one line ----------------------------------------------------

  @Test
  void unknownTablesAndFamiliesAreNamed() throws IOException {
    create(servers.source, "vr_src_only", 1, "cf");
    assertError(verify("vr_nope"), "table 'vr_nope' does not exist on the source cluster (");
    assertError(
        verify("vr_src_only"),
        "table 'vr_src_only' does not exist on the peer cluster ("
            + servers.peer.clusterKey()
            + ")");
    assertError(
        verify("--families=cf,zz", "vr_kinds"),
        "column family 'zz' does not exist in table 'vr_kinds' on the source cluster (its"
            + " families: cf)");
    assertError(verify("bad name"), "'bad name' is not a valid table name: ");
  }

  @Test
  void aPeerIdIsLookedUpOnTheSource() throws IOException {
    try (Admin admin = servers.source.connection.getAdmin()) {
      // scope 0 everywhere in this class: the peer ships nothing, it only names the cluster
      admin.addReplicationPeer(
          "9",
          ReplicationPeerConfig.newBuilder()
              .setClusterKey(servers.peer.clusterKey())
              .setReplicateAllUserTables(true)
              .build());
      try {
        Run r = run(null, "--source=" + servers.source.clusterKey(), "--peer=9", "vr_kinds");
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out())
            .startsWith(
                "Table vr_kinds on the source ("
                    + servers.source.clusterKey()
                    + ") against vr_kinds on the peer ("
                    + servers.peer.clusterKey()
                    + "):\n");
        assertThat(counters(r)).startsWith("GOODROWS=5", "BADROWS=7");
      } finally {
        admin.removeReplicationPeer("9");
      }
    }
    assertError(
        run(null, "--source=" + servers.source.clusterKey(), "--peer=7", "vr_kinds"),
        "replication peer '7' is not configured on the source cluster ("
            + servers.source.clusterKey()
            + "); list_peers shows them");
  }

  @Test
  void unreachableClustersFailWithinTheTimeout() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    long start = System.nanoTime();
    Run refused =
        run(
            TableVerifier.MismatchListener.NONE,
            "--source",
            servers.source.clusterKey(),
            "--peer",
            "127.0.0.1:" + closed + ":/hbase",
            "vr_kinds");
    assertError(refused, "cannot reach the peer cluster at 127.0.0.1:" + closed + ":/hbase (");
    assertThat(refused.err()).endsWith("; is it running?\n");
    // something that accepts connections and never answers
    try (ServerSocket silent = new ServerSocket(0)) {
      Run r =
          run(
              TableVerifier.MismatchListener.NONE,
              "--source",
              "127.0.0.1:" + silent.getLocalPort(),
              "--peer",
              servers.peer.clusterKey(),
              "--timeout=2",
              "vr_kinds");
      assertError(
          r,
          "the source cluster at 127.0.0.1:"
              + silent.getLocalPort()
              + " did not answer within 2 s (is it running? --timeout gives it longer)");
    }
    assertThat((System.nanoTime() - start) / 1e9).isLessThan(20);
  }

  @Test
  void badCommandLines() {
    String key = servers.source.clusterKey();
    assertError(run(null, "--peer", key, "--frobnicate", "t"), "Unknown option: '--frobnicate'");
    assertError(run(null, "t"), "Missing required option: '--peer=CLUSTER'");
    assertError(run(null, "--peer", key), "Missing required parameter: 'TABLE'");
    assertError(
        run(null, "--peer", "127.0.0.1:notaport:/hbase", "t"),
        "--peer expects a cluster key (zk1,zk2:2181:/hbase) or bootstrap servers"
            + " (host:port[,host:port...]), got '127.0.0.1:notaport:/hbase'");
    assertError(run(null, "--peer", "hosta,hostb", "t"), "--peer expects a cluster key");
    assertError(run(null, "--source", "h:1:hbase", "--peer", key, "t"), "--source expects");
    assertError(
        run(null, "--peer", key, "--starttime=10", "--endtime=5", "t"),
        "--endtime (5) must be after --starttime (10)");
    assertError(run(null, "--peer", key, "--versions=0", "t"), "--versions must be >= 1, got 0");
    assertError(run(null, "--peer", key, "--batch=x", "t"), "Invalid value for option '--batch'");
    assertError(
        run(null, "--peer", key, "--peerTableName=x", "a", "b"),
        "--peerTableName goes with one TABLE, got 2");
    assertError(run(null, "--peer", key, "--row-prefixes=a,,b", "t"), "--row-prefixes has an");
  }

  // ---- helpers ----------------------------------------------------------------------------

  private static void assertError(Run r, String start) {
    assertThat(r.code()).as(r.toString()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("ERROR: " + start);
    assertThat(r.err().split("\n")).as(r.err()).hasSize(1);
  }

  /** Runs with the source and peer clusters by cluster key. */
  private static Run verify(String... args) {
    return verify(TableVerifier.MismatchListener.NONE, args);
  }

  private static Run verify(TableVerifier.MismatchListener listener, String... args) {
    List<String> all = new ArrayList<>();
    all.add("--source=" + servers.source.clusterKey());
    all.add("--peer=" + servers.peer.clusterKey());
    all.addAll(List.of(args));
    return run(listener, all.toArray(String[]::new));
  }

  private static Run run(TableVerifier.MismatchListener listener, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        VerifyReplicationMain.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            listener == null ? TableVerifier.MismatchListener.NONE : listener);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** The counter lines of the last table, in order. */
  private static List<String> counters(Run r) {
    List<String> lines = new ArrayList<>();
    for (String line : r.out().split("\n")) {
      String t = line.trim();
      if (t.matches("[A-Z_]+=\\d+")) {
        lines.add(t);
      }
    }
    assertThat(lines).as(r.toString()).hasSizeGreaterThanOrEqualTo(5);
    return lines.subList(lines.size() - 5, lines.size());
  }

  private static List<TwoServers.Side> both() {
    return List.of(servers.source, servers.peer);
  }

  private static void createBoth(String table, int versions, String... families) {
    for (TwoServers.Side side : both()) {
      try {
        create(side, table, versions, families);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
  }

  private static void create(TwoServers.Side side, String table, int versions, String... families)
      throws IOException {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(table));
    for (String f : families) {
      b.setColumnFamily(
          ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(f))
              .setMaxVersions(versions)
              .build());
    }
    try (Admin admin = side.connection.getAdmin()) {
      admin.createTable(b.build());
    }
  }

  private static Table table(TwoServers.Side side, String table) throws IOException {
    return side.connection.getTable(TableName.valueOf(table));
  }

  private static byte[] q(String qualifier) {
    return Bytes.toBytes(qualifier);
  }

  private static void put(
      TwoServers.Side side,
      String table,
      String row,
      String family,
      String qualifier,
      long ts,
      String value)
      throws IOException {
    try (Table t = table(side, table)) {
      t.put(
          new Put(Bytes.toBytesBinary(row))
              .addColumn(Bytes.toBytes(family), q(qualifier), ts, Bytes.toBytes(value)));
    }
  }

  private static void putQuietly(TwoServers.Side side, String table, String row, String value) {
    try {
      put(side, table, row, "cf", "q", 1000, value);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
