package dev.basalt.region;

import dev.basalt.fs.Storage;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.scan.RowRangeScanner;
import dev.basalt.sstable.StoreFileInfo;
import dev.basalt.sstable.StoreFileReader;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One store file as a store uses it: its reader, and a reference count that keeps the reader open
 * while scanners use it. The store's own reference is dropped when a compaction replaces the file;
 * the last scanner to finish then closes the reader, drops its blocks from the block cache and
 * moves the file to the archive. A reference file (left by a split or merge) reads part of its
 * parent region's file. Thread-safe.
 */
final class StoreFile {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFile.class);

  private final Storage storage;
  private final String path;
  private final String archivePath;
  private final StoreFileReader reader;
  private final StoreFileReference reference;
  private final AtomicInteger refs = new AtomicInteger(1); // the store's own reference
  private volatile boolean archiveOnRelease;

  StoreFile(Storage storage, String path, String archivePath, StoreFileReader reader) {
    this(storage, path, archivePath, reader, null);
  }

  /**
   * A reference file at {@code path} ({@link StoreFileReference}): {@code reader} reads the
   * parent's file, and scanners see only the reference's rows. Archiving moves the reference file,
   * never the parent's.
   */
  StoreFile(
      Storage storage,
      String path,
      String archivePath,
      StoreFileReader reader,
      StoreFileReference reference) {
    this.storage = storage;
    this.path = path;
    this.archivePath = archivePath;
    this.reader = reader;
    this.reference = reference;
  }

  /** Whether this is a reference to a parent region's file (see {@link StoreFileReference}). */
  boolean isReference() {
    return reference != null;
  }

  String path() {
    return path;
  }

  Storage storage() {
    return storage;
  }

  /** The file's name within its store directory. */
  String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  StoreFileInfo info() {
    return reader.info();
  }

  StoreFileReader reader() {
    return reader;
  }

  /** Takes a reference; false when the file is already released for good. */
  boolean acquire() {
    while (true) {
      int r = refs.get();
      if (r == 0) {
        return false;
      }
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  void release() {
    if (refs.decrementAndGet() == 0) {
      try {
        reader.close();
        if (archiveOnRelease) {
          if (reference == null) {
            // A reference reads its parent's file, which the other daughter may still read.
            reader.evictCachedBlocks();
          }
          archive();
        }
      } catch (IOException e) {
        LOG.warn("could not close or archive store file {}", storage.describe(path), e);
      }
    }
  }

  /**
   * Moves the file to the archive. A newer opening of the store may have done it already (it
   * archives the files a compaction output names as replaced, see {@code StoreFiles.openAll}), and
   * then there is nothing to do.
   */
  private void archive() throws IOException {
    try {
      storage.rename(path, archivePath);
    } catch (IOException e) {
      if (!movedToArchive(storage, path, archivePath)) {
        throw e;
      }
      LOG.debug("{} was archived by a newer opening of its store", storage.describe(path));
    }
  }

  /**
   * Whether a store file is no longer at {@code path} but at {@code archivePath}: the other of two
   * openings of its region archived it (a file a compaction replaced), not a lost file.
   */
  static boolean movedToArchive(Storage storage, String path, String archivePath)
      throws IOException {
    return !storage.exists(path) && storage.exists(archivePath);
  }

  /** Drops the store's reference; the file is archived once no scanner uses it. */
  void retire() {
    archiveOnRelease = true;
    release();
  }

  /** Drops the store's reference without archiving (the store is closing). */
  void close() {
    release();
  }

  /** A scanner that holds a reference until it is closed. */
  KeyValueScanner scanner(long readPoint) {
    KeyValueScanner s = reader.scanner(readPoint, this::release);
    if (reference != null) {
      s = new RowRangeScanner(s, reference.startRow(), reference.stopRow());
    }
    return s;
  }

  @Override
  public String toString() {
    return path;
  }
}
