package dev.basalt.filter;

import java.util.Arrays;

/**
 * A value that filters compare stored bytes (row keys, families, qualifiers, cell values) against
 * (HBase's {@code ByteArrayComparable}).
 *
 * <p>The result follows HBase: {@code compareTo(stored)} is the sign of "this value compared with
 * the stored bytes", so an ordering comparator returns a negative number when its value sorts
 * before the stored bytes. Matching comparators (regex, substring, bit, null) return 0 for a match
 * and 1 otherwise. Implementations are immutable unless documented otherwise and safe to share.
 */
public abstract class ByteArrayComparable implements Comparable<byte[]> {
  /** The comparator's operand; subclasses never modify it. */
  final byte[] value;

  /**
   * @param value the operand; may be null only for comparators that document it
   */
  protected ByteArrayComparable(byte[] value) {
    this.value = value;
  }

  /** The operand this comparator was built with (what the wire form carries). */
  public byte[] getValue() {
    return value;
  }

  @Override
  public int compareTo(byte[] stored) {
    return compareTo(stored, 0, stored.length);
  }

  /** Compares this comparator's value with {@code stored[offset, offset + length)}. */
  public abstract int compareTo(byte[] stored, int offset, int length);

  /** Rejects a null operand with a message naming the comparator. */
  static byte[] requireValue(byte[] value, String comparator) {
    if (value == null) {
      throw new IllegalArgumentException(comparator + ": value must not be null");
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o != null
        && o.getClass() == getClass()
        && Arrays.equals(value, ((ByteArrayComparable) o).value);
  }

  @Override
  public int hashCode() {
    return getClass().hashCode() * 31 + Arrays.hashCode(value);
  }
}
