package dev.basalt.filter;

import dev.basalt.cell.Cell;

/**
 * Ends the scan once {@code pageSize} rows have been returned. The count is per filter instance, so
 * a scan over several regions may return more (as in HBase, where each region applies it).
 */
public class PageFilter extends Filter {
  private final long pageSize;
  private long rowsAccepted;

  public PageFilter(long pageSize) {
    if (pageSize < 0) {
      throw new IllegalArgumentException(
          "PageFilter: page size must not be negative, got " + pageSize);
    }
    this.pageSize = pageSize;
  }

  public long getPageSize() {
    return pageSize;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    return filterAllRemaining();
  }

  @Override
  public boolean filterAllRemaining() {
    return rowsAccepted >= pageSize;
  }

  /** Called for each row that has cells left: counts it, and drops it past the page. */
  @Override
  public boolean filterRow() {
    rowsAccepted++;
    return rowsAccepted > pageSize;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "PageFilter " + pageSize;
  }
}
