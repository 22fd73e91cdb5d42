package dev.basalt.bench.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Scans a linked-list table through the stock client after the {@link LinkedListWriter} stopped and
 * counts, as HBase's IntegrationTestBigLinkedList Verify does:
 *
 * <ul>
 *   <li><b>undefined</b>: keys a node names as {@code prev} that are not in the table. A node only
 *       references an acknowledged node, so each one is a lost write;
 *   <li><b>lost</b>: acknowledged nodes missing from the table (what the writers remember; this
 *       also catches a list's newest nodes, which nothing references);
 *   <li><b>unreferenced</b>: nodes nobody references that are neither a list's head (its newest
 *       acknowledged node) nor an ambiguous put (failed, yet stored): a node that should not be
 *       there, or a link that vanished;
 *   <li><b>corrupt</b>: rows that are not nodes (a key not 16 bytes, or no {@code prev} cell).
 * </ul>
 *
 * Also counted: nodes, referenced nodes, extra references (a node named by two: an ambiguous put
 * that was stored names the same node as the next one), and ambiguous puts found stored. A run
 * passes when undefined, lost, unreferenced and corrupt are all 0.
 */
public final class LinkedListVerifier {
  private static final int EXAMPLES = 5;

  private LinkedListVerifier() {}

  /** What the scan found. */
  public record Result(
      long nodes,
      long referenced,
      long undefined,
      long lost,
      long unreferenced,
      long corrupt,
      long extraReferences,
      long ambiguousStored,
      long acknowledged,
      long scanMillis,
      List<String> examples) {
    /** 0 lost, 0 undefined, 0 unreferenced, 0 corrupt. */
    public boolean passed() {
      return undefined == 0 && lost == 0 && unreferenced == 0 && corrupt == 0;
    }

    @Override
    public String toString() {
      return String.format(
          "%s: %d nodes (%d acknowledged by the writers), %d referenced, %d undefined, %d lost,"
              + " %d unreferenced, %d corrupt, %d extra references, %d ambiguous puts stored;"
              + " scan %d ms%s",
          passed() ? "PASSED" : "FAILED",
          nodes,
          acknowledged,
          referenced,
          undefined,
          lost,
          unreferenced,
          corrupt,
          extraReferences,
          ambiguousStored,
          scanMillis,
          examples.isEmpty() ? "" : ", e.g. " + examples);
    }
  }

  /** Scans {@code table} and compares it with what the writers did. */
  public static Result verify(Connection connection, TableName table, LinkedListWriter.Written w)
      throws IOException {
    long t0 = System.nanoTime();
    KeySet present = new KeySet((int) Math.min(1 << 28, w.acknowledged() + 1024));
    KeySet referenced = new KeySet((int) Math.min(1 << 28, w.acknowledged() + 1024));
    List<String> examples = new ArrayList<>();
    long corrupt = 0;
    long extra = 0;
    Scan scan = new Scan().addFamily(NodeKeys.FAMILY).setCaching(1000);
    try (Table t = connection.getTable(table);
        ResultScanner s = t.getScanner(scan)) {
      for (org.apache.hadoop.hbase.client.Result r : s) {
        byte[] row = r.getRow();
        byte[] prev = r.getValue(NodeKeys.FAMILY, NodeKeys.PREV);
        if (row.length != NodeKeys.KEY_LENGTH
            || prev == null
            || (prev.length != 0 && prev.length != NodeKeys.KEY_LENGTH)) {
          corrupt++;
          example(examples, "corrupt row " + Bytes.toStringBinary(row) + ": " + r);
          continue;
        }
        present.add(NodeKeys.hi(row), NodeKeys.lo(row));
        if (prev.length != 0 && !referenced.add(NodeKeys.hi(prev), NodeKeys.lo(prev))) {
          extra++;
        }
      }
    }
    long[] undefined = {0};
    referenced.forEach(
        (hi, lo) -> {
          if (!present.contains(hi, lo)) {
            undefined[0]++;
            example(examples, "undefined " + NodeKeys.toString(hi, lo));
          }
        });
    long[] lost = {0};
    w.acknowledged.forEach(
        (hi, lo) -> {
          if (!present.contains(hi, lo)) {
            lost[0]++;
            example(examples, "lost " + NodeKeys.toString(hi, lo));
          }
        });
    long[] unreferenced = {0};
    long[] ambiguousStored = {0};
    present.forEach(
        (hi, lo) -> {
          boolean ambiguous = w.ambiguous.contains(hi, lo);
          if (ambiguous) {
            ambiguousStored[0]++;
          }
          if (!referenced.contains(hi, lo) && !ambiguous && !w.heads.contains(hi, lo)) {
            unreferenced[0]++;
            example(examples, "unreferenced " + NodeKeys.toString(hi, lo));
          }
        });
    return new Result(
        present.size(),
        referenced.size() - undefined[0],
        undefined[0],
        lost[0],
        unreferenced[0],
        corrupt,
        extra,
        ambiguousStored[0],
        w.acknowledged(),
        (System.nanoTime() - t0) / 1_000_000,
        examples);
  }

  private static void example(List<String> examples, String what) {
    if (examples.size() < EXAMPLES) {
      examples.add(what);
    }
  }
}
