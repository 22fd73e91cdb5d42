package dev.basalt.sstable;

/**
 * The block index of an open file, flattened: one entry per data block (key, sequence id, offset,
 * stored size) in arrays, however many levels it has on disk. The whole index is read when the file
 * opens ({@link BlockIndexLoader}) and kept for the reader's life, so finding a block never reads
 * storage; it costs one binary search over packed row prefixes ({@link RowPrefix}), comparing keys
 * in place only between entries of equal prefix. Immutable and thread-safe.
 */
final class BlockIndex {
  private final byte[] keys;
  private final int[] keyOffsets;
  private final long[] seqs;
  private final long[] blockOffsets;
  private final int[] blockSizes;
  private final int count;
  private final int sharedRowPrefix;
  private final long[] rowKeys; // see RowPrefix

  BlockIndex(
      byte[] keys,
      int[] keyOffsets,
      long[] seqs,
      long[] blockOffsets,
      int[] blockSizes,
      int count) {
    this.keys = keys;
    this.keyOffsets = keyOffsets;
    this.seqs = seqs;
    this.blockOffsets = blockOffsets;
    this.blockSizes = blockSizes;
    this.count = count;
    this.sharedRowPrefix =
        count == 0 ? 0 : RowPrefix.shared(keys, keyOffsets[0], keys, keyOffsets[count - 1]);
    this.rowKeys = new long[count];
    for (int i = 0; i < count; i++) {
      rowKeys[i] = RowPrefix.pack(keys, keyOffsets[i], sharedRowPrefix);
    }
  }

  int size() {
    return count;
  }

  /** The row of entry {@code i}'s key (a separator: at or before the first row of block i). */
  byte[] row(int i) {
    int off = keyOffsets[i];
    int len = ((keys[off] & 0xFF) << 8) | (keys[off + 1] & 0xFF);
    return java.util.Arrays.copyOfRange(keys, off + 2, off + 2 + len);
  }

  long blockOffset(int i) {
    return blockOffsets[i];
  }

  int blockSize(int i) {
    return blockSizes[i];
  }

  private int compare(int i, byte[] kb, int ko, int kl, long kseq) {
    int off = keyOffsets[i];
    return KeyBytes.compare(keys, off, keyOffsets[i + 1] - off, seqs[i], kb, ko, kl, kseq);
  }

  /**
   * The block where the first cell at or after the key is, unless that cell is the first of the
   * next block: the last block in [from, size) whose entry is at or before the key, or {@code from}
   * when none is.
   */
  int find(int from, byte[] kb, int ko, int kl, long kseq) {
    int where = RowPrefix.locate(kb, ko, keys, keyOffsets[0], sharedRowPrefix);
    if (where != RowPrefix.WITHIN) {
      return where == RowPrefix.BEFORE_ALL ? from : Math.max(from, count - 1);
    }
    long key = RowPrefix.pack(kb, ko, sharedRowPrefix);
    int lo = from;
    int hi = count; // first entry after the key lies in [lo, hi]
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(rowKeys[mid], key);
      if (c == 0) {
        c = compare(mid, kb, ko, kl, kseq);
      }
      if (c <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return Math.max(from, lo - 1);
  }
}
