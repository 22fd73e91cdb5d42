package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.io.IOException;
import java.util.List;

/**
 * Drops a whole row as soon as the wrapped filter fails to include one of its cells (answers
 * anything but INCLUDE). Needs whole rows, so it cannot be combined with a scan batch size.
 *
 * <p>Unlike HBase's, this wrapper passes row keys, whole rows (filterRowCells and filterRow), the
 * scan direction and seek hints on to the wrapped filter, so row-level filters (a {@link RowFilter}
 * or {@link PrefixFilter}, whose verdicts HBase's wrapper never consults) and whole-row filters
 * behave inside it as they do alone.
 */
public class SkipFilter extends Filter {
  private final Filter filter;
  private boolean filterRow;

  public SkipFilter(Filter filter) {
    if (filter == null) {
      throw new IllegalArgumentException("SkipFilter: wrapped filter must not be null");
    }
    this.filter = filter;
  }

  public Filter getFilter() {
    return filter;
  }

  @Override
  public void reset() throws IOException {
    filter.reset();
    filterRow = false;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    boolean drop = filter.filterRowKey(firstRowCell);
    filterRow |= drop;
    return drop;
  }

  @Override
  public boolean filterAllRemaining() throws IOException {
    return filter.filterAllRemaining();
  }

  @Override
  public ReturnCode filterCell(Cell c) throws IOException {
    ReturnCode rc = filter.filterCell(c);
    filterRow |= rc != ReturnCode.INCLUDE;
    return rc;
  }

  @Override
  public Cell transformCell(Cell c) throws IOException {
    return filter.transformCell(c);
  }

  @Override
  public void filterRowCells(List<Cell> cells) throws IOException {
    filter.filterRowCells(cells);
  }

  /** Drops the row when a cell failed, or else when the wrapped filter drops it. */
  @Override
  public boolean filterRow() throws IOException {
    return filterRow || filter.filterRow();
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public Cell getNextCellHint(Cell c) throws IOException {
    return filter.getNextCellHint(c);
  }

  @Override
  public boolean isFamilyEssential(byte[] family) throws IOException {
    return filter.isFamilyEssential(family);
  }

  @Override
  public void setReversed(boolean reversed) {
    super.setReversed(reversed);
    filter.setReversed(reversed);
  }

  @Override
  public String toString() {
    return "SkipFilter " + filter;
  }
}
