package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.filter.CompareOperator;
import dev.basalt.filter.Filter;

/**
 * A mutation applied atomically only when a condition on the same row holds. The condition is
 * either a comparison of one column's latest value (optionally within a time range) or a filter
 * that must let some cell of the row through. Built with {@link #newBuilder(byte[])}; immutable.
 *
 * <p>Comparison semantics are HBase's: {@code op} compares the given value with the stored one
 * (LESS passes when given &lt; stored). A null or empty given value tests for absence: EQUAL passes
 * when the column is missing or its value is empty, NOT_EQUAL when it holds a non-empty value.
 */
public final class CheckAndMutate implements Row {
  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final CompareOperator op;
  private final byte[] value;
  private final Filter filter;
  private final TimeRange timeRange;
  private final Row action;

  private CheckAndMutate(Builder b, Row action) {
    this.row = b.row;
    this.family = b.family;
    this.qualifier = b.qualifier;
    this.op = b.op;
    this.value = b.value;
    this.filter = b.filter;
    this.timeRange = b.timeRange;
    this.action = action;
  }

  public static Builder newBuilder(byte[] row) {
    return new Builder(row);
  }

  @Override
  public byte[] getRow() {
    return row;
  }

  public boolean hasFilter() {
    return filter != null;
  }

  public byte[] getFamily() {
    return family;
  }

  public byte[] getQualifier() {
    return qualifier;
  }

  public CompareOperator getCompareOp() {
    return op;
  }

  /** The given value, or null when testing for absence. */
  public byte[] getValue() {
    return value;
  }

  public Filter getFilter() {
    return filter;
  }

  public TimeRange getTimeRange() {
    return timeRange;
  }

  /** The Put, Delete, Increment, Append or RowMutations to apply. */
  public Row getAction() {
    return action;
  }

  /** Collects the condition, then {@code build(action)}. */
  public static final class Builder {
    private final byte[] row;
    private byte[] family;
    private byte[] qualifier;
    private CompareOperator op;
    private byte[] value;
    private Filter filter;
    private TimeRange timeRange = TimeRange.allTime();

    private Builder(byte[] row) {
      this.row = Mutation.checkRow(row);
    }

    /** Passes when the column has no value. */
    public Builder ifNotExists(byte[] family, byte[] qualifier) {
      return ifMatches(family, qualifier, CompareOperator.EQUAL, null);
    }

    public Builder ifEquals(byte[] family, byte[] qualifier, byte[] value) {
      return ifMatches(family, qualifier, CompareOperator.EQUAL, value);
    }

    public Builder ifMatches(byte[] family, byte[] qualifier, CompareOperator op, byte[] value) {
      if (filter != null) {
        throw new IllegalStateException(
            "a CheckAndMutate has either a column condition or a filter");
      }
      if (op == null) {
        throw new IllegalArgumentException("compare operator is null");
      }
      this.family = Mutation.checkFamily(family);
      this.qualifier = qualifier == null ? Bytes.EMPTY : qualifier;
      this.op = op;
      this.value = value;
      return this;
    }

    /** Passes when the filter lets at least one cell of the row through. */
    public Builder ifMatches(Filter filter) {
      if (family != null) {
        throw new IllegalStateException(
            "a CheckAndMutate has either a column condition or a filter");
      }
      if (filter == null) {
        throw new IllegalArgumentException("filter is null");
      }
      this.filter = filter;
      return this;
    }

    public Builder timeRange(TimeRange timeRange) {
      this.timeRange = timeRange == null ? TimeRange.allTime() : timeRange;
      return this;
    }

    public CheckAndMutate build(Put put) {
      return check(put);
    }

    public CheckAndMutate build(Delete delete) {
      return check(delete);
    }

    public CheckAndMutate build(Increment increment) {
      return check(increment);
    }

    public CheckAndMutate build(Append append) {
      return check(append);
    }

    public CheckAndMutate build(RowMutations mutations) {
      return check(mutations);
    }

    private CheckAndMutate check(Row action) {
      if (family == null && filter == null) {
        throw new IllegalStateException(
            "no condition: call ifNotExists, ifEquals or ifMatches before build");
      }
      if (!Bytes.equals(action.getRow(), row)) {
        throw new IllegalArgumentException(
            "the action's row "
                + Bytes.toStringBinary(action.getRow())
                + " does not match the condition's row "
                + Bytes.toStringBinary(row));
      }
      return new CheckAndMutate(this, action);
    }
  }
}
