package dev.basalt.sstable;

import java.util.Arrays;

/**
 * A growable list of block index entries (key, sequence id, block offset, stored block size) in
 * parallel arrays, the keys packed into one byte array. Used to collect entries while writing and
 * while loading an index. Not thread-safe.
 */
final class IndexEntries {
  private final ByteSink keys = new ByteSink(1024);
  private int[] keyOffsets = new int[65];
  private long[] seqs = new long[64];
  private long[] offsets = new long[64];
  private int[] sizes = new int[64];
  private int count;

  void add(byte[] kb, int ko, int kl, long seq, long blockOffset, int blockSize) {
    if (count == seqs.length) {
      int n = count * 2;
      keyOffsets = Arrays.copyOf(keyOffsets, n + 1);
      seqs = Arrays.copyOf(seqs, n);
      offsets = Arrays.copyOf(offsets, n);
      sizes = Arrays.copyOf(sizes, n);
    }
    keyOffsets[count] = keys.size();
    keys.put(kb, ko, kl);
    keyOffsets[count + 1] = keys.size();
    seqs[count] = seq;
    offsets[count] = blockOffset;
    sizes[count] = blockSize;
    count++;
  }

  int count() {
    return count;
  }

  byte[] keyArray() {
    return keys.array();
  }

  int keyOffset(int i) {
    return keyOffsets[i];
  }

  int keyLength(int i) {
    return keyOffsets[i + 1] - keyOffsets[i];
  }

  long seq(int i) {
    return seqs[i];
  }

  long blockOffset(int i) {
    return offsets[i];
  }

  int blockSize(int i) {
    return sizes[i];
  }

  /** Trimmed copies, for an index kept for the life of a reader. */
  BlockIndex toIndex() {
    return new BlockIndex(
        keys.toByteArray(),
        Arrays.copyOf(keyOffsets, count + 1),
        Arrays.copyOf(seqs, count),
        Arrays.copyOf(offsets, count),
        Arrays.copyOf(sizes, count),
        count);
  }
}
