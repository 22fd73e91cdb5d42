package dev.basalt.shell.verify;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The differing cells of one row, as lines for the report: the first {@link #MAX_LINES} of them and
 * how many more. {@link #NONE} is the collector used for rows that will not be shown, so the
 * comparison of those allocates nothing per cell.
 */
class RowDiff {
  static final int MAX_LINES = 5;
  private static final int MAX_VALUE_BYTES = 32;

  /** Collects nothing. */
  static final RowDiff NONE =
      new RowDiff() {
        @Override
        void onlyInSource(Cell c) {}

        @Override
        void onlyInPeer(Cell c) {}

        @Override
        void valueDiffers(Cell source, Cell peer) {}
      };

  private final List<String> lines = new ArrayList<>();
  private long differences;

  void onlyInSource(Cell c) {
    add("only in source: " + key(c) + " value=" + value(c));
  }

  void onlyInPeer(Cell c) {
    add("only in peer:   " + key(c) + " value=" + value(c));
  }

  void valueDiffers(Cell source, Cell peer) {
    add("value differs:  " + key(source) + " source=" + value(source) + " peer=" + value(peer));
  }

  private void add(String line) {
    if (differences++ < MAX_LINES) {
      lines.add(line);
    }
  }

  /** The lines, with a last one saying how many more differences there were. */
  List<String> lines() {
    List<String> out = new ArrayList<>(lines);
    if (differences > MAX_LINES) {
      out.add("... and " + (differences - MAX_LINES) + " more");
    }
    return out;
  }

  /** family:qualifier/timestamp/type, as the HBase client prints a cell's key. */
  static String key(Cell c) {
    return Bytes.toStringBinary(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength())
        + ":"
        + Bytes.toStringBinary(
            c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
        + "/"
        + c.getTimestamp()
        + "/"
        + c.getType();
  }

  static String value(Cell c) {
    int len = Math.min(c.getValueLength(), MAX_VALUE_BYTES);
    String v = Bytes.toStringBinary(c.getValueArray(), c.getValueOffset(), len);
    return c.getValueLength() > len ? v + "...(" + c.getValueLength() + " bytes)" : v;
  }
}
