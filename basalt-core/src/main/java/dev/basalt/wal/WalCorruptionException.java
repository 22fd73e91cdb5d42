package dev.basalt.wal;

import java.io.IOException;

/** A WAL segment holds bytes that are not a valid entry where an entry must be. */
public final class WalCorruptionException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final long offset;

  public WalCorruptionException(String file, long offset, String problem) {
    super(
        "WAL segment "
            + file
            + " is corrupt at offset "
            + offset
            + ": "
            + problem
            + " (set hbase.hregion.edits.replay.skip.errors=true to skip bad entries and lose"
            + " them)");
    this.file = file;
    this.offset = offset;
  }

  public String file() {
    return file;
  }

  public long offset() {
    return offset;
  }
}
