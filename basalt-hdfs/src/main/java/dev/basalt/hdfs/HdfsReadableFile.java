package dev.basalt.hdfs;

import dev.basalt.fs.ReadableFile;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * A file open for positional reads on HDFS ({@code pread}: no shared position, so thread-safe). Its
 * length is the length readers may see: for a file still being written (a lock file, a log another
 * process holds), the bytes its writer flushed.
 */
final class HdfsReadableFile implements ReadableFile {
  private final FSDataInputStream in;
  private final long fixedLength; // other file systems: the length when opened

  private HdfsReadableFile(FSDataInputStream in, long fixedLength) {
    this.in = in;
    this.fixedLength = fixedLength;
  }

  static HdfsReadableFile open(FileSystem fs, Path p) throws IOException {
    FSDataInputStream in = fs.open(p);
    if (in instanceof HdfsDataInputStream) {
      return new HdfsReadableFile(in, -1);
    }
    try {
      return new HdfsReadableFile(in, fs.getFileStatus(p).getLen());
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  @Override
  public int read(long position, byte[] buf, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    return in.read(position, buf, off, len);
  }

  @Override
  public long length() {
    return in instanceof HdfsDataInputStream h ? h.getVisibleLength() : fixedLength;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
