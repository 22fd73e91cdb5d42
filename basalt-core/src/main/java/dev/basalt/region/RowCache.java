package dev.basalt.region;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Result;
import dev.basalt.region.RowSlabs.Row;
import dev.basalt.util.FaultPoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The latest version of recently read rows, shared by every region of a database: Bigtable's "scan
 * cache" (a cache of the cells the store returns, above the block cache). A warm get of a row that
 * is often read and seldom written then costs a hash lookup instead of a search of the memstore and
 * of each store file, which for a memstore full of versions of a hot row is dozens of cache misses.
 * Which gets it serves is decided by the region ({@code Region.get}); this class only keeps rows
 * correct under concurrent writes.
 *
 * <p><b>Consistency.</b> A cached row must never be older than what a read would find. Writers of a
 * row bracket their write with {@link #beginWrite} (before anything is applied) and {@link
 * #endWrite} (after the edit is visible to readers, where a put's cells are applied to the cached
 * row and any other write drops it), both under the row lock. Rows are striped over counters: per
 * stripe, the writes in flight and a version that every begin and end bumps. While a write of a
 * stripe is in flight its rows are neither served from nor put into the cache, so the moment an
 * edit becomes visible cannot be missed. A reader notes the version before it reads ({@link
 * #startRead}) and {@link #offer}s its result only if no write of the stripe began or ended
 * meanwhile. Stripes shared by unrelated rows only cost cache misses.
 *
 * <p>Cached cells are copied into {@link RowSlabs}, so they never hold a memstore's chunks alive
 * and do not burden young collections; a hit copies the row out of its slab. Entries are weighed by
 * their bytes; Caffeine evicts (W-TinyLFU), and its removal listener returns a row's bytes to its
 * slab. Thread-safe.
 */
public final class RowCache {
  /** Rows with more cells or bytes than this are not cached. */
  static final int MAX_CELLS = 1024;

  static final int MAX_BYTES = 256 * 1024;

  /** Fault point: a get found the row in the cache and has not yet copied it out. */
  static final String FAULT_LOOKED_UP = "rowcache.get.lookedUp";

  /** Fault point: an offer found no write since its read, under the entry's lock. */
  static final String FAULT_OFFER_CHECKED = "rowcache.offer.checked";

  private static final int STRIPES = 4096;
  private static final AtomicLong REGION_IDS = new AtomicLong();

  private final Cache<Key, Row> rows;
  private final long capacity;
  private final RowSlabs slabs;
  private final AtomicIntegerArray writing = new AtomicIntegerArray(STRIPES);
  private final AtomicLongArray versions = new AtomicLongArray(STRIPES);
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder updates = new LongAdder();

  /** A row of one region (each opening of a region has its own id). */
  record Key(long region, byte[] row, int hash) {
    static Key of(long region, byte[] row) {
      return new Key(region, row, 31 * Long.hashCode(region) + Arrays.hashCode(row));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.region == region && Arrays.equals(k.row, row);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    int stripe() {
      int h = hash ^ (hash >>> 16);
      return h & (STRIPES - 1);
    }
  }

  /**
   * @param capacityBytes the most bytes of cached rows; 0 caches nothing
   */
  public RowCache(long capacityBytes) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacityBytes);
    }
    this.capacity = capacityBytes;
    this.slabs = new RowSlabs(capacityBytes);
    this.rows =
        Caffeine.newBuilder()
            .maximumWeight(capacityBytes)
            .weigher((Key k, Row r) -> weight(k, r))
            .executor(Runnable::run)
            .removalListener((Key k, Row r, RemovalCause cause) -> slabs.release(r))
            .build();
  }

  /** A new id for a region that is opening (its old rows are then never looked up again). */
  static long newRegionId() {
    return REGION_IDS.incrementAndGet();
  }

  /** The cached row, or null; never while a write of the row's stripe is in flight. */
  Result get(Key key) {
    Row r = rows.getIfPresent(key);
    if (r != null) {
      FaultPoints.hit(FAULT_LOOKED_UP);
    }
    if (r == null || writing.get(key.stripe()) != 0) {
      misses.increment();
      return null;
    }
    // A row looked up before a write ended may be the one from before its edit. That write then
    // replaced or dropped it, which released its bytes: the copy reads as a miss (as it does when
    // the row was evicted since and its slab reused).
    Result cached = r.toResult();
    if (cached == null) {
      misses.increment();
      return null;
    }
    hits.increment();
    return cached;
  }

  /**
   * Called before reading a row that may be offered afterwards.
   *
   * @return the token to pass to {@link #offer}, or -1 when a write of the row's stripe is in
   *     flight (the read must not be cached)
   */
  long startRead(Key key) {
    int s = key.stripe();
    long v = versions.get(s);
    return writing.get(s) == 0 ? v : -1;
  }

  /**
   * Caches what a read found, unless a write of the row's stripe began or ended since {@code
   * token}. The check runs under the entry's lock, which {@link #endWrite}'s removal or update also
   * takes, so a check that passes comes before that step, which drops what it inserted.
   */
  void offer(Key key, long token, Result found) {
    if (token < 0) {
      return;
    }
    int s = key.stripe();
    if (!unchanged(s, token)) {
      return;
    }
    Row copy = store(found);
    if (copy == null) {
      return;
    }
    Row now =
        rows.asMap()
            .compute(
                key,
                (k, present) -> {
                  if (!unchanged(s, token)) {
                    return present;
                  }
                  FaultPoints.hit(FAULT_OFFER_CHECKED);
                  return copy;
                });
    if (now != copy) {
      slabs.release(copy);
    }
    slabs.compact();
  }

  private boolean unchanged(int stripe, long token) {
    return writing.get(stripe) == 0 && versions.get(stripe) == token;
  }

  /** A writer holds the row's lock and is about to change it. */
  void beginWrite(Key key) {
    int s = key.stripe();
    writing.incrementAndGet(s);
    versions.incrementAndGet(s);
  }

  /**
   * The write that {@link #beginWrite} announced is visible to readers now (or was abandoned).
   * Until here no reader used or cached the row's stripe. A cached row is brought up to date with
   * the write's cells when they are all puts of a family with deterministic history ({@code
   * applied}), and dropped otherwise ({@code applied} null).
   *
   * <p>Why a put can be applied to the cached row alone: the row holds each column's newest live
   * version, and the write committed after everything the row reflects. Under deterministic history
   * (SEMANTICS.md section 4) a put is live from its commit until a later write or delete ends it,
   * and earlier deletes never mask it. So a put of timestamp T becomes the column's newest live
   * version exactly when the cached version's timestamp is at most T (at T it overwrites it) or the
   * column has none; otherwise the cached version stays. Deletes are not applied: removing a
   * column's newest version would need the version under it, which the cache does not hold.
   *
   * @param applied the cells the write put into the memstores, in order (none: the row did not
   *     change), or null when the row must be dropped
   */
  void endWrite(Key key, List<KeyValue> applied) {
    int s = key.stripe();
    if (applied == null) {
      rows.asMap().remove(key);
    } else if (!applied.isEmpty()) {
      update(key, applied);
    }
    versions.incrementAndGet(s);
    writing.decrementAndGet(s);
  }

  /**
   * Drops every cached row of a region whose reads changed without a write: a major compaction of a
   * family with classic history drops delete markers, which makes the puts they masked visible
   * (SEMANTICS.md section 7). Called after the change is visible to readers. Every stripe's version
   * is bumped first, so a read that started before the change is not offered afterwards; a row
   * offered before the bump is removed by the sweep that follows. Costs a pass over the cache.
   */
  void dropRegion(long region) {
    for (int s = 0; s < STRIPES; s++) {
      versions.incrementAndGet(s);
    }
    rows.asMap().keySet().removeIf(k -> k.region == region);
  }

  /**
   * Replaces a cached row by a copy with the write's puts applied, or drops it when that cannot be
   * done. The copy is made outside the entry's lock and installed under it only if the entry is
   * still the row it was made from: an offer whose check passed just before the write began may
   * have inserted its (now stale) row after the lookup, and is dropped like the old design's
   * removal dropped it. Offers that check later are refused while the write is in flight.
   */
  private void update(Key key, List<KeyValue> applied) {
    Row old = rows.asMap().get(key);
    Result before = old == null ? null : old.toResult();
    List<Cell> after = before == null ? null : applyPuts(before, applied);
    Row copy = after == null ? null : store(after);
    // The row itself when no put changed it; dropped when it could not be read or stored.
    Row replacement = before != null && after == null ? old : copy;
    Row now = rows.asMap().compute(key, (k, present) -> present == old ? replacement : null);
    if (copy != null) {
      if (now == copy) {
        updates.increment();
      } else {
        slabs.release(copy);
      }
      slabs.compact();
    }
  }

  /**
   * The row's cells with the puts applied (each column keeps its newest timestamp, a put winning a
   * tie), or null when every put was older than the column's cached version.
   */
  private static List<Cell> applyPuts(Result row, List<KeyValue> puts) {
    List<Cell> cells = new ArrayList<>(row.cells());
    boolean changed = false;
    for (KeyValue put : puts) {
      // The row holds one cell per column, in column order.
      int i = Collections.binarySearch(cells, put, CellComparator.INSTANCE::compareColumns);
      if (i < 0) {
        cells.add(-i - 1, put);
        changed = true;
      } else if (put.getTimestamp() >= cells.get(i).getTimestamp()) {
        cells.set(i, put);
        changed = true;
      }
    }
    return changed ? cells : null;
  }

  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }

  /** Cached rows brought up to date by a write instead of being dropped. */
  long updates() {
    return updates.sum();
  }

  /**
   * The result's cells copied into the slabs; null when it is not cached: an existence answer, a
   * partial row, cells that are not plain KeyValues, a row with a cell that has a per-cell TTL (the
   * cache would serve it after it expired), or a row over {@link #MAX_CELLS} cells or {@link
   * #MAX_BYTES} bytes.
   */
  private Row store(Result r) {
    if (r.getExists() != null || r.mayHaveMoreCellsInRow()) {
      return null;
    }
    return store(r.cells());
  }

  private Row store(List<Cell> cells) {
    if (capacity == 0 || cells.size() > MAX_CELLS) {
      return null;
    }
    int total = 0;
    for (Cell c : cells) {
      if (!(c instanceof KeyValue kv)
          || kv.getTtl() != KeyValue.NO_TTL
          || (total += kv.getLength()) > MAX_BYTES) {
        return null;
      }
    }
    int length = RowSlabs.rangeLength(total, cells.size());
    if (!slabs.fits(length)) {
      return null;
    }
    return slabs.store(cells, length);
  }

  /** Rows moved out of slabs that were being emptied. */
  long rowsMoved() {
    return slabs.rowsMoved();
  }

  /** Bytes of the slabs the cached rows are in (live or not). */
  long slabBytes() {
    return slabs.inUseBytes();
  }

  /** The most {@link #slabBytes} may be, give or take a slab, once {@link #offer} returns. */
  long slabLimit() {
    return slabs.limit();
  }

  /** Slabs ever made. */
  long slabsCreated() {
    return slabs.slabsCreated();
  }

  /** Heap bytes of an entry: the row's range, its key and the cache's node. */
  private static int weight(Key k, Row r) {
    return 112 + k.row().length + r.length;
  }
}
