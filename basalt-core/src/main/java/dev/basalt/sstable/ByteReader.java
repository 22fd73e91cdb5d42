package dev.basalt.sstable;

/**
 * A bounds-checked big-endian cursor over bytes read from a file. Every read that would pass the
 * limit, and every varint that is too long or too large, raises {@link CorruptStoreFileException}
 * naming the file and the offset of the structure being decoded, so garbage never surfaces as an
 * index or allocation error. Not thread-safe.
 */
final class ByteReader {
  private final byte[] buf;
  private int pos;
  private final int limit;
  private final String file;
  private final long structureOffset;
  private final String structure;

  /**
   * @param structure what is being decoded, for messages (e.g. "data block")
   * @param structureOffset the structure's offset in the file, for messages
   */
  ByteReader(byte[] buf, int off, int len, String file, long structureOffset, String structure) {
    this.buf = buf;
    this.pos = off;
    this.limit = off + len;
    this.file = file;
    this.structureOffset = structureOffset;
    this.structure = structure;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return limit - pos;
  }

  CorruptStoreFileException corrupt(String problem) {
    return new CorruptStoreFileException(file, structureOffset, structure + ": " + problem);
  }

  private void need(int n, String what) throws CorruptStoreFileException {
    if (n < 0 || n > limit - pos) {
      throw corrupt(what + " needs " + n + " bytes but " + (limit - pos) + " remain");
    }
  }

  int readByte(String what) throws CorruptStoreFileException {
    need(1, what);
    return buf[pos++] & 0xFF;
  }

  int readInt(String what) throws CorruptStoreFileException {
    need(4, what);
    int v =
        (buf[pos] & 0xFF) << 24
            | (buf[pos + 1] & 0xFF) << 16
            | (buf[pos + 2] & 0xFF) << 8
            | (buf[pos + 3] & 0xFF);
    pos += 4;
    return v;
  }

  int readShort(String what) throws CorruptStoreFileException {
    need(2, what);
    int v = (buf[pos] & 0xFF) << 8 | (buf[pos + 1] & 0xFF);
    pos += 2;
    return v;
  }

  /** A copy of the next {@code n} bytes. */
  byte[] readBytes(int n, String what) throws CorruptStoreFileException {
    int at = skip(n, what);
    return java.util.Arrays.copyOfRange(buf, at, at + n);
  }

  long readLong(String what) throws CorruptStoreFileException {
    long hi = readInt(what) & 0xFFFFFFFFL;
    long lo = readInt(what) & 0xFFFFFFFFL;
    return hi << 32 | lo;
  }

  /** An unsigned LEB128 varint of at most 10 bytes. */
  long readVarLong(String what) throws CorruptStoreFileException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= limit) {
        throw corrupt(what + ": varint runs past the end");
      }
      int b = buf[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        if (shift == 63 && (b & 0x7E) != 0) {
          throw corrupt(what + ": varint overflows 64 bits");
        }
        return v;
      }
    }
    throw corrupt(what + ": varint longer than 10 bytes");
  }

  /** An unsigned varint that must lie in [0, Integer.MAX_VALUE]. */
  int readVarInt(String what) throws CorruptStoreFileException {
    long v = readVarLong(what);
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw corrupt(what + " " + Long.toUnsignedString(v) + " is out of range");
    }
    return (int) v;
  }

  /** Checks that {@code n} bytes remain, returns the offset of the first and skips them. */
  int skip(int n, String what) throws CorruptStoreFileException {
    need(n, what);
    int at = pos;
    pos += n;
    return at;
  }

  byte[] array() {
    return buf;
  }
}
