package dev.basalt.sstable;

/**
 * The block index of an open file, flattened: one entry per data block (key, sequence id, offset,
 * stored size) in arrays, however many levels it has on disk. The whole index is read when the file
 * opens and kept for the reader's life, so finding a block never reads storage; it costs one binary
 * search over keys compared in place. Immutable and thread-safe.
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

  /** Loads an index whose blocks lie in {@code meta}, the file's bytes from {@code metaOffset}. */
  static BlockIndex load(byte[] meta, long metaOffset, StoreFileTrailer t, String file)
      throws CorruptStoreFileException {
    IndexEntries out = new IndexEntries();
    readLevel(
        meta,
        metaOffset,
        t.rootIndexOffset(),
        t.rootIndexSize(),
        BlockFormat.ROOT_INDEX,
        t.indexLevels(),
        out,
        null,
        0,
        0,
        0,
        t.dataBlockCount(),
        file);
    if (out.count() != t.dataBlockCount()) {
      throw new CorruptStoreFileException(
          file,
          t.rootIndexOffset(),
          "index lists " + out.count() + " data blocks, the trailer " + t.dataBlockCount());
    }
    // The data blocks must tile [header, meta section) in order, and the keys must increase.
    long expected = StoreFileTrailer.HEADER_SIZE;
    for (int i = 0; i < out.count(); i++) {
      if (out.blockOffset(i) != expected || out.blockSize(i) < BlockFormat.OVERHEAD) {
        throw new CorruptStoreFileException(
            file,
            t.rootIndexOffset(),
            "index entry "
                + i
                + " points at ["
                + out.blockOffset(i)
                + " +"
                + out.blockSize(i)
                + "), expected a block at "
                + expected);
      }
      expected += out.blockSize(i);
      if (i > 0
          && KeyBytes.compare(
                  out.keyArray(),
                  out.keyOffset(i - 1),
                  out.keyLength(i - 1),
                  out.seq(i - 1),
                  out.keyArray(),
                  out.keyOffset(i),
                  out.keyLength(i),
                  out.seq(i))
              >= 0) {
        throw new CorruptStoreFileException(
            file, t.rootIndexOffset(), "index keys out of order at entry " + i);
      }
    }
    if (expected != t.metaOffset()) {
      throw new CorruptStoreFileException(
          file,
          t.rootIndexOffset(),
          "data blocks end at " + expected + ", the meta section starts at " + t.metaOffset());
    }
    return out.toIndex();
  }

  /**
   * Reads one index block and, above the leaves, its children. {@code parentKey} (when not null) is
   * the parent's entry for this block, which must equal this block's first entry.
   */
  private static void readLevel(
      byte[] meta,
      long metaOffset,
      long offset,
      int size,
      byte type,
      int levelsBelowAndHere,
      IndexEntries out,
      byte[] parentKeys,
      int parentKeyOff,
      int parentKeyLen,
      long parentSeq,
      long maxDataBlocks,
      String file)
      throws CorruptStoreFileException {
    if (offset < metaOffset || size < 0 || offset - metaOffset > meta.length - size) {
      throw new CorruptStoreFileException(
          file, offset, BlockFormat.typeName(type) + " lies outside the meta section");
    }
    BlockFormat.Payload p =
        BlockFormat.open(meta, (int) (offset - metaOffset), size, type, file, offset);
    ByteReader in =
        new ByteReader(p.bytes(), p.offset(), p.length(), file, offset, BlockFormat.typeName(type));
    int n = in.readInt("entry count");
    if (n < 0 || n > p.length() / 5) {
      throw in.corrupt("entry count " + n + " does not fit " + p.length() + " bytes");
    }
    if (n == 0 && (type != BlockFormat.ROOT_INDEX || levelsBelowAndHere != 1)) {
      throw in.corrupt("empty index block");
    }
    IndexEntries entries = levelsBelowAndHere == 1 ? out : new IndexEntries();
    for (int i = 0; i < n; i++) {
      long childOffset = in.readVarLong("child offset");
      int childSize = in.readVarInt("child size");
      long seq = in.readVarLong("sequence id");
      int kl = in.readVarInt("key length");
      int ko = in.skip(kl, "key");
      String bad = KeyBytes.validate(p.bytes(), ko, kl);
      if (bad != null) {
        throw in.corrupt("entry " + i + ": " + bad);
      }
      if (i == 0
          && parentKeys != null
          && KeyBytes.compare(
                  p.bytes(), ko, kl, seq, parentKeys, parentKeyOff, parentKeyLen, parentSeq)
              != 0) {
        throw in.corrupt("first entry differs from the parent's entry for this block");
      }
      if (levelsBelowAndHere == 1 && out.count() >= maxDataBlocks) {
        // Also stops index blocks that point at each other from multiplying the work.
        throw in.corrupt("index lists more than the trailer's " + maxDataBlocks + " data blocks");
      }
      entries.add(p.bytes(), ko, kl, seq, childOffset, childSize);
    }
    if (in.remaining() != 0) {
      throw in.corrupt(in.remaining() + " bytes after the last entry");
    }
    if (levelsBelowAndHere == 1) {
      return;
    }
    byte childType =
        levelsBelowAndHere == 2 ? BlockFormat.LEAF_INDEX : BlockFormat.INTERMEDIATE_INDEX;
    for (int i = 0; i < entries.count(); i++) {
      readLevel(
          meta,
          metaOffset,
          entries.blockOffset(i),
          entries.blockSize(i),
          childType,
          levelsBelowAndHere - 1,
          out,
          entries.keyArray(),
          entries.keyOffset(i),
          entries.keyLength(i),
          entries.seq(i),
          maxDataBlocks,
          file);
    }
  }
}
