package dev.basalt.hdfs;

import dev.basalt.fs.WritableFile;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;

/**
 * A file being written on HDFS. Small writes are gathered here first (each write call into the HDFS
 * stream takes its lock and computes checksums chunk by chunk), then handed over in pieces of up to
 * the buffer's size. {@link #flush} is hflush, {@link #sync} hsync. Not thread-safe.
 */
final class HdfsWritableFile implements WritableFile {
  private final FSDataOutputStream out;
  private final byte[] buffer;
  private int buffered;
  private long position;
  private boolean closed;

  HdfsWritableFile(FSDataOutputStream out, int bufferSize) {
    this.out = out;
    this.buffer = new byte[bufferSize];
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    if (len >= buffer.length) {
      drain();
      out.write(b, off, len);
    } else {
      if (buffer.length - buffered < len) {
        drain();
      }
      System.arraycopy(b, off, buffer, buffered, len);
      buffered += len;
    }
    position += len;
  }

  private void drain() throws IOException {
    if (buffered > 0) {
      out.write(buffer, 0, buffered);
      buffered = 0;
    }
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public void flush() throws IOException {
    ensureOpen();
    drain();
    out.hflush();
  }

  @Override
  public void sync() throws IOException {
    ensureOpen();
    drain();
    out.hsync();
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("file is closed");
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      drain();
    } finally {
      out.close();
    }
  }
}
