package dev.basalt.sstable;

import dev.basalt.cell.KeyValue;
import java.util.Arrays;

/**
 * Encodes cells into a data block payload (before compression). Each cell's key is stored after the
 * bytes it shares with the previous cell's key; every 16th cell (a restart point) stores its whole
 * key, and the restart offsets at the end make the block binary-searchable without decoding it.
 *
 * <pre>
 * payload  = entry* restart* restartCount
 * entry    = varint shared   bytes of the key equal to the previous key's first bytes (0 at a
 *                            restart point)
 *            varint unshared the remaining key bytes (key length = shared + unshared)
 *            varint V        value length
 *            varlong seq2    sequence id * 2 + t (format version 1: the sequence id)
 *            int64 ttl       only when t = 1: the cell's per-cell TTL in ms
 *            unshared bytes  the end of the key (KeyValue key layout: row length .. type)
 *            V bytes         the value
 * restart  = int32           offset of entries 0, 16, 32, ... from the start of the payload
 * restartCount = int32       number of restart offsets (= ceil(cells / 16), at least 1)
 * </pre>
 *
 * Varints are unsigned LEB128. A cell without a per-cell TTL costs nothing for the flag but the one
 * more bit of its sequence id (a varint byte more only where the id crosses a 7-bit boundary). Not
 * thread-safe; reused for every block of a file.
 */
final class DataBlockEncoder {
  static final int RESTART_INTERVAL = 16;

  /** The largest sequence id an entry holds (one bit goes to the TTL flag). */
  static final long MAX_SEQUENCE_ID = Long.MAX_VALUE >>> 1;

  private final ByteSink out;
  private int[] restarts = new int[64];
  private int restartCount;
  private int count;
  private KeyValue prev;

  DataBlockEncoder(int blockSize) {
    out = new ByteSink(Math.min(blockSize, 1 << 20) + 1024);
  }

  void add(KeyValue kv) {
    byte[] b = kv.getBuffer();
    int ko = kv.keyOffset();
    int kl = kv.keyLength();
    int shared = 0;
    if (count % RESTART_INTERVAL == 0) {
      if (restartCount == restarts.length) {
        restarts = Arrays.copyOf(restarts, restartCount * 2);
      }
      restarts[restartCount++] = out.size();
    } else {
      byte[] pb = prev.getBuffer();
      int po = prev.keyOffset();
      int pl = prev.keyLength();
      int m = Arrays.mismatch(pb, po, po + pl, b, ko, ko + kl);
      shared = m < 0 ? kl : m; // equal keys (differing only in sequence id) share everything
    }
    int vlen = kv.getValueLength();
    out.putVarInt(shared);
    out.putVarInt(kl - shared);
    out.putVarInt(vlen);
    long seq = kv.getSequenceId();
    if (seq < 0 || seq > MAX_SEQUENCE_ID) {
      throw new IllegalArgumentException("sequence id " + seq + " cannot be stored");
    }
    long ttl = kv.getTtl();
    if (ttl == KeyValue.NO_TTL) {
      out.putVarLong(seq << 1);
    } else {
      out.putVarLong(seq << 1 | 1);
      out.putLong(ttl);
    }
    out.put(b, ko + shared, kl - shared);
    out.put(b, kv.getValueOffset(), vlen);
    prev = kv;
    count++;
  }

  int count() {
    return count;
  }

  /** The payload size if the block were finished now. */
  int size() {
    return out.size() + 4 * restartCount + 4;
  }

  /** Appends the restart array; the payload is then {@code sink().array()[0, sink().size())}. */
  ByteSink finish() {
    for (int i = 0; i < restartCount; i++) {
      out.putInt(restarts[i]);
    }
    out.putInt(restartCount);
    return out;
  }

  void reset() {
    out.reset();
    restartCount = 0;
    count = 0;
    prev = null;
  }
}
