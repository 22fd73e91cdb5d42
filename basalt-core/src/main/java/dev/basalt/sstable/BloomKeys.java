package dev.basalt.sstable;

import dev.basalt.cell.Bytes;

/**
 * The keys a bloom filter holds, by bloom type (part of the format):
 *
 * <ul>
 *   <li>ROW: the row bytes.
 *   <li>ROWCOL, a column: row length (2 bytes, big-endian), row, qualifier. The length prefix keeps
 *       ("ab", "c") and ("a", "bc") apart. The family is left out: a store file holds one family.
 *   <li>ROWCOL, a family delete marker (DeleteFamily or DeleteFamilyVersion) in a row: {@code FF
 *       FF}, row. No row is 65535 bytes long, so this never equals a column key. It lets a get for
 *       one column learn that the file may hold a marker deleting that column although the column
 *       itself is absent.
 * </ul>
 *
 * Each key is hashed with XXH64, seed 0. Stateless.
 */
final class BloomKeys {
  static final long SEED = 0;

  private BloomKeys() {}

  static long rowHash(byte[] row, int off, int len) {
    return XxHash64.hash(row, off, len, SEED);
  }

  /** Builds the column key in {@code scratch} (grown when short) and hashes it. */
  static long columnHash(
      byte[] row, int roff, int rlen, byte[] qual, int qoff, int qlen, byte[][] scratch) {
    byte[] s = room(scratch, 2 + rlen + qlen);
    Bytes.putShort(s, 0, (short) rlen);
    System.arraycopy(row, roff, s, 2, rlen);
    System.arraycopy(qual, qoff, s, 2 + rlen, qlen);
    return XxHash64.hash(s, 0, 2 + rlen + qlen, SEED);
  }

  static long familyDeleteHash(byte[] row, int roff, int rlen, byte[][] scratch) {
    byte[] s = room(scratch, 2 + rlen);
    s[0] = (byte) 0xFF;
    s[1] = (byte) 0xFF;
    System.arraycopy(row, roff, s, 2, rlen);
    return XxHash64.hash(s, 0, 2 + rlen, SEED);
  }

  private static byte[] room(byte[][] scratch, int len) {
    if (scratch[0] == null || scratch[0].length < len) {
      scratch[0] = new byte[Math.max(len, 64)];
    }
    return scratch[0];
  }
}
