package dev.basalt.sstable;

/**
 * Reads the block index of a file from its meta section (format: {@link BlockIndexWriter}) and
 * flattens its levels into one {@link BlockIndex}. Checks, besides each block's envelope: every
 * index block's first entry equals its parent's entry for it; the leaf entries are as many as the
 * trailer's data blocks, their keys strictly increase, and they point at blocks that tile the data
 * section exactly. Used once per open; not thread-safe.
 */
final class BlockIndexLoader {
  private final byte[] meta;
  private final long metaOffset;
  private final StoreFileTrailer trailer;
  private final String file;
  private final IndexEntries out = new IndexEntries();

  /**
   * @param meta the file's bytes from {@code trailer.metaOffset()} to the trailer
   */
  private BlockIndexLoader(byte[] meta, StoreFileTrailer trailer, String file) {
    this.meta = meta;
    this.metaOffset = trailer.metaOffset();
    this.trailer = trailer;
    this.file = file;
  }

  static BlockIndex load(byte[] meta, StoreFileTrailer t, String file)
      throws CorruptStoreFileException {
    BlockIndexLoader l = new BlockIndexLoader(meta, t, file);
    l.readBlock(
        t.rootIndexOffset(), t.rootIndexSize(), BlockFormat.ROOT_INDEX, t.indexLevels(), null, 0);
    l.checkDataBlocks();
    return l.out.toIndex();
  }

  private CorruptStoreFileException corrupt(String problem) {
    return new CorruptStoreFileException(file, trailer.rootIndexOffset(), "index: " + problem);
  }

  private void checkDataBlocks() throws CorruptStoreFileException {
    if (out.count() != trailer.dataBlockCount()) {
      throw corrupt(
          out.count() + " data blocks listed, the trailer says " + trailer.dataBlockCount());
    }
    long expected = StoreFileTrailer.HEADER_SIZE;
    for (int i = 0; i < out.count(); i++) {
      if (out.blockOffset(i) != expected || out.blockSize(i) < BlockFormat.OVERHEAD) {
        throw corrupt(
            "entry "
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
        throw corrupt("keys out of order at entry " + i);
      }
    }
    if (expected != metaOffset) {
      throw corrupt(
          "data blocks end at " + expected + ", the meta section starts at " + metaOffset);
    }
  }

  /**
   * Reads one index block and, above the leaves, its children.
   *
   * @param levels levels from this block down to the data blocks (1: its entries are data blocks)
   * @param parent the level above, whose entry {@code parentIndex} points here; null for the root
   */
  private void readBlock(
      long offset, int size, byte type, int levels, IndexEntries parent, int parentIndex)
      throws CorruptStoreFileException {
    String what = BlockFormat.typeName(type);
    if (offset < metaOffset || size < 0 || offset - metaOffset > meta.length - size) {
      throw new CorruptStoreFileException(file, offset, what + " lies outside the meta section");
    }
    BlockFormat.Payload p =
        BlockFormat.open(meta, (int) (offset - metaOffset), size, type, file, offset);
    ByteReader in = new ByteReader(p.bytes(), p.offset(), p.length(), file, offset, what);
    int n = in.readInt("entry count");
    if (n < 0 || n > p.length() / 5) {
      throw in.corrupt("entry count " + n + " does not fit " + p.length() + " bytes");
    }
    if (n == 0 && (type != BlockFormat.ROOT_INDEX || levels != 1)) {
      throw in.corrupt("empty index block");
    }
    IndexEntries entries = levels == 1 ? out : new IndexEntries();
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
          && parent != null
          && KeyBytes.compare(
                  p.bytes(),
                  ko,
                  kl,
                  seq,
                  parent.keyArray(),
                  parent.keyOffset(parentIndex),
                  parent.keyLength(parentIndex),
                  parent.seq(parentIndex))
              != 0) {
        throw in.corrupt("first entry differs from the parent's entry for this block");
      }
      if (levels == 1 && out.count() >= trailer.dataBlockCount()) {
        // Also keeps index blocks that point at each other from multiplying the work.
        throw in.corrupt("more data blocks than the trailer's " + trailer.dataBlockCount());
      }
      entries.add(p.bytes(), ko, kl, seq, childOffset, childSize);
    }
    if (in.remaining() != 0) {
      throw in.corrupt(in.remaining() + " bytes after the last entry");
    }
    if (levels == 1) {
      return;
    }
    byte childType = levels == 2 ? BlockFormat.LEAF_INDEX : BlockFormat.INTERMEDIATE_INDEX;
    for (int i = 0; i < entries.count(); i++) {
      readBlock(entries.blockOffset(i), entries.blockSize(i), childType, levels - 1, entries, i);
    }
  }
}
