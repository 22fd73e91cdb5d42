package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;

/**
 * Keeps whole rows by the value of one column: a row passes when the column's newest version (or,
 * with {@code latestVersionOnly} false, any version the read sees) passes the comparison. A row
 * without the column passes unless {@code filterIfMissing}. Every cell of a passing row is
 * returned; needs whole rows, so it cannot be combined with a scan batch size.
 *
 * <p>"Sees" means after the read's own rules: versions outside the time range or beyond the
 * family's VERSIONS, deleted cells, and columns of families the read does not include count as
 * missing.
 */
public class SingleColumnValueFilter extends Filter {
  protected final byte[] columnFamily;
  protected final byte[] columnQualifier;
  protected final CompareOperator op;
  protected final ByteArrayComparable comparator;
  protected boolean filterIfMissing;
  protected boolean latestVersionOnly = true;
  private boolean foundColumn;
  private boolean matchedColumn;

  public SingleColumnValueFilter(
      byte[] family, byte[] qualifier, CompareOperator op, byte[] value) {
    this(family, qualifier, op, new BinaryComparator(requireValue(value)));
  }

  public SingleColumnValueFilter(
      byte[] family, byte[] qualifier, CompareOperator op, ByteArrayComparable comparator) {
    String name = getClass().getSimpleName();
    if (family == null) {
      throw new IllegalArgumentException(name + ": family must not be null");
    }
    if (op == null || op == CompareOperator.NO_OP) {
      throw new IllegalArgumentException(
          name + ": compare operator must be one of LESS..GREATER, got " + op);
    }
    if (comparator == null) {
      throw new IllegalArgumentException(name + ": comparator must not be null");
    }
    this.columnFamily = family;
    this.columnQualifier = qualifier == null ? Bytes.EMPTY : qualifier;
    this.op = op;
    this.comparator = comparator;
  }

  /** The form HBase's wire format builds: every field at once. */
  public SingleColumnValueFilter(
      byte[] family,
      byte[] qualifier,
      CompareOperator op,
      ByteArrayComparable comparator,
      boolean filterIfMissing,
      boolean latestVersionOnly) {
    this(family, qualifier, op, comparator);
    this.filterIfMissing = filterIfMissing;
    this.latestVersionOnly = latestVersionOnly;
  }

  private static byte[] requireValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("SingleColumnValueFilter: value must not be null");
    }
    return value;
  }

  public byte[] getFamily() {
    return columnFamily;
  }

  public byte[] getQualifier() {
    return columnQualifier;
  }

  public CompareOperator getCompareOperator() {
    return op;
  }

  public ByteArrayComparable getComparator() {
    return comparator;
  }

  public boolean getFilterIfMissing() {
    return filterIfMissing;
  }

  /** Whether a row without the column is dropped (default false: it passes). */
  public void setFilterIfMissing(boolean filterIfMissing) {
    this.filterIfMissing = filterIfMissing;
  }

  public boolean getLatestVersionOnly() {
    return latestVersionOnly;
  }

  /** Whether only the newest version is tested (default true) or any version may match. */
  public void setLatestVersionOnly(boolean latestVersionOnly) {
    this.latestVersionOnly = latestVersionOnly;
  }

  @Override
  public void reset() {
    foundColumn = false;
    matchedColumn = false;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (matchedColumn) {
      return ReturnCode.INCLUDE;
    }
    if (latestVersionOnly && foundColumn) {
      // The newest version was seen and failed: the row is lost.
      return ReturnCode.NEXT_ROW;
    }
    if (!CellUtil.matchingColumn(c, columnFamily, columnQualifier)) {
      return ReturnCode.INCLUDE;
    }
    foundColumn = true;
    if (CompareFilter.valueFails(op, comparator, c)) {
      return latestVersionOnly ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
    }
    matchedColumn = true;
    return ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterRow() {
    return foundColumn ? !matchedColumn : filterIfMissing;
  }

  @Override
  public boolean hasFilterRow() {
    return true;
  }

  /** Only the tested family matters when rows without the column are dropped anyway. */
  @Override
  public boolean isFamilyEssential(byte[] name) {
    return !filterIfMissing || Bytes.equals(name, columnFamily);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + " ("
        + Bytes.toStringBinary(columnFamily)
        + ", "
        + Bytes.toStringBinary(columnQualifier)
        + ", "
        + op
        + ", "
        + comparator
        + ", filterIfMissing="
        + filterIfMissing
        + ", latestVersionOnly="
        + latestVersionOnly
        + ")";
  }
}
