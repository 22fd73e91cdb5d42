package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.io.IOException;
import java.util.List;

/**
 * Ends the whole scan the first time the wrapped filter rejects anything: a row key, a cell (any
 * answer but INCLUDE) or a row. The cells of the current row read before that point are still
 * returned.
 *
 * <p>Unlike HBase's, this wrapper passes whole rows, the scan direction and seek hints on to the
 * wrapped filter.
 */
public class WhileMatchFilter extends Filter {
  private final Filter filter;
  private boolean filterAllRemaining;

  public WhileMatchFilter(Filter filter) {
    if (filter == null) {
      throw new IllegalArgumentException("WhileMatchFilter: wrapped filter must not be null");
    }
    this.filter = filter;
  }

  public Filter getFilter() {
    return filter;
  }

  @Override
  public void reset() throws IOException {
    filter.reset();
  }

  @Override
  public boolean filterAllRemaining() throws IOException {
    return filterAllRemaining || filter.filterAllRemaining();
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) throws IOException {
    if (filterAllRemaining()) {
      return true;
    }
    boolean drop = filter.filterRowKey(firstRowCell);
    filterAllRemaining |= drop;
    return drop;
  }

  @Override
  public ReturnCode filterCell(Cell c) throws IOException {
    ReturnCode rc = filter.filterCell(c);
    filterAllRemaining |= rc != ReturnCode.INCLUDE;
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

  @Override
  public boolean filterRow() throws IOException {
    boolean drop = filter.filterRow();
    filterAllRemaining |= drop;
    return drop;
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
    return "WhileMatchFilter " + filter;
  }
}
