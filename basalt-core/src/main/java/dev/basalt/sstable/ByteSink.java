package dev.basalt.sstable;

import java.util.Arrays;

/**
 * A growable big-endian output buffer with unsigned LEB128 varints, reused across blocks by the
 * writer so that encoding a block allocates nothing once the buffer has grown. Not thread-safe.
 */
final class ByteSink {
  private byte[] buf;
  private int size;

  ByteSink(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  int size() {
    return size;
  }

  /** The backing array; valid bytes are [0, size()). */
  byte[] array() {
    return buf;
  }

  void reset() {
    size = 0;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  private void ensure(int extra) {
    long need = (long) size + extra;
    if (need > buf.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("block larger than 2 GiB");
      }
      buf =
          Arrays.copyOf(
              buf, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16L, buf.length * 2L)));
    }
  }

  void putByte(int v) {
    ensure(1);
    buf[size++] = (byte) v;
  }

  void putShort(int v) {
    ensure(2);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  void putInt(int v) {
    ensure(4);
    buf[size++] = (byte) (v >>> 24);
    buf[size++] = (byte) (v >>> 16);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  void putLong(long v) {
    putInt((int) (v >>> 32));
    putInt((int) v);
  }

  /** Unsigned LEB128: 7 bits per byte, low bits first, high bit set on all but the last byte. */
  void putVarLong(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  void putVarInt(int v) {
    putVarLong(v & 0xFFFFFFFFL);
  }

  void put(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }
}
