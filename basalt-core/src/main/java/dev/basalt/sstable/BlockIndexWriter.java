package dev.basalt.sstable;

import dev.basalt.fs.WritableFile;
import dev.basalt.schema.Compression;
import java.io.IOException;

/**
 * Writes the block index of a file after its data blocks. While the entries fit in one block of at
 * most {@code maxBlockBytes} payload bytes they form the root; otherwise they are cut into leaf
 * index blocks, whose first entries form the next level, and so on (intermediate blocks) until one
 * root block holds them, as in HBase's HFile v2. Every index block but possibly the last of a level
 * holds at least two entries, so each level is at most half the size of the one below and the build
 * ends whatever the limit. Index blocks are stored uncompressed.
 *
 * <pre>
 * index block payload = int32 N (entries), N x entry
 * entry = varlong child offset   a data block (leaf and single-level root) or index block
 *         varint  child size     its stored size, envelope included
 *         varlong sequence id    of the key
 *         varint  K, K bytes     key in KeyValue key layout
 * </pre>
 *
 * A data block's entry key is a key {@code s} with {@code last cell of the previous block < s <=
 * first cell of the block} in the full cell order (a shortened first-on-row key when the rows
 * differ, else the first cell's key and sequence id). An index block's entry in the level above
 * repeats its first entry's key and sequence id. Not thread-safe.
 */
final class BlockIndexWriter {
  /** Where a finished index starts. */
  record Root(long offset, int size, int levels) {}

  private final int maxBlockBytes;
  private final IndexEntries dataEntries = new IndexEntries();

  BlockIndexWriter(int maxBlockBytes) {
    this.maxBlockBytes = maxBlockBytes;
  }

  void add(byte[] kb, int ko, int kl, long seq, long blockOffset, int blockSize) {
    dataEntries.add(kb, ko, kl, seq, blockOffset, blockSize);
  }

  int count() {
    return dataEntries.count();
  }

  Root write(WritableFile f) throws IOException {
    IndexEntries level = dataEntries;
    int levels = 1;
    ByteSink payload = new ByteSink(Math.min(maxBlockBytes, 1 << 20) + 64);
    while (level.count() > 1 && payloadSize(level, 0, level.count()) > maxBlockBytes) {
      IndexEntries next = new IndexEntries();
      byte type = levels == 1 ? BlockFormat.LEAF_INDEX : BlockFormat.INTERMEDIATE_INDEX;
      int i = 0;
      while (i < level.count()) {
        int j = i;
        long size = 4;
        while (j < level.count() && (j - i < 2 || size + entrySize(level, j) <= maxBlockBytes)) {
          size += entrySize(level, j);
          j++;
        }
        long at = f.position();
        int stored = writeBlock(f, type, level, i, j, payload);
        next.add(
            level.keyArray(), level.keyOffset(i), level.keyLength(i), level.seq(i), at, stored);
        i = j;
      }
      level = next;
      levels++;
    }
    long at = f.position();
    int stored = writeBlock(f, BlockFormat.ROOT_INDEX, level, 0, level.count(), payload);
    return new Root(at, stored, levels);
  }

  private static int writeBlock(
      WritableFile f, byte type, IndexEntries e, int from, int to, ByteSink out)
      throws IOException {
    out.reset();
    out.putInt(to - from);
    for (int i = from; i < to; i++) {
      out.putVarLong(e.blockOffset(i));
      out.putVarInt(e.blockSize(i));
      out.putVarLong(e.seq(i));
      out.putVarInt(e.keyLength(i));
      out.put(e.keyArray(), e.keyOffset(i), e.keyLength(i));
    }
    return BlockFormat.write(f, type, Compression.NONE, out.array(), 0, out.size(), out.size());
  }

  private static long payloadSize(IndexEntries e, int from, int to) {
    long n = 4;
    for (int i = from; i < to; i++) {
      n += entrySize(e, i);
    }
    return n;
  }

  private static int entrySize(IndexEntries e, int i) {
    return varLen(e.blockOffset(i))
        + varLen(e.blockSize(i))
        + varLen(e.seq(i))
        + varLen(e.keyLength(i))
        + e.keyLength(i);
  }

  private static int varLen(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }
}
