package dev.basalt.filter;

/**
 * Matches (returns 0) only a null value. Every stored cell has a value, even an empty one, so with
 * EQUAL nothing passes and with NOT_EQUAL everything does, as in HBase.
 */
public class NullComparator extends ByteArrayComparable {

  public NullComparator() {
    super(new byte[0]);
  }

  @Override
  public int compareTo(byte[] stored) {
    return stored == null ? 0 : 1;
  }

  @Override
  public int compareTo(byte[] stored, int offset, int length) {
    return compareTo(stored);
  }

  @Override
  public String toString() {
    return "NullComparator";
  }
}
