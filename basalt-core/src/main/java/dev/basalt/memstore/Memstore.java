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
 * wins. A store flushes by swapping in a fresh memstore and writing the old one out; readers that
 * still scan the old one keep working.
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
    return scanner(readPoint, Long.MAX_VALUE);
  }

  /**
   * A scanner that sees the cells committed at or below {@code readPoint}.
   *
   * @param order the scanner's place among sources holding equal cells (higher is newer)
   */
  public KeyValueScanner scanner(long readPoint, long order) {
    return new SegmentScanner(cells, readPoint, order);
  }

  /** Every cell in order, for writing a flushed memstore out; the memstore must not change. */
  public Iterable<KeyValue> cells() {
    return cells.values();
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
