package dev.basalt.filter;

import dev.basalt.cell.Bytes;

/**
 * Compares the value with stored bytes read as an 8-byte big-endian signed long. As in HBase,
 * stored bytes of another width are an error ({@link IllegalArgumentException} naming the width),
 * which fails the read rather than silently skipping the cell.
 */
public class LongComparator extends ByteArrayComparable {
  private final long longValue;

  public LongComparator(long value) {
    super(Bytes.toBytes(value));
    this.longValue = value;
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    return Long.compare(longValue, Bytes.toLong(stored, offset, length));
  }

  @Override
  public String toString() {
    return "LongComparator(" + longValue + ")";
  }
}
