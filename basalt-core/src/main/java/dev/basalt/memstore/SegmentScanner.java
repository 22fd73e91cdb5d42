package dev.basalt.memstore;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;

/**
 * Scans one memstore, hiding removed cells and cells above the read point. Forward movement follows
 * the skip list's level-0 links; reseeks search forwards from the current node in O(log distance);
 * seeks and backward moves search from the top in O(log n). Cells inserted while scanning are seen
 * or not (links are only ever added) but never matter: anything committed after the read point was
 * taken is filtered out.
 */
final class SegmentScanner implements KeyValueScanner {
  private final CellSkipList list;
  private final long readPoint;
  private final long order;
  private long node; // the node of current, or 0
  private KeyValue current;

  SegmentScanner(CellSkipList list, long readPoint, long order) {
    this.list = list;
    this.readPoint = readPoint;
    this.order = order;
  }

  /** Moves to the first visible node at or after {@code n}. */
  private boolean settle(long n) {
    while (n != 0 && (list.isRemoved(n) || list.sequenceId(n) > readPoint)) {
      n = list.next(n);
    }
    node = n;
    current = n == 0 ? null : list.cell(n);
    return current != null;
  }

  private boolean seekTo(Cell key) {
    KeyValue kv = KeyValue.copyOf(key);
    return settle(list.ceiling(kv.getBuffer(), kv.getOffset(), kv.getSequenceId()));
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Cell next() {
    KeyValue out = current;
    if (out != null) {
      settle(list.next(node));
    }
    return out;
  }

  @Override
  public boolean seek(Cell key) {
    return seekTo(key);
  }

  @Override
  public boolean reseek(Cell key) {
    if (current == null) {
      return false;
    }
    if (CellComparator.INSTANCE.compare(current, key) >= 0) {
      return true;
    }
    KeyValue kv = KeyValue.copyOf(key);
    return settle(list.ceilingAfter(node, kv.getBuffer(), kv.getOffset(), kv.getSequenceId()));
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    byte[] row = CellUtil.cloneRow(key);
    while (true) {
      KeyValue first = KeyValue.firstOnRow(row);
      long lower = list.lower(first.getBuffer(), first.getOffset(), first.getSequenceId());
      if (lower == 0) {
        node = 0;
        current = null;
        return false;
      }
      row = CellUtil.cloneRow(list.cell(lower));
      // The row may hold only cells above the read point; then try the row before it.
      if (seekTo(KeyValue.firstOnRow(row)) && CellUtil.matchingRow(current, row)) {
        return true;
      }
    }
  }

  @Override
  public boolean backwardSeek(Cell key) {
    if (seekTo(key) && CellUtil.matchingRows(current, key)) {
      return true;
    }
    return seekToPreviousRow(key);
  }

  @Override
  public boolean seekToLastRow() {
    long last = list.last();
    if (last == 0) {
      node = 0;
      current = null;
      return false;
    }
    return backwardSeek(KeyValue.firstOnRow(CellUtil.cloneRow(list.cell(last))));
  }

  @Override
  public long getScannerOrder() {
    return order;
  }

  @Override
  public void close() {
    node = 0;
    current = null;
  }
}
