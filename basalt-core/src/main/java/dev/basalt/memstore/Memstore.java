package dev.basalt.memstore;

import dev.basalt.cell.CellComparator;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory sorted buffer of one store (one family of one region): a concurrent skip list in
 * cell order. Writers add cells that already carry their sequence id; readers see only cells at or
 * below their MVCC read point, so a mutation becomes visible all at once when the read point passes
 * its sequence id.
 *
 * <p>Thread-safe: any number of concurrent writers and readers. Adding a cell equal to a present
 * one (same key and sequence id) replaces it, so the last of two identical cells in one mutation
 * wins.
 */
public final class Memstore {
  private final ConcurrentSkipListMap<KeyValue, KeyValue> cells =
      new ConcurrentSkipListMap<>(CellComparator.INSTANCE);
  private final AtomicLong heapSize = new AtomicLong();

  /** Adds a committed-to-be cell; returns the change in heap size. */
  public long add(KeyValue kv) {
    KeyValue prev = cells.put(kv, kv);
    long delta =
        kv.heapSize() + ENTRY_OVERHEAD - (prev == null ? 0 : prev.heapSize() + ENTRY_OVERHEAD);
    heapSize.addAndGet(delta);
    return delta;
  }

  /**
   * Removes exactly this cell (same key and sequence id), used to undo a mutation that failed
   * before its sequence id became visible. Returns the change in heap size.
   */
  public long remove(KeyValue kv) {
    KeyValue prev = cells.remove(kv);
    long delta = prev == null ? 0 : -(prev.heapSize() + ENTRY_OVERHEAD);
    heapSize.addAndGet(delta);
    return delta;
  }

  /** Skip-list node and index overhead per entry, estimated. */
  private static final long ENTRY_OVERHEAD = 48;

  /** A scanner that sees the cells committed at or below {@code readPoint}. */
  public KeyValueScanner scanner(long readPoint) {
    return new SegmentScanner(cells, readPoint, Long.MAX_VALUE);
  }

  public long heapSize() {
    return heapSize.get();
  }

  public int cellCount() {
    return cells.size();
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }
}
