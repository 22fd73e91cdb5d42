package dev.basalt.memstore;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import java.util.Iterator;
import java.util.NavigableMap;

/**
 * Scans one memstore segment, hiding cells above the read point. Forward movement uses a skip-list
 * iterator; reseeks and backward moves re-enter the skip list in O(log n). Cells inserted while
 * scanning are seen or not (weakly consistent iterators) but never matter: anything committed after
 * the read point was taken is filtered out.
 */
final class SegmentScanner implements KeyValueScanner {
  private final NavigableMap<KeyValue, KeyValue> map;
  private final long readPoint;
  private final long order;
  private Iterator<KeyValue> iter;
  private KeyValue current;

  SegmentScanner(NavigableMap<KeyValue, KeyValue> map, long readPoint, long order) {
    this.map = map;
    this.readPoint = readPoint;
    this.order = order;
  }

  private void advance() {
    while (iter.hasNext()) {
      KeyValue kv = iter.next();
      if (kv.getSequenceId() <= readPoint) {
        current = kv;
        return;
      }
    }
    current = null;
  }

  private boolean seekTo(Cell key) {
    // Values, not keys: a put of an equal cell replaces the value but keeps the first key object,
    // and the last write of the same cell in one mutation must win.
    iter = map.tailMap(KeyValue.copyOf(key), true).values().iterator();
    advance();
    return current != null;
  }

  @Override
  public Cell peek() {
    return current;
  }

  @Override
  public Cell next() {
    KeyValue out = current;
    if (out != null) {
      advance();
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
    return seekTo(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    byte[] row = CellUtil.cloneRow(key);
    while (true) {
      KeyValue lower = map.lowerKey(KeyValue.firstOnRow(row));
      if (lower == null) {
        current = null;
        return false;
      }
      row = CellUtil.cloneRow(lower);
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
    java.util.Map.Entry<KeyValue, KeyValue> last = map.lastEntry();
    if (last == null) {
      current = null;
      return false;
    }
    return backwardSeek(KeyValue.firstOnRow(CellUtil.cloneRow(last.getKey())));
  }

  @Override
  public long getScannerOrder() {
    return order;
  }

  @Override
  public void close() {
    current = null;
    iter = null;
  }
}
