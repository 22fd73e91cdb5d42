package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;

/**
 * Returns every cell with its value replaced: empty, or with {@code lenAsVal} the original value's
 * length as a 4-byte big-endian int. Keys (and timestamps) are unchanged.
 */
public class KeyOnlyFilter extends Filter {
  private final boolean lenAsVal;

  public KeyOnlyFilter() {
    this(false);
  }

  public KeyOnlyFilter(boolean lenAsVal) {
    this.lenAsVal = lenAsVal;
  }

  /** Whether values become their length instead of nothing. */
  public boolean isLenAsVal() {
    return lenAsVal;
  }

  @Override
  public Cell transformCell(Cell c) {
    byte[] v = lenAsVal ? Bytes.toBytes(c.getValueLength()) : Bytes.EMPTY;
    return KeyValue.create(
            c.getRowArray(),
            c.getRowOffset(),
            c.getRowLength(),
            c.getFamilyArray(),
            c.getFamilyOffset(),
            c.getFamilyLength(),
            c.getQualifierArray(),
            c.getQualifierOffset(),
            c.getQualifierLength(),
            c.getTimestamp(),
            c.getTypeByte(),
            v,
            0,
            v.length)
        .withSequenceId(c.getSequenceId());
  }

  @Override
  public String toString() {
    return "KeyOnlyFilter " + lenAsVal;
  }
}
