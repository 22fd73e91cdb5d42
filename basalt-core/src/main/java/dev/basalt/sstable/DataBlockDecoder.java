package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;

/**
 * Decodes a data block payload (see {@link DataBlockEncoder}) into a {@link DataBlock}, checking
 * every length and the restart array first, so that bytes which are not a block raise {@link
 * CorruptStoreFileException} and never an index or allocation error. Two passes: the first checks
 * the structure and measures the decoded size (and whether any cell has a per-cell TTL), the second
 * fills exactly-sized arrays. Stateless.
 */
final class DataBlockDecoder {
  private static final String WHAT = "data block";

  private DataBlockDecoder() {}

  /**
   * @param cellTtls whether entries carry the TTL flag (format version 2) or a plain sequence id
   *     (version 1)
   */
  static DataBlock decode(
      byte[] buf, int off, int len, String file, long blockOffset, boolean cellTtls)
      throws CorruptStoreFileException {
    ByteReader whole = new ByteReader(buf, off, len, file, blockOffset, WHAT);
    if (len < 4) {
      throw whole.corrupt("payload of " + len + " bytes has no restart count");
    }
    int restartCount = Bytes.readInt(buf, off + len - 4);
    if (restartCount < 1 || 4L + 4L * restartCount > len) {
      throw whole.corrupt("restart count " + restartCount + " does not fit " + len + " bytes");
    }
    int entriesLen = len - 4 - 4 * restartCount;
    int restartsAt = off + entriesLen;

    // Pass 1: structure and sizes.
    ByteReader in = new ByteReader(buf, off, entriesLen, file, blockOffset, WHAT);
    int n = 0;
    int prevKeyLen = 0;
    long total = 0;
    boolean anyTtl = false;
    while (in.remaining() > 0) {
      int entryAt = in.position() - off;
      int shared = in.readVarInt("shared key length");
      int unshared = in.readVarInt("unshared key length");
      int vlen = in.readVarInt("value length");
      long seq = in.readVarLong("sequence id");
      if (cellTtls && (seq & 1) != 0) {
        anyTtl = true;
        if (in.readLong("per-cell TTL") == KeyValue.NO_TTL) {
          throw in.corrupt("cell " + n + " has a TTL flag and no TTL");
        }
      }
      if (n % DataBlockEncoder.RESTART_INTERVAL == 0) {
        int r = n / DataBlockEncoder.RESTART_INTERVAL;
        if (r >= restartCount) {
          throw in.corrupt("more cells than " + restartCount + " restart points allow");
        }
        int expected = Bytes.readInt(buf, restartsAt + 4 * r);
        if (expected != entryAt || shared != 0) {
          throw in.corrupt("restart point " + r + " does not match the cell at " + entryAt);
        }
      }
      if (shared > prevKeyLen) {
        throw in.corrupt("cell " + n + " shares " + shared + " bytes of a " + prevKeyLen + " key");
      }
      long keyLen = (long) shared + unshared;
      if (keyLen < KeyValue.KEY_INFRASTRUCTURE_SIZE || keyLen > Integer.MAX_VALUE - 32) {
        throw in.corrupt("cell " + n + " has key length " + keyLen);
      }
      in.skip(unshared, "key bytes");
      in.skip(vlen, "value");
      total += KeyValue.ROW_OFFSET + keyLen + vlen;
      if (total > Integer.MAX_VALUE - 16) {
        throw in.corrupt("decodes to more than 2 GiB");
      }
      prevKeyLen = (int) keyLen;
      n++;
    }
    if (n == 0) {
      throw in.corrupt("holds no cells");
    }
    if ((n - 1) / DataBlockEncoder.RESTART_INTERVAL + 1 != restartCount) {
      throw in.corrupt(n + " cells but " + restartCount + " restart points");
    }

    // Pass 2: lay out the cells; lengths are known to fit.
    byte[] data = new byte[(int) total];
    int[] offsets = new int[n + 1];
    long[] seqIds = new long[n];
    long[] ttls = anyTtl ? new long[n] : null; // none in a block without per-cell TTLs
    in = new ByteReader(buf, off, entriesLen, file, blockOffset, WHAT);
    int p = 0;
    int prevKeyAt = 0;
    for (int i = 0; i < n; i++) {
      int shared = in.readVarInt("shared key length");
      int unshared = in.readVarInt("unshared key length");
      int vlen = in.readVarInt("value length");
      long seq = in.readVarLong("sequence id");
      if (cellTtls) {
        if (ttls != null) {
          ttls[i] = (seq & 1) != 0 ? in.readLong("per-cell TTL") : KeyValue.NO_TTL;
        }
        seq >>>= 1;
      }
      seqIds[i] = seq;
      int keyLen = shared + unshared;
      offsets[i] = p;
      Bytes.putInt(data, p, keyLen);
      Bytes.putInt(data, p + 4, vlen);
      int keyAt = p + KeyValue.ROW_OFFSET;
      System.arraycopy(data, prevKeyAt, data, keyAt, shared);
      System.arraycopy(buf, in.skip(unshared, "key bytes"), data, keyAt + shared, unshared);
      System.arraycopy(buf, in.skip(vlen, "value"), data, keyAt + keyLen, vlen);
      String bad = KeyBytes.validate(data, keyAt, keyLen);
      if (bad != null) {
        throw in.corrupt("cell " + i + ": " + bad);
      }
      prevKeyAt = keyAt;
      p = keyAt + keyLen + vlen;
    }
    offsets[n] = p;
    return new DataBlock(data, offsets, seqIds, ttls, n);
  }
}
