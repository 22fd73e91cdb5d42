package dev.basalt.filter;

import dev.basalt.cell.Cell;

/** Keeps the rows whose key passes the comparison; decided once per row, from the row key. */
public class RowFilter extends CompareFilter {
  private boolean filterOutRow;

  public RowFilter(CompareOperator op, ByteArrayComparable rowComparator) {
    super(op, rowComparator);
  }

  @Override
  public void reset() {
    filterOutRow = false;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (rowFails(op, comparator, firstRowCell)) {
      filterOutRow = true;
    }
    return filterOutRow;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return filterOutRow ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return filterOutRow;
  }
}
