package dev.basalt.memstore;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The memory of one memstore: byte chunks that ranges are carved out of, never freed one by one
 * (the whole arena is dropped with its memstore after a flush). This is HBase's MSLAB idea: a
 * memstore of 64 MiB is a few dozen arrays instead of hundreds of thousands of small objects, so
 * young collections do not copy (or even trace) cells that all live until the flush anyway.
 *
 * <p>An address is a long: the chunk's index in the upper 32 bits, the offset in the chunk in the
 * lower 32. When every size asked for is a multiple of 8, every range is 8-byte aligned (chunks
 * start aligned), so that longs and ints inside them can be read and swapped atomically.
 *
 * <p>Chunk sizes start at {@value #FIRST_CHUNK} bytes and double up to {@link #MAX_CHUNK}, so that
 * the many small memstores of a server with many regions hold little memory. {@code MAX_CHUNK} is 2
 * MiB minus a byte array's 16-byte header: with G1's 2 MiB regions (heaps of 4 to 8 GiB) a full
 * chunk fills exactly one region, where a 2 MiB array would take two. A range larger than {@value
 * #OWN_CHUNK_ABOVE} bytes gets a chunk of its own, so that one large cell does not waste the rest
 * of a chunk.
 *
 * <p>Thread-safe: allocation is one atomic add in the current chunk; only a new chunk takes a lock.
 */
final class Arena {
  static final int FIRST_CHUNK = 4096;
  static final int MAX_CHUNK = (2 << 20) - 16;
  static final int OWN_CHUNK_ABOVE = 256 << 10;

  private static final class Chunk {
    final int index;
    final byte[] bytes;
    final AtomicInteger top = new AtomicInteger();

    Chunk(int index, byte[] bytes) {
      this.index = index;
      this.bytes = bytes;
    }
  }

  private final Object grow = new Object();

  /**
   * Chunks by index. Replaced (never changed in place below {@code count}) when it is full; a
   * reader that got an address through a published node sees the chunk, because the chunk was
   * stored before the node was linked.
   */
  private volatile byte[][] chunks = new byte[8][];

  // Guarded by grow:
  private int count;
  private long allocated;

  private volatile Chunk current;

  Arena() {
    current = addChunk(FIRST_CHUNK);
  }

  static int offset(long address) {
    return (int) address;
  }

  /** The chunk an address points into. */
  byte[] chunk(long address) {
    return chunks[(int) (address >>> 32)];
  }

  /** Bytes of all chunks, used or not. */
  long allocatedBytes() {
    synchronized (grow) {
      return allocated;
    }
  }

  /**
   * Reserves {@code size} bytes, zeroed, and returns their address.
   *
   * @throws OutOfMemoryError like any allocation
   */
  long allocate(int size) {
    if (size > OWN_CHUNK_ABOVE) {
      Chunk own = addChunk(size);
      return (long) own.index << 32;
    }
    while (true) {
      Chunk c = current;
      int at = c.top.getAndAdd(size);
      if (at <= c.bytes.length - size) {
        return ((long) c.index << 32) | at;
      }
      // Full (a concurrent writer that overshot leaves the tail unused): move on to a new chunk.
      synchronized (grow) {
        if (current == c) {
          int next = Math.min(MAX_CHUNK, c.bytes.length * 2);
          while (next < size) {
            next = Math.min(MAX_CHUNK, next * 2);
          }
          current = addChunk(next);
        }
      }
    }
  }

  private Chunk addChunk(int size) {
    synchronized (grow) {
      byte[][] table = chunks;
      if (count == table.length) {
        table = Arrays.copyOf(table, table.length * 2);
      }
      byte[] bytes = new byte[size];
      table[count] = bytes;
      Chunk c = new Chunk(count, bytes);
      count++;
      allocated += size;
      chunks = table;
      return c;
    }
  }
}
