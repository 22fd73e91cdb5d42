package dev.basalt.sstable;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;

/**
 * A decoded data block: its cells in full KeyValue layout one after another in one array, with
 * their start offsets and sequence ids beside them. This is what the block cache holds, so a cached
 * read binary-searches the offsets and returns {@code new KeyValue(data, offset, length, seq)}: no
 * bytes are copied and one small object is allocated per returned cell.
 *
 * <p>To keep a binary search from touching a new cache line of {@code data} at every step, each
 * cell also has 8 bytes of its row packed into a long: the bytes after the prefix every row of the
 * block shares, zero-padded. Unequal packed values order rows as the bytes do (a zero pad sorts
 * like the end of a shorter row), so most steps compare two longs in a small array; equal ones fall
 * back to the full key comparison.
 *
 * <p>Each cell's {@link CellUtil#keyRelation} to the cell before it is worked out once, when the
 * block is decoded, so that scanners stepping through the block need not compare keys to learn
 * where a row or column ends. Per-cell TTLs are kept beside the sequence ids, in an array that only
 * blocks holding such a cell have. Immutable and thread-safe.
 */
final class DataBlock {
  private final byte[] data;
  private final int[] offsets; // count + 1 entries; the last is the end of the last cell
  private final long[] seqIds;
  private final long[] ttls; // null when no cell of the block has a per-cell TTL
  private final int count;
  private final int sharedRowPrefix; // bytes every row of the block starts with
  private final long[] rowKeys; // 8 row bytes after the shared prefix, big-endian, zero-padded
  private final byte[] relations; // CellUtil.keyRelation of cell i to cell i - 1 (cell 0: none)

  DataBlock(byte[] data, int[] offsets, long[] seqIds, long[] ttls, int count) {
    this.data = data;
    this.offsets = offsets;
    this.seqIds = seqIds;
    this.ttls = ttls;
    this.count = count;
    // Rows are sorted, so what the first and last rows share, every row shares.
    this.sharedRowPrefix = RowPrefix.shared(data, keyOffset(0), data, keyOffset(count - 1));
    this.rowKeys = new long[count];
    this.relations = new byte[count];
    int lastOffset = 0;
    int lastLength = 0;
    for (int i = 0; i < count; i++) {
      int offset = keyOffset(i);
      int length = keyLength(i);
      rowKeys[i] = RowPrefix.pack(data, offset, sharedRowPrefix);
      if (i > 0) {
        relations[i] =
            rowKeys[i] != rowKeys[i - 1]
                ? CellUtil.DIFFERENT_ROW
                : (byte) CellUtil.keyRelation(data, lastOffset, lastLength, data, offset, length);
      }
      lastOffset = offset;
      lastLength = length;
    }
  }

  /**
   * The {@link CellUtil#keyRelation} of cell {@code to} to cell {@code from - 1} ({@code 1 <= from
   * <= to}): the weakest relation along the way, since rows and columns are runs in sorted order.
   */
  int relationThrough(int from, int to) {
    int r = relations[from];
    for (int i = from + 1; i <= to && r > CellUtil.DIFFERENT_ROW; i++) {
      r = Math.min(r, relations[i]);
    }
    return r;
  }

  int count() {
    return count;
  }

  KeyValue cell(int i) {
    int off = offsets[i];
    if (ttls == null) {
      return new KeyValue(data, off, offsets[i + 1] - off, seqIds[i]);
    }
    return KeyValue.of(data, off, offsets[i + 1] - off, seqIds[i], ttls[i]);
  }

  long seqId(int i) {
    return seqIds[i];
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
    int where = RowPrefix.locate(kb, ko, data, keyOffset(0), sharedRowPrefix);
    if (where != RowPrefix.WITHIN) {
      return where == RowPrefix.BEFORE_ALL ? from : count;
    }
    long key = RowPrefix.pack(kb, ko, sharedRowPrefix);
    int lo = from;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(rowKeys[mid], key);
      if (c == 0) {
        c = compare(mid, kb, ko, kl, kseq);
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Bytes this block holds on the heap, for the block cache's weigher. */
  int weight() {
    return 112
        + data.length
        + 4 * offsets.length
        + 8 * seqIds.length
        + (ttls == null ? 0 : 8 * ttls.length)
        + 8 * rowKeys.length
        + relations.length;
  }
}
