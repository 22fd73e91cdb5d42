package dev.basalt.bench.interop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The edits the interop check makes on the source cluster: one row per kind of edit a sink must
 * reproduce (several versions with explicit timestamps, a server-assigned timestamp, each kind of
 * delete marker, a whole-row delete, a put under a newer delete marker, a value of 3 MB, increments
 * and appends, which a source ships as the puts of their results, a row mutation, a check-and-put,
 * a batch), plus a cell in the family whose scope is local, which must not leave the source. Every
 * row starts with a prefix, so two clusters can write the same table at once (master-master)
 * without touching each other's rows.
 */
final class InteropWrites {
  static final byte[] CF = Bytes.toBytes("cf");
  static final byte[] LOCAL = Bytes.toBytes("local");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] R = Bytes.toBytes("r");
  private static final byte[] A = Bytes.toBytes("a");
  private static final byte[] B = Bytes.toBytes("b");
  private static final byte[] C = Bytes.toBytes("c");

  /** The size of the one large value. */
  static final int LARGE_VALUE_BYTES = 3 << 20;

  /** Rows of the batch at the end. */
  static final int BATCH_ROWS = 100;

  private final Table table;
  private final String prefix;
  private int calls;

  private InteropWrites(Table table, String prefix) {
    this.table = table;
    this.prefix = prefix;
  }

  /**
   * Makes every edit on {@code table}, each row named {@code prefix + kind}; returns how many
   * client calls (each one mutation or one batch) it made.
   */
  static int writeAll(Table table, String prefix) throws IOException {
    InteropWrites w = new InteropWrites(table, prefix);
    w.run();
    return w.calls;
  }

  private byte[] row(String kind) {
    return Bytes.toBytes(prefix + kind);
  }

  private void put(Put p) throws IOException {
    table.put(p);
    calls++;
  }

  private void delete(Delete d) throws IOException {
    table.delete(d);
    calls++;
  }

  /** Versions 1000, 2000 and 3000 of {@code family:q} in the row, one put each. */
  private void threeVersions(byte[] row, byte[] qualifier) throws IOException {
    for (long ts = 1000; ts <= 3000; ts += 1000) {
      put(new Put(row).addColumn(CF, qualifier, ts, Bytes.toBytes("v" + ts)));
    }
  }

  private void run() throws IOException {
    byte[] versions = row("versions");
    threeVersions(versions, Q);

    put(new Put(row("server-ts")).addColumn(CF, Q, Bytes.toBytes("server clock")));

    put(
        new Put(row("multi"))
            .addColumn(CF, A, Bytes.toBytes("a"))
            .addColumn(CF, B, Bytes.toBytes("b"))
            .addColumn(CF, C, Bytes.toBytes("c"))
            .addColumn(LOCAL, Q, Bytes.toBytes("stays at the source")));

    byte[] delVersion = row("delete-version");
    threeVersions(delVersion, Q);
    delete(new Delete(delVersion).addColumn(CF, Q, 2000)); // only 2000 goes

    byte[] delLatest = row("delete-latest");
    threeVersions(delLatest, Q);
    // No timestamp: the source's server resolves it to the newest version's (3000), and logs
    // that marker, so the sink gets a version delete at 3000.
    delete(new Delete(delLatest).addColumn(CF, Q));

    byte[] delColumn = row("delete-column");
    threeVersions(delColumn, Q);
    threeVersions(delColumn, R);
    delete(new Delete(delColumn).addColumns(CF, Q, 2000)); // q@1000 and q@2000 go; r stays

    byte[] delFamily = row("delete-family");
    for (long ts : new long[] {1000, 3000}) {
      put(
          new Put(delFamily)
              .addColumn(CF, A, ts, Bytes.toBytes("a" + ts))
              .addColumn(CF, B, ts, Bytes.toBytes("b" + ts)));
    }
    delete(new Delete(delFamily).addFamily(CF, 2000)); // the versions at 1000 go

    byte[] delFamilyVersion = row("delete-family-version");
    for (long ts : new long[] {1000, 2000}) {
      put(
          new Put(delFamilyVersion)
              .addColumn(CF, A, ts, Bytes.toBytes("a" + ts))
              .addColumn(CF, B, ts, Bytes.toBytes("b" + ts)));
    }
    delete(new Delete(delFamilyVersion).addFamilyVersion(CF, 1000)); // the versions at 1000 go

    byte[] delRow = row("delete-row");
    put(
        new Put(delRow)
            .addColumn(CF, Q, Bytes.toBytes("gone"))
            .addColumn(LOCAL, Q, Bytes.toBytes("gone too")));
    delete(new Delete(delRow));

    byte[] again = row("delete-row-then-put");
    put(new Put(again).addColumn(CF, Q, 1000, Bytes.toBytes("before")));
    delete(new Delete(again));
    put(new Put(again).addColumn(CF, R, Bytes.toBytes("after"))); // newer than the marker

    // A put older than a delete marker but written after it: hidden under HBase's classic rules
    // (NEW_VERSION_BEHAVIOR false), visible under the new ones (true). Both sides agree only when
    // the table has the same NEW_VERSION_BEHAVIOR on both.
    byte[] under = row("put-under-newer-delete");
    put(new Put(under).addColumn(CF, Q, 1000, Bytes.toBytes("before")));
    delete(new Delete(under).addColumns(CF, Q, 5000));
    put(new Put(under).addColumn(CF, Q, 4000, Bytes.toBytes("after the delete, older than it")));

    byte[] counter = row("increment");
    table.increment(new Increment(counter).addColumn(CF, Q, 5));
    table.increment(new Increment(counter).addColumn(CF, Q, 5));
    calls += 2;

    byte[] appended = row("append");
    table.append(new Append(appended).addColumn(CF, Q, Bytes.toBytes("ab")));
    table.append(new Append(appended).addColumn(CF, Q, Bytes.toBytes("cd")));
    calls += 2;

    byte[] mutated = row("row-mutations");
    put(new Put(mutated).addColumn(CF, B, 1000, Bytes.toBytes("b")));
    table.mutateRow(
        RowMutations.of(
            List.of(
                new Put(mutated).addColumn(CF, A, 2000, Bytes.toBytes("a")),
                new Delete(mutated).addColumns(CF, B))));
    calls++;

    byte[] checked = row("check-and-put");
    put(new Put(checked).addColumn(CF, Q, 1000, Bytes.toBytes("old")));
    boolean swapped =
        table
            .checkAndMutate(
                CheckAndMutate.newBuilder(checked)
                    .ifEquals(CF, Q, Bytes.toBytes("old"))
                    .build(new Put(checked).addColumn(CF, Q, 2000, Bytes.toBytes("new"))))
            .isSuccess();
    calls++;
    if (!swapped) {
      throw new IOException("check-and-put on the source did not apply");
    }

    // A cell block of megabytes through the source's and the sink's RPC (HBase refuses cells
    // over hbase.client.keyvalue.maxsize, 10 MB).
    byte[] large = new byte[LARGE_VALUE_BYTES];
    new Random(42).nextBytes(large);
    put(new Put(row("large-value")).addColumn(CF, Q, large));

    List<Put> batch = new ArrayList<>(BATCH_ROWS);
    for (int i = 0; i < BATCH_ROWS; i++) {
      batch.add(
          new Put(row(String.format("batch-%03d", i)))
              .addColumn(CF, Q, Bytes.toBytes("value " + i))
              .addColumn(LOCAL, Q, Bytes.toBytes("local " + i)));
    }
    table.put(batch);
    calls++;
  }
}
