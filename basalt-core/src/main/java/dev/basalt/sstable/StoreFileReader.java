package dev.basalt.sstable;

import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.BloomType;
import dev.basalt.util.NoWait;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads one store file (format versions 1 and 2; docs/formats/storefile.md has the byte tables).
 *
 * <pre>
 * file = header(8) dataBlock* indexBlock+ [bloomBlock] fileInfoBlock trailer(68)
 *        |--- data section ---||------------- meta section -------------|
 * header = magic "BSTF" (0x42535446), int32 format version (2, or 1)
 * block  = type(1) compression(1) storedSize C(4) uncompressedSize(4) payload(C) crc32c(4)
 * </pre>
 *
 * Data blocks hold prefix-compressed cells with restart points ({@link DataBlockEncoder}), each
 * compressed with the family's codec; the index ({@link BlockIndexWriter}) has one or more levels;
 * the bloom filter ({@link BloomFilter}, keys per {@link BloomKeys}), file info ({@link
 * FileInfoBlock}) and trailer ({@link StoreFileTrailer}) complete it. Integers are big-endian.
 *
 * <p>Opening reads the trailer, the header and the whole meta section (one read), checks every
 * checksum and keeps the index (flattened to one entry per data block), bloom filter and file info
 * for the reader's life. Data blocks are read on demand, decoded whole and shared through the
 * {@link BlockCache} unless {@code cacheDataBlocks} is false (compactions), in which case they are
 * still looked up there but not added. Anything that fails a check raises {@link
 * CorruptStoreFileException}; no data from a failed structure is returned.
 *
 * <p>Thread-safe; each thread uses its own {@link #scanner}. Closing is the caller's job once no
 * scanner is in use.
 */
public final class StoreFileReader implements Closeable {
  private final String path;
  private final String file;
  private final ReadableFile in;
  private final StoreFileInfo info;
  private final BlockIndex index;
  private final BloomFilter bloom;
  private final BlockCache cache;
  private final boolean cacheDataBlocks;
  private final boolean inMemory;
  private final String cacheName;
  private final LongAdder dataBlockReads = new LongAdder();

  private StoreFileReader(
      String path,
      String file,
      ReadableFile in,
      StoreFileInfo info,
      BlockIndex index,
      BloomFilter bloom,
      BlockCache cache,
      boolean cacheDataBlocks,
      boolean inMemory) {
    this.path = path;
    this.file = file;
    this.in = in;
    this.info = info;
    this.index = index;
    this.bloom = bloom;
    this.cache = cache;
    this.cacheDataBlocks = cacheDataBlocks;
    this.inMemory = inMemory;
    this.cacheName = file + "@" + info.fileSize() + "@" + info.creationTime();
  }

  /**
   * Opens a finished store file.
   *
   * @param cache the database's block cache, or null for none
   * @param cacheDataBlocks whether data blocks read from storage are added to the cache
   * @param inMemory whether the family is IN_MEMORY (its blocks go to the protected segment)
   * @throws CorruptStoreFileException when the file is truncated or fails a check
   */
  public static StoreFileReader open(
      Storage storage, String path, BlockCache cache, boolean cacheDataBlocks, boolean inMemory)
      throws IOException {
    String file = storage.describe(path);
    ReadableFile in = storage.open(path);
    try {
      long length = in.length();
      long minimum = StoreFileTrailer.HEADER_SIZE + StoreFileTrailer.SIZE;
      if (length < minimum) {
        throw new CorruptStoreFileException(
            file, 0, "file is " + length + " bytes, a store file has at least " + minimum);
      }
      byte[] tb = new byte[StoreFileTrailer.SIZE];
      in.readFully(length - StoreFileTrailer.SIZE, tb, 0, tb.length);
      StoreFileTrailer t = StoreFileTrailer.decode(tb, length, file);
      byte[] header = new byte[StoreFileTrailer.HEADER_SIZE];
      in.readFully(0, header, 0, header.length);
      StoreFileTrailer.checkHeader(header, t.formatVersion(), file);
      long metaEnd = length - StoreFileTrailer.SIZE;
      byte[] meta = new byte[(int) (metaEnd - t.metaOffset())];
      in.readFully(t.metaOffset(), meta, 0, meta.length);

      BlockIndex index = BlockIndexLoader.load(meta, t, file);
      FileInfoBlock fi = readFileInfo(meta, t, file);
      BloomFilter bloom = readBloom(meta, t, file);
      if ((bloom == null) != (fi.bloomType() == BloomType.NONE)) {
        throw new CorruptStoreFileException(
            file,
            t.fileInfoOffset(),
            "file info says bloom "
                + fi.bloomType()
                + ", the trailer "
                + (bloom == null ? "has none" : "has one"));
      }
      if ((fi.cellCount() == 0) != (t.dataBlockCount() == 0)) {
        throw new CorruptStoreFileException(
            file,
            t.fileInfoOffset(),
            fi.cellCount() + " cells in " + t.dataBlockCount() + " data blocks");
      }
      StoreFileInfo info =
          new StoreFileInfo(fi, length, t.dataBlockCount(), t.indexLevels(), t.formatVersion());
      return new StoreFileReader(
          path, file, in, info, index, bloom, cache, cacheDataBlocks, inMemory);
    } catch (EOFException e) {
      in.close();
      throw new CorruptStoreFileException(file, 0, "file ends early: " + e.getMessage(), e);
    } catch (IOException | RuntimeException | Error e) {
      in.close();
      throw e;
    }
  }

  private static FileInfoBlock readFileInfo(byte[] meta, StoreFileTrailer t, String file)
      throws CorruptStoreFileException {
    int at = (int) (t.fileInfoOffset() - t.metaOffset());
    BlockFormat.Payload p =
        BlockFormat.open(
            meta, at, t.fileInfoSize(), BlockFormat.FILE_INFO, file, t.fileInfoOffset());
    return FileInfoBlock.decode(
        new ByteReader(
            p.bytes(), p.offset(), p.length(), file, t.fileInfoOffset(), "file info block"));
  }

  private static BloomFilter readBloom(byte[] meta, StoreFileTrailer t, String file)
      throws CorruptStoreFileException {
    if (t.bloomSize() == 0) {
      return null;
    }
    int at = (int) (t.bloomOffset() - t.metaOffset());
    BlockFormat.Payload p =
        BlockFormat.open(meta, at, t.bloomSize(), BlockFormat.BLOOM, file, t.bloomOffset());
    return BloomFilter.decode(
        new ByteReader(p.bytes(), p.offset(), p.length(), file, t.bloomOffset(), "bloom block"));
  }

  public StoreFileInfo info() {
    return info;
  }

  /** The path this reader was opened with. */
  /**
   * A row near the middle of the file by size: the row of the index key of its middle data block,
   * between the last row of the block before and the first row of that block, both included (where
   * a region holding this file splits, as at HBase's midkey). Null when the file has fewer than two
   * data blocks.
   */
  public byte[] midRow() {
    return index.size() < 2 ? null : index.row(index.size() / 2);
  }

  public String path() {
    return path;
  }

  /**
   * False only when a ROW bloom filter says the file holds no cell of the row; true when the file
   * has no ROW bloom filter (a ROWCOL filter holds row and column together and cannot tell).
   */
  public boolean mightContainRow(byte[] row, int off, int len) {
    if (bloom == null || info.bloomType() != BloomType.ROW) {
      return true;
    }
    return bloom.mightContain(BloomKeys.rowHash(row, off, len));
  }

  /**
   * False only when the bloom filter says the file holds no cell that a get of this column needs:
   * with ROWCOL, no cell of the column in the row and no family delete marker in the row; with ROW,
   * no cell of the row. The family is not checked: a store file holds one family.
   */
  public boolean mightContainRowCol(byte[] row, byte[] family, byte[] qualifier) {
    if (bloom == null) {
      return true;
    }
    if (info.bloomType() == BloomType.ROW) {
      return bloom.mightContain(BloomKeys.rowHash(row, 0, row.length));
    }
    byte[][] scratch = new byte[1][];
    if (bloom.mightContain(
        BloomKeys.columnHash(row, 0, row.length, qualifier, 0, qualifier.length, scratch))) {
      return true;
    }
    return info.deleteFamilyMarkerCount() > 0
        && bloom.mightContain(BloomKeys.familyDeleteHash(row, 0, row.length, scratch));
  }

  /**
   * A scanner over the cells with sequence id at most {@code readPoint}. Unpositioned: call a seek
   * first. One per thread.
   */
  public KeyValueScanner scanner(long readPoint) {
    return new StoreFileScanner(this, readPoint, null);
  }

  /**
   * As {@link #scanner(long)}, running {@code onClose} when the scanner is first closed (a store
   * gives back its file reference): the scanner itself does it rather than a wrapper, whose extra
   * call per cell showed in scan profiles.
   */
  public KeyValueScanner scanner(long readPoint, Runnable onClose) {
    return new StoreFileScanner(this, readPoint, onClose);
  }

  /** Data blocks read from storage (not found in the cache) so far. */
  public long dataBlocksReadFromStorage() {
    return dataBlockReads.sum();
  }

  BlockIndex index() {
    return index;
  }

  String file() {
    return file;
  }

  /** Data block {@code i}, from the cache or from storage. */
  DataBlock dataBlock(int i) throws IOException {
    BlockKey key = null;
    if (cache != null) {
      key = new BlockKey(cacheName, index.blockOffset(i));
      DataBlock b = cache.get(key, inMemory);
      if (b != null) {
        return b;
      }
    }
    NoWait.beforeStorageRead(file);
    DataBlock b = readDataBlock(i);
    if (key != null && cacheDataBlocks) {
      cache.put(key, b, inMemory);
    }
    return b;
  }

  /**
   * The bytes of a block read from storage only live until the block is decoded (the decoded block
   * owns its own arrays), so each thread reads into one buffer instead of allocating and zeroing a
   * block-sized array per miss. Buffers beyond the limit (blocks of huge cells) are not kept.
   */
  private static final ThreadLocal<byte[]> READ_BUFFER = ThreadLocal.withInitial(() -> new byte[0]);

  private static final int MAX_KEPT_READ_BUFFER = 1 << 20;

  private static byte[] readBuffer(int size) {
    byte[] buf = READ_BUFFER.get();
    if (buf.length < size) {
      buf = new byte[size];
      if (size <= MAX_KEPT_READ_BUFFER) {
        READ_BUFFER.set(buf);
      }
    }
    return buf;
  }

  private DataBlock readDataBlock(int i) throws IOException {
    long at = index.blockOffset(i);
    int size = index.blockSize(i);
    byte[] buf = readBuffer(size);
    try {
      in.readFully(at, buf, 0, size);
    } catch (EOFException e) {
      throw new CorruptStoreFileException(file, at, "file ends inside a data block", e);
    }
    dataBlockReads.increment();
    BlockFormat.Payload p = BlockFormat.open(buf, 0, size, BlockFormat.DATA, file, at);
    return DataBlockDecoder.decode(
        p.bytes(), p.offset(), p.length(), file, at, info.formatVersion() >= 2);
  }

  /**
   * Drops this file's data blocks from the block cache, for a file no reader will use again (a
   * compaction replaced it; HBase evicts those too). Otherwise they would hold cache space, and
   * their past popularity would keep them there ahead of live blocks, until W-TinyLFU aged them
   * out. One lookup per block of the index.
   */
  public void evictCachedBlocks() {
    if (cache == null) {
      return;
    }
    for (int i = 0; i < index.size(); i++) {
      cache.invalidate(new BlockKey(cacheName, index.blockOffset(i)));
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  @Override
  public String toString() {
    return "StoreFileReader{" + path + ", " + info + "}";
  }
}
