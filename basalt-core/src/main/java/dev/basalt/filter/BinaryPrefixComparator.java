package dev.basalt.filter;

import dev.basalt.cell.Bytes;

/**
 * Compares the value with the stored bytes cut to the value's length: stored bytes that start with
 * the value compare equal. Stored bytes shorter than the value are compared whole (so they sort
 * before it when they are a prefix of it).
 */
public class BinaryPrefixComparator extends ByteArrayComparable {

  public BinaryPrefixComparator(byte[] value) {
    super(requireValue(value, "BinaryPrefixComparator"));
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    return Bytes.compareTo(value, 0, value.length, stored, offset, Math.min(value.length, length));
  }

  @Override
  public String toString() {
    return "BinaryPrefixComparator(" + Bytes.toStringBinary(value) + ")";
  }
}
