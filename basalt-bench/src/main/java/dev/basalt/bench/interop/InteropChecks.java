package dev.basalt.bench.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The checks between an Apache HBase cluster and a Basalt one: replication one way (a peer on the
 * source, every kind of edit made there, then the sink's copy compared cell by cell, as readers see
 * it and as stored, delete markers included), master-master (a peer each way on one table, edits on
 * both, both copies equal, and the replication figures show no edit coming back to the cluster it
 * started from), and per-cell TTLs. Each check uses tables of its own, named after the run, so a
 * check run again against the same clusters never meets edits of an earlier run; the one-way
 * checks' are in namespace {@code interop}, so that a namespaced name travels too.
 *
 * <p>Tables are created with an explicit {@code NEW_VERSION_BEHAVIOR}, as the defaults differ
 * (HBase false, Basalt true). Replication to Basalt runs with {@code true}: a Basalt sink applies
 * each replicated mutation on its own, in order, and reads as the source does. Replication to HBase
 * runs with {@code false}: an HBase sink applies a shipment's mutations in one batch, under one
 * write number, and under the new rules a delete in a batch then also hides a put written after it
 * in the same batch (HBase 2.6.1 does the same to a client's batch), so the copy would differ from
 * the source on the "put under a newer delete" row whatever the source.
 */
final class InteropChecks {
  private final PrintStream out;
  private final long timeoutMillis;
  private final String run;

  InteropChecks(PrintStream out, long timeoutMillis, String run) {
    this.out = out;
    this.timeoutMillis = timeoutMillis;
    this.run = run;
  }

  /** Why a check failed; its message is the report's line. */
  static final class CheckFailed extends Exception {
    CheckFailed(String message) {
      super(message);
    }
  }

  /**
   * Replication from {@code source} to {@code sink}: returns a summary for the PASS line.
   *
   * @throws CheckFailed saying what differs
   */
  String oneWay(Side source, Side sink, String tag, boolean newVersionBehavior)
      throws IOException, CheckFailed {
    // In a namespace of its own: the table's name travels as "namespace:qualifier".
    TableName table = TableName.valueOf("interop", tag + "_" + run);
    String peer = "interop_" + tag + "_" + run;
    source.ensureNamespace("interop");
    sink.ensureNamespace("interop");
    source.createTable(table, newVersionBehavior);
    sink.createTable(table, newVersionBehavior);
    source.addPeer(peer, sink, table);
    try {
      int calls;
      try (Table t = source.conn.getTable(table)) {
        calls = InteropWrites.writeAll(t, "");
      }
      long written = System.nanoTime();
      List<String> expected = CellDump.of(source.conn, table, InteropWrites.CF, false);
      List<String> expectedRaw = CellDump.of(source.conn, table, InteropWrites.CF, true);
      detail(
          "%d client calls on %s, table %s (NEW_VERSION_BEHAVIOR %s): %d cells in family cf as"
              + " read, %d as stored",
          calls, source, table, newVersionBehavior, expected.size(), expectedRaw.size());
      awaitSame(sink, table, expected, false, "read");
      long millis = (System.nanoTime() - written) / 1_000_000;
      awaitSame(sink, table, expectedRaw, true, "stored (raw scan)");
      List<String> local = CellDump.of(sink.conn, table, InteropWrites.LOCAL, true);
      if (!local.isEmpty()) {
        throw new CheckFailed(
            "family 'local' (REPLICATION_SCOPE 0) reached "
                + sink
                + ": "
                + local.subList(0, Math.min(3, local.size())));
      }
      return String.format(
          "%d cells (%d as stored) equal on %s within %.1f s of the last write; family 'local'"
              + " stayed on %s",
          expected.size(), expectedRaw.size(), sink, millis / 1000.0, source);
    } finally {
      source.removePeer(peer);
    }
  }

  /**
   * Per-cell TTLs ({@code Mutation.setTTL}), both ways: HBase keeps one as a TTL tag on each cell
   * of the mutation and ships the tag with the cell ({@code KeyValueCodecWithTags}), and its sink
   * keeps it. A cell written already expired must stay invisible on the sink as on the source, and
   * a cell with an hour to live must arrive.
   */
  String cellTtl(Side hbase, Side basalt) throws IOException, CheckFailed {
    byte[] q = Bytes.toBytes("q");
    List<String> problems = new ArrayList<>();
    for (Side[] pair : new Side[][] {{hbase, basalt}, {basalt, hbase}}) {
      Side source = pair[0];
      Side sink = pair[1];
      String tag = "ttl_from_" + source.name.toLowerCase(Locale.ROOT);
      TableName table = TableName.valueOf("interop", tag + "_" + run);
      String peer = "interop_" + tag + "_" + run;
      source.ensureNamespace("interop");
      sink.ensureNamespace("interop");
      source.createTable(table, false);
      sink.createTable(table, false);
      source.addPeer(peer, sink, table);
      try {
        long now = System.currentTimeMillis();
        try (Table t = source.conn.getTable(table)) {
          t.put(
              new Put(Bytes.toBytes("expired"))
                  .addColumn(InteropWrites.CF, q, now - 3_600_000, Bytes.toBytes("expired"))
                  .setTTL(60_000));
          t.put(
              new Put(Bytes.toBytes("alive"))
                  .addColumn(InteropWrites.CF, q, now, Bytes.toBytes("an hour to live"))
                  .setTTL(3_600_000));
          // Written last, so shipped last: once here, the others are too.
          t.put(new Put(Bytes.toBytes("end")).addColumn(InteropWrites.CF, q, Bytes.toBytes("")));
        }
        List<String> expected = CellDump.of(source.conn, table, InteropWrites.CF, false);
        if (expected.size() != 2) {
          problems.add(source + " itself reads " + expected + " (the expired cell should be gone)");
          continue;
        }
        await(
            "row 'end' of " + table + " on " + sink,
            () -> {
              try (Table t = sink.conn.getTable(table)) {
                return !t.get(new Get(Bytes.toBytes("end"))).isEmpty();
              }
            });
        List<String> actual = CellDump.of(sink.conn, table, InteropWrites.CF, false);
        if (!actual.equals(expected)) {
          problems.add(
              source
                  + " -> "
                  + sink
                  + ": "
                  + String.join(", ", CellDump.differences(expected, actual, 4))
                  + " (the cell's TTL did not travel with it)");
        }
      } finally {
        source.removePeer(peer);
      }
    }
    if (!problems.isEmpty()) {
      throw new CheckFailed(String.join("; ", problems));
    }
    return "a cell written expired stays invisible and one with an hour to live arrives, both ways";
  }

  /**
   * A peer each way on one table, edits on both sides, then the loop test: after one more put on
   * each side, each side ships exactly one edit and applies exactly one, and then nothing more.
   */
  String masterMaster(Side hbase, Side basalt)
      throws IOException, CheckFailed, InterruptedException {
    TableName table = TableName.valueOf("interop_mm_" + run);
    String peer = "interop_mm_" + run;
    hbase.createTable(table, false); // an HBase sink: see the class comment
    basalt.createTable(table, false);
    hbase.addPeer(peer, basalt, table);
    basalt.addPeer(peer, hbase, table);
    try {
      List<String> expected = new ArrayList<>();
      // Rows "basalt-..." sort before "hbase-...": the two sides' own edits, concatenated, are
      // the whole table in scan order.
      for (Side s : new Side[] {basalt, hbase}) {
        String prefix = s == basalt ? "basalt-" : "hbase-";
        try (Table t = s.conn.getTable(table)) {
          InteropWrites.writeAll(t, prefix);
        }
        for (String line : CellDump.of(s.conn, table, InteropWrites.CF, false)) {
          if (line.startsWith(prefix)) {
            expected.add(line);
          }
        }
      }
      detail("edits on both sides of table %s: %d cells in family cf", table, expected.size());
      awaitSame(hbase, table, expected, false, "read");
      awaitSame(basalt, table, expected, false, "read");

      ReplicationCounters h0 = settled(hbase, peer);
      ReplicationCounters b0 = settled(basalt, peer);
      detail("figures once settled: %s %s; %s %s", hbase, h0, basalt, b0);
      byte[] q = Bytes.toBytes("q");
      for (Side s : new Side[] {hbase, basalt}) {
        try (Table t = s.conn.getTable(table)) {
          t.put(
              new Put(Bytes.toBytes(s.name.toLowerCase() + "-ping"))
                  .addColumn(InteropWrites.CF, q, Bytes.toBytes("ping")));
        }
      }
      for (Side s : new Side[] {hbase, basalt}) {
        for (String row : new String[] {"hbase-ping", "basalt-ping"}) {
          await(
              row + " on " + s,
              () -> {
                try (Table t = s.conn.getTable(table)) {
                  return !t.get(new Get(Bytes.toBytes(row))).isEmpty();
                }
              });
        }
      }
      ReplicationCounters h1 = settled(hbase, peer);
      ReplicationCounters b1 = settled(basalt, peer);
      detail("after one put on each side: %s %s; %s %s", hbase, h1, basalt, b1);
      Thread.sleep(10_000);
      ReplicationCounters h2 = hbase.counters(peer);
      ReplicationCounters b2 = basalt.counters(peer);
      detail("10 s later: %s %s; %s %s", hbase, h2, basalt, b2);
      if (h0.shippedOps() < 0 || h0.appliedOps() < 0) {
        throw new CheckFailed(hbase + " reports no replication figures for peer " + peer);
      }
      List<String> problems = new ArrayList<>();
      expectDelta(problems, hbase + " shipped", h0.shippedOps(), h1.shippedOps(), 1);
      expectDelta(problems, hbase + " applied", h0.appliedOps(), h1.appliedOps(), 1);
      expectDelta(problems, hbase + " shipped later", h1.shippedOps(), h2.shippedOps(), 0);
      expectDelta(problems, hbase + " applied later", h1.appliedOps(), h2.appliedOps(), 0);
      if (b0.shippedOps() >= 0 && b0.appliedOps() >= 0) {
        expectDelta(problems, basalt + " shipped", b0.shippedOps(), b1.shippedOps(), 1);
        expectDelta(problems, basalt + " applied", b0.appliedOps(), b1.appliedOps(), 1);
        expectDelta(problems, basalt + " shipped later", b1.shippedOps(), b2.shippedOps(), 0);
        expectDelta(problems, basalt + " applied later", b1.appliedOps(), b2.appliedOps(), 0);
      } else {
        detail(
            "(%s reports no replication figures to the stock client; %s's alone decide)",
            basalt, hbase);
      }
      if (!problems.isEmpty()) {
        throw new CheckFailed("edits loop or go missing: " + String.join("; ", problems));
      }
      List<String> finalHbase = CellDump.of(hbase.conn, table, InteropWrites.CF, false);
      List<String> finalBasalt = CellDump.of(basalt.conn, table, InteropWrites.CF, false);
      if (!finalHbase.equals(finalBasalt)) {
        throw new CheckFailed(
            "the copies differ in the end: " + CellDump.differences(finalHbase, finalBasalt, 10));
      }
      return String.format(
          "%d cells equal on both; one put on each side shipped once and applied once, none came"
              + " back, nothing shipped in the 10 s after",
          finalHbase.size());
    } finally {
      hbase.removePeer(peer);
      basalt.removePeer(peer);
    }
  }

  private static void expectDelta(
      List<String> problems, String what, long before, long after, long expected) {
    if (after - before != expected) {
      problems.add(what + " " + (after - before) + " operations, expected " + expected);
    }
  }

  /**
   * The figures once they stop moving: unchanged over two reads 4 s apart (an HBase region server
   * reports every 3 s), at most for the timeout.
   */
  private ReplicationCounters settled(Side side, String peer)
      throws IOException, InterruptedException {
    ReplicationCounters last = side.counters(peer);
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (System.currentTimeMillis() < deadline) {
      Thread.sleep(4_000);
      ReplicationCounters now = side.counters(peer);
      if (now.equals(last)) {
        return now;
      }
      last = now;
    }
    return last;
  }

  private void awaitSame(Side side, TableName table, List<String> expected, boolean raw, String how)
      throws IOException, CheckFailed {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    List<String> actual;
    while (true) {
      actual = CellDump.of(side.conn, table, InteropWrites.CF, raw);
      if (actual.equals(expected)) {
        return;
      }
      if (System.currentTimeMillis() >= deadline) {
        break;
      }
      sleep(200);
    }
    StringBuilder why =
        new StringBuilder(
            String.format(
                "%s's copy of %s (%s) differs after %d s: %d cells, expected %d",
                side, table, how, timeoutMillis / 1000, actual.size(), expected.size()));
    for (String d : CellDump.differences(expected, actual, 12)) {
      why.append("\n      ").append(d);
    }
    throw new CheckFailed(why.toString());
  }

  interface Condition {
    boolean holds() throws IOException;
  }

  private void await(String what, Condition c) throws IOException, CheckFailed {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (!c.holds()) {
      if (System.currentTimeMillis() >= deadline) {
        throw new CheckFailed("no " + what + " after " + timeoutMillis / 1000 + " s");
      }
      sleep(200);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private void detail(String format, Object... args) {
    out.println("  " + String.format(format, args));
  }
}
