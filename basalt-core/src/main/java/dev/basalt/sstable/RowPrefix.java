package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import java.util.Arrays;

/**
 * Packed row prefixes that let binary searches over sorted keys (a decoded block, the block index)
 * compare two longs in a small array instead of touching each key's bytes. Every key of a sorted
 * run shares the first {@code shared} row bytes that its first and last keys share; the next 8 row
 * bytes, zero-padded, are packed big-endian into a long. When two packed values differ they order
 * the rows as their bytes do (a zero pad sorts like the end of the shorter row, which is then a
 * prefix of the other); when they are equal the keys must be compared in full. Stateless.
 */
final class RowPrefix {
  /** Result of {@link #locate}: the key's row sorts before every row of the run. */
  static final int BEFORE_ALL = -1;

  /** Result of {@link #locate}: the key's row sorts after every row of the run. */
  static final int AFTER_ALL = 1;

  /** Result of {@link #locate}: the key's row starts with the shared prefix. */
  static final int WITHIN = 0;

  private RowPrefix() {}

  /** Row bytes shared by two keys (KeyValue key layout, at the row length field). */
  static int shared(byte[] a, int aKey, byte[] b, int bKey) {
    int al = Bytes.readShort(a, aKey);
    int bl = Bytes.readShort(b, bKey);
    int m = Arrays.mismatch(a, aKey + 2, aKey + 2 + al, b, bKey + 2, bKey + 2 + bl);
    return m < 0 ? al : m;
  }

  /** The packed row of a key, skipping {@code shared} bytes. */
  static long pack(byte[] b, int key, int shared) {
    int len = Bytes.readShort(b, key) - shared;
    int off = key + 2 + shared;
    long v = 0;
    int n = Math.min(8, len);
    for (int i = 0; i < n; i++) {
      v |= (b[off + i] & 0xFFL) << (56 - 8 * i);
    }
    return v;
  }

  /**
   * Where the key's row lies against a run whose rows share {@code shared} bytes with the row of
   * the key at {@code runKey}: {@link #WITHIN} (then {@link #pack} it), or before or after all.
   */
  static int locate(byte[] kb, int key, byte[] run, int runKey, int shared) {
    int rowLen = Bytes.readShort(kb, key);
    int n = Math.min(rowLen, shared);
    int m = Arrays.mismatch(kb, key + 2, key + 2 + n, run, runKey + 2, runKey + 2 + n);
    if (m >= 0) {
      return (kb[key + 2 + m] & 0xFF) < (run[runKey + 2 + m] & 0xFF) ? BEFORE_ALL : AFTER_ALL;
    }
    // A row shorter than the shared prefix is a proper prefix of every row of the run.
    return rowLen < shared ? BEFORE_ALL : WITHIN;
  }
}
