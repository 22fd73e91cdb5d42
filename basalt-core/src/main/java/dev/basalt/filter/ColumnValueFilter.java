package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;

/**
 * Returns only the cells of one column whose value passes the comparison (unlike {@link
 * SingleColumnValueFilter}, which returns whole rows). Once the column has been passed in a row the
 * rest of that row is skipped.
 */
public class ColumnValueFilter extends Filter {
  private final byte[] family;
  private final byte[] qualifier;
  private final CompareOperator op;
  private final ByteArrayComparable comparator;
  private boolean columnFound;

  public ColumnValueFilter(byte[] family, byte[] qualifier, CompareOperator op, byte[] value) {
    this(family, qualifier, op, value == null ? null : new BinaryComparator(value));
  }

  /**
   * @param qualifier null means the empty qualifier
   * @param op {@code NO_OP} passes nothing, as in HBase
   */
  public ColumnValueFilter(
      byte[] family, byte[] qualifier, CompareOperator op, ByteArrayComparable comparator) {
    if (family == null) {
      throw new IllegalArgumentException("ColumnValueFilter: family must not be null");
    }
    if (op == null) {
      throw new IllegalArgumentException("ColumnValueFilter: compare operator must not be null");
    }
    if (comparator == null) {
      throw new IllegalArgumentException("ColumnValueFilter: comparator must not be null");
    }
    this.family = family;
    this.qualifier = qualifier == null ? Bytes.EMPTY : qualifier;
    this.op = op;
    this.comparator = comparator;
  }

  public byte[] getFamily() {
    return family;
  }

  public byte[] getQualifier() {
    return qualifier;
  }

  public CompareOperator getCompareOperator() {
    return op;
  }

  public ByteArrayComparable getComparator() {
    return comparator;
  }

  @Override
  public void reset() {
    columnFound = false;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (!CellUtil.matchingColumn(c, family, qualifier)) {
      return columnFound ? ReturnCode.NEXT_ROW : ReturnCode.NEXT_COL;
    }
    columnFound = true;
    return CompareFilter.valueFails(op, comparator, c) ? ReturnCode.SKIP : ReturnCode.INCLUDE;
  }

  @Override
  public boolean isFamilyEssential(byte[] name) {
    return Bytes.equals(name, family);
  }

  @Override
  public String toString() {
    return "ColumnValueFilter ("
        + Bytes.toStringBinary(family)
        + ", "
        + Bytes.toStringBinary(qualifier)
        + ", "
        + op
        + ", "
        + comparator
        + ")";
  }
}
