package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps, in each row, only the cells whose timestamp is also the timestamp of a version of the
 * dependent column (optionally only versions whose value passes a comparison). Needs whole rows, so
 * it cannot be combined with a scan batch size.
 */
public class DependentColumnFilter extends CompareFilter {
  private final byte[] columnFamily;
  private final byte[] columnQualifier;
  private final boolean dropDependentColumn;
  private final Set<Long> stamps = new HashSet<>();

  /**
   * @param family family of the dependent column
   * @param qualifier qualifier of the dependent column (null means the empty qualifier)
   * @param dropDependentColumn whether the dependent column's own cells are left out
   * @param valueCompareOp how the dependent column's values are compared; {@code NO_OP} with a
   *     comparator rejects every version, as in HBase
   * @param valueComparator null to accept every version of the dependent column
   */
  public DependentColumnFilter(
      byte[] family,
      byte[] qualifier,
      boolean dropDependentColumn,
      CompareOperator valueCompareOp,
      ByteArrayComparable valueComparator) {
    super(valueCompareOp, valueComparator, true);
    if (family == null) {
      throw new IllegalArgumentException("DependentColumnFilter: family must not be null");
    }
    this.columnFamily = family;
    this.columnQualifier = qualifier == null ? Bytes.EMPTY : qualifier;
    this.dropDependentColumn = dropDependentColumn;
  }

  public DependentColumnFilter(byte[] family, byte[] qualifier) {
    this(family, qualifier, false);
  }

  public DependentColumnFilter(byte[] family, byte[] qualifier, boolean dropDependentColumn) {
    this(family, qualifier, dropDependentColumn, CompareOperator.NO_OP, null);
  }

  public byte[] getFamily() {
    return columnFamily;
  }

  public byte[] getQualifier() {
    return columnQualifier;
  }

  public boolean dropDependentColumn() {
    return dropDependentColumn;
  }

  public boolean getDropDependentColumn() {
    return dropDependentColumn;
  }

  @Override
  public void reset() {
    stamps.clear();
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (!CellUtil.matchingColumn(c, columnFamily, columnQualifier)) {
      // Other columns wait for filterRowCells, which knows every dependent timestamp.
      return ReturnCode.INCLUDE;
    }
    if (comparator != null && valueFails(op, comparator, c)) {
      return ReturnCode.SKIP;
    }
    stamps.add(c.getTimestamp());
    return dropDependentColumn ? ReturnCode.SKIP : ReturnCode.INCLUDE;
  }

  @Override
  public void filterRowCells(List<Cell> cells) {
    cells.removeIf(c -> !stamps.contains(c.getTimestamp()));
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  @Override
  public String toString() {
    return "DependentColumnFilter ("
        + Bytes.toStringBinary(columnFamily)
        + ", "
        + Bytes.toStringBinary(columnQualifier)
        + ", "
        + dropDependentColumn
        + ", "
        + op
        + ", "
        + comparator
        + ")";
  }
}
