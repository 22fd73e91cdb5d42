package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;

/**
 * Returns the columns whose qualifier lies in a range; a null bound is open. Columns before the
 * range are left with a seek to its lower bound, and the first column past it ends the row. An
 * inverted range (min after max) returns nothing, as in HBase.
 */
public class ColumnRangeFilter extends Filter implements HintingFilter {
  private final byte[] minColumn;
  private final boolean minColumnInclusive;
  private final byte[] maxColumn;
  private final boolean maxColumnInclusive;

  public ColumnRangeFilter(
      byte[] minColumn, boolean minColumnInclusive, byte[] maxColumn, boolean maxColumnInclusive) {
    this.minColumn = minColumn;
    this.minColumnInclusive = minColumnInclusive;
    this.maxColumn = maxColumn;
    this.maxColumnInclusive = maxColumnInclusive;
  }

  public byte[] getMinColumn() {
    return minColumn;
  }

  public boolean getMinColumnInclusive() {
    return minColumnInclusive;
  }

  public boolean isMinColumnInclusive() {
    return minColumnInclusive;
  }

  public byte[] getMaxColumn() {
    return maxColumn;
  }

  public boolean getMaxColumnInclusive() {
    return maxColumnInclusive;
  }

  public boolean isMaxColumnInclusive() {
    return maxColumnInclusive;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (minColumn != null) {
      int cmpMin = Cells.compareQualifier(c, minColumn);
      if (cmpMin < 0) {
        return ReturnCode.SEEK_NEXT_USING_HINT;
      }
      if (cmpMin == 0 && !minColumnInclusive) {
        return ReturnCode.NEXT_COL;
      }
    }
    if (maxColumn == null) {
      return ReturnCode.INCLUDE;
    }
    int cmpMax = Cells.compareQualifier(c, maxColumn);
    if (cmpMax < 0 || (cmpMax == 0 && maxColumnInclusive)) {
      return ReturnCode.INCLUDE;
    }
    return ReturnCode.NEXT_ROW;
  }

  @Override
  public Cell getNextCellHint(Cell c) {
    if (minColumn == null || Cells.compareQualifier(c, minColumn) >= 0) {
      return null;
    }
    return Cells.firstOnColumn(c, minColumn);
  }

  @Override
  public String toString() {
    return "ColumnRangeFilter "
        + (minColumnInclusive ? "[" : "(")
        + Bytes.toStringBinary(minColumn)
        + ", "
        + Bytes.toStringBinary(maxColumn)
        + (maxColumnInclusive ? "]" : ")");
  }
}
