package dev.basalt.bench;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The operations {@link EngineComparison} runs against each engine: one key space of byte-string
 * keys with one value each. Implementations are thread-safe for put, get and scan.
 */
interface StorageEngine extends Closeable {
  /** Settings that decide how an engine instance is opened. */
  record Settings(
      long cacheBytes, long writeBufferBytes, int blockBytes, int bloomBitsPerKey, boolean create) {
    Settings withCache(long bytes) {
      return new Settings(bytes, writeBufferBytes, blockBytes, bloomBitsPerKey, false);
    }
  }

  /** Opens engines of one kind. */
  interface Kind {
    String name();

    StorageEngine open(Path dir, Settings settings) throws IOException;

    /** One line per setting, for the report. */
    String describe(Settings settings);
  }

  /** Writes one key (WAL on, not forced to the device). */
  void put(byte[] key, byte[] value) throws IOException;

  /** The value of the key, or null. */
  byte[] get(byte[] key) throws IOException;

  /**
   * Reads up to {@code rows} keys forwards from {@code start} (inclusive), copying out each key and
   * value as a client would.
   *
   * @return the key and value bytes read (so the work cannot be optimised away)
   */
  long scan(byte[] start, int rows) throws IOException;

  /** Writes the memory buffers to files and waits until no flush or compaction is pending. */
  void flushAndWait() throws IOException;

  /** Rewrites every data file into the fewest files (a full major compaction), synchronously. */
  void majorCompact() throws IOException;

  /** Bytes of the live data files (store files / SST files). */
  long liveDataFileBytes() throws IOException;

  /** Bytes of the live write-ahead log files. */
  long liveWalBytes() throws IOException;

  /** A short description of the data files, e.g. how many per level. */
  String fileLayout() throws IOException;

  /** Cache statistics worth printing, or an empty string. */
  String cacheStats();
}
