package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;

/**
 * Returns the rows whose key starts with the prefix. Rows before the prefix (in scan order) are
 * left with a seek to the first row that can have it; the first row after it ends the scan. An
 * empty prefix matches every row; a null prefix (HBase's wire form without one) matches none.
 */
public class PrefixFilter extends Filter implements HintingFilter {
  private final byte[] prefix;
  private final byte[] prefixEnd;
  private boolean passedPrefix;
  private boolean provideHint;
  private boolean filterRow = true;
  private byte[] decidedRow;

  public PrefixFilter(byte[] prefix) {
    this.prefix = prefix;
    this.prefixEnd = prefix == null ? null : Bytes.prefixEnd(prefix);
  }

  public byte[] getPrefix() {
    return prefix;
  }

  @Override
  public void reset() {
    filterRow = true;
    provideHint = false;
    decidedRow = null;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (prefix == null || passedPrefix) {
      return true;
    }
    decide(firstRowCell);
    return passedPrefix;
  }

  private void decide(Cell c) {
    byte[] row = CellUtil.cloneRow(c);
    decidedRow = row;
    int cmp = Cells.compareRowPrefix(c, prefix);
    boolean before = isReversed() ? cmp > 0 : cmp < 0;
    boolean after = isReversed() ? cmp < 0 : cmp > 0;
    if (after) {
      passedPrefix = true;
    }
    filterRow = cmp != 0;
    provideHint = before;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (prefix == null || passedPrefix) {
      return ReturnCode.NEXT_ROW;
    }
    if (!Cells.sameRow(c, decidedRow)) {
      // Reached without filterRowKey (inside a wrapper that does not pass it on).
      decide(c);
    }
    if (provideHint) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return filterRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterRow;
  }

  @Override
  public boolean filterAllRemaining() {
    return passedPrefix;
  }

  /**
   * Forwards: the first cell of the prefix itself. Reversed: the first row not below the prefix's
   * range ({@link Bytes#prefixEnd}); a reversed seek lands there or, when that row is absent, on
   * the last row with the prefix.
   */
  @Override
  public Cell getNextCellHint(Cell c) {
    if (prefix == null) {
      return null;
    }
    int cmp = Cells.compareRowPrefix(c, prefix);
    if (!isReversed()) {
      return cmp < 0 ? Cells.firstOnRow(prefix) : null;
    }
    return cmp > 0 && prefixEnd.length > 0 ? Cells.firstOnRow(prefixEnd) : null;
  }

  @Override
  public String toString() {
    return "PrefixFilter " + Bytes.toStringBinary(prefix);
  }
}
