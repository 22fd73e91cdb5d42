package dev.basalt.shell.verify;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The first {@code limit} bad rows of a table in row order, with their differing cells, for the
 * report. Rows are offered as their verdicts become final (a re-checked row late and out of order),
 * so it keeps the lowest keys seen, not the first offered. Single-threaded.
 */
final class BadRowSample {
  private record Entry(Counter reason, List<String> lines) {}

  private final int limit;
  private final TreeMap<byte[], Entry> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);

  BadRowSample(int limit) {
    this.limit = limit;
  }

  /** Whether the row of {@code rowCell} would be kept: worth collecting its differences. */
  boolean wants(Cell rowCell) {
    if (rows.size() < limit) {
      return true;
    }
    if (limit == 0) {
      return false;
    }
    byte[] last = rows.lastKey();
    return Bytes.compareTo(
            rowCell.getRowArray(),
            rowCell.getRowOffset(),
            rowCell.getRowLength(),
            last,
            0,
            last.length)
        < 0;
  }

  /** Whether {@code row} would be kept. */
  boolean wants(byte[] row) {
    return rows.size() < limit || (limit > 0 && Bytes.compareTo(row, rows.lastKey()) < 0);
  }

  void add(byte[] row, Counter reason, List<String> lines) {
    if (!wants(row)) {
      return;
    }
    rows.put(row, new Entry(reason, lines));
    if (rows.size() > limit) {
      rows.pollLastEntry();
    }
  }

  /** One line per row (reason, row key in toStringBinary), then its differing cells indented. */
  void print(PrintWriter out, String indent, long badRows) {
    for (Map.Entry<byte[], Entry> e : rows.entrySet()) {
      out.println(indent + e.getValue().reason() + " " + Bytes.toStringBinary(e.getKey()));
      for (String line : e.getValue().lines()) {
        out.println(indent + "    " + line);
      }
    }
    if (badRows > rows.size()) {
      out.println(
          indent
              + "("
              + (badRows - rows.size())
              + " more bad rows not shown; --show-bad-rows=N shows more)");
    }
  }
}
