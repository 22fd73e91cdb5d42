package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import java.util.Arrays;

/**
 * Byte-level operations on keys in the KeyValue key layout (row length, row, family length, family,
 * qualifier, timestamp, type: docs/formats/keyvalue.md), as they sit in decoded blocks and in the
 * block index. {@link #compare} mirrors {@link dev.basalt.cell.CellComparator} exactly
 * (KeyBytesTest checks it), so that blocks and the index are searched without building cells.
 * Stateless.
 */
final class KeyBytes {
  /** Timestamp and type: the 9 bytes that end every key. */
  static final int TAIL = 9;

  private KeyBytes() {}

  /**
   * Compares two keys without sequence ids: row, family, qualifier ascending (unsigned), timestamp
   * descending, type code descending.
   */
  static int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int arl = (short) ((a[aOff] & 0xFF) << 8 | (a[aOff + 1] & 0xFF));
    int brl = (short) ((b[bOff] & 0xFF) << 8 | (b[bOff + 1] & 0xFF));
    int c = Arrays.compareUnsigned(a, aOff + 2, aOff + 2 + arl, b, bOff + 2, bOff + 2 + brl);
    if (c != 0) {
      return c;
    }
    int af = aOff + 2 + arl;
    int bf = bOff + 2 + brl;
    int afl = a[af];
    int bfl = b[bf];
    c = Arrays.compareUnsigned(a, af + 1, af + 1 + afl, b, bf + 1, bf + 1 + bfl);
    if (c != 0) {
      return c;
    }
    int aEnd = aOff + aLen - TAIL;
    int bEnd = bOff + bLen - TAIL;
    c = Arrays.compareUnsigned(a, af + 1 + afl, aEnd, b, bf + 1 + bfl, bEnd);
    if (c != 0) {
      return c;
    }
    c = Long.compare(Bytes.readLong(b, bEnd), Bytes.readLong(a, aEnd));
    if (c != 0) {
      return c;
    }
    return (b[bEnd + 8] & 0xFF) - (a[aEnd + 8] & 0xFF);
  }

  /** {@link #compare}, then sequence id descending: the full cell order. */
  static int compare(
      byte[] a, int aOff, int aLen, long aSeq, byte[] b, int bOff, int bLen, long bSeq) {
    int c = compare(a, aOff, aLen, b, bOff, bLen);
    return c != 0 ? c : Long.compare(bSeq, aSeq);
  }

  /**
   * Null when the {@code len} bytes at {@code off} are a well-formed key, else what is wrong. The
   * checks are those every key reader relies on to stay inside the key: lengths that fit and a
   * known type code.
   */
  static String validate(byte[] b, int off, int len) {
    if (len < KeyValue.KEY_INFRASTRUCTURE_SIZE) {
      return "key length " + len + " is below " + KeyValue.KEY_INFRASTRUCTURE_SIZE;
    }
    int rl = Bytes.readShort(b, off);
    if (rl < 0 || 2 + rl + 1 > len - TAIL) {
      return "row length " + rl + " does not fit a " + len + "-byte key";
    }
    int fl = b[off + 2 + rl];
    if (fl < 0 || 2 + rl + 1 + fl > len - TAIL) {
      return "family length " + fl + " does not fit a " + len + "-byte key";
    }
    try {
      CellType.fromCode(b[off + len - 1]);
    } catch (IllegalArgumentException e) {
      return "unknown type code " + (b[off + len - 1] & 0xFF);
    }
    return null;
  }

  /**
   * A short key {@code s} with {@code left < s <= right}, for the block index; null when there is
   * none shorter than {@code right}. Only a row change is shortened: {@code s} is then the
   * first-on-row key of the shortest row between the two rows (empty family and qualifier, newest
   * timestamp, type Maximum), which sorts before every cell of its row. Requires {@code left <
   * right} in key order and different rows for a result.
   */
  static byte[] separator(byte[] l, int lOff, int lLen, byte[] r, int rOff, int rLen) {
    int lrl = Bytes.readShort(l, lOff);
    int rrl = Bytes.readShort(r, rOff);
    int ls = lOff + 2;
    int rs = rOff + 2;
    int p = Arrays.mismatch(l, ls, ls + lrl, r, rs, rs + rrl);
    if (p < 0) {
      return null; // same row
    }
    // The left row is smaller: it is a proper prefix of the right row (p == lrl), or it has the
    // smaller byte at p.
    if (p >= rrl) {
      return null; // right is not after left: no separator
    }
    byte[] row;
    if (p < lrl && (l[ls + p] & 0xFF) + 1 < (r[rs + p] & 0xFF)) {
      row = Arrays.copyOfRange(l, ls, ls + p + 1);
      row[p]++;
    } else {
      row = Arrays.copyOfRange(r, rs, rs + p + 1);
    }
    int len = KeyValue.KEY_INFRASTRUCTURE_SIZE + row.length;
    if (len >= rLen) {
      return null;
    }
    byte[] key = new byte[len];
    Bytes.putShort(key, 0, (short) row.length);
    System.arraycopy(row, 0, key, 2, row.length);
    key[2 + row.length] = 0; // family length
    Bytes.putLong(key, 3 + row.length, KeyValue.LATEST_TIMESTAMP);
    key[len - 1] = CellType.MAXIMUM.code();
    return key;
  }
}
