package dev.basalt.wal;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads one segment's frames in order (see {@link WalFormat}), telling apart a clean end, a frame
 * cut short by the end of the file (torn) and a frame that is whole but wrong (corrupt). What to do
 * about each is the caller's decision. Not thread-safe.
 */
final class SegmentReader implements Closeable {
  /** Why a frame could not be read. */
  enum Problem {
    /** The file ends inside the frame. */
    TORN,
    /** The frame is complete but its length or checksum is wrong. */
    CORRUPT
  }

  /** A frame that could not be read, with where and why. */
  static final class BadFrame extends Exception {
    private static final long serialVersionUID = 1L;
    final Problem problem;
    final long offset;

    /** Where the next frame would start if the length field is trusted, or -1. */
    final long next;

    BadFrame(Problem problem, long offset, long next, String message) {
      super(message, null, false, false);
      this.problem = problem;
      this.offset = offset;
      this.next = next;
    }
  }

  private static final int MAX_FRAME = Integer.MAX_VALUE - 64;

  private final ReadableFile file;
  private final long length;
  private long pos;
  private String serverId;
  private long creationTime;
  private short version;

  SegmentReader(Storage storage, String path) throws IOException {
    this.file = storage.open(path);
    this.length = file.length();
  }

  long length() {
    return length;
  }

  long position() {
    return pos;
  }

  String serverId() {
    return serverId;
  }

  long creationTime() {
    return creationTime;
  }

  /** The segment's format version, known once the header is read. */
  short version() {
    return version;
  }

  void readHeader() throws IOException, BadFrame {
    if (length < 20) {
      throw new BadFrame(
          Problem.TORN, 0, -1, "file is " + length + " bytes, shorter than a header");
    }
    byte[] fixed = new byte[8];
    file.readFully(0, fixed, 0, 8);
    if (Bytes.readInt(fixed, 0) != WalFormat.MAGIC) {
      throw new BadFrame(Problem.CORRUPT, 0, -1, "bad magic: not a Basalt WAL segment");
    }
    short version = Bytes.readShort(fixed, 4);
    if (version != WalFormat.VERSION && version != WalFormatV1.VERSION) {
      throw new BadFrame(
          Problem.CORRUPT,
          0,
          -1,
          "unsupported WAL format version "
              + version
              + " (this build reads versions "
              + WalFormatV1.VERSION
              + " and "
              + WalFormat.VERSION
              + ")");
    }
    this.version = version;
    int idLen = Bytes.readShort(fixed, 6);
    if (idLen < 0 || 20L + idLen > length) {
      throw new BadFrame(Problem.TORN, 0, -1, "header cut short");
    }
    byte[] h = new byte[20 + idLen];
    file.readFully(0, h, 0, h.length);
    if (Bytes.readInt(h, 16 + idLen) != WalFormat.crc(h, 0, 16 + idLen)) {
      throw new BadFrame(Problem.CORRUPT, 0, -1, "header checksum mismatch");
    }
    serverId = new String(h, 8, idLen, StandardCharsets.UTF_8);
    creationTime = Bytes.readLong(h, 8 + idLen);
    pos = h.length;
  }

  /** The next frame's payload, or null at a clean end of file. */
  byte[] next() throws IOException, BadFrame {
    if (pos == length) {
      return null;
    }
    long at = pos;
    if (length - at < WalFormat.FRAME_HEADER) {
      throw new BadFrame(Problem.TORN, at, -1, "frame header cut short");
    }
    byte[] fh = new byte[WalFormat.FRAME_HEADER];
    file.readFully(at, fh, 0, fh.length);
    int n = Bytes.readInt(fh, 0);
    if (n <= 0 || n > MAX_FRAME) {
      throw new BadFrame(Problem.CORRUPT, at, -1, "impossible frame length " + n);
    }
    long next = at + WalFormat.FRAME_HEADER + n;
    if (next > length) {
      throw new BadFrame(
          Problem.TORN, at, next, "frame of " + n + " bytes cut short by end of file");
    }
    byte[] payload = new byte[n];
    file.readFully(at + WalFormat.FRAME_HEADER, payload, 0, n);
    if (Bytes.readInt(fh, 4) != WalFormat.crc(payload, 0, n)) {
      throw new BadFrame(Problem.CORRUPT, at, next, "checksum mismatch");
    }
    pos = next;
    return payload;
  }

  /** Reads {@code len} bytes at {@code offset} (used to examine a damaged tail). */
  byte[] readRange(long offset, long len) throws IOException {
    if (len > Integer.MAX_VALUE - 16) {
      throw new IOException("range of " + len + " bytes is too large to examine");
    }
    byte[] b = new byte[(int) len];
    file.readFully(offset, b, 0, b.length);
    return b;
  }

  /** Moves to {@code offset} (to resume after a bad frame). */
  void seek(long offset) {
    pos = offset;
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
