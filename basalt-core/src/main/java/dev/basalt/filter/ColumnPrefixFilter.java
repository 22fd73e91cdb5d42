package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;

/**
 * Returns the columns whose qualifier starts with the prefix: seeks to the prefix from the columns
 * before it and skips the rest of the row after the last column that has it. An empty prefix
 * matches every column; a null prefix (HBase's wire form without one) lets everything through.
 */
public class ColumnPrefixFilter extends Filter implements HintingFilter {
  private final byte[] prefix;

  public ColumnPrefixFilter(byte[] prefix) {
    this.prefix = prefix;
  }

  public byte[] getPrefix() {
    return prefix;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (prefix == null) {
      return ReturnCode.INCLUDE;
    }
    int cmp = Cells.compareQualifierPrefix(c, prefix);
    if (cmp < 0) {
      return ReturnCode.SEEK_NEXT_USING_HINT;
    }
    return cmp == 0 ? ReturnCode.INCLUDE : ReturnCode.NEXT_ROW;
  }

  @Override
  public Cell getNextCellHint(Cell c) {
    if (prefix == null || Cells.compareQualifierPrefix(c, prefix) >= 0) {
      return null;
    }
    return Cells.firstOnColumn(c, prefix);
  }

  @Override
  public String toString() {
    return "ColumnPrefixFilter " + Bytes.toStringBinary(prefix);
  }
}
