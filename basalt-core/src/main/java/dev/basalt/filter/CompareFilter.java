package dev.basalt.filter;

import dev.basalt.cell.Cell;

/**
 * Base of the filters that compare one part of a cell with a {@link ByteArrayComparable} (HBase's
 * {@code CompareFilter}).
 *
 * <p>Filters use HBase's <em>filter</em> operand order, which is the reverse of check-and-mutate's:
 * a cell passes when "stored op value" holds, so {@code LESS} passes stored bytes that sort before
 * the comparator's value. {@link CompareOperator#NO_OP} passes nothing.
 */
public abstract class CompareFilter extends Filter {
  protected final CompareOperator op;
  protected final ByteArrayComparable comparator;

  protected CompareFilter(CompareOperator op, ByteArrayComparable comparator) {
    this(op, comparator, false);
  }

  CompareFilter(CompareOperator op, ByteArrayComparable comparator, boolean comparatorOptional) {
    String name = getClass().getSimpleName();
    if (op == null) {
      throw new IllegalArgumentException(name + ": compare operator must not be null");
    }
    if (comparator == null && !comparatorOptional) {
      throw new IllegalArgumentException(name + ": comparator must not be null");
    }
    this.op = op;
    this.comparator = comparator;
  }

  public CompareOperator getCompareOperator() {
    return op;
  }

  public ByteArrayComparable getComparator() {
    return comparator;
  }

  /** True when the bytes do not pass {@code op} against the comparator (HBase: "filter out"). */
  static boolean fails(
      CompareOperator op, ByteArrayComparable comparator, byte[] b, int off, int len) {
    if (op == CompareOperator.NO_OP) {
      return true;
    }
    int given = comparator.compareTo(b, off, len);
    // comparator.compareTo is sign(value vs stored); the filter tests stored vs value.
    return !op.matches(-Integer.signum(given));
  }

  static boolean rowFails(CompareOperator op, ByteArrayComparable comparator, Cell c) {
    return fails(op, comparator, c.getRowArray(), c.getRowOffset(), c.getRowLength());
  }

  static boolean familyFails(CompareOperator op, ByteArrayComparable comparator, Cell c) {
    return fails(op, comparator, c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength());
  }

  static boolean qualifierFails(CompareOperator op, ByteArrayComparable comparator, Cell c) {
    return fails(
        op, comparator, c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength());
  }

  static boolean valueFails(CompareOperator op, ByteArrayComparable comparator, Cell c) {
    return fails(op, comparator, c.getValueArray(), c.getValueOffset(), c.getValueLength());
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + " (" + op + ", " + comparator + ")";
  }
}
