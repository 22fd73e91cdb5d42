package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;

/** Cell comparisons and seek keys the filters share. */
final class Cells {
  private Cells() {}

  /** Unsigned comparison of the cell's row with {@code row}. */
  static int compareRow(Cell c, byte[] row) {
    return Bytes.compareTo(c.getRowArray(), c.getRowOffset(), c.getRowLength(), row, 0, row.length);
  }

  /** Unsigned comparison of the cell's qualifier with {@code qualifier}. */
  static int compareQualifier(Cell c, byte[] qualifier) {
    return Bytes.compareTo(
        c.getQualifierArray(),
        c.getQualifierOffset(),
        c.getQualifierLength(),
        qualifier,
        0,
        qualifier.length);
  }

  /**
   * Compares the first {@code prefix.length} bytes of {@code a[off, off + len)} with the prefix: 0
   * when it starts with the prefix, negative when it sorts before every key with the prefix (a
   * shorter key that is a proper prefix of it counts as before), positive when after all of them.
   */
  static int comparePrefix(byte[] a, int off, int len, byte[] prefix) {
    int n = Math.min(len, prefix.length);
    int c = Bytes.compareTo(a, off, n, prefix, 0, n);
    if (c != 0) {
      return c;
    }
    return len < prefix.length ? -1 : 0;
  }

  static int compareRowPrefix(Cell c, byte[] prefix) {
    return comparePrefix(c.getRowArray(), c.getRowOffset(), c.getRowLength(), prefix);
  }

  static int compareQualifierPrefix(Cell c, byte[] prefix) {
    return comparePrefix(
        c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength(), prefix);
  }

  static boolean sameRow(Cell c, byte[] row) {
    return row != null && CellUtil.matchingRow(c, row);
  }

  /** Sorts before every cell of {@code row}. */
  static Cell firstOnRow(byte[] row) {
    return KeyValue.firstOnRow(row);
  }

  /** Sorts before every cell of column {@code qualifier} in the row and family of {@code c}. */
  static Cell firstOnColumn(Cell c, byte[] qualifier) {
    return KeyValue.firstOnColumn(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), qualifier);
  }

  /** Sorts before the versions of {@code c}'s column at {@code ts} and older. */
  static Cell firstOnColumnAt(Cell c, long ts) {
    return KeyValue.firstOnColumnAt(
        CellUtil.cloneRow(c), CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), ts);
  }

  /** Sorts after every cell of {@code c}'s column. */
  static Cell lastOnColumn(Cell c) {
    return KeyValue.lastOnColumn(c);
  }
}
