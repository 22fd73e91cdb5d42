package dev.basalt.memstore;

import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The in-memory sorted buffer of one store (one family of one region): a lock-free skip list in
 * cell order ({@link CellSkipList}) whose nodes and cells are copied into the chunks of two {@link
 * Arena}s. Writers add cells with their sequence id; readers see only cells at or below their MVCC
 * read point, so a mutation becomes visible all at once when the read point passes its sequence id.
 *
 * <p>Every cell added is copied, so callers may reuse what they passed in (a client may reuse a
 * Put). Cells handed out (by {@link #insert}, the scanners and {@link #cells}) are {@link
 * KeyValue}s backed by the arena's chunks; they stay valid after the memstore is flushed and
 * dropped (the chunks are ordinary arrays, kept alive by whoever still holds such a cell) and
 * nothing ever changes their bytes.
 *
 * <p>{@link #heapSize} counts the arena bytes of the cells present: each cell's length plus its
 * node (48 to 136 bytes; 51 on average). The arenas hold up to one partly used chunk each (at most
 * 2 MiB) more, and the bytes of removed or replaced cells until they are dropped.
 *
 * <p>Thread-safe: any number of concurrent writers and readers. Adding a cell equal to a present
 * one (same key and sequence id) replaces it, so the last of two identical cells in one mutation
 * wins. A store flushes by swapping in a fresh memstore and writing the old one out; readers that
 * still scan the old one keep working.
 */
public final class Memstore {
  private final CellSkipList list = new CellSkipList();

  /** Older versions that make an insert count in {@link #deepInserts}. */
  public static final int DEEP_VERSIONS = 4;

  private final AtomicLong heapSize = new AtomicLong();
  private final AtomicInteger cellCount = new AtomicInteger();
  private final LongAdder deepInserts = new LongAdder();

  /**
   * Adds a copy of a committed-to-be cell, keeping its sequence id and per-cell TTL; returns the
   * heap change.
   */
  public long add(KeyValue kv) {
    return account(
        list.insert(
            kv.getBuffer(),
            kv.getOffset(),
            kv.getLength(),
            kv.getSequenceId(),
            kv.getTimestamp(),
            kv.getTtl()));
  }

  /**
   * Adds a copy of {@code kv} carrying sequence id {@code seq} and timestamp {@code timestamp} (the
   * copy is laid out once, with the server's timestamp already in place), and {@code kv}'s per-cell
   * TTL.
   *
   * @return the cell as stored, backed by the memstore
   */
  public KeyValue insert(KeyValue kv, long seq, long timestamp) {
    long node =
        list.insert(kv.getBuffer(), kv.getOffset(), kv.getLength(), seq, timestamp, kv.getTtl());
    account(node);
    return list.cell(node);
  }

  /** Counts a node just linked, flagging the equal cell it replaces; returns the heap change. */
  private long account(long node) {
    long delta = list.size(node);
    long replaced = list.equalSuccessor(node);
    if (replaced != 0 && list.markRemoved(replaced)) {
      delta -= list.size(replaced);
    } else {
      cellCount.incrementAndGet();
      if (list.olderVersions(node, DEEP_VERSIONS) >= DEEP_VERSIONS) {
        deepInserts.increment();
      }
    }
    heapSize.addAndGet(delta);
    return delta;
  }

  /**
   * Removes exactly this cell (same key and sequence id), used to undo a mutation that failed
   * before its sequence id became visible. Returns the change in heap size.
   */
  public long remove(KeyValue kv) {
    long node = list.ceiling(kv.getBuffer(), kv.getOffset(), kv.getSequenceId());
    // Equal cells sit together, the live one (if any) first.
    while (node != 0 && list.holds(node, kv.getBuffer(), kv.getOffset(), kv.getSequenceId())) {
      if (list.markRemoved(node)) {
        long delta = -list.size(node);
        heapSize.addAndGet(delta);
        cellCount.decrementAndGet();
        return delta;
      }
      node = list.next(node);
    }
    return 0;
  }

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
    return new SegmentScanner(list, readPoint, order);
  }

  /** Every cell in order, for writing a flushed memstore out; the memstore must not change. */
  public Iterable<KeyValue> cells() {
    return () ->
        new Iterator<>() {
          private long node = skipRemoved(list.first());

          @Override
          public boolean hasNext() {
            return node != 0;
          }

          @Override
          public KeyValue next() {
            if (node == 0) {
              throw new NoSuchElementException();
            }
            KeyValue kv = list.cell(node);
            node = skipRemoved(list.next(node));
            return kv;
          }
        };
  }

  private long skipRemoved(long node) {
    while (node != 0 && list.isRemoved(node)) {
      node = list.next(node);
    }
    return node;
  }

  public long heapSize() {
    return heapSize.get();
  }

  /**
   * Cells inserted in front of at least {@value #DEEP_VERSIONS} older versions of their column:
   * every read of such a column steps over them (cache misses in the skip list), until a flush
   * moves them into a file, where they are contiguous, and a compaction drops the dead ones.
   */
  public long deepInserts() {
    return deepInserts.sum();
  }

  public int cellCount() {
    return cellCount.get();
  }

  public boolean isEmpty() {
    return cellCount.get() == 0;
  }
}
