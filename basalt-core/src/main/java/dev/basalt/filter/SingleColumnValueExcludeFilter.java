package dev.basalt.filter;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.util.List;

/**
 * {@link SingleColumnValueFilter} that leaves the tested column out of the rows it returns. The
 * column is removed when the row is complete, because the test must see it first.
 */
public class SingleColumnValueExcludeFilter extends SingleColumnValueFilter {

  public SingleColumnValueExcludeFilter(
      byte[] family, byte[] qualifier, CompareOperator op, byte[] value) {
    super(family, qualifier, op, value);
  }

  public SingleColumnValueExcludeFilter(
      byte[] family, byte[] qualifier, CompareOperator op, ByteArrayComparable comparator) {
    super(family, qualifier, op, comparator);
  }

  public SingleColumnValueExcludeFilter(
      byte[] family,
      byte[] qualifier,
      CompareOperator op,
      ByteArrayComparable comparator,
      boolean filterIfMissing,
      boolean latestVersionOnly) {
    super(family, qualifier, op, comparator, filterIfMissing, latestVersionOnly);
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    cells.removeIf(c -> CellUtil.matchingColumn(c, columnFamily, columnQualifier));
  }
}
