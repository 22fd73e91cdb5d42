package dev.basalt.filter;

import dev.basalt.cell.Cell;

/**
 * Returns the newest version of the first {@code limit} columns of a row, then ends the whole read:
 * meant for Gets. In a scan only the first row's columns come back.
 */
public class ColumnCountGetFilter extends Filter {
  private final int limit;
  private int count;

  public ColumnCountGetFilter(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException(
          "ColumnCountGetFilter: limit must not be negative, got " + limit);
    }
    this.limit = limit;
  }

  public int getLimit() {
    return limit;
  }

  @Override
  public void reset() {
    count = 0;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    return filterAllRemaining();
  }

  @Override
  public boolean filterAllRemaining() {
    return count > limit;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    count++;
    return filterAllRemaining() ? ReturnCode.NEXT_COL : ReturnCode.INCLUDE_AND_NEXT_COL;
  }

  @Override
  public String toString() {
    return "ColumnCountGetFilter " + limit;
  }
}
