package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import java.util.Arrays;

/**
 * One fuzzy row key of a {@link FuzzyRowFilter}: a key and, per byte, whether that byte is fixed
 * (must equal the key's) or free (any value).
 *
 * <p>A row matches when each of its bytes that lies under a fixed position of the key equals the
 * key's byte. As in HBase, only the positions both have are checked: a row longer than the key
 * matches on its first bytes, and a row shorter than the key matches when its bytes fit, so "ab"
 * matches key "abc" even with every position fixed. The seek targets below are exact for this rule:
 * no matching row lies between a row and its target.
 */
final class FuzzyKey {
  private final byte[] key;
  private final boolean[] fixed;

  private FuzzyKey(byte[] key, boolean[] fixed) {
    this.key = key;
    this.fixed = fixed;
  }

  /**
   * @param mask 0 for a fixed position and 1 for a free one; HBase's preprocessed form (-1 fixed, 2
   *     free) is accepted too, since HBase clients may send it
   */
  static FuzzyKey of(byte[] key, byte[] mask) {
    if (key == null || mask == null) {
      throw new IllegalArgumentException("FuzzyRowFilter: fuzzy key and mask must not be null");
    }
    if (key.length != mask.length) {
      throw new IllegalArgumentException(
          "FuzzyRowFilter: fuzzy key "
              + Bytes.toStringBinary(key)
              + " has "
              + key.length
              + " bytes but its mask "
              + Bytes.toStringBinary(mask)
              + " has "
              + mask.length);
    }
    boolean preprocessed = mask.length > 0;
    for (byte m : mask) {
      preprocessed &= m == -1 || m == 2;
    }
    boolean[] fixed = new boolean[mask.length];
    for (int i = 0; i < mask.length; i++) {
      if (preprocessed) {
        fixed[i] = mask[i] == -1;
      } else if (mask[i] == 0 || mask[i] == 1) {
        fixed[i] = mask[i] == 0;
      } else {
        throw new IllegalArgumentException(
            "FuzzyRowFilter: mask byte "
                + i
                + " of "
                + Bytes.toStringBinary(mask)
                + " is "
                + mask[i]
                + "; use 0 (fixed) or 1 (free)");
      }
    }
    return new FuzzyKey(key.clone(), fixed);
  }

  byte[] key() {
    return key.clone();
  }

  /** The mask in the public form: 0 fixed, 1 free. */
  byte[] mask() {
    byte[] m = new byte[fixed.length];
    for (int i = 0; i < m.length; i++) {
      m[i] = (byte) (fixed[i] ? 0 : 1);
    }
    return m;
  }

  /** The first position where the row breaks the key, or -1 when it matches. */
  int mismatch(byte[] row, int off, int len) {
    int n = Math.min(len, key.length);
    for (int i = 0; i < n; i++) {
      if (fixed[i] && row[off + i] != key[i]) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The smallest matching row after the row (which must not match, failing first at {@code f}), or
   * null when no later row matches. It is the row's first {@code f} bytes followed by the key's
   * byte when that is larger; otherwise the row cut after its last free byte below {@code f} that
   * can still grow, grown by one.
   */
  byte[] nextAfter(byte[] row, int off, int f) {
    if ((key[f] & 0xff) > (row[off + f] & 0xff)) {
      byte[] next = Arrays.copyOfRange(row, off, off + f + 1);
      next[f] = key[f];
      return next;
    }
    for (int j = f - 1; j >= 0; j--) {
      if (!fixed[j] && row[off + j] != (byte) 0xff) {
        byte[] next = Arrays.copyOfRange(row, off, off + j + 1);
        next[j]++;
        return next;
      }
    }
    return null;
  }

  /**
   * Where a reversed scan should go from the row (which must not match, failing first at {@code
   * f}): a row key such that no matching row lies strictly between it and the row, or null when no
   * earlier row matches.
   *
   * <p>When the key's byte at {@code f} is larger, the greatest matching row below is the row's
   * first {@code f} bytes. When it is smaller, the matching rows below are the rows with the row's
   * first {@code f} bytes and the key's byte, continued by the key's fixed bytes and anything at
   * free positions; all of them start with (or are prefixes of) the greatest such key-length row,
   * free bytes at 0xFF, so the target is the first row after everything with that prefix.
   */
  byte[] seekBelow(byte[] row, int off, int f) {
    if ((key[f] & 0xff) > (row[off + f] & 0xff)) {
      return f == 0 ? null : Arrays.copyOfRange(row, off, off + f);
    }
    byte[] top = Arrays.copyOf(Arrays.copyOfRange(row, off, off + f), key.length);
    top[f] = key[f];
    for (int i = f + 1; i < key.length; i++) {
      top[i] = fixed[i] ? key[i] : (byte) 0xff;
    }
    // top[f] is below the row's byte, so not 0xFF: the prefix end exists.
    return Bytes.prefixEnd(top);
  }
}
