package dev.basalt.filter;

import dev.basalt.cell.Bytes;

/**
 * Matches (returns 0) when the stored bytes have the value's length and combining them byte by byte
 * with the value under the operator gives at least one non-zero byte; anything else returns 1.
 */
public class BitComparator extends ByteArrayComparable {

  /** How stored bytes are combined with the value. */
  public enum BitwiseOp {
    AND,
    OR,
    XOR
  }

  private final BitwiseOp bitOperator;

  public BitComparator(byte[] value, BitwiseOp bitOperator) {
    super(requireValue(value, "BitComparator"));
    if (bitOperator == null) {
      throw new IllegalArgumentException("BitComparator: operator must not be null");
    }
    this.bitOperator = bitOperator;
  }

  public BitwiseOp getOperator() {
    return bitOperator;
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    if (length != value.length) {
      return 1;
    }
    for (int i = 0; i < length; i++) {
      int a = value[i];
      int b = stored[offset + i];
      int r;
      switch (bitOperator) {
        case AND:
          r = a & b;
          break;
        case OR:
          r = a | b;
          break;
        default:
          r = a ^ b;
          break;
      }
      if ((r & 0xff) != 0) {
        return 0;
      }
    }
    return 1;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && ((BitComparator) o).bitOperator == bitOperator;
  }

  @Override
  public int hashCode() {
    return super.hashCode() * 31 + bitOperator.hashCode();
  }

  @Override
  public String toString() {
    return "BitComparator(" + Bytes.toStringBinary(value) + ", " + bitOperator + ")";
  }
}
