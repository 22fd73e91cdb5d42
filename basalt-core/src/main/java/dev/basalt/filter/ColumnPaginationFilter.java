package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;

/**
 * Returns a page of columns of each row (the newest version of each): either {@code limit} columns
 * after skipping {@code offset} columns, or {@code limit} columns starting at the first column
 * whose qualifier is at or after {@code columnOffset}, which is reached with a seek. Columns are
 * counted across families in family order, as in HBase; with a column offset, once the page has
 * started in one family the following families' columns are counted from their first column.
 */
public class ColumnPaginationFilter extends Filter implements HintingFilter {
  private final int limit;
  private final int offset;
  private final byte[] columnOffset;
  private int count;

  /**
   * @param limit how many columns to return
   * @param offset how many columns to skip first
   */
  public ColumnPaginationFilter(int limit, int offset) {
    checkLimit(limit);
    if (offset < 0) {
      throw new IllegalArgumentException(
          "ColumnPaginationFilter: offset must not be negative, got " + offset);
    }
    this.limit = limit;
    this.offset = offset;
    this.columnOffset = null;
  }

  /**
   * @param limit how many columns to return
   * @param columnOffset the qualifier the page starts at (or after, when absent)
   */
  public ColumnPaginationFilter(int limit, byte[] columnOffset) {
    checkLimit(limit);
    if (columnOffset == null) {
      throw new IllegalArgumentException("ColumnPaginationFilter: columnOffset must not be null");
    }
    this.limit = limit;
    this.offset = -1;
    this.columnOffset = columnOffset;
  }

  private static void checkLimit(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException(
          "ColumnPaginationFilter: limit must not be negative, got " + limit);
    }
  }

  public int getLimit() {
    return limit;
  }

  /** The integer offset, or -1 when the page starts at a column offset. */
  public int getOffset() {
    return offset;
  }

  /** The qualifier the page starts at, or null for an integer offset. */
  public byte[] getColumnOffset() {
    return columnOffset;
  }

  @Override
  public void reset() {
    count = 0;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (columnOffset != null) {
      if (count >= limit) {
        return ReturnCode.NEXT_ROW;
      }
      if (count == 0 && Cells.compareQualifier(c, columnOffset) < 0) {
        return ReturnCode.SEEK_NEXT_USING_HINT;
      }
      count++;
      return ReturnCode.INCLUDE_AND_NEXT_COL;
    }
    if (count >= offset + (long) limit) {
      return ReturnCode.NEXT_ROW;
    }
    ReturnCode code = count < offset ? ReturnCode.NEXT_COL : ReturnCode.INCLUDE_AND_NEXT_COL;
    count++;
    return code;
  }

  @Override
  public Cell getNextCellHint(Cell c) {
    if (columnOffset == null || Cells.compareQualifier(c, columnOffset) >= 0) {
      return null;
    }
    return Cells.firstOnColumn(c, columnOffset);
  }

  @Override
  public String toString() {
    return columnOffset != null
        ? "ColumnPaginationFilter (" + limit + ", " + Bytes.toStringBinary(columnOffset) + ")"
        : "ColumnPaginationFilter (" + limit + ", " + offset + ")";
  }
}
