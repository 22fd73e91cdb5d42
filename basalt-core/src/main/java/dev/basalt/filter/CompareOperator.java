package dev.basalt.filter;

/**
 * Comparison operators of filters and check-and-mutate (HBase's {@code CompareOperator}).
 *
 * <p>Note HBase's operand order, kept here: a condition compares the <em>given</em> value with the
 * <em>stored</em> one, so {@code LESS} with value v passes when {@code v < stored}.
 */
public enum CompareOperator {
  LESS,
  LESS_OR_EQUAL,
  EQUAL,
  NOT_EQUAL,
  GREATER_OR_EQUAL,
  GREATER,
  NO_OP;

  /**
   * Whether a comparison result satisfies this operator.
   *
   * @param compareResult the sign of compare(given, stored)
   */
  public boolean matches(int compareResult) {
    switch (this) {
      case LESS:
        return compareResult < 0;
      case LESS_OR_EQUAL:
        return compareResult <= 0;
      case EQUAL:
        return compareResult == 0;
      case NOT_EQUAL:
        return compareResult != 0;
      case GREATER_OR_EQUAL:
        return compareResult >= 0;
      case GREATER:
        return compareResult > 0;
      case NO_OP:
        return true;
      default:
        throw new AssertionError(this);
    }
  }
}
