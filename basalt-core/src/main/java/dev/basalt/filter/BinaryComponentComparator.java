package dev.basalt.filter;

import dev.basalt.cell.Bytes;

/**
 * Compares the value with one component of the stored bytes: the {@code value.length} bytes
 * starting at {@link #getOffset()}. Stored bytes too short to hold the whole component are compared
 * on what they have (an absent component sorts first); HBase reads past the end in that case.
 */
public class BinaryComponentComparator extends ByteArrayComparable {
  private final int offset;

  /**
   * @param value the component to compare with
   * @param offset where the component starts in the stored bytes
   */
  public BinaryComponentComparator(byte[] value, int offset) {
    super(requireValue(value, "BinaryComponentComparator"));
    if (offset < 0) {
      throw new IllegalArgumentException(
          "BinaryComponentComparator: offset must not be negative, got " + offset);
    }
    this.offset = offset;
  }

  /** Where the component starts in the stored bytes. */
  public int getOffset() {
    return offset;
  }

  @Override
  public int compareTo(byte[] stored, int off, int length) {
    int start = Math.min(offset, length);
    int len = Math.min(value.length, length - start);
    return Bytes.compareTo(value, 0, value.length, stored, off + start, len);
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && ((BinaryComponentComparator) o).offset == offset;
  }

  @Override
  public int hashCode() {
    return super.hashCode() * 31 + offset;
  }

  @Override
  public String toString() {
    return "BinaryComponentComparator(" + Bytes.toStringBinary(value) + ", " + offset + ")";
  }
}
