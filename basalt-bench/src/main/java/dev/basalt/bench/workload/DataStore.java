package dev.basalt.bench.workload;

import java.io.IOException;

/**
 * What the runner needs from the system under test: YCSB's table operations on one table with one
 * column family. The real implementation is {@link HBaseStore} (the stock HBase client); tests use
 * an in-memory one. Implementations are thread-safe; each worker thread uses its own {@link
 * Session}.
 */
interface DataStore extends AutoCloseable {

  /**
   * Makes sure the table exists; drops it first when {@code recreate} is set. A new table is
   * pre-split into {@code regions} regions at {@link KeyNames#splitPoints}.
   */
  void prepareTable(boolean recreate, int regions) throws IOException;

  /** A connection for one worker thread. */
  Session openSession() throws IOException;

  /** One line saying what the runner is talking to, for the report. */
  String describe();

  @Override
  void close() throws IOException;

  /** One worker's handle; not thread-safe. */
  interface Session extends AutoCloseable {
    /** Writes a whole record (every field). */
    void insert(byte[] row, byte[][] fields, byte[][] values) throws IOException;

    /** Reads every field of a record; returns how many fields it had (0: not found). */
    int read(byte[] row) throws IOException;

    /** Writes one field of a record. */
    void update(byte[] row, byte[] field, byte[] value) throws IOException;

    /**
     * Reads up to {@code count} records (every field) from {@code startRow} on; returns how many.
     */
    int scan(byte[] startRow, int count) throws IOException;

    @Override
    void close() throws IOException;
  }
}
