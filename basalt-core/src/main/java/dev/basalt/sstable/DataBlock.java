package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;

/**
 * A decoded data block: its cells in full KeyValue layout one after another in one array, with
 * their start offsets and sequence ids beside them. This is what the block cache holds, so a cached
 * read binary-searches the offsets and returns {@code new KeyValue(data, offset, length, seq)}: no
 * bytes are copied and one small object is allocated per returned cell. Immutable and thread-safe.
 */
final class DataBlock {
  private final byte[] data;
  private final int[] offsets; // count + 1 entries; the last is the end of the last cell
  private final long[] seqIds;
  private final int count;

  DataBlock(byte[] data, int[] offsets, long[] seqIds, int count) {
    this.data = data;
    this.offsets = offsets;
    this.seqIds = seqIds;
    this.count = count;
  }

  int count() {
    return count;
  }

  KeyValue cell(int i) {
    int off = offsets[i];
    return new KeyValue(data, off, offsets[i + 1] - off, seqIds[i]);
  }

  long seqId(int i) {
    return seqIds[i];
  }

  byte[] data() {
    return data;
  }

  int keyOffset(int i) {
    return offsets[i] + KeyValue.ROW_OFFSET;
  }

  int keyLength(int i) {
    return Bytes.readInt(data, offsets[i]);
  }

  /** Cell {@code i} against a key, in the full cell order (sequence id last, descending). */
  int compare(int i, byte[] kb, int ko, int kl, long kseq) {
    int off = offsets[i];
    return KeyBytes.compare(
        data, off + KeyValue.ROW_OFFSET, Bytes.readInt(data, off), seqIds[i], kb, ko, kl, kseq);
  }

  /** The first index in [from, count) whose cell is at or after the key; count when none is. */
  int ceiling(int from, byte[] kb, int ko, int kl, long kseq) {
    int lo = from;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compare(mid, kb, ko, kl, kseq) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Bytes this block holds on the heap, for the block cache's weigher. */
  int weight() {
    return 64 + data.length + 4 * offsets.length + 8 * seqIds.length;
  }
}
