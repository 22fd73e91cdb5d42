package dev.basalt.sstable;

import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import java.util.Objects;

/**
 * How a store file is written: the family's BLOCKSIZE, COMPRESSION and BLOOMFILTER, plus the
 * largest index block (payload bytes) before the index grows another level.
 *
 * @param blockSize target uncompressed size of a data block; a block is closed once it reaches this
 *     size, so it holds at least one cell and exceeds the target by at most one cell
 * @param indexBlockSize largest payload of an index block before the index gets another level;
 *     {@link #DEFAULT_INDEX_BLOCK_SIZE} unless set (tests use a tiny one to get several levels)
 */
public record StoreFileOptions(
    int blockSize, Compression compression, BloomType bloomType, int indexBlockSize) {

  /** HBase's default BLOCKSIZE. */
  public static final int DEFAULT_BLOCK_SIZE = 64 * 1024;

  /** HBase's default {@code hfile.index.block.max.size}. */
  public static final int DEFAULT_INDEX_BLOCK_SIZE = 128 * 1024;

  public StoreFileOptions {
    if (blockSize < 1) {
      throw new IllegalArgumentException("block size must be positive: " + blockSize);
    }
    if (indexBlockSize < 1) {
      throw new IllegalArgumentException("index block size must be positive: " + indexBlockSize);
    }
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(bloomType, "bloomType");
  }

  public StoreFileOptions(int blockSize, Compression compression, BloomType bloomType) {
    this(blockSize, compression, bloomType, DEFAULT_INDEX_BLOCK_SIZE);
  }

  /** 64 KiB blocks, no compression, ROW bloom: HBase's family defaults. */
  public static StoreFileOptions defaults() {
    return new StoreFileOptions(DEFAULT_BLOCK_SIZE, Compression.NONE, BloomType.ROW);
  }

  public StoreFileOptions withIndexBlockSize(int bytes) {
    return new StoreFileOptions(blockSize, compression, bloomType, bytes);
  }
}
