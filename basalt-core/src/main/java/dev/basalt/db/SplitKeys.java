package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * The split keys of a table created over several regions, checked and computed as HBase's {@code
 * Admin.createTable} does: explicit keys (sorted; none empty, none repeated), or {@code numRegions}
 * regions over {@code [startKey, endKey]} (the first region ends at {@code startKey}, the last
 * starts at {@code endKey}, and the keys between are evenly spaced, HBase's {@code Bytes.split}).
 * Stateless.
 */
final class SplitKeys {
  private SplitKeys() {}

  /**
   * A sorted copy of {@code splitKeys} (null means none).
   *
   * @throws IllegalArgumentException for a null or empty key, a repeated key, or one longer than a
   *     row key can be
   */
  static byte[][] check(byte[][] splitKeys) {
    if (splitKeys == null) {
      return new byte[0][];
    }
    byte[][] sorted = new byte[splitKeys.length][];
    for (int i = 0; i < splitKeys.length; i++) {
      byte[] k = splitKeys[i];
      if (k == null) {
        throw new IllegalArgumentException("split key " + (i + 1) + " is null");
      }
      if (k.length == 0) {
        throw new IllegalArgumentException(
            "Empty split key must not be passed in the split keys (split key " + (i + 1) + ")");
      }
      if (k.length > KeyValue.MAX_ROW_LENGTH) {
        throw new IllegalArgumentException(
            "split key "
                + (i + 1)
                + " is "
                + k.length
                + " bytes; a row key is at most "
                + KeyValue.MAX_ROW_LENGTH);
      }
      sorted[i] = k.clone();
    }
    Arrays.sort(sorted, Bytes.COMPARATOR);
    for (int i = 1; i < sorted.length; i++) {
      if (Bytes.equals(sorted[i], sorted[i - 1])) {
        throw new IllegalArgumentException(
            "All split keys must be unique, found duplicate: " + Bytes.toStringBinary(sorted[i]));
      }
    }
    return sorted;
  }

  /**
   * The {@code numRegions - 1} split keys of HBase's {@code createTable(desc, startKey, endKey,
   * numRegions)}.
   *
   * @throws IllegalArgumentException for fewer than 3 regions, a start key not below the end key,
   *     or a key range too narrow to split that often
   */
  static byte[][] between(byte[] startKey, byte[] endKey, int numRegions) {
    if (numRegions < 3) {
      throw new IllegalArgumentException(
          "Must create at least three regions (got numRegions=" + numRegions + ")");
    }
    byte[] a = startKey == null ? Bytes.EMPTY : startKey;
    byte[] b = endKey == null ? Bytes.EMPTY : endKey;
    if (Bytes.compareTo(a, b) >= 0) {
      throw new IllegalArgumentException(
          "Start key must be smaller than end key (start '"
              + Bytes.toStringBinary(a)
              + "', end '"
              + Bytes.toStringBinary(b)
              + "')");
    }
    byte[][] keys = numRegions == 3 ? new byte[][] {a, b} : split(a, b, numRegions - 3);
    if (keys.length != numRegions - 1) {
      throw new IllegalArgumentException("Unable to split key range into enough regions");
    }
    return check(keys);
  }

  /** HBase's {@code Bytes.split(a, b, num)}: a, then num keys evenly between, then b. */
  static byte[][] split(byte[] a, byte[] b, int num) {
    byte[] aPadded = a;
    byte[] bPadded = b;
    if (a.length < b.length) {
      aPadded = Arrays.copyOf(a, b.length);
    } else if (b.length < a.length) {
      bPadded = Arrays.copyOf(b, a.length);
    }
    if (Bytes.compareTo(aPadded, bPadded) >= 0) {
      throw new IllegalArgumentException(
          "Start key must be smaller than end key once padded to the same length");
    }
    byte[] header = {1, 0};
    BigInteger start = new BigInteger(Bytes.concat(header, aPadded));
    BigInteger stop = new BigInteger(Bytes.concat(header, bPadded));
    BigInteger diff = stop.subtract(start);
    BigInteger parts = BigInteger.valueOf(num + 1L);
    if (diff.compareTo(parts) < 0) {
      // Not enough room between the keys at this length: use one more byte.
      return split(
          Arrays.copyOf(aPadded, aPadded.length + 1),
          Arrays.copyOf(bPadded, bPadded.length + 1),
          num);
    }
    BigInteger interval = diff.divide(parts);
    byte[][] out = new byte[num + 2][];
    out[0] = a;
    out[num + 1] = b;
    for (int i = 1; i <= num; i++) {
      byte[] padded = start.add(interval.multiply(BigInteger.valueOf(i))).toByteArray();
      // Drop the header again (BigInteger may have added a sign byte in front of it).
      out[i] =
          padded[1] == 0
              ? Arrays.copyOfRange(padded, 2, padded.length)
              : Arrays.copyOfRange(padded, 1, padded.length);
    }
    return out;
  }
}
