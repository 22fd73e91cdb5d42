package dev.basalt.filter;

import dev.basalt.cell.Bytes;

/** Unsigned lexicographic comparison of the whole stored bytes with the value. */
public class BinaryComparator extends ByteArrayComparable {

  public BinaryComparator(byte[] value) {
    super(requireValue(value, "BinaryComparator"));
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    return Bytes.compareTo(value, 0, value.length, stored, offset, length);
  }

  @Override
  public String toString() {
    return "BinaryComparator(" + Bytes.toStringBinary(value) + ")";
  }
}
