package dev.basalt.fs;

import java.io.Closeable;
import java.io.IOException;

/**
 * A file being written sequentially. Bytes written are buffered by the process until {@link
 * #flush()} hands them to the operating system (they then survive a crash of the process) and
 * {@link #sync()} forces them to the device (they then survive a crash of the machine). Not
 * thread-safe.
 */
public interface WritableFile extends Closeable {

  void write(byte[] b, int off, int len) throws IOException;

  default void write(byte[] b) throws IOException {
    write(b, 0, b.length);
  }

  /** Bytes written so far, buffered or not. */
  long position();

  /** Hands buffered bytes to the operating system (HDFS: hflush). */
  void flush() throws IOException;

  /** Flushes, then forces the bytes to the device (HDFS: hsync). */
  void sync() throws IOException;

  /** Flushes and closes; does not sync. */
  @Override
  void close() throws IOException;
}
