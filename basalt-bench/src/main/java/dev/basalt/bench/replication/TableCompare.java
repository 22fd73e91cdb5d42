package dev.basalt.bench.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Row counts and a row-by-row comparison of one table on two clusters, through the stock client:
 * both tables are scanned in key order side by side, and every row is compared cell by cell (values
 * and timestamps: the sink applies edits with their original timestamps).
 */
final class TableCompare {
  private static final int CACHING = 500;

  private TableCompare() {}

  /** Rows whose key starts with {@code prefix}. */
  static long countRows(Connection c, TableName table, String prefix) throws IOException {
    Scan scan =
        new Scan()
            .setRowPrefixFilter(prefix.getBytes(StandardCharsets.UTF_8))
            .setFilter(new FirstKeyOnlyFilter())
            .setCaching(CACHING);
    long n = 0;
    try (Table t = c.getTable(table);
        ResultScanner rs = t.getScanner(scan)) {
      for (Result r = rs.next(); r != null; r = rs.next()) {
        n++;
      }
    }
    return n;
  }

  /** The outcome of a comparison; {@link #firstDifference} is null when there is none. */
  record Outcome(long rows, long onlyInA, long onlyInB, long different, String firstDifference) {
    boolean same() {
      return onlyInA == 0 && onlyInB == 0 && different == 0;
    }

    @Override
    public String toString() {
      return same()
          ? String.format("%,d rows, identical", rows)
          : String.format(
              "%,d rows compared: %,d only in A, %,d only in B, %,d different; first: %s",
              rows, onlyInA, onlyInB, different, firstDifference);
    }
  }

  static Outcome compare(Connection a, Connection b, TableName table) throws IOException {
    long rows = 0;
    long onlyA = 0;
    long onlyB = 0;
    long different = 0;
    String first = null;
    try (Table ta = a.getTable(table);
        Table tb = b.getTable(table);
        ResultScanner sa = ta.getScanner(new Scan().setCaching(CACHING));
        ResultScanner sb = tb.getScanner(new Scan().setCaching(CACHING))) {
      Result ra = sa.next();
      Result rb = sb.next();
      while (ra != null || rb != null) {
        rows++;
        int order = ra == null ? 1 : rb == null ? -1 : Bytes.compareTo(ra.getRow(), rb.getRow());
        if (order < 0) {
          onlyA++;
          first = first != null ? first : "only in A: " + Bytes.toStringBinary(ra.getRow());
          ra = sa.next();
        } else if (order > 0) {
          onlyB++;
          first = first != null ? first : "only in B: " + Bytes.toStringBinary(rb.getRow());
          rb = sb.next();
        } else {
          try {
            Result.compareResults(ra, rb, false);
          } catch (Exception e) {
            different++;
            first =
                first != null
                    ? first
                    : "row " + Bytes.toStringBinary(ra.getRow()) + ": " + e.getMessage();
          }
          ra = sa.next();
          rb = sb.next();
        }
      }
    }
    return new Outcome(rows, onlyA, onlyB, different, first);
  }
}
