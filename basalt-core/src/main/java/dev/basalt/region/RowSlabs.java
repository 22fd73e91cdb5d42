package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Result;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The memory of the {@link RowCache}: cached rows are copied into a few large byte arrays (slabs)
 * instead of an array per row. A cache of rows that churn (every write to a row drops it, the next
 * read caches it again) otherwise fills the young generation with thousands of 1-2 KiB arrays that
 * live just long enough to be copied by several young collections: the copying was most of a
 * server's young pauses, and the heap growth it caused made throughput swing (PERFORMANCE.md,
 * session 12). A full slab is {@value #MAX_SLAB} bytes, one G1 region of a 4 GiB heap, so it is
 * allocated straight into the old generation (a humongous object) and never copied.
 *
 * <p>Slabs are reused, not left to the collector: a stream of dead 2 MiB arrays makes G1 start a
 * young collection at nearly every new one once the old generation is past its marking threshold
 * (seen: three "G1 Humongous Allocation" pauses a second). A range is bump-allocated in the current
 * slab, filled once and published through the cache's map. A slab's live bytes fall as its rows
 * leave the cache ({@link #release}); a full one with none left goes to a small pool of free slabs.
 * Because a reader may still be copying a row out of a slab that is reused, every reuse bumps the
 * slab's generation first, and a reader checks the generation after its copy (the optimistic read
 * of {@link java.util.concurrent.locks.StampedLock}): a row whose slab moved on reads as a miss.
 *
 * <p>When the slabs in use grow past their limit (one and a half times the cache's capacity, plus a
 * slab), the live rows of the sparsest slab are moved into the current one ({@link #compact}). A
 * {@link Row} is the cache's value and stays the same object; only its location changes, by a
 * compare-and-set that races with {@link #release} (which sets it to {@code RELEASED}), so each
 * range's bytes are given back exactly once and the cache's own structures are not touched.
 *
 * <p>A row's range, per cell in the row's order:
 *
 * <pre>
 * offset  size  field
 * 0       8     sequence id
 * 8       L     the cell in KeyValue layout (L = 8 + key length + value length, read from its head)
 * </pre>
 *
 * <p>Thread-safe: allocation and the slab lists are guarded by this object's lock; live bytes,
 * generations and locations are atomic.
 */
final class RowSlabs {
  static final int MAX_SLAB = (2 << 20) - 16;

  /** Slabs of small caches (tests, tiny heaps) are smaller, so that they hold several. */
  static final int MIN_SLAB = 16 << 10;

  /** Free slabs kept for reuse; more are left to the collector. */
  static final int POOL = 4;

  /** Where a row's bytes are: a range of one use (generation) of a slab. */
  record Location(Slab slab, long generation, int offset) {}

  private static final Location RELEASED = new Location(null, -1, 0);

  private static final VarHandle WHERE;

  static {
    try {
      WHERE = MethodHandles.lookup().findVarHandle(Row.class, "where", Location.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A cached row. Compared by identity, which replacing an entry of the cache relies on. */
  static final class Row {
    static final Row EMPTY = new Row(null, 0, 0);

    final int length;
    final int cells;
    private volatile Location where;

    private Row(Location where, int length, int cells) {
      this.where = where;
      this.length = length;
      this.cells = cells;
    }

    /** A copy of the row's cells, or null when the row was released and its slab reused. */
    Result toResult() {
      if (cells == 0) {
        return Result.EMPTY;
      }
      Location at = where;
      byte[] b = copy(at);
      if (b == null && where != at) { // moved while being copied: the new place is stable
        b = copy(where);
      }
      return b == null ? null : parse(b, cells);
    }

    /** The bytes at a location of this row, or null when it was released and reused since. */
    byte[] copy(Location at) {
      if (at == RELEASED) {
        return null;
      }
      Slab slab = at.slab();
      byte[] b = Arrays.copyOfRange(slab.bytes, at.offset(), at.offset() + length);
      VarHandle.acquireFence(); // the copy's reads come before the generation's
      return slab.generation.get() == at.generation() ? b : null;
    }

    Location where() {
      return where;
    }
  }

  private static Result parse(byte[] b, int cells) {
    KeyValue[] kvs = new KeyValue[cells];
    int at = 0;
    for (int i = 0; i < cells; i++) {
      long seqId = Bytes.readLong(b, at);
      at += 8;
      int len = KeyValue.ROW_OFFSET + Bytes.readInt(b, at) + Bytes.readInt(b, at + 4);
      kvs[i] = new KeyValue(b, at, len, seqId);
      at += len;
    }
    return Result.adopt(kvs);
  }

  static final class Slab {
    final byte[] bytes;
    final AtomicLong generation = new AtomicLong();
    final AtomicInteger live = new AtomicInteger();

    /** The rows placed here in this generation, for moving them; guarded by RowSlabs. */
    final List<Row> rows = new ArrayList<>();

    // Guarded by RowSlabs:
    int top;
    boolean sealed;

    Slab(int size) {
      this.bytes = new byte[size];
    }
  }

  private final int slabSize;
  private final long limit;
  private final List<Slab> inUse = new ArrayList<>(); // guarded by this
  private final ArrayDeque<Slab> pool = new ArrayDeque<>(); // guarded by this
  private final AtomicBoolean compacting = new AtomicBoolean();
  private final LongAdder moved = new LongAdder();
  private Slab current; // guarded by this
  private long created; // guarded by this

  /**
   * @param capacity the cache's capacity in bytes (rows and their bookkeeping)
   */
  RowSlabs(long capacity) {
    this.slabSize = (int) Math.max(MIN_SLAB, Math.min(MAX_SLAB, capacity / 16));
    this.limit = capacity + capacity / 2 + slabSize;
  }

  /** Bytes of a row's range: {@code cellBytes} of KeyValues and a sequence id per cell. */
  static int rangeLength(int cellBytes, int cells) {
    return cellBytes + 8 * cells;
  }

  /** Whether a range of this many bytes can be stored at all. */
  boolean fits(int length) {
    return length <= slabSize;
  }

  /**
   * Copies cells into a new range. The row must be {@link #release}d when it leaves the cache, or
   * when it is not put in.
   *
   * @param cells KeyValues only
   * @param length their {@link #rangeLength}
   */
  Row store(List<Cell> cells, int length) {
    if (cells.isEmpty()) {
      return Row.EMPTY;
    }
    Row row = new Row(null, length, cells.size());
    Location loc = allocate(row);
    byte[] b = loc.slab().bytes;
    int at = loc.offset();
    for (Cell c : cells) {
      KeyValue kv = (KeyValue) c;
      at = Bytes.putLong(b, at, kv.getSequenceId());
      System.arraycopy(kv.getBuffer(), kv.getOffset(), b, at, kv.getLength());
      at += kv.getLength();
    }
    row.where = loc; // volatile: the bytes are written before the row can be read
    return row;
  }

  /** Reserves the row's range in the current slab. */
  private synchronized Location allocate(Row row) {
    if (current == null || current.top > slabSize - row.length) {
      if (current != null) {
        current.sealed = true;
        freeIfEmpty(current);
      }
      current = takeSlab();
    }
    Slab s = current;
    Location loc = new Location(s, s.generation.get(), s.top);
    s.top += row.length;
    s.live.addAndGet(row.length);
    s.rows.add(row);
    return loc;
  }

  private Slab takeSlab() {
    Slab s = pool.poll();
    if (s == null) {
      s = new Slab(slabSize);
      created++;
    } else {
      // Before any byte is overwritten: readers of the old rows must see their copy is void.
      s.generation.incrementAndGet();
      s.top = 0;
      s.sealed = false;
      s.rows.clear();
    }
    inUse.add(s);
    return s;
  }

  /** The row has left the cache (or never entered it): its bytes are given back, once. */
  void release(Row row) {
    if (row.cells > 0) {
      Location loc = (Location) WHERE.getAndSet(row, RELEASED);
      if (loc != RELEASED) {
        giveBack(loc, row.length);
      }
    }
  }

  private void giveBack(Location loc, int length) {
    Slab s = loc.slab();
    if (s.live.addAndGet(-length) == 0) {
      synchronized (this) {
        freeIfEmpty(s);
      }
    }
  }

  /** Frees a full slab without live rows, once: a freed slab is no longer in use. */
  private void freeIfEmpty(Slab s) {
    if (s.sealed && s.live.get() == 0 && inUse.remove(s)) {
      if (pool.size() < POOL) {
        pool.add(s);
      }
    }
  }

  /**
   * While the slabs in use are over their limit, moves the live rows of the sparsest full one into
   * the current slab; it is then free. One thread at a time; the others go on.
   */
  void compact() {
    if (inUseBytes() <= limit || !compacting.compareAndSet(false, true)) {
      return;
    }
    try {
      // A few at a time: a row stored in a victim but not yet set in place keeps it in use.
      for (int i = 0; i < 4 && compactOne(); i++) {}
    } finally {
      compacting.set(false);
    }
  }

  private boolean compactOne() {
    Slab victim;
    long generation;
    Row[] rows;
    synchronized (this) {
      if (inUseBytes() <= limit) {
        return false;
      }
      victim = null;
      for (Slab s : inUse) {
        if (s.sealed && (victim == null || s.live.get() < victim.live.get())) {
          victim = s;
        }
      }
      if (victim == null) {
        return false;
      }
      generation = victim.generation.get();
      rows = victim.rows.toArray(Row[]::new); // sealed: complete; copied: the slab may be reused
    }
    for (Row row : rows) {
      Location from = row.where;
      if (from == null || from.slab() != victim || from.generation() != generation) {
        continue; // released, moved before, or not yet in place
      }
      Location to = allocate(row);
      // The source cannot be reused meanwhile: its slab is freed only after this range is given
      // back, and a release that comes first makes the compare-and-set below fail.
      System.arraycopy(victim.bytes, from.offset(), to.slab().bytes, to.offset(), row.length);
      if (WHERE.compareAndSet(row, from, to)) {
        giveBack(from, row.length);
        moved.increment();
      } else {
        giveBack(to, row.length);
      }
    }
    return true;
  }

  /** Bytes of the slabs holding rows. */
  synchronized long inUseBytes() {
    return (long) inUse.size() * slabSize;
  }

  /** Slabs ever made (a steady cache reuses its slabs and stops making new ones). */
  synchronized long slabsCreated() {
    return created;
  }

  /** Rows moved out of slabs being emptied. */
  long rowsMoved() {
    return moved.sum();
  }

  /** The most {@link #inUseBytes} may be before the sparsest slab is emptied. */
  long limit() {
    return limit;
  }
}
