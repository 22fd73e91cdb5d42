package dev.basalt.scan;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import java.util.NavigableSet;

/**
 * The explicitly requested qualifiers of one family, walked in step with a row's cells so that
 * unrequested columns are skipped with a seek to the next requested one. Reset per row. Not
 * thread-safe.
 */
final class ColumnSelection {
  private final byte[][] columns;
  private int index;

  ColumnSelection(NavigableSet<byte[]> requested) {
    this.columns = requested.toArray(new byte[0][]);
  }

  void reset() {
    index = 0;
  }

  /**
   * Whether the cell's qualifier is requested. Moves past requested columns that sort before it;
   * afterwards {@link #nextRequested()} is the first requested column after an unrequested one.
   */
  boolean isRequested(Cell c) {
    while (index < columns.length) {
      byte[] want = columns[index];
      int cmp =
          Bytes.compareTo(
              c.getQualifierArray(),
              c.getQualifierOffset(),
              c.getQualifierLength(),
              want,
              0,
              want.length);
      if (cmp == 0) {
        return true;
      }
      if (cmp < 0) {
        return false;
      }
      index++;
    }
    return false;
  }

  /**
   * The first requested column sorting after the current cell's column, or null when none is left.
   * Call after {@link #isRequested} for the same cell.
   */
  byte[] nextAfter(Cell c) {
    int i = index;
    while (i < columns.length) {
      byte[] want = columns[i];
      if (Bytes.compareTo(
              c.getQualifierArray(),
              c.getQualifierOffset(),
              c.getQualifierLength(),
              want,
              0,
              want.length)
          < 0) {
        return want;
      }
      i++;
    }
    return null;
  }
}
