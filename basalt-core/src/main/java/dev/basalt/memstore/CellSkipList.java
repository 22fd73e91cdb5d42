package dev.basalt.memstore;

import dev.basalt.cell.KeyValue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lock-free skip list in cell order whose nodes live in one {@link Arena} and whose cells live in
 * another (the design of RocksDB's InlineSkipList, with the key split in two). A node carries the
 * first 16 bytes of its cell's row, so most comparisons of a random insert end after reading the
 * one node they visit: {@code ConcurrentSkipListMap<KeyValue, KeyValue>} followed an index node to
 * a map node to a cell object to a byte array, four cache misses per node visited, and that was
 * most of the time of a put. Keeping the cells apart keeps the nodes dense (about 50 bytes each),
 * so the part of the list a search walks is a fraction of the memory.
 *
 * <p>Node layout (native byte order):
 *
 * <pre>
 * offset  size   field
 * 0       8      row prefix: row bytes 0..7 as a big-endian number, zero-padded past the row
 * 8       8      row prefix: row bytes 8..15, the same way
 * 16      8      address of the cell (KeyValue layout) in the cell arena
 * 24      8      sequence id
 * 32      4      height H (1..12)
 * 36      4      flags: bit 0 = removed; bit 1 = the cell has a per-cell TTL
 * 40      8 x H  address of the next node on levels 0..H-1 (0 = none)
 * </pre>
 *
 * A cell with a per-cell TTL keeps it in the 8 bytes (native order) right after its KeyValue bytes
 * in the cell arena; other cells take no space for it.
 *
 * <p>Prefixes order rows consistently (unsigned comparison of the zero-padded first 16 bytes never
 * contradicts the rows' order); only equal prefixes fall back to comparing the cells. The head node
 * (address 0, which is therefore never a successor and doubles as "none") has 12 levels and no
 * cell. Heights are random with P(H > h) = 4^-h.
 *
 * <p><b>Concurrency.</b> Any number of threads insert and read at once. A node and its cell are
 * written completely before a compare-and-set links the node, level 0 first, so a reader that loads
 * a link (with acquire semantics) sees both whole; links are only ever added, so a reader's
 * traversal stays valid. Nothing is unlinked: {@link #markRemoved} sets the removed flag, and
 * readers skip flagged nodes. An insert of a cell equal to a present one (same key and sequence id)
 * links the new node in front of the old one, which the caller then flags: equal cells come from
 * one mutation, written by the thread that holds the row lock, so they are never inserted
 * concurrently.
 */
final class CellSkipList {
  static final int MAX_HEIGHT = 12;

  private static final int PREFIX0 = 0;
  private static final int PREFIX1 = 8;
  private static final int CELL = 16;
  private static final int SEQ = 24;
  private static final int HEIGHT = 32;
  private static final int FLAGS = 36;
  private static final int NEXT = 40;
  private static final int REMOVED = 1;
  private static final int HAS_TTL = 2;

  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final Arena nodes = new Arena();
  private final Arena cells = new Arena();
  private final long head;
  private final AtomicInteger height = new AtomicInteger(1);

  CellSkipList() {
    this.head = nodes.allocate(NEXT + 8 * MAX_HEIGHT);
    if (head != 0) {
      throw new IllegalStateException("the head must be the arena's first allocation");
    }
    INT.set(nodes.chunk(head), HEIGHT, MAX_HEIGHT);
  }

  /** Bytes a node of height {@code height} takes in the node arena. */
  static int nodeSize(int height) {
    return NEXT + 8 * height;
  }

  /** Bytes of both arenas, used or not. */
  long allocatedBytes() {
    return nodes.allocatedBytes() + cells.allocatedBytes();
  }

  // ---- node accessors -----------------------------------------------------------------------

  long sequenceId(long node) {
    return (long) LONG.get(nodes.chunk(node), Arena.offset(node) + SEQ);
  }

  /** Arena bytes the node and its cell take. */
  int size(long node) {
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    long cell = (long) LONG.get(n, o + CELL);
    int ttlBytes = ((int) INT.get(n, o + FLAGS) & HAS_TTL) != 0 ? 8 : 0;
    return nodeSize((int) INT.get(n, o + HEIGHT))
        + KeyOrder.cellLength(cells.chunk(cell), Arena.offset(cell))
        + ttlBytes;
  }

  /** The node's cell, backed by the cell arena. */
  KeyValue cell(long node) {
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    long cell = (long) LONG.get(n, o + CELL);
    byte[] c = cells.chunk(cell);
    int co = Arena.offset(cell);
    int length = KeyOrder.cellLength(c, co);
    long seq = (long) LONG.get(n, o + SEQ);
    // The flags word was written before the node was linked; the removed bit may change since,
    // the TTL bit never does.
    if (((int) INT.get(n, o + FLAGS) & HAS_TTL) == 0) {
      return new KeyValue(c, co, length, seq);
    }
    return KeyValue.of(c, co, length, seq, (long) LONG.get(c, co + length));
  }

  boolean isRemoved(long node) {
    return ((int) INT.getAcquire(nodes.chunk(node), Arena.offset(node) + FLAGS) & REMOVED) != 0;
  }

  /**
   * Flags a node removed.
   *
   * @return false when it already was
   */
  boolean markRemoved(long node) {
    byte[] n = nodes.chunk(node);
    int at = Arena.offset(node) + FLAGS;
    int f;
    do {
      f = (int) INT.getVolatile(n, at);
      if ((f & REMOVED) != 0) {
        return false;
      }
    } while (!INT.compareAndSet(n, at, f, f | REMOVED));
    return true;
  }

  /** The next node on level 0, removed or not; 0 at the end. */
  long next(long node) {
    return next(node, 0);
  }

  private long next(long node, int level) {
    return (long) LONG.getAcquire(nodes.chunk(node), Arena.offset(node) + NEXT + 8 * level);
  }

  // ---- keys -----------------------------------------------------------------------------------

  /** A search key: a cell in KeyValue layout, its sequence id and its row prefix. */
  private static final class Key {
    final byte[] bytes;
    final int offset;
    final long seq;
    final long prefix0;
    final long prefix1;

    Key(byte[] bytes, int offset, long seq) {
      this.bytes = bytes;
      this.offset = offset;
      this.seq = seq;
      int rowLength = ((bytes[offset + 8] & 0xff) << 8) | (bytes[offset + 9] & 0xff);
      this.prefix0 = prefix(bytes, offset + 10, rowLength, 0);
      this.prefix1 = prefix(bytes, offset + 10, rowLength, 8);
    }
  }

  /** Row bytes [from, from + 8) as a big-endian number, zero-padded past the row's end. */
  private static long prefix(byte[] b, int rowOffset, int rowLength, int from) {
    if (rowLength >= from + 8) {
      return (long) BIG_ENDIAN_LONG.get(b, rowOffset + from);
    }
    long v = 0;
    for (int i = from; i < from + 8; i++) {
      v = (v << 8) | (i < rowLength ? b[rowOffset + i] & 0xffL : 0);
    }
    return v;
  }

  /** The order of a node's cell against a key. */
  private int compareNodeTo(long node, Key key) {
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    int c = Long.compareUnsigned((long) LONG.get(n, o + PREFIX0), key.prefix0);
    if (c != 0) {
      return c;
    }
    c = Long.compareUnsigned((long) LONG.get(n, o + PREFIX1), key.prefix1);
    if (c != 0) {
      return c;
    }
    long cell = (long) LONG.get(n, o + CELL);
    return KeyOrder.compare(
        cells.chunk(cell),
        Arena.offset(cell),
        (long) LONG.get(n, o + SEQ),
        key.bytes,
        key.offset,
        key.seq);
  }

  // ---- insert -------------------------------------------------------------------------------

  /**
   * Copies a cell into the arena with the given sequence id, timestamp and per-cell TTL ({@link
   * KeyValue#NO_TTL} for none) and links a node for it.
   *
   * @return the new node
   */
  long insert(byte[] src, int srcOffset, int length, long seq, long timestamp, long ttl) {
    boolean hasTtl = ttl != KeyValue.NO_TTL;
    long cell = cells.allocate(hasTtl ? length + 8 : length);
    byte[] c = cells.chunk(cell);
    int co = Arena.offset(cell);
    System.arraycopy(src, srcOffset, c, co, length);
    KeyOrder.putTimestamp(c, co, timestamp);
    if (hasTtl) {
      LONG.set(c, co + length, ttl);
    }
    Key key = new Key(c, co, seq);
    int h = randomHeight();
    long node = nodes.allocate(nodeSize(h));
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    LONG.set(n, o + PREFIX0, key.prefix0);
    LONG.set(n, o + PREFIX1, key.prefix1);
    LONG.set(n, o + CELL, cell);
    LONG.set(n, o + SEQ, seq);
    INT.set(n, o + HEIGHT, h);
    if (hasTtl) {
      INT.set(n, o + FLAGS, HAS_TTL);
    }
    link(node, n, o, key, h);
    return node;
  }

  /**
   * After {@link #insert}: the node right behind {@code node} if it holds an equal cell (same key
   * and sequence id), else 0.
   */
  long equalSuccessor(long node) {
    long next = next(node, 0);
    if (next == 0) {
      return 0;
    }
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    byte[] x = nodes.chunk(next);
    int xo = Arena.offset(next);
    if ((long) LONG.get(n, o + SEQ) != (long) LONG.get(x, xo + SEQ)
        || (long) LONG.get(n, o + PREFIX0) != (long) LONG.get(x, xo + PREFIX0)
        || (long) LONG.get(n, o + PREFIX1) != (long) LONG.get(x, xo + PREFIX1)) {
      return 0; // the usual case, decided without looking at the cells
    }
    long cell = (long) LONG.get(n, o + CELL);
    Key key = new Key(cells.chunk(cell), Arena.offset(cell), (long) LONG.get(n, o + SEQ));
    return compareNodeTo(next, key) == 0 ? next : 0;
  }

  private void link(long node, byte[] n, int o, Key key, int h) {
    int top = raiseHeight(h);
    long[] prev = new long[h];
    long[] succ = new long[h];
    long x = head;
    for (int level = top - 1; level >= 0; level--) {
      long next;
      while ((next = next(x, level)) != 0 && compareNodeTo(next, key) < 0) {
        x = next;
      }
      if (level < h) {
        prev[level] = x;
        succ[level] = next;
      }
    }
    for (int level = 0; level < h; level++) {
      long p = prev[level];
      long next = succ[level];
      while (true) {
        LONG.setRelease(n, o + NEXT + 8 * level, next);
        if (LONG.compareAndSet(nodes.chunk(p), Arena.offset(p) + NEXT + 8 * level, next, node)) {
          break;
        }
        // Another node went in between: move forward on this level and try again.
        while ((next = next(p, level)) != 0 && compareNodeTo(next, key) < 0) {
          p = next;
        }
      }
    }
  }

  private int raiseHeight(int h) {
    int top = height.get();
    while (h > top) {
      if (height.compareAndSet(top, h)) {
        return h;
      }
      top = height.get();
    }
    return top;
  }

  private static int randomHeight() {
    int r = ThreadLocalRandom.current().nextInt();
    int h = 1;
    while (h < MAX_HEIGHT && (r & 3) == 0) {
      h++;
      r >>>= 2;
    }
    return h;
  }

  // ---- search -------------------------------------------------------------------------------

  /** The first node at or after the key (a cell in KeyValue layout), removed or not, or 0. */
  long ceiling(byte[] key, int keyOffset, long keySeq) {
    Key k = new Key(key, keyOffset, keySeq);
    long x = head;
    long next = 0;
    for (int level = height.get() - 1; level >= 0; level--) {
      while ((next = next(x, level)) != 0 && compareNodeTo(next, k) < 0) {
        x = next;
      }
    }
    return next;
  }

  /**
   * {@link #ceiling} for a key ahead of {@code from}, a node that sorts before it: climbs from
   * {@code from} along ever taller towers while they stay before the key, then descends, so a key d
   * nodes ahead costs O(log d) node visits instead of a search from the head (a reseek over a
   * column's old versions, or to the next row, is usually a short hop).
   */
  long ceilingAfter(long from, byte[] key, int keyOffset, long keySeq) {
    Key k = new Key(key, keyOffset, keySeq);
    long x = from;
    int level = height(x) - 1;
    long next;
    while ((next = next(x, level)) != 0 && compareNodeTo(next, k) < 0) {
      x = next;
      level = Math.max(level, height(x) - 1);
    }
    for (; level >= 0; level--) {
      while ((next = next(x, level)) != 0 && compareNodeTo(next, k) < 0) {
        x = next;
      }
    }
    return next;
  }

  private int height(long node) {
    return (int) INT.get(nodes.chunk(node), Arena.offset(node) + HEIGHT);
  }

  /** The last node that is not removed and sorts before the key, or 0. */
  long lower(byte[] key, int keyOffset, long keySeq) {
    return liveAtOrBefore(lastBefore(new Key(key, keyOffset, keySeq)));
  }

  /** The last node that is not removed, or 0. */
  long last() {
    long x = head;
    for (int level = height.get() - 1; level >= 0; level--) {
      long next;
      while ((next = next(x, level)) != 0) {
        x = next;
      }
    }
    return liveAtOrBefore(x);
  }

  /** The last node before the key, removed or not; the head if none. */
  private long lastBefore(Key k) {
    long x = head;
    for (int level = height.get() - 1; level >= 0; level--) {
      long next;
      while ((next = next(x, level)) != 0 && compareNodeTo(next, k) < 0) {
        x = next;
      }
    }
    return x;
  }

  /**
   * The last node that is not removed among {@code x} and the nodes before it, or 0. Equal cells
   * sit together, the only one that can be live first, so a removed node's live stand-in (if any)
   * is the first of its group; before the group, search again.
   */
  private long liveAtOrBefore(long x) {
    while (x != head && isRemoved(x)) {
      long before = lastBefore(keyOf(x));
      long first = next(before, 0);
      if (first != x && !isRemoved(first)) {
        return first;
      }
      x = before;
    }
    return x == head ? 0 : x;
  }

  private Key keyOf(long node) {
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    long cell = (long) LONG.get(n, o + CELL);
    return new Key(cells.chunk(cell), Arena.offset(cell), (long) LONG.get(n, o + SEQ));
  }

  /** The first node, removed or not, or 0. */
  long first() {
    return next(head, 0);
  }

  /**
   * How many of the nodes right after {@code node} (removed or not) hold cells of its column (same
   * row, family and qualifier), counting up to {@code limit}: the older versions a read of the
   * column's newest one steps over.
   */
  int olderVersions(long node, int limit) {
    byte[] n = nodes.chunk(node);
    int o = Arena.offset(node);
    long p0 = (long) LONG.get(n, o + PREFIX0);
    long p1 = (long) LONG.get(n, o + PREFIX1);
    long cell = (long) LONG.get(n, o + CELL);
    byte[] c = cells.chunk(cell);
    int co = Arena.offset(cell);
    int columnLength = KeyOrder.columnLength(c, co);
    int count = 0;
    for (long x = next(node, 0); x != 0 && count < limit; x = next(x, 0)) {
      byte[] xn = nodes.chunk(x);
      int xo = Arena.offset(x);
      if ((long) LONG.get(xn, xo + PREFIX0) != p0 || (long) LONG.get(xn, xo + PREFIX1) != p1) {
        break; // another row, decided without looking at the cell
      }
      long xcell = (long) LONG.get(xn, xo + CELL);
      byte[] xc = cells.chunk(xcell);
      int xco = Arena.offset(xcell);
      if (KeyOrder.columnLength(xc, xco) != columnLength
          || !Arrays.equals(
              c,
              co + KeyValue.ROW_OFFSET,
              co + KeyValue.ROW_OFFSET + columnLength,
              xc,
              xco + KeyValue.ROW_OFFSET,
              xco + KeyValue.ROW_OFFSET + columnLength)) {
        break;
      }
      count++;
    }
    return count;
  }

  /** Whether the node holds a cell equal to the given one (same key and sequence id). */
  boolean holds(long node, byte[] key, int keyOffset, long keySeq) {
    return compareNodeTo(node, new Key(key, keyOffset, keySeq)) == 0;
  }
}
