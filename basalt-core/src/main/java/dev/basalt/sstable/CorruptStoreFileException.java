package dev.basalt.sstable;

import java.io.IOException;

/**
 * A store file holds bytes that are not what its format requires where they are read: a checksum
 * mismatch, a bad magic, an impossible length, a truncated file. Names the file and the offset of
 * the structure (block, trailer or header) that failed, so an operator can find it. Readers never
 * return data from a structure that failed its checks.
 */
public class CorruptStoreFileException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final long offset;

  public CorruptStoreFileException(String file, long offset, String problem) {
    super("Store file " + file + " is corrupt at offset " + offset + ": " + problem);
    this.file = file;
    this.offset = offset;
  }

  public CorruptStoreFileException(String file, long offset, String problem, Throwable cause) {
    this(file, offset, problem);
    initCause(cause);
  }

  /** The file, as the storage describes it (e.g. an absolute local path). */
  public String file() {
    return file;
  }

  /** Offset in the file of the header, block or trailer that failed its checks. */
  public long offset() {
    return offset;
  }
}
