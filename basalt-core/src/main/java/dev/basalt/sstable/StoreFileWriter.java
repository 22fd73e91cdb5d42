package dev.basalt.sstable;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import dev.basalt.schema.Compression;
import dev.basalt.util.Clock;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * Writes one store file (format: {@link StoreFileReader} and docs/formats/storefile.md). Cells are
 * appended in {@link CellComparator} order, each with its sequence id; they are cut into data
 * blocks of about the options' block size, and at {@link #finish} the block index, bloom filter,
 * file info and trailer follow. The file is written under {@link #temporaryPath} and renamed to its
 * final path only after it is complete and synced, so a half-written file is never visible there.
 *
 * <p>Closing a writer that was not finished aborts it. Not thread-safe: one thread writes a file.
 */
public final class StoreFileWriter implements Closeable {
  private enum State {
    OPEN,
    /** A write failed: the file can only be aborted. */
    FAILED,
    FINISHED,
    ABORTED
  }

  private final Storage storage;
  private final String path;
  private final String tmpPath;
  private final StoreFileOptions options;
  private final long creationTime;
  private final WritableFile file;
  private final DataBlockEncoder encoder;
  private final BlockCompressor compressor;
  private final BlockIndexWriter index;
  private final BloomFilterWriter bloom;
  private State state = State.OPEN;

  private KeyValue first;
  private KeyValue prev;
  // The index entry of the block being filled: its key is known when its first cell arrives.
  private byte[] blockKeyBytes;
  private int blockKeyOffset;
  private int blockKeyLength;
  private long blockKeySeq;

  private long cellCount;
  private long deleteCount;
  private long familyDeleteCount;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
  private long maxCellSeq = Long.MIN_VALUE;

  private StoreFileWriter(
      Storage storage, String path, StoreFileOptions options, Clock clock, WritableFile file) {
    this.storage = storage;
    this.path = path;
    this.tmpPath = temporaryPath(path);
    this.options = options;
    this.creationTime = clock.currentTimeMillis();
    this.file = file;
    this.encoder = new DataBlockEncoder(options.blockSize());
    this.compressor = new BlockCompressor(options.compression());
    this.index = new BlockIndexWriter(options.indexBlockSize());
    this.bloom = new BloomFilterWriter(options.bloomType());
  }

  /** Starts a file that will appear at {@code path}; the creation time comes from the system. */
  public static StoreFileWriter create(Storage storage, String path, StoreFileOptions options)
      throws IOException {
    return create(storage, path, options, Clock.system());
  }

  /**
   * Starts a file that will appear at {@code path} when finished. A temporary file left at {@link
   * #temporaryPath} by an earlier writer that died is replaced.
   */
  public static StoreFileWriter create(
      Storage storage, String path, StoreFileOptions options, Clock clock) throws IOException {
    String tmp = temporaryPath(path);
    storage.delete(tmp);
    WritableFile f = storage.create(tmp);
    try {
      f.write(StoreFileTrailer.header());
      return new StoreFileWriter(storage, path, options, clock, f);
    } catch (IOException | RuntimeException e) {
      f.close();
      storage.delete(tmp);
      throw e;
    }
  }

  /** Where a file being written to {@code path} lives until it is finished: {@code path.tmp}. */
  public static String temporaryPath(String path) {
    return path + ".tmp";
  }

  /** True for names of files still being written (or abandoned by a writer that died). */
  public static boolean isTemporary(String pathOrName) {
    return pathOrName.endsWith(".tmp");
  }

  /**
   * Appends a cell, keeping its sequence id.
   *
   * @throws IllegalArgumentException when the cell does not sort strictly after the previous one
   */
  public void append(Cell cell) throws IOException {
    checkOpen();
    KeyValue kv = KeyValue.copyOf(cell);
    if (prev != null && CellComparator.INSTANCE.compare(prev, kv) >= 0) {
      throw new IllegalArgumentException(
          "cells must be appended in order: " + kv + " does not sort after " + prev);
    }
    if (encoder.count() == 0) {
      startBlock(kv);
    }
    encoder.add(kv);
    bloom.add(kv, prev);
    count(kv);
    if (first == null) {
      first = kv;
    }
    prev = kv;
    if (encoder.size() >= options.blockSize()) {
      try {
        writeBlock();
      } catch (IOException | RuntimeException e) {
        state = State.FAILED;
        throw e;
      }
    }
  }

  private void startBlock(KeyValue kv) {
    byte[] sep =
        prev == null
            ? null
            : KeyBytes.separator(
                prev.getBuffer(),
                prev.keyOffset(),
                prev.keyLength(),
                kv.getBuffer(),
                kv.keyOffset(),
                kv.keyLength());
    if (sep != null) {
      blockKeyBytes = sep;
      blockKeyOffset = 0;
      blockKeyLength = sep.length;
      blockKeySeq = Long.MAX_VALUE; // a first-on-row key sorts before every cell of its row
    } else {
      blockKeyBytes = kv.getBuffer();
      blockKeyOffset = kv.keyOffset();
      blockKeyLength = kv.keyLength();
      blockKeySeq = kv.getSequenceId();
    }
  }

  private void count(KeyValue kv) {
    cellCount++;
    byte t = kv.getTypeByte();
    if (CellType.isDelete(t)) {
      deleteCount++;
      if (t == CellType.DELETE_FAMILY.code() || t == CellType.DELETE_FAMILY_VERSION.code()) {
        familyDeleteCount++;
      }
    }
    long ts = kv.getTimestamp();
    minTimestamp = Math.min(minTimestamp, ts);
    maxTimestamp = Math.max(maxTimestamp, ts);
    maxCellSeq = Math.max(maxCellSeq, kv.getSequenceId());
  }

  private void writeBlock() throws IOException {
    ByteSink payload = encoder.finish();
    int len = payload.size();
    int compressed = compressor.compress(payload.array(), 0, len);
    long at = file.position();
    int stored =
        compressed < 0
            ? BlockFormat.write(
                file, BlockFormat.DATA, Compression.NONE, payload.array(), 0, len, len)
            : BlockFormat.write(
                file,
                BlockFormat.DATA,
                options.compression(),
                compressor.output(),
                0,
                compressed,
                len);
    index.add(blockKeyBytes, blockKeyOffset, blockKeyLength, blockKeySeq, at, stored);
    encoder.reset();
    blockKeyBytes = null;
  }

  /**
   * Writes the rest of the file, syncs it and renames it to its final path.
   *
   * @param maxSequenceId the sequence id this file is complete up to; at least every cell's
   * @param majorCompacted whether a major compaction wrote the file
   * @throws IllegalArgumentException when a cell's sequence id exceeds {@code maxSequenceId}
   */
  public StoreFileInfo finish(long maxSequenceId, boolean majorCompacted) throws IOException {
    return finish(maxSequenceId, majorCompacted, List.of());
  }

  /**
   * Like {@link #finish(long, boolean)}, recording the names of the files (in the same directory)
   * that this one replaces: a compaction's inputs.
   */
  public StoreFileInfo finish(
      long maxSequenceId, boolean majorCompacted, List<String> compactedFrom) throws IOException {
    checkOpen();
    if (maxSequenceId < maxCellSeq) {
      throw new IllegalArgumentException(
          "max sequence id " + maxSequenceId + " is below a cell's " + maxCellSeq);
    }
    try {
      return writeRest(maxSequenceId, majorCompacted, compactedFrom);
    } catch (IOException | RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  private StoreFileInfo writeRest(
      long maxSequenceId, boolean majorCompacted, List<String> compactedFrom) throws IOException {
    if (encoder.count() > 0) {
      writeBlock();
    }
    long metaOffset = file.position();
    BlockIndexWriter.Root root = index.write(file);
    ByteSink sink = new ByteSink(256);
    BloomFilter filter = bloom.build();
    long bloomOffset = 0;
    int bloomSize = 0;
    if (filter != null) {
      filter.encode(sink);
      bloomOffset = file.position();
      bloomSize =
          BlockFormat.write(
              file, BlockFormat.BLOOM, Compression.NONE, sink.array(), 0, sink.size(), sink.size());
    }
    FileInfoBlock fi =
        new FileInfoBlock(
            creationTime,
            minTimestamp,
            maxTimestamp,
            maxSequenceId,
            cellCount,
            deleteCount,
            familyDeleteCount,
            options.blockSize(),
            options.compression(),
            options.bloomType(),
            majorCompacted,
            first == null ? null : FileInfoBlock.keyOnly(first),
            prev == null ? null : FileInfoBlock.keyOnly(prev),
            List.copyOf(compactedFrom));
    sink.reset();
    fi.encode(sink);
    long infoOffset = file.position();
    int infoSize =
        BlockFormat.write(
            file,
            BlockFormat.FILE_INFO,
            Compression.NONE,
            sink.array(),
            0,
            sink.size(),
            sink.size());
    StoreFileTrailer trailer =
        new StoreFileTrailer(
            StoreFileTrailer.FORMAT_VERSION,
            metaOffset,
            root.offset(),
            root.size(),
            root.levels(),
            infoOffset,
            infoSize,
            bloomOffset,
            bloomSize,
            index.count());
    file.write(trailer.encode());
    long size = file.position();
    file.sync();
    file.close();
    storage.rename(tmpPath, path);
    state = State.FINISHED;
    compressor.close();
    return new StoreFileInfo(
        fi, size, index.count(), root.levels(), StoreFileTrailer.FORMAT_VERSION);
  }

  /** Stops writing and deletes the temporary file. Does nothing when already aborted. */
  public void abort() throws IOException {
    if (state == State.FINISHED) {
      throw new IllegalStateException("store file " + path + " is already finished");
    }
    if (state == State.ABORTED) {
      return;
    }
    state = State.ABORTED;
    compressor.close();
    try {
      file.close();
    } finally {
      storage.delete(tmpPath);
    }
  }

  /** Bytes written so far (the whole file once finished). */
  public long bytesWritten() {
    return file.position();
  }

  /** The final path. */
  public String path() {
    return path;
  }

  /** Aborts the file unless it was finished. */
  @Override
  public void close() throws IOException {
    if (state == State.OPEN || state == State.FAILED) {
      abort();
    }
  }

  private void checkOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("store file writer for " + path + " is " + state);
    }
  }
}
