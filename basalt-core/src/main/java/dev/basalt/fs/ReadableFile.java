package dev.basalt.fs;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;

/** A file open for positional reads. Thread-safe: reads do not share a position. */
public interface ReadableFile extends Closeable {

  /** Reads up to {@code len} bytes at {@code position}; returns the count, -1 at end of file. */
  int read(long position, byte[] buf, int off, int len) throws IOException;

  long length() throws IOException;

  /**
   * Reads exactly {@code len} bytes.
   *
   * @throws EOFException when the file ends first
   */
  default void readFully(long position, byte[] buf, int off, int len) throws IOException {
    int done = 0;
    while (done < len) {
      int n = read(position + done, buf, off + done, len - done);
      if (n < 0) {
        throw new EOFException(
            "file ends at " + (position + done) + ", needed " + (len - done) + " more bytes");
      }
      done += n;
    }
  }
}
